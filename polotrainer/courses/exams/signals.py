"""What the courses app tells other apps, so they can act without the courses app importing them.

Both are sent after the transaction that decided them commits, with plain values only, so a
receiver needs no exam model:

- `exam_passed(sender=<exam attempt class>, attempt_id, user, course, cohort, exam_title_it,
  exam_title_en, score_percent, passed_at)`: an attempt was submitted (by the trainee, at its
  deadline or by a re-grade) and passed. `user` is the trainee (a User), `course` and `cohort`
  the course's rows, the exam's title in both languages, `score_percent` a float 0-100,
  `passed_at` the attempt's finish time (aware datetime).
- `exam_pass_withdrawn(sender=<exam attempt class>, attempt_id, reason)`: a re-grade turned that
  pass into a fail; `reason` says so in words (e.g. "Re-graded on 2026-12-01: 93% < 95%").
"""

from django.dispatch import Signal

exam_passed = Signal()
exam_pass_withdrawn = Signal()
