"""Practice as a newcomer meets it: a tap on a phone, errors in focus, reloads and languages."""

import pytest

from polotrainer.umpires.models import Attempt
from tests.browser.support import assert_fits, shoot
from tests.browser.test_practice import right_answers, submit

pytestmark = pytest.mark.django_db(transaction=True)

RIGHT = {"en": "Right!", "it": "Esatto!"}


def tap_field_at(page, x, y):
    """Tap the place question's field at field point (x, y), in yards (engine frame)."""
    at = page.evaluate(
        """([x, y]) => {
          const svg = document.querySelector('svg[data-field]');
          const p = new DOMPoint(x, -y).matrixTransform(svg.getScreenCTM());
          return [p.x, p.y];
        }""",
        [x, y],
    )
    page.touchscreen.tap(at[0], at[1])


@pytest.mark.parametrize("lang", ["it", "en"])
def test_a_tap_inside_the_tolerance_on_a_phone_is_right(phone, content, lang):
    scenario = content["t-safety-spot"]
    phone.goto(f"/{lang}/practice/t-safety-spot/5/")
    svg = phone.locator("svg[data-field]")
    # On a phone the field opens on the fouling team's half: about twice the pixels per yard.
    assert svg.get_attribute("viewBox") == svg.get_attribute("data-zoom")
    per_yard = phone.evaluate(
        "(() => { const s = document.querySelector('svg[data-field]');"
        " return s.getBoundingClientRect().width / s.viewBox.baseVal.width; })()"
    )
    assert per_yard > 1.4
    answers = right_answers(scenario, 5)
    spot = answers["spot"][1]
    # A finger lands a yard off: still inside the 2-yard tolerance.
    tap_field_at(phone, spot["x"] + 1, spot["y"])
    readout = phone.locator("[data-readout]").inner_text()
    assert readout and "yd" in readout
    goal = "true" if answers["goal"][1] else "false"
    phone.locator(f"input[name=q-goal][value='{goal}']").check()
    assert_fits(phone)
    shoot(phone, f"practice-tap-{lang}-phone")
    submit(phone)
    feedback = phone.locator("#feedback")
    assert RIGHT[lang] in feedback.inner_text()
    # The feedback's field is a close-up: the tolerance ring is drawn at a readable size.
    ring = phone.locator("#feedback-field circle.tolerance").bounding_box()
    assert ring["width"] >= 12
    assert Attempt.objects.filter(question="spot", correct=True).count() == 1
    shoot(phone, f"practice-tap-feedback-{lang}-phone")


def test_dragging_moves_the_ball_and_the_nudge_buttons_move_it_a_yard(phone, content):
    phone.goto("/en/practice/t-safety-spot/5/")
    box = phone.locator("svg[data-field]").bounding_box()
    phone.mouse.move(box["x"] + box["width"] * 0.5, box["y"] + box["height"] * 0.5)
    phone.mouse.down()
    phone.mouse.move(box["x"] + box["width"] * 0.6, box["y"] + box["height"] * 0.5, steps=5)
    phone.mouse.up()
    along = float(phone.input_value("[data-place=along]"))
    phone.get_by_role("button", name="Up the field").click()
    assert float(phone.input_value("[data-place=along]")) == along + 1
    phone.get_by_role("button", name="Whole field").click()
    svg = phone.locator("svg[data-field]")
    assert svg.get_attribute("viewBox") == svg.get_attribute("data-whole")


@pytest.mark.parametrize("lang", ["it", "en"])
def test_a_refused_answer_puts_focus_on_the_message(page, content, lang):
    page.goto(f"/{lang}/practice/t-horn-seconds/3/")
    page.locator("#quiz button[type=submit]").click()
    page.locator("#quiz-error").wait_for()
    # Focus moves once htmx has settled the swap, a moment after the message appears.
    page.wait_for_function("document.activeElement?.id === 'quiz-error'", timeout=5000)
    assert page.evaluate("document.activeElement.id") == "quiz-error"
    assert Attempt.objects.count() == 0


def test_switching_language_after_answering_keeps_the_feedback(page, content):
    page.goto("/en/practice/t-horn-seconds/3/")
    page.locator("#q-seconds-input").fill("999")
    submit(page)
    assert "/t-horn-seconds/3/?answered=" in page.url
    page.get_by_role("button", name="Italiano").click()
    page.locator("#feedback-heading").wait_for()
    assert "/it/practice/t-horn-seconds/3/?answered=" in page.url
    assert "Non proprio." in page.locator("#feedback").inner_text()
    assert page.locator("#q-seconds-input").is_disabled()
    shoot(page, "practice-language-switch-after-answering-it-desktop")


def test_without_javascript_reloading_the_answer_address_is_never_a_blank_page(
    browser, live_server, content
):
    context = browser.new_context(java_script_enabled=False, base_url=live_server.url)
    page = context.new_page()
    page.goto("/en/practice/t-horn-seconds/3/")
    page.locator("#q-seconds-input").fill("999")
    page.locator("#quiz button[type=submit]").click()
    page.wait_for_url("**/answer/#feedback")
    assert "Not quite." in page.locator("#feedback").inner_text()
    page.goto(page.url.split("#")[0])  # opening the address again (a restored tab): a GET
    assert "/practice/t-horn-seconds/3/" in page.url and "/answer/" not in page.url
    assert page.locator("#quiz").is_visible()
    context.close()


@pytest.mark.parametrize("lang", ["it", "en"])
@pytest.mark.parametrize("width", [360, 1280])
def test_every_kind_of_question_fits_and_is_shot(browser, live_server, content, lang, width):
    context = browser.new_context(
        viewport={"width": width, "height": 800}, base_url=live_server.url, is_mobile=width < 500
    )
    page = context.new_page()
    for slug in content:
        page.goto(f"/{lang}/practice/{slug}/0/")
        assert_fits(page)
        shoot(page, f"practice-{slug}-{lang}-{width}")
    context.close()
