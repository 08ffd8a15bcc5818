"""A practice round as a trainee plays it: click and keyboard placement, htmx feedback, focus."""

import re

import pytest

from polotrainer.umpires.models import Attempt
from scenarios.questions import build_questions
from scenarios.variants import make_variant
from tests.browser.support import assert_accessible, assert_fits, shoot

pytestmark = pytest.mark.django_db(transaction=True)

WORDS = {
    "en": {"check": "Check my answer", "next": "Next question"},
    "it": {"check": "Controlla la risposta", "next": "Domanda successiva"},
}


def variant_of(page):
    slug, seed = re.search(r"/practice/([^/]+)/(\d+)/", page.url).groups()
    return slug, int(seed)


def right_answers(scenario, seed):
    variant = make_variant(scenario.slug, scenario.data, seed)
    questions = build_questions(scenario.kind, scenario.data, variant.facts)
    return {q.id: (q, q.right_answer(variant.ruling)) for q in questions}


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
    assert page.locator("#q-spot-along").input_value() == f"{spot['x'] + 150:g}"
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
    along, across = spot["x"] + 150 - 150, spot["y"]  # the marker starts at the centre
    for delta, (big, small) in ((along, ("Right", "Left")), (across, ("Up", "Down"))):
        key = big if delta > 0 else small
        for _ in range(int(abs(delta)) // 10):
            page.keyboard.press(f"Shift+Arrow{key}")
        for _ in range(int(abs(delta)) % 10):
            page.keyboard.press(f"Arrow{key}")
    assert page.locator("#q-spot-along").input_value() == f"{spot['x'] + 150:g}"
    assert page.locator("#q-spot-across").input_value() == f"{spot['y']:g}"
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
