"""Recognising the penalty: the Penalty 1 test from the Umpire's judgements; where it is taken."""

import itertools

import pytest

from polotrainer.rules import (
    AwardedPenalty,
    Field,
    Penalty1Condition,
    Penalty2Choice,
    PenaltyNumber,
    Point,
    RecognitionSituation,
    SpotPenalty,
    decide_recognition,
    rule_json,
)
from polotrainer.rules.errors import FactError, InvalidChoice, MissingFact, OffField

C = Penalty1Condition


def foul(**facts: object) -> RecognitionSituation:
    judgements: dict[str, object] = {
        "dangerous": False,
        "deliberate": True,
        "in_vicinity_of_goal": True,
        "to_save_a_goal": True,
    }
    return RecognitionSituation(**(judgements | facts))  # type: ignore[arg-type]


def test_a_deliberate_foul_near_goal_to_save_a_goal_is_a_penalty_1() -> None:
    ruling = decide_recognition(foul())
    assert (ruling.penalty, ruling.penalty_1_test_met, ruling.penalty_1_unmet) == (
        PenaltyNumber.P1,
        True,
        (),
    )
    assert (ruling.goal_awarded, ruling.taken_as, ruling.change_of_direction) == (
        True,
        SpotPenalty.P5B,
        True,
    )
    assert ruling.spot == Point(0.0, 0.0)
    assert [(r.ref, r.key) for r in ruling.reasons] == [
        ("37.1", "p1_goal_awarded"),
        ("37.5b", "p5b_centre"),
    ]


@pytest.mark.parametrize(
    ("dangerous", "deliberate", "near", "to_save"), list(itertools.product([False, True], repeat=4))
)
def test_the_penalty_1_test_is_three_conditions_each_its_own_answer(
    dangerous: bool, deliberate: bool, near: bool, to_save: bool
) -> None:
    s = foul(
        dangerous=dangerous,
        deliberate=deliberate,
        in_vicinity_of_goal=near,
        to_save_a_goal=to_save,
        awarded_if_not_penalty_1=AwardedPenalty.P3,
    )
    ruling = decide_recognition(s)
    expected = [
        condition
        for condition, met in (
            (C.DANGEROUS_OR_DELIBERATE, dangerous or deliberate),
            (C.IN_VICINITY_OF_GOAL, near),
            (C.TO_SAVE_A_GOAL, to_save),
        )
        if not met
    ]
    assert list(ruling.penalty_1_unmet) == expected
    assert ruling.penalty_1_test_met is (not expected)
    assert ruling.penalty is (PenaltyNumber.P3 if expected else PenaltyNumber.P1)
    assert ruling.goal_awarded is (not expected)
    unmet_keys = [r.key for r in ruling.reasons if r.key.startswith("p1_not_")]
    assert len(unmet_keys) == len(expected)


def test_a_foul_not_to_save_a_goal_is_taken_where_the_awarded_penalty_is() -> None:
    ruling = decide_recognition(
        foul(to_save_a_goal=False, awarded_if_not_penalty_1=AwardedPenalty.P2)
    )
    assert (ruling.penalty, ruling.goal_awarded, ruling.spot) == (
        PenaltyNumber.P2,
        False,
        Point(-120.0, 0.0),
    )
    assert [r.key for r in ruling.reasons] == ["p1_not_to_save_a_goal", "p2_thirty_yard_line"]


def test_where_the_foul_happened_is_the_spot_of_a_penalty_2_the_fouled_team_takes_there() -> None:
    ruling = decide_recognition(
        foul(
            in_vicinity_of_goal=False,
            awarded_if_not_penalty_1=AwardedPenalty.P2,
            p2_choice=Penalty2Choice.SPOT,
            foul_spot=Point(-95.0, 20.0),
        )
    )
    assert ruling.spot == Point(-95.0, 20.0)


def test_a_penalty_5a_is_taken_where_the_ball_was_on_a_shorter_field() -> None:
    ruling = decide_recognition(
        foul(
            deliberate=False,
            awarded_if_not_penalty_1=AwardedPenalty.P5A,
            field=Field(length=250.0, width=100.0, boarded=False),
            ball=Point(10.0, 50.0),
        )
    )
    assert (ruling.penalty, ruling.spot) == (PenaltyNumber.P5A, Point(10.0, 45.0))


def test_penalty_7_and_10_may_be_added_at_the_umpires_discretion() -> None:
    ruling = decide_recognition(foul(dangerous=True, player_disabled=True))
    assert ruling.may_also_award == (PenaltyNumber.P7, PenaltyNumber.P10)
    assert [r.key for r in ruling.reasons][-2:] == [
        "p7_award_at_umpires_discretion",
        "p10_deliberate_dangerous_foul",
    ]
    later = decide_recognition(foul(player_disabled=True, play_resumed=True))
    assert later.may_also_award == ()
    assert later.reasons[-1].key == "p7_only_at_time_of_foul"
    assert decide_recognition(foul(play_resumed=True)).may_also_award == ()


def test_the_awarded_penalty_is_ignored_when_the_foul_is_a_penalty_1() -> None:
    ruling = decide_recognition(foul(awarded_if_not_penalty_1=AwardedPenalty.P4))
    assert ruling.penalty is PenaltyNumber.P1


@pytest.mark.parametrize(
    ("facts", "error", "field"),
    [
        ({"to_save_a_goal": False}, MissingFact, "awarded_if_not_penalty_1"),
        (
            {"to_save_a_goal": False, "awarded_if_not_penalty_1": AwardedPenalty.P5A},
            MissingFact,
            "ball",
        ),
        (
            {
                "to_save_a_goal": False,
                "awarded_if_not_penalty_1": AwardedPenalty.P2,
                "p2_choice": Penalty2Choice.SPOT,
                "foul_spot": Point(0.0, 90.0),
            },
            OffField,
            "foul_spot",
        ),
    ],
)
def test_impossible_recognition_facts(
    facts: dict[str, object], error: type[FactError], field: str
) -> None:
    with pytest.raises(error) as excinfo:
        foul(**facts)
    assert (excinfo.value.field, excinfo.value.code) == (field, error.code)


def test_the_judgements_are_required_facts() -> None:
    with pytest.raises(MissingFact) as excinfo:
        rule_json("recognise_penalty", {"dangerous": True, "deliberate": False})
    assert excinfo.value.field == "in_vicinity_of_goal"
    with pytest.raises(MissingFact) as excinfo:
        rule_json(
            "recognise_penalty",
            {
                "dangerous": True,
                "deliberate": False,
                "in_vicinity_of_goal": True,
                "to_save_a_goal": False,
                "awarded_if_not_penalty_1": "5a",
            },
        )
    assert "Penalty 5a" in excinfo.value.expected


@pytest.mark.parametrize("penalty", ["1", "6", "7"])
def test_only_a_penalty_for_a_foul_may_be_awarded_instead(penalty: str) -> None:
    facts = {
        "dangerous": True,
        "deliberate": False,
        "in_vicinity_of_goal": True,
        "to_save_a_goal": False,
        "awarded_if_not_penalty_1": penalty,
    }
    with pytest.raises(InvalidChoice) as excinfo:
        rule_json("recognise_penalty", facts)
    assert excinfo.value.field == "awarded_if_not_penalty_1"
