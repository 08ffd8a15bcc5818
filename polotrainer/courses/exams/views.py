"""Exam screens: the trainee's (the exam, an attempt, saving, submitting, the result) and the
instructor's (setting it, results, extra time, preview, re-grade, item analysis, one question).

Access: an attempt is reached only by its owner (and, unless it is a preview, only while they
are in the cohort); an exam's instructor pages only by the course's instructors. Anything else
is a 404, like a missing id. The domain is `attempts.py`; nothing here decides a ruling.
"""

import math
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.http import Http404, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from polotrainer.courses import access
from polotrainer.courses.exams import attempts, itemanalysis
from polotrainer.courses.exams.forms import AccommodationForm, ExamForm
from polotrainer.courses.exams.models import Accommodation, Exam, ExamAttempt, ExamSlot, Review
from polotrainer.courses.models import Membership
from polotrainer.umpires.roles import instructor_required
from polotrainer.web.dates import moment
from polotrainer.web.downloads import csv_lines, csv_response
from polotrainer.web.htmx import render_fragment
from polotrainer.web.messages import Message
from polotrainer.web.requests import UserRequest
from scenarios import diagram, quiz
from scenarios.models import Scenario
from scenarios.scope import Scope, titles

ATTEMPT_TEMPLATE = "courses/exam_attempt.html"

EXAM_ERRORS: dict[attempts.ExamCode, Message] = {
    attempts.ExamCode.NOT_OPEN: gettext_lazy("This exam is not open yet: it opens on %(when)s."),
    attempts.ExamCode.CLOSED: gettext_lazy("This exam closed on %(when)s: no attempt can start."),
    attempts.ExamCode.NO_ATTEMPTS_LEFT: gettext_lazy(
        "You have used every attempt this exam allows."
    ),
    attempts.ExamCode.COOLDOWN: gettext_lazy("Your next attempt opens on %(when)s."),
    attempts.ExamCode.COOLDOWN_PAST_CLOSE: gettext_lazy(
        "Your next attempt would open on %(when)s, after the exam closes: no attempt is left."
    ),
    attempts.ExamCode.DEADLINE: gettext_lazy(
        "Time is up: this attempt closed at %(when)s. This answer was not saved."
    ),
    attempts.ExamCode.FINISHED: gettext_lazy(
        "This attempt was submitted at %(when)s: answers can no longer change."
    ),
    attempts.ExamCode.NO_PARTS: gettext_lazy("Ask at least one situation."),
    attempts.ExamCode.EMPTY_PART: gettext_lazy(
        "A part of the blueprint has no situation to draw from."
    ),
    attempts.ExamCode.SHORT_PART: gettext_lazy("A part asks more situations than it has."),
    attempts.ExamCode.NO_VARIANT: gettext_lazy("A question could not be drawn: try again."),
    attempts.ExamCode.NO_QUESTION: gettext_lazy("That question is not in this attempt."),
}


def _when(when: datetime | None, zone: ZoneInfo | None = None) -> str:
    """A moment inside a sentence, in the course's zone: "29 novembre 2026, 22:00 CET"."""
    if when is None:
        return ""
    with timezone.override(zone or timezone.get_current_timezone()):
        return moment(when, "zoned")


def _message(error: attempts.ExamError, zone: ZoneInfo | None = None) -> str:
    return str(EXAM_ERRORS[error.code]) % {"when": _when(error.when, zone)}


def _zone(exam: Exam) -> ZoneInfo:
    return ZoneInfo(exam.cohort.course.time_zone)


# --- access ------------------------------------------------------------------------------------


def _own_attempts(request: UserRequest) -> QuerySet[ExamAttempt]:
    """My attempts: previews of exams I teach, sittings of exams of cohorts I am in."""
    member = Membership.objects.filter(cohort_id=OuterRef("exam__cohort_id"), user=request.user)
    teaches = Exam.objects.filter(pk=OuterRef("exam_id"), cohort__course__instructors=request.user)
    return (
        ExamAttempt.objects.select_related("exam__cohort__course")
        .annotate(in_cohort=Exists(member), teaches=Exists(teaches))
        .filter(
            Q(preview=False, user=request.user, in_cohort=True)
            | Q(preview=True, user=request.user, teaches=True)
        )
    )


def _own_attempt(request: UserRequest, attempt_id: int) -> ExamAttempt:
    """My attempt: a preview of an exam I teach, or a sitting of an exam of a cohort I am in."""
    return get_object_or_404(_own_attempts(request), pk=attempt_id)


# --- the trainee's side ------------------------------------------------------------------------


@login_required
@never_cache
@require_GET
def exam(request: UserRequest, exam_id: int) -> HttpResponse:
    """An exam before starting: its rules, my attempts, and Start (or why not, and when)."""
    item = access.joined(request.user, Exam.objects.all(), exam_id)
    now = timezone.now()
    where = attempts.standing(item, request.user, now)
    attempts.release_if_due(item, now)
    return render(request, "courses/exam.html", _exam_context(item, where, now))


def _exam_context(item: Exam, where: attempts.Standing, now: datetime) -> dict[str, Any]:
    running = where.open_attempt
    return {
        **(_time_left(running, now) if running else {}),
        "exam": item,
        "cohort": item.cohort,
        "standing": where,
        "refusal": _message(where.refusal, _zone(item)) if where.refusal else "",
        "questions": sum(p.count for p in attempts.parts_of(item)),
        "zone": item.cohort.course.time_zone,
        "now": now,
    }


@login_required
@require_POST
def exam_start(request: UserRequest, exam_id: int) -> HttpResponse:
    """Start an attempt (or go on with the open one): refused before the open, after the close,
    beyond the attempts allowed or inside the cool-down, saying when the next one opens."""
    item = access.joined(request.user, Exam.objects.all(), exam_id)
    now = timezone.now()
    try:
        attempt = attempts.start(item, request.user, now)
    except attempts.ExamError as exc:
        where = attempts.standing(item, request.user, now)
        context = _exam_context(item, where, now) | {"refusal": _message(exc, _zone(item))}
        return render(request, "courses/exam.html", context, status=409)
    return redirect(_attempt_url(attempt))


def _attempt_url(attempt: ExamAttempt) -> str:
    return reverse("courses:exam_attempt", args=[attempt.pk]) + f"#q{attempt.current}"


@login_required
@never_cache
@require_GET
def exam_attempt(request: UserRequest, attempt_id: int) -> HttpResponse:
    """The attempt: every question with the answer saved for it, the time left from the stored
    deadline. A submitted (or timed-out) attempt goes to its result."""
    attempt = _own_attempt(request, attempt_id)
    now = timezone.now()
    attempts.finish_if_due(attempt, now)
    if attempt.finished:
        return redirect("courses:exam_result", attempt.pk)
    slots = list(attempt.slots.select_related("scenario"))
    lang = translation.get_language() or "en"
    questions = [_question(attempt, slot, lang) for slot in slots]
    context = {
        "attempt": attempt,
        "exam": attempt.exam,
        "questions": questions,
        **_time_left(attempt, now),
        "answered": sum(1 for q in questions if q["complete"]),
        "zone": attempt.exam.cohort.course.time_zone,
    }
    return render(request, ATTEMPT_TEMPLATE, context)


def _time_left(attempt: ExamAttempt, now: datetime) -> dict[str, int]:
    """The time left, from the stored deadline only (a reload or a second device adds none)."""
    seconds = max(0, math.ceil((attempt.deadline - now).total_seconds()))
    return {"seconds_left": seconds, "minutes_left": math.ceil(seconds / 60)}


def _question(
    attempt: ExamAttempt,
    slot: ExamSlot,
    lang: str,
    errors: dict[str, str] | None = None,
    *,
    field: bool = True,
    shown: quiz.Posed | None = None,
) -> dict[str, Any]:
    """What one question of the attempt shows: the posed variant (no right answer anywhere),
    its inputs filled from what was saved, any refusal. `shown`: the slot as this request
    posed it already, in `lang`."""
    shown = shown or attempts.posed(slot, lang)
    errors = errors or {}
    items = [
        quiz.Marked(
            q,
            tuple(v for name in q.fields for v in slot.values.get(name, [""])[:1])
            if q.type in (quiz.QuestionType.PLACE, quiz.QuestionType.ORDER)
            else tuple(slot.values.get(q.name, [])),
            error=" ".join((quiz.answer_message(errors[q.id]), _("This answer was not saved.")))
            if q.id in errors
            else "",
        )
        for q in shown.questions
    ]
    return {
        "slot": slot,
        "posed": shown,
        "items": items,
        "reference": attempts.reference(slot, attempt),
        "complete": all(q.id in slot.given for q in shown.questions),
        "uid": f"field-{slot.position}",  # the field's, and its tools'
        "field": diagram.render(
            shown.diagram,
            lang,
            uid=f"field-{slot.position}",
            interactive=shown.has_place,
            marker=quiz.marker(items),
        )
        if shown.diagram and field
        else "",
    }


@login_required
@require_POST
def exam_save(request: UserRequest, attempt_id: int, position: int) -> HttpResponse:
    """Save one question's answers into its slot; htmx gets the "saved" mark, a plain form
    goes back to the attempt at the next question."""
    # The slot and its attempt in one query (the save itself takes three: its locks and write).
    slot = get_object_or_404(
        ExamSlot.objects.select_related("scenario", "attempt__exam__cohort__course"),
        attempt__in=_own_attempts(request).values("pk"),
        attempt_id=attempt_id,
        position=position,
    )
    attempt = slot.attempt
    now = timezone.now()
    submitted = {k: request.POST.getlist(k) for k in request.POST if k.startswith("q-")}
    question = request.POST.get("question") or None
    lang = translation.get_language() or "en"
    # Posed once for the request: the save reads the answers with it, the fragment shows it.
    shown = attempts.posed(slot, lang)
    try:
        saved = attempts.save(attempt, slot, submitted, now, question, shown=shown)
    except attempts.ExamError as exc:
        if exc.code == "no_question":
            raise Http404(_("There is no such question.")) from None
        text = _message(exc, _zone(attempt.exam))
        if request.htmx:
            context = {"slot": slot, "closed": text, "qid": question}
            return render_fragment(
                request,
                ATTEMPT_TEMPLATE,
                context,
                fragments=("saved",),
                fragment="saved",
                status=409,
            )
        messages.error(request, text)
        return redirect("courses:exam_result", attempt.pk)
    if request.htmx:
        context = {
            "slot": saved.slot,
            "qid": question,
            "errors": saved.errors,
            "question": _question(
                attempt, saved.slot, lang, saved.errors, field=False, shown=shown
            ),
        }
        return render_fragment(
            request,
            ATTEMPT_TEMPLATE,
            context,
            fragments=("saved",),
            fragment="saved",
            status=400 if saved.errors else 200,
        )
    if saved.errors:
        messages.error(
            request,
            _("Question %(number)d: some answers are not complete and were not saved.")
            % {"number": position},
        )
        return redirect(reverse("courses:exam_attempt", args=[attempt.pk]) + f"#q{position}")
    messages.success(request, _("Question %(number)d saved.") % {"number": position})
    last = attempt.slots.order_by("-position").values_list("position", flat=True).first()
    following = min(position + 1, last or position)
    return redirect(reverse("courses:exam_attempt", args=[attempt.pk]) + f"#q{following}")


@login_required
@require_http_methods(["GET", "POST"])
def exam_submit(request: UserRequest, attempt_id: int) -> HttpResponse:
    """Ask once (saying how many questions have no answer), then submit and grade."""
    attempt = _own_attempt(request, attempt_id)
    now = timezone.now()
    attempts.finish_if_due(attempt, now)
    if attempt.finished:
        return redirect("courses:exam_result", attempt.pk)
    if request.method == "POST":
        attempts.submit(attempt, now)
        return redirect("courses:exam_result", attempt.pk)
    slots = list(attempt.slots.only("given", "ruling", "position"))
    open_questions = [s.position for s in slots if not s.given]
    context = {
        "attempt": attempt,
        "exam": attempt.exam,
        "unanswered": open_questions,
        "zone": attempt.exam.cohort.course.time_zone,
        **_time_left(attempt, now),
    }
    return render(request, "courses/exam_submit.html", context)


@login_required
@never_cache
@require_GET
def exam_result(request: UserRequest, attempt_id: int) -> HttpResponse:
    """The result as the review policy allows now: the score per part, then which were right,
    then the right answers with the engine's reasons and the rule text."""
    attempt = _own_attempt(request, attempt_id)
    now = timezone.now()
    attempts.finish_if_due(attempt, now)
    if not attempt.finished:
        return redirect(_attempt_url(attempt))
    item = attempt.exam
    attempts.release_if_due(item, now)
    level = Review.ANSWERS if attempt.preview else item.review_level(now)
    return render(request, "courses/exam_result.html", _result(attempt, level, now))


def _result(attempt: ExamAttempt, level: int, now: datetime) -> dict[str, Any]:
    item = attempt.exam
    lang = translation.get_language() or "en"
    slots = list(attempt.slots.select_related("scenario"))
    parts = []
    for index, part in enumerate(item.blueprint):
        own = [s for s in slots if s.part == index]
        right = quiz.count_right(ok for s in own for ok in s.marks.values())
        total = sum(len(s.marks) for s in own)
        parts.append({"title": attempts.part_title(part, lang), "right": right, "total": total})
    shown = []
    if level >= Review.MARKS:
        for slot in slots:
            posed = attempts.posed(slot, lang)
            checked = quiz.checked(posed, slot.given) if level >= Review.ANSWERS else None
            marks = [
                {
                    "prompt": q.prompt,
                    "correct": slot.marks.get(q.id, False),
                    "given": quiz.answer_text(posed, q, slot.given[q.id])
                    if q.id in slot.given
                    else "",
                }
                for q in posed.questions
            ]
            shown.append(
                {
                    "slot": slot,
                    "posed": posed,
                    "marks": marks,
                    "checked": checked,
                    "reference": attempts.reference(slot, attempt),
                }
            )
    return {
        "attempt": attempt,
        "exam": item,
        "level": level,
        "parts": parts,
        "shown": shown,
        "closed": item.is_closed(now),
        "zone": item.cohort.course.time_zone,
        "later": item.review_after_close > level and not item.is_closed(now),
    }


# --- the instructor's side ---------------------------------------------------------------------


def _blueprint(form: ExamForm) -> list[attempts.Part]:
    data = form.cleaned_data
    live = Scenario.objects.live()
    parts = []
    for rule, rule_name, sections in form.rule_fields:
        count = data.get(rule_name) or 0
        if count:
            ids = list(live.filter(rule=rule).values_list("pk", flat=True))
            named = titles(Scope.RULE, rule, [], len(ids))
            parts.append(attempts.Part(named["it"], named["en"], count, tuple(ids)))
        for section, name in sections:
            count = data.get(name) or 0
            if count:
                ids = list(live.filter(section=section).values_list("pk", flat=True))
                named = titles(Scope.SECTIONS, None, [section], len(ids))
                parts.append(attempts.Part(named["it"], named["en"], count, tuple(ids)))
    chosen = list(data.get("chosen") or [])
    if data.get("chosen_count"):
        named = titles(Scope.SCENARIOS, None, [], len(chosen))
        parts.append(
            attempts.Part(
                named["it"], named["en"], data["chosen_count"], tuple(s.pk for s in chosen)
            )
        )
    return parts


_SETTINGS = (
    "title_it",
    "title_en",
    "time_limit_minutes",
    "opens_at",
    "closes_at",
    "attempts_allowed",
    "cooldown_hours",
    "review_after_submit",
    "review_after_close",
    "closed_book",
)


@instructor_required
@require_http_methods(["GET", "POST"])
def exam_new(request: UserRequest, cohort_id: int) -> HttpResponse:
    """Set an exam for the cohort: blueprint, pass mark, time limit, dates, attempts, review."""
    cohort = access.taught_cohort(request.user, cohort_id)
    zone = ZoneInfo(cohort.course.time_zone)
    preset = str(attempts.default_pass_mark(cohort.course))
    form = ExamForm(
        request.POST or None,
        initial={"pass_preset": preset},
        zone=zone,
        audience=request.user.pk,
    )
    if request.method == "POST" and form.is_valid():
        parts = _blueprint(form)
        try:
            attempts.check_blueprint(parts)
        except attempts.ExamError as exc:
            form.add_error(None, _message(exc))
        else:
            created = Exam.objects.create(
                cohort=cohort,
                blueprint=[p.as_json() for p in parts],
                pass_percent=form.pass_mark,
                created_by=request.user,
                **{name: form.cleaned_data[name] for name in _SETTINGS},
            )
            messages.success(request, _("Exam set: %(title)s.") % {"title": created.title})
            return redirect("courses:exam_results", created.pk)
    context = {"form": form, "cohort": cohort, "course": cohort.course, "zone": zone.key}
    return render(
        request, "courses/exam_form.html", context, status=400 if request.method == "POST" else 200
    )


@instructor_required
@require_http_methods(["GET", "POST"])
def exam_edit(request: UserRequest, exam_id: int) -> HttpResponse:
    """Change the settings (not what it asks: attempts already drew from it)."""
    item = access.taught(request.user, Exam.objects.all(), exam_id)
    zone = _zone(item)
    presets = {"95", "94"}
    initial = {name: getattr(item, name) for name in _SETTINGS} | {
        "pass_preset": str(item.pass_percent) if str(item.pass_percent) in presets else "other",
        "pass_percent": item.pass_percent,
    }
    form = ExamForm(request.POST or None, initial=initial, blueprint=False, zone=zone)
    if request.method == "POST" and form.is_valid():
        for name in _SETTINGS:
            setattr(item, name, form.cleaned_data[name])
        item.pass_percent = form.pass_mark
        item.save(update_fields=[*_SETTINGS, "pass_percent"])
        attempts.apply_policy(item, timezone.now())
        attempts.reschedule(item)
        messages.success(request, _("Exam saved."))
        return redirect("courses:exam_results", item.pk)
    context = {
        "form": form,
        "exam": item,
        "cohort": item.cohort,
        "course": item.cohort.course,
        "zone": zone.key,
    }
    return render(
        request, "courses/exam_form.html", context, status=400 if request.method == "POST" else 200
    )


@instructor_required
@never_cache
@require_GET
def exam_results(request: UserRequest, exam_id: int) -> HttpResponse:
    """Per trainee: attempts, best, last, time taken; extra time, preview, re-grade, items."""
    item = access.taught(request.user, Exam.objects.all(), exam_id)
    now = timezone.now()
    for overdue in item.attempts.filter(finished_at=None, deadline__lte=now):
        attempts.finish_if_due(overdue, now)
    attempts.release_if_due(item, now)
    context = _results_context(item) | {
        "accommodation_form": AccommodationForm(cohort=item.cohort),
    }
    return render(request, "courses/exam_results.html", context)


@dataclass(frozen=True)
class ResultRow:
    """One trainee in the results table."""

    user: User
    attempts: list[ExamAttempt]
    best: ExamAttempt | None
    last: ExamAttempt | None
    open: ExamAttempt | None


def _results_context(item: Exam) -> dict[str, Any]:
    members = list(Membership.objects.filter(cohort=item.cohort).select_related("user__profile"))
    sittings = list(item.attempts.filter(preview=False).order_by("number", "pk"))
    by_user: dict[int | None, list[ExamAttempt]] = {}
    for a in sittings:
        by_user.setdefault(a.user_id, []).append(a)
    rows = []
    for m in members:
        own = by_user.get(m.user_id, [])
        done = [a for a in own if a.finished]
        rows.append(
            ResultRow(
                user=m.user,
                attempts=own,
                best=max(done, key=lambda a: (a.percent or 0, -a.pk), default=None),
                last=done[-1] if done else None,
                open=next((a for a in own if not a.finished), None),
            )
        )
    rows.sort(key=lambda r: (r.best.percent or 0 if r.best else -1, r.user.username))
    gone = [a for a in by_user.get(None, []) if a.finished]
    extras = list(Accommodation.objects.filter(exam=item).select_related("user"))
    return {
        "exam": item,
        "cohort": item.cohort,
        "course": item.cohort.course,
        "rows": rows,
        "gone": gone,
        "extras": extras,
        "parts": [
            {
                "title": attempts.part_title(p, translation.get_language() or "en"),
                "count": p["count"],
            }
            for p in item.blueprint
        ],
        "zone": item.cohort.course.time_zone,
    }


@instructor_required
@require_POST
def exam_accommodation(request: UserRequest, exam_id: int) -> HttpResponse:
    """Give one trainee extra time or extra attempts (0 and 0 takes them back)."""
    item = access.taught(request.user, Exam.objects.all(), exam_id)
    form = AccommodationForm(request.POST, cohort=item.cohort)
    if not form.is_valid():
        context = _results_context(item) | {"accommodation_form": form}
        return render(request, "courses/exam_results.html", context, status=400)
    data = form.cleaned_data
    Accommodation.objects.update_or_create(
        exam=item,
        user=data["trainee"],
        defaults={"extra_minutes": data["extra_minutes"], "extra_attempts": data["extra_attempts"]},
    )
    attempts.reschedule(item)
    messages.success(
        request,
        _("%(name)s: %(minutes)s, %(attempts)s.")
        % {
            "name": data["trainee"].get_username(),
            "minutes": ngettext(
                "%(counter)s extra minute", "%(counter)s extra minutes", data["extra_minutes"]
            )
            % {"counter": data["extra_minutes"]},
            "attempts": ngettext(
                "%(counter)s extra attempt", "%(counter)s extra attempts", data["extra_attempts"]
            )
            % {"counter": data["extra_attempts"]},
        },
    )
    return redirect("courses:exam_results", item.pk)


@instructor_required
@require_POST
def exam_preview(request: UserRequest, exam_id: int) -> HttpResponse:
    """Take the exam as a trainee would, whenever it is: left out of results and statistics."""
    item = access.taught(request.user, Exam.objects.all(), exam_id)
    attempt = attempts.start(item, request.user, timezone.now(), preview=True)
    return redirect(_attempt_url(attempt))


@instructor_required
@require_http_methods(["GET", "POST"])
def exam_regrade(request: UserRequest, exam_id: int) -> HttpResponse:
    """Rule every submitted question again with today's engine: first what would change, then
    (on confirmation) the change, withdrawing any pass that becomes a fail."""
    item = access.taught(request.user, Exam.objects.all(), exam_id)
    now = timezone.now()
    apply = request.method == "POST"
    outcome = attempts.regrade(item, now, apply=apply)
    if apply:
        messages.success(
            request,
            _("Re-graded: %(questions)s; %(results)s.")
            % {
                "questions": ngettext(
                    "%(counter)s question changed",
                    "%(counter)s questions changed",
                    len(outcome.changes),
                )
                % {"counter": len(outcome.changes)},
                "results": ngettext(
                    "%(counter)s result changed", "%(counter)s results changed", len(outcome.flips)
                )
                % {"counter": len(outcome.flips)},
            },
        )
        return redirect("courses:exam_results", item.pk)
    context = {"exam": item, "cohort": item.cohort, "outcome": outcome}
    return render(request, "courses/exam_regrade.html", context)


@instructor_required
@require_GET
def exam_items(request: UserRequest, exam_id: int) -> HttpResponse:
    """Item analysis over first attempts; negative discrimination first."""
    item = access.taught(request.user, Exam.objects.all(), exam_id)
    analysis = itemanalysis.for_exam(item)
    worded = itemanalysis.in_words(analysis, translation.get_language() or "it")
    context = {
        "exam": item,
        "cohort": item.cohort,
        "analysis": analysis,
        "items": worded.items,
        "scenarios": worded.scenarios,
    }
    return render(request, "courses/exam_items.html", context)


@instructor_required
@require_GET
def exam_items_csv(request: UserRequest, exam_id: int) -> StreamingHttpResponse:
    """The item analysis as CSV: one row per item, figures with one decimal."""
    item = access.taught(request.user, Exam.objects.all(), exam_id)
    analysis = itemanalysis.for_exam(item)
    worded = itemanalysis.in_words(analysis, translation.get_language() or "it")

    def table() -> Iterator[list[Any]]:
        yield (
            [
                _("Situation"),
                _("Question"),
                _("Situation code"),
                _("Question code"),
                _("Attempts"),
                _("Facility (%)"),
                _("Discrimination index"),
                _("Discriminative efficiency"),
                _("Negative discrimination"),
            ]
        )
        for row in worded.items:
            i = row.stats
            yield (
                [
                    row.title,
                    row.prompt,
                    row.slug,
                    i.question,
                    i.attempts,
                    _fmt(None if i.facility is None else 100 * i.facility),
                    _fmt(i.discrimination),
                    _fmt(i.efficiency),
                    _("yes") if i.negative else "",
                ]
            )

    return csv_response(csv_lines(table()), f"exam-{item.pk}-items.csv")


def _fmt(value: float | None) -> str:
    return "" if value is None else f"{value:.1f}"


@instructor_required
@require_GET
def exam_question(request: UserRequest, exam_id: int) -> HttpResponse:
    """Open a question by the reference a trainee quotes (E12-A345-Q7): the situation, the
    answer given, the ruling with the engine's reasons, the scenario and seed."""
    item = access.taught(request.user, Exam.objects.all(), exam_id)
    ref = request.GET.get("ref", "").strip().upper()
    slot = None
    if ref:
        slot = _slot_by_reference(item, ref)
        if slot is None:
            messages.error(
                request,
                _("No question of this exam has the reference %(ref)s.") % {"ref": ref[:40]},
            )
            return redirect("courses:exam_results", item.pk)
    if slot is None:
        return redirect("courses:exam_results", item.pk)
    lang = translation.get_language() or "en"
    posed = attempts.posed(slot, lang)
    context = {
        "exam": item,
        "cohort": item.cohort,
        "slot": slot,
        "attempt": slot.attempt,
        "reference": attempts.reference(slot, slot.attempt),
        "checked": quiz.checked(posed, slot.given),
        "posed": posed,
        "field": diagram.render(posed.diagram, lang) if posed.diagram else "",
    }
    return render(request, "courses/exam_question.html", context)


def _slot_by_reference(item: Exam, ref: str) -> ExamSlot | None:
    parts = ref.replace(" ", "").split("-")
    if len(parts) != 3 or parts[0] != f"E{item.pk}":
        return None
    try:
        attempt_id = int(parts[1].removeprefix("A"))
        position = int(parts[2].removeprefix("Q"))
    except ValueError:
        return None
    if not (0 < attempt_id < 10**18 and 0 < position < 10**4):
        return None
    return (
        ExamSlot.objects.select_related("scenario", "attempt__user")
        .filter(attempt__exam=item, attempt_id=attempt_id, position=position)
        .first()
    )
