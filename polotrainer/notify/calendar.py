"""A person's dates as calendar events: their exams' windows and their assignments' due dates,
in the person's language."""

import secrets
from datetime import timedelta

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from polotrainer.courses.exams.models import Exam
from polotrainer.courses.models import Assignment
from polotrainer.notify.ics import Event
from polotrainer.notify.links import absolute
from polotrainer.notify.models import FeedToken
from scenarios.localize import localize

#: How long before its due instant an assignment's event starts (it is a reminder, not a slot).
DUE_EVENT = timedelta(hours=1)


def language_of(user: User) -> str:
    profile = getattr(user, "profile", None)
    return profile.language if profile is not None else "it"


def _mine(user: User) -> Q:
    """The cohorts a person is in or teaches."""
    return Q(cohort__memberships__user=user) | Q(cohort__course__instructors=user)


def exams_of(user: User) -> QuerySet[Exam]:
    return Exam.objects.filter(_mine(user)).distinct().select_related("cohort__course")


def assignments_of(user: User) -> QuerySet[Assignment]:
    return Assignment.objects.filter(_mine(user)).distinct().select_related("cohort__course")


def exam_event(exam: Exam, lang: str, base: str) -> Event:
    with translation.override(lang):
        title = localize(exam, "title", lang)
        course = localize(exam.cohort.course, "title", lang)
        return Event(
            uid=f"exam-{exam.pk}@polotrainer",
            start=exam.opens_at,
            end=exam.closes_at,
            summary=_("Exam: %(title)s") % {"title": title},
            description=ngettext(
                "%(course)s, %(cohort)s. Open from the start to the end of this event; "
                "%(minutes)s minute a sitting.",
                "%(course)s, %(cohort)s. Open from the start to the end of this event; "
                "%(minutes)s minutes a sitting.",
                exam.time_limit_minutes,
            )
            % {
                "course": course,
                "cohort": exam.cohort.name,
                "minutes": exam.time_limit_minutes,
            },
            url=absolute("courses:exam", lang, exam.pk, base=base),
        )


def assignment_event(assignment: Assignment, lang: str, base: str) -> Event:
    with translation.override(lang):
        title = localize(assignment, "title", lang)
        course = localize(assignment.cohort.course, "title", lang)
        description = ngettext(
            "%(course)s, %(cohort)s: %(count)s question.",
            "%(course)s, %(cohort)s: %(count)s questions.",
            assignment.questions,
        ) % {
            "course": course,
            "cohort": assignment.cohort.name,
            "count": assignment.questions,
        }
        if assignment.note:
            description += "\n" + assignment.note
        return Event(
            uid=f"assignment-{assignment.pk}@polotrainer",
            start=assignment.due_at - DUE_EVENT,
            end=assignment.due_at,
            summary=_("Due: %(title)s") % {"title": title},
            description=description,
            url=absolute("courses:assignment", lang, assignment.pk, base=base),
        )


def events_of(user: User, base: str) -> list[Event]:
    """Every exam and assignment of the person's cohorts, from 30 days ago on."""
    lang, since = language_of(user), timezone.now() - timedelta(days=30)
    events = [exam_event(e, lang, base) for e in exams_of(user).filter(closes_at__gte=since)]
    events += [
        assignment_event(a, lang, base) for a in assignments_of(user).filter(due_at__gte=since)
    ]
    return sorted(events, key=lambda event: event.start)


def live_feed(user: User) -> FeedToken | None:
    return FeedToken.objects.filter(user=user, revoked_at__isnull=True).first()


def new_feed(user: User) -> FeedToken:
    """A new secret address; the old one, if any, stops working (410)."""
    with transaction.atomic():
        FeedToken.objects.filter(user=user, revoked_at__isnull=True).update(
            revoked_at=timezone.now()
        )
        try:
            with transaction.atomic():
                return FeedToken.objects.create(user=user, token=secrets.token_urlsafe(32))
        except IntegrityError:  # two clicks at once: the other one's feed stands
            return FeedToken.objects.get(user=user, revoked_at__isnull=True)


def revoke_feed(user: User) -> bool:
    return bool(
        FeedToken.objects.filter(user=user, revoked_at__isnull=True).update(
            revoked_at=timezone.now()
        )
    )
