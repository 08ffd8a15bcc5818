"""A drill set on a phone: the play runs, stops, one call in time, one time-out, and the
dashboard's decision time (issue 24)."""

import re

import pytest
from playwright.sync_api import expect

from polotrainer.drills.models import DrillItem
from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.support import assert_accessible, assert_fits, shoot

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def drill_site(transactional_db):
    from tests.content import create_drill_content

    return create_drill_content()


def signed_in(browser, live_server, user, viewport, **extra):
    from django.test import Client

    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport=viewport, base_url=live_server.url, **extra)
    cookie = client.cookies["sessionid"].value
    context.add_cookies([{"name": "sessionid", "value": cookie, "url": live_server.url}])
    return context


def play_until_the_call(page) -> None:
    page.click("#play-button")
    page.wait_for_selector("#drill-questions:not([disabled])", timeout=20_000)


@pytest.mark.parametrize("lang", ["en", "it"])
def test_a_set_on_a_phone_one_call_in_time_one_time_out(
    browser, live_server, drill_site, trainee, lang
):
    context = signed_in(browser, live_server, trainee, PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(f"/{lang}/drills/")
    assert_accessible(page)
    shoot(page, f"drills-home-{lang}-phone")
    page.click("#start-drill")
    page.wait_for_selector("#play-button")
    assert_fits(page)
    shoot(page, f"drills-before-{lang}-phone")

    # Play 1: the scene plays, stops, and the call goes by the keyboard within the countdown.
    play_until_the_call(page)
    assert page.locator("#actors g.actor").count() >= 3
    assert page.locator("#reveal-layer *").count() == 0  # no spot before the answer
    assert page.locator("#scene-text li").count() >= 2  # the play in words
    # What happened last before the stop is said under the field too (not the stop itself).
    caption = page.locator("#scene-caption").inner_text()
    assert caption and caption in page.locator("#scene-text").inner_text()
    shoot(page, f"drills-stop-{lang}-phone")
    page.keyboard.press("1")
    page.keyboard.press("Enter")
    page.wait_for_selector("#reveal-heading", timeout=10_000)
    reveal = page.locator("#reveal").inner_text()
    assert re.search(r"\d[.,]\d", reveal)  # the decision time, in seconds
    first = DrillItem.objects.get(position=1)
    assert first.answered_at is not None and not first.timed_out
    assert first.decision_ms is not None and first.decision_ms < first.window_ms + 1500
    assert_accessible(page)
    assert_fits(page)
    shoot(page, f"drills-reveal-{lang}-phone")
    page.locator("[data-replay='1']").click()
    expect(page.locator("[data-replay-count]")).to_contain_text("1")

    # Play 2: nothing answered, the countdown runs out: a time-out, wrong with no choice.
    page.click("#next-play")
    play_until_the_call(page)
    page.wait_for_selector("#reveal-heading", timeout=20_000)
    assert {"en": "Time-out", "it": "Tempo scaduto"}[lang] in page.locator(
        "#reveal-heading"
    ).inner_text()
    second = DrillItem.objects.get(position=2)
    assert second.timed_out and second.correct is False

    # The dashboard: the decision time of each section drilled.
    page.goto(f"/{lang}/me/")
    text = page.locator("#decisions-title").inner_text()
    assert text == {"en": "Decision time", "it": "Tempo di decisione"}[lang]
    assert page.locator("ul.decisions li").count() == 2
    assert_fits(page)
    shoot(page, f"drills-dashboard-{lang}-phone")
    context.close()


def test_reduced_motion_shows_the_key_frames_step_by_step(
    browser, live_server, drill_site, trainee
):
    context = signed_in(browser, live_server, trainee, DESKTOP, reduced_motion="reduce")
    page = context.new_page()
    page.goto("/en/drills/")
    page.click("#start-drill")
    page.click("#play-button")
    # Each key frame shows for 1.2 s: a loaded machine may first look at a later one.
    expect(page.locator("#drill-status")).to_contain_text(
        re.compile(r"Key frame \d+ of \d+"), timeout=15_000
    )
    shoot(page, "drills-steps-en-desktop")
    page.wait_for_selector("#drill-questions:not([disabled])", timeout=30_000)
    item = DrillItem.objects.get(position=1)
    # The server times the stop as played: one step per key frame.
    assert item.stop_ms is not None and item.stop_ms % 1200 == 0
    shoot(page, "drills-stop-en-desktop")
    context.close()
