"""Rule 37: whether a Penalty 3 is defended, the order of a Penalty 7, and Penalties 8 to 10."""

import pytest

from polotrainer.rules import (
    MountReturn,
    MountViolation,
    Penalty3Condition,
    Penalty3DefendedSituation,
    Penalty7Situation,
    Penalty7Step,
    Penalty8Situation,
    Penalty9Situation,
    Penalty10Situation,
    Player,
    TeamColour,
    decide_penalty_3_defended,
    decide_penalty_7,
    decide_penalty_8,
    decide_penalty_9,
    decide_penalty_10,
    describe,
    rule_json,
)
from polotrainer.rules.errors import FactError, MissingFact, OutOfRange

C = Penalty3Condition


def keys(ruling: object) -> list[tuple[str, str]]:
    return [(r.ref, str(r.key)) for r in ruling.reasons]  # type: ignore[attr-defined]


# --- Penalty 3 defended (the note printed with 37.2) -------------------------------------------


def test_penalty_3_is_defended_when_every_condition_holds() -> None:
    ruling = decide_penalty_3_defended(Penalty3DefendedSituation(8, True, True, True))
    assert (ruling.defended, ruling.unmet, ruling.fouling_may_enter_after_hit) == (True, (), True)
    assert keys(ruling) == [("37.2", "p3_defended_elected"), ("37.3", "p3_defended_entry")]


def test_uspa_umpires_llc_may_approve_an_event_without_two_professional_umpires() -> None:
    ruling = decide_penalty_3_defended(
        Penalty3DefendedSituation(10, True, True, False, umpires_llc_approved=True)
    )
    assert ruling.defended
    assert ("37.2", "p3_umpires_llc_approved") in keys(ruling)


@pytest.mark.parametrize(
    ("facts", "unmet"),
    [
        ((6, True, True, True), [C.EIGHT_GOALS]),
        ((8, False, True, True), [C.ELECTED]),
        ((12, True, False, True), [C.COMMUNICATED]),
        ((12, True, True, False), [C.PROFESSIONAL_UMPIRES]),
        (
            (4, False, False, False),
            [C.ELECTED, C.COMMUNICATED, C.EIGHT_GOALS, C.PROFESSIONAL_UMPIRES],
        ),
    ],
)
def test_penalty_3_is_undefended_and_the_ruling_says_why(
    facts: tuple[int, bool, bool, bool], unmet: list[Penalty3Condition]
) -> None:
    ruling = decide_penalty_3_defended(Penalty3DefendedSituation(*facts))
    assert (ruling.defended, list(ruling.unmet), ruling.fouling_may_enter_after_hit) == (
        False,
        unmet,
        False,
    )
    assert len(ruling.reasons) == len(unmet) + 1
    assert keys(ruling)[-1] == ("37.3", "p3_undefended_no_entry")


def test_the_event_limit_is_an_aggregate() -> None:
    with pytest.raises(OutOfRange) as excinfo:
        Penalty3DefendedSituation(41, True, True, True)
    assert excinfo.value.field == "event_upper"


# --- Penalty 7: the procedure in the seed's order ----------------------------------------------

S = Penalty7Step
BLUE = (Player("B1", 5), Player("B2", 4), Player("B3", 2), Player("B4", 1))


def test_a_penalty_7_removal_follows_the_first_example_of_applying_penalty_7() -> None:
    assert decide_penalty_7(Penalty7Situation(3, BLUE)).procedure == (
        S.FOUL,
        S.PLAYER_DISABLED,
        S.FOUL_PENALTY_ANNOUNCED,
        S.PENALTY_7_AWARDED,
        S.FIFTEEN_MINUTES_ALLOWED,
        S.NO_REPLACEMENT_AVAILABLE,
        S.CAPTAIN_DESIGNATES_REMOVAL,
        S.THREE_A_SIDE,
    )


def test_with_a_qualified_substitute_the_substitute_enters_instead() -> None:
    procedure = decide_penalty_7(Penalty7Situation(3, BLUE, substitute_offered=True)).procedure
    assert procedure[-1] is S.QUALIFIED_SUBSTITUTE_ENTERS
    assert S.CAPTAIN_DESIGNATES_REMOVAL not in procedure


def test_after_play_resumed_the_second_example_is_the_order() -> None:
    assert decide_penalty_7(Penalty7Situation(3, BLUE, play_resumed=True)).procedure == (
        S.PLAYER_INJURED,
        S.TIME_OUT,
        S.PLAYER_WILL_CONTINUE,
        S.PLAY_RESUMED,
        S.PLAYER_CANNOT_CONTINUE,
        S.GAME_STOPPED,
        S.TEN_MINUTES_ALLOWED,
    )


def test_the_procedure_is_an_ordered_sequence_in_json_and_schema() -> None:
    facts = {"disabled_handicap": 3, "fouling_players": [{"id": "B1", "handicap": 4}]}
    assert rule_json("penalty_7", facts)["procedure"][:2] == ["foul", "player_disabled"]
    entry = describe("penalty_7")["ruling"]["procedure"]
    assert entry == {"type": "sequence", "choices": [step.value for step in Penalty7Step]}


# --- Penalty 8 ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("facts", "returns", "forfeiture", "key"),
    [
        ({"violation": MountViolation.OTHER}, MountReturn.MAY_NOT_RETURN, False, None),
        ({"violation": MountViolation.RULE_5}, MountReturn.MAY_NOT_RETURN, False, "p8_not_cured"),
        (
            {"violation": MountViolation.RULE_6B, "cured": True},
            MountReturn.MAY_RETURN,
            False,
            "p8_cured_may_return",
        ),
        (
            {"violation": MountViolation.RULE_5, "cured": True, "would_delay_game": True},
            MountReturn.MAY_NOT_RETURN,
            False,
            "p8_would_delay_game",
        ),
        (
            {"violation": MountViolation.RULE_6A, "cured": True},
            MountReturn.MAY_RETURN,
            True,
            "p8_cured_may_return",
        ),
    ],
)
def test_penalty_8(
    facts: dict[str, object], returns: MountReturn, forfeiture: bool, key: str | None
) -> None:
    ruling = decide_penalty_8(Penalty8Situation(**facts))  # type: ignore[arg-type]
    assert (ruling.mount_may_return, ruling.forfeiture) == (returns, forfeiture)
    assert keys(ruling)[0] == ("37.8", "p8_mount_ordered_off")
    if key:
        assert keys(ruling)[1] == ("37.8", key)
    else:
        assert len(ruling.reasons) == 1
    assert (("37.8", "p8_rule_6a_forfeiture") in keys(ruling)) is forfeiture


# --- Penalty 9 ---------------------------------------------------------------------------------


def test_penalty_9_the_team_that_invokes_it_forfeits() -> None:
    ruling = decide_penalty_9(Penalty9Situation((TeamColour.BLUE, TeamColour.BLUE)))
    assert (ruling.forfeited_by, ruling.both_forfeit) == ((TeamColour.BLUE,), False)
    assert keys(ruling) == [("37.9", "p9_forfeit")]


@pytest.mark.parametrize(
    "order", [(TeamColour.RED, TeamColour.BLUE), (TeamColour.BLUE, TeamColour.RED)]
)
def test_penalty_9_both_forfeit_whichever_came_first(order: tuple[TeamColour, ...]) -> None:
    ruling = decide_penalty_9(Penalty9Situation(order))
    assert (ruling.forfeited_by, ruling.both_forfeit) == (
        (TeamColour.RED, TeamColour.BLUE),
        True,
    )
    assert keys(ruling)[-1] == ("37.9", "p9_both_forfeit")


def test_penalty_9_needs_a_violation() -> None:
    with pytest.raises(MissingFact) as excinfo:
        Penalty9Situation(())
    assert excinfo.value.field == "violations"


# --- Penalty 10 --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("deliberate", "dangerous", "prejudicial", "may", "reason_keys"),
    [
        (True, True, False, True, ["p10_deliberate_dangerous_foul"]),
        (False, False, True, True, ["p10_prejudicial_conduct"]),
        (True, True, True, True, ["p10_deliberate_dangerous_foul", "p10_prejudicial_conduct"]),
        # "a deliberate, dangerous foul": both, not either (compare 37.1's "dangerous or").
        (True, False, False, False, ["p10_no_grounds"]),
        (False, True, False, False, ["p10_no_grounds"]),
    ],
)
def test_penalty_10_the_umpire_may_exclude_on_its_grounds_only(
    deliberate: bool, dangerous: bool, prejudicial: bool, may: bool, reason_keys: list[str]
) -> None:
    ruling = decide_penalty_10(Penalty10Situation(deliberate, dangerous, prejudicial))
    assert ruling.may_exclude is may
    assert keys(ruling) == [("37.10", key) for key in reason_keys]


@pytest.mark.parametrize(
    ("kind", "facts", "field"),
    [
        ("penalty_3_defended", {"event_upper": 8}, "elected_by_committee"),
        ("penalty_8", {"violation": "rule_7"}, "violation"),
        ("penalty_9", {"violations": ["green"]}, "violations[0]"),
        ("penalty_9", {"violations": []}, "violations"),
        ("penalty_10", {"deliberate": True, "dangerous": True}, "prejudicial_conduct"),
    ],
)
def test_bad_facts_for_the_new_penalties(kind: str, facts: dict[str, object], field: str) -> None:
    with pytest.raises(FactError) as excinfo:
        rule_json(kind, facts)
    assert excinfo.value.field == field
