"""The course world of tests/courses with the real rulebook's sections and one bundled
scenario to copy: Ines (course A, cohort A, trainee Alice) writes; Ivan (course B, Bob) must
never meet what she publishes."""

import copy
import io
from pathlib import Path

import pytest
from django.core.files.base import ContentFile
from PIL import Image

from polotrainer.authoring import editor, publishing
from polotrainer.authoring.models import Situation, Version
from scenarios.content import CONTENT_DIR, read_content
from scenarios.loading import load
from tests.content import SPOT, make_scenario


@pytest.fixture(autouse=True)
def _media(settings, tmp_path: Path) -> Path:
    """Uploads go to a folder of the test's own, never into the checkout."""
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


def picture(fmt: str = "JPEG", size: tuple[int, int] = (60, 40), **save: object) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, (200, 30, 30)).save(out, format=fmt, **save)
    return out.getvalue()


def with_photo(situation: Situation, gives_away: bool = False) -> Situation:
    """The situation with a stored picture, as an upload leaves it."""
    situation.photo.save(f"{situation.pk}-test.jpg", ContentFile(picture()), save=False)
    situation.photo_alt = {"it": "Il campo dall'alto", "en": "The field from above"}
    situation.photo_gives_away = gives_away
    situation.save(update_fields=["photo", "photo_alt", "photo_gives_away"])
    return situation


@pytest.fixture
def rulebook(tmp_path: Path) -> None:
    """The rules and sections of scenarios/content (no scenario): what an author cites."""
    (tmp_path / "rules").symlink_to(CONTENT_DIR / "rules")
    load(read_content(tmp_path, complete=False))


@pytest.fixture
def authoring(world, rulebook):
    world.bundled = make_scenario(copy.deepcopy(SPOT))
    return world


def good_entry() -> dict:
    """A fair situation: SPOT with the nouns agreeing with their numbers."""
    entry = {k: copy.deepcopy(v) for k, v in SPOT.items() if k != "slug"}
    entry["situation"] = {
        "it": "Sei l'Arbitro. Blu #2 colpisce la palla oltre la propria linea di fondo, "
        "{crossing_abs|yarda|yarde} a {side} del centro della porta. Fischi un Safety "
        "(Punizione 6).",
        "en": "You are the umpire. Blue #2 hits the ball across his own end line "
        "{crossing_abs|yard|yards} to the {side} of the centre of the goal. You call a Safety "
        "(Penalty 6).",
    }
    return entry


def draft(w, entry=None) -> Situation:
    return Situation.objects.create(
        course=w.course_a, entry=entry or good_entry(), created_by=w.instructor_a
    )


def form_of(entry: dict, **changes: str) -> dict:
    """The editor's POST for an entry, with some values typed differently."""
    data = {k: v for k, v in editor.to_data(entry).items()}
    post: dict = {k: (v if len(v) != 1 else v[0]) for k, v in data.items() if v}
    post.update(changes)
    return post


def publish_unchecked(situation: Situation) -> Version:
    """Published without the fairness checks (their own tests run them): only the rows."""
    scenario = publishing.unsaved(situation, situation.entry, publishing.slug_for(situation, 1))
    scenario.save()
    return Version.objects.create(situation=situation, number=1, scenario=scenario)
