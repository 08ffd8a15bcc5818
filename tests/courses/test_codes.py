"""Join codes: alphabet, case-insensitive entry, collisions, the QR code."""

import re

import pytest

from polotrainer.courses import codes
from polotrainer.courses.models import Cohort
from polotrainer.web import qr
from tests.people import make_cohort, make_course, person

pytestmark = pytest.mark.django_db


def test_codes_use_only_the_unambiguous_alphabet():
    drawn = {codes.draw() for _ in range(300)}
    assert len(drawn) == 300
    assert all(len(c) == 6 and set(c) <= set("ABCDEFGHJKLMNPRTWXY346789") for c in drawn)


@pytest.mark.parametrize(
    ("typed", "code"),
    [("k7m4px", "K7M4PX"), (" K7M 4PX ", "K7M4PX"), ("k7m-4px", "K7M4PX"), ("K7M·4PX", "K7M4PX")],
)
def test_typed_codes_are_normalised(typed, code):
    assert codes.normalise(typed) == code


def test_a_collision_draws_again(monkeypatch):
    course = make_course(person("ines", instructor=True))
    taken = make_cohort(course, "First")
    drawn = iter([taken.join_code, taken.join_code, "ABC346"])
    monkeypatch.setattr(codes, "draw", lambda: next(drawn))
    cohort = make_cohort(course, "Second")
    assert cohort.join_code == "ABC346"
    assert Cohort.objects.count() == 2


def test_a_code_space_that_never_frees_up_gives_up_cleanly(monkeypatch):
    course = make_course(person("ines", instructor=True))
    taken = make_cohort(course, "First")
    monkeypatch.setattr(codes, "draw", lambda: taken.join_code)
    with pytest.raises(codes.CodeSpaceExhausted):
        make_cohort(course, "Second")
    assert Cohort.objects.count() == 1


def test_qr_code_is_inline_svg_without_style_attributes():
    svg = str(qr.link("https://example.org/courses/join/ABC346/", 'a "label"'))
    assert svg.startswith("<svg ")
    assert 'role="img"' in svg and 'aria-label="a &quot;label&quot;"' in svg
    assert "style" not in svg and "<script" not in svg
    assert re.search(r'viewBox="0 0 \d+ \d+"', svg)
