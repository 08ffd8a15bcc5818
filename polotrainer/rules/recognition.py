"""Recognising the penalty: a foul, as the Umpire judges it, -> which Penalty and where it is taken.

The Umpire's judgements are facts, never inferred (not even "in the vicinity of the goal" from
where the foul happened). Rule 37 decides one penalty from them: Penalty 1 for a dangerous or
deliberate foul in the vicinity of the goal to save a goal (37.1). It does not say which of
Penalties 2 to 5b any other foul gets, so for such a foul the facts name the penalty the Umpire
awards, and the engine rules where it is taken.

>>> r = decide_recognition(RecognitionSituation(
...     dangerous=False, deliberate=True, in_vicinity_of_goal=True, to_save_a_goal=True))
>>> r.penalty.value, r.goal_awarded, r.spot
('1', True, Point(x=0.0, y=0.0))
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .errors import MissingFact
from .field import DEFAULT_FIELD, Field, Point
from .penalties import (
    Penalty2Choice,
    PenaltySpotSituation,
    SpotPenalty,
    decide_penalty_spot,
)
from .vocabulary import Reason, ReasonKey, because

K = ReasonKey


class PenaltyNumber(StrEnum):
    """The ten penalties of Rule 37."""

    P1 = "1"
    P2 = "2"
    P3 = "3"
    P4 = "4"
    P5A = "5a"
    P5B = "5b"
    P6 = "6"
    P7 = "7"
    P8 = "8"
    P9 = "9"
    P10 = "10"


class Penalty1Condition(StrEnum):
    """The three conditions of the Penalty 1 test (37.1), each a judgement of the Umpire."""

    DANGEROUS_OR_DELIBERATE = "dangerous_or_deliberate"
    IN_VICINITY_OF_GOAL = "in_vicinity_of_goal"
    TO_SAVE_A_GOAL = "to_save_a_goal"


class AwardedPenalty(StrEnum):
    """The penalties the Umpire may award for a foul that is not a Penalty 1 (a Penalty 6 is the
    Safety of 21.a, not a penalty for a foul)."""

    P2 = "2"
    P3 = "3"
    P4 = "4"
    P5A = "5a"
    P5B = "5b"


_UNMET = {
    Penalty1Condition.DANGEROUS_OR_DELIBERATE: K.P1_NOT_DANGEROUS_OR_DELIBERATE,
    Penalty1Condition.IN_VICINITY_OF_GOAL: K.P1_NOT_IN_VICINITY_OF_GOAL,
    Penalty1Condition.TO_SAVE_A_GOAL: K.P1_NOT_TO_SAVE_A_GOAL,
}


@dataclass(frozen=True, slots=True)
class RecognitionSituation:
    """A foul as the Umpire judges it, where it happened, and what followed."""

    #: In the Umpire's opinion the foul is dangerous.
    dangerous: bool
    #: In the Umpire's opinion the foul is deliberate.
    deliberate: bool
    #: In the Umpire's opinion it was committed in the vicinity of the goal.
    in_vicinity_of_goal: bool
    #: In the Umpire's opinion it was committed in order to save a goal.
    to_save_a_goal: bool
    #: The penalty the Umpire awards if the foul is not a Penalty 1: 2, 3, 4, 5a or 5b.
    awarded_if_not_penalty_1: AwardedPenalty | None = None
    field: Field = DEFAULT_FIELD
    #: Penalty 2: the fouled team's choice.
    p2_choice: Penalty2Choice = Penalty2Choice.THIRTY_YARD_LINE
    #: Where the foul occurred (a Penalty 2 from the spot).
    foul_spot: Point | None = None
    #: Where the ball was when the foul occurred (a Penalty 5a).
    ball: Point | None = None
    #: A player of the fouled team is disabled by the foul and the Umpire permits or orders
    #: his retirement.
    player_disabled: bool = False
    #: Play has resumed since the foul (the disablement was declared later).
    play_resumed: bool = False

    def __post_init__(self) -> None:
        if self.awarded_if_not_penalty_1 is None and not self.penalty_1_test_met:
            raise MissingFact(
                "awarded_if_not_penalty_1",
                "expected the penalty the Umpire awards (2, 3, 4, 5a or 5b): Rule 37 decides "
                "only Penalty 1 from these judgements",
            )
        self.spot_situation()

    @property
    def penalty_1_test_met(self) -> bool:
        """A dangerous or deliberate foul in the vicinity of the goal to save a goal (37.1)."""
        return not self.unmet

    @property
    def unmet(self) -> tuple[Penalty1Condition, ...]:
        """The conditions of the Penalty 1 test the foul does not meet."""
        met = {
            Penalty1Condition.DANGEROUS_OR_DELIBERATE: self.dangerous or self.deliberate,
            Penalty1Condition.IN_VICINITY_OF_GOAL: self.in_vicinity_of_goal,
            Penalty1Condition.TO_SAVE_A_GOAL: self.to_save_a_goal,
        }
        return tuple(condition for condition, ok in met.items() if not ok)

    def spot_situation(self) -> PenaltySpotSituation:
        """The penalty's spot facts (validated: a spot penalty needs its own facts)."""
        penalty = SpotPenalty.P1
        if not self.penalty_1_test_met:
            assert self.awarded_if_not_penalty_1 is not None
            penalty = SpotPenalty(self.awarded_if_not_penalty_1.value)
        try:
            return PenaltySpotSituation(
                penalty, self.field, self.p2_choice, self.foul_spot, self.ball
            )
        except MissingFact as error:
            raise MissingFact(error.field, f"{error.expected} (a Penalty {penalty})") from None


@dataclass(frozen=True, slots=True)
class RecognitionRuling:
    """Which penalty, why (the Penalty 1 test, condition by condition), and where it is taken."""

    penalty: PenaltyNumber
    penalty_1_test_met: bool
    penalty_1_unmet: tuple[Penalty1Condition, ...]
    goal_awarded: bool
    #: Where the ball is placed (a Penalty 1: the centre, for the Penalty 5b restart).
    spot: Point
    taken_as: SpotPenalty
    change_of_direction: bool
    #: Penalties the Umpires may add at their discretion: 7 (a player disabled by the foul, at
    #: the time of the foul) and 10 (a deliberate, dangerous foul).
    may_also_award: tuple[PenaltyNumber, ...]
    reasons: tuple[Reason, ...]


def decide_recognition(s: RecognitionSituation) -> RecognitionRuling:
    """Which penalty a foul gets and where it is taken (Rule 37).

    >>> r = decide_recognition(RecognitionSituation(
    ...     dangerous=True, deliberate=True, in_vicinity_of_goal=False, to_save_a_goal=True,
    ...     awarded_if_not_penalty_1=AwardedPenalty.P2))
    >>> r.penalty.value, [c.value for c in r.penalty_1_unmet], [p.value for p in r.may_also_award]
    ('2', ['in_vicinity_of_goal'], ['10'])
    """
    unmet = s.unmet
    facts = s.spot_situation()
    spot = decide_penalty_spot(facts)
    keys = [_UNMET[condition] for condition in unmet]
    keys += [reason.key for reason in spot.reasons]
    also: list[PenaltyNumber] = []
    if s.player_disabled:
        if s.play_resumed:
            keys.append(K.P7_ONLY_AT_TIME_OF_FOUL)
        else:
            also.append(PenaltyNumber.P7)
            keys.append(K.P7_AWARD_AT_UMPIRES_DISCRETION)
    if s.deliberate and s.dangerous:
        also.append(PenaltyNumber.P10)
        keys.append(K.P10_DELIBERATE_DANGEROUS_FOUL)
    return RecognitionRuling(
        penalty=PenaltyNumber(facts.penalty.value),
        penalty_1_test_met=not unmet,
        penalty_1_unmet=unmet,
        goal_awarded=spot.goal_awarded,
        spot=spot.spot,
        taken_as=spot.taken_as,
        change_of_direction=spot.change_of_direction,
        may_also_award=tuple(also),
        reasons=because(*keys),
    )
