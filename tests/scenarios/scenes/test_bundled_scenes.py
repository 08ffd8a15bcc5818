"""The families of issue 25 on the bundled content: 40 seeds of every bundled scenario each
family plays (scenarios/content/scenarios/*.toml), each scene following its variant's facts and
the situation's words: who, where, when, what the engine rules."""

import math
import re
import tomllib
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest

from scenarios import content, scenes
from scenarios.content import CONTENT_DIR
from scenarios.diagram import hidden_points
from scenarios.variants import Variant, VariantError, make_variant

SEEDS = range(40)


@cache
def every_bundled_entry() -> tuple[dict[str, Any], ...]:
    entries = []
    for path in sorted((CONTENT_DIR / "scenarios").glob("*.toml")):
        entries += tomllib.loads(path.read_text("utf-8")).get("scenario", [])
    return tuple(entries)


@cache
def played(family: str) -> tuple[tuple[dict[str, Any], Variant, scenes.Scene], ...]:
    """(entry, variant, scene) for 40 seeds of every bundled scenario `family` plays."""
    out = []
    for entry in every_bundled_entry():
        for seed in SEEDS:
            try:
                variant = make_variant(entry["slug"], entry, seed)
            except VariantError:
                continue
            scene = content.scene_of(entry, variant)
            if scene is not None and scene.family == family:
                out.append((entry, variant, scene))
    return tuple(out)


def situation(entry: dict[str, Any], variant: Variant) -> str:
    return variant.render(entry["situation"], "en")


def slugs(family: str) -> set[str]:
    return {entry["slug"] for entry, _, _ in played(family)}


def each(family: str) -> Iterator[tuple[dict[str, Any], Variant, scenes.Scene]]:
    found = played(family)
    assert found, f"no bundled scenario is played by {family}"
    yield from found


NEW = ["stop_for", "inadvertent_whistle", "horn", "lineup"]


@pytest.mark.parametrize("family", NEW)
def test_every_scene_of_the_family_is_fair(family: str) -> None:
    """No flaw (a leak, a contradiction, an impossible speed) on any of the 40 seeds, and the
    page gets nothing after the stop and no ruled spot."""
    for entry, variant, scene in each(family):
        assert scenes.flaws(scene, hidden_points(variant.facts)) == [], entry["slug"]
        shown = scene.as_json()
        assert all(k[0] <= shown["stop"] for tr in shown["tracks"] for k in tr["k"])
        assert shown["events"][-1][1] == "whistle_due"
        assert "reveal" not in shown


def test_the_families_play_the_bundled_scenarios_they_are_for() -> None:
    assert {"r21-player-falls", "r21-lost-helmet", "r21-lodged-ball", "r21-damaged-ball"} <= (
        slugs("stop_for")
    )
    assert {"r21-ex13-mount-falls", "r21-mount-falls-unsound", "r21-ex6-girth-breaks"} <= (
        slugs("stop_for")
    )
    assert {"r21-damaged-equipment", "r21f-who-may-change", "r21-mount-visibly-injured"} <= (
        slugs("stop_for")
    )
    assert slugs("inadvertent_whistle") == {"r21-inadvertent-whistle", "r21l-where-play-restarts"}
    assert slugs("horn") == {
        "r21-ex3-foul-after-horn",
        "r21-foul-at-final-horn",
        "r21-horn-before-or-after",
    }
    assert {e["slug"] for e in every_bundled_entry() if e["kind"] == "penalty_positions"} == slugs(
        "lineup"
    )


def test_a_situation_set_in_a_break_of_play_gets_no_scene() -> None:
    """ "During a break in play", "in the break after period 2": nothing to play."""
    played_slugs = set().union(*(slugs(f) for f in NEW))
    assert "r21-mount-not-visibly-injured" not in played_slugs
    assert "r21f2-who-may-stop-an-injured-horse" not in played_slugs
    assert scenes.family_of("stoppage", {"incident": "mount_injured"}, "With play in progress")
    assert (
        scenes.family_of("stoppage", {"incident": "mount_injured"}, "During a break in play, x")
        is None
    )


_GOAL = re.compile(r"(\d+) yards? from (?:the (?:Red|Blue) |(?:Red|Blue)'s )?goal")


def test_the_incident_befalls_the_named_player_where_the_situation_says() -> None:
    for entry, variant, scene in each("stop_for"):
        text = situation(entry, variant)
        incident = scene.event(scenes.EventKind.INCIDENT)
        assert incident is not None and incident.detail == variant.facts["incident"]
        named = scenes.cast(text)
        if named:
            assert incident.actor == named[0], (entry["slug"], text)
            assert scene.track(named[0]).team == {"R": "red", "B": "blue"}[named[0][0]]
        stated = _GOAL.search(text)
        if stated:
            ball_x = scene.track("ball").at(incident.t)[0]
            assert abs(ball_x - (scene.field.goal_line_x + int(stated.group(1)))) <= 1.0
        away = re.search(r"(\d+) yards? from the play", text)
        if away:
            ball = scene.track("ball").at(incident.t)
            assert math.dist(ball, (incident.x, incident.y)) == pytest.approx(
                float(away.group(1)), abs=1.0
            )
        # When to stop is the question: the scene stops after the incident, whatever the answer.
        assert incident.t < scene.stop


def test_a_fallen_rider_stays_down_and_a_lodged_ball_goes_with_the_horse() -> None:
    for entry, variant, scene in each("stop_for"):
        incident = scene.event(scenes.EventKind.INCIDENT)
        assert incident is not None
        rider = scene.track(incident.actor)
        if incident.detail == "player_falls":
            assert rider.at(scene.stop) == pytest.approx((incident.x, incident.y))
        if incident.detail == "lodged_ball" and variant.facts.get("can_be_dropped"):
            # It drops off at once: the ball is on the ground, left behind, at the stop.
            assert math.dist(scene.track("ball").at(scene.stop), rider.at(scene.stop)) > 5.0
            assert scene.reveal == ()
        elif incident.detail == "lodged_ball":
            ball = scene.track("ball")
            # The horse carries it on: the ball keeps beside the rider from lodging to the stop.
            for t in (incident.t, (incident.t + scene.stop) / 2, scene.stop):
                assert math.dist(ball.at(t), rider.at(t)) <= 2.0
            assert scene.reveal == ((incident.x, incident.y),)  # dead where it first lodged
            carried = re.search(r"another (\d+) yards", situation(entry, variant))
            if carried:
                assert ball.at(scene.stop)[0] == pytest.approx(
                    incident.x - int(carried.group(1)), abs=1.0
                )
        else:
            assert scene.reveal == ()


def test_the_inadvertent_whistle_sounds_where_the_throw_in_is_taken() -> None:
    for entry, variant, scene in each("inadvertent_whistle"):
        text = situation(entry, variant)
        assert [e.kind for e in scene.events] == [
            scenes.EventKind.HIT,
            scenes.EventKind.WHISTLE,
            scenes.EventKind.REST,
            scenes.EventKind.WHISTLE_DUE,
        ]
        whistle = scene.event(scenes.EventKind.WHISTLE)
        rest = scene.event(scenes.EventKind.REST)
        assert whistle is not None and rest is not None
        stated = _GOAL.search(text)
        assert stated, text
        assert whistle.x == pytest.approx(scene.field.goal_line_x + int(stated.group(1)), abs=1.0)
        rolls = re.search(r"another (\d+) yards", text)
        if rolls:
            assert math.dist((whistle.x, whistle.y), (rest.x, rest.y)) == pytest.approx(
                int(rolls.group(1)), abs=1.0
            )
        named = scenes.cast(text)
        if named:
            assert scene.event(scenes.EventKind.HIT).actor == named[0]
        # The engine says where play restarts; the reveal draws it, the page gets it after.
        if variant.ruling["restart_at"] == "where_play_was_stopped":
            assert scene.reveal == ((whistle.x, whistle.y),)
        else:
            assert scene.reveal == ()


def test_the_horn_sounds_before_or_at_the_foul_as_the_facts_say() -> None:
    gaps = {"one second before": 1.0, "half a second after": 0.5, "very instant": 0.0}
    for entry, variant, scene in each("horn"):
        text = situation(entry, variant)
        foul = scene.event(scenes.EventKind.FOUL)
        horn = scene.event(scenes.EventKind.HORN)
        assert foul is not None
        assert foul.actor == scenes.cast(text)[0]
        if variant.facts["timing"] == "before_horn":
            assert horn is None  # 20 seconds before it: the play ends with the whistle
        else:
            assert horn is not None
            gap = next(g for words, g in gaps.items() if words in text)
            assert foul.t - horn.t == pytest.approx(gap)
        assert scene.reveal == ()


def test_a_lineup_stands_every_player_where_the_facts_put_him() -> None:
    for _, variant, scene in each("lineup"):
        placed = {
            p["id"]: (float(p["position"]["x"]), float(p["position"]["y"]))
            for p in variant.facts["players"]
        }
        riders = {tr.id for tr in scene.tracks if not tr.is_ball}
        assert riders == set(placed)
        for pid, spot in placed.items():
            assert math.dist(scene.track(pid).at(scene.stop), spot) <= 0.01
        # Who stands wrong is the engine's, and he stands there like everyone else: he rides
        # to his place as all do, no sooner and no faster than a trot.
        wrong = set(variant.ruling["out_of_position"])
        assert wrong <= riders
        assert all(tr.top_speed() <= scenes.TROT + 0.01 for tr in scene.tracks if not tr.is_ball)
        assert [e.kind for e in scene.events] == [scenes.EventKind.WHISTLE_DUE]


def test_a_lineup_player_off_his_place_is_a_contradiction() -> None:
    scene = played("lineup")[0][2]
    pid, (x, y) = next(iter(scene.follows["positions"].items()))
    moved = tuple(
        scenes.Track(tr.id, tr.team, tr.number, (scenes.Key(0.0, x + 3.0, y),))
        if tr.id == pid
        else tr
        for tr in scene.tracks
    )
    bad = scenes.Scene(
        scene.family, scene.field, moved, scene.events, scene.stop, scene.reveal, scene.follows
    )
    assert [f.code for f in scenes.flaws(bad)] == ["position"]


def test_an_incident_elsewhere_than_the_situation_says_is_a_contradiction() -> None:
    scene = next(s for _, _, s in played("stop_for") if "play_x" in s.follows)
    t, px = scene.follows["play_x"]
    moved = scenes.Scene(
        scene.family,
        scene.field,
        scene.tracks,
        scene.events,
        scene.stop,
        scene.reveal,
        {**scene.follows, "play_x": (t, px + 5.0)},
    )
    assert [f.code for f in scenes.flaws(moved)] == ["where"]
