"""The field diagram marks what the facts say (ball, foul, crossing, players), never an answer."""

import re

import pytest

from scenarios.diagram import (
    LINE_EDGE,
    Answer,
    around,
    diagram_for,
    hidden_points,
    render,
    ruled_points,
)
from scenarios.models import Section
from tests.content import _texts, make_scenario

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


def test_a_recognised_foul_taken_from_its_spot_hides_the_foul_penalty_1_or_not():
    foul = {
        "dangerous": True,
        "deliberate": False,
        "in_vicinity_of_goal": False,
        "to_save_a_goal": True,
        "awarded_if_not_penalty_1": "2",
        "p2_choice": "spot",
        "foul_spot": {"x": -80, "y": 25},
    }
    assert ruled_points(foul) == [(-80.0, 25.0)]
    assert names(foul) == []
    # The same foul in the vicinity of the goal is a Penalty 1: the ball goes to the centre.
    # The foul is hidden all the same: drawn only for a Penalty 1, it would tell which it is.
    penalty_1 = {**foul, "in_vicinity_of_goal": True, "foul_spot": {"x": -140, "y": 5}}
    assert ruled_points(penalty_1) == [(0.0, 0.0)]
    assert (-140.0, 5.0) in hidden_points(penalty_1)
    assert names(penalty_1) == []
    # From the 30-yard line the foul is the spot of neither: drawn either way.
    assert names({**penalty_1, "p2_choice": "thirty_yard_line"}) == ["foul"]
    assert names({**foul, "p2_choice": "thirty_yard_line"}) == ["foul"]


def test_the_ball_of_a_penalty_5a_or_1_is_hidden_either_way():
    facts = {
        "dangerous": False,
        "deliberate": True,
        "in_vicinity_of_goal": True,
        "to_save_a_goal": True,
        "awarded_if_not_penalty_1": "5a",
        "ball": {"x": -135, "y": -20},
    }
    assert names(facts) == []  # a Penalty 1: the centre is the answer, the ball its rival
    assert names({**facts, "to_save_a_goal": False}) == []  # a Penalty 5a from the ball


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
    assert '<circle class="ball" cx="-95" cy="20"' in field
    assert 'class="foul"' not in field  # the foul is the spot: the answer
    assert f">{left} ↑</text>" in field and f">{right} ↓</text>" in field
    assert sides in body


def _labels(svg, which):
    """The numbers a view's label group writes: [(x, text)], and whether above the field."""
    group = re.search(rf'<g class="line-labels (above|inside) {which}">(.*?)</g>', svg)
    assert group, which
    found = re.findall(r'<text class="line-label[^"]*" x="([-\d.]+)"[^>]*>([^<]+)</text>', group[2])
    return [(float(x), text) for x, text in found], group[1] == "above"


def test_every_line_across_the_field_has_its_number_and_the_centre_its_yards():
    d = diagram_for(P2_SPOT)
    assert [(line.x, line.label) for line in d.cross_lines] == [
        (-120, "30"), (-110, "40"), (-90, "60"), (0, "150"), (90, "60"), (110, "40"), (120, "30")
    ]  # fmt: skip
    # The 40s sit between the 30 and the 60: their numbers give way first when crowded.
    assert [line.label for line in d.cross_lines if line.minor] == ["40", "40"]


def test_the_close_up_of_a_place_question_numbers_its_own_lines():
    d = diagram_for(P2_SPOT)
    svg = str(render(d, "en", interactive=True))
    whole, above = _labels(svg, "for-whole")
    assert above and [text for _x, text in whole] == ["30", "40", "60", "150", "60", "40", "30"]
    # The goal's half: its three lines and the centre, written above the top side too.
    half, above = _labels(svg, "for-zoom")
    assert above and half == [(-120, "30"), (-110, "40"), (-90, "60"), (0, "150")]
    assert 'class="field interactive"' in svg  # the whole field first; field.js zooms a phone


def test_a_close_up_inside_the_field_writes_the_numbers_inside_it_and_shows_a_line():
    d = diagram_for(P2_SPOT)
    # Around two spots between the 60-yard line and the centre, far from any line: the view
    # is widened to the nearest one.
    view = around(d, [(-60, 10), (-50, 10)])
    assert view.min_x <= -90 - LINE_EDGE or view.max_x >= LINE_EDGE
    svg = str(render(d, "en", view=view, answers=[Answer((-60, 10), 2)]))
    assert 'class="field zoomed"' in svg
    numbers, above = _labels(svg, "for-zoom")
    assert not above and numbers
    assert all(view.min_x < x < view.max_x for x, _text in numbers)
    # Written along the top of the view, which is inside the field.
    assert f'y="{-view.max_y:g}"' in svg


@pytest.mark.parametrize("x", [-150, -130, -100, -75, -45, 0, 45, 75, 100, 130, 150])
def test_every_close_up_shows_a_numbered_line(x):
    d = diagram_for(P2_SPOT)
    view = around(d, [(x, 0)])
    assert any(view.min_x + LINE_EDGE <= line.x <= view.max_x - LINE_EDGE for line in d.cross_lines)
