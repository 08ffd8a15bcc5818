"""A spot as an umpire measures it, and the one conversion between it and the engine's frame.

The engine's frame has its origin at the centre of the field and the goal in question (for a
penalty, the goal the fouling team defends, whichever team that is) on ``x = -L/2``
(docs/engine.md, "Frame and units"). An umpire measures the same spot from that goal line and
across from the centre of the goal: "30 yards from the fouling team's goal line, 10 yards left
of the centre", left as seen from behind that goal, looking up the field (+y, the top of the
diagram). So one spot is a different ``x`` on fields of different lengths, and reading a stored
``x`` needs the field of the variant it belongs to: every question, feedback, history line,
export, exam result, clinic reveal and the diagram's marker convert here and nowhere else.

>>> short = Field(length=250)
>>> FieldSpot.from_engine({"x": -95.0, "y": 0.0}, short)
FieldSpot(from_goal_line=30.0, across=0.0)
>>> FieldSpot(40, -12).to_engine(short)
Point(x=-85.0, y=-12.0)
>>> FieldSpot.from_engine(FieldSpot(40, -12).to_engine(Field()), Field()).form_values()
('40', '-12')
"""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypedDict

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from polotrainer.rules import Field, Point
from polotrainer.web.plurals import plural_count

__all__ = ["EnginePoint", "FieldSpot"]

#: Closer than this to the centre line (yards) reads as level with the centre of the goal.
LEVEL = 0.05


class EnginePoint(TypedDict):
    """A point in the engine's frame as JSON: a ruling's spot, a place answer as recorded."""

    x: float
    y: float


@dataclass(frozen=True)
class FieldSpot:
    """A spot in yards from the goal line in question (up the field) and across from the
    centre of the goal (+ to the left as seen from behind that goal, - to the right)."""

    from_goal_line: float
    across: float

    @classmethod
    def from_engine(
        cls, point: Point | EnginePoint | Mapping[str, float], field: Field
    ) -> "FieldSpot":
        """The spot of an engine point (a `Point` or its JSON, ``{"x": .., "y": ..}``) on
        `field`: the field of the very variant the point was ruled or answered for."""
        x, y = (point.x, point.y) if isinstance(point, Point) else (point["x"], point["y"])
        return cls(float(x) - field.goal_line_x, float(y))

    def to_engine(self, field: Field) -> Point:
        """The engine's point of this spot on `field` (origin at the centre)."""
        return Point(field.line_x(self.from_goal_line), float(self.across))

    def form_values(self) -> tuple[str, str]:
        """The two inputs of a place question that give this spot (along, across)."""
        return (f"{self.from_goal_line:g}", f"{self.across:g}")

    def words(self) -> str:
        """The spot as an umpire says it, in the active language."""
        from_line = ngettext(
            "%(yards)s yard from the fouling team's goal line",
            "%(yards)s yards from the fouling team's goal line",
            plural_count(self.from_goal_line),
        ) % {"yards": _number(self.from_goal_line)}
        if abs(self.across) < LEVEL:
            side = _("level with the centre of the goal")
        elif self.across > 0:
            side = ngettext(
                "%(yards)s yard left of the centre",
                "%(yards)s yards left of the centre",
                plural_count(self.across),
            ) % {"yards": _number(abs(self.across))}
        else:
            side = ngettext(
                "%(yards)s yard right of the centre",
                "%(yards)s yards right of the centre",
                plural_count(self.across),
            ) % {"yards": _number(abs(self.across))}
        return _("%(from_line)s, %(side)s") % {"from_line": from_line, "side": side}


def _number(value: float) -> str:
    return f"{round(value, 1) + 0.0:g}"  # + 0.0 turns -0.0 into 0
