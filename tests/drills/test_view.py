"""The play's view: a lineup's rider standing behind the back line is inside it."""

from polotrainer.drills.screen import view_box
from polotrainer.rules import rule_json
from scenarios import scenes


def test_a_rider_behind_the_back_line_is_in_the_view() -> None:
    facts = {
        "penalty": "2",
        "p2_choice": "thirty_yard_line",
        "players": [
            {"id": "B2", "team": "fouling", "position": {"x": -160, "y": -30}},
            {"id": "B1", "team": "fouling", "position": {"x": -150, "y": 20}},
            {"id": "R1", "team": "fouled", "position": {"x": -120, "y": 0}},
        ],
    }
    scene = scenes.scene_for(
        "v", 1, facts, {}, rule_json("penalty_positions", facts), kind="penalty_positions"
    )
    left, top, width, height = (float(v) for v in view_box(scene).split())
    for x, y in scene.follows["positions"].values():
        # SVG: y down; a disc needs a few yards round its centre.
        assert left + 3 <= x <= left + width - 3
        assert top + 3 <= -y <= top + height - 3
