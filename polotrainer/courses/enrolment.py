"""Joining a cohort by code, leaving it, and being removed from it.

Every refusal is a `JoinError` with a machine code; the views turn it into a sentence in the
trainee's language. A join counts and inserts under a lock on the cohort row, so two trainees
joining the last place at once cannot both get it.
"""

from enum import StrEnum

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from polotrainer.courses import codes
from polotrainer.courses.models import Cohort, Membership


class JoinCode(StrEnum):
    """Why a join code did not enrol."""

    UNKNOWN = "unknown"
    DISABLED = "disabled"
    EXPIRED = "expired"
    ALREADY = "already"
    TEACHER = "teacher"
    FULL = "full"


class JoinError(Exception):
    """A join refused: `code` is one of unknown, disabled, expired, full, already, teacher."""

    def __init__(self, code: JoinCode, cohort: Cohort | None = None) -> None:
        super().__init__(code)
        self.code = code
        self.cohort = cohort


def find(text: str) -> Cohort:
    """The cohort whose join code this is (typed in any case), if it can be joined now."""
    code = codes.normalise(text)
    if not codes.is_well_formed(code):
        raise JoinError(JoinCode.UNKNOWN)
    cohort = Cohort.objects.select_related("course").filter(join_code=code).first()
    if cohort is None:
        raise JoinError(JoinCode.UNKNOWN)
    if not cohort.join_enabled:
        raise JoinError(JoinCode.DISABLED, cohort)
    if cohort.join_expires_at is not None and cohort.join_expires_at <= timezone.now():
        raise JoinError(JoinCode.EXPIRED, cohort)
    return cohort


def join(user: User, cohort: Cohort) -> Membership:
    """Enrol the user as a trainee, or refuse (already in, teaches it, cohort full)."""
    with transaction.atomic():
        locked = Cohort.objects.select_for_update().get(pk=cohort.pk)
        if Membership.objects.filter(cohort=locked, user=user).exists():
            raise JoinError(JoinCode.ALREADY, locked)
        if locked.course.instructors.filter(pk=user.pk).exists():
            raise JoinError(JoinCode.TEACHER, locked)
        if (
            locked.max_trainees is not None
            and Membership.objects.filter(cohort=locked).count() >= locked.max_trainees
        ):
            raise JoinError(JoinCode.FULL, locked)
        try:
            with transaction.atomic():
                return Membership.objects.create(cohort=locked, user=user)
        except IntegrityError:
            raise JoinError(JoinCode.ALREADY, locked) from None


def leave(membership: Membership) -> None:
    """The trainee leaves (or is removed): the cohort is gone from their side and the
    instructors' at once. Their answers stay theirs; observations stay with the cohort."""
    membership.delete()
