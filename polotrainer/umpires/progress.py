"""Recording answers: the one place an umpire's history is written, whatever asked the question.

Practice, review, exams and clinics all call `record_answers(person, context, answers)`. The
person is an account or a visitor; the context says where the answers were given (and, for an
exam attempt or a clinic round, which one: those apps point at the attempts, never the other
way). The aggregates the dashboard and the gradebook read (`ScenarioProgress`, `DayActivity`)
are updated in the same transaction, so they never drift from the answers.
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, connection, transaction
from django.db.models import QuerySet
from django.utils import timezone

from polotrainer.umpires import mastery, review
from polotrainer.umpires.models import Attempt, DayActivity, Mode, ScenarioProgress
from scenarios import quiz

#: How many of the latest answers to a scenario the progress row keeps (mastery reads LAST_N).
RECENT_KEPT = 5
#: The modes whose answers feed the review schedule; exams and clinics do not schedule reviews.
#: A drill's answers do, like any other self-study.
SCHEDULING = frozenset({Mode.PRACTICE, Mode.REVIEW, Mode.DRILL})


@dataclass(frozen=True)
class Person:
    """Who answered: an account (`user_id`) or a visitor known by a random id in their session."""

    user_id: int | None = None
    visitor: str = ""

    def __post_init__(self) -> None:
        if (self.user_id is None) == (not self.visitor):
            raise ValueError("a person is either a user or a visitor")


@dataclass(frozen=True)
class Context:
    """Where the answers were given: practice, review, an exam attempt or a clinic round."""

    mode: Mode = Mode.PRACTICE
    ref_id: int | None = None
    label: str = ""
    # Until when the history hides whether the answers were right, and the right answers
    # (an exam's review policy); None: shown at once. See Attempt.result_hidden_until.
    result_hidden_until: datetime | None = None
    right_hidden_until: datetime | None = None
    # Until when it hides which scenario and seed they were (an exam's, until it closes).
    variant_hidden_until: datetime | None = None


PRACTICE = Context(Mode.PRACTICE)
REVIEW = Context(Mode.REVIEW)


@dataclass(frozen=True)
class Answer:
    """One question's answer, with the right answer as the engine ruled it then."""

    question: str
    given: Any
    right: Any
    correct: bool
    nonce: str


@dataclass(frozen=True)
class Answers:
    """The answers to one variant of one scenario, given together."""

    scenario_id: int
    seed: int
    content_version: str
    items: Sequence[Answer]
    time_taken_ms: int | None = None
    decision_ms: int | None = None  # a drill's decision time
    at: datetime | None = None  # when they were given; now unless imported or replayed


@dataclass(frozen=True)
class Recorded:
    """What was written: the new attempts, or none when the answers were already recorded."""

    attempts: list[Attempt]

    @property
    def duplicate(self) -> bool:
        return not self.attempts


def record_answers(person: Person, context: Context, answers: Answers) -> Recorded:
    """Record the answers to one variant and update the aggregates, in one transaction.

    Each answer's nonce is unique: answers already recorded (a double click, a replayed form, the
    same answer from two tabs) come back as a duplicate and nothing is written twice. Any other
    integrity error is a real error and is raised.
    """
    fresh = _attempts(person, context, answers)
    if not fresh:
        return Recorded([])
    # Answers whose result is still hidden (an exam's review policy) stay out of the aggregates
    # too: a mastery or a day's right count that moved would tell what the history does not.
    # `rebuild` counts them once they show (the exam calls it when its policy reveals them).
    hidden = (
        context.result_hidden_until is not None and context.result_hidden_until > timezone.now()
    )
    try:
        with transaction.atomic():
            Attempt.objects.bulk_create(fresh)
            if person.user_id is not None and not hidden:
                _update_progress(person.user_id, answers.scenario_id, fresh, context)
                _count_day(person.user_id, fresh)
    except IntegrityError:
        if Attempt.objects.filter(nonce__in=[a.nonce for a in fresh]).exists():
            return Recorded([])
        raise
    return Recorded(fresh)


def _attempts(person: Person, context: Context, answers: Answers) -> list[Attempt]:
    when = answers.at or timezone.now()
    return [
        Attempt(
            user_id=person.user_id,
            visitor=person.visitor,
            scenario_id=answers.scenario_id,
            seed=answers.seed,
            question=item.question,
            answer=item.given,
            right_answer=item.right,
            correct=item.correct,
            content_version=answers.content_version,
            time_taken_ms=answers.time_taken_ms,
            decision_ms=answers.decision_ms,
            mode=context.mode,
            context_id=context.ref_id,
            context_label=context.label[:200],
            result_hidden_until=context.result_hidden_until,
            right_hidden_until=context.right_hidden_until,
            variant_hidden_until=context.variant_hidden_until,
            nonce=item.nonce,
            created_at=when,
            day=timezone.localdate(when),
        )
        for item in answers.items
    ]


def record_given_earlier(person: Person, given: Sequence[tuple[Context, Answers]]) -> list[Attempt]:
    """Record answers given earlier somewhere else (an offline outbox), each variant at its own
    time (`Answers.at`), in one transaction; the new attempts.

    An answer that arrives late must take its place among the others instead of landing on
    top: the umpire's progress on these scenarios (last answers, the review card) is computed
    again by replaying every answer to them in the order given, as Anki merges the reviews of
    two devices; the days' counts just add. The nonces must be new (the caller knows which
    answers it already recorded); a repeated one raises IntegrityError and writes nothing.
    Contexts whose results are hidden are not for this (practice and review only).
    """
    fresh = [a for context, answers in given for a in _attempts(person, context, answers)]
    if not fresh:
        return []
    with transaction.atomic():
        user_id = person.user_id
        if user_id is not None:
            _lock_aggregates(user_id)
        Attempt.objects.bulk_create(fresh)
        if user_id is None:
            return fresh
        scenario_ids = {a.scenario_id for a in fresh}
        ScenarioProgress.objects.filter(user_id=user_id, scenario_id__in=scenario_ids).delete()
        _apply(
            user_id,
            Attempt.objects.filter(user_id=user_id, scenario_id__in=scenario_ids).exclude(
                result_hidden_until__gt=timezone.now()
            ),
            days=False,
        )
        by_day: dict[Any, list[Attempt]] = {}
        for a in fresh:
            by_day.setdefault(a.day, []).append(a)
        for attempts in by_day.values():
            _count_day(user_id, attempts)
    return fresh


def _count_day(user_id: int, attempts: Sequence[Attempt]) -> None:
    """Add the answers to the day's row: one statement, safe however many arrive at once."""
    table = connection.ops.quote_name(DayActivity._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} (user_id, day, answers, correct) VALUES (%s, %s, %s, %s) "  # noqa: S608 - the table name is ours
            "ON CONFLICT (user_id, day) DO UPDATE SET "
            f"answers = {table}.answers + excluded.answers, "
            f"correct = {table}.correct + excluded.correct",
            [
                user_id,
                attempts[0].day,
                len(attempts),
                quiz.count_right(a.correct for a in attempts),
            ],
        )


def _update_progress(
    user_id: int, scenario_id: int, attempts: Sequence[Attempt], context: Context
) -> None:
    """The scenario's progress row after these answers, created if missing, race-free.

    Locked for the update, so two answers at the same moment (two tabs, two devices) are applied
    one after the other. The first answer inserts the row in one statement that does nothing
    if another request inserted it in between; then the row is locked and updated instead.
    """
    lookup = {"user_id": user_id, "scenario_id": scenario_id}
    row = ScenarioProgress.objects.select_for_update().filter(**lookup).first()
    if row is None:
        if _insert_if_missing(_advanced(ScenarioProgress(**lookup), attempts, context)):
            return
        row = ScenarioProgress.objects.select_for_update().get(**lookup)
    _advanced(row, attempts, context).save(update_fields=PROGRESS_FIELDS)


def _insert_if_missing(row: ScenarioProgress) -> bool:
    """Insert a new progress row unless the (user, scenario) one exists; whether it did.

    One INSERT ... ON CONFLICT DO NOTHING instead of an INSERT inside a savepoint (three
    statements) that fails on a race: the first answer to a scenario is the common case."""
    fields = [f for f in ScenarioProgress._meta.concrete_fields if not f.primary_key]
    table = connection.ops.quote_name(ScenarioProgress._meta.db_table)
    columns = ", ".join(connection.ops.quote_name(str(f.column)) for f in fields)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} ({columns}) VALUES ({', '.join(['%s'] * len(fields))}) "  # noqa: S608 - our table and columns
            "ON CONFLICT (user_id, scenario_id) DO NOTHING",
            [f.get_db_prep_save(getattr(row, f.attname), connection) for f in fields],
        )
        return bool(cursor.rowcount == 1)


PROGRESS_FIELDS = [
    "recent",
    "recent_score",
    "recent_from",
    "answers",
    "correct",
    "last_answered_at",
    "card",
    "due",
    "variant_seed",
    "variant_rating",
    "card_before",
]


def _advanced(
    row: ScenarioProgress, attempts: Sequence[Attempt], context: Context
) -> ScenarioProgress:
    """The row (changed in place) after a variant's answers."""
    newest = [[int(a.created_at.timestamp() * 1000), bool(a.correct)] for a in reversed(attempts)]
    row.recent = (newest + list(row.recent or []))[:RECENT_KEPT]
    row.recent_score, row.recent_from = mastery.summary(row.recent)
    row.answers += len(attempts)
    row.correct += quiz.count_right(a.correct for a in attempts)
    row.last_answered_at = attempts[-1].created_at
    if context.mode in SCHEDULING:
        # The review schedule counts the variant once: right only if all of it was.
        review.schedule(row, attempts[-1], all(a.correct for a in attempts))
    return row


def rebuild(user_id: int) -> None:
    """Recompute one umpire's aggregates from every answer they have given whose result shows
    now (see `record_answers`)."""
    with transaction.atomic():
        _lock_aggregates(user_id)
        ScenarioProgress.objects.filter(user_id=user_id).delete()
        DayActivity.objects.filter(user_id=user_id).delete()
        _apply(
            user_id,
            Attempt.objects.filter(user_id=user_id).exclude(result_hidden_until__gt=timezone.now()),
        )


def adopt_visitor_attempts(user_id: int, visitor: str | None) -> int:
    """Move what this browser's visitor answered into the account; how many answers moved.

    Called with the visitor id read *before* login(), which rotates the session. The answers
    count in the account's aggregates and review schedule as if given logged in, in a fixed few
    queries whatever their number.
    """
    if not visitor:
        return 0
    with transaction.atomic():
        _lock_aggregates(user_id)
        adopted = Attempt.objects.select_for_update().filter(user=None, visitor=visitor)
        pks = list(adopted.values_list("pk", flat=True))
        if not pks:
            return 0
        Attempt.objects.filter(pk__in=pks).update(user_id=user_id, visitor="")
        _apply(user_id, Attempt.objects.filter(pk__in=pks))
    return len(pks)


def _lock_aggregates(user_id: int) -> None:
    """Take the umpire's own row lock before many of their aggregates are read and written back
    (`rebuild`, `adopt_visitor_attempts`), so two of these for one umpire run one after the
    other. Without it, a rebuild's delete misses the rows another rebuild inserted meanwhile
    and counts every answer again on top of them. FOR NO KEY UPDATE: answers being recorded
    meanwhile, which only reference the row, do not wait for it."""
    list(User.objects.select_for_update(no_key=True).filter(pk=user_id).values_list("pk"))


def _apply(user_id: int, attempts: QuerySet[Attempt], *, days: bool = True) -> None:
    """Add answers (oldest first) to the umpire's aggregates: a few queries whatever their count
    (the days' counts too, unless `days` is false)."""
    ordered = list(
        attempts.order_by("created_at", "pk").only(
            "scenario_id", "seed", "correct", "created_at", "day", "mode"
        )
    )
    groups = _variants(ordered)
    rows = {
        r.scenario_id: r
        for r in ScenarioProgress.objects.select_for_update().filter(
            user_id=user_id, scenario_id__in={a.scenario_id for a in ordered}
        )
    }
    day_rows = (
        {
            d.day: d
            for d in DayActivity.objects.select_for_update().filter(
                user_id=user_id, day__in={a.day for a in ordered}
            )
        }
        if days
        else {}
    )
    existing_rows, existing_days = set(rows), set(day_rows)
    for group in groups:
        first = group[0]
        row = rows.setdefault(
            first.scenario_id, ScenarioProgress(user_id=user_id, scenario_id=first.scenario_id)
        )
        _advanced(row, group, Context(Mode(first.mode)))
        for a in group if days else ():
            day = day_rows.setdefault(a.day, DayActivity(user_id=user_id, day=a.day))
            day.answers += 1
            day.correct += a.correct
    ScenarioProgress.objects.bulk_create([r for k, r in rows.items() if k not in existing_rows])
    ScenarioProgress.objects.bulk_update(
        [r for k, r in rows.items() if k in existing_rows], PROGRESS_FIELDS
    )
    DayActivity.objects.bulk_create([d for k, d in day_rows.items() if k not in existing_days])
    DayActivity.objects.bulk_update(
        [d for k, d in day_rows.items() if k in existing_days], ["answers", "correct"]
    )


def _variants(attempts: Iterable[Attempt]) -> list[list[Attempt]]:
    """Consecutive answers to the same variant at the same moment, grouped as they were given."""
    groups: list[list[Attempt]] = []
    for a in attempts:
        last = groups[-1][-1] if groups else None
        if last is not None and (last.scenario_id, last.seed, last.created_at, last.mode) == (
            a.scenario_id,
            a.seed,
            a.created_at,
            a.mode,
        ):
            groups[-1].append(a)
        else:
            groups.append([a])
    return groups
