"""The field diagram: a to-scale model of the field drawn from the engine's own constants.

Everything is in yards in the engine's frame (origin at the centre, the fouling team's goal
line at x = -L/2, y across). The SVG's y axis points down, so the template draws ``-y``: the
diagram is the field seen from above with the fouling team's goal on the left and +y at the top.
"Left" in a scenario's text is +y: left as seen from behind the fouling team's goal, looking up
the field (the top of the diagram).

The marks say what the facts say: the ball where the ball was (``ball``), the foul where it
happened (``foul_spot``), where the ball crossed the end line (``crossing_y``), the players. A
mark that stands on a point the engine rules from the same facts (the spot of a penalty) is not
drawn: the diagram never shows the answer to a "place the ball" question. Nor is a mark that
would stand on the spot had one of the Umpire's yes/no judgements gone the other way (a foul
not in the vicinity of the goal after all): otherwise its absence would tell which way the
judgement went, and with it the answer (content check's leak check).
"""

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from html import escape
from typing import Any

from django.utils import translation
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, pgettext

from polotrainer.rules import (
    DEFAULT_FIELD,
    GOAL_POST_HALF_WIDTH,
    LINE_DISTANCES,
    FactError,
    Field,
    describe,
    rule_json,
)
from scenarios.spots import FieldSpot
from scenarios.vocabulary import player_label, team_of

#: Room around the field (yards): behind the goal lines for players waiting there, and labels.
END_MARGIN = 24.0
SIDE_ROOM = 30.0
LABEL_ROOM = 32.0
FIELD_KINDS = frozenset({"penalty_spot", "penalty_positions"})
#: The kinds whose ruling places a point on the field from the facts a diagram draws.
SPOT_KINDS = FIELD_KINDS | {"recognise_penalty"}
#: A mark this close (yards) to a point the engine rules is that point: it is not drawn.
SAME_POINT = 0.5
#: The lines' numbers go above the top side when a view has this much room (yards) above it,
#: else inside the field along the top of the view; a line this close to a view's edge has none.
LABEL_ABOVE = 10.0
LINE_EDGE = 4.0


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


@dataclass(frozen=True, order=True)
class CrossLine:
    """A line across the field: where it is (x, engine frame), its number, and which numbers
    give way first when they are crowded (`rank`: the 30s, the 60s, the centre, the 40s)."""

    x: float
    label: str
    rank: int = 2

    @property
    def minor(self) -> bool:
        """The 40-yard lines, between the 30 and the 60: a phone leaves their numbers out."""
        return self.rank == 3


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
    def field(self) -> Field:
        return Field(self.length, self.width, self.boarded)

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
    def cross_lines(self) -> list[CrossLine]:
        """Every line across the field with the number written on it, from the fouling team's
        goal: the 30-, 40- and 60-yard lines from each goal line, and the centre line (its
        yards from either goal line)."""
        f = self.field
        ranks = {30.0: 0, 60.0: 1, 40.0: 3}
        near = [CrossLine(f.line_x(d), f"{d:g}", ranks.get(d, 2)) for d in LINE_DISTANCES]
        far = [CrossLine(-line.x, line.label, line.rank) for line in near]
        return sorted([*near, CrossLine(0.0, f"{self.half_length:g}"), *far])

    @property
    def label_y(self) -> float:
        """Where the goal labels go: below the field, in SVG coordinates."""
        return self.half_width + 15

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
    for line in d.cross_lines:
        if line.x:  # the centre line is drawn above, solid
            x = _n(line.x)
            parts.append(f'<line class="pline" x1="{x}" x2="{x}" y1="-{hw}" y2="{hw}"/>')
    if boarded:
        for y in (f"-{hw}", hw):
            parts.append(f'<line class="boards" x1="-{hl}" x2="{hl}" y1="{y}" y2="{y}"/>')
    for x in (f"-{hl}", hl):
        parts.append(f'<line class="goal" x1="{x}" x2="{x}" y1="-{py}" y2="{py}"/>')
        parts.append(f'<circle class="post" cx="{x}" cy="-{py}" r="1.5"/>')
        parts.append(f'<circle class="post" cx="{x}" cy="{py}" r="1.5"/>')
    label_y = _n(d.label_y)
    # From the left edge of the view, so that it fits a phone when the view is the goal's half.
    parts.append(
        f'<text class="goal-label" x="{_n(-d.half_length - END_MARGIN)}" y="{label_y}">'
        f"◀ {escape(goal_label)}</text>"
    )
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

    The facts are ruled as each kind that places a point (a foul recognised as a penalty, too),
    and the kinds that do not read them (a FactError) have nothing to say.
    """
    points = []
    for kind in sorted(SPOT_KINDS):
        try:
            ruling = rule_json(kind, facts)
        except FactError:
            continue
        for name, spec in describe(kind)["ruling"].items():
            if spec["type"] == "point":
                points.append((float(ruling[name]["x"]), float(ruling[name]["y"])))
    return points


def hidden_points(facts: Mapping[str, Any]) -> list[tuple[float, float]]:
    """The points no mark may stand on: those the engine rules from these facts, and those it
    would rule were any one yes/no fact the other way (a Penalty 1 test met or failed).

    A Penalty 5a from where the ball was, in the vicinity of the goal to save a goal: the ball
    is hidden whether or not the foul is also judged a Penalty 1 (then the ball goes to the
    centre), so that its absence never says which.
    """
    points = ruled_points(facts)
    for name, value in facts.items():
        if isinstance(value, bool):
            points += ruled_points({**facts, name: not value})
    return points


def diagram_for(facts: Mapping[str, Any]) -> Diagram:
    """The diagram of one variant's facts: field size, players, the ball, the foul, a crossing.

    A ball or foul mark on a point the engine rules from the facts, or would rule with one of
    its yes/no judgements the other way, is left out (hidden_points): it would be the answer to
    the question "where do you place the ball?", or its absence would.
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
    answers = hidden_points(facts)

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
        crossing = Mark(f.goal_line_x, float(facts["crossing_y"]))
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


def _n(value: float) -> str:
    return f"{value + 0.0:g}"  # + 0.0 turns -0.0 into 0


# --- drawing: one renderer for the reader, practice, exams and clinics -------------------------


@dataclass(frozen=True)
class Spot:
    """A labelled point the rulebook fixes (the reader's penalty spots)."""

    x: float
    y: float
    label: str
    dx: float = 0.0
    dy: float = 4.0


@dataclass(frozen=True)
class Band:
    """A hatched strip across the field (Penalty 6: anywhere on the 60-yard line within it)."""

    x: float
    half_height: float
    label: str


@dataclass(frozen=True)
class Answer:
    """A place question after answering: the right spot, its tolerance, the trainee's spot."""

    right: tuple[float, float]
    tolerance: float
    mine: tuple[float, float] | None = None


@dataclass(frozen=True)
class Box:
    """A view of the field: x, y (engine frame, y up) and size, in yards."""

    min_x: float
    max_x: float
    min_y: float
    max_y: float

    @property
    def view_box(self) -> str:
        return (
            f"{_n(self.min_x)} {_n(-self.max_y)} "
            f"{_n(self.max_x - self.min_x)} {_n(self.max_y - self.min_y)}"
        )


def whole(d: Diagram) -> Box:
    """The whole field with the room around it."""
    return Box(d.min_x, d.max_x, d.min_y, d.max_y)


def goal_half(d: Diagram) -> Box:
    """The fouling team's half, goal line to just past the centre: where every fixed penalty
    spot lies. Chosen from the goal in question alone, never from where an answer is."""
    return Box(d.min_x, 14.0, d.min_y, d.max_y)


def around(d: Diagram, points: Sequence[tuple[float, float]], room: float = 14.0) -> Box:
    """A view around some points (after answering: the right spot and the trainee's), at least
    60 yards wide, with the field's proportions, inside the whole view. It shows one of the
    numbered lines at least (widened towards the nearest), so that it says where it is."""
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    low, high = min(xs) - room, max(xs) + room
    if high - low < 60.0:
        low, high = (low + high) / 2 - 30.0, (low + high) / 2 + 30.0
    numbered = [line.x for line in d.cross_lines]
    if not any(low + LINE_EDGE <= x <= high - LINE_EDGE for x in numbered):
        nearest = min(numbered, key=lambda x: min(abs(x - low), abs(x - high)))
        low, high = min(low, nearest - 2 * LINE_EDGE), max(high, nearest + 2 * LINE_EDGE)
    width = high - low
    height = max(width * (d.max_y - d.min_y) / (d.max_x - d.min_x), max(ys) - min(ys) + 2 * room)
    cx, cy = (low + high) / 2, (max(ys) + min(ys)) / 2
    min_x = min(max(cx - width / 2, d.min_x), d.max_x - width)
    min_y = min(max(cy - height / 2, d.min_y), d.max_y - height)
    return Box(min_x, min_x + width, min_y, min_y + height)


def render(
    d: Diagram,
    lang: str,
    *,
    view: Box | None = None,
    zoom: Box | None = None,
    interactive: bool = False,
    marker: FieldSpot | None = None,
    answers: Sequence[Answer] = (),
    points: Sequence[tuple[float, float]] = (),
    spots: Sequence[Spot] = (),
    band: Band | None = None,
    label: str = "",
    uid: str = "field",
) -> SafeString:
    """The SVG of a diagram: the field, the marks of the facts, and what the screen adds.

    `interactive` makes it the input of a place question (field.js: tap, drag, arrow keys);
    `marker` is where the trainee's ball is (as typed); `answers` the right spots with their
    tolerance rings and the trainee's spots; `points` everyone's spots (a clinic's spread);
    `spots` and `band` the rulebook's fixed spots. `view` is the part shown (the whole field by
    default); with `zoom`, the SVG carries the whole and the zoomed views for field.js's control
    (an interactive field zooms to the fouling team's half).
    """
    view = view or whole(d)
    if interactive and zoom is None:
        zoom = goal_half(d)
    # The numbers of the lines, for the whole field and for the close-up (field.css shows the
    # ones of the view on screen; field.js keeps them apart at the width drawn).
    close_up = zoom if zoom is not None else (view if view != whole(d) else None)
    with translation.override(lang):
        goal = gettext("Fouling team's goal")
        side = gettext("boards") if d.boarded else gettext("side line")
        parts = [d.ground(goal, side), _line_labels(d, whole(d), "for-whole")]
        if close_up is not None:
            parts.append(_line_labels(d, close_up, "for-zoom"))
        # Not inside the f-strings: xgettext does not read them.
        left, right = pgettext("side of the field", "left"), pgettext("side of the field", "right")
        parts.append(
            f'<text class="side-label" x="{_n(d.side_label_x)}" y="{_n(d.left_label_y)}">'
            f"{escape(left)} ↑</text>"
            f'<text class="side-label" x="{_n(d.side_label_x)}" y="{_n(d.right_label_y)}">'
            f"{escape(right)} ↓</text>"
        )
        if band is not None:
            parts.append(_band(band, d, uid))
        for spot in spots:
            parts.append(
                f'<circle class="fixed-spot" cx="{_n(spot.x)}" cy="{_n(-spot.y)}" r="2.6"/>'
                f'<text class="spot-label" x="{_n(spot.x)}" y="{_n(-spot.y)}" dx="{_n(spot.dx)}" '
                f'dy="{_n(spot.dy)}">{escape(spot.label)}</text>'
            )
        if d.crossing is not None:
            title = escape(gettext("Where the ball crossed the end line"))
            parts.append(
                f'<g transform="translate({_n(d.crossing.x)} {_n(d.crossing.sy)})">'
                f'<path class="crossing glyph" d="M-3,0L0,-3L3,0L0,3z"><title>{title}</title>'
                "</path></g>"
            )
        for p in d.players:
            name = escape(p.label.get(lang, p.label.get("en", "")))
            parts.append(
                f'<g class="player {p.team}" transform="translate({_n(p.x)} {_n(p.sy)})">'
                f'<g class="glyph"><title>{name}</title><circle r="5"/>'
                f'<text y="2.2">{escape(p.number)}</text></g></g>'
            )
        if d.foul is not None:
            title = escape(gettext("Where the foul happened"))
            parts.append(
                f'<g transform="translate({_n(d.foul.x)} {_n(d.foul.sy)})">'
                f'<path class="foul glyph" d="M0,-3.5L3.5,2.5H-3.5z"><title>{title}</title>'
                "</path></g>"
            )
        if d.ball is not None:
            ball = escape(gettext("Ball"))
            parts.append(
                f'<circle class="ball" cx="{_n(d.ball.x)}" cy="{_n(d.ball.sy)}" r="2">'
                f"<title>{ball}</title></circle>"
            )
        for x, y in points:
            parts.append(f'<circle class="placed" cx="{_n(x)}" cy="{_n(-y)}" r="1.6"/>')
        for a in answers:
            parts.append(_answer(a))
        if interactive:
            parts.append(_measured(d, marker))
            aria = gettext(
                "Field: tap or click to place the ball, drag to move it, or use the arrow keys "
                "(Shift moves 10 yards)"
            )
            attrs = (
                f'tabindex="0" role="application" data-field '
                f'data-length="{_n(d.length)}" data-half-width="{_n(d.half_width)}" '
                f'aria-label="{escape(aria)}" aria-describedby="{uid}-status"'
            )
        else:
            text = label or gettext("The field from above, to scale")
            attrs = f'role="img" aria-label="{escape(text)}"'
        if zoom is not None:
            attrs += f' data-whole="{whole(d).view_box}" data-zoom="{zoom.view_box}"'
    classes = "field interactive" if interactive else "field"
    if view != whole(d):
        classes += " zoomed"
    svg = (
        f'<svg class="{classes}" id="{uid}" viewBox="{view.view_box}" '
        f'preserveAspectRatio="xMidYMid meet" xmlns="http://www.w3.org/2000/svg" {attrs}>'
        + "\n".join(parts)
        + "</svg>"
    )
    return mark_safe(svg)  # noqa: S308 - numbers and escaped labels only


def _measured(d: Diagram, marker: FieldSpot | None) -> str:
    """The trainee's ball, in a group whose coordinates are the yards the place question asks
    for (from the fouling team's goal line, across from the centre, + to the left): field.js
    reads a tap and moves the ball in them, with no frame arithmetic of its own."""
    origin = FieldSpot(0, 0).to_engine(d.field)  # the goal line at the centre of the goal
    frame = f"translate({_n(origin.x)} {_n(-origin.y)}) scale(1 -1)"  # the SVG draws -y
    shown = (
        ""
        if marker is None
        else f' transform="translate({_n(marker.from_goal_line)} {_n(marker.across)})"'
    )
    hidden = ' display="none"' if marker is None else ""
    return (
        f'<g data-measured transform="{frame}">'
        f'<g class="marker" data-marker{shown}{hidden}><g class="glyph">'
        '<circle class="halo" r="9"/><circle class="dot" r="3.2"/>'
        '<path d="M-5,0H5M0,-5V5"/></g></g></g>'
    )


def _line_labels(d: Diagram, box: Box, which: str) -> str:
    """The numbers of the lines a view shows: above the top side when the view has room for
    them there, else inside the field along the top of the view (field.css lowers them by a
    line of their own height, which field.js also uses to stagger numbers that would touch)."""
    above = box.max_y >= d.half_width + LABEL_ABOVE
    y = _n(-d.half_width if above else -box.max_y)
    labels = "".join(
        f'<text class="line-label{" minor" if line.minor else ""}" x="{_n(line.x)}" y="{y}" '
        f'data-rank="{line.rank}">{line.label}</text>'
        for line in d.cross_lines
        if box.min_x + LINE_EDGE <= line.x <= box.max_x - LINE_EDGE
    )
    return f'<g class="line-labels {"above" if above else "inside"} {which}">{labels}</g>'


def _band(band: Band, d: Diagram, uid: str) -> str:
    top, height = _n(-band.half_height), _n(2 * band.half_height)
    return (
        f'<defs><pattern id="{uid}-hatch" width="3" height="3" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)"><line class="hatch" x1="0" y1="0" x2="0" y2="3"/>'
        "</pattern></defs>"
        f'<rect class="band" x="{_n(band.x - 2)}" y="{top}" width="4" height="{height}" '
        f'fill="url(#{uid}-hatch)"/>'
        f'<text class="spot-label" x="{_n(band.x)}" y="{_n(-band.half_height - 4)}">'
        f"{escape(band.label)}</text>"
    )


def _answer(a: Answer) -> str:
    x, sy = _n(a.right[0]), _n(-a.right[1])
    right, mine = escape(gettext("The right spot")), escape(gettext("Your spot"))
    out = (
        f'<circle class="tolerance" cx="{x}" cy="{sy}" r="{_n(a.tolerance)}"/>'
        f'<g class="right-mark" transform="translate({x} {sy})"><g class="glyph">'
        f"<title>{right}</title>"
        '<circle class="right-ring" r="3"/><circle class="right-dot" r="1"/></g></g>'
    )
    if a.mine is not None:
        out += (
            f'<g class="mine-mark" transform="translate({_n(a.mine[0])} {_n(-a.mine[1])})">'
            f'<g class="glyph"><title>{mine}</title>'
            '<path class="mine" d="M-4.5,-4.5L4.5,4.5M-4.5,4.5L4.5,-4.5"/></g></g>'
        )
    return out
