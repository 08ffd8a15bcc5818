"""Timed exams of a cohort, in their own package of the courses app.

- `models`: the exam, extra time (accommodation), an attempt and its frozen questions (slots);
  the tables stay the courses app's (`courses_exam`, ...), so no migration moved them.
- `attempts`: the domain: setting an exam, starting, saving, submitting, grading, re-grading.
- `itemanalysis`: how each question of an exam did (difficulty, discrimination, distractors).
- `signals`: what exams tell other apps (a pass, a withdrawn pass), with plain values.
- `forms`, `views`: the trainee's and the instructor's screens (URLs in `courses/urls.py`,
  unchanged under the `courses:` namespace).

Exams build on cohorts and assignments (`polotrainer.courses`); the cohort's own screens and
gradebook, which show its exams, sit above them (see tests/site/test_layers.py).
"""
