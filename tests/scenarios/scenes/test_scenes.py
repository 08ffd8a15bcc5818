"""Scenes as data: facts in, key frames out (scenarios/scenes.py), for every case of cases.toml
and for 40 seeds of every bundled scenario a scene family plays."""

import math
import tomllib
from pathlib import Path
from typing import Any

import pytest

from polotrainer.rules import rule_json
from scenarios import scenes
from scenarios.diagram import hidden_points

CASES = tomllib.loads((Path(__file__).parent / "cases.toml").read_text("utf-8"))["case"]


def scene_of(case: dict[str, Any], seed: int = 1) -> scenes.Scene:
    ruling = rule_json(case["kind"], case["facts"])
    return scenes.scene_for("case", seed, case["facts"], case["values"], ruling, kind=case["kind"])


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
@pytest.mark.parametrize("seed", [0, 1, 7, 41])
def test_the_scene_follows_the_facts(case: dict[str, Any], seed: int) -> None:
    scene = scene_of(case, seed)
    expect = case["expect"]
    assert scene.family == expect["family"]
    assert scenes.flaws(scene, hidden_points(case["facts"])) == []
    if "crossing_y" in expect:
        crossing = scene.crossing()
        assert crossing is not None
        assert abs(crossing[1] - expect["crossing_y"]) <= scenes.ON_THE_SPOT
    if "foul_at" in expect:
        foul = scene.event(scenes.EventKind.FOUL)
        assert foul is not None
        assert math.dist((foul.x, foul.y), expect["foul_at"]) <= scenes.ON_THE_SPOT
    if "glance" in expect:
        glance = scene.event(scenes.EventKind.GLANCE)
        assert (glance.detail if glance else "") == expect["glance"]
    if "rider_team" in expect:
        glance = scene.event(scenes.EventKind.GLANCE)
        assert glance is not None and scene.track(glance.actor).team == expect["rider_team"]
    if "events" in expect:
        assert [e.kind.value for e in scene.events] == expect["events"]
    assert len(scene.reveal) == expect["reveal"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_the_stop_comes_before_the_spot_appears(case: dict[str, Any]) -> None:
    """The page gets nothing after the stop and no ruled spot; every event is before it."""
    scene = scene_of(case)
    shown = scene.as_json()
    assert "reveal" not in shown
    assert all(k[0] <= shown["stop"] for tr in shown["tracks"] for k in tr["k"])
    assert shown["events"][-1][1] == "whistle_due"
    assert shown["events"][-1][0] == pytest.approx(scene.stop, abs=1e-3)
    text = repr(shown)
    for x, y in scene.reveal:
        assert f"[{round(x, 2)}, {round(y, 2)}]" not in text


def test_a_ball_is_hit_at_real_speed() -> None:
    scene = scene_of(CASES[0])
    ball = scene.track("ball").top_speed()
    rider = max(tr.top_speed() for tr in scene.tracks if not tr.is_ball)
    # A hit ball 25-40 m/s, a canter 8-12 m/s (in yards a second).
    assert 25 * scenes.YARDS_PER_METRE <= ball <= scenes.BALL_TOP_SPEED
    assert 6 * scenes.YARDS_PER_METRE <= rider <= scenes.PLAYER_TOP_SPEED


def test_a_rider_on_the_ruled_spot_is_a_leak() -> None:
    """The check itself: a disc put on the spot the ruling gives is reported."""
    scene = scene_of(CASES[0])
    spot = scene.reveal[0]
    planted = scenes.Track("B1", "blue", "1", (scenes.Key(0.0, spot[0], spot[1]),))
    bad = scenes.Scene(
        scene.family,
        scene.field,
        (*scene.tracks, planted),
        scene.events,
        scene.stop,
        scene.reveal,
        scene.follows,
    )
    assert [f.code for f in scenes.flaws(bad)] == ["leak"]


def test_a_crossing_elsewhere_is_a_contradiction() -> None:
    scene = scene_of(CASES[0])
    moved = scenes.Scene(
        scene.family,
        scene.field,
        scene.tracks,
        scene.events,
        scene.stop,
        scene.reveal,
        {**scene.follows, "crossing_y": 25.0},
    )
    assert [f.code for f in scenes.flaws(moved)] == ["crossing"]


def test_the_same_variant_plays_the_same_scene() -> None:
    assert scene_of(CASES[2], 5) == scene_of(CASES[2], 5)
    assert scene_of(CASES[2], 5) != scene_of(CASES[2], 6)


def test_key_frames_list_every_actor_at_every_key_time() -> None:
    scene = scene_of(CASES[7])
    frames = scene.frames()
    assert frames[0]["t"] == 0.0 and frames[-1]["t"] == scene.stop
    assert all(set(f) == {"t", *(tr.id for tr in scene.tracks)} for f in frames)


def test_no_family_plays_an_injury() -> None:
    assert scenes.family_of("stoppage", {"incident": "injured_player"}) is None
    with pytest.raises(scenes.SceneError):
        scenes.scene_for("x", 1, {"incident": "injured_player"}, {}, {}, kind="stoppage")


def test_the_page_gets_where_everyone_is_at_the_stop() -> None:
    """A track that goes on after the stop ends, for the page, where the actor is at it."""
    case = next(c for c in CASES if c["expect"].get("events") == ["foul", "whistle_due"])
    scene = scene_of(case)
    shown = {tr["id"]: tr["k"] for tr in scene.as_json()["tracks"]}
    for tr in scene.tracks:
        last = shown[tr.id][-1]
        if tr.keys[-1].t > scene.stop:
            assert last[0] == pytest.approx(scene.stop, abs=1e-3)
        x, y = tr.at(scene.stop)  # (a track that ended earlier stays where it ended)
        assert (last[1], last[2]) == (pytest.approx(x, abs=0.01), pytest.approx(y, abs=0.01))
