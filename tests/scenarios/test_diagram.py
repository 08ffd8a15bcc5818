"""The field diagram marks what the facts say (ball, foul, crossing, players), never an answer."""

import pytest

from scenarios.diagram import diagram_for, ruled_points
from scenarios.models import Section

from .conftest import _texts, make_scenario

P2_SPOT = {"penalty": "2", "p2_choice": "spot", "foul_spot": {"x": -110, "y": -20}}


def names(facts):
    return [name for name, _ in diagram_for(facts).marks]


def test_the_ball_and_the_foul_are_separate_marks_where_the_facts_put_them():
    # A Penalty 2 from the 30-yard line: the foul is not the answer, so both are drawn.
    d = diagram_for({**P2_SPOT, "p2_choice": "thirty_yard_line", "ball": {"x": -95, "y": -20}})
    assert (d.foul.x, d.foul.y) == (-110, -20)
    assert (d.ball.x, d.ball.sy) == (-95, 20)  # the SVG's y points down
    assert names({**P2_SPOT, "p2_choice": "thirty_yard_line"}) == ["foul"]


def test_the_foul_is_not_drawn_where_the_penalty_2_is_taken_from_it():
    d = diagram_for({**P2_SPOT, "ball": {"x": -95, "y": -20}})
    assert d.foul is None
    assert names({**P2_SPOT, "ball": {"x": -95, "y": -20}}) == ["ball"]


def test_the_ball_is_not_drawn_where_the_penalty_5a_is_taken_from_it():
    facts = {"penalty": "5a", "ball": {"x": 20, "y": 35}, "foul_spot": {"x": 40, "y": 35}}
    assert ruled_points(facts) == [(20.0, 35.0)]
    assert names(facts) == ["foul"]


def test_a_ball_near_the_boards_is_drawn_because_the_spot_is_five_yards_in():
    facts = {"penalty": "5a", "ball": {"x": 0, "y": 79}}
    assert ruled_points(facts) == [(0.0, 75.0)]
    assert names(facts) == ["ball"]


def test_positions_draw_the_ball_and_every_player_the_engine_rules_no_point_for_them():
    facts = {
        "penalty": "2",
        "p2_choice": "spot",
        "ball": {"x": -100, "y": 20},
        "players": [
            {"id": "R1", "team": "fouling", "position": {"x": -125, "y": 20}},
            {"id": "B1", "team": "fouled", "position": {"x": -100, "y": 20}},
        ],
    }
    assert ruled_points(facts) == []
    assert names(facts) == ["ball", "player red 1", "player blue 1"]


def test_a_safety_draws_the_crossing_on_the_end_line():
    d = diagram_for({"penalty": "6", "crossing_y": 30})
    assert (d.crossing.x, d.crossing.y) == (-150, 30)
    assert names({"penalty": "6", "crossing_y": 30}) == ["crossing"]


# --- on the page ---------------------------------------------------------------------------------

FROM_THE_SPOT = {
    "slug": "t-p2-spot",
    "section": "37.2",
    "kind": "penalty_spot",
    "cites": ["37.2"],
    "title": _texts("Punizione 2 dal punto", "Penalty 2 from the spot"),
    "situation": _texts(
        "Sei l'Arbitro. Fallo a 40 yarde, 20 a destra; la palla era 15 yarde più avanti.",
        "You are the umpire. Foul 40 yards out, 20 right; the ball was 15 yards further.",
    ),
    "facts": {**P2_SPOT, "ball": {"x": -95, "y": -20}},
    "question": [{"id": "spot", "ask": "spot", "prompt": _texts("Dove?", "Where?")}],
}


@pytest.fixture
def from_the_spot(rulebook):
    Section.objects.create(ref="37.2", rule_id=37, position=9, title_it="P2", title_en="P2")
    return make_scenario(FROM_THE_SPOT)


@pytest.mark.parametrize(
    ("lang", "left", "right", "sides"),
    [
        ("en", "left", "right", "as seen from behind the fouling team's goal"),
        ("it", "sinistra", "destra", "viste da dietro la porta della squadra che ha commesso"),
    ],
)
def test_the_question_page_draws_the_ball_not_the_answer_and_says_where_left_is(
    client, from_the_spot, lang, left, right, sides
):
    body = client.get(f"/{lang}/practice/t-p2-spot/0/").content.decode()
    field = body[
        body.index('<svg class="field') : body.index("</svg>", body.index('<svg class="field'))
    ]
    assert '<circle class="ball" cx="-95.0" cy="20.0"' in field
    assert 'class="foul"' not in field  # the foul is the spot: the answer
    assert f">{left} ↑</text>" in field and f">{right} ↓</text>" in field
    assert sides in body
