"""Rule 3: substitutions, their timing and the handicap counted."""

import pytest

from polotrainer.rules import (
    LeaveReason,
    Moment,
    Player,
    SubDecision,
    SubstitutionSituation,
    decide_substitution,
)
from polotrainer.rules.errors import (
    DuplicateId,
    FactError,
    Inconsistent,
    NotOnField,
    OutOfRange,
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
        "incoming": (Player("S1", 3),),
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
            incoming=(Player("S1", 2), Player("S2", 3), Player("S3", 2)),
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
    two_in = (Player("S1", 3), Player("S2", 2))
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
            incoming=(Player("S1", 2), Player("S2", 2), Player("S3", 2)),
        )
    )
    assert ruling.decision is SubDecision.AT_END_OF_PERIOD


def test_a_substitution_that_would_pass_the_upper_limit_is_not_allowed() -> None:
    ruling = decide_substitution(sub(incoming=(Player("S1", 4),)))
    assert ruling.decision is SubDecision.NOT_ALLOWED
    assert (ruling.handicap_on_field, ruling.handicap_counted, ruling.scoreboard_change) == (
        8,
        8,
        0,
    )
    assert keys(ruling) == ["sub_over_upper_limit"]


def test_an_ineligible_substitute_is_not_allowed() -> None:
    ruling = decide_substitution(sub(incoming=(Player("S1", 1, eligible=False),)))
    assert ruling.decision is SubDecision.NOT_ALLOWED
    assert [r.ref for r in ruling.reasons] == ["3.c"]


def test_the_player_injured_for_a_penalty_7_may_not_return() -> None:
    ruling = decide_substitution(sub(incoming=(Player("X", 1),), injured_by_penalty_7=("X",)))
    assert keys(ruling) == ["p7_injured_may_not_return"]


def test_an_unconscious_player_may_not_play_that_day() -> None:
    ruling = decide_substitution(sub(incoming=(Player("X", 1),), unconscious=("X",)))
    assert (ruling.decision, [r.ref for r in ruling.reasons]) == (SubDecision.NOT_ALLOWED, ["21.d"])


def test_after_a_penalty_7_no_substitution_past_the_ceiling() -> None:
    three = (Player("B1", 4), Player("B2", 2), Player("B4", 1))
    facts = {"team": three, "outgoing": ("B4",), "event_upper": 12, "penalty_7_ceiling": 7}
    assert decide_substitution(sub(**facts, incoming=(Player("S", 1),))).decision == "allowed_now"
    ruling = decide_substitution(sub(**facts, incoming=(Player("S", 2),)))
    assert keys(ruling) == ["sub_over_penalty_7_ceiling"]
    ruling = decide_substitution(
        sub(**facts, incoming=(Player("S", 1),), handicap_goals_received=1)
    )
    assert ruling.decision is SubDecision.NOT_ALLOWED


def test_a_negative_handicap_substitute_lowers_the_field_not_the_count() -> None:
    ruling = decide_substitution(sub(incoming=(Player("S1", -2),)))
    assert (ruling.handicap_on_field, ruling.handicap_counted) == (3, 8)


def test_below_the_lower_limit_is_allowed() -> None:
    ruling = decide_substitution(sub(event_lower=6, incoming=(Player("S1", 0),)))
    assert ruling.below_lower_limit
    assert "sub_below_lower_allowed" in keys(ruling)
    assert not decide_substitution(sub(event_lower=5)).below_lower_limit


def test_a_higher_team_counts_for_the_game_and_moves_the_board() -> None:
    ruling = decide_substitution(sub(event_upper=10, incoming=(Player("S1", 5),)))
    assert (ruling.handicap_counted, ruling.scoreboard_change) == (10, -2)
    ruling = decide_substitution(sub(event_upper=10, incoming=(Player("S1", 5),), counted_so_far=9))
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
        ({"incoming": (Player("S1", -3),)}, OutOfRange, "incoming[0].handicap"),
        ({"incoming": (Player("R3", 1),)}, DuplicateId, "incoming[0].id"),
        ({"outgoing": ("B9",)}, NotOnField, "outgoing[0]"),
        (
            {"outgoing": ("R2", "R2"), "incoming": (Player("S", 1), Player("T", 1))},
            DuplicateId,
            "outgoing[1]",
        ),
        ({"outgoing": ()}, Inconsistent, "outgoing"),
        ({"incoming": (Player("S", 1), Player("T", 1))}, Inconsistent, "incoming"),
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
