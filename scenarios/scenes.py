"""Scenes: a variant's situation played on the field from its facts, as key frames.

A decision drill shows the play at real speed and stops where the whistle is due; the trainee
then has seconds to call it. Nothing is drawn by hand per scenario: a template per *family* of
situations builds the scene from the variant's facts, as the diagram does, and the scene is data
(tracks of key frames, events, the stop), tested as data and animated by the page.

- ``safety``: a ball hit towards the hitter's own end line, directly or off his own mount, a
  post, the boards, a teammate's mallet, or off another player, his mount or an opponent's
  mallet (21.a). The ball crosses the end line where ``crossing_y`` says when the facts say it.
- ``near_goal``: a foul on an attacker near (or far from) the goal the fouling team defends
  (Penalty 1 against 2, 3 or 4, and where the ball goes): the foul happens at ``foul_spot``.
- ``advantage``: a foul while the fouled team keeps the ball (21.b): the whistle now, after the
  next play, or not at all.
- ``stop_for``: a Rule 21 incident in play (a fall, a lame horse, a lost helmet, broken tack or
  equipment, a lodged or damaged ball): when to stop for it.
- ``inadvertent_whistle``: the whistle blown by mistake as the ball is hit; the ball rolls on.
- ``horn``: a foul before, at or just after the horn ending the period.
- ``lineup``: the players of a penalty on their stated places before the hit: who stands wrong?

Where a kind's facts place nothing (Rule 21's incidents, the horn), the scene reads the
situation's English words, as the trainee does: who is named, how far from goal, how far on.

Frame and units are the engine's (docs/engine.md): yards, origin at the centre, the goal in
question on ``x = -L/2``; times in seconds from the start. Speeds are real ones: a canter is
8-12 m/s, a hit ball 25-40 m/s. What varies only for the picture (which side a rider comes
from) is drawn from ``random.Random("scene:<slug>:<seed>")``, never from the ruling: the scene
of a variant is the same forever and says nothing the facts do not.

The scene ends at its stop. The points the engine rules (the spot of a penalty) travel apart,
in ``reveal``, which the page receives only with the answer's feedback.

>>> from polotrainer.rules import rule_json
>>> facts = {"penalty": "6", "crossing_y": 20}
>>> s = scene_for("p6-safety-spot", 1, facts, {"b": 2}, rule_json("penalty_spot", facts))
>>> s.family.value, round(s.crossing()[1], 3)
('safety', 20.0)
"""

import itertools
import math
import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from dataclasses import field as attribute
from enum import StrEnum
from functools import cached_property
from typing import Any, NamedTuple

from polotrainer.rules import FactError, Field, rule_json
from scenarios.diagram import field_of

#: Yards in a metre: speeds are given in m/s, the field in yards.
YARDS_PER_METRE = 1.0936
#: A canter (8-12 m/s) and a hit ball (25-40 m/s), in yards a second.
CANTER = 10.0 * YARDS_PER_METRE
BALL = 32.0 * YARDS_PER_METRE
#: Speeds a scene may use, yards a second: a check fails a track that moves faster.
PLAYER_TOP_SPEED = 12.0 * YARDS_PER_METRE
BALL_TOP_SPEED = 40.0 * YARDS_PER_METRE
#: How long after the moment of decision the scene stops (the whistle is due).
WHISTLE_DELAY = 0.3
#: A point this close to a ruled spot (yards) stands on it.
ON_THE_SPOT = 1.0


class Family(StrEnum):
    SAFETY = "safety"
    NEAR_GOAL = "near_goal"
    ADVANTAGE = "advantage"
    STOP_FOR = "stop_for"
    WHISTLE = "inadvertent_whistle"
    HORN = "horn"
    LINEUP = "lineup"


class EventKind(StrEnum):
    HIT = "hit"
    TOUCH = "touch"  # the ball merely touches a still mallet
    GLANCE = "glance"  # off a mount, a mallet, a player, a post or the boards
    FOUL = "foul"
    CROSSING = "crossing"  # the ball crosses the end line
    PASS = "pass"  # noqa: S105 - the next play: a hit to a teammate
    SHOT = "shot"
    INCIDENT = "incident"  # a Rule 21 incident in play: `detail` is the engine's incident
    WHISTLE = "whistle"  # the umpire's whistle sounds (an inadvertent one)
    REST = "rest"  # the ball comes to rest
    HORN = "horn"  # the horn ends the period
    WHISTLE_DUE = "whistle_due"


@dataclass(frozen=True)
class Key:
    """Where an actor is at time `t`, and (a rider) the heading of his mount in degrees
    (0 along +x, counter-clockwise in the engine's frame)."""

    t: float
    x: float
    y: float
    heading: float = 0.0


@dataclass(frozen=True)
class Track:
    """One actor (a numbered rider in his team's colour, or the ball) and its key frames."""

    id: str
    team: str  # "red", "blue", or "" for the ball
    number: str
    keys: tuple[Key, ...]

    @property
    def is_ball(self) -> bool:
        return self.id == "ball"

    def at(self, t: float) -> tuple[float, float]:
        """Where the actor is at `t` (linear between key frames, still outside them)."""
        keys = self.keys
        if t <= keys[0].t:
            return keys[0].x, keys[0].y
        for a, b in itertools.pairwise(keys):
            if a.t <= t <= b.t:
                share = 0.0 if b.t == a.t else (t - a.t) / (b.t - a.t)
                return a.x + (b.x - a.x) * share, a.y + (b.y - a.y) * share
        return keys[-1].x, keys[-1].y

    def top_speed(self) -> float:
        """The fastest this actor moves between two key frames, yards a second."""
        speeds = [
            math.dist((a.x, a.y), (b.x, b.y)) / (b.t - a.t)
            for a, b in itertools.pairwise(self.keys)
            if b.t > a.t
        ]
        return max(speeds, default=0.0)


@dataclass(frozen=True)
class Event:
    t: float
    kind: EventKind
    x: float
    y: float
    actor: str = ""
    #: What the ball glanced off (the engine's BallTouched value), or the foul's nature.
    detail: str = ""


@dataclass(frozen=True)
class Scene:
    family: Family
    field: Field
    tracks: tuple[Track, ...]
    events: tuple[Event, ...]
    stop: float
    #: The points the engine rules (a penalty's spot): drawn only after answering.
    reveal: tuple[tuple[float, float], ...] = ()
    #: The facts the scene must follow, for its checks: "crossing_y", "foul_spot".
    follows: Mapping[str, Any] = attribute(default_factory=dict)

    def track(self, actor: str) -> Track:
        return next(t for t in self.tracks if t.id == actor)

    def times(self) -> list[float]:
        """Every key frame's time up to the stop, and the stop."""
        found = {k.t for tr in self.tracks for k in tr.keys if k.t <= self.stop}
        return sorted(found | {self.stop})

    def frames(self) -> list[dict[str, Any]]:
        """The key frames: at each key time, where every actor is (the reduced-motion steps)."""
        return [
            {"t": t, **{tr.id: tuple(round(v, 2) for v in tr.at(t)) for tr in self.tracks}}
            for t in self.times()
        ]

    def crossing(self) -> tuple[float, float] | None:
        """Where the ball's path crosses the end line of the goal in question, if it does."""
        line = self.field.goal_line_x
        keys = self.track("ball").keys
        for a, b in itertools.pairwise(keys):
            if a.x > line >= b.x and a.x != b.x:
                share = (a.x - line) / (a.x - b.x)
                return line, a.y + (b.y - a.y) * share
        return None

    def event(self, kind: EventKind) -> Event | None:
        return next((e for e in self.events if e.kind == kind), None)

    def shown_keys(self, track: Track) -> tuple[Key, ...]:
        """A track's key frames up to the stop, ending where the actor is at the stop."""
        keys = [k for k in track.keys if k.t <= self.stop]
        later = [k for k in track.keys if k.t > self.stop]
        if later and (not keys or keys[-1].t < self.stop):
            x, y = track.at(self.stop)
            keys.append(Key(self.stop, x, y, later[0].heading))
        return tuple(keys)

    def as_json(self) -> dict[str, Any]:
        """What the page animates before the answer: no reveal, nothing after the stop."""
        stop = round(self.stop, 3)
        return {
            "field": [self.field.length, self.field.width],
            "stop": stop,
            "tracks": [
                {
                    "id": tr.id,
                    "team": tr.team,
                    "n": tr.number,
                    "k": [
                        [min(round(k.t, 3), stop), round(k.x, 2), round(k.y, 2), round(k.heading)]
                        for k in self.shown_keys(tr)
                    ],
                }
                for tr in self.tracks
            ],
            "events": [
                [round(e.t, 3), e.kind.value, round(e.x, 2), round(e.y, 2), e.actor]
                for e in self.events
                if e.t <= self.stop
            ],
        }


class SceneError(ValueError):
    """The facts are not a situation of any scene family."""


# --- which family -------------------------------------------------------------------------------


#: The incidents of Rule 21 that happen in play and that the `stop_for` family plays: when to
#: stop for each (at once, at a neutral play, not at all) is the decision.
IN_PLAY_INCIDENTS = frozenset(
    {
        "player_falls",
        "mount_falls",
        "mount_injured",
        "lost_helmet",
        "broken_tack",
        "damaged_equipment",
        "lodged_ball",
        "damaged_ball",
    }
)
#: A situation set in a break (not in play) is not played: the scene would contradict it.
_NOT_IN_PLAY = re.compile(r"\b(break in play|break after|between periods)\b", re.IGNORECASE)
#: The horn's timings a play shows (the foul before the horn, or at or slightly after it).
HORN_TIMINGS = frozenset({"before_horn", "at_or_slightly_after_horn"})


def family_of(kind: str, facts: Mapping[str, Any], situation_en: str = "") -> Family | None:
    """The scene family of a scenario's kind and facts, or None when no template plays it; a
    situation the text sets in a break of play (`situation_en`) is not played."""
    if kind == "stoppage" and facts.get("incident") in IN_PLAY_INCIDENTS:
        return None if _NOT_IN_PLAY.search(situation_en) else Family.STOP_FOR
    if kind == "stoppage" and facts.get("incident") == "inadvertent_whistle":
        return Family.WHISTLE
    if kind == "foul_at_horn" and facts.get("timing") in HORN_TIMINGS:
        return Family.HORN
    if kind == "penalty_positions" and _lineup_players(facts):
        return Family.LINEUP
    if kind == "stoppage" and facts.get("incident") == "safety":
        return Family.SAFETY
    if kind == "stoppage" and facts.get("incident") == "foul":
        return None if facts.get("play_already_stopped") else Family.ADVANTAGE
    if kind == "penalty_spot" and str(facts.get("penalty")) == "6":
        return Family.SAFETY
    if kind == "recognise_penalty":
        return Family.NEAR_GOAL
    if kind == "penalty_spot" and str(facts.get("penalty")) in {"2", "3"}:
        return Family.NEAR_GOAL if "foul_spot" in facts else None
    return None


_NAMED = re.compile(r"\b(Red|Blue) #(\d)")


def cast(situation_en: str) -> list[str]:
    """The players the situation names, in order of appearance, as ids (R2, B4).

    >>> cast("Blue #4 fouls Red #2; Red #2 falls, Blue #1 watches")
    ['B4', 'R2', 'B1']
    """
    ids = [f"{team[0]}{n}" for team, n in _NAMED.findall(situation_en)]
    return list(dict.fromkeys(ids))


def scene_for(
    slug: str,
    seed: int,
    facts: Mapping[str, Any],
    values: Mapping[str, Any],
    ruling: Mapping[str, Any],
    *,
    kind: str = "",
    situation_en: str = "",
) -> Scene:
    """The scene of one variant (its facts, values and ruling); SceneError if no family."""
    kind = kind or _kind_of(facts)
    family = family_of(kind, facts, situation_en)
    if family is None:
        raise SceneError(f"no scene family plays {kind} with these facts")
    rng = random.Random(f"scene:{slug}:{seed}")
    named = cast(situation_en) or _named_by_values(values)
    return _BUILDS[family](_Situation(field_of(facts), facts, ruling, named, rng, situation_en))


def _kind_of(facts: Mapping[str, Any]) -> str:
    if "timing" in facts:
        return "foul_at_horn"
    if "players" in facts:
        return "penalty_positions"
    if "incident" in facts:
        return "stoppage"
    if "penalty" in facts:
        return "penalty_spot"
    return "recognise_penalty"


def _named_by_values(values: Mapping[str, Any]) -> list[str]:
    """Players named by parameters when no text is given: who = "B4", b = 2 (Blue), r, n."""
    out = [str(v) for v in values.values() if isinstance(v, str) and re.fullmatch(r"[RB]\d", v)]
    if isinstance(values.get("b"), int):
        out.append(f"B{values['b']}")
    if isinstance(values.get("r"), int):
        out.append(f"R{values['r']}")
    if isinstance(values.get("n"), int):
        out.append(f"R{values['n']}")
    return list(dict.fromkeys(out))


# --- what a family builds from --------------------------------------------------------------------


@dataclass(frozen=True)
class _Where:
    """What the situation's words place (where the facts of a kind place nothing): how far from
    the goal the play is, how far from the play a fallen rider is, how far the ball goes on
    after the whistle (or a lodged ball is carried), and the horn's gap before the foul."""

    goal_yards: float | None = None
    from_play: float | None = None
    further: float | None = None
    horn_gap: float | None = None
    #: The rider the incident befalls is away from the play (not riding off the ball).
    away: bool = False

    _GOAL = re.compile(r"(\d+) yards? from (?:the (?:Red|Blue) |(?:Red|Blue)'s )?goal")
    _PLAY = re.compile(r"(\d+) yards? from the play")
    _FURTHER = re.compile(r"another (\d+) yards")
    _AWAY = re.compile(r"\b(away|far) from the play\b|\bout of the play\b")
    _GAPS = (("one second before", 1.0), ("half a second after", 0.5), ("very instant", 0.0))

    @classmethod
    def of(cls, text: str) -> "_Where":
        def number(pattern: re.Pattern[str]) -> float | None:
            found = pattern.search(text)
            return float(found.group(1)) if found else None

        gap = next((g for words, g in cls._GAPS if words in text), None)
        away = bool(cls._AWAY.search(text))
        return cls(number(cls._GOAL), number(cls._PLAY), number(cls._FURTHER), gap, away)


@dataclass(frozen=True)
class _Situation:
    """What a family builds its scene from: the field, the variant's facts and ruling, the
    players the situation names (ids, in order), the picture's own random draws and the
    situation's English words. A family draws from `rng` in the order its code reads: the
    scene of a seed stays the same only while that order does."""

    field: Field
    facts: Mapping[str, Any]
    ruling: Mapping[str, Any]
    named: Sequence[str]
    rng: random.Random
    words: str = ""

    @cached_property
    def where(self) -> _Where:
        """What the words place, read by the families whose facts place nothing."""
        return _Where.of(self.words)


# --- building blocks ----------------------------------------------------------------------------


def _heading(ax: float, ay: float, bx: float, by: float, keep: float) -> float:
    if math.isclose(ax, bx) and math.isclose(ay, by):
        return keep
    return math.degrees(math.atan2(by - ay, bx - ax))


def _ride(actor: str, points: Sequence[tuple[float, float, float]]) -> Track:
    """A rider's track through (t, x, y) points, heading along his way."""
    keys: list[Key] = []
    heading = 180.0
    for i, (t, x, y) in enumerate(points):
        if i + 1 < len(points):
            _, nx, ny = points[i + 1]
            heading = _heading(x, y, nx, ny, heading)
        keys.append(Key(t, x, y, heading))
    team = {"R": "red", "B": "blue"}[actor[0]]
    return Track(actor, team, actor[1:], tuple(keys))


def _ball(points: Sequence[tuple[float, float, float]]) -> Track:
    return Track("ball", "", "", tuple(Key(t, x, y) for t, x, y in points))


def _first(named: Sequence[str], team: str, default: str) -> str:
    return next((p for p in named if p[0] == team), default)


def _other_team(actor: str) -> str:
    return "R" if actor[0] == "B" else "B"


def _clamp(y: float, half_width: float, room: float = 4.0) -> float:
    return max(-half_width + room, min(half_width - room, y))


def _free_number(team: str, taken: Sequence[str], preferred: int) -> str:
    for n in [preferred, 1, 2, 3, 4]:
        if f"{team}{n}" not in taken:
            return f"{team}{n}"
    return f"{team}{preferred}"


def _scene(
    family: Family,
    f: Field,
    ball: Track,
    riders: Sequence[Track],
    events: Sequence[Event],
    stop: float,
    reveal: tuple[tuple[float, float], ...] = (),
    follows: Mapping[str, Any] | None = None,
) -> Scene:
    """A family's scene: the ball's track first, then the riders'; the events in time order."""
    in_time = tuple(sorted(events, key=lambda e: e.t))
    return Scene(family, f, (ball, *riders), in_time, stop, reveal, follows or {})


# --- safety -------------------------------------------------------------------------------------

#: What the ball glances off on its way to the end line, and who is there (21.a).
_OFF_A_PLAYER = {
    "teammates_mallet": "teammate",
    "teammates_mount": "teammate",
    "teammate": "teammate",
    "opponents_mallet": "opponent",
    "opponents_mount": "opponent",
    "opponent": "opponent",
}


#: How far up the field, at most, a Safety's hitter starts his run (the spot is at 60 yards).
SAFETY_START_MAX = 54.0


def _safety(s: _Situation) -> Scene:
    f, facts, named, rng = s.field, s.facts, s.named, s.rng
    gx, hw = f.goal_line_x, f.half_width
    hitter = next(iter(named), "B4")
    touched = str(facts.get("ball_touched", "nothing"))
    if facts.get("merely_touched_mallet"):
        touched = "touch"
    side = rng.choice((1, -1))
    if facts.get("crossing_y") is not None:
        cy = float(facts["crossing_y"])
    elif touched == "goal_post":
        cy = side * 5.0
    elif touched == "side_boards":
        cy = side * (hw - 3.0)
    else:
        cy = side * float(rng.randrange(8, 36))
    if cy:
        side = 1 if cy > 0 else -1
    # The hit: 28-40 yards up the field, on the side of the crossing.
    hx = gx + float(rng.randrange(28, 41))
    hy = _clamp(cy * 0.6 + side * rng.uniform(0, 6), hw)
    crossing = (gx, cy)
    start = 0.0
    tracks: list[Track] = []
    events: list[Event] = []
    # The ball's way after the hit: through the point it glances off, to the crossing.
    via: tuple[float, float] | None = None
    if touched == "own_mount":
        via = (hx - 2.0, hy + side * 0.8)
    elif touched == "goal_post":
        via = (gx + 0.6, side * 4.0)
    elif touched == "side_boards":
        via = (gx + float(rng.randrange(10, 18)), side * hw)
    elif touched in _OFF_A_PLAYER:
        via = (hx + (gx - hx) * 0.5, hy + (cy - hy) * 0.5)
    if touched == "touch":
        # A ball from an earlier hit rolls past his still mallet.
        t_hit = 1.6
        far = (hx + 40.0, hy + side * 3.0)
        ball_pts = [(start, far[0], far[1]), (t_hit, hx - 1.0, hy)]
        tracks.append(_ride(hitter, [(0.0, hx + 4.0, hy + side * 2), (t_hit, hx, hy + side * 1)]))
        events.append(Event(t_hit, EventKind.TOUCH, hx - 1.0, hy, hitter))
    else:
        # He starts short of the 60-yard line: never on the Safety's spot, which the reveal
        # alone may show.
        run = min(float(rng.randrange(16, 24)), gx + SAFETY_START_MAX - hx)
        t_hit = run / CANTER
        ball_pts = [(0.0, hx - 1.0 + 5.0, hy), (t_hit, hx - 1.0, hy)]
        tracks.append(_ride(hitter, [(0.0, hx + run, hy + side * 1.5), (t_hit, hx, hy + side)]))
        events.append(Event(t_hit, EventKind.HIT, hx - 1.0, hy, hitter))
    t = t_hit
    here = (hx - 1.0, hy)
    if via is not None:
        t += math.dist(here, via) / BALL
        ball_pts.append((t, via[0], via[1]))
        actor = hitter
        if touched in _OFF_A_PLAYER:
            team = hitter[0] if _OFF_A_PLAYER[touched] == "teammate" else _other_team(hitter)
            actor = _free_number(team, [hitter, *named], 3 if team == hitter[0] else 1)
            # He rides across the ball's way and is there when it arrives.
            come = via[1] - side * CANTER * t * 0.8
            tracks.append(_ride(actor, [(0.0, via[0] + 6.0, come), (t, via[0] + 0.8, via[1])]))
        elif touched == "own_mount":
            actor = hitter
        else:
            actor = ""
        events.append(Event(t, EventKind.GLANCE, via[0], via[1], actor, touched))
        here = via
    t += math.dist(here, crossing) / BALL
    ball_pts.append((t, crossing[0], crossing[1]))
    events.append(Event(t, EventKind.CROSSING, crossing[0], crossing[1]))
    stop = t + WHISTLE_DELAY
    # Out over the line, as far as the ball goes before the whistle.
    dx, dy = crossing[0] - here[0], crossing[1] - here[1]
    norm = math.hypot(dx, dy) or 1.0
    beyond = BALL * 0.5 * WHISTLE_DELAY
    ball_pts.append((stop, crossing[0] + dx / norm * beyond, crossing[1] + dy / norm * beyond))
    events.append(Event(stop, EventKind.WHISTLE_DUE, crossing[0], crossing[1]))
    # An attacker of the other team chases the ball.
    chaser = _free_number(_other_team(hitter), named, 2)
    if all(tr.id != chaser for tr in tracks):
        cy0 = _clamp(hy - side * 10.0, hw)
        tracks.append(
            _ride(chaser, [(0.0, hx + 30.0, cy0), (stop, hx + 30.0 - CANTER * stop, cy0 * 0.8)])
        )
    reveal = _safety_spot(f, facts, s.ruling, cy)
    follows = {"crossing_y": cy, "stated_crossing": facts.get("crossing_y") is not None}
    return _scene(Family.SAFETY, f, _ball(ball_pts), tracks, events, stop, reveal, follows)


def _safety_spot(
    f: Field, facts: Mapping[str, Any], ruling: Mapping[str, Any], cy: float
) -> tuple[tuple[float, float], ...]:
    """Where a Safety is taken: the ruling's spot, or (a Rule 21 ruling, which places no
    ball) the Penalty 6 spot of this crossing when the ruling is a Safety."""
    points = _points_of(ruling)
    if points:
        return points
    if ruling.get("restart") != "penalty_6":
        return ()
    field_facts = {"length": f.length, "width": f.width, "boarded": f.boarded}
    try:
        spot = rule_json("penalty_spot", {"penalty": "6", "crossing_y": cy, "field": field_facts})
    except FactError:
        return ()
    return ((float(spot["spot"]["x"]), float(spot["spot"]["y"])),)


def _points_of(ruling: Mapping[str, Any]) -> tuple[tuple[float, float], ...]:
    """The points of a ruling (a penalty's spot), read from the ruling already made: the
    variant's own kind rules where the ball goes, so no other kind is asked."""
    return tuple(
        (float(v["x"]), float(v["y"]))
        for v in ruling.values()
        if isinstance(v, Mapping) and {"x", "y"} <= v.keys()
    )


# --- fouls near goal ----------------------------------------------------------------------------

#: Where an unplaced foul happens: in the vicinity of the goal, or near midfield.
NEAR_GOAL_YARDS = 14.0
FAR_FROM_GOAL_YARDS = 125.0


def _near_goal(s: _Situation) -> Scene:
    f, facts, named, rng = s.field, s.facts, s.named, s.rng
    gx, hw = f.goal_line_x, f.half_width
    attacker = _first(named, "R", "R2")
    defender = _first(named, "B", "B3")
    stated = isinstance(facts.get("foul_spot"), Mapping)
    if stated:
        fx, fy = float(facts["foul_spot"]["x"]), float(facts["foul_spot"]["y"])
    else:
        near = facts.get("in_vicinity_of_goal", True)
        fx = gx + (NEAR_GOAL_YARDS if near else FAR_FROM_GOAL_YARDS)
        fy = rng.choice((1, -1)) * float(rng.randrange(6, 20))
    side = 1 if fy >= 0 else -1
    run = float(rng.randrange(24, 32))
    t_foul = run / CANTER
    # The attacker carries the ball towards the goal; the defender comes in from the side.
    a0 = (fx + run, _clamp(fy + side * 2.0, hw))
    d_from = rng.choice((1, -1))
    d0 = (fx + run * 0.7, _clamp(fy + d_from * 16.0, hw))
    stop = t_foul + 0.2 + WHISTLE_DELAY
    ball_at_foul = (fx - 2.0, fy)
    ball = _ball(
        [
            (0.0, a0[0] - 2.0, a0[1]),
            (t_foul, ball_at_foul[0], ball_at_foul[1]),
            (stop, ball_at_foul[0] - 3.0, ball_at_foul[1]),
        ]
    )
    tracks = [
        _ride(attacker, [(0.0, *a0), (t_foul, fx, fy), (stop, fx - 2.0, fy - side * 1.0)]),
        _ride(defender, [(0.0, *d0), (t_foul, fx + 0.5, fy + d_from * 1.4), (stop, fx - 1.0, fy)]),
    ]
    # A defender covering the goal and a trailing attacker, away from every fixed spot.
    back = _free_number("B", [defender], 4)
    bx, by = gx + 6.0, _clamp(-side * float(rng.randrange(6, 14)), hw)
    tracks.append(_ride(back, [(0.0, bx + 10.0, by), (stop, bx, by * 0.8)]))
    trail = _free_number("R", [attacker], 3)
    ty = _clamp(fy + side * 10.0, hw)
    tracks.append(_ride(trail, [(0.0, a0[0] + 16.0, ty), (stop, fx + 18.0, ty)]))
    events = (
        Event(t_foul, EventKind.FOUL, fx, fy, defender),
        Event(stop, EventKind.WHISTLE_DUE, fx, fy),
    )
    follows = {"foul_spot": (fx, fy), "stated_foul_spot": stated}
    return _scene(Family.NEAR_GOAL, f, ball, tracks, events, stop, _points_of(s.ruling), follows)


# --- the advantage ------------------------------------------------------------------------------


def _advantage(s: _Situation) -> Scene:
    f, facts, named, rng = s.field, s.facts, s.named, s.rng
    hw = f.half_width
    fouler = _first(named, "R", "R2")
    fouled = _first(named, "B", "B1")
    dangerous = bool(facts.get("dangerous"))
    later = facts.get("assessment") == "no_effect"
    # Blue carries the ball towards the goal at -x; Red's rider comes at him.
    y0 = float(rng.randrange(-30, 31))
    x0 = float(rng.randrange(-20, 21))
    run = float(rng.randrange(14, 20))
    t_foul = run / CANTER
    fx, fy = x0 - run, _clamp(y0, hw)
    close = 2.0 if dangerous else 7.0  # how far ahead of the fouled rider the line is crossed
    come = rng.choice((1, -1))
    tracks = [
        _ride(
            fouled,
            [(0.0, x0, fy), (t_foul, fx, fy), (t_foul + 1.0, fx - CANTER * 0.6, fy)],
        ),
        _ride(
            fouler,
            [
                (0.0, fx - close + 6.0, fy + come * CANTER * t_foul),
                (t_foul, fx - close, fy),
                (t_foul + 1.0, fx - close - 3.0, fy - come * CANTER * 0.8),
            ],
        ),
    ]
    ball = [(0.0, x0 - 2.0, fy), (t_foul, fx - 2.0, fy), (t_foul + 1.0, fx - 2.0 - CANTER, fy)]
    events = [
        Event(t_foul, EventKind.FOUL, fx - close, fy, fouler, "dangerous" if dangerous else "")
    ]
    decide = t_foul
    if later:
        # The next play: a long hit to a teammate, who hits at goal.
        mate = _free_number("B", [fouled], 2)
        px, py = fx - 2.0 - CANTER, fy
        t_pass = t_foul + 1.0
        rx, ry = px - 45.0, _clamp(py - come * 20.0, hw)
        t_recv = t_pass + math.dist((px, py), (rx, ry)) / BALL
        gx = f.goal_line_x
        t_shot_end = t_recv + 0.4 + math.dist((rx, ry), (gx + 1.0, 0.0)) / BALL
        ball += [(t_pass, px, py), (t_recv, rx, ry), (t_recv + 0.4, rx - 1.0, ry)]
        ball.append((t_shot_end, gx + 1.0, 0.0))
        tracks.append(_ride(mate, [(0.0, rx + CANTER * t_recv * 0.7, ry), (t_recv + 0.4, rx, ry)]))
        events += [
            Event(t_pass, EventKind.PASS, px, py, fouled),
            Event(t_recv + 0.4, EventKind.SHOT, rx, ry, mate),
        ]
        decide = t_shot_end
    else:
        decide = t_foul + 0.5
    stop = decide + WHISTLE_DELAY
    events.append(Event(stop, EventKind.WHISTLE_DUE, fx, fy))
    return _scene(Family.ADVANTAGE, f, _ball(ball), tracks, events, stop, _points_of(s.ruling))


# --- Rule 21 in play: when to stop (stop_for), the inadvertent whistle, the horn ---------------


#: How long the play runs on after an incident before the scene stops (the call is due).
PLAY_ON = 1.0
#: How far a lodged ball is carried, and an inadvertent whistle's ball rolls on, when the
#: situation does not say (yards).
CARRIED = 12.0
ROLLS_ON = 8.0
#: A rolling ball after the whistle, yards a second (slower than a hit).
ROLLING = 15.0


class _InPlay(NamedTuple):
    """Where the ball is (x, y) when the incident happens or the whistle sounds, in open play:
    the side towards the middle of the field, the run-up (yards) and when it is there (t);
    `stated` when the situation's words say how far from the goal it is."""

    x: float
    y: float
    side: int
    run: float
    t: float
    stated: bool

    @classmethod
    def of(cls, s: _Situation) -> "_InPlay":
        """The situation's distance from goal (else drawn), then across and the run-up, drawn."""
        f, where, rng = s.field, s.where, s.rng
        gx = f.goal_line_x
        if where.goal_yards is not None:
            x, stated = gx + min(where.goal_yards, f.length - 30.0), True
        else:
            x, stated = gx + float(rng.randrange(40, 121)), False
        y = _clamp(float(rng.randrange(-25, 26)), f.half_width)
        run = float(rng.randrange(16, 24))
        return cls(x, y, 1 if y <= 0 else -1, run, run / CANTER, stated)

    def follows(self, spot: tuple[float, float], **more: Any) -> dict[str, Any]:
        """What the scene must follow: the incident's spot, `more`, the play where stated."""
        out = {"incident_spot": spot, **more}
        if self.stated:
            out["play_x"] = (self.t, self.x)
        return out


def _stop_for(s: _Situation) -> Scene:
    f, facts, named, rng, where = s.field, s.facts, s.named, s.rng, s.where
    hw = f.half_width
    incident = str(facts["incident"])
    who = next(iter(named), "B2")
    play = _InPlay.of(s)
    px, py, side, run, t_inc = play.x, play.y, play.side, play.run, play.t
    carries = incident in {"lodged_ball", "damaged_ball"}
    # A lodged ball is carried on, unless it can be dropped at once (it falls off at once).
    dropped = bool(facts.get("can_be_dropped"))
    lodged = incident == "lodged_ball" and not dropped
    carried = (where.further or CARRIED) if lodged else 0.0
    stop = t_inc + (carried / CANTER if carried else PLAY_ON)
    on = stop - t_inc
    tracks: list[Track] = []
    # The ball goes towards the goal at -x, carried by `who` himself (a lodged or a damaged
    # ball) or by a rider of the other team, whom `who` rides off or watches from away.
    carrier = who if carries else _free_number(_other_team(who), named, 1)
    tracks.append(
        _ride(
            carrier,
            [(0.0, px + run + 1.5, py), (t_inc, px + 1.5, py), (stop, px + 1.5 - CANTER * on, py)],
        )
    )
    if lodged:
        ball = [(0.0, px + run, py), (t_inc, px, py), (stop, px - carried, py)]
        spot = (px, py)
    elif incident == "lodged_ball":
        ball = [(0.0, px + run, py), (t_inc, px, py), (t_inc + 0.3, px - 2.0, py + side * 1.5)]
        spot = (px, py)
    elif incident == "damaged_ball":
        # He hits it; it breaks and stops short (trodden in, split open).
        ball = [(0.0, px + run, py), (t_inc, px, py), (t_inc + 0.4, px - 4.0, py)]
        spot = (px, py)
    else:
        ball = [(0.0, px + run, py), (t_inc, px, py), (stop, px - CANTER * on, py)]
        if incident == "player_falls" or where.away or where.from_play:
            away = where.from_play or float(rng.randrange(25, 41))
            wy = _clamp(py + side * away, hw)
            wx = px + math.sqrt(max(away**2 - (wy - py) ** 2, 0.0))
            spot = (wx, wy)
            # Away from the play: a fall (he stays down where he fell), or he pulls up.
            still = (wx, wy) if incident == "player_falls" else (wx - CANTER * on * 0.3, wy)
            tracks.append(_ride(who, [(0.0, wx + run * 0.8, wy), (t_inc, wx, wy), (stop, *still)]))
        else:
            wy = py + side * 2.5  # alongside the ball, in a ride-off
            spot = (px + 1.0, wy)
            after = {
                "mount_falls": (spot[0] - 2.0, wy),  # the horse goes down
                "mount_injured": (spot[0] - CANTER * on * 0.3, wy),  # pulls up lame
                "lost_helmet": (spot[0] - CANTER * on, wy),  # rides on
            }.get(incident, (spot[0] - CANTER * on * 0.6, wy + side * 4.0))  # drifts out
            tracks.append(_ride(who, [(0.0, spot[0] + run, wy), (t_inc, *spot), (stop, *after)]))
    # One rider of each team behind the play.
    for team, preferred, dy in (("R", 4, 12.0), ("B", 4, -12.0)):
        rider = _free_number(team, [tr.id for tr in tracks], preferred)
        ry = _clamp(py + dy, hw)
        tracks.append(
            _ride(rider, [(0.0, px + run + 20.0, ry), (stop, px + 20.0 - CANTER * on, ry)])
        )
    events = (
        Event(t_inc, EventKind.INCIDENT, spot[0], spot[1], who, incident),
        Event(stop, EventKind.WHISTLE_DUE, spot[0], spot[1]),
    )
    reveal = (spot,) if s.ruling.get("restart_at") == "where_first_lodged" else ()
    follows = play.follows(spot)
    return _scene(Family.STOP_FOR, f, _ball(ball), tracks, events, stop, reveal, follows)


def _whistle(s: _Situation) -> Scene:
    """An inadvertent whistle as the ball is hit; the ball rolls on and comes to rest."""
    f, named = s.field, s.named
    gx = f.goal_line_x
    hitter = next(iter(named), "B2")
    rival = _free_number(_other_team(hitter), named, 2)
    play = _InPlay.of(s)
    px, py, side, run, t_hit = play.x, play.y, play.side, play.run, play.t
    rolls = s.where.further or ROLLS_ON
    # On towards the goal at -x, turning aside to stay on the field.
    dx = min(rolls * 0.94, px - gx - 3.0)
    dy = side * math.sqrt(max(rolls**2 - dx**2, 0.0))
    rest = (px - dx, _clamp(py + dy, f.half_width, 1.0))
    t_rest = t_hit + rolls / ROLLING
    stop = t_rest + WHISTLE_DELAY
    ball = _ball([(0.0, px + run, py), (t_hit, px, py), (t_rest, *rest)])
    # The hitter and his rival side by side, riding on past the ball.
    riders = [
        _ride(rider, [(0.0, px + run + 1.0, y), (t_hit, px + 1.0, y), (t_hit + 1.5, px - 8.0, y)])
        for rider, y in ((hitter, py), (rival, py + side * 2.5))
    ]
    events = (
        Event(t_hit, EventKind.HIT, px, py, hitter),
        Event(t_hit, EventKind.WHISTLE, px, py),
        Event(t_rest, EventKind.REST, rest[0], rest[1]),
        Event(stop, EventKind.WHISTLE_DUE, px, py),
    )
    reveal = ((px, py),) if s.ruling.get("restart_at") == "where_play_was_stopped" else ()
    follows = play.follows((px, py), rest=rest)
    return _scene(Family.WHISTLE, f, ball, riders, events, stop, reveal, follows)


def _horn(s: _Situation) -> Scene:
    """A foul and the horn: before it (no horn yet), at it or just after it."""
    f, named, rng = s.field, s.named, s.rng
    hw = f.half_width
    fouler = next(iter(named), "R1")
    fouled = _first(named, _other_team(fouler), _free_number(_other_team(fouler), [], 2))
    x0 = float(rng.randrange(-40, 41))
    fy = _clamp(float(rng.randrange(-30, 31)), hw)
    run = float(rng.randrange(14, 20))
    t_foul = run / CANTER
    fx = x0 - run
    come = rng.choice((1, -1))
    stop = t_foul + 0.5 + WHISTLE_DELAY
    ball = _ball([(0.0, x0 - 2.0, fy), (t_foul, fx - 2.0, fy), (stop, fx - 2.0 - CANTER * 0.5, fy)])
    riders = [
        _ride(fouled, [(0.0, x0, fy), (t_foul, fx, fy), (stop, fx - CANTER * 0.5, fy)]),
        _ride(
            fouler,
            [
                (0.0, fx - 2.0 + 6.0, fy + come * CANTER * t_foul * 0.9),
                (t_foul, fx - 2.0, fy),
                (stop, fx - 5.0, fy - come * CANTER * 0.6),
            ],
        ),
    ]
    events = [Event(t_foul, EventKind.FOUL, fx - 2.0, fy, fouler)]
    if s.facts.get("timing") == "at_or_slightly_after_horn":
        gap = s.where.horn_gap if s.where.horn_gap is not None else 0.5
        events.insert(0, Event(t_foul - gap, EventKind.HORN, *ball.at(t_foul - gap)))
    events.append(Event(stop, EventKind.WHISTLE_DUE, fx - 2.0, fy))
    return _scene(Family.HORN, f, ball, riders, events, stop)


# --- a lineup for a penalty: who stands wrong? --------------------------------------------------

#: The riders take their places at a trot and stand still this long before the hit is due.
LINEUP_STOP = 3.0
TROT = CANTER * 0.5


def _lineup_players(facts: Mapping[str, Any]) -> list[tuple[str, float, float]]:
    """The players a lineup's facts place: (id, x, y)."""
    out = []
    for p in facts.get("players") or ():
        pos = p.get("position") if isinstance(p, Mapping) else None
        if isinstance(pos, Mapping) and re.fullmatch(r"[RB]\d", str(p.get("id", ""))):
            try:
                out.append((str(p["id"]), float(pos["x"]), float(pos["y"])))
            except (KeyError, TypeError, ValueError):
                continue
    return out


def _lineup(s: _Situation) -> Scene:
    """Every player the facts place rides to his place and stands there; the hit is due."""
    f, facts, rng = s.field, s.facts, s.rng
    placed = _lineup_players(facts)
    tracks: list[Track] = []
    for pid, x, y in placed:
        away = float(rng.randrange(6, 13))
        angle = rng.uniform(0, 2 * math.pi)
        sx, sy = (
            x + away * math.cos(angle),
            _clamp(y + away * math.sin(angle), f.half_width + 10, 0),
        )
        arrive = max(math.dist((sx, sy), (x, y)) / TROT, 0.5)
        tracks.append(_ride(pid, [(0.0, sx, sy), (arrive, x, y), (LINEUP_STOP, x, y)]))
    spot = _lineup_spot(f, facts, placed)
    events = (Event(LINEUP_STOP, EventKind.WHISTLE_DUE, *spot),)
    follows = {"positions": {pid: (x, y) for pid, x, y in placed}}
    return _scene(Family.LINEUP, f, _ball([(0.0, *spot)]), tracks, events, LINEUP_STOP, (), follows)


def _lineup_spot(
    f: Field, facts: Mapping[str, Any], placed: Sequence[tuple[str, float, float]]
) -> tuple[float, float]:
    """Where the ball waits: at the penalty's spot (the engine's), else before the first rider
    of the fouled team."""
    fouled = {str(p.get("id")) for p in facts.get("players") or () if p.get("team") == "fouled"}
    asked = {
        k: facts[k]
        for k in ("penalty", "p2_choice", "foul_spot", "crossing_y", "field")
        if k in facts
    }
    try:
        spot = rule_json("penalty_spot", asked)["spot"]
        return float(spot["x"]), float(spot["y"])
    except (FactError, KeyError, TypeError):
        pass
    first = next(((x, y) for pid, x, y in placed if pid in fouled), (0.0, 0.0))
    return first[0] - 1.0, first[1]


#: The builder of each family's scene (scene_for asks the one of the variant's family).
_BUILDS: dict[Family, Callable[[_Situation], Scene]] = {
    Family.SAFETY: _safety,
    Family.NEAR_GOAL: _near_goal,
    Family.ADVANTAGE: _advantage,
    Family.STOP_FOR: _stop_for,
    Family.WHISTLE: _whistle,
    Family.HORN: _horn,
    Family.LINEUP: _lineup,
}


# --- what a trainee may see before the stop -----------------------------------------------------


@dataclass(frozen=True)
class Flaw:
    """Something wrong with a scene: `code` says what ("leak", "crossing", "foul_spot",
    "where", "position", "speed", "off_field"), `message` how."""

    code: str
    message: str


def flaws(scene: Scene, hidden: Sequence[tuple[float, float]] = ()) -> list[Flaw]:
    """What makes a scene unfair or untrue: a rider or the ball standing (before the stop) on a
    point the engine rules or would rule, unless the facts themselves put it there (the foul's
    spot, the crossing, the incident's spot, a player's stated place); the ball crossing
    elsewhere than `crossing_y`; the foul more than a yard from `foul_spot`; the play more than
    a yard from where the situation puts it; a player of a lineup not on his stated place at the
    stop; a speed no horse or ball reaches; an event after the stop."""
    found: list[Flaw] = []
    stated: list[tuple[float, float]] = []
    if "foul_spot" in scene.follows:
        stated.append(scene.follows["foul_spot"])
    crossing = scene.crossing()
    if "crossing_y" in scene.follows:
        cy = float(scene.follows["crossing_y"])
        stated.append((scene.field.goal_line_x, cy))
        if crossing is None or abs(crossing[1] - cy) > ON_THE_SPOT:
            where = "nowhere" if crossing is None else f"at y = {crossing[1]:.1f}"
            found.append(Flaw("crossing", f"the ball crosses {where}, not at y = {cy:g}"))
    if "foul_spot" in scene.follows:
        foul = scene.event(EventKind.FOUL)
        fx, fy = scene.follows["foul_spot"]
        if foul is None or math.dist((foul.x, foul.y), (fx, fy)) > ON_THE_SPOT:
            found.append(Flaw("foul_spot", f"the foul is not within a yard of ({fx:g}, {fy:g})"))
    if "incident_spot" in scene.follows:
        stated.append(tuple(scene.follows["incident_spot"]))
    if "play_x" in scene.follows:
        t, px = scene.follows["play_x"]
        bx = scene.track("ball").at(t)[0]
        if abs(bx - px) > ON_THE_SPOT:
            found.append(Flaw("where", f"the play is at x = {bx:.1f}, not at x = {px:g}"))
    for pid, (x, y) in scene.follows.get("positions", {}).items():
        stated.append((x, y))
        at = scene.track(pid).at(scene.stop)
        if math.dist(at, (x, y)) > ON_THE_SPOT:
            found.append(Flaw("position", f"{pid} stands at {at}, not at ({x:g}, {y:g})"))
    for tr in scene.tracks:
        top = BALL_TOP_SPEED if tr.is_ball else PLAYER_TOP_SPEED
        if tr.top_speed() > top + 0.01:
            found.append(Flaw("speed", f"{tr.id} moves at {tr.top_speed():.1f} yd/s"))
    for spot in {*scene.reveal, *hidden}:
        if any(math.dist(spot, s) <= ON_THE_SPOT for s in stated):
            continue  # the facts put the foul (or the crossing) there: it tells nothing
        for t in scene.times():
            for tr in scene.tracks:
                if math.dist(tr.at(t), spot) <= ON_THE_SPOT:
                    found.append(
                        Flaw(
                            "leak",
                            f"{tr.id} stands on the ruled spot ({spot[0]:g}, {spot[1]:g}) "
                            f"at {t:.2f} s, before the answer",
                        )
                    )
                    break
            else:
                continue
            break
    if any(e.t > scene.stop + 1e-9 for e in scene.events):
        found.append(Flaw("leak", "an event comes after the stop"))
    return found


def features(scene: Scene) -> dict[str, str]:
    """What a trainee sees of a scene before the stop, for the leak check (scenarios/leaks):
    the events in order with what the ball glanced off, and how many riders of each team.
    Not the numbers on the discs nor the exact timing: those vary from seed to seed for the
    picture only (drawn from the seed, never the ruling), so in a group of 20 seeds they would
    agree with an answer by chance."""
    shown = [e for e in scene.events if e.t <= scene.stop]
    teams = sorted(tr.team for tr in scene.tracks if not tr.is_ball)
    return {
        "scene events": " ".join(f"{e.kind.value}:{e.detail}" for e in shown),
        "scene riders": " ".join(f"{team}={teams.count(team)}" for team in sorted(set(teams))),
    }
