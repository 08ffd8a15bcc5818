"""What the courses app tells other apps, so they can act without the courses app importing them.

- `exam_passed(sender=ExamAttempt, attempt=...)`: an attempt was submitted (or auto-submitted,
  or re-graded) and passed. Sent after the transaction commits.
- `exam_pass_withdrawn(sender=ExamAttempt, attempt=..., reason=...)`: a re-grade turned a pass
  into a fail; `reason` is a short text in the instructor's words (or the re-grade's summary).
"""

from django.dispatch import Signal

exam_passed = Signal()
exam_pass_withdrawn = Signal()
