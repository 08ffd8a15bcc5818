"""The staff look-up (Django's admin) runs under the site's Content-Security-Policy: staff log
in on its own page, its styles and scripts load, nothing is refused, in both languages and on a
phone; screenshots of each."""

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from polotrainer.courses.models import Cohort, Course
from polotrainer.umpires.models import Profile
from tests.browser.support import shoot
from tests.browser.test_csp import LISTEN

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "correct-horse-battery-staple-42"


@pytest.fixture
def staff(transactional_db):
    sam = get_user_model().objects.create_user("sam", "sam@example.org", PASSWORD, is_staff=True)
    Profile.objects.create(user=sam, display_name="Sam Staff", language="en")
    course = Course.objects.create(
        title_it="Corso arbitri", title_en="Umpire course", track="outdoor", year=2026
    )
    Cohort.objects.create(course=course, name="Primavera", join_code="ABC234")
    return sam


@pytest.mark.parametrize("lang", ["en", "it"])
@pytest.mark.parametrize("width", [360, 1280])
def test_the_look_up_loads_its_styles_and_scripts_under_the_policy(
    browser, live_server, staff, lang, width
):
    context = browser.new_context(
        viewport={"width": width, "height": 900}, base_url=live_server.url
    )
    context.add_init_script(LISTEN)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("response", lambda r: errors.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    page.goto(f"/{lang}/staff/lookup/")
    page.fill("#id_username", "sam")
    page.fill("#id_password", PASSWORD)
    page.locator("input[type=submit]").click()
    page.wait_for_url(f"**/{lang}/staff/lookup/")
    shoot(page, f"lookup-index-{lang}-{width}")
    # The admin's stylesheet applied (its header bar has the admin's colour, not none).
    assert page.evaluate("getComputedStyle(document.querySelector('#header')).display") == "flex"
    # goto waits for the load event: the admin's scripts (plain <script> tags) have run. Not
    # "networkidle", which once waited past its 30 s under a loaded CI (nothing on these pages
    # loads later).
    page.goto(f"/{lang}/staff/lookup/courses/cohort/?q=ABC234")
    expect(page.locator("#result_list").get_by_text("Primavera")).to_have_count(1)
    # The admin's scripts ran: the changelist's actions script marks the select-all box.
    assert page.evaluate("typeof django") == "object"
    shoot(page, f"lookup-cohorts-{lang}-{width}")
    page.goto(f"/{lang}/staff/lookup/auth/user/{staff.pk}/change/")
    expect(page.locator("#user_form")).to_be_visible()
    shoot(page, f"lookup-person-{lang}-{width}")
    assert page.evaluate("window.__violations") == []
    assert errors == []
    context.close()
