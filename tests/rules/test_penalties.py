"""Rule 37: penalty spots, positions, interference, Penalty 7 and the ceiling after it."""

import pytest

from polotrainer.rules import (
    CeilingSituation,
    Field,
    Penalty2Choice,
    Penalty7Situation,
    PenaltyInterferenceSituation,
    PenaltyPositionsSituation,
    PenaltySpotSituation,
    PlacedPlayer,
    Player,
    PlayerStatus,
    Point,
    Requirement,
    SpotPenalty,
    Team,
    decide_ceiling,
    decide_penalty_7,
    decide_penalty_interference,
    decide_penalty_positions,
    decide_penalty_spot,
)
from polotrainer.rules.errors import (
    DuplicateId,
    FactError,
    Inconsistent,
    MissingFact,
    OffField,
    OutOfRange,
    TooFewPlayers,
    TooManyPlayers,
    UnknownPenalty,
)

P = SpotPenalty
FOULING, FOULED = Team.FOULING, Team.FOULED


def keys(ruling: object) -> list[str]:
    return [str(r.key) for r in ruling.reasons]  # type: ignore[attr-defined]


# --- spots --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("penalty", "spot", "key"),
    [
        (P.P2, Point(-120, 0), "p2_thirty_yard_line"),
        (P.P3, Point(-110, 0), "p3_forty_yard_line"),
        (P.P4, Point(-90, 0), "p4_sixty_yard_line"),
        (P.P5B, Point(0, 0), "p5b_centre"),
    ],
)
def test_fixed_spots_are_in_front_of_the_goal(penalty: SpotPenalty, spot: Point, key: str) -> None:
    ruling = decide_penalty_spot(PenaltySpotSituation(penalty))
    assert ruling.spot == spot
    assert ruling.taken_as is penalty
    assert not ruling.goal_awarded
    assert keys(ruling) == [key]


def test_lines_follow_a_shorter_field() -> None:
    ruling = decide_penalty_spot(PenaltySpotSituation(P.P3, field=Field(length=250)))
    assert ruling.spot == Point(-85, 0)


def test_penalty_1_awards_a_goal_and_restarts_with_5b_and_change_of_direction() -> None:
    ruling = decide_penalty_spot(PenaltySpotSituation(P.P1))
    assert (ruling.spot, ruling.taken_as, ruling.goal_awarded, ruling.change_of_direction) == (
        Point(0, 0),
        P.P5B,
        True,
        True,
    )
    assert [r.ref for r in ruling.reasons] == ["37.1", "37.5b"]


def test_penalty_2_from_the_spot_is_where_the_foul_occurred() -> None:
    s = PenaltySpotSituation(P.P2, p2_choice=Penalty2Choice.SPOT, foul_spot=Point(-60, 30))
    assert decide_penalty_spot(s).spot == Point(-60, 30)
    assert keys(decide_penalty_spot(s)) == ["p2_spot_of_foul"]


def test_penalty_5a_is_where_the_ball_was() -> None:
    ruling = decide_penalty_spot(PenaltySpotSituation(P.P5A, ball=Point(40, -20)))
    assert ruling.spot == Point(40, -20)
    assert keys(ruling) == ["p5a_spot_where_ball_was"]


@pytest.mark.parametrize("y", [80, 77, -80])
def test_penalty_5a_ball_against_the_boards_moves_5_yards_in(y: float) -> None:
    ruling = decide_penalty_spot(PenaltySpotSituation(P.P5A, ball=Point(10, y)))
    assert ruling.spot == Point(10, 75 if y > 0 else -75)
    assert keys(ruling) == ["p5a_spot_where_ball_was", "p5a_five_yards_from_sides"]


def test_penalty_6_is_on_the_60_yard_line_opposite_the_crossing() -> None:
    ruling = decide_penalty_spot(PenaltySpotSituation(P.P6, crossing_y=-25))
    assert ruling.spot == Point(-90, -25)
    assert keys(ruling) == ["p6_spot_opposite_crossing"]


def test_penalty_6_far_out_on_a_200_wide_unboarded_field_is_40_from_centre() -> None:
    field = Field(width=200, boarded=False)
    ruling = decide_penalty_spot(PenaltySpotSituation(P.P6, field=field, crossing_y=-95))
    assert ruling.spot == Point(-90, -40)
    assert keys(ruling) == ["p6_spot_opposite_crossing", "p6_no_more_than_40_from_centre"]


@pytest.mark.parametrize(
    ("facts", "error", "field"),
    [
        ({"penalty": P.P2, "p2_choice": Penalty2Choice.SPOT}, MissingFact, "foul_spot"),
        (
            {"penalty": P.P2, "p2_choice": Penalty2Choice.SPOT, "foul_spot": Point(0, 90)},
            OffField,
            "foul_spot",
        ),
        ({"penalty": P.P5A}, MissingFact, "ball"),
        ({"penalty": P.P5A, "ball": Point(151, 0)}, OffField, "ball"),
        ({"penalty": P.P6}, MissingFact, "crossing_y"),
        ({"penalty": P.P6, "crossing_y": 81.0}, OffField, "crossing_y"),
        ({"penalty": P.P6, "crossing_y": 3.0}, Inconsistent, "crossing_y"),
    ],
)
def test_impossible_spot_facts_are_refused(
    facts: dict[str, object], error: type[FactError], field: str
) -> None:
    with pytest.raises(error) as excinfo:
        PenaltySpotSituation(**facts)  # type: ignore[arg-type]
    assert excinfo.value.field == field
    assert excinfo.value.code == error.code


# --- positions ----------------------------------------------------------------------------------


def positions(penalty: SpotPenalty, *players: PlacedPlayer, **facts: object) -> object:
    return decide_penalty_positions(PenaltyPositionsSituation(penalty, players, **facts))  # type: ignore[arg-type]


def placed(
    pid: str, team: Team, x: float, y: float, status: PlayerStatus = PlayerStatus.ON_FIELD
) -> PlacedPlayer:
    return PlacedPlayer(pid, team, Point(x, y), status)


def test_penalty_2_from_30_all_the_fouling_team_behind_the_back_line_outside_the_goal() -> None:
    ruling = positions(
        P.P2,
        placed("B1", FOULING, -155, 20),
        placed("B2", FOULING, -140, 20),
        placed("B3", FOULING, -152, 0),
        placed("B4", FOULING, -100, 0, PlayerStatus.RETURNING),
        placed("R1", FOULED, -125, 0),
    )
    assert ruling.out_of_position == ("B2", "B3", "B4")  # type: ignore[attr-defined]
    assert ruling.requirements == (Requirement.BEHIND_BACK_LINE, Requirement.OUTSIDE_GOAL)  # type: ignore[attr-defined]
    assert ruling.fouling_may_enter_after_hit is False  # type: ignore[attr-defined]
    assert keys(ruling) == ["p2_thirty_positions", "p2_no_entry_once_in_play"]


def test_penalty_2_from_the_spot_30_yards_from_the_ball_and_outside_the_goal() -> None:
    ruling = positions(
        P.P2,
        placed("B1", FOULING, -145, 10),
        placed("B2", FOULING, -151, 2),
        placed("B3", FOULING, -100, 30),
        placed("B4", FOULING, -40, 0),
        p2_choice=Penalty2Choice.SPOT,
        ball=Point(-130, 0),
    )
    assert ruling.out_of_position == ("B1", "B2")  # type: ignore[attr-defined]
    assert [(b.player, b.requirement) for b in ruling.breaches] == [  # type: ignore[attr-defined]
        ("B1", Requirement.THIRTY_YARDS_FROM_BALL),
        ("B2", Requirement.THIRTY_YARDS_FROM_BALL),
        ("B2", Requirement.OUTSIDE_GOAL),
    ]
    assert keys(ruling)[0] == "p2_spot_positions"


def test_penalty_3_fouled_behind_the_40_fouling_behind_the_back_line() -> None:
    ruling = positions(
        P.P3,
        placed("R1", FOULED, -115, 0),
        placed("R2", FOULED, -130, 0, PlayerStatus.RETURNING),
        placed("R3", FOULED, -109, 5),
        placed("B1", FOULING, -150, 30),
        placed("B2", FOULING, -100, 0, PlayerStatus.OFF_FIELD),
        placed("B3", FOULING, -153, -3),
    )
    assert [(b.player, b.requirement) for b in ruling.breaches] == [  # type: ignore[attr-defined]
        ("R1", Requirement.BEHIND_FORTY_YARD_LINE),
        ("B1", Requirement.BEHIND_BACK_LINE),
        ("B3", Requirement.OUTSIDE_GOAL),
    ]
    assert ruling.fouling_may_enter_after_hit is False  # type: ignore[attr-defined]
    assert keys(ruling) == ["p3_positions", "p3_undefended_no_entry"]


def test_a_defended_penalty_3_lets_the_fouling_team_enter_once_in_play() -> None:
    ruling = positions(P.P3, placed("B1", FOULING, -155, 30), defended=True)
    assert ruling.fouling_may_enter_after_hit is True  # type: ignore[attr-defined]
    assert ruling.breaches == ()  # type: ignore[attr-defined]
    assert keys(ruling) == ["p3_positions", "p3_defended_entry"]


@pytest.mark.parametrize("penalty", [P.P4, P.P6])
def test_penalties_4_and_6_fouling_team_behind_the_30(penalty: SpotPenalty) -> None:
    ruling = positions(
        penalty,
        placed("B1", FOULING, -120, 0),
        placed("B2", FOULING, -119, 0),
        placed("B3", FOULING, 0, 0, PlayerStatus.RETURNING),
        placed("R1", FOULED, -130, 0),
    )
    assert ruling.out_of_position == ("B2",)  # type: ignore[attr-defined]
    assert ruling.requirements == (Requirement.BEHIND_THIRTY_YARD_LINE,)  # type: ignore[attr-defined]
    assert ruling.fouling_may_enter_after_hit is True  # type: ignore[attr-defined]
    assert keys(ruling) == [f"p{penalty.value}_positions"]


def test_penalty_5a_fouling_team_30_yards_away_and_between_ball_and_goal() -> None:
    ruling = positions(
        P.P5A,
        placed("B1", FOULING, -20, 0),
        placed("B2", FOULING, 20, 0),
        placed("B3", FOULING, 40, 40, PlayerStatus.OFF_FIELD),
        placed("B4", FOULING, -50, 0),
        placed("R1", FOULED, 1, 1),
        ball=Point(0, 0),
    )
    assert [(b.player, b.requirement) for b in ruling.breaches] == [  # type: ignore[attr-defined]
        ("B1", Requirement.THIRTY_YARDS_FROM_BALL),
        ("B2", Requirement.THIRTY_YARDS_FROM_BALL),
        ("B2", Requirement.BETWEEN_BALL_AND_GOAL),
    ]
    assert keys(ruling) == ["p5a_positions"]


def test_penalty_5b_measures_from_the_centre() -> None:
    ruling = positions(P.P5B, placed("B1", FOULING, -29, 0), placed("B2", FOULING, -31, 0))
    assert ruling.out_of_position == ("B1",)  # type: ignore[attr-defined]
    assert keys(ruling) == ["p5b_positions"]


@pytest.mark.parametrize(
    ("penalty", "players", "facts", "error", "field"),
    [
        (P.P1, (), {}, UnknownPenalty, "penalty"),
        (P.P5A, (), {}, MissingFact, "ball"),
        (P.P2, (), {"p2_choice": Penalty2Choice.SPOT, "ball": Point(0, 99)}, OffField, "ball"),
        (
            P.P4,
            (placed("B1", FOULING, 0, 0), placed("B1", FOULING, 0, 0)),
            {},
            DuplicateId,
            "players[1].id",
        ),
        (
            P.P4,
            tuple(placed(f"B{i}", FOULING, 0, 0) for i in range(5)),
            {},
            TooManyPlayers,
            "players",
        ),
    ],
)
def test_impossible_positions_are_refused(
    penalty: SpotPenalty,
    players: tuple[PlacedPlayer, ...],
    facts: dict[str, object],
    error: type[FactError],
    field: str,
) -> None:
    with pytest.raises(error) as excinfo:
        PenaltyPositionsSituation(penalty, players, **facts)  # type: ignore[arg-type]
    assert (excinfo.value.field, excinfo.value.code) == (field, error.code)


# --- interference -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("penalty", "entered", "scored", "wide", "outcome", "key"),
    [
        (P.P2, True, True, False, "goal", "p2_interference_goal"),
        (P.P2, True, False, True, "retake", "p2_interference_retake"),
        (P.P2, False, True, True, "stands", "p2_hit_stands"),
        (P.P2, True, False, False, "stands", "p2_hit_stands"),
        (P.P3, True, True, False, "goal", "p3_interference_goal"),
        (P.P3, True, False, True, "retake", "p3_interference_retake"),
        (P.P3, False, False, False, "stands", "p3_hit_stands"),
        (P.P4, True, True, False, "goal", "p4_procedure_goal"),
        (P.P4, True, False, True, "stands", "p4_hit_stands"),
        (P.P4, False, True, False, "stands", "p4_hit_stands"),
    ],
)
def test_interference_with_a_penalty(
    penalty: SpotPenalty, entered: bool, scored: bool, wide: bool, outcome: str, key: str
) -> None:
    ruling = decide_penalty_interference(
        PenaltyInterferenceSituation(penalty, entered, scored, wide)
    )
    assert ruling.outcome == outcome
    assert keys(ruling) == [key]


def test_interference_applies_to_penalties_2_3_4_only() -> None:
    with pytest.raises(UnknownPenalty) as excinfo:
        PenaltyInterferenceSituation(P.P5A)
    assert excinfo.value.field == "penalty"


# --- Penalty 7 ----------------------------------------------------------------------------------

BLUE = (Player("B1", 5), Player("B2", 4), Player("B3", 2), Player("B4", 1))


def test_penalty_7_the_nearest_handicap_above_is_designated() -> None:
    ruling = decide_penalty_7(Penalty7Situation(2, BLUE))
    assert ruling.designatable == ("B2",)
    assert not ruling.any_may_be_designated
    assert (ruling.minutes_allowed, ruling.three_a_side) == (15, True)
    assert "p7_nearest_above" in keys(ruling)


def test_penalty_7_ties_above_may_all_be_designated() -> None:
    team = (Player("B1", 5), Player("B2", 5), Player("B3", 7))
    assert decide_penalty_7(Penalty7Situation(3, team)).designatable == ("B1", "B2")


def test_penalty_7_none_above_any_may_be_designated_3f_example_1() -> None:
    ruling = decide_penalty_7(Penalty7Situation(6, BLUE))
    assert ruling.any_may_be_designated
    assert ruling.designatable == ("B1", "B2", "B3", "B4")
    assert "p7_any_when_none_above" in keys(ruling)


def test_penalty_7_3f_example_2_a_7_goaler_disabled_any_red_player_may_be_designated() -> None:
    red = (Player("R1", 5), Player("R2", 3), Player("R3", 1), Player("R4", 1))
    ruling = decide_penalty_7(Penalty7Situation(7, red))
    assert ruling.any_may_be_designated
    assert "R1" in ruling.designatable


def test_penalty_7_equal_handicaps_count_as_none_above() -> None:
    ruling = decide_penalty_7(Penalty7Situation(5, BLUE))
    assert ruling.any_may_be_designated
    assert len(ruling.designatable) == 4


def test_penalty_7_negative_handicap_disabled_player() -> None:
    team = (Player("B1", -1), Player("B2", 0), Player("B3", 2))
    assert decide_penalty_7(Penalty7Situation(-1, team)).designatable == ("B2",)


def test_penalty_7_with_a_qualified_substitute_no_one_is_removed() -> None:
    ruling = decide_penalty_7(Penalty7Situation(3, BLUE, substitute_offered=True))
    assert (ruling.outcome, ruling.designatable, ruling.three_a_side) == ("substitute", (), False)
    assert ruling.minutes_allowed == 15
    assert "p7_qualified_substitute" in keys(ruling)


def test_penalty_7_after_play_resumed_21d_gives_10_minutes() -> None:
    ruling = decide_penalty_7(
        Penalty7Situation(3, BLUE, substitute_offered=True, play_resumed=True)
    )
    assert (ruling.outcome, ruling.minutes_allowed) == ("cannot_be_exacted", 10)
    assert [r.ref for r in ruling.reasons] == ["37.7.applying", "21.d"]


@pytest.mark.parametrize(
    ("disabled", "team", "error", "field"),
    [
        (11, BLUE, OutOfRange, "disabled_handicap"),
        (2, (*BLUE[:3], Player("B4", -3)), OutOfRange, "fouling_players[3].handicap"),
        (2, (*BLUE, Player("B5", 1)), TooManyPlayers, "fouling_players"),
        (2, (), TooFewPlayers, "fouling_players"),
        (2, (Player("B1", 1), Player("B1", 2)), DuplicateId, "fouling_players[1].id"),
    ],
)
def test_impossible_penalty_7_facts(
    disabled: int, team: tuple[Player, ...], error: type[FactError], field: str
) -> None:
    with pytest.raises(error) as excinfo:
        Penalty7Situation(disabled, team)
    assert (excinfo.value.field, excinfo.value.code) == (field, error.code)


# --- ceiling ------------------------------------------------------------------------------------


def test_the_ceiling_is_the_higher_team_plus_handicap_goals() -> None:
    ruling = decide_ceiling(
        CeilingSituation(
            (Player("B1", 2), Player("B2", 2), Player("B4", 1)),
            (Player("R2", 3), Player("R3", 1), Player("R4", 1)),
            fouling_goals_received=2,
        )
    )
    assert (ruling.ceiling, ruling.fouled_max_on_field, ruling.fouling_max_on_field) == (7, 7, 5)


def test_the_fouled_team_received_goals() -> None:
    ruling = decide_ceiling(
        CeilingSituation(
            (Player("B1", 2), Player("B2", 2), Player("B4", 1)),
            (Player("R2", 3), Player("R3", 4), Player("R4", 1)),
            fouled_goals_received=1,
        )
    )
    assert (ruling.ceiling, ruling.fouled_max_on_field, ruling.fouling_max_on_field) == (8, 7, 8)


THREE = (Player("A1", 1), Player("A2", 1), Player("A3", 1))
OTHER = (Player("C1", 1), Player("C2", 1), Player("C3", 1))


@pytest.mark.parametrize(
    ("facts", "error", "field"),
    [
        ({"fouled_players": (*THREE, Player("A4", 1))}, TooManyPlayers, "fouled_players"),
        ({"fouling_players": THREE}, DuplicateId, "fouling_players[0].id"),
        ({"disabled": ("A1",)}, Inconsistent, "disabled[0]"),
        ({"removed": ("X", "C2")}, Inconsistent, "removed[1]"),
        ({"fouled_goals_received": -1}, OutOfRange, "fouled_goals_received"),
        (
            {"fouled_goals_received": 1, "fouling_goals_received": 1},
            Inconsistent,
            "fouling_goals_received",
        ),
    ],
)
def test_impossible_ceiling_facts(
    facts: dict[str, object], error: type[FactError], field: str
) -> None:
    base: dict[str, object] = {"fouled_players": THREE, "fouling_players": OTHER}
    with pytest.raises(error) as excinfo:
        CeilingSituation(**(base | facts))  # type: ignore[arg-type]
    assert (excinfo.value.field, excinfo.value.code) == (field, error.code)
