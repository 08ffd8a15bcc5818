"""The field says where it is at every width: the 30-, 40- and 60-yard lines and the centre
carry their numbers in the close-up of a place question as on the whole field, and no two
numbers touch, on a phone or a wide screen (field.js staggers or leaves out the crowded ones)."""

import pytest

from tests.browser.support import shoot_part
from tests.browser.test_practice import answer_others, right_answers

pytestmark = pytest.mark.django_db(transaction=True)

WIDTHS = [320, 360, 414, 480, 600, 768, 1024, 1280, 1600]

#: The numbers on screen in the field's view: text, box; and any two that overlap.
NUMBERS = """(selector) => {
  const svg = document.querySelector(selector), outer = svg.getBoundingClientRect();
  const shown = [...svg.querySelectorAll(".line-label")]
    .filter(t => t.getBoundingClientRect().width > 0)
    .map(t => ({text: t.textContent, box: t.getBoundingClientRect()}));
  const touching = [];
  shown.forEach((a, i) => shown.slice(i + 1).forEach(b => {
    if (a.box.left < b.box.right && b.box.left < a.box.right &&
        a.box.top < b.box.bottom && b.box.top < a.box.bottom) touching.push(a.text + "/" + b.text);
  }));
  const outside = shown.filter(n => n.box.left < outer.left - 1 || n.box.right > outer.right + 1
    || n.box.top < outer.top - 1 || n.box.bottom > outer.bottom + 1).map(n => n.text);
  return {texts: shown.map(n => n.text), touching, outside};
}"""


def _numbers(page, selector: str) -> dict:
    # field.js lays the numbers out on resize; read them once the frame after it is drawn.
    page.evaluate("new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
    return page.evaluate(NUMBERS, selector)


@pytest.mark.parametrize("lang", ["it", "en"])
def test_the_lines_carry_their_numbers_that_never_touch(browser, live_server, content, lang):
    context = browser.new_context(viewport={"width": 360, "height": 780}, base_url=live_server.url)
    page = context.new_page()
    page.goto(f"/{lang}/practice/t-safety-spot/0/")
    problems = []
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 780})
        for view in ("close-up", "whole"):
            zoomed = page.evaluate(
                "document.querySelector('svg[data-field]').classList.contains('zoomed')"
            )
            if zoomed != (view == "close-up"):
                page.locator("[data-field-zoom]").click()
            found = _numbers(page, "svg[data-field]")
            if found["touching"] or found["outside"]:
                problems.append(
                    f"{width}px {view}: touching {found['touching']}, outside {found['outside']}"
                )
            # The goal's half says where it is: the 30 and the 60 and the centre, always.
            wanted = {"30", "60", "150"}
            if not wanted <= set(found["texts"]):
                problems.append(f"{width}px {view}: only {found['texts']}")
            if width in (360, 1280):
                shoot_part(page.locator("svg[data-field]"), f"field-labels-{lang}-{width}-{view}")
    assert not problems, "\n".join(problems)

    # After answering, the close-up around the spots still shows a line with its number.
    page.set_viewport_size({"width": 360, "height": 780})
    page.locator("input[data-place='along']").fill("95")
    page.locator("input[data-place='across']").fill("0")
    answer_others(page, right_answers(content["t-safety-spot"], 0))
    page.locator("#quiz button[type=submit]").click()
    page.locator("#feedback-heading").wait_for()
    found = _numbers(page, "#feedback-field")
    assert found["texts"] and not found["touching"] and not found["outside"], found
    shoot_part(page.locator("#feedback-field"), f"field-labels-{lang}-360-feedback")
    context.close()
