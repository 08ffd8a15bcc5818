"""Invitations to a cohort by e-mail: a pasted list read line by line, one invitation per
address, each mailed in its own language with a link that joins on one click.

A line is an address, or CSV: `name, address` (either order) and optionally a language (`it`,
`en`). A header line naming the columns is skipped. Every line that is not one of these is
reported by its number with a machine code; the other lines are invited.
"""

import csv
import secrets
from dataclasses import dataclass
from enum import StrEnum

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from polotrainer.courses.models import Cohort, Membership
from polotrainer.notify import sending
from polotrainer.notify.links import absolute
from polotrainer.notify.models import Invitation, InvitationStatus

MAX_LINES = 500
LANGUAGES = {code for code, _name in settings.LANGUAGES}
HEADER_WORDS = {"name", "nome", "email", "e-mail", "mail", "address", "indirizzo", "language"}


@dataclass(frozen=True)
class Line:
    number: int
    email: str
    name: str = ""
    language: str = ""


@dataclass(frozen=True)
class Problem:
    """A line not invited, and why."""

    number: int
    text: str
    code: "LineCode"


class LineCode(StrEnum):
    """Why a pasted line was not invited (invitation_views.PROBLEMS words each)."""

    MALFORMED = "malformed"
    TOO_LONG = "too_long"
    MEMBER = "member"
    FULL = "full"


class RefusalCode(StrEnum):
    """Why joining by an invitation was refused (invitation_views.REFUSALS words each)."""

    WITHDRAWN = "withdrawn"
    USED = "used"
    FULL = "full"
    TEACHER = "teacher"
    CLOSED = "closed"  # the cohort takes nobody new now (its join is turned off or expired)


def parse(text: str) -> tuple[list[Line], list[Problem]]:
    """The addresses of a pasted list (the first line of each address wins) and its problems."""
    lines: list[Line] = []
    problems: list[Problem] = []
    seen: set[str] = set()
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        if number > MAX_LINES:
            problems.append(Problem(number, raw[:200], LineCode.TOO_LONG))
            continue
        fields = [f.strip() for f in next(csv.reader([raw], skipinitialspace=True), [])]
        fields = [f for f in fields if f]
        if number == 1 and fields and all(f.casefold() in HEADER_WORDS for f in fields):
            continue
        line = _read(number, fields)
        if line is None:
            problems.append(Problem(number, raw[:200], LineCode.MALFORMED))
        elif line.email not in seen:
            seen.add(line.email)
            lines.append(line)
    return lines, problems


def _read(number: int, fields: list[str]) -> Line | None:
    emails = [f for f in fields if "@" in f]
    if len(emails) != 1 or len(fields) > 3:
        return None
    email = emails[0].strip("<>").strip()
    try:
        validate_email(email)
    except ValidationError:
        return None
    rest = [f for f in fields if f is not emails[0]]
    language = next((f.lower() for f in rest if f.lower() in LANGUAGES), "")
    names = [f for f in rest if f.lower() != language]
    if len(names) > 1 or (names and len(names[0]) > 120):
        return None
    return Line(number, email.lower(), names[0] if names else "", language)


def places_left(cohort: Cohort) -> int | None:
    """Places the cohort's limit leaves for new invitations (None: no limit)."""
    if cohort.max_trainees is None:
        return None
    taken = Membership.objects.filter(cohort=cohort).count()
    waiting = Invitation.objects.filter(cohort=cohort, status=InvitationStatus.INVITED).count()
    return max(0, cohort.max_trainees - taken - waiting)


@dataclass
class Outcome:
    invited: list[Invitation]
    again: list[Invitation]  # already invited: sent once more
    problems: list[Problem]


def invite(cohort: Cohort, lines: list[Line], *, by: User, language: str, base: str) -> Outcome:
    """Invite each line's address (or send its invitation again), refusing beyond the limit."""
    outcome = Outcome([], [], [])
    members = {
        e.lower()
        for e in Membership.objects.filter(cohort=cohort).values_list("user__email", flat=True)
    }
    with transaction.atomic():
        locked = Cohort.objects.select_for_update().get(pk=cohort.pk)
        left = places_left(locked)
        for line in lines:
            if line.email in members:
                outcome.problems.append(Problem(line.number, line.email, LineCode.MEMBER))
                continue
            existing = Invitation.objects.filter(cohort=locked, email=line.email).first()
            if existing is not None and existing.status != InvitationStatus.WITHDRAWN:
                if existing.status != InvitationStatus.JOINED:
                    outcome.again.append(existing)
                continue
            if left is not None and left <= 0:
                outcome.problems.append(Problem(line.number, line.email, LineCode.FULL))
                continue
            invitation = existing or Invitation(cohort=locked, email=line.email)
            invitation.name = line.name or invitation.name
            invitation.language = line.language or language
            invitation.status, invitation.error = InvitationStatus.INVITED, ""
            invitation.invited_by = by
            if not invitation.token:
                invitation.token = secrets.token_urlsafe(24)
            invitation.save()
            outcome.invited.append(invitation)
            if left is not None:
                left -= 1
    if settings.MAIL_ENABLED:
        for invitation in outcome.invited + outcome.again:
            mail(invitation, base)
    return outcome


def link(invitation: Invitation, base: str) -> str:
    return absolute("notify:invitation", invitation.language, invitation.token, base=base)


def mail(invitation: Invitation, base: str) -> bool:
    """Send (or send again) one invitation; record whether the mail server took it."""
    cohort = invitation.cohort
    context = {
        "invitation": invitation,
        "cohort": cohort,
        "course": cohort.course,
        "link": link(invitation, base),
        "instructor": _name(invitation.invited_by),
    }
    message = sending.compose(invitation.email, "invitation", context, invitation.language)
    error = sending.send(message)
    invitation.sends += 1
    invitation.sent_at = timezone.now()
    invitation.error = error
    invitation.status = InvitationStatus.FAILED if error else InvitationStatus.INVITED
    invitation.save(update_fields=["sends", "sent_at", "error", "status"])
    return not error


def _name(user: User | None) -> str:
    if user is None:
        return ""
    profile = getattr(user, "profile", None)
    return (profile and profile.display_name) or user.get_full_name() or user.get_username()


def withdraw(invitation: Invitation) -> bool:
    if invitation.status == InvitationStatus.JOINED:
        return False
    invitation.status = InvitationStatus.WITHDRAWN
    invitation.save(update_fields=["status"])
    return True


def for_instructor(user: User) -> Q:
    return Q(cohort__course__instructors=user)


class Refused(Exception):
    """Joining by invitation refused, and why."""

    def __init__(self, code: RefusalCode) -> None:
        super().__init__(code)
        self.code = code


def accept(invitation: Invitation, user: User) -> Membership | None:
    """Join the invitation's cohort as `user`; None when they were in it already."""
    from polotrainer.courses import enrolment

    if invitation.status == InvitationStatus.WITHDRAWN:
        raise Refused(RefusalCode.WITHDRAWN)
    if invitation.status == InvitationStatus.JOINED and invitation.joined_by_id != user.pk:
        raise Refused(RefusalCode.USED)
    try:
        membership = enrolment.join(user, invitation.cohort)
    except enrolment.JoinError as exc:
        if exc.code != enrolment.JoinCode.ALREADY:
            # The cohort's own refusal, as the invitation page says it.
            said = {
                enrolment.JoinCode.FULL: RefusalCode.FULL,
                enrolment.JoinCode.TEACHER: RefusalCode.TEACHER,
            }
            raise Refused(said.get(exc.code, RefusalCode.CLOSED)) from None
        membership = None
    Invitation.objects.filter(pk=invitation.pk).exclude(status=InvitationStatus.JOINED).update(
        status=InvitationStatus.JOINED, joined_by=user, joined_at=timezone.now()
    )
    return membership
