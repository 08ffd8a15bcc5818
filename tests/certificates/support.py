"""What certificate tests of every app use: an install's signing key, a passed exam."""

from datetime import datetime

from django.utils import timezone

from polotrainer.certificates import signing
from polotrainer.certificates.models import Certificate
from polotrainer.courses.exams.signals import exam_passed


def new_key() -> str:
    """A private key as the environment variable holds it (base64url of 32 bytes)."""
    return signing.b64e(signing.generate().private_bytes_raw())


def pass_exam(
    user,
    cohort,
    attempt_id,
    score=96.5,
    when: datetime | None = None,
    title="Final",
    title_it: str | None = None,
):
    """The courses app's signal for a passed exam titled `title` (`title_it` in Italian, by
    default the English one marked "(it)", as make_course names a course)."""
    exam_passed.send(
        sender=None,
        attempt_id=attempt_id,
        user=user,
        course=cohort.course,
        cohort=cohort,
        exam_title_it=f"{title} (it)" if title_it is None else title_it,
        exam_title_en=title,
        score_percent=score,
        passed_at=when or timezone.now(),
    )
    return Certificate.objects.get(attempt_id=attempt_id, revoked_at__isnull=True)
