"""Rule 3: substitutions, their timing and the handicap counted."""

import pytest

from polotrainer.rules import (
    LeaveReason,
    Moment,
    Player,
    SubDecision,
    Substitute,
    SubstitutionSituation,
    Team,
    decide_substitution,
)
from polotrainer.rules.errors import (
    DuplicateId,
    FactError,
    Inconsistent,
    MissingFact,
    NotOnField,
    OutOfRange,
    OverUpperLimit,
    TooFewPlayers,
    TooManyPlayers,
)

TEAM = (Player("R1", 2), Player("R2", 3), Player("R3", 2), Player("R4", 1))  # 8 goals


def sub(**facts: object) -> SubstitutionSituation:
    base: dict[str, object] = {
        "event_upper": 8,
        "team": TEAM,
        "moment": Moment.PLAY_STOPPED,
        "reason": LeaveReason.INJURED,
        "outgoing": ("R2",),
        "incoming": (Substitute("S1", 3),),
    }
    return SubstitutionSituation(**(base | facts))  # type: ignore[arg-type]


def keys(ruling: object) -> list[str]:
    return [str(r.key) for r in ruling.reasons]  # type: ignore[attr-defined]


def test_between_periods_any_substitution_is_allowed() -> None:
    ruling = decide_substitution(
        sub(
            moment=Moment.BETWEEN_PERIODS,
            reason=LeaveReason.ABLE_TO_CONTINUE,
            outgoing=("R1", "R2", "R3"),
            incoming=(Substitute("S1", 2), Substitute("S2", 3), Substitute("S3", 2)),
        )
    )
    assert ruling.decision is SubDecision.ALLOWED_NOW
    assert keys(ruling) == ["sub_between_periods", "highest_handicap_counts"]


@pytest.mark.parametrize(
    "reason", [LeaveReason.INJURED, LeaveReason.UNABLE_TO_CONTINUE, LeaveReason.DISQUALIFIED]
)
@pytest.mark.parametrize("moment", [Moment.PLAY_STOPPED, Moment.DURING_PLAY])
def test_a_player_unable_to_finish_may_be_replaced_at_any_time(
    reason: LeaveReason, moment: Moment
) -> None:
    ruling = decide_substitution(sub(reason=reason, moment=moment))
    assert ruling.decision is SubDecision.ALLOWED_NOW
    assert keys(ruling)[0] == "sub_unable_any_time"


def test_a_double_substitution_only_for_an_injury() -> None:
    two_in = (Substitute("S1", 3), Substitute("S2", 2))
    ruling = decide_substitution(sub(outgoing=("R2", "R1"), incoming=two_in))
    assert ruling.decision is SubDecision.ALLOWED_NOW
    assert keys(ruling)[0] == "sub_double_on_injury"
    ruling = decide_substitution(
        sub(outgoing=("R2", "R1"), incoming=two_in, reason=LeaveReason.UNABLE_TO_CONTINUE)
    )
    # The one unable to finish may be replaced now (3.b); the second change waits.
    assert ruling.decision is SubDecision.FIRST_NOW_SECOND_AT_END
    assert keys(ruling)[0] == "sub_double_only_on_injury"


def test_a_triple_substitution_during_a_period_waits_for_its_end() -> None:
    ruling = decide_substitution(
        sub(
            outgoing=("R2", "R1", "R3"),
            incoming=(Substitute("S1", 2), Substitute("S2", 2), Substitute("S3", 2)),
        )
    )
    assert ruling.decision is SubDecision.AT_END_OF_PERIOD


def test_a_substitution_that_would_pass_the_upper_limit_is_not_allowed() -> None:
    ruling = decide_substitution(sub(incoming=(Substitute("S1", 4),)))
    assert ruling.decision is SubDecision.NOT_ALLOWED
    assert (ruling.handicap_on_field, ruling.handicap_counted, ruling.scoreboard_change) == (
        8,
        8,
        0,
    )
    assert keys(ruling) == ["sub_over_upper_limit"]


def test_an_ineligible_substitute_is_not_allowed() -> None:
    ruling = decide_substitution(sub(incoming=(Substitute("S1", 1, eligible=False),)))
    assert ruling.decision is SubDecision.NOT_ALLOWED
    assert [r.ref for r in ruling.reasons] == ["3.c"]


def test_the_player_injured_for_a_penalty_7_may_not_return() -> None:
    ruling = decide_substitution(sub(incoming=(Substitute("X", 1),), injured_by_penalty_7=("X",)))
    assert keys(ruling) == ["p7_injured_may_not_return"]


def test_an_unconscious_player_may_not_play_that_day() -> None:
    ruling = decide_substitution(sub(incoming=(Substitute("X", 1),), unconscious=("X",)))
    assert (ruling.decision, [r.ref for r in ruling.reasons]) == (SubDecision.NOT_ALLOWED, ["21.d"])


def test_after_a_penalty_7_no_substitution_past_the_ceiling() -> None:
    three = (Player("B1", 4), Player("B2", 2), Player("B4", 1))
    facts = {
        "team": three,
        "outgoing": ("B4",),
        "event_upper": 12,
        "penalty_7_ceiling": 7,
        "penalty_7_team": Team.FOULED,
        "counted_so_far": 12,
    }
    assert (
        decide_substitution(sub(**facts, incoming=(Substitute("S", 1),))).decision == "allowed_now"
    )
    ruling = decide_substitution(sub(**facts, incoming=(Substitute("S", 2),)))
    assert keys(ruling) == ["sub_over_penalty_7_ceiling"]
    ruling = decide_substitution(
        sub(**facts, incoming=(Substitute("S", 1),), handicap_goals_received=1)
    )
    assert ruling.decision is SubDecision.NOT_ALLOWED


def test_a_negative_handicap_substitute_lowers_the_field_not_the_count() -> None:
    ruling = decide_substitution(sub(incoming=(Substitute("S1", -2),)))
    assert (ruling.handicap_on_field, ruling.handicap_counted) == (3, 8)


def test_below_the_lower_limit_is_allowed() -> None:
    ruling = decide_substitution(sub(event_lower=6, incoming=(Substitute("S1", 0),)))
    assert ruling.below_lower_limit
    assert "sub_below_lower_allowed" in keys(ruling)
    assert not decide_substitution(sub(event_lower=5)).below_lower_limit


def test_a_higher_team_counts_for_the_game_and_moves_the_board() -> None:
    ruling = decide_substitution(sub(event_upper=10, incoming=(Substitute("S1", 5),)))
    assert (ruling.handicap_counted, ruling.scoreboard_change) == (10, -2)
    ruling = decide_substitution(
        sub(event_upper=10, incoming=(Substitute("S1", 5),), counted_so_far=9)
    )
    assert (ruling.handicap_counted, ruling.scoreboard_change) == (10, -1)


@pytest.mark.parametrize(
    ("facts", "error", "field"),
    [
        ({"event_upper": 41}, OutOfRange, "event_upper"),
        ({"counted_so_far": -9}, OutOfRange, "counted_so_far"),
        ({"event_lower": 9}, Inconsistent, "event_lower"),
        ({"handicap_goals_received": -1}, OutOfRange, "handicap_goals_received"),
        ({"team": (*TEAM, Player("R5", 0))}, TooManyPlayers, "team"),
        ({"team": ()}, TooFewPlayers, "team"),
        ({"team": (Player("R1", 12), *TEAM[1:])}, OutOfRange, "team[0].handicap"),
        ({"incoming": (Substitute("S1", -3),)}, OutOfRange, "incoming[0].handicap"),
        ({"incoming": (Substitute("R3", 1),)}, DuplicateId, "incoming[0].id"),
        ({"outgoing": ("B9",)}, NotOnField, "outgoing[0]"),
        (
            {"outgoing": ("R2", "R2"), "incoming": (Substitute("S", 1), Substitute("T", 1))},
            DuplicateId,
            "outgoing[1]",
        ),
        ({"outgoing": ()}, Inconsistent, "outgoing"),
        ({"incoming": (Substitute("S", 1), Substitute("T", 1))}, Inconsistent, "incoming"),
        ({"incoming": (), "reason": LeaveReason.ABLE_TO_CONTINUE}, Inconsistent, "incoming"),
        ({"reason": LeaveReason.VACANCY}, Inconsistent, "outgoing"),
        ({"reason": LeaveReason.VACANCY, "outgoing": ()}, TooManyPlayers, "incoming"),
        (
            {"reason": LeaveReason.VACANCY, "outgoing": (), "incoming": (), "team": TEAM[:3]},
            Inconsistent,
            "incoming",
        ),
    ],
)
def test_impossible_substitution_facts(
    facts: dict[str, object], error: type[FactError], field: str
) -> None:
    with pytest.raises(error) as excinfo:
        sub(**facts)
    assert (excinfo.value.field, excinfo.value.code) == (field, error.code)


# --- each change of a double substitution (3.c) -----------------------------------------------

# Rule 3 scenario "the player taken ill and a second change": a 10-goal event, Red 1+2+3+2.
ILL = (Player("R1", 1), Player("R2", 2), Player("R3", 3), Player("R4", 2))


def ill_and_second_change(s1: int, s2: int, **facts: object) -> SubstitutionSituation:
    return sub(
        event_upper=10,
        team=ILL,
        reason=LeaveReason.UNABLE_TO_CONTINUE,
        outgoing=("R3", "R4"),
        incoming=(Substitute("S1", s1), Substitute("S2", s2)),
        **facts,
    )


def test_the_change_made_now_may_not_pass_the_limit_even_if_the_end_state_does_not() -> None:
    # 8 - 3 + 6 = 11 in a 10-goal event now; 11 - 2 + 1 = 10 only at the end of the period.
    ruling = decide_substitution(ill_and_second_change(6, 1))
    assert ruling.decision is SubDecision.NOT_ALLOWED
    assert keys(ruling) == ["sub_change_now_over_upper_limit"]
    assert (ruling.handicap_on_field, ruling.handicap_counted) == (8, 8)


def test_the_second_change_alone_may_be_refused() -> None:
    ruling = decide_substitution(ill_and_second_change(3, 5))  # 8 now, 11 at the end
    assert ruling.decision is SubDecision.FIRST_NOW_SECOND_NOT_ALLOWED
    assert keys(ruling) == [
        "sub_double_only_on_injury",
        "sub_over_upper_limit",
        "highest_handicap_counts",
    ]
    assert (ruling.handicap_on_field, ruling.handicap_counted) == (8, 8)


def test_the_highest_team_between_the_two_changes_counts() -> None:
    ruling = decide_substitution(ill_and_second_change(5, 0))  # 10 now, 8 at the end
    assert ruling.decision is SubDecision.FIRST_NOW_SECOND_AT_END
    assert (ruling.handicap_on_field, ruling.handicap_counted, ruling.scoreboard_change) == (
        8,
        10,
        -2,
    )


def test_an_ineligible_second_substitute_stops_only_the_second_change() -> None:
    ruling = decide_substitution(
        sub(
            event_upper=10,
            team=ILL,
            reason=LeaveReason.UNABLE_TO_CONTINUE,
            outgoing=("R3", "R4"),
            incoming=(Substitute("S1", 3), Substitute("S2", 1, registration_fee_paid=False)),
        )
    )
    assert ruling.decision is SubDecision.FIRST_NOW_SECOND_NOT_ALLOWED
    assert ruling.may_not_enter == ("S2",)
    assert "sub_must_have_been_eligible_to_start" in keys(ruling)


def test_a_double_substitution_on_an_injury_is_one_change_checked_once() -> None:
    # Rule 3.b, fourth example, with a 10 for the 8-goaler: 14 only if the changes were apart.
    team = (Player("R1", 2), Player("R2", 8), Player("R3", 1), Player("R4", 1))
    ruling = decide_substitution(
        sub(
            event_upper=12,
            team=team,
            outgoing=("R2", "R1"),
            incoming=(Substitute("S1", 10), Substitute("S2", 0)),
        )
    )
    assert (ruling.decision, ruling.handicap_on_field, ruling.handicap_counted) == (
        SubDecision.ALLOWED_NOW,
        12,
        12,
    )


def test_a_team_above_the_events_limit_is_not_a_situation() -> None:
    with pytest.raises(OverUpperLimit) as excinfo:
        sub(event_upper=7)  # a 8-goal team in a 7-goal event
    assert (excinfo.value.field, excinfo.value.code) == ("team", "over_upper_limit")
    with pytest.raises(OverUpperLimit) as excinfo:
        sub(counted_so_far=9)
    assert excinfo.value.field == "counted_so_far"


def test_a_shorthanded_team_above_the_limit_on_the_field_remains_qualified() -> None:
    # Rule 3.e: an 8-goal team loses its -1 goaler and plays on with 9 goals on the field.
    three = (Player("R2", 5), Player("R3", 3), Player("R4", 1))
    ruling = decide_substitution(
        sub(
            team=three,
            counted_so_far=8,
            reason=LeaveReason.VACANCY,
            outgoing=(),
            incoming=(Substitute("S1", -1),),
        )
    )
    assert (ruling.decision, ruling.handicap_on_field, ruling.handicap_counted) == (
        SubDecision.ALLOWED_NOW,
        8,
        8,
    )


def test_the_handicap_counted_is_at_least_a_full_teams_aggregate() -> None:
    with pytest.raises(Inconsistent) as excinfo:
        sub(event_upper=10, counted_so_far=7)
    assert excinfo.value.field == "counted_so_far"


# --- eligibility of a substitute (3.c) ----------------------------------------------------------


@pytest.mark.parametrize(
    ("substitute", "key"),
    [
        (Substitute("S1", 1, registration_fee_paid=False), "sub_must_have_been_eligible_to_start"),
        (Substitute("S1", 1, handicap_in_order=False), "sub_must_have_been_eligible_to_start"),
        (Substitute("S1", 1, eligible=False), "sub_must_be_eligible"),
    ],
)
def test_a_substitute_must_have_been_eligible_to_start_the_game(
    substitute: Substitute, key: str
) -> None:
    ruling = decide_substitution(sub(incoming=(substitute,)))
    assert (ruling.decision, ruling.may_not_enter, keys(ruling)) == (
        SubDecision.NOT_ALLOWED,
        ("S1",),
        [key],
    )
    assert [r.ref for r in ruling.reasons] == ["3.c"]


def test_may_not_enter_lists_every_barred_substitute_and_no_other() -> None:
    ruling = decide_substitution(
        sub(
            outgoing=("R2", "R1"),
            incoming=(Substitute("S1", 1), Substitute("X", 1)),
            unconscious=("X",),
        )
    )
    assert ruling.may_not_enter == ("X",)
    assert decide_substitution(sub()).may_not_enter == ()


# --- after a Penalty 7: both teams (3.f, 37.7) -------------------------------------------------

# A 14-goal event. Red (5, 4, 3, 0) loses its 0-goaler to a foul by Blue (6, 4, 1, 1); Red's
# Captain designates a 1-goaler, the nearest above. Red keeps 12, Blue 11: the ceiling is 12;
# Blue's own limit is 11, its three unremoved players' handicap when the penalty was enacted.
RED_AFTER = (Player("R1", 5), Player("R2", 4), Player("R3", 3))
BLUE_AFTER = (Player("B1", 6), Player("B2", 4), Player("B3", 1))


def after_penalty_7(team: tuple[Player, ...], side: Team, incoming: int) -> SubstitutionSituation:
    return sub(
        event_upper=14,
        team=team,
        outgoing=(team[2].id,),
        incoming=(Substitute("S1", incoming),),
        counted_so_far=12,
        penalty_7_ceiling=12,
        penalty_7_team=side,
        fouling_team_limit=11 if side is Team.FOULING else None,
    )


def test_the_fouled_team_is_held_to_the_ceiling_only() -> None:
    ruling = decide_substitution(after_penalty_7(RED_AFTER, Team.FOULED, 3))
    assert (ruling.decision, ruling.handicap_on_field) == (SubDecision.ALLOWED_NOW, 12)
    ruling = decide_substitution(after_penalty_7(RED_AFTER, Team.FOULED, 4))
    assert keys(ruling) == ["sub_over_penalty_7_ceiling"]  # 13: within the event's 14


def test_the_fouling_team_is_held_to_its_three_unremoved_players() -> None:
    ruling = decide_substitution(after_penalty_7(BLUE_AFTER, Team.FOULING, 1))
    assert (ruling.decision, ruling.handicap_on_field) == (SubDecision.ALLOWED_NOW, 11)
    # 12 is within the ceiling and the event, but above Blue's 11 when the penalty was enacted.
    ruling = decide_substitution(after_penalty_7(BLUE_AFTER, Team.FOULING, 2))
    assert ruling.decision is SubDecision.NOT_ALLOWED
    assert [(r.ref, r.key) for r in ruling.reasons] == [
        ("37.7.applying", "sub_over_fouling_team_limit")
    ]


@pytest.mark.parametrize(("team", "side"), [(RED_AFTER, Team.FOULED), (BLUE_AFTER, Team.FOULING)])
def test_after_a_penalty_7_the_handicap_stays_as_at_the_infraction(
    team: tuple[Player, ...], side: Team
) -> None:
    ruling = decide_substitution(after_penalty_7(team, side, 0))
    assert (ruling.handicap_counted, ruling.scoreboard_change) == (12, 0)
    assert keys(ruling)[-1] == "p7_handicap_unchanged"
    assert ruling.handicap_on_field < 12


@pytest.mark.parametrize(
    ("facts", "error", "field"),
    [
        ({"penalty_7_ceiling": 7}, MissingFact, "penalty_7_team"),
        ({"penalty_7_team": Team.FOULED}, MissingFact, "penalty_7_ceiling"),
        ({"penalty_7_team": Team.FOULED, "penalty_7_ceiling": 8}, MissingFact, "counted_so_far"),
        (
            {"penalty_7_team": Team.FOULING, "penalty_7_ceiling": 8, "counted_so_far": 8},
            TooManyPlayers,
            "team",
        ),
        (
            {
                "team": TEAM[:3],
                "outgoing": ("R1",),
                "penalty_7_team": Team.FOULING,
                "penalty_7_ceiling": 8,
                "counted_so_far": 8,
            },
            MissingFact,
            "fouling_team_limit",
        ),
        (
            {
                "team": TEAM[:3],
                "outgoing": ("R1",),
                "penalty_7_team": Team.FOULING,
                "penalty_7_ceiling": 8,
                "fouling_team_limit": 9,
                "counted_so_far": 8,
            },
            Inconsistent,
            "fouling_team_limit",
        ),
        (
            {
                "team": TEAM[:3],
                "reason": LeaveReason.VACANCY,
                "outgoing": (),
                "penalty_7_team": Team.FOULED,
                "penalty_7_ceiling": 8,
                "counted_so_far": 8,
            },
            TooManyPlayers,
            "incoming",
        ),
        ({"fouling_team_limit": 41}, OutOfRange, "fouling_team_limit"),
    ],
)
def test_impossible_facts_after_a_penalty_7(
    facts: dict[str, object], error: type[FactError], field: str
) -> None:
    with pytest.raises(error) as excinfo:
        sub(**facts)
    assert (excinfo.value.field, excinfo.value.code) == (field, error.code)
