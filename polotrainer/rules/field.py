"""The field: its size and the lines every penalty spot is measured from.

The frame is in yards. The origin is the centre of the field; ``x`` runs along the length and
the goal in question (for a penalty, the goal the fouling team defends) lies on ``x = -L/2``;
``y`` runs across, with the sides (boards or side lines) at ``y = +-W/2`` and the goal posts at
``y = +-GOAL_POST_HALF_WIDTH``. The 30-, 40- and 60-yard lines are measured from that goal line.
The web layer draws its to-scale diagram from these same constants.

>>> f = Field()
>>> f.goal_line_x, f.line_x(60), f.contains(Point(0.0, 80.0)), f.contains(Point(0.0, 81.0))
(-150.0, -90.0, True, False)
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import OutOfRange

#: The standard field: 300 yards long, 160 wide (boarded).
DEFAULT_LENGTH = 300.0
DEFAULT_WIDTH = 160.0
#: The shortest field the engine accepts: room for both 60-yard lines and play between them.
MIN_LENGTH = 150.0
#: The narrowest field the engine accepts: a Penalty 6 spot 40 yards from centre always fits.
MIN_WIDTH = 80.0
#: A boarded field is at most 160 yards wide; an unboarded one at most 200.
MAX_BOARDED_WIDTH = 160.0
MAX_UNBOARDED_WIDTH = 200.0
#: Goal posts stand 8 yards apart, 4 either side of the centre line of the field.
GOAL_POST_HALF_WIDTH = 4.0
#: The penalty lines, in yards from the goal line.
LINE_DISTANCES: tuple[float, float, float] = (30.0, 40.0, 60.0)
#: Penalty 5a: the ball is placed at least this far from the boards or side lines.
SIDE_MARGIN = 5.0
#: Penalty 6: the spot is no more than this far from the centre of the 60-yard line.
P6_MAX_FROM_CENTRE = 40.0


@dataclass(frozen=True, slots=True)
class Point:
    """A point on (or off) the field, in yards from the centre."""

    x: float
    y: float


CENTRE = Point(0.0, 0.0)


@dataclass(frozen=True, slots=True)
class Field:
    """A polo field: length and width in yards, boarded or not."""

    length: float = DEFAULT_LENGTH
    width: float = DEFAULT_WIDTH
    boarded: bool = True

    def __post_init__(self) -> None:
        if not MIN_LENGTH <= self.length <= DEFAULT_LENGTH:
            raise OutOfRange(
                "length", f"expected a length from {MIN_LENGTH:g} to {DEFAULT_LENGTH:g} yards"
            )
        widest = MAX_BOARDED_WIDTH if self.boarded else MAX_UNBOARDED_WIDTH
        if not MIN_WIDTH <= self.width <= widest:
            kind = "boarded" if self.boarded else "unboarded"
            raise OutOfRange(
                "width", f"expected a width from {MIN_WIDTH:g} to {widest:g} yards ({kind})"
            )

    @property
    def goal_line_x(self) -> float:
        """The goal line in question (the fouling team's), at ``x = -L/2``."""
        return -self.length / 2

    @property
    def half_width(self) -> float:
        """The distance from the centre to either side."""
        return self.width / 2

    def line_x(self, distance: float) -> float:
        """The ``x`` of the line ``distance`` yards from the goal line in question."""
        return self.goal_line_x + distance

    def contains(self, point: Point) -> bool:
        """Whether ``point`` lies on the field of play (its lines included)."""
        return abs(point.x) <= self.length / 2 and abs(point.y) <= self.width / 2

    def in_goal(self, point: Point) -> bool:
        """Whether ``point`` is in the goal: on or behind the goal line, between the posts."""
        return point.x <= self.goal_line_x and abs(point.y) <= GOAL_POST_HALF_WIDTH


DEFAULT_FIELD = Field()
