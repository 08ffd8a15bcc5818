"""Rule 37: where each penalty is taken, where players must stand, Penalty 3 defended, and
Penalties 7 to 10.

>>> decide_penalty_spot(PenaltySpotSituation(SpotPenalty.P3)).spot
Point(x=-110.0, y=0.0)
>>> decide_penalty_spot(PenaltySpotSituation(SpotPenalty.P6, crossing_y=75.0)).spot
Point(x=-90.0, y=40.0)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum

from .errors import (
    Inconsistent,
    MissingFact,
    OffField,
    OutOfRange,
    TooManyPlayers,
    UnknownPenalty,
)
from .field import (
    CENTRE,
    DEFAULT_FIELD,
    GOAL_POST_HALF_WIDTH,
    P6_MAX_FROM_CENTRE,
    SIDE_MARGIN,
    Field,
    Point,
)
from .stoppages import MountReturn
from .vocabulary import (
    MAX_PLAYERS,
    Player,
    Reason,
    ReasonKey,
    Step,
    because,
    check_handicap,
    check_players,
    check_unique,
)

K = ReasonKey


class SpotPenalty(StrEnum):
    """The penalties taken from a spot (Penalties 7 to 10 have none)."""

    P1 = "1"
    P2 = "2"
    P3 = "3"
    P4 = "4"
    P5A = "5a"
    P5B = "5b"
    P6 = "6"


class Penalty2Choice(StrEnum):
    """Where the fouled team chooses to take a Penalty 2."""

    THIRTY_YARD_LINE = "thirty_yard_line"
    SPOT = "spot"


def _on_field(field: Field, name: str, point: Point | None, why: str) -> Point:
    if point is None:
        raise MissingFact(name, f'expected {why} as {{"x": ..., "y": ...}}')
    if not field.contains(point):
        raise OffField(
            name,
            f"expected a point on the field (|x| <= {field.length / 2:g}, "
            f"|y| <= {field.half_width:g}), got ({point.x:g}, {point.y:g})",
        )
    return point


# --- penalty spot -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PenaltySpotSituation:
    """A penalty from 1 to 6 and the facts its spot depends on."""

    penalty: SpotPenalty
    field: Field = DEFAULT_FIELD
    #: Penalty 2: the fouled team's choice.
    p2_choice: Penalty2Choice = Penalty2Choice.THIRTY_YARD_LINE
    #: Penalty 2 from the spot: where the foul occurred.
    foul_spot: Point | None = None
    #: Penalty 5a: where the ball was when the foul occurred.
    ball: Point | None = None
    #: Penalty 6: where (across the field) the ball crossed the end line.
    crossing_y: float | None = None

    def __post_init__(self) -> None:
        if self.penalty is SpotPenalty.P2 and self.p2_choice is Penalty2Choice.SPOT:
            _on_field(self.field, "foul_spot", self.foul_spot, "where the foul occurred")
        elif self.penalty is SpotPenalty.P5A:
            _on_field(self.field, "ball", self.ball, "where the ball was at the foul")
        elif self.penalty is SpotPenalty.P6:
            if self.crossing_y is None:
                raise MissingFact("crossing_y", "expected where the ball crossed the end line")
            if abs(self.crossing_y) > self.field.half_width:
                raise OffField(
                    "crossing_y",
                    f"expected a crossing within the sides (|y| <= {self.field.half_width:g})",
                )
            if abs(self.crossing_y) <= GOAL_POST_HALF_WIDTH:
                raise Inconsistent(
                    "crossing_y",
                    "expected a crossing outside the posts (|y| > 4): between them it is a goal",
                )


@dataclass(frozen=True, slots=True)
class PenaltySpotRuling:
    """Where the ball is placed; for a Penalty 1, the goal and the restart."""

    spot: Point
    #: The penalty actually hit from the spot (a Penalty 1 restarts with a 5b).
    taken_as: SpotPenalty
    goal_awarded: bool
    change_of_direction: bool
    reasons: tuple[Reason, ...]


def decide_penalty_spot(s: PenaltySpotSituation) -> PenaltySpotRuling:
    """The spot of a Penalty 1 to 6.

    >>> r = decide_penalty_spot(PenaltySpotSituation(SpotPenalty.P1))
    >>> r.spot, r.taken_as.value, r.goal_awarded, r.change_of_direction
    (Point(x=0.0, y=0.0), '5b', True, True)
    """
    f = s.field
    p = s.penalty
    if p is SpotPenalty.P1:
        return PenaltySpotRuling(
            CENTRE, SpotPenalty.P5B, True, True, because(K.P1_GOAL_AWARDED, K.P5B_CENTRE)
        )
    if p is SpotPenalty.P2:
        if s.p2_choice is Penalty2Choice.SPOT:
            assert s.foul_spot is not None
            return _spot(s.foul_spot, p, K.P2_SPOT_OF_FOUL)
        return _spot(Point(f.line_x(30.0), 0.0), p, K.P2_THIRTY_YARD_LINE)
    if p is SpotPenalty.P3:
        return _spot(Point(f.line_x(40.0), 0.0), p, K.P3_FORTY_YARD_LINE)
    if p is SpotPenalty.P4:
        return _spot(Point(f.line_x(60.0), 0.0), p, K.P4_SIXTY_YARD_LINE)
    if p is SpotPenalty.P5A:
        assert s.ball is not None
        limit = f.half_width - SIDE_MARGIN
        if abs(s.ball.y) <= limit:
            return _spot(s.ball, p, K.P5A_SPOT_WHERE_BALL_WAS)
        moved = Point(s.ball.x, math.copysign(limit, s.ball.y))
        return _spot(moved, p, K.P5A_SPOT_WHERE_BALL_WAS, K.P5A_FIVE_YARDS_FROM_SIDES)
    if p is SpotPenalty.P5B:
        return _spot(CENTRE, p, K.P5B_CENTRE)
    assert s.crossing_y is not None
    x = f.line_x(60.0)
    if abs(s.crossing_y) <= P6_MAX_FROM_CENTRE:
        return _spot(Point(x, s.crossing_y), p, K.P6_SPOT_OPPOSITE_CROSSING)
    clamped = Point(x, math.copysign(P6_MAX_FROM_CENTRE, s.crossing_y))
    return _spot(clamped, p, K.P6_SPOT_OPPOSITE_CROSSING, K.P6_NO_MORE_THAN_40_FROM_CENTRE)


def _spot(point: Point, penalty: SpotPenalty, *keys: ReasonKey) -> PenaltySpotRuling:
    return PenaltySpotRuling(point, penalty, False, False, because(*keys))


# --- positions ----------------------------------------------------------------------------------


class Team(StrEnum):
    """Which side of the penalty a player is on."""

    FOULING = "fouling"
    FOULED = "fouled"


class PlayerStatus(StrEnum):
    """Whether a player is in play, off the field, or returning to his proper position."""

    ON_FIELD = "on_field"
    OFF_FIELD = "off_field"
    RETURNING = "returning"


class Requirement(StrEnum):
    """A positional requirement of a penalty that a player can break."""

    BEHIND_BACK_LINE = "behind_back_line"
    OUTSIDE_GOAL = "outside_goal"
    THIRTY_YARDS_FROM_BALL = "thirty_yards_from_ball"
    BETWEEN_BALL_AND_GOAL = "between_ball_and_goal"
    BEHIND_THIRTY_YARD_LINE = "behind_thirty_yard_line"
    BEHIND_FORTY_YARD_LINE = "behind_forty_yard_line"


@dataclass(frozen=True, slots=True)
class PlacedPlayer:
    """A player at a position when the penalty is about to be hit."""

    id: str
    team: Team
    position: Point
    status: PlayerStatus = PlayerStatus.ON_FIELD


@dataclass(frozen=True, slots=True)
class PenaltyPositionsSituation:
    """A penalty from 2 to 6, its spot where it matters, and every player's position."""

    penalty: SpotPenalty
    players: tuple[PlacedPlayer, ...]
    field: Field = DEFAULT_FIELD
    p2_choice: Penalty2Choice = Penalty2Choice.THIRTY_YARD_LINE
    #: Penalty 2 from the spot, 5a: where the ball is placed (5b: the centre, implied).
    ball: Point | None = None
    #: Penalty 3: whether the Host Tournament Committee elected to have it defended.
    defended: bool = False

    def __post_init__(self) -> None:
        if self.penalty is SpotPenalty.P1:
            raise UnknownPenalty(
                "penalty", "expected 2, 3, 4, 5a, 5b or 6: a Penalty 1 restarts with a 5b"
            )
        if self.penalty is SpotPenalty.P5A or (
            self.penalty is SpotPenalty.P2 and self.p2_choice is Penalty2Choice.SPOT
        ):
            _on_field(self.field, "ball", self.ball, "the penalty spot")
        check_unique((f"players[{i}].id", p.id) for i, p in enumerate(self.players))
        for team in Team:
            count = sum(1 for p in self.players if p.team is team)
            if count > MAX_PLAYERS:
                raise TooManyPlayers(
                    "players", f"expected at most {MAX_PLAYERS} {team.value} players, got {count}"
                )


@dataclass(frozen=True, slots=True)
class Breach:
    """A player out of position and the requirement he breaks."""

    player: str
    requirement: Requirement


@dataclass(frozen=True, slots=True)
class PenaltyPositionsRuling:
    """Who is out of position and why; whether the fouling team may enter once in play."""

    out_of_position: tuple[str, ...]
    requirements: tuple[Requirement, ...]
    breaches: tuple[Breach, ...]
    fouling_may_enter_after_hit: bool
    reasons: tuple[Reason, ...]


def decide_penalty_positions(s: PenaltyPositionsSituation) -> PenaltyPositionsRuling:
    """Each player out of position and the requirement broken.

    >>> fouler = PlacedPlayer("B1", Team.FOULING, Point(-100.0, 20.0))
    >>> decide_penalty_positions(PenaltyPositionsSituation(SpotPenalty.P4, (fouler,))).breaches
    (Breach(player='B1', requirement=<Requirement.BEHIND_THIRTY_YARD_LINE: \
'behind_thirty_yard_line'>),)
    """
    f = s.field
    p = s.penalty
    ball = s.ball if s.ball is not None else CENTRE
    bx, by = ball.x, ball.y
    goal_x, x30, x40 = f.goal_line_x, f.line_x(30.0), f.line_x(40.0)
    p2_spot = p is SpotPenalty.P2 and s.p2_choice is Penalty2Choice.SPOT
    breaches: list[Breach] = []
    add = breaches.append
    for player in s.players:
        pos = player.position
        x, y = pos.x, pos.y
        pid = player.id
        exempt = player.status is not PlayerStatus.ON_FIELD
        if player.team is Team.FOULED:
            if p is SpotPenalty.P3 and not exempt and x < x40:
                add(Breach(pid, Requirement.BEHIND_FORTY_YARD_LINE))
        elif p2_spot:
            if (x - bx) ** 2 + (y - by) ** 2 < 900.0:
                add(Breach(pid, Requirement.THIRTY_YARDS_FROM_BALL))
            if f.in_goal(pos):
                add(Breach(pid, Requirement.OUTSIDE_GOAL))
        elif p is SpotPenalty.P2 or p is SpotPenalty.P3:
            if p is SpotPenalty.P3 and exempt:
                continue
            if x >= goal_x:
                add(Breach(pid, Requirement.BEHIND_BACK_LINE))
            if f.in_goal(pos):
                add(Breach(pid, Requirement.OUTSIDE_GOAL))
        elif p is SpotPenalty.P4 or p is SpotPenalty.P6:
            if not exempt and x > x30:
                add(Breach(pid, Requirement.BEHIND_THIRTY_YARD_LINE))
        else:
            if (x - bx) ** 2 + (y - by) ** 2 < 900.0:
                add(Breach(pid, Requirement.THIRTY_YARDS_FROM_BALL))
            if not exempt and x >= bx:
                add(Breach(pid, Requirement.BETWEEN_BALL_AND_GOAL))
    if p is SpotPenalty.P2:
        may_enter = False
        first = K.P2_SPOT_POSITIONS if s.p2_choice is Penalty2Choice.SPOT else K.P2_THIRTY_POSITIONS
        keys: tuple[ReasonKey, ...] = (first, K.P2_NO_ENTRY_ONCE_IN_PLAY)
    elif p is SpotPenalty.P3:
        may_enter = s.defended
        entry = K.P3_DEFENDED_ENTRY if s.defended else K.P3_UNDEFENDED_NO_ENTRY
        keys = (K.P3_POSITIONS, entry)
    else:
        may_enter = True
        keys = (_POSITION_KEYS[p],)
    return PenaltyPositionsRuling(
        out_of_position=tuple(dict.fromkeys(b.player for b in breaches)),
        requirements=tuple(dict.fromkeys(b.requirement for b in breaches)),
        breaches=tuple(breaches),
        fouling_may_enter_after_hit=may_enter,
        reasons=because(*keys),
    )


_POSITION_KEYS = {
    SpotPenalty.P4: K.P4_POSITIONS,
    SpotPenalty.P5A: K.P5A_POSITIONS,
    SpotPenalty.P5B: K.P5B_POSITIONS,
    SpotPenalty.P6: K.P6_POSITIONS,
}


# --- interference with Penalties 2, 3 and 4 -----------------------------------------------------


class InterferenceOutcome(StrEnum):
    """What becomes of a penalty hit the fouling team interfered with."""

    GOAL = "goal"
    RETAKE = "retake"
    STANDS = "stands"


@dataclass(frozen=True, slots=True)
class PenaltyInterferenceSituation:
    """A Penalty 2, 3 or 4 and, in the Umpire's opinion, what the fouling team did."""

    penalty: SpotPenalty
    #: The fouling team entered the field improperly (Penalty 4: failed the procedure).
    fouling_entered_improperly: bool = False
    #: In the Umpire's opinion the hit would have resulted in a goal.
    would_have_scored: bool = False
    #: The hit was deflected by the fouling team or hit wide by the hitter.
    deflected_or_wide: bool = False

    def __post_init__(self) -> None:
        if self.penalty not in (SpotPenalty.P2, SpotPenalty.P3, SpotPenalty.P4):
            raise UnknownPenalty("penalty", "expected 2, 3 or 4")


@dataclass(frozen=True, slots=True)
class PenaltyInterferenceRuling:
    """Goal awarded, penalty taken again, or the hit stands."""

    outcome: InterferenceOutcome
    reasons: tuple[Reason, ...]


_INTERFERENCE = {
    SpotPenalty.P2: (K.P2_INTERFERENCE_GOAL, K.P2_INTERFERENCE_RETAKE, K.P2_HIT_STANDS),
    SpotPenalty.P3: (K.P3_INTERFERENCE_GOAL, K.P3_INTERFERENCE_RETAKE, K.P3_HIT_STANDS),
}


def decide_penalty_interference(s: PenaltyInterferenceSituation) -> PenaltyInterferenceRuling:
    """Whether the penalty becomes a goal, is taken again, or stands.

    >>> s = PenaltyInterferenceSituation(SpotPenalty.P2, True, would_have_scored=True)
    >>> decide_penalty_interference(s).outcome.value
    'goal'
    """
    interfered = s.fouling_entered_improperly
    if s.penalty is SpotPenalty.P4:
        if interfered and s.would_have_scored:
            return PenaltyInterferenceRuling(InterferenceOutcome.GOAL, because(K.P4_PROCEDURE_GOAL))
        return PenaltyInterferenceRuling(InterferenceOutcome.STANDS, because(K.P4_HIT_STANDS))
    goal, retake, stands = _INTERFERENCE[s.penalty]
    if interfered and s.would_have_scored:
        return PenaltyInterferenceRuling(InterferenceOutcome.GOAL, because(goal))
    if interfered and s.deflected_or_wide:
        return PenaltyInterferenceRuling(InterferenceOutcome.RETAKE, because(retake))
    return PenaltyInterferenceRuling(InterferenceOutcome.STANDS, because(stands))


# --- Penalty 7 ----------------------------------------------------------------------------------


class Penalty7Step(Step):
    """The steps of a Penalty 7 in the order the seed gives them (37.7, "Applying Penalty 7" and
    its two examples, 3.f)."""

    FOUL = "foul"
    PLAYER_DISABLED = "player_disabled"
    FOUL_PENALTY_ANNOUNCED = "foul_penalty_announced"
    PENALTY_7_AWARDED = "penalty_7_awarded"
    FIFTEEN_MINUTES_ALLOWED = "fifteen_minutes_allowed"
    NO_REPLACEMENT_AVAILABLE = "no_replacement_available"
    CAPTAIN_DESIGNATES_REMOVAL = "captain_designates_removal"
    THREE_A_SIDE = "three_a_side"
    QUALIFIED_SUBSTITUTE_ENTERS = "qualified_substitute_enters"
    PLAYER_INJURED = "player_injured"
    TIME_OUT = "time_out"
    PLAYER_WILL_CONTINUE = "player_will_continue"
    PLAY_RESUMED = "play_resumed"
    PLAYER_CANNOT_CONTINUE = "player_cannot_continue"
    GAME_STOPPED = "game_stopped"
    TEN_MINUTES_ALLOWED = "ten_minutes_allowed"


S7 = Penalty7Step
#: 37.7's first example: the foul, the fall, "The Umpires announce a Penalty 2 for dangerous
#: riding and since the Blue player cannot continue, a Penalty 7 is awarded", the 15 minutes of
#: "Applying Penalty 7", "a suitable replacement is not available", the designation, three a side.
P7_REMOVAL_STEPS = (
    S7.FOUL,
    S7.PLAYER_DISABLED,
    S7.FOUL_PENALTY_ANNOUNCED,
    S7.PENALTY_7_AWARDED,
    S7.FIFTEEN_MINUTES_ALLOWED,
    S7.NO_REPLACEMENT_AVAILABLE,
    S7.CAPTAIN_DESIGNATES_REMOVAL,
    S7.THREE_A_SIDE,
)
#: The alternative of 37.7: the fouled team provides a qualified substitute within the 15 minutes.
P7_SUBSTITUTE_STEPS = (*P7_REMOVAL_STEPS[:5], S7.QUALIFIED_SUBSTITUTE_ENTERS)
#: 37.7's second example: injured, time out, "he will continue", play resumed, "he cannot
#: continue", the game stopped (Rule 21.d), 10 minutes to find a replacement.
P7_TOO_LATE_STEPS = (
    S7.PLAYER_INJURED,
    S7.TIME_OUT,
    S7.PLAYER_WILL_CONTINUE,
    S7.PLAY_RESUMED,
    S7.PLAYER_CANNOT_CONTINUE,
    S7.GAME_STOPPED,
    S7.TEN_MINUTES_ALLOWED,
)


class Penalty7Outcome(StrEnum):
    """How a Penalty 7 is applied, or that it cannot be."""

    DESIGNATE_REMOVAL = "designate_removal"
    SUBSTITUTE = "substitute"
    CANNOT_BE_EXACTED = "cannot_be_exacted"


@dataclass(frozen=True, slots=True)
class Penalty7Situation:
    """A player disabled by a foul, the fouling team, and what has happened since."""

    disabled_handicap: int
    fouling_players: tuple[Player, ...]
    #: The fouled team provides a qualified substitute instead of a removal.
    substitute_offered: bool = False
    #: Play has resumed since the foul (the injury was declared later).
    play_resumed: bool = False

    def __post_init__(self) -> None:
        check_handicap("disabled_handicap", self.disabled_handicap)
        check_players("fouling_players", self.fouling_players)
        check_unique((f"fouling_players[{i}].id", p.id) for i, p in enumerate(self.fouling_players))


@dataclass(frozen=True, slots=True)
class Penalty7Ruling:
    """Who may be designated for removal and the time allowed, or what applies instead."""

    outcome: Penalty7Outcome
    designatable: tuple[str, ...]
    any_may_be_designated: bool
    minutes_allowed: int
    three_a_side: bool
    #: The procedure, step by step, in the seed's order.
    procedure: tuple[Penalty7Step, ...]
    reasons: tuple[Reason, ...]


def decide_penalty_7(s: Penalty7Situation) -> Penalty7Ruling:
    """Apply Penalty 7 (Rule 37.7 and "Applying Penalty 7").

    >>> team = (Player("B1", 5), Player("B2", 4), Player("B3", 2), Player("B4", 1))
    >>> decide_penalty_7(Penalty7Situation(3, team)).designatable
    ('B2',)
    """
    if s.play_resumed:
        return Penalty7Ruling(
            Penalty7Outcome.CANNOT_BE_EXACTED,
            (),
            False,
            10,
            False,
            P7_TOO_LATE_STEPS,
            because(K.P7_ONLY_AT_TIME_OF_FOUL, K.INJURY_TEN_MINUTES),
        )
    if s.substitute_offered:
        return Penalty7Ruling(
            Penalty7Outcome.SUBSTITUTE,
            (),
            False,
            15,
            False,
            P7_SUBSTITUTE_STEPS,
            because(
                K.P7_AWARD_AT_UMPIRES_DISCRETION, K.P7_QUALIFIED_SUBSTITUTE, K.P7_FIFTEEN_MINUTES
            ),
        )
    above = [p.handicap for p in s.fouling_players if p.handicap > s.disabled_handicap]
    if above:
        nearest = min(above)
        ids = tuple(p.id for p in s.fouling_players if p.handicap == nearest)
        rule = K.P7_NEAREST_ABOVE
    else:
        ids = tuple(p.id for p in s.fouling_players)
        rule = K.P7_ANY_WHEN_NONE_ABOVE
    return Penalty7Ruling(
        Penalty7Outcome.DESIGNATE_REMOVAL,
        ids,
        not above,
        15,
        True,
        P7_REMOVAL_STEPS,
        because(
            K.P7_AWARD_AT_UMPIRES_DISCRETION,
            rule,
            K.P7_HANDICAP_UNCHANGED,
            K.P7_FIFTEEN_MINUTES,
            K.P7_THREE_A_SIDE,
        ),
    )


# --- ceiling after Penalty 7 --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CeilingSituation:
    """Both teams on the field after a Penalty 7 removal and the handicap goals each received."""

    fouled_players: tuple[Player, ...]
    fouling_players: tuple[Player, ...]
    fouled_goals_received: int = 0
    fouling_goals_received: int = 0
    #: The player(s) disabled by the foul.
    disabled: tuple[str, ...] = ()
    #: The fouling team's player(s) removed by the Penalty 7.
    removed: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        check_players("fouled_players", self.fouled_players, limit=MAX_PLAYERS - 1)
        check_players("fouling_players", self.fouling_players, limit=MAX_PLAYERS - 1)
        on_field = [(f"fouled_players[{i}].id", p.id) for i, p in enumerate(self.fouled_players)]
        on_field += [(f"fouling_players[{i}].id", p.id) for i, p in enumerate(self.fouling_players)]
        check_unique(on_field)
        ids = {player_id for _, player_id in on_field}
        for name, gone in (("disabled", self.disabled), ("removed", self.removed)):
            for index, player_id in enumerate(gone):
                if player_id in ids:
                    raise Inconsistent(
                        f"{name}[{index}]",
                        f"expected a player no longer on the field, {player_id!r} is",
                    )
        for name in ("fouled_goals_received", "fouling_goals_received"):
            if not 0 <= getattr(self, name) <= 40:
                raise OutOfRange(name, "expected from 0 to 40 handicap goals")
        if self.fouled_goals_received and self.fouling_goals_received:
            raise Inconsistent(
                "fouling_goals_received", "expected handicap goals for one team only"
            )


@dataclass(frozen=True, slots=True)
class CeilingRuling:
    """The aggregate no substitution may exceed, and who may or may not re-enter."""

    ceiling: int
    fouled_max_on_field: int
    fouling_max_on_field: int
    may_not_reenter: tuple[str, ...]
    may_reenter_as_substitute: tuple[str, ...]
    reasons: tuple[Reason, ...]


def decide_ceiling(s: CeilingSituation) -> CeilingRuling:
    """The ceiling after a Penalty 7 (Rules 3.f and 37, "Applying Penalty 7").

    >>> red = (Player("R2", 4), Player("R3", 1), Player("R4", 1))
    >>> blue = (Player("B1", 4), Player("B2", 2), Player("B4", 1))
    >>> decide_ceiling(CeilingSituation(red, blue)).ceiling
    7
    """
    fouled = sum(p.handicap for p in s.fouled_players)
    fouling = sum(p.handicap for p in s.fouling_players)
    ceiling = max(fouled + s.fouled_goals_received, fouling + s.fouling_goals_received)
    return CeilingRuling(
        ceiling=ceiling,
        fouled_max_on_field=ceiling - s.fouled_goals_received,
        fouling_max_on_field=fouling,
        may_not_reenter=s.disabled,
        may_reenter_as_substitute=s.removed,
        reasons=because(
            K.P7_CEILING_HIGHER_TEAM,
            K.P7_FOULING_ORIGINAL_THREE,
            K.P7_INJURED_MAY_NOT_RETURN,
            K.P7_REMOVED_REMAINS_QUALIFIED,
        ),
    )


# --- Penalty 3 defended -------------------------------------------------------------------------


class Penalty3Condition(StrEnum):
    """A condition of the note on a defended Penalty 3 (printed with 37.2)."""

    ELECTED = "elected_by_committee"
    COMMUNICATED = "communicated_before_event"
    EIGHT_GOALS = "eight_goals_and_above"
    PROFESSIONAL_UMPIRES = "two_professional_umpires"


@dataclass(frozen=True, slots=True)
class Penalty3DefendedSituation:
    """An event, what its Host Tournament Committee decided, and who officiates its games."""

    event_upper: int
    #: The Host Tournament Committee elected to have Penalty 3 defended.
    elected_by_committee: bool
    #: The election was communicated to the teams before the event began.
    communicated_before_event: bool
    #: All games of the event are officiated by two certified professional Umpires.
    two_professional_umpires: bool
    #: USPA Umpires LLC approved otherwise (the event may then do without them).
    umpires_llc_approved: bool = False

    def __post_init__(self) -> None:
        if not -8 <= self.event_upper <= 40:
            raise OutOfRange("event_upper", "expected an upper limit from -8 to 40 goals")


@dataclass(frozen=True, slots=True)
class Penalty3DefendedRuling:
    """Whether Penalty 3 is defended in the event, the conditions not met, and what follows."""

    defended: bool
    unmet: tuple[Penalty3Condition, ...]
    fouling_may_enter_after_hit: bool
    reasons: tuple[Reason, ...]


#: The upper handicap limit from which an event may have Penalty 3 defended.
P3_DEFENDED_MIN_UPPER = 8

_P3_UNMET = {
    Penalty3Condition.ELECTED: K.P3_NOT_ELECTED,
    Penalty3Condition.COMMUNICATED: K.P3_NOT_COMMUNICATED,
    Penalty3Condition.EIGHT_GOALS: K.P3_BELOW_EIGHT_GOALS,
    Penalty3Condition.PROFESSIONAL_UMPIRES: K.P3_NO_PROFESSIONAL_UMPIRES,
}


def decide_penalty_3_defended(s: Penalty3DefendedSituation) -> Penalty3DefendedRuling:
    """Whether Penalty 3 is defended in an event (the note printed with 37.2; 37.3).

    >>> r = decide_penalty_3_defended(Penalty3DefendedSituation(6, True, True, True))
    >>> r.defended, [c.value for c in r.unmet]
    (False, ['eight_goals_and_above'])
    """
    met = {
        Penalty3Condition.ELECTED: s.elected_by_committee,
        Penalty3Condition.COMMUNICATED: s.communicated_before_event,
        Penalty3Condition.EIGHT_GOALS: s.event_upper >= P3_DEFENDED_MIN_UPPER,
        Penalty3Condition.PROFESSIONAL_UMPIRES: s.two_professional_umpires
        or s.umpires_llc_approved,
    }
    unmet = tuple(condition for condition, ok in met.items() if not ok)
    if unmet:
        keys = [_P3_UNMET[condition] for condition in unmet]
        keys.append(K.P3_UNDEFENDED_NO_ENTRY)
        return Penalty3DefendedRuling(False, unmet, False, because(*keys))
    keys = [K.P3_DEFENDED_ELECTED]
    if not s.two_professional_umpires:
        keys.append(K.P3_UMPIRES_LLC_APPROVED)
    keys.append(K.P3_DEFENDED_ENTRY)
    return Penalty3DefendedRuling(True, (), True, because(*keys))


# --- Penalty 3 once the ball is in play ---------------------------------------------------------


class BallSinceHit(StrEnum):
    """Penalty 3 (37.3): what has happened to the ball since the fouled team's penalty hit."""

    #: Nothing but the hit: no one else has played it, it has touched nothing.
    UNTOUCHED = "untouched"
    #: A member of the opposing (fouling) team has hit or hit at it.
    OPPONENT_HIT = "opponent_hit"
    GOAL_POST = "goal_post"
    #: It has contacted an opposing player or an opposing player's mount.
    OPPOSING_PLAYER_OR_MOUNT = "opposing_player_or_mount"


class FoulingEntry(StrEnum):
    """Penalty 3 (37.3): where a fouling player entered the field from behind the back line,
    once the ball was put into play."""

    NONE = "none"
    OUTSIDE_GOAL_POSTS = "outside_goal_posts"
    BETWEEN_GOAL_POSTS = "between_goal_posts"


@dataclass(frozen=True, slots=True)
class Penalty3PlaySituation:
    """A Penalty 3 just hit: defended or not, what the ball has met since, and where a
    fouling player came onto the field."""

    #: The Penalty 3 is defended (penalty_3_defended rules whether an event may have it).
    defended: bool
    ball_since_hit: BallSinceHit = BallSinceHit.UNTOUCHED
    fouling_entry: FoulingEntry = FoulingEntry.NONE


@dataclass(frozen=True, slots=True)
class Penalty3PlayRuling:
    """Whether the fouled team may make another play on the ball now, and whether the
    fouling player's entry is allowed (no entry is allowed trivially)."""

    fouled_may_play_again: bool
    entry_allowed: bool
    reasons: tuple[Reason, ...]


def decide_penalty_3_play(s: Penalty3PlaySituation) -> Penalty3PlayRuling:
    """37.3: "The team fouled may hit or hit at the ball only once and may not make another
    play on or affect the course of the ball if the penalty is to be undefended, or until it has
    been hit or hit at by a member of the opposing team or contacts a goal post, opposing player
    or mount if the penalty is to be defended"; and the fouling team's entry from behind the
    back line: none if undefended, anywhere "except between the goal posts" if defended.

    >>> s = Penalty3PlaySituation(True, BallSinceHit.GOAL_POST, FoulingEntry.BETWEEN_GOAL_POSTS)
    >>> r = decide_penalty_3_play(s)
    >>> r.fouled_may_play_again, r.entry_allowed
    (True, False)
    """
    if not s.defended:
        return Penalty3PlayRuling(
            False,
            s.fouling_entry is FoulingEntry.NONE,
            because(K.P3_UNDEFENDED_HIT_ONCE, K.P3_UNDEFENDED_NO_ENTRY),
        )
    freed = s.ball_since_hit is not BallSinceHit.UNTOUCHED
    play = K.P3_DEFENDED_BALL_FREED if freed else K.P3_DEFENDED_HIT_ONCE_UNTIL
    entry = (
        K.P3_DEFENDED_NOT_BETWEEN_POSTS
        if s.fouling_entry is FoulingEntry.BETWEEN_GOAL_POSTS
        else K.P3_DEFENDED_ENTRY
    )
    return Penalty3PlayRuling(
        freed, s.fouling_entry is not FoulingEntry.BETWEEN_GOAL_POSTS, because(play, entry)
    )


# --- Penalty 8 ----------------------------------------------------------------------------------


class MountViolation(StrEnum):
    """Why the Umpire orders the mount off: a violation of Rule 5, 6a or 6b, or another reason."""

    RULE_5 = "rule_5"
    RULE_6A = "rule_6a"
    RULE_6B = "rule_6b"
    OTHER = "other"


@dataclass(frozen=True, slots=True)
class Penalty8Situation:
    """A mount ordered off the field, why, and what has been done since."""

    violation: MountViolation
    #: The violation of Rule 5, 6a or 6b has been cured.
    cured: bool = False
    #: Letting the mount play again would delay the game.
    would_delay_game: bool = False


@dataclass(frozen=True, slots=True)
class Penalty8Ruling:
    """Whether the mount may play again in the game, and whether the game is forfeited."""

    mount_may_return: MountReturn
    forfeiture: bool
    reasons: tuple[Reason, ...]


_CURABLE = (MountViolation.RULE_5, MountViolation.RULE_6A, MountViolation.RULE_6B)


def decide_penalty_8(s: Penalty8Situation) -> Penalty8Ruling:
    """Penalty 8: the mount is ordered off (37.8).

    >>> decide_penalty_8(Penalty8Situation(MountViolation.RULE_6B, cured=True)).mount_may_return
    <MountReturn.MAY_RETURN: 'may_return'>
    """
    keys = [K.P8_MOUNT_ORDERED_OFF]
    returns = MountReturn.MAY_NOT_RETURN
    if s.violation in _CURABLE:
        if not s.cured:
            keys.append(K.P8_NOT_CURED)
        elif s.would_delay_game:
            keys.append(K.P8_WOULD_DELAY_GAME)
        else:
            keys.append(K.P8_CURED_MAY_RETURN)
            returns = MountReturn.MAY_RETURN
    forfeiture = s.violation is MountViolation.RULE_6A
    if forfeiture:
        keys.append(K.P8_RULE_6A_FORFEITURE)
    return Penalty8Ruling(returns, forfeiture, because(*keys))


# --- Penalty 9 ----------------------------------------------------------------------------------


class TeamColour(StrEnum):
    """A team by its colour, as the seeds name them."""

    RED = "red"
    BLUE = "blue"


@dataclass(frozen=True, slots=True)
class Penalty9Situation:
    """The rule violations of one game that invoke Penalty 9, by team, in the order they
    occurred."""

    violations: tuple[TeamColour, ...]

    def __post_init__(self) -> None:
        if not self.violations:
            raise MissingFact("violations", "expected at least one violation invoking Penalty 9")


@dataclass(frozen=True, slots=True)
class Penalty9Ruling:
    """Which teams forfeit the game."""

    forfeited_by: tuple[TeamColour, ...]
    both_forfeit: bool
    reasons: tuple[Reason, ...]


def decide_penalty_9(s: Penalty9Situation) -> Penalty9Ruling:
    """Penalty 9: the game is forfeited; by both teams if both invoke it (37.9).

    >>> decide_penalty_9(Penalty9Situation((TeamColour.BLUE, TeamColour.RED))).both_forfeit
    True
    """
    teams = tuple(team for team in TeamColour if team in s.violations)
    both = len(teams) == len(TeamColour)
    keys = (K.P9_FORFEIT, K.P9_BOTH_FORFEIT) if both else (K.P9_FORFEIT,)
    return Penalty9Ruling(teams, both, because(*keys))


# --- Penalty 10 ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Penalty10Situation:
    """What the player did, as the Umpire judges it."""

    #: A foul the Umpire judges deliberate.
    deliberate: bool
    #: A foul the Umpire judges dangerous.
    dangerous: bool
    #: Conduct prejudicial to the game.
    prejudicial_conduct: bool


@dataclass(frozen=True, slots=True)
class Penalty10Ruling:
    """Whether the Umpire may exclude the player (a power, never a duty)."""

    may_exclude: bool
    reasons: tuple[Reason, ...]


def decide_penalty_10(s: Penalty10Situation) -> Penalty10Ruling:
    """Penalty 10: the Umpire may exclude a player, consistently with Rule 33 (37.10).

    >>> decide_penalty_10(Penalty10Situation(True, False, False)).may_exclude
    False
    """
    keys = []
    if s.deliberate and s.dangerous:
        keys.append(K.P10_DELIBERATE_DANGEROUS_FOUL)
    if s.prejudicial_conduct:
        keys.append(K.P10_PREJUDICIAL_CONDUCT)
    if not keys:
        return Penalty10Ruling(False, because(K.P10_NO_GROUNDS))
    return Penalty10Ruling(True, because(*keys))
