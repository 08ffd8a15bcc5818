"""A phone's answers to the round on screen: checked by the quiz core, recorded once.

All the round's questions come in one form, as in practice. They are recorded together or not
at all, with the server's clock; the unique (participant, round, question) makes a retry, a
double tap or a replayed request record nothing more. A signed-in participant's answers also go
into their own history and progress (mode clinic), in the same transaction; while an exam holds
that account closed-book (umpires.closedbook) they are refused, so no ruling reaches it.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from django.db import IntegrityError, transaction
from django.utils import timezone

from polotrainer.clinics import drill, live
from polotrainer.clinics.models import ClinicAnswer, ClinicSession, Participant, Phase, Round
from polotrainer.umpires import closedbook
from polotrainer.umpires.models import Mode
from polotrainer.umpires.progress import Answer, Answers, Context, Person, record_answers
from scenarios import quiz

#: Answers sent within this long after the time limit still count (the network's delay).
GRACE_MS = 1500
#: Without a time limit, the speed bonus is spread over this long.
SPEED_WINDOW_MS = 30_000
SPEED_BONUS = 0.5


class Refusal(StrEnum):
    """Why a clinic answer was not recorded."""

    ENDED = "ended"
    WRONG_ROUND = "wrong_round"
    CLOSED = "closed"
    EARLY = "early"
    CLOSED_BOOK = "closed_book"
    INVALID = "invalid"
    TWICE = "twice"


class AnswerRefused(Exception):
    """Nothing recorded: `code` is ended, closed, early (a drill round's play is not over),
    wrong_round, twice, closed_book or invalid (with `items`)."""

    def __init__(self, code: Refusal, items: Sequence[quiz.Marked] = ()) -> None:
        super().__init__(code)
        self.code = code
        self.items = tuple(items)


@dataclass(frozen=True)
class Result:
    round: Round
    check: quiz.Check
    answers: list[ClinicAnswer]


def points_for(
    session: ClinicSession, correct: bool, elapsed_ms: int, *, window_ms: int | None = None
) -> float:
    """One point for a right answer; with the speed bonus, up to half a point more the faster
    (over `window_ms`, else the time limit, else SPEED_WINDOW_MS).

    >>> s = ClinicSession(speed_bonus=True, time_limit=20)
    >>> points_for(s, True, 0), points_for(s, True, 10_000), points_for(s, False, 0)
    (1.5, 1.25, 0.0)
    """
    if not correct:
        return 0.0
    if not session.speed_bonus:
        return 1.0
    window = window_ms or (session.time_limit * 1000 if session.time_limit else SPEED_WINDOW_MS)
    return 1.0 + SPEED_BONUS * max(0.0, 1 - elapsed_ms / window)


def submit(
    session: ClinicSession,
    participant: Participant,
    round_id: int | None,
    posed: quiz.Posed,
    submitted: Mapping[str, Sequence[str]],
    *,
    current: Round | None = None,
) -> Result:
    """Check and record a participant's answers to the round on screen; AnswerRefused if not.
    `current`: the round on screen if the caller has it (the session's snapshot), else read."""
    now = timezone.now()
    if session.phase == Phase.ENDED:
        raise AnswerRefused(Refusal.ENDED)
    if current is None or current.session_id != session.pk or current.position != session.current:
        current = Round.objects.filter(session=session, position=session.current).first()
    if current is None or round_id != current.pk:
        raise AnswerRefused(Refusal.WRONG_ROUND)
    if session.phase != Phase.OPEN or (
        session.closes_at is not None
        and (now - session.closes_at).total_seconds() * 1000 > GRACE_MS
    ):
        raise AnswerRefused(Refusal.CLOSED)
    if participant.user_id is not None and closedbook.closed_book(
        Person(user_id=participant.user_id), now
    ):
        raise AnswerRefused(Refusal.CLOSED_BOOK)
    opened = session.opened_at or now
    elapsed = max(0, min(int((now - opened).total_seconds() * 1000), 2**31 - 1))
    if current.stop_ms is not None and elapsed < current.stop_ms:
        raise AnswerRefused(Refusal.EARLY)
    checked = quiz.check(posed, submitted)
    if checked.refused:
        raise AnswerRefused(Refusal.INVALID, checked.items)
    # A drill round scores its speed from the stop, over the countdown (clinics.drill).
    scored = drill.decision_ms(current, elapsed) if current.stop_ms is not None else elapsed
    window = drill.COUNTDOWN_MS if current.stop_ms is not None else None
    rows = [
        ClinicAnswer(
            participant=participant,
            round=current,
            question=m.id,
            answer=m.given,
            right_answer=m.right,
            correct=m.correct,
            points=points_for(session, m.correct, scored, window_ms=window),
            created_at=now,
            elapsed_ms=elapsed,
        )
        for m in checked.items
    ]
    try:
        with transaction.atomic():
            created = ClinicAnswer.objects.bulk_create(rows)
            live.changed(session.pk, live.COUNT)  # the projector's count
            if participant.user_id is not None:
                _to_history(session, participant, current, posed, created, elapsed)
    except IntegrityError:
        raise AnswerRefused(Refusal.TWICE) from None
    return Result(current, checked, created)


def _to_history(
    session: ClinicSession,
    participant: Participant,
    current: Round,
    posed: quiz.Posed,
    rows: list[ClinicAnswer],
    elapsed: int,
) -> None:
    if any(row.pk is None for row in rows):  # a backend that does not return ids on insert
        rows = list(ClinicAnswer.objects.filter(participant=participant, round=current))
    record_answers(
        Person(user_id=participant.user_id),
        Context(Mode.CLINIC, ref_id=session.pk, label=session.title),
        Answers(
            scenario_id=posed.scenario_id,
            seed=posed.seed,
            content_version=posed.version,
            items=[
                Answer(row.question, row.answer, row.right_answer, row.correct, f"clinic-{row.pk}")
                for row in rows
            ],
            time_taken_ms=elapsed,
        ),
    )
