"""What `manage.py notify` sends: reminders and news, each kind once per person and object.

Each kind finds its (person, object) pairs at `now`; a pair already in `Sent`, a person who
stopped the kind (`OptOut`), one without an address or no longer active is skipped. The
`Sent` row is written before the mail goes and removed if the mail server refuses it, so a
second run sends nothing twice and a refused mail is tried again next run.

The windows: an assignment due within 2 days and not done; an exam opening within 24 hours (or
open already) with no attempt; one closing within 24 hours with no attempt; results of an exam
closed in the last 7 days (the score, which every review policy shows after the close; the page
shows what the policy allows); a certificate signed in the last 7 days; one expiring within 30
days; for instructors, one digest per ISO week; after a clinic ended in the last 7 days, each
signed-in participant's answers, the rulings and a practice link for the situations missed.
"""

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from polotrainer.certificates.models import Certificate
from polotrainer.clinics import followup
from polotrainer.clinics.models import ClinicSession, Participant, Phase
from polotrainer.courses import assignments as homework
from polotrainer.courses.exams import itemanalysis
from polotrainer.courses.exams.models import Exam, ExamAttempt
from polotrainer.courses.models import Assignment, Cohort, Membership
from polotrainer.notify import sending, unsubscribe
from polotrainer.notify.calendar import language_of
from polotrainer.notify.links import absolute
from polotrainer.notify.models import Kind, OptOut, Sent
from polotrainer.practice import sets
from scenarios.localize import localize

DUE_AHEAD = timedelta(days=2)
EXAM_AHEAD = timedelta(hours=24)
RESULTS_WITHIN = timedelta(days=7)
ISSUED_WITHIN = timedelta(days=7)
EXPIRY_AHEAD = timedelta(days=30)
FOLLOWUP_WITHIN = timedelta(days=7)


@dataclass
class Notice:
    """One mail to write: to whom, of which kind, about what, and its words."""

    user: User
    kind: str
    object_id: int
    subject: str = ""
    paragraphs: list[str] = field(default_factory=list)
    link: str = ""
    link_label: str = ""
    #: The mail's templates (notify/mail/<template>...) and what they show beyond the above.
    template: str = "notice"
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class Report:
    sent: dict[str, int] = field(default_factory=dict)
    failed: int = 0


def run(now: datetime, base: str) -> Report:
    """Send every notice due at `now` that was never sent; what was sent, by kind."""
    report = Report()
    stopped = set(OptOut.objects.values_list("user_id", "kind"))
    done = set(Sent.objects.values_list("user_id", "kind", "object_id"))
    for notice in _all(now, base):
        user = notice.user
        if not user.is_active or not user.email or (user.pk, notice.kind) in stopped:
            continue
        if (user.pk, notice.kind, notice.object_id) in done:
            continue
        if _send(notice, base):
            report.sent[notice.kind] = report.sent.get(notice.kind, 0) + 1
            done.add((user.pk, notice.kind, notice.object_id))
        else:
            report.failed += 1
    return report


def _send(notice: Notice, base: str) -> bool:
    try:
        with transaction.atomic():
            record = Sent.objects.create(
                user=notice.user, kind=notice.kind, object_id=notice.object_id
            )
    except IntegrityError:  # another run sent it meanwhile
        return False
    lang = language_of(notice.user)
    stop = absolute("notify:stop", lang, unsubscribe.token(notice.user, notice.kind), base=base)
    with translation.override(lang):
        kind_label = str(Kind(notice.kind).label)
    context = {
        "notice": notice,
        "name": _display_name(notice.user),
        "stop": stop,
        "kind_label": kind_label,
        **notice.extra,
    }
    message = sending.compose(notice.user.email, notice.template, context, lang, unsubscribe=stop)
    if sending.send(message):
        record.delete()  # refused: tried again next run
        return False
    return True


def _display_name(user: User) -> str:
    profile = getattr(user, "profile", None)
    return (profile and profile.display_name) or user.get_username()


def _all(now: datetime, base: str) -> Iterator[Notice]:
    yield from assignments_due(now, base)
    yield from exams_opening(now, base)
    yield from exams_closing(now, base)
    yield from results(now, base)
    yield from certificates_issued(now, base)
    yield from certificates_expiring(now, base)
    yield from digests(now, base)
    yield from clinic_followups(now, base)


def _members(cohort_ids: list[int]) -> dict[int, list[Membership]]:
    out: dict[int, list[Membership]] = {}
    for m in Membership.objects.filter(cohort_id__in=cohort_ids).select_related("user__profile"):
        out.setdefault(m.cohort_id, []).append(m)
    return out


def assignments_due(now: datetime, base: str) -> Iterator[Notice]:
    due = list(
        Assignment.objects.filter(due_at__gt=now, due_at__lte=now + DUE_AHEAD).select_related(
            "cohort__course"
        )
    )
    members = _members([a.cohort_id for a in due])
    for assignment in due:
        people = members.get(assignment.cohort_id, [])
        progress = homework.progress([assignment], [m.user_id for m in people])
        for m in people:
            p = progress[(assignment.pk, m.user_id)]
            if p.done:
                continue
            lang = language_of(m.user)
            with translation.override(lang):
                title = localize(assignment, "title", lang)
                yield Notice(
                    m.user,
                    Kind.ASSIGNMENT_DUE,
                    assignment.pk,
                    _("Due soon: %(title)s") % {"title": title},
                    [
                        _("%(course)s, %(cohort)s: “%(title)s” is due on %(day)s.")
                        % {
                            "course": localize(assignment.cohort.course, "title", lang),
                            "cohort": assignment.cohort.name,
                            "title": title,
                            "day": _day(assignment.due_on),
                        },
                        ngettext(
                            "You have answered %(answered)s of %(count)s question.",
                            "You have answered %(answered)s of %(count)s questions.",
                            p.target,
                        )
                        % {"answered": p.answered, "count": p.target},
                    ],
                    absolute("courses:assignment", lang, assignment.pk, base=base),
                    _("Go on with the assignment"),
                )


def _day(day: date) -> str:
    return date_format(day, "DATE_FORMAT")


def _moment(moment: datetime, cohort: Cohort) -> str:
    local = moment.astimezone(ZoneInfo(cohort.course.time_zone))
    return f"{date_format(local, 'DATETIME_FORMAT')} ({cohort.course.time_zone})"


def _without_attempt(exams: list[Exam]) -> Iterator[tuple[Exam, Membership]]:
    tried = set(
        ExamAttempt.objects.filter(exam__in=exams, preview=False).values_list("exam_id", "user_id")
    )
    members = _members([e.cohort_id for e in exams])
    for exam in exams:
        for m in members.get(exam.cohort_id, []):
            if (exam.pk, m.user_id) not in tried:
                yield exam, m


def _exam_notices(
    exams: list[Exam], kind: Kind, base: str, words: Callable[[Exam, str], tuple[str, str]]
) -> Iterator[Notice]:
    """A notice to each trainee who has not sat one of `exams`, in the trainee's language:
    `words(exam, title)` gives its subject and its line (called in that language)."""
    for exam, m in _without_attempt(exams):
        lang = language_of(m.user)
        with translation.override(lang):
            subject, line = words(exam, localize(exam, "title", lang))
            yield Notice(
                m.user,
                kind,
                exam.pk,
                subject,
                [line],
                absolute("courses:exam", lang, exam.pk, base=base),
                _("Open the exam page"),
            )


def exams_opening(now: datetime, base: str) -> Iterator[Notice]:
    exams = list(
        Exam.objects.filter(
            opens_at__lte=now + EXAM_AHEAD, closes_at__gt=now + EXAM_AHEAD
        ).select_related("cohort__course")
    )

    def words(exam: Exam, title: str) -> tuple[str, str]:
        return (
            _("Exam opening: %(title)s") % {"title": title},
            _("The exam “%(title)s” opens on %(when)s and closes on %(end)s.")
            % {
                "title": title,
                "when": _moment(exam.opens_at, exam.cohort),
                "end": _moment(exam.closes_at, exam.cohort),
            },
        )

    yield from _exam_notices(exams, Kind.EXAM_OPENS, base, words)


def exams_closing(now: datetime, base: str) -> Iterator[Notice]:
    exams = list(
        Exam.objects.filter(
            opens_at__lte=now, closes_at__gt=now, closes_at__lte=now + EXAM_AHEAD
        ).select_related("cohort__course")
    )

    def words(exam: Exam, title: str) -> tuple[str, str]:
        return (
            _("Closing soon: %(title)s") % {"title": title},
            _("The exam “%(title)s” closes on %(when)s and you have not sat it yet.")
            % {"title": title, "when": _moment(exam.closes_at, exam.cohort)},
        )

    yield from _exam_notices(exams, Kind.EXAM_CLOSING, base, words)


def results(now: datetime, base: str) -> Iterator[Notice]:
    """After the close: each trainee's best submitted attempt, its score (never the answers:
    the result page shows what the exam's review policy allows)."""
    exams = Exam.objects.filter(closes_at__lte=now, closes_at__gt=now - RESULTS_WITHIN)
    attempts = (
        ExamAttempt.objects.filter(exam__in=exams, preview=False, finished_at__isnull=False)
        .exclude(user=None)
        .select_related("exam__cohort__course", "user__profile")
        .order_by("exam_id", "user_id", "-right", "pk")
    )
    seen: set[tuple[int, int]] = set()
    for attempt in attempts:
        assert attempt.user is not None
        key = (attempt.exam_id, attempt.user.pk)
        if key in seen:
            continue
        seen.add(key)
        lang = language_of(attempt.user)
        with translation.override(lang):
            title = localize(attempt.exam, "title", lang)
            verdict = _("passed") if attempt.passed else _("not passed")
            yield Notice(
                attempt.user,
                Kind.RESULTS,
                attempt.exam_id,
                _("Results: %(title)s") % {"title": title},
                [
                    _("The exam “%(title)s” has closed. Your result: %(score)s%%, %(verdict)s.")
                    % {
                        "title": title,
                        "score": f"{attempt.percent or 0:.1f}",
                        "verdict": verdict,
                    }
                ],
                absolute("courses:exam_result", lang, attempt.pk, base=base),
                _("See your result"),
            )


def _verify(certificate: Certificate, lang: str, base: str) -> str:
    return absolute("certificates:verify", lang, base=base) + f"?code={certificate.code}"


def certificates_issued(now: datetime, base: str) -> Iterator[Notice]:
    issued = (
        Certificate.objects.filter(
            created_at__gt=now - ISSUED_WITHIN, revoked_at__isnull=True, user__isnull=False
        )
        .exclude(signature="")
        .select_related("user__profile")
    )
    for certificate in issued:
        user = certificate.user
        assert user is not None
        lang = language_of(user)
        with translation.override(lang):
            yield Notice(
                user,
                Kind.CERTIFICATE,
                certificate.pk,
                _("Your certificate: %(course)s")
                % {"course": localize(certificate, "course_title", lang)},
                [
                    _("Your certificate %(code)s is issued. Anyone can check it at this address:")
                    % {"code": certificate.grouped_code},
                    _verify(certificate, lang, base),
                ],
                absolute("certificates:certificate", lang, certificate.pk, base=base),
                _("Print your certificate"),
            )


def certificates_expiring(now: datetime, base: str) -> Iterator[Notice]:
    today = now.date()
    expiring = (
        Certificate.objects.filter(
            expires_on__gt=today,
            expires_on__lte=today + EXPIRY_AHEAD,
            revoked_at__isnull=True,
            user__isnull=False,
        )
        .exclude(signature="")
        .select_related("user__profile")
    )
    for certificate in expiring:
        user = certificate.user
        assert user is not None
        lang = language_of(user)
        with translation.override(lang):
            course = localize(certificate, "course_title", lang)
            yield Notice(
                user,
                Kind.EXPIRING,
                certificate.pk,
                _("Your certificate expires soon: %(course)s") % {"course": course},
                [
                    _("Your certificate %(code)s (%(course)s) expires on %(day)s.")
                    % {
                        "code": certificate.grouped_code,
                        "course": course,
                        "day": _day(certificate.expires_on),
                    }
                ],
                absolute("certificates:certificate", lang, certificate.pk, base=base),
                _("See your certificate"),
            )


def digests(now: datetime, base: str) -> Iterator[Notice]:
    """Once per ISO week, each instructor: per cohort, who is behind and the exam items with
    negative discrimination (the strong got them wrong more than the weak)."""
    year, week, _weekday = now.isocalendar()
    week_id = year * 100 + week
    cohorts = list(Cohort.objects.select_related("course").prefetch_related("course__instructors"))
    if not cohorts:
        return
    members = _members([c.pk for c in cohorts])
    recent = list(
        Assignment.objects.filter(
            cohort__in=cohorts, due_at__gt=now - timedelta(days=14), due_at__lte=now + DUE_AHEAD
        )
    )
    behind: dict[int, set[str]] = {}
    for a in recent:
        people = members.get(a.cohort_id, [])
        progress = homework.progress([a], [m.user_id for m in people])
        for m in people:
            if not progress[(a.pk, m.user_id)].done:
                behind.setdefault(a.cohort_id, set()).add(_display_name(m.user))
    negative: dict[int, int] = {}
    last_closed = Exam.objects.filter(cohort__in=cohorts, closes_at__lte=now).values("cohort_id")
    latest = last_closed.annotate(last=Max("closes_at"))
    for row in latest:
        exam = Exam.objects.filter(cohort_id=row["cohort_id"], closes_at=row["last"]).first()
        if exam is not None:
            analysis = itemanalysis.for_exam(exam)
            negative[exam.cohort_id] = sum(1 for item in analysis.items if item.negative)
    teachers: dict[int, tuple[User, list[Cohort]]] = {}
    for cohort in cohorts:
        for teacher in cohort.course.instructors.all():
            teachers.setdefault(teacher.pk, (teacher, []))[1].append(cohort)
    for teacher, taught in teachers.values():
        lang = language_of(teacher)
        with translation.override(lang):
            lines = []
            for cohort in taught:
                names = sorted(behind.get(cohort.pk, set()))
                line = _("%(course)s, %(cohort)s: %(trainees)s.") % {
                    "course": localize(cohort.course, "title", lang),
                    "cohort": cohort.name,
                    "trainees": ngettext(
                        "%(count)s trainee", "%(count)s trainees", len(members.get(cohort.pk, []))
                    )
                    % {"count": len(members.get(cohort.pk, []))},
                }
                if names:
                    line += " " + _("Behind on an assignment: %(names)s.") % {
                        "names": ", ".join(names)
                    }
                if negative.get(cohort.pk):
                    line += " " + ngettext(
                        "In the last exam %(count)s item has negative discrimination: "
                        "review it in the item analysis.",
                        "In the last exam %(count)s items have negative discrimination: "
                        "review them in the item analysis.",
                        negative[cohort.pk],
                    ) % {"count": negative[cohort.pk]}
                lines.append(line)
            yield Notice(
                teacher,
                Kind.DIGEST,
                week_id,
                _("Your cohorts this week"),
                lines,
                absolute("courses:mine", lang, base=base),
                _("Open your courses"),
            )


def clinic_followups(now: datetime, base: str) -> Iterator[Notice]:
    """After a clinic: each signed-in participant's answers per round, the engine's rulings and
    a practice link for the situations missed (clinics.followup). A phone without an account
    gets nothing; a person who played twice in one clinic gets one mail (the first seat)."""
    ended = ClinicSession.objects.filter(
        phase=Phase.ENDED, ended_at__gt=now - FOLLOWUP_WITHIN, ended_at__lte=now
    )
    seats = (
        Participant.objects.filter(session__in=ended, user__isnull=False)
        .select_related("session", "user__profile")
        .order_by("session_id", "user_id", "joined_at", "pk")
    )
    seen: set[tuple[int, int]] = set()
    for seat in seats:
        user = seat.user
        assert user is not None
        if (seat.session_id, user.pk) in seen:
            continue
        seen.add((seat.session_id, user.pk))
        lang = language_of(user)
        rounds = followup.report(seat, lang)
        missed = followup.missed(rounds)
        with translation.override(lang):
            right = sum(1 for r in rounds if not r.missed)
            yield Notice(
                user,
                Kind.CLINIC_FOLLOWUP,
                seat.session_id,
                _("After the clinic: %(title)s") % {"title": seat.session.title},
                [
                    _("Rounds answered all right: %(right)s of %(count)s.")
                    % {"right": right, "count": len(rounds)}
                ],
                absolute("practice:set", lang, sets.token(missed), base=base) if missed else "",
                ngettext(
                    "Practise what you missed: %(count)s situation",
                    "Practise what you missed: %(count)s situations",
                    len(missed),
                )
                % {"count": len(missed)}
                if missed
                else "",
                template="followup",
                extra={"rounds": rounds, "nickname": seat.nickname},
            )
