"""The field's frame and geometry."""

import pytest

from polotrainer.rules import DEFAULT_FIELD, GOAL_POST_HALF_WIDTH, LINE_DISTANCES, Field, Point
from polotrainer.rules.errors import OutOfRange


def test_the_default_field_is_300_by_160_boarded() -> None:
    assert (DEFAULT_FIELD.length, DEFAULT_FIELD.width, DEFAULT_FIELD.boarded) == (300, 160, True)
    assert GOAL_POST_HALF_WIDTH == 4
    assert LINE_DISTANCES == (30, 40, 60)


def test_lines_are_measured_from_the_goal_line_in_question() -> None:
    f = Field(length=200)
    assert f.goal_line_x == -100
    assert [f.line_x(d) for d in LINE_DISTANCES] == [-70, -60, -40]


def test_contains_includes_the_lines() -> None:
    assert DEFAULT_FIELD.contains(Point(150, -80))
    assert not DEFAULT_FIELD.contains(Point(150.5, 0))
    assert not DEFAULT_FIELD.contains(Point(0, -80.5))


def test_in_goal_is_on_or_behind_the_line_between_the_posts() -> None:
    assert DEFAULT_FIELD.in_goal(Point(-152, 4))
    assert not DEFAULT_FIELD.in_goal(Point(-152, 4.5))
    assert not DEFAULT_FIELD.in_goal(Point(-149, 0))


def test_an_unboarded_field_may_be_200_wide_a_boarded_one_not() -> None:
    assert Field(width=200, boarded=False).half_width == 100
    with pytest.raises(OutOfRange) as excinfo:
        Field(width=200)
    assert (excinfo.value.field, excinfo.value.code) == ("width", "out_of_range")


@pytest.mark.parametrize(("length", "width"), [(149, 160), (301, 160), (300, 79)])
def test_impossible_sizes_are_refused(length: float, width: float) -> None:
    with pytest.raises(OutOfRange):
        Field(length=length, width=width)
