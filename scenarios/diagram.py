"""The field diagram: a to-scale model of the field drawn from the engine's own constants.

Everything is in yards in the engine's frame (origin at the centre, the fouling team's goal
line at x = -L/2, y across). The SVG's y axis points down, so the template draws ``-y``: the
diagram is the field seen from above with the fouling team's goal on the left and +y at the top.
"Left" in a scenario's text is +y: left as seen from behind the fouling team's goal, looking up
the field (the top of the diagram).

The marks say what the facts say: the ball where the ball was (``ball``), the foul where it
happened (``foul_spot``), where the ball crossed the end line (``crossing_y``), the players. A
mark that stands on a point the engine rules from the same facts (the spot of a penalty) is not
drawn: the diagram never shows the answer to a "place the ball" question.
"""

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from html import escape
from typing import Any

from polotrainer.rules import (
    DEFAULT_FIELD,
    GOAL_POST_HALF_WIDTH,
    LINE_DISTANCES,
    FactError,
    Field,
    describe,
    rule_json,
)
from scenarios.vocabulary import player_label, team_of

#: Room around the field (yards): behind the goal lines for players waiting there, and labels.
END_MARGIN = 24.0
SIDE_ROOM = 30.0
LABEL_ROOM = 32.0
FIELD_KINDS = frozenset({"penalty_spot", "penalty_positions"})
#: A mark this close (yards) to a point the engine rules is that point: it is not drawn.
SAME_POINT = 0.5


@dataclass(frozen=True)
class Mark:
    """A point drawn on the field: a player, the ball, a crossing, a spot."""

    x: float
    y: float
    label: Mapping[str, str] = field(default_factory=dict)
    team: str = ""
    number: str = ""

    @property
    def sy(self) -> float:
        return -self.y


@dataclass(frozen=True)
class Diagram:
    length: float
    width: float
    boarded: bool
    players: Sequence[Mark]
    ball: Mark | None
    crossing: Mark | None
    foul: Mark | None
    min_x: float
    max_x: float
    min_y: float
    max_y: float

    @property
    def half_length(self) -> float:
        return self.length / 2

    @property
    def marks(self) -> list[tuple[str, Mark]]:
        """Every point drawn on the field, named by what it shows (for checks and tests)."""
        named = [("ball", self.ball), ("foul", self.foul), ("crossing", self.crossing)]
        drawn = [(name, mark) for name, mark in named if mark is not None]
        return drawn + [(f"player {p.team} {p.number}", p) for p in self.players]

    @property
    def side_label_x(self) -> float:
        """Where "left" and "right" are written: inside the corners by the fouling team's goal,
        left and right as seen from behind it."""
        return -self.half_length + 2

    @property
    def left_label_y(self) -> float:
        """The top corner (SVG coordinates, y down)."""
        return -self.half_width + 9

    @property
    def right_label_y(self) -> float:
        """The bottom corner (SVG coordinates, y down)."""
        return self.half_width - 3

    @property
    def half_width(self) -> float:
        return self.width / 2

    @property
    def view_box(self) -> str:
        width, height = self.max_x - self.min_x, self.max_y - self.min_y
        return f"{_n(self.min_x)} {_n(-self.max_y)} {_n(width)} {_n(height)}"

    @property
    def lines(self) -> list[dict[str, float | str]]:
        """The 30-, 40- and 60-yard lines at both ends, with their distance for the label."""
        out: list[dict[str, float | str]] = []
        for d in LINE_DISTANCES:
            # The 30 and 40 lines are close: their labels lean apart (60 leans with 40).
            lean = {30.0: -1, 40.0: 1, 60.0: 1}.get(d, 0)
            anchor = {-1: "end", 1: "start", 0: "middle"}[lean]
            out.append(
                {
                    "x": -self.half_length + d,
                    "tx": -self.half_length + d + lean,
                    "label": f"{d:g}",
                    "anchor": anchor,
                }
            )
            anchor = {-1: "start", 1: "end", 0: "middle"}[lean]
            out.append(
                {
                    "x": self.half_length - d,
                    "tx": self.half_length - d - lean,
                    "label": f"{d:g}",
                    "anchor": anchor,
                }
            )
        return out

    @property
    def post_y(self) -> float:
        return GOAL_POST_HALF_WIDTH

    @property
    def label_y(self) -> float:
        """Where the goal labels go: below the field, in SVG coordinates."""
        return self.half_width + 15

    @property
    def line_label_y(self) -> float:
        return -self.half_width - 3

    def ground(self, goal_label: str, side_label: str) -> str:
        """The SVG of the field itself (lines, posts, labels): the same for every variant."""
        return _ground(self.length, self.width, self.boarded, goal_label, side_label)


@cache
def _ground(length: float, width: float, boarded: bool, goal_label: str, side_label: str) -> str:
    # Built once per field size and language: it is most of the diagram and never changes.
    d = Diagram(length, width, boarded, (), None, None, None, 0, 0, 0, 0)
    hl, hw, py = _n(d.half_length), _n(d.half_width), _n(GOAL_POST_HALF_WIDTH)
    parts = [
        f'<rect class="grass" x="-{hl}" y="-{hw}" width="{_n(length)}" height="{_n(width)}"/>',
        f'<line class="centre" x1="0" x2="0" y1="-{hw}" y2="{hw}"/><circle class="spot" r="1"/>',
    ]
    for line in d.lines:
        x = _n(float(line["x"]))
        parts.append(
            f'<line class="pline" x1="{x}" x2="{x}" y1="-{hw}" y2="{hw}"/>'
            f'<text class="line-label {line["anchor"]}" x="{_n(float(line["tx"]))}" '
            f'y="{_n(d.line_label_y)}">{line["label"]}</text>'
        )
    if boarded:
        for y in (f"-{hw}", hw):
            parts.append(f'<line class="boards" x1="-{hl}" x2="{hl}" y1="{y}" y2="{y}"/>')
    for x in (f"-{hl}", hl):
        parts.append(f'<line class="goal" x1="{x}" x2="{x}" y1="-{py}" y2="{py}"/>')
        parts.append(f'<circle class="post" cx="{x}" cy="-{py}" r="1.5"/>')
        parts.append(f'<circle class="post" cx="{x}" cy="{py}" r="1.5"/>')
    label_y = _n(d.label_y)
    parts.append(f'<text class="goal-label" x="-{hl}" y="{label_y}">◀ {escape(goal_label)}</text>')
    # The side label goes on a line of its own: on a phone the goal label fills the width.
    side_y = _n(d.label_y + 12)
    parts.append(f'<text class="goal-label end" x="{hl}" y="{side_y}">{escape(side_label)}</text>')
    return "\n".join(parts)


def field_of(facts: Mapping[str, Any]) -> Field:
    raw = facts.get("field") or {}
    return Field(
        length=float(raw.get("length", DEFAULT_FIELD.length)),
        width=float(raw.get("width", DEFAULT_FIELD.width)),
        boarded=bool(raw.get("boarded", DEFAULT_FIELD.boarded)),
    )


def wants_diagram(kind: str, question_types: Sequence[str]) -> bool:
    return kind in FIELD_KINDS or "place" in question_types


def ruled_points(facts: Mapping[str, Any]) -> list[tuple[float, float]]:
    """Every point the engine rules from these facts (a penalty's spot), whatever the kind.

    A diagram is drawn for the field kinds only; the facts are ruled as each of them, and the
    kinds that do not read them (a FactError) have nothing to say.
    """
    points = []
    for kind in sorted(FIELD_KINDS):
        try:
            ruling = rule_json(kind, facts)
        except FactError:
            continue
        for name, spec in describe(kind)["ruling"].items():
            if spec["type"] == "point":
                points.append((float(ruling[name]["x"]), float(ruling[name]["y"])))
    return points


def diagram_for(facts: Mapping[str, Any]) -> Diagram:
    """The diagram of one variant's facts: field size, players, the ball, the foul, a crossing.

    A ball or foul mark on a point the engine rules from the facts is left out: it would be
    the answer to the question "where do you place the ball?".
    """
    f = field_of(facts)
    players = [
        Mark(
            x=float(p["position"]["x"]),
            y=float(p["position"]["y"]),
            label=player_label(p),
            team=team_of(p["id"]) or ("red" if p.get("team") == "fouled" else "blue"),
            number=p["id"][1:] if team_of(p["id"]) else p["id"],
        )
        for p in facts.get("players", [])
        if isinstance(p, Mapping) and isinstance(p.get("position"), Mapping)
    ]
    answers = ruled_points(facts)

    def point(name: str) -> Mark | None:
        raw = facts.get(name)
        if not isinstance(raw, Mapping):
            return None
        mark = Mark(float(raw["x"]), float(raw["y"]))
        if any(math.dist((mark.x, mark.y), answer) <= SAME_POINT for answer in answers):
            return None
        return mark

    ball, foul = point("ball"), point("foul_spot")
    crossing = None
    if facts.get("crossing_y") is not None:
        crossing = Mark(-f.length / 2, float(facts["crossing_y"]))
    xs = [m.x for m in players] + [-f.length / 2 - END_MARGIN, f.length / 2 + END_MARGIN]
    ys = [m.y for m in players]
    return Diagram(
        length=f.length,
        width=f.width,
        boarded=f.boarded,
        players=players,
        ball=ball,
        crossing=crossing,
        foul=foul,
        min_x=min(xs) - 6,
        max_x=max(xs) + 6,
        min_y=min([-f.width / 2 - LABEL_ROOM, *(y - 8 for y in ys)]),
        max_y=max([f.width / 2 + SIDE_ROOM, *(y + 8 for y in ys)]),
    )


def bounds(facts: Mapping[str, Any]) -> tuple[float, float]:
    """Half length and half width: a placed point must lie within them."""
    f = field_of(facts)
    return f.length / 2, f.width / 2


def _n(value: float) -> str:
    return f"{value:g}"
