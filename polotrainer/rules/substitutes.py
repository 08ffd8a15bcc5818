"""Rule 3: when a player may be replaced and what the replacement does to the handicap.

>>> team = (Player("R1", 2), Player("R2", 8), Player("R3", 1), Player("R4", 1))
>>> r = decide_substitution(SubstitutionSituation(
...     event_upper=12, team=team, moment=Moment.PLAY_STOPPED, reason=LeaveReason.INJURED,
...     outgoing=("R2", "R1"), incoming=(Substitute("S1", 5), Substitute("S2", 5))))
>>> r.decision.value, r.handicap_on_field, r.handicap_counted
('allowed_now', 12, 12)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .errors import (
    Inconsistent,
    MissingFact,
    NotOnField,
    OutOfRange,
    OverUpperLimit,
    TooManyPlayers,
)
from .penalties import Team
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
    #: As above, but the second change, made on its own at the end of the period, is refused.
    FIRST_NOW_SECOND_NOT_ALLOWED = "first_now_second_not_allowed"
    AT_END_OF_PERIOD = "at_end_of_period"
    NOT_ALLOWED = "not_allowed"
    PLAY_ON_SHORTHANDED = "play_on_shorthanded"


@dataclass(frozen=True, slots=True)
class Substitute:
    """A substitute offered, and whether he may play in the game (3.c)."""

    id: str
    handicap: int
    #: Eligible to play in the game (e.g. not already on another team of the tournament).
    eligible: bool = True
    #: 3.c: a substitute during a game must have been eligible to start it: registration fee
    #: paid, handicap in order.
    registration_fee_paid: bool = True
    handicap_in_order: bool = True


@dataclass(frozen=True, slots=True)
class SubstitutionSituation:
    """A team, the player(s) leaving and the substitute(s) offered."""

    event_upper: int
    team: tuple[Player, ...]
    moment: Moment
    reason: LeaveReason
    #: Ids of the players leaving (the injured or unable one first); empty for a vacancy.
    #: ``incoming[i]`` replaces ``outgoing[i]``.
    outgoing: tuple[str, ...] = ()
    #: The substitutes; none means the team plays on shorthanded.
    incoming: tuple[Substitute, ...] = ()
    event_lower: int | None = None
    #: The team's handicap counted for the game so far (default: the team's aggregate); after a
    #: Penalty 7, its handicap at the time of the infraction.
    counted_so_far: int | None = None
    #: Players who may not enter: injured by a foul and removed under Penalty 7.
    injured_by_penalty_7: tuple[str, ...] = ()
    #: Players who may not enter: rendered unconscious today.
    unconscious: tuple[str, ...] = ()
    #: After a Penalty 7: the aggregate (plus handicap goals received) no team may exceed.
    penalty_7_ceiling: int | None = None
    #: After a Penalty 7: this team's side of it, the team that fouled or the team fouled.
    penalty_7_team: Team | None = None
    #: After a Penalty 7, for the fouling team: the cumulative handicap its three unremoved
    #: players had when the penalty was enacted (37.7, "Applying Penalty 7").
    fouling_team_limit: int | None = None
    handicap_goals_received: int = 0

    def __post_init__(self) -> None:
        for name in (
            "event_upper",
            "event_lower",
            "counted_so_far",
            "penalty_7_ceiling",
            "fouling_team_limit",
        ):
            value = getattr(self, name)
            if value is not None and not MIN_AGGREGATE <= value <= MAX_AGGREGATE:
                raise OutOfRange(
                    name, f"expected an aggregate from {MIN_AGGREGATE} to {MAX_AGGREGATE} goals"
                )
        if self.event_lower is not None and self.event_lower > self.event_upper:
            raise Inconsistent("event_lower", "expected a lower limit at most the upper limit")
        if not 0 <= self.handicap_goals_received <= MAX_AGGREGATE:
            raise OutOfRange("handicap_goals_received", "expected from 0 to 40 goals")
        aggregate = check_players("team", self.team)
        for index, player in enumerate(self.incoming):
            check_handicap(f"incoming[{index}].handicap", player.handicap)
        check_unique(
            [(f"team[{i}].id", p.id) for i, p in enumerate(self.team)]
            + [(f"incoming[{i}].id", p.id) for i, p in enumerate(self.incoming)]
        )
        self._check_start(aggregate)
        side = self._check_penalty_7()
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
            if len(self.team) + len(self.incoming) > side:
                raise TooManyPlayers(
                    "incoming", f"expected at most {side - len(self.team)} substitutes"
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

    def _check_start(self, aggregate: int) -> None:
        """The team before the change must be a team that could be playing (3.c, 3.d)."""
        counted = self.counted_so_far
        if counted is not None and len(self.team) == MAX_PLAYERS and counted < aggregate:
            raise Inconsistent(
                "counted_so_far",
                f"expected at least the aggregate on the field, {aggregate} (3.d: the highest "
                "counts)",
            )
        if counted is None:
            counted = aggregate
        if counted > self.event_upper:
            raise OverUpperLimit(
                "team" if self.counted_so_far is None else "counted_so_far",
                f"expected a team within the event's upper limit of {self.event_upper} goals, "
                f"got {counted}",
            )

    def _check_penalty_7(self) -> int:
        """The facts after a Penalty 7; return how many players a side may have."""
        if (self.penalty_7_ceiling, self.penalty_7_team, self.fouling_team_limit) == (
            None,
            None,
            None,
        ):
            return MAX_PLAYERS
        if self.penalty_7_team is None:
            raise MissingFact(
                "penalty_7_team", "expected which side of the Penalty 7: 'fouling' or 'fouled'"
            )
        if self.penalty_7_ceiling is None:
            raise MissingFact("penalty_7_ceiling", "expected the ceiling after the Penalty 7")
        if self.counted_so_far is None:
            raise MissingFact(
                "counted_so_far",
                "expected the team's handicap at the time of the infraction (37.7)",
            )
        if len(self.team) > MAX_PLAYERS - 1:
            raise TooManyPlayers("team", "expected at most 3 players a side after a Penalty 7")
        if self.penalty_7_team is Team.FOULING:
            if self.fouling_team_limit is None:
                raise MissingFact(
                    "fouling_team_limit",
                    "expected the handicap of the fouling team's three unremoved players when "
                    "the Penalty 7 was enacted",
                )
            if self.fouling_team_limit > self.penalty_7_ceiling:
                raise Inconsistent(
                    "fouling_team_limit",
                    f"expected at most the ceiling, {self.penalty_7_ceiling} (3.f takes the "
                    "higher team)",
                )
        return MAX_PLAYERS - 1


@dataclass(frozen=True, slots=True)
class SubstitutionRuling:
    """Whether and when the substitution may be made, and the handicaps that follow."""

    decision: SubDecision
    handicap_on_field: int
    handicap_counted: int
    #: Net change of the team's handicap-goal margin (-1: a goal off its side of the board).
    scoreboard_change: int
    below_lower_limit: bool
    #: Substitutes who may not play in this game (3.c, 3.f, 21.d), whatever the team's limits.
    may_not_enter: tuple[str, ...]
    reasons: tuple[Reason, ...]


def decide_substitution(s: SubstitutionSituation) -> SubstitutionRuling:
    """Rule on a substitution (Rule 3, with Rule 21.d for an unconscious player and Rule 37 after
    a Penalty 7).

    >>> team = (Player("B1", 2), Player("B2", 1), Player("B3", 0), Player("B4", 5))
    >>> r = decide_substitution(SubstitutionSituation(
    ...     event_upper=8, team=team, moment=Moment.PLAY_STOPPED, reason=LeaveReason.INJURED,
    ...     outgoing=("B4",), incoming=(Substitute("S", 4),)))
    >>> r.handicap_on_field, r.handicap_counted
    (7, 8)
    """
    now = sum(p.handicap for p in s.team)
    counted = now if s.counted_so_far is None else s.counted_so_far
    barred = tuple(p.id for p in s.incoming if _barred(s, p) is not None)
    if not s.incoming:
        leaving = sum(p.handicap for p in s.team if p.id in s.outgoing)
        return SubstitutionRuling(
            SubDecision.PLAY_ON_SHORTHANDED,
            now - leaving,
            counted,
            0,
            False,
            (),
            because(K.PLAY_ON_WITH_THREE),
        )
    decision, when = _timing(s)
    keys = [when]
    # Changes made at different times are each checked on the team they leave on the field;
    # changes made together are one substitution, checked once (3.c).
    if decision is SubDecision.FIRST_NOW_SECOND_AT_END:
        changes = [(s.outgoing[:1], s.incoming[:1]), (s.outgoing[1:], s.incoming[1:])]
    else:
        changes = [(s.outgoing, s.incoming)]
    handicaps = {p.id: p.handicap for p in s.team}
    on_field = [now]
    for index, (out, into) in enumerate(changes):
        after = on_field[-1] - sum(handicaps[i] for i in out) + sum(p.handicap for p in into)
        refused = _refusal(s, into, after)
        if refused is None:
            on_field.append(after)
        elif index == 0:
            if refused is K.SUB_OVER_UPPER_LIMIT and len(changes) > 1:
                refused = K.SUB_CHANGE_NOW_OVER_UPPER_LIMIT
            return SubstitutionRuling(
                SubDecision.NOT_ALLOWED, now, counted, 0, False, barred, because(refused)
            )
        else:
            decision = SubDecision.FIRST_NOW_SECOND_NOT_ALLOWED
            keys.append(refused)
    below = s.event_lower is not None and on_field[-1] < s.event_lower
    if below:
        keys.append(K.SUB_BELOW_LOWER_ALLOWED)
    if s.penalty_7_team is None:
        new_counted = max(counted, *on_field[1:])
        keys.append(K.HIGHEST_HANDICAP_COUNTS)
    else:
        new_counted = counted
        keys.append(K.P7_HANDICAP_UNCHANGED)
    return SubstitutionRuling(
        decision, on_field[-1], new_counted, counted - new_counted, below, barred, because(*keys)
    )


def _barred(s: SubstitutionSituation, p: Substitute) -> ReasonKey | None:
    """Why substitute ``p`` may not play in this game at all, if he may not."""
    if not p.eligible:
        return K.SUB_MUST_BE_ELIGIBLE
    if not (p.registration_fee_paid and p.handicap_in_order):
        return K.SUB_MUST_HAVE_BEEN_ELIGIBLE_TO_START
    if p.id in s.injured_by_penalty_7:
        return K.P7_INJURED_MAY_NOT_RETURN
    if p.id in s.unconscious:
        return K.SUB_UNCONSCIOUS_NOT_TODAY
    return None


def _refusal(
    s: SubstitutionSituation, incoming: tuple[Substitute, ...], after: int
) -> ReasonKey | None:
    for p in incoming:
        barred = _barred(s, p)
        if barred is not None:
            return barred
    if after > s.event_upper:
        return K.SUB_OVER_UPPER_LIMIT
    if s.penalty_7_ceiling is not None and after + s.handicap_goals_received > s.penalty_7_ceiling:
        return K.SUB_OVER_PENALTY_7_CEILING
    limit = s.fouling_team_limit
    if s.penalty_7_team is Team.FOULING and limit is not None and after > limit:
        return K.SUB_OVER_FOULING_TEAM_LIMIT
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
