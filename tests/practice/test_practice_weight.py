"""The practice page's weight: HTML, CSS, JS and SVG together, compressed, and no other host."""

import gzip
import re

import pytest
from django.contrib.staticfiles import finders

from tests.practice.test_practice import answer, right_form

LIMIT = 60 * 1024
pytestmark = pytest.mark.django_db


def weight(html: str) -> tuple[int, dict[str, int]]:
    """Gzipped bytes of the page and of every static file it references."""
    sizes = {"page": len(gzip.compress(html.encode(), 6))}
    for url in re.findall(r'(?:href|src)="(/static/[^"]+)"', html):
        path = finders.find(url.removeprefix("/static/"))
        assert path, url
        with open(path, "rb") as handle:
            sizes[url] = len(gzip.compress(handle.read(), 6))
    return sum(sizes.values()), sizes


def external(html: str) -> list[str]:
    return re.findall(r'(?:href|src|action)="((?:https?:)?//[^"]+)"', html)


@pytest.mark.parametrize("slug", ["t-safety-spot", "t-p4-positions"])
def test_question_and_feedback_pages_weigh_under_60_kb_and_stay_on_this_host(
    client, scenarios, slug
):
    question = client.get(f"/it/practice/{slug}/0/").content.decode()
    feedback = answer(client, slug, 0, right_form(scenarios[slug], 0), lang="it").content.decode()
    for html in (question, feedback):
        total, sizes = weight(html)
        print(slug, total, sizes)
        assert total <= LIMIT, sizes
        assert not external(html)
        assert "/static/js/field.js" in html and "/static/css/practice.css" in html
