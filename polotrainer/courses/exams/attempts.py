"""Exams: setting one, starting an attempt, saving answers, submitting, grading, re-grading.

Everything here takes plain arguments and a moment (`now`), never a request, so the views, the
`exams` management command and the tests share it. The deadline is the server's: stored when
an attempt starts, never extended by a reload or a second device; an attempt past it is
submitted with the deadline as its finish time by whoever next reads it (`finish_if_due`).

Answers enter the trainee's history (umpires.progress.record_answers, mode exam, the attempt's
id) at submission, with the review policy's "hidden until" moments, so the dashboard and the
CSV say whether an answer was right (and what was right) only when the policy allows, and
which scenario and seed it was only once the exam has closed.

A closed-book exam (the default) holds the trainee's account from the start of an attempt to
its submission or deadline (umpires.closedbook): practice, review and clinics give it no
ruling meanwhile. The window is written here only: at the start, with every move of the
deadline, and at the submission.
"""

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from functools import partial
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from polotrainer.courses.exams import signals
from polotrainer.courses.exams.models import (
    PASS_MARKS,
    Accommodation,
    Exam,
    ExamAttempt,
    ExamSlot,
    Finish,
    Review,
)
from polotrainer.courses.models import Course
from polotrainer.rules import FactError, rule_json
from polotrainer.umpires import closedbook, progress
from polotrainer.umpires.models import Attempt, ClosedBook, Mode
from polotrainer.web.dates import moment
from scenarios import quiz
from scenarios.models import Scenario
from scenarios.variants import Variant, fresh_exam_seed

#: "Hidden for good" in the history: the review policy never shows it.
NEVER = datetime(9999, 12, 31, tzinfo=UTC)
#: Tries at a fresh seed when a drawn one gives no valid variant (rare: the engine refuses).
SEED_TRIES = 20
#: A form value longer than this is cut when stored (no answer needs more), and at most this
#: many values of one field are kept.
VALUE_MAX = 40
VALUES_MAX = 20


class ExamCode(StrEnum):
    """Why an exam, an attempt or an answer was refused."""

    NO_PARTS = "no_parts"
    EMPTY_PART = "empty_part"
    SHORT_PART = "short_part"
    NOT_OPEN = "not_open"
    CLOSED = "closed"
    NO_ATTEMPTS_LEFT = "no_attempts_left"
    COOLDOWN_PAST_CLOSE = "cooldown_past_close"
    COOLDOWN = "cooldown"
    NO_VARIANT = "no_variant"
    FINISHED = "finished"
    DEADLINE = "deadline"
    NO_QUESTION = "no_question"


class ExamError(Exception):
    """Something refused; `code` says what, `when` (if any) the moment that matters: when the
    exam opens or closed, when the next attempt opens, when the attempt's time ran out."""

    def __init__(self, code: ExamCode, when: datetime | None = None) -> None:
        super().__init__(code)
        self.code = code
        self.when = when


# --- setting an exam ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Part:
    """One line of a blueprint: draw `count` scenarios from these."""

    title_it: str
    title_en: str
    count: int
    scenarios: tuple[int, ...]

    def as_json(self) -> dict[str, Any]:
        return {
            "title_it": self.title_it,
            "title_en": self.title_en,
            "count": self.count,
            "scenarios": list(self.scenarios),
        }


def parts_of(exam: Exam) -> list[Part]:
    return [
        Part(p["title_it"], p["title_en"], int(p["count"]), tuple(p["scenarios"]))
        for p in exam.blueprint
    ]


def part_title(part: Mapping[str, Any], lang: str) -> str:
    return str(part.get(f"title_{lang}") or part.get("title_en") or "")


def check_blueprint(parts: Sequence[Part]) -> None:
    """ExamError `empty_part` when a part has no scenario, `short_part` when it asks more
    scenarios than it has, `no_parts` when there is nothing to ask."""
    if not parts or sum(p.count for p in parts) == 0:
        raise ExamError(ExamCode.NO_PARTS)
    for p in parts:
        if not p.scenarios:
            raise ExamError(ExamCode.EMPTY_PART)
        if p.count > len(p.scenarios):
            raise ExamError(ExamCode.SHORT_PART)


def default_pass_mark(course: Course) -> int:
    """USPA's mark for the course's track: 95% outdoor, 94% arena."""
    return PASS_MARKS.get(course.track, 95)


def hidden_until(exam: Exam) -> tuple[datetime | None, datetime | None]:
    """Until when the history hides whether each answer was right, and the right answers."""

    def until(level: int) -> datetime | None:
        if exam.review_after_submit >= level:
            return None
        if exam.review_after_close >= level:
            return exam.closes_at
        return NEVER

    return until(Review.MARKS), until(Review.ANSWERS)


def apply_policy(exam: Exam, now: datetime) -> int:
    """After the review policy or the close changed: the history's hiding follows, for every
    answer already recorded from this exam, and the trainees' aggregates count exactly the
    answers that show. How many answers it touched."""
    result_until, right_until = hidden_until(exam)
    ids = list(ExamAttempt.objects.filter(exam=exam).values_list("pk", flat=True))
    with transaction.atomic():
        # The exam's row, then each trainee's (in `rebuild`), in the order release_if_due
        # takes them: the two never wait for each other crosswise.
        Exam.objects.select_for_update().filter(pk=exam.pk).first()
        touched = Attempt.objects.filter(mode=Mode.EXAM, context_id__in=ids).update(
            result_hidden_until=result_until,
            right_hidden_until=right_until,
            variant_hidden_until=exam.closes_at,
        )
        for user_id in _trainees(exam):
            progress.rebuild(user_id)
        shown = result_until is None or result_until <= now
        Exam.objects.filter(pk=exam.pk).update(released_at=now if shown else None)
        exam.released_at = now if shown else None
    return touched


def release_if_due(exam: Exam, now: datetime) -> bool:
    """Once answers hidden until the close show (the close has passed), count them into each
    trainee's aggregates: their mastery and days move only now. Done once per exam, by whoever
    comes first (a page of the exam, or `manage.py exams finish`)."""
    result_until, _right_until = hidden_until(exam)
    if exam.released_at is not None or result_until is None or result_until > now:
        return False
    with transaction.atomic():
        locked = Exam.objects.select_for_update().get(pk=exam.pk)
        if locked.released_at is not None:
            exam.released_at = locked.released_at
            return False
        # Every attempt's deadline is at the close at the latest: none may stay open.
        for attempt in ExamAttempt.objects.filter(exam=exam, finished_at=None):
            submit(attempt, now, by=Finish.DEADLINE)
        for user_id in _trainees(exam):
            progress.rebuild(user_id)
        locked.released_at = exam.released_at = now
        locked.save(update_fields=["released_at"])
    return True


def release_due(now: datetime) -> int:
    """Release every closed exam not released yet (for cron); how many."""
    return sum(
        release_if_due(exam, now)
        for exam in Exam.objects.filter(released_at=None, closes_at__lte=now)
    )


def _trainees(exam: Exam) -> list[int]:
    """The exam's trainees, by id: the order their rows are locked in when rebuilt."""
    return list(
        ExamAttempt.objects.filter(exam=exam, preview=False, user__isnull=False)
        .order_by("user_id")
        .values_list("user_id", flat=True)
        .distinct()
    )


# --- who may start, and when -------------------------------------------------------------------


def accommodation(exam: Exam, user: User) -> Accommodation:
    return Accommodation.objects.filter(exam=exam, user=user).first() or Accommodation(
        exam=exam, user=user
    )


def attempts_of(exam: Exam, user: User) -> list[ExamAttempt]:
    return list(ExamAttempt.objects.filter(exam=exam, user=user, preview=False).order_by("number"))


@dataclass(frozen=True)
class Standing:
    """A trainee before an exam: their attempts, what is left, and whether they may start now."""

    attempts: list[ExamAttempt]
    allowed: int
    extra_minutes: int
    open_attempt: ExamAttempt | None
    refusal: ExamError | None

    @property
    def used(self) -> int:
        return len(self.attempts)

    @property
    def left(self) -> int:
        return max(0, self.allowed - self.used)


def standing(exam: Exam, user: User, now: datetime) -> Standing:
    """Where the trainee stands: an open attempt to go on with, or whether a new one may start."""
    attempts = attempts_of(exam, user)
    for a in attempts:
        finish_if_due(a, now)
    extra = accommodation(exam, user)
    allowed = exam.attempts_allowed + extra.extra_attempts
    open_attempt = next((a for a in attempts if not a.finished), None)
    refusal = None
    if open_attempt is None:
        refusal = _refusal(exam, attempts, allowed, now)
    return Standing(attempts, allowed, extra.extra_minutes, open_attempt, refusal)


def _refusal(
    exam: Exam, attempts: Sequence[ExamAttempt], allowed: int, now: datetime
) -> ExamError | None:
    if now < exam.opens_at:
        return ExamError(ExamCode.NOT_OPEN, exam.opens_at)
    if now >= exam.closes_at:
        return ExamError(ExamCode.CLOSED, exam.closes_at)
    if len(attempts) >= allowed:
        return ExamError(ExamCode.NO_ATTEMPTS_LEFT)
    finished = [a.finished_at for a in attempts if a.finished_at is not None]
    if finished and exam.cooldown_hours:
        next_at = max(finished) + timedelta(hours=exam.cooldown_hours)
        if now < next_at:
            if next_at >= exam.closes_at:
                return ExamError(ExamCode.COOLDOWN_PAST_CLOSE, next_at)
            return ExamError(ExamCode.COOLDOWN, next_at)
    return None


# --- starting ----------------------------------------------------------------------------------


def start(exam: Exam, user: User, now: datetime, *, preview: bool = False) -> ExamAttempt:
    """A new attempt with its questions drawn, or the open one (two tabs pressing Start at
    once make one attempt: the unique index decides). ExamError if it may not start."""
    if preview:
        open_preview = ExamAttempt.objects.filter(
            exam=exam, user=user, preview=True, finished_at=None
        ).first()
        if open_preview is not None:
            return open_preview
        number = 0
    else:
        where = standing(exam, user, now)
        if where.open_attempt is not None:
            return where.open_attempt
        if where.refusal is not None:
            raise where.refusal
        number = where.used + 1
    drawn = draw(exam)
    try:
        with transaction.atomic():
            # The exam's row, as `reschedule` takes it, and the limits read after it: a new
            # time limit, close or extra time is either read here or, waiting for this lock,
            # applied to this attempt once it is stored.
            limits = _limits(exam)
            if preview:
                deadline = now + timedelta(minutes=limits.time_limit_minutes)
            else:
                deadline = _deadline(limits, now, accommodation(exam, user).extra_minutes)
            attempt = ExamAttempt.objects.create(
                exam=exam,
                user=user,
                number=number,
                preview=preview,
                started_at=now,
                deadline=deadline,
            )
            ExamSlot.objects.bulk_create(
                [
                    ExamSlot(
                        attempt=attempt,
                        position=position,
                        part=part,
                        scenario=scenario,
                        seed=variant.seed,
                        content_version=scenario.version,
                        variant_values=dict(variant.values),
                        variant_labels={k: dict(v) for k, v in variant.labels.items()},
                        facts=variant.facts,
                        ruling=variant.ruling,
                    )
                    for position, (part, scenario, variant) in enumerate(drawn, start=1)
                ]
            )
            if limits.closed_book and not preview:
                _hold(exam, attempt, user.pk)
    except IntegrityError:
        # Another request started it a moment ago: go on with that one.
        found = ExamAttempt.objects.filter(
            exam=exam, user=user, preview=preview, finished_at=None
        ).first()
        if found is None:
            raise
        return found
    return attempt


def _hold(exam: Exam, attempt: ExamAttempt, user_id: int) -> None:
    """Hold the trainee closed-book until the attempt's deadline."""
    closedbook.hold(
        user_id,
        attempt.pk,
        attempt.deadline,
        titles={"it": exam.title_it, "en": exam.title_en},
        time_zone=exam.cohort.course.time_zone,
        back_to=reverse("courses:exam_attempt", args=[attempt.pk]),
    )


def open_closed_book(user_id: int, now: datetime) -> list[ClosedBook]:
    """The closed-book exams open now to this trainee (a member of the exam's cohort) with an
    attempt left, as windows lasting until each closes: umpires.closedbook.pack_hold asks this
    (registered in CoursesConfig.ready). A preview (an instructor's) is no attempt."""
    exams = Exam.objects.filter(
        closed_book=True,
        opens_at__lte=now,
        closes_at__gt=now,
        cohort__memberships__user_id=user_id,
    ).select_related("cohort__course")
    out = []
    for exam in exams.distinct():
        used = ExamAttempt.objects.filter(exam=exam, user_id=user_id, preview=False).count()
        extra = Accommodation.objects.filter(exam=exam, user_id=user_id).first()
        if used < exam.attempts_allowed + (extra.extra_attempts if extra else 0):
            out.append(
                ClosedBook(
                    user_id=user_id,
                    until=exam.closes_at,
                    title_it=exam.title_it,
                    title_en=exam.title_en,
                    time_zone=exam.cohort.course.time_zone,
                    back_to=reverse("courses:exam", args=[exam.pk]),
                )
            )
    return out


def reschedule(exam: Exam) -> int:
    """After the instructor changed the time limit, the close or someone's extra time: each open
    attempt's stored deadline follows (the earlier of start + limit + extra and the close), and
    so does its closed-book window; with closed book turned off, the windows close. Previews
    keep theirs. How many deadlines moved.

    Everything is read under the exam's row lock (then the open attempts'), so two changes at
    once (two trainees' extra time, a new limit) run one after the other, each reading what
    the other stored: none writes back a deadline computed from what it read before."""
    with transaction.atomic():
        limits = _limits(exam)
        extras = dict(
            Accommodation.objects.filter(exam=exam).values_list("user_id", "extra_minutes")
        )
        moved = []
        running = list(
            ExamAttempt.objects.select_for_update().filter(
                exam=exam, finished_at=None, preview=False
            )
        )
        for attempt in running:
            extra = extras.get(attempt.user_id, 0) if attempt.user_id else 0
            deadline = _deadline(limits, attempt.started_at, extra)
            if deadline != attempt.deadline:
                attempt.deadline = deadline
                moved.append(attempt)
        ExamAttempt.objects.bulk_update(moved, ["deadline"])
        if limits.closed_book:
            closedbook.move({a.pk: a.deadline for a in moved})
        else:
            closedbook.release(a.pk for a in running)
    return len(moved)


def _limits(exam: Exam) -> Exam:
    """The exam's time limit, close and closed-book setting, read under its row lock (FOR NO
    KEY UPDATE: attempts being stored, which only reference the row, do not wait for it)."""
    return (
        Exam.objects.select_for_update(no_key=True)
        .only("time_limit_minutes", "closes_at", "closed_book")
        .get(pk=exam.pk)
    )


def _deadline(limits: Exam, started: datetime, extra_minutes: int) -> datetime:
    """An attempt's deadline: the earlier of start + limit + extra time, and the close."""
    return min(
        started + timedelta(minutes=limits.time_limit_minutes + extra_minutes), limits.closes_at
    )


def draw(exam: Exam) -> list[tuple[int, Scenario, Variant]]:
    """The questions of a new attempt: per part, its count of scenarios at random, each with a
    fresh exam seed and its variant ruled now."""
    rng = random.SystemRandom()
    parts = parts_of(exam)
    scenarios = Scenario.objects.in_bulk({pk for p in parts for pk in p.scenarios})
    out = []
    for index, p in enumerate(parts):
        pool = [scenarios[pk] for pk in p.scenarios if pk in scenarios]
        for scenario in rng.sample(pool, min(p.count, len(pool))):
            out.append((index, scenario, _variant(scenario)))
    return out


def _variant(scenario: Scenario) -> Variant:
    last: Exception | None = None
    for _try in range(SEED_TRIES):
        try:
            return quiz.variant_of(scenario, fresh_exam_seed())
        except quiz.VariantError as exc:
            last = exc
    raise ExamError(ExamCode.NO_VARIANT) from last


# --- one question of an attempt ----------------------------------------------------------------


def frozen_variant(slot: ExamSlot) -> Variant:
    """The slot's variant exactly as it was ruled when the attempt was drawn (or re-graded)."""
    return Variant(
        slug=slot.scenario.slug,
        seed=slot.seed,
        values=slot.variant_values,
        facts=slot.facts,
        ruling=slot.ruling,
        labels=slot.variant_labels,
    )


def posed(slot: ExamSlot, lang: str) -> quiz.Posed:
    return quiz.pose(slot.scenario, slot.seed, lang, frozen=frozen_variant(slot))


def reference(slot: ExamSlot, attempt: ExamAttempt) -> str:
    """The question's stable reference: exam, attempt, question number (E12-A345-Q7)."""
    return f"{attempt.reference}-Q{slot.position}"


# --- finishing ---------------------------------------------------------------------------------


def finish_if_due(attempt: ExamAttempt, now: datetime) -> ExamAttempt:
    """Submit the attempt at its deadline if that has passed and nobody has submitted it."""
    if attempt.finished_at is None and now >= attempt.deadline:
        submit(attempt, now, by=Finish.DEADLINE)
    return attempt


def finish_overdue(now: datetime) -> int:
    """Submit every open attempt whose deadline has passed (for cron); how many."""
    done = 0
    for attempt in ExamAttempt.objects.filter(finished_at=None, deadline__lte=now).select_related(
        "exam__cohort__course", "user"
    ):
        submit(attempt, now, by=Finish.DEADLINE)
        done += 1
    return done


def submit(attempt: ExamAttempt, now: datetime, *, by: str = Finish.TRAINEE) -> ExamAttempt:
    """Grade and close the attempt, record its answers in the history, and announce a pass.

    Submitted at most once (the row is locked; a second submit finds it finished). The finish
    time is now, or the deadline when that came first. Submitted for its deadline (`by`
    DEADLINE) only if the deadline read under the lock has passed: an instructor may have
    just given more time.
    """
    with transaction.atomic():
        locked = ExamAttempt.objects.select_for_update().get(pk=attempt.pk)
        if locked.finished_at is not None or (by == Finish.DEADLINE and now < locked.deadline):
            _copy(locked, attempt)
            return attempt
        finished_at = min(now, locked.deadline)
        slots = list(locked.slots.select_related("scenario"))
        right = total = 0
        for slot in slots:
            slot.marks, slot.rights = _grade(slot)
            right += quiz.count_right(slot.marks.values())
            total += len(slot.marks)
        ExamSlot.objects.bulk_update(slots, ["marks", "rights"])
        locked.finished_at = finished_at
        locked.finished_by = Finish.DEADLINE if finished_at == locked.deadline else by
        locked.right, locked.total = right, total
        locked.passed = _passes(attempt.exam, right, total)
        locked.save(update_fields=["finished_at", "finished_by", "right", "total", "passed"])
        closedbook.release([locked.pk])
        if not locked.preview and locked.user_id is not None:
            _record(locked, attempt.exam, slots)
        _copy(locked, attempt)
        if locked.passed and not locked.preview and locked.user_id is not None:
            transaction.on_commit(partial(_announce_pass, attempt))
    return attempt


def _copy(source: ExamAttempt, target: ExamAttempt) -> None:
    for name in (
        "deadline",
        "finished_at",
        "finished_by",
        "right",
        "total",
        "passed",
        "regraded_at",
    ):
        setattr(target, name, getattr(source, name))


def _grade(slot: ExamSlot) -> tuple[dict[str, bool], dict[str, Any]]:
    """Each question of the slot marked against its frozen ruling: (marks, right answers)."""
    graded = quiz.grade(posed(slot, "en"), slot.given)
    return ({m.id: bool(m.correct) for m in graded}, {m.id: m.right for m in graded})


def _passes(exam: Exam, right: int, total: int) -> bool:
    return total > 0 and right * 100 >= exam.pass_percent * total


def _record(attempt: ExamAttempt, exam: Exam, slots: Sequence[ExamSlot]) -> None:
    """The answers into the trainee's history: one record per situation, mode exam, hidden as
    the review policy says. Unanswered questions are left out of the history (they count
    wrong in the exam)."""
    result_until, right_until = hidden_until(exam)
    labels = {}
    for lang in ("it", "en"):
        with translation.override(lang):
            labels[lang] = _("Exam: %(title)s") % {"title": getattr(exam, f"title_{lang}")}
    context = progress.Context(
        Mode.EXAM,
        ref_id=attempt.pk,
        label=labels.get(translation.get_language() or "en", labels["en"]),
        result_hidden_until=result_until,
        right_hidden_until=right_until,
        variant_hidden_until=exam.closes_at,
    )
    person = progress.Person(user_id=attempt.user_id)
    for slot in slots:
        items = [
            progress.Answer(
                question=qid,
                given=slot.given[qid],
                right=slot.rights.get(qid),
                correct=slot.marks.get(qid, False),
                nonce=_nonce(slot, qid),
            )
            for qid in slot.marks
            if slot.given.get(qid) is not None
        ]
        progress.record_answers(
            person,
            context,
            progress.Answers(
                scenario_id=slot.scenario_id,
                seed=slot.seed,
                content_version=slot.content_version,
                items=items,
                at=attempt.finished_at,
            ),
        )


def _announce_pass(attempt: ExamAttempt) -> None:
    fresh = ExamAttempt.objects.select_related("exam__cohort__course", "user").get(pk=attempt.pk)
    exam = fresh.exam
    signals.exam_passed.send(
        sender=ExamAttempt,
        attempt_id=fresh.pk,
        user=fresh.user,
        course=exam.cohort.course,
        cohort=exam.cohort,
        exam_title_it=exam.title_it,
        exam_title_en=exam.title_en,
        score_percent=fresh.percent or 0.0,
        passed_at=fresh.finished_at,
    )


# --- saving answers ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Saved:
    """What a save did: the slot as stored, and the questions refused (id -> error code)."""

    slot: ExamSlot
    errors: dict[str, str] = field(default_factory=dict)


def save(
    attempt: ExamAttempt,
    slot: ExamSlot,
    submitted: Mapping[str, Sequence[str]],
    now: datetime,
    question: str | None = None,
    *,
    shown: quiz.Posed | None = None,
) -> Saved:
    """Store the slot's answers as given (the last save of a question stands).

    Each question of the slot is read from the form: an answer is stored, an empty one clears
    it, one that is not an answer of its kind keeps what was stored and is reported. The raw
    values are kept too, so any device shows the form as it was left. With `question`, only
    that question is read (its own form sent it) and only it changes: the slot's other
    questions keep what is stored, however many saves arrive at once (a phone back online
    sending every pending answer, two tabs), because the stored answers are read under the
    slot's lock and the form's questions merged into them. ExamError `no_question` for a
    question not in the slot, `finished` or `deadline` (with the time it closed) when the
    attempt no longer takes answers. `shown` is the slot as the request posed it, in any
    language (the answers are read alike in each): a frozen variant is never cached, so a
    request poses it once and passes it down.
    """
    if attempt.finished_at is not None:
        raise ExamError(ExamCode.FINISHED, attempt.finished_at)
    if now >= attempt.deadline:
        finish_if_due(attempt, now)
        if attempt.finished_at is not None:  # else the deadline has just been moved
            raise ExamError(ExamCode.DEADLINE, attempt.deadline)
    shown = shown or posed(slot, "en")
    if question is not None and question not in {q.id for q in shown.questions}:
        raise ExamError(ExamCode.NO_QUESTION)
    values: dict[str, Any] = {}  # field name -> the values sent, or _GONE
    given: dict[str, Any] = {}  # question id -> the answer read, or _GONE
    errors: dict[str, str] = {}
    for item in quiz.read(shown, submitted):
        if question is not None and item.id != question:
            continue
        for name in item.question.fields:
            kept = [v[:VALUE_MAX] for v in submitted.get(name, ()) if v][:VALUES_MAX]
            values[name] = kept or _GONE
        # Tick boxes sent by their own form with none ticked say "none of these": an answer.
        ticks = item.question.type in (quiz.QuestionType.MULTI, quiz.QuestionType.PLAYERS)
        if all(values[name] is _GONE for name in item.question.fields) and not (
            ticks and question == item.id
        ):
            given[item.id] = _GONE
        elif item.error:
            errors[item.id] = item.error
        else:
            given[item.id] = item.given
    # No savepoint when called inside a transaction: nothing here needs a partial rollback.
    with transaction.atomic(savepoint=False):
        # Updating the attempt's row locks it, guarded by the attempt still open: a submit
        # (which locks the same row) either committed before, and this changes nothing, or
        # waits until this answer is stored, and grades it. Then the slot's row, and what it
        # holds is read only now: a copy read before the locks would write back an answer
        # another save stored meanwhile as if it had never come.
        still_open = ExamAttempt.objects.filter(
            pk=attempt.pk, finished_at__isnull=True, deadline__gt=now
        ).update(current=slot.position)
        if still_open:
            stored = ExamSlot.objects.select_for_update().only("given", "values").get(pk=slot.pk)
            stored.given = _merged(stored.given, given)
            stored.values = _merged(stored.values, values)
            stored.saved_at = now
            stored.save(update_fields=["given", "values", "saved_at"])
    if not still_open:
        attempt.refresh_from_db()
        finish_if_due(attempt, now)
        if attempt.finished_by == Finish.DEADLINE:
            raise ExamError(ExamCode.DEADLINE, attempt.deadline)
        raise ExamError(ExamCode.FINISHED, attempt.finished_at)
    attempt.current = slot.position
    slot.given, slot.values, slot.saved_at = stored.given, stored.values, now
    return Saved(slot, errors)


#: In a save's changes: this answer (or field) is cleared.
_GONE = object()


def _merged(stored: Mapping[str, Any], changes: Mapping[str, Any]) -> dict[str, Any]:
    """What is stored with the changes of one save applied, the rest as it was."""
    out = dict(stored)
    for key, value in changes.items():
        if value is _GONE:
            out.pop(key, None)
        else:
            out[key] = value
    return out


# --- re-grading --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Change:
    """One question whose mark a re-grade changes."""

    attempt: ExamAttempt
    slot: ExamSlot
    question: str
    was: bool
    now: bool


@dataclass(frozen=True)
class Regrade:
    changes: list[Change]
    # Attempts whose pass/fail flips: (attempt, passed before, passed after, new right count).
    flips: list[tuple[ExamAttempt, bool, bool, int]]
    rulings: dict[int, dict[str, Any]]


def regrade(exam: Exam, now: datetime, *, apply: bool) -> Regrade:
    """Rule every submitted question's frozen facts again with today's engine and compare.

    With `apply`, the new rulings and marks are stored, the history's answers corrected (and
    the trainee's aggregates rebuilt), and every pass that becomes a fail withdrawn (signal with
    the reason); a fail that becomes a pass is announced like any pass.
    """
    attempts = list(exam.attempts.filter(finished_at__isnull=False).select_related("user", "exam"))
    slots = list(
        ExamSlot.objects.filter(attempt__in=attempts).select_related("scenario", "attempt")
    )
    by_attempt: dict[int, list[ExamSlot]] = {}
    changes: list[Change] = []
    rulings: dict[int, dict[str, Any]] = {}
    for slot in slots:
        by_attempt.setdefault(slot.attempt_id, []).append(slot)
        try:
            ruling = rule_json(slot.scenario.kind, slot.facts)
        except FactError:
            continue  # facts the engine no longer takes: the frozen ruling stands
        if ruling == slot.ruling:
            continue
        rulings[slot.pk] = ruling
        old_marks = dict(slot.marks)
        slot.ruling = ruling
        new_marks, new_rights = _grade(slot)
        for qid, mark in new_marks.items():
            if old_marks.get(qid) != mark:
                changes.append(Change(slot.attempt, slot, qid, bool(old_marks.get(qid)), mark))
        slot.marks, slot.rights = new_marks, new_rights
    flips = []
    for attempt in attempts:
        own = by_attempt.get(attempt.pk, [])
        right = quiz.count_right(ok for s in own for ok in s.marks.values())
        passed = _passes(exam, right, attempt.total or 0)
        if passed != bool(attempt.passed) or right != attempt.right:
            flips.append((attempt, bool(attempt.passed), passed, right))
    if apply and (rulings or flips):
        _apply_regrade(exam, now, [s for s in slots if s.pk in rulings], flips)
    return Regrade(changes, [f for f in flips if f[1] != f[2]], rulings)


def _apply_regrade(
    exam: Exam,
    now: datetime,
    slots: Sequence[ExamSlot],
    flips: Sequence[tuple[ExamAttempt, bool, bool, int]],
) -> None:
    with transaction.atomic():
        ExamSlot.objects.bulk_update(slots, ["ruling", "marks", "rights"])
        users = set()
        for slot in slots:
            for qid, mark in slot.marks.items():
                Attempt.objects.filter(
                    mode=Mode.EXAM, context_id=slot.attempt_id, nonce=_nonce(slot, qid)
                ).update(correct=mark, right_answer=slot.rights.get(qid))
            if slot.attempt.user_id is not None and not slot.attempt.preview:
                users.add(slot.attempt.user_id)
        for attempt, was, passed, right in flips:
            attempt.right, attempt.passed, attempt.regraded_at = right, passed, now
            attempt.save(update_fields=["right", "passed", "regraded_at"])
            if attempt.preview or attempt.user_id is None:
                continue
            if was and not passed:
                reason = _withdrawal_reason(exam, attempt, now)
                transaction.on_commit(partial(_announce_withdrawal, attempt.pk, reason))
            elif passed and not was:
                transaction.on_commit(partial(_announce_pass, attempt))
        for user_id in sorted(users):
            progress.rebuild(user_id)


def _announce_withdrawal(attempt_id: int, reason: str) -> None:
    signals.exam_pass_withdrawn.send(sender=ExamAttempt, attempt_id=attempt_id, reason=reason)


def _nonce(slot: ExamSlot, qid: str) -> str:
    return f"x{slot.attempt_id}-{slot.position}-{qid}"[:32]


def _withdrawal_reason(exam: Exam, attempt: ExamAttempt, now: datetime) -> str:
    with translation.override("en"):
        return _("Re-graded on %(day)s: %(score).0f%% < %(mark)d%%") % {
            "day": moment(timezone.localdate(now), "date"),
            "score": attempt.percent or 0,
            "mark": exam.pass_percent,
        }


# --- reading for pages -------------------------------------------------------------------------


def open_for(user: User, now: datetime) -> list[Exam]:
    """The exams open now in the trainee's cohorts, closing soonest first (for the home page).
    One query; each carries `in_progress`: whether the trainee has an attempt open."""
    if not user.is_authenticated:
        return []
    mine = ExamAttempt.objects.filter(
        exam=OuterRef("pk"), user=user, preview=False, finished_at=None, deadline__gt=now
    )
    return list(
        Exam.objects.filter(cohort__memberships__user=user, opens_at__lte=now, closes_at__gt=now)
        .select_related("cohort__course")
        .annotate(in_progress=Exists(mine))
        .order_by("closes_at", "pk")
    )
