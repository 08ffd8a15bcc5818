"""A practice round as a trainee plays it: click and keyboard placement, htmx feedback, focus."""

import re

import pytest

from polotrainer.umpires.models import Attempt
from scenarios.spots import FieldSpot
from tests.browser.support import (
    assert_accessible,
    assert_fits,
    right_answers,
    shoot,
    typed,
    variant_of,
)

pytestmark = pytest.mark.django_db(transaction=True)

WORDS = {
    "en": {"check": "Check my answer", "next": "Next question"},
    "it": {"check": "Controlla la risposta", "next": "Domanda successiva"},
}


def submit(page):
    page.locator("#quiz button[type=submit]").click()
    page.locator("#feedback-heading").wait_for()


def check_swapped_without_reload(page):
    assert page.evaluate("window.__notReloaded === true")
    # Focus moves once htmx has settled the swap, a moment after the heading appears.
    page.wait_for_function("document.activeElement?.id === 'feedback-heading'", timeout=5000)


def click_field_at(page, x, y):
    """Click the SVG at field point (x, y) in yards (engine frame)."""
    box = page.evaluate(
        """([x, y]) => {
          const svg = document.querySelector('svg[data-field]');
          const p = new DOMPoint(x, -y).matrixTransform(svg.getScreenCTM());
          return [p.x, p.y];
        }""",
        [x, y],
    )
    page.mouse.click(box[0], box[1])


def answer_others(page, answers):
    for qid, (q, right) in answers.items():
        if q.type in {"choice", "bool"}:
            value = ("true" if right else "false") if q.type == "bool" else right
            page.locator(f"input[name=q-{qid}][value='{value}']").check()
        elif q.type in {"multi", "players"}:
            for value in right:
                page.locator(f"input[name=q-{qid}][value='{value}']").check()
        elif q.type == "number":
            page.locator(f"#q-{qid}-input").fill(str(right))


@pytest.mark.parametrize("lang", ["en", "it"])
def test_a_whole_round_with_click_and_keyboard_placement(page, phone, content, lang):
    page.goto(f"/{lang}/practice/?section=37.6")
    page.wait_for_url(re.compile(r"/practice/t-safety-spot/\d+/\?section=37\.6$"))
    assert page.locator("html").get_attribute("lang") == lang
    assert_accessible(page)
    shoot(page, f"practice-question-{lang}-desktop")

    # 1. Place by click.
    slug, seed = variant_of(page)
    answers = right_answers(content[slug], seed)
    spot = answers["spot"][1]
    page.evaluate("window.__notReloaded = true")
    click_field_at(page, spot["x"], spot["y"])
    assert (
        page.locator("#q-spot-along").input_value()
        == typed(content[slug], seed, spot).form_values()[0]
    )
    answer_others(page, {k: v for k, v in answers.items() if k != "spot"})
    submit(page)
    check_swapped_without_reload(page)
    assert (
        page.locator("#feedback-heading")
        .inner_text()
        .strip()
        .endswith("Right!" if lang == "en" else "Esatto!")
        or "✓" in page.locator("#feedback-heading").inner_text()
    )
    assert page.locator(".right-mark").count() == 1 and page.locator(".mine-mark").count() == 1
    assert_accessible(page)
    shoot(page, f"practice-feedback-{lang}-desktop")

    # 2. Next keeps the section; place by keyboard only.
    page.locator("#next-question").click()
    page.wait_for_url(re.compile(r"/practice/t-safety-spot/\d+/\?section=37\.6$"))
    slug, seed = variant_of(page)
    answers = right_answers(content[slug], seed)
    spot = answers["spot"][1]
    page.evaluate("window.__notReloaded = true")
    page.locator("svg[data-field]").focus()
    wanted = typed(content[slug], seed, spot)
    centre = typed(content[slug], seed, {"x": 0, "y": 0})  # where the marker starts
    along, across = wanted.from_goal_line - centre.from_goal_line, wanted.across
    for delta, (big, small) in ((along, ("Right", "Left")), (across, ("Up", "Down"))):
        key = big if delta > 0 else small
        for _ in range(int(abs(delta)) // 10):
            page.keyboard.press(f"Shift+Arrow{key}")
        for _ in range(int(abs(delta)) % 10):
            page.keyboard.press(f"Arrow{key}")
    assert page.locator("#q-spot-along").input_value() == wanted.form_values()[0]
    assert page.locator("#q-spot-across").input_value() == wanted.form_values()[1]
    page.keyboard.press("Tab")  # on to the across input... then to the radios
    answer_others(page, {k: v for k, v in answers.items() if k != "spot"})
    page.locator("#quiz button[type=submit]").focus()
    page.keyboard.press("Enter")
    page.locator("#feedback-heading").wait_for()
    check_swapped_without_reload(page)
    assert page.locator(".results li.right").count() == 2

    # 3. The other kinds: players and select-all, choice, number.
    for slug in ("t-p4-positions", "t-p3-interference", "t-horn-seconds"):
        page.goto(f"/{lang}/practice/{slug}/0/")
        page.evaluate("window.__notReloaded = true")
        answer_others(page, right_answers(content[slug], 0))
        submit(page)
        check_swapped_without_reload(page)
        assert page.locator(".results li.wrong").count() == 0
        if slug == "t-p4-positions":
            assert_accessible(page)
            shoot(page, f"practice-positions-{lang}-desktop")
    assert Attempt.objects.count() == 2 + 2 + 2 + 1 + 1

    # 4. The phone: the diagram fits, the page does not scroll sideways.
    phone.goto(f"/{lang}/practice/t-p4-positions/0/")
    assert_fits(phone)
    assert_accessible(phone)
    shoot(phone, f"practice-question-{lang}-phone")
    answer_others(phone, right_answers(content["t-p4-positions"], 0))
    phone.locator("#quiz button[type=submit]").click()
    phone.locator("#feedback-heading").wait_for()
    assert_fits(phone)
    shoot(phone, f"practice-feedback-{lang}-phone")


@pytest.mark.parametrize("lang", ["en", "it"])
def test_on_a_shorter_field_the_ball_is_measured_from_its_own_goal_line(page, phone, content, lang):
    """On a 250-yard field the Safety's spot, 60 yards from the goal line, is 65 yards from the
    centre (not 90): a click there types 60, the ball is drawn where it was clicked, and the
    feedback says 60."""
    from django.utils import translation

    from tests.content import SPOT, make_scenario

    short = {**SPOT, "slug": "t-safety-short"}
    short["facts"] = {**SPOT["facts"], "field": {"length": 250, "width": 160, "boarded": True}}
    make_scenario(short)
    with translation.override(lang):
        said = FieldSpot(60, 40).words()  # the rulebook's 60-yard line, 40 from the centre
    for browser_page, size in ((page, "desktop"), (phone, "phone")):
        browser_page.goto(f"/{lang}/practice/t-safety-short/0/")
        click_field_at(browser_page, -65, 40)
        assert browser_page.locator("#q-spot-along").input_value() == "60"
        assert browser_page.locator("#q-spot-across").input_value() == "40"
        ball = browser_page.locator("[data-marker] .dot").bounding_box()
        aimed = browser_page.evaluate(
            """() => {
              const svg = document.querySelector('svg[data-field]');
              return new DOMPoint(-65, -40).matrixTransform(svg.getScreenCTM()).toJSON();
            }"""
        )
        centre = (ball["x"] + ball["width"] / 2, ball["y"] + ball["height"] / 2)
        assert abs(centre[0] - aimed["x"]) < 2 and abs(centre[1] - aimed["y"]) < 2
        browser_page.locator("svg[data-field]").focus()
        browser_page.keyboard.press("ArrowRight")
        assert browser_page.locator("#q-spot-along").input_value() == "61"
        browser_page.keyboard.press("ArrowLeft")
        shoot(browser_page, f"practice-short-field-question-{lang}-{size}")
        browser_page.locator("input[name=q-goal][value=false]").check()
        submit(browser_page)
        feedback = browser_page.locator("#feedback").inner_text()
        assert said in feedback
        assert browser_page.locator(".results li.wrong").count() == 0
        if size == "phone":
            assert_fits(browser_page)
        else:
            assert_accessible(browser_page)
        shoot(browser_page, f"practice-short-field-feedback-{lang}-{size}")


def test_bad_input_shows_a_message_next_to_the_question(page, content):
    page.goto("/en/practice/t-horn-seconds/0/")
    page.locator("#q-seconds-input").fill("five")
    page.locator("#quiz button[type=submit]").click()
    page.locator("#q-seconds-error").wait_for()
    assert "number" in page.locator("#q-seconds-error").inner_text()
    assert page.locator("#q-seconds-input").input_value() == "five"
    assert Attempt.objects.count() == 0
    assert_accessible(page)


def test_whatif_swaps_in_the_changed_ruling(page, content):
    page.goto("/en/practice/t-safety-spot/0/")
    page.locator("#q-spot-along").fill("60")
    page.locator("#q-spot-across").fill("40")
    page.locator("input[name=q-goal][value=false]").check()
    submit(page)
    page.locator("#whatif-side").select_option("right")
    page.locator("form.whatif-form:has(#whatif-side) button").click()
    page.locator("#whatif table").wait_for()
    assert "40 yards right of the centre" in page.locator("#whatif").inner_text()
    assert_accessible(page)
    shoot(page, "practice-whatif-en-desktop")


def test_without_javascript_every_step_works(browser, live_server, content):
    context = browser.new_context(java_script_enabled=False, base_url=live_server.url)
    page = context.new_page()
    page.goto("/en/practice/?rule=21")
    page.wait_for_url(re.compile(r"/practice/t-horn-seconds/\d+/\?rule=21$"))
    slug, seed = variant_of(page)
    answer_others(page, right_answers(content[slug], seed))
    page.locator("#quiz button[type=submit]").click()
    page.wait_for_url(re.compile(r"/answer/\?rule=21#feedback$"))
    assert "Right!" in page.locator("#feedback-heading").inner_text()
    page.locator("#next-question").click()
    page.wait_for_url(re.compile(r"/practice/t-horn-seconds/\d+/\?rule=21$"))
    page.goto("/en/practice/t-safety-spot/0/")
    page.locator("#q-spot-along").fill("60")
    page.locator("#q-spot-across").fill("40")
    page.locator("input[name=q-goal][value=false]").check()
    page.locator("#quiz button[type=submit]").click()
    page.wait_for_url(re.compile(r"/answer/#feedback$"))
    assert "Right!" in page.locator("#feedback-heading").inner_text()
    context.close()
