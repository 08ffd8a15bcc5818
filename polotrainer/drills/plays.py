"""The drill's domain: build a set, start a play, take its answer, score it on both axes.

No HTTP here: the views pass the person, the submitted values and the clock. A play is posed
and checked by the quiz core (scenarios.quiz) and played by its scene (scenarios.scenes); the
answers are recorded by umpires.progress like any other, in mode "drill", so the review
schedule and the dashboard see them.

Time, by the server's clock: the scene starts when the server hands it out (`start`), stops
`stop_ms` later; the decision time is the answer's arrival minus (start + stop). The page
reports its own measure (no network between the start and the answer); it is taken when it is
no more than the server's and no less than the server's minus REPORT_SLACK_MS (the network's
share), else the server's stands. An answer arriving later than the window plus GRACE_MS is a
time-out: wrong, with no choice, whatever it says.
"""

import hashlib
import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

from django.core import signing
from django.db import transaction
from django.db.models import F, JSONNull

from polotrainer.courses.exams.models import Accommodation
from polotrainer.courses.models import Assignment
from polotrainer.drills.models import DrillItem, DrillSet
from polotrainer.umpires.models import Attempt, Mode
from polotrainer.umpires.progress import Answer, Answers, Context, Person, record_answers
from scenarios import drillable, quiz, scenes
from scenarios.models import Scenario

SET_SIZE = 20
#: The countdown after the stop (ms), before any extra time.
COUNTDOWN_MS = 5000
#: An answer may arrive this long after the countdown's end (the network's share) and count.
GRACE_MS = 1500
#: A time reported by the page counts when it is within this much below the server's.
REPORT_SLACK_MS = 2000
#: With reduced motion the key frames are shown one by one, this long each (ms).
STEP_MS = 1200
#: At most this many times the countdown, whatever the accommodation.
MAX_FACTOR = 3.0
SALT = "drills.play"


class Refusal(StrEnum):
    """Why an answer was not taken (nothing recorded)."""

    TAMPERED = "tampered"
    NOT_STARTED = "not_started"
    EARLY = "early"
    BAD_ANSWER = "bad_answer"


class Outcome(StrEnum):
    RECORDED = "recorded"
    TIMED_OUT = "timed_out"  # the page said so, or the countdown had run out
    LATE = "late"  # a choice sent after the window: recorded as a time-out
    ALREADY = "already"  # answered before: nothing recorded again


class DrillError(ValueError):
    def __init__(self, code: Refusal, detail: str = "") -> None:
        super().__init__(code.value)
        self.code = code
        self.detail = detail


# --- the set ------------------------------------------------------------------------------------


def drill_scenarios() -> dict[scenes.Family, list[Scenario]]:
    """The live scenarios a scene family plays (by their rulebook numbers, seed 0), by family."""
    return drillable.by_family()


def interleaved(
    by_family: Mapping[scenes.Family, Sequence[Scenario]], size: int, rng: random.Random
) -> list[Scenario]:
    """`size` scenarios taken in turn from each family (shuffled within it, each used again
    only once its family's are all used), never the same rule twice in a row when another can
    come: choosing which rule applies is the skill."""
    families = sorted(f for f, s in by_family.items() if s)
    pools: dict[scenes.Family, list[Scenario]] = {f: [] for f in families}
    picked: list[Scenario] = []
    for turn in range(size if families else 0):
        family = families[turn % len(families)]
        if not pools[family]:
            pools[family] = rng.sample(list(by_family[family]), len(by_family[family]))
        pool = pools[family]
        last = picked[-1].rule_id if picked else None
        index = next((i for i, s in enumerate(pool) if s.rule_id != last), 0)
        picked.append(pool.pop(index))
    return picked


def countdown_ms(person: Person) -> int:
    """The countdown for this person: the exams' extra time applies to drills as a factor
    (time limit + extra minutes over the time limit), the most generous of the person's
    accommodations, at most MAX_FACTOR, rounded up to a whole second (the page counts whole
    seconds down)."""
    if person.user_id is None:
        return COUNTDOWN_MS
    factor = 1.0
    for limit, extra in Accommodation.objects.filter(
        user_id=person.user_id, extra_minutes__gt=0
    ).values_list("exam__time_limit_minutes", "extra_minutes"):
        factor = max(factor, (limit + extra) / limit)
    return math.ceil(COUNTDOWN_MS * min(factor, MAX_FACTOR) / 1000) * 1000


def new_set(
    person: Person,
    now: datetime,
    size: int = SET_SIZE,
    *,
    pool: Mapping[scenes.Family, Sequence[Scenario]] | None = None,
    assignment: Assignment | None = None,
) -> DrillSet:
    """A fresh set of plays for the person, interleaved across families and rules: from every
    drillable scenario, or from `pool` (an assigned drill set's, for `assignment`)."""
    rng = random.Random()
    chosen = interleaved(drill_scenarios() if pool is None else pool, size, rng)
    window = countdown_ms(person)
    with transaction.atomic():
        drill = DrillSet.objects.create(
            user_id=person.user_id, visitor=person.visitor, created_at=now, assignment=assignment
        )
        items = []
        for position, scenario in enumerate(chosen, start=1):
            seed, family = drillable.playable_seed(scenario)
            items.append(
                DrillItem(
                    drill=drill,
                    position=position,
                    scenario=scenario,
                    seed=seed,
                    family=family,
                    window_ms=window,
                )
            )
        DrillItem.objects.bulk_create(items)
    return drill


def owns(person: Person, drill: DrillSet) -> bool:
    if person.user_id is not None:
        return drill.user_id == person.user_id
    return drill.user_id is None and bool(person.visitor) and drill.visitor == person.visitor


# --- a play -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Play:
    """One item as the page plays and asks it."""

    item: DrillItem
    posed: quiz.Posed
    scene: scenes.Scene


def play_of(item: DrillItem, lang: str) -> Play:
    posed = quiz.pose(item.scenario, item.seed, lang)
    return Play(item, posed, drillable.scene_of(posed))


def stop_offset_ms(scene: scenes.Scene, steps: bool) -> int:
    """When the stop comes, as played: at real speed, or after each key frame in turn."""
    if steps:
        return len(scene.times()) * STEP_MS
    return round(scene.stop * 1000)


def start(item: DrillItem, scene: scenes.Scene, now: datetime, *, steps: bool = False) -> DrillItem:
    """Start the play once: the first start stands (a reload, a second tab play nothing again)."""
    with transaction.atomic():
        locked = DrillItem.objects.select_for_update().get(pk=item.pk)
        if locked.started_at is None:
            locked.started_at = now
            locked.stop_ms = stop_offset_ms(scene, steps)
            locked.save(update_fields=["started_at", "stop_ms"])
    return locked


def token_for(item: DrillItem) -> str:
    """The signed state the page sends back with its answer: the item, its start and stop."""
    assert item.started_at is not None and item.stop_ms is not None
    payload = {
        "i": item.pk,
        "t": epoch_ms(item.started_at),
        "s": item.stop_ms,
        "w": item.window_ms,
    }
    # Signed without a timestamp, so that a reload is given the very same token (a
    # TimestampSigner's changes each second); its age is the play's own start, checked by
    # the answer against the window.
    return signing.Signer(salt=SALT).sign_object(payload, compress=True)


def read_token(token: str, item: DrillItem) -> None:
    """DrillError(TAMPERED) unless the token is this item's, as started."""
    try:
        data = signing.Signer(salt=SALT).unsign_object(token)
    except signing.BadSignature:
        raise DrillError(Refusal.TAMPERED) from None
    if item.started_at is None or item.stop_ms is None:
        raise DrillError(Refusal.NOT_STARTED)
    expected = {
        "i": item.pk,
        "t": epoch_ms(item.started_at),
        "s": item.stop_ms,
        "w": item.window_ms,
    }
    if data != expected:
        raise DrillError(Refusal.TAMPERED)


def server_ms(item: DrillItem, now: datetime) -> int:
    """The decision time by the server's clock: arrival - (start + stop offset)."""
    assert item.started_at is not None and item.stop_ms is not None
    return epoch_ms(now) - (epoch_ms(item.started_at) + item.stop_ms)


def decision_time(server: int, reported: int | None) -> int:
    """The page's measure when it is <= the server's and >= the server's - 2 s, else the
    server's.

    >>> decision_time(2500, 1800), decision_time(2500, 400), decision_time(2500, 2600)
    (1800, 2500, 2500)
    """
    if reported is not None and server - REPORT_SLACK_MS <= reported <= server:
        return max(0, reported)
    return max(0, server)


def remaining_ms(item: DrillItem, now: datetime) -> int:
    """How long the trainee still has after the stop (negative: the window has closed)."""
    return item.window_ms - max(0, server_ms(item, now))


@dataclass(frozen=True)
class Result:
    outcome: Outcome
    item: DrillItem
    check: quiz.Check
    decision_ms: int


def nonce(item: DrillItem, question: str) -> str:
    return hashlib.sha256(f"drill:{item.pk}:{question}".encode()).hexdigest()[:32]


def answer(
    person: Person,
    item: DrillItem,
    play: Play,
    submitted: Mapping[str, Sequence[str]],
    *,
    token: str,
    reported_ms: int | None,
    timed_out: bool,
    now: datetime,
) -> Result:
    """Take the answer to a play: recorded once, scored on right and on time.

    DrillError when it cannot be taken (a token that is not this play's, a play not started,
    an answer before the stop, a value that is no answer of its question): nothing recorded.
    """
    read_token(token, item)
    if item.answered_at is not None:
        return Result(Outcome.ALREADY, item, recorded_check(play, item), item.decision_ms or 0)
    server = server_ms(item, now)
    if server < 0 and not timed_out:
        raise DrillError(Refusal.EARLY)
    late = server > item.window_ms + GRACE_MS
    given: dict[str, Any] = {}
    if not (timed_out or late):
        for marked in quiz.read(play.posed, submitted):
            if marked.error == "missing":
                continue  # unanswered: wrong
            if marked.error:
                raise DrillError(Refusal.BAD_ANSWER, marked.error)
            given[marked.id] = marked.given
    no_choice = timed_out or late
    taken = item.window_ms if no_choice else min(decision_time(server, reported_ms), server)
    if no_choice:
        given = {}
    check = quiz.checked(play.posed, given)
    with transaction.atomic():
        locked = DrillItem.objects.select_for_update().get(pk=item.pk)
        if locked.answered_at is not None:
            return Result(
                Outcome.ALREADY, locked, recorded_check(play, locked), locked.decision_ms or 0
            )
        right = all(m.correct for m in check.items)
        record_answers(
            person,
            # No label: the history shows the mode, "Drill", in the reader's language.
            Context(Mode.DRILL, ref_id=locked.pk),
            Answers(
                scenario_id=item.scenario_id,
                seed=item.seed,
                content_version=item.scenario.version,
                items=[
                    Answer(
                        m.id,
                        JSONNull() if m.given is None else m.given,
                        m.right,
                        m.correct,
                        nonce(locked, m.id),
                    )
                    for m in check.items
                ],
                time_taken_ms=taken,
                decision_ms=taken,
                at=now,
            ),
        )
        locked.answered_at = now
        locked.decision_ms = taken
        locked.correct = right
        locked.timed_out = no_choice
        locked.save(update_fields=["answered_at", "decision_ms", "correct", "timed_out"])
    outcome = (
        Outcome.LATE
        if late and not timed_out
        else (Outcome.TIMED_OUT if no_choice else Outcome.RECORDED)
    )
    return Result(outcome, locked, check, taken)


def recorded_check(play: Play, item: DrillItem) -> quiz.Check:
    """The check of the answers recorded for this item (a second answer shows the first)."""
    given = {
        a.question: a.answer
        for a in Attempt.objects.filter(mode=Mode.DRILL, context_id=item.pk)
        if a.answer is not None
    }
    return quiz.checked(play.posed, given)


def count_replay(item: DrillItem, slow: bool) -> DrillItem:
    """One more replay (after answering only: DrillError otherwise)."""
    if item.answered_at is None:
        raise DrillError(Refusal.NOT_STARTED)
    name = "slow_replays" if slow else "replays"
    DrillItem.objects.filter(pk=item.pk).update(**{name: F(name) + 1})
    item.refresh_from_db(fields=[name])
    return item


def epoch_ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


def started_long_ago(item: DrillItem, now: datetime) -> bool:
    """Whether the window of a started play has closed by the server's clock."""
    return item.started_at is not None and remaining_ms(item, now) < -GRACE_MS
