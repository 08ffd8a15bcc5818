"""Rule 3: when a player may be replaced and what the replacement does to the handicap.

>>> team = (Player("R1", 2), Player("R2", 8), Player("R3", 1), Player("R4", 1))
>>> r = decide_substitution(SubstitutionSituation(
...     event_upper=12, team=team, moment=Moment.PLAY_STOPPED, reason=LeaveReason.INJURED,
...     outgoing=("R2", "R1"), incoming=(Player("S1", 5), Player("S2", 5))))
>>> r.decision.value, r.handicap_on_field, r.handicap_counted
('allowed_now', 12, 12)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .errors import Inconsistent, NotOnField, OutOfRange, TooManyPlayers
from .vocabulary import (
    MAX_PLAYERS,
    Player,
    Reason,
    ReasonKey,
    because,
    check_handicap,
    check_players,
    check_unique,
)

K = ReasonKey
#: The aggregate team handicaps the engine accepts (4 players of -2 to 10 goals).
MIN_AGGREGATE = -8
MAX_AGGREGATE = 40


class Moment(StrEnum):
    """When the substitution would be made."""

    BETWEEN_PERIODS = "between_periods"
    PLAY_STOPPED = "play_stopped"
    DURING_PLAY = "during_play"


class LeaveReason(StrEnum):
    """Why the outgoing player leaves (or, for a vacancy, why a position is open)."""

    INJURED = "injured"
    UNABLE_TO_CONTINUE = "unable_to_continue"
    DISQUALIFIED = "disqualified"
    ABLE_TO_CONTINUE = "able_to_continue"
    VACANCY = "vacancy"


class SubDecision(StrEnum):
    """Whether the substitution may be made, and when."""

    ALLOWED_NOW = "allowed_now"
    #: Two leaving during a period, not for an injury: the one unable to finish may be replaced
    #: now (3.b), the other change waits for the end of the period.
    FIRST_NOW_SECOND_AT_END = "first_now_second_at_end"
    AT_END_OF_PERIOD = "at_end_of_period"
    NOT_ALLOWED = "not_allowed"
    PLAY_ON_SHORTHANDED = "play_on_shorthanded"


@dataclass(frozen=True, slots=True)
class SubstitutionSituation:
    """A team, the player(s) leaving and the substitute(s) offered."""

    event_upper: int
    team: tuple[Player, ...]
    moment: Moment
    reason: LeaveReason
    #: Ids of the players leaving (the injured or unable one first); empty for a vacancy.
    outgoing: tuple[str, ...] = ()
    #: The substitutes; none means the team plays on shorthanded.
    incoming: tuple[Player, ...] = ()
    event_lower: int | None = None
    #: The team's handicap counted for the game so far (default: the team's aggregate).
    counted_so_far: int | None = None
    #: Players who may not enter: injured by a foul and removed under Penalty 7.
    injured_by_penalty_7: tuple[str, ...] = ()
    #: Players who may not enter: rendered unconscious today.
    unconscious: tuple[str, ...] = ()
    #: After a Penalty 7: the aggregate (plus handicap goals received) no team may exceed.
    penalty_7_ceiling: int | None = None
    handicap_goals_received: int = 0

    def __post_init__(self) -> None:
        for name in ("event_upper", "event_lower", "counted_so_far", "penalty_7_ceiling"):
            value = getattr(self, name)
            if value is not None and not MIN_AGGREGATE <= value <= MAX_AGGREGATE:
                raise OutOfRange(
                    name, f"expected an aggregate from {MIN_AGGREGATE} to {MAX_AGGREGATE} goals"
                )
        if self.event_lower is not None and self.event_lower > self.event_upper:
            raise Inconsistent("event_lower", "expected a lower limit at most the upper limit")
        if not 0 <= self.handicap_goals_received <= MAX_AGGREGATE:
            raise OutOfRange("handicap_goals_received", "expected from 0 to 40 goals")
        check_players("team", self.team)
        for index, player in enumerate(self.incoming):
            check_handicap(f"incoming[{index}].handicap", player.handicap)
        check_unique(
            [(f"team[{i}].id", p.id) for i, p in enumerate(self.team)]
            + [(f"incoming[{i}].id", p.id) for i, p in enumerate(self.incoming)]
        )
        on_field = {p.id for p in self.team}
        for index, player_id in enumerate(self.outgoing):
            if player_id not in on_field:
                raise NotOnField(
                    f"outgoing[{index}]", f"expected the id of a player in team, got {player_id!r}"
                )
        check_unique((f"outgoing[{i}]", player_id) for i, player_id in enumerate(self.outgoing))
        if self.reason is LeaveReason.VACANCY:
            if self.outgoing:
                raise Inconsistent("outgoing", "expected no outgoing player for a vacancy")
            if len(self.team) + len(self.incoming) > MAX_PLAYERS:
                raise TooManyPlayers(
                    "incoming", f"expected at most {MAX_PLAYERS - len(self.team)} substitutes"
                )
            if not self.incoming:
                raise Inconsistent("incoming", "expected a substitute for the open position")
            return
        if not self.outgoing:
            raise Inconsistent("outgoing", "expected the id of the player leaving")
        if self.incoming and len(self.incoming) != len(self.outgoing):
            raise Inconsistent(
                "incoming", f"expected {len(self.outgoing)} substitutes, one per outgoing player"
            )
        if not self.incoming and self.reason is LeaveReason.ABLE_TO_CONTINUE:
            raise Inconsistent("incoming", "expected a substitute for a player able to continue")


@dataclass(frozen=True, slots=True)
class SubstitutionRuling:
    """Whether and when the substitution may be made, and the handicaps that follow."""

    decision: SubDecision
    handicap_on_field: int
    handicap_counted: int
    #: Net change of the team's handicap-goal margin (-1: a goal off its side of the board).
    scoreboard_change: int
    below_lower_limit: bool
    reasons: tuple[Reason, ...]


def decide_substitution(s: SubstitutionSituation) -> SubstitutionRuling:
    """Rule on a substitution (Rule 3, with Rule 21.d for an unconscious player).

    >>> team = (Player("B1", 2), Player("B2", 1), Player("B3", 0), Player("B4", 5))
    >>> r = decide_substitution(SubstitutionSituation(
    ...     event_upper=8, team=team, moment=Moment.PLAY_STOPPED, reason=LeaveReason.INJURED,
    ...     outgoing=("B4",), incoming=(Player("S", 4),)))
    >>> r.handicap_on_field, r.handicap_counted
    (7, 8)
    """
    now = sum(p.handicap for p in s.team)
    counted = now if s.counted_so_far is None else s.counted_so_far
    leaving = sum(p.handicap for p in s.team if p.id in s.outgoing)
    if not s.incoming:
        return SubstitutionRuling(
            SubDecision.PLAY_ON_SHORTHANDED,
            now - leaving,
            counted,
            0,
            False,
            because(K.PLAY_ON_WITH_THREE),
        )
    after = now - leaving + sum(p.handicap for p in s.incoming)
    refused = _refusal(s, after)
    if refused is not None:
        return SubstitutionRuling(SubDecision.NOT_ALLOWED, now, counted, 0, False, because(refused))
    decision, when = _timing(s)
    keys = [when]
    below = s.event_lower is not None and after < s.event_lower
    if below:
        keys.append(K.SUB_BELOW_LOWER_ALLOWED)
    keys.append(K.HIGHEST_HANDICAP_COUNTS)
    new_counted = max(counted, after)
    return SubstitutionRuling(
        decision, after, new_counted, counted - new_counted, below, because(*keys)
    )


def _refusal(s: SubstitutionSituation, after: int) -> ReasonKey | None:
    if not all(p.eligible for p in s.incoming):
        return K.SUB_MUST_BE_ELIGIBLE
    incoming = {p.id for p in s.incoming}
    if incoming & set(s.injured_by_penalty_7):
        return K.P7_INJURED_MAY_NOT_RETURN
    if incoming & set(s.unconscious):
        return K.SUB_UNCONSCIOUS_NOT_TODAY
    if after > s.event_upper:
        return K.SUB_OVER_UPPER_LIMIT
    if s.penalty_7_ceiling is not None and after + s.handicap_goals_received > s.penalty_7_ceiling:
        return K.SUB_OVER_PENALTY_7_CEILING
    return None


def _timing(s: SubstitutionSituation) -> tuple[SubDecision, ReasonKey]:
    if s.moment is Moment.BETWEEN_PERIODS:
        return SubDecision.ALLOWED_NOW, K.SUB_BETWEEN_PERIODS
    if s.reason is LeaveReason.VACANCY:
        return SubDecision.ALLOWED_NOW, K.SUB_OPEN_POSITION_ANY_TIME
    if s.reason is LeaveReason.ABLE_TO_CONTINUE:
        return SubDecision.AT_END_OF_PERIOD, K.SUB_ABLE_END_OF_PERIOD
    if len(s.outgoing) == 1:
        return SubDecision.ALLOWED_NOW, K.SUB_UNABLE_ANY_TIME
    if len(s.outgoing) == 2:
        if s.reason is LeaveReason.INJURED:
            return SubDecision.ALLOWED_NOW, K.SUB_DOUBLE_ON_INJURY
        return SubDecision.FIRST_NOW_SECOND_AT_END, K.SUB_DOUBLE_ONLY_ON_INJURY
    return SubDecision.AT_END_OF_PERIOD, K.SUB_DOUBLE_ONLY_ON_INJURY
