"""The edit forms with dates and times, in Italian, in Chromium: shown filled in, saved unchanged.

tests/site/test_form_round_trip.py models what a browser sends; here a browser does it: the
date inputs must show their dates (Chromium empties one whose value is not an ISO date) and a
click on Save must leave the row as it was.
"""

import pytest
from django.test import Client
from django.utils import translation

from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.support import assert_accessible, assert_fits, shoot
from tests.site.test_form_round_trip import CASES, make_story

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def story(transactional_db):
    return make_story()


ROWS = {case.name: case for case in CASES}
#: The forms with date and time inputs, and the values Chromium shows in them.
FORMS = {
    "cohort": lambda s: {"join_expires_on": f"{s.cohort.join_expires_at:%Y}-11-26"},
    "assignment": lambda s: {"due_on": s.assignment.due_on.isoformat()},
    "observation": lambda s: {"observed_on": s.observation.observed_on.isoformat()},
    "exam": lambda s: {
        "opens_at": f"{s.exam.opens_at:%Y}-05-14T09:30",
        "closes_at": f"{s.exam.closes_at:%Y}-05-21T17:45",
    },
}


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_an_italian_edit_form_shows_its_dates_and_saves_them_unchanged(
    browser, live_server, story, size
):
    viewport = PHONE if size == "phone" else DESKTOP
    # An Italian browser (its language and navigator.language); headless Chromium still draws
    # the date controls in its own locale's order.
    context = browser.new_context(
        viewport=viewport, base_url=live_server.url, is_mobile=size == "phone", locale="it-IT"
    )
    client = Client()
    client.force_login(story.instructor)
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    p = context.new_page()
    for name, shown in FORMS.items():
        case = ROWS[name]
        before = case.rows(story)
        with translation.override("it"):
            p.goto(case.page(story))
        for field, value in shown(story).items():
            assert p.locator(f"main form [name={field}]").input_value() == value, (name, field)
        assert_accessible(p)
        assert_fits(p)
        shoot(p, f"edit-{name}-it-{size}")
        with p.expect_navigation():
            p.locator("main form button[type=submit]").click()
        assert "/it/" in p.url and "/edit/" not in p.url, (name, p.url)
        assert case.rows(story) == before, name
    context.close()
