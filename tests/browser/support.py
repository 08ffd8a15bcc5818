"""What every browser test checks on a page: axe-core, width, a screenshot."""

import os
import re
from pathlib import Path

import axe_playwright_python

from scenarios.diagram import field_of
from scenarios.questions import build_questions
from scenarios.spots import FieldSpot
from scenarios.variants import make_variant

SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
#: Screenshots are for people to look at (`make screenshots`), not for the tests' verdict: the
#: suite's ~570 full-page PNGs cost minutes of chromium's time on every run, so they are taken
#: only when SCREENSHOTS=1.
SHOOTING = os.environ.get("SCREENSHOTS", "0") == "1"


def shoot(page, name: str, *, full_page: bool = True) -> Path:
    """Save a screenshot of the page, whole or its window, as a test artifact (SCREENSHOTS=1)."""
    path = SCREENSHOTS / f"{name}.png"
    if SHOOTING:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(path), full_page=full_page)
    return path


def shoot_part(locator, name: str) -> Path:
    """Save a screenshot of one part of a page (a figure) as a test artifact (SCREENSHOTS=1)."""
    path = SCREENSHOTS / f"{name}.png"
    if SHOOTING:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        locator.screenshot(path=str(path))
    return path


#: axe-core, as the axe-playwright-python package ships it (572 KB of script).
AXE = (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text()


def axe_violations(page, options: dict | None = None) -> list[dict]:
    """axe-core's violations on the page as it is now: id, impact, help and each node's target.

    The script goes into a document once (axe-playwright-python's `Axe().run` sends its 572 KB
    on every call: ~0.1 s each), and only the violations come back, not every rule's results.
    """
    if page.evaluate("typeof axe") == "undefined":
        page.evaluate(AXE)
    return page.evaluate(
        """options => axe.run(document, options).then(r => r.violations.map(v => ({
          id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map(n => n.target)
        })))""",
        {"resultTypes": ["violations"], **(options or {})},
    )


def assert_accessible(page) -> None:
    """Fail on any serious or critical axe-core violation on the current page."""
    bad = [
        f"{v['id']} ({v['impact']}): {v['help']} — {v['targets'][:3]}"
        for v in axe_violations(page)
        if v["impact"] in {"serious", "critical"}
    ]
    assert not bad, f"axe-core on {page.url}:\n" + "\n".join(bad)


def contrast_problems(page) -> list[str]:
    """axe-core's colour contrast checks, WCAG AA and the enhanced (AAA) level, on the page."""
    rules = {"runOnly": ["color-contrast", "color-contrast-enhanced"]}
    return [f"{v['id']}: {v['targets'][:4]}" for v in axe_violations(page, rules)]


#: Some answer to every question of the form on the page, as a hurried person gives it, in one
#: call to the page: the first choice of each choice question, 10 in an empty box, and the
#: selects of an order question consecutive places (the same place twice is refused, 400).
ANSWER_SOMETHING = """() => {
  const form = document.querySelector('#quiz form, form#quiz, form.exam-form, main form');
  const names = new Set();
  let selects = 0;
  for (const input of form.querySelectorAll('input, select')) {
    if (input.type === 'hidden' || input.disabled) continue;
    if (input.type === 'radio' || input.type === 'checkbox') {
      if (!names.has(input.name)) { input.checked = true; names.add(input.name); }
    } else if (input.tagName === 'SELECT') {
      const first = input.options[0] && input.options[0].value === '' ? 1 : 0;
      const choices = input.options.length - first;
      input.selectedIndex = choices > 0 ? first + (selects++ % choices) : 0;
    } else if (!input.value) {
      input.value = '10';
    }
  }
}"""


# The elements that stick out past either side of the viewport, to say what to fix.
_STICKING_OUT = """() => {
  const width = document.documentElement.clientWidth, out = [];
  for (const el of document.querySelectorAll("body *")) {
    const box = el.getBoundingClientRect();
    if (box.width && (box.right > width + 1 || box.left < -1) && !el.closest(".skip-link"))
      out.push(`${el.tagName.toLowerCase()}.${el.className} ` +
               `${Math.round(box.left)}..${Math.round(box.right)}`);
  }
  return out.slice(0, 5);
}"""


def assert_fits(page) -> None:
    """Nothing scrolls sideways: the page is usable at the viewport's width.

    A phone (is_mobile) zooms its window out to the page when something overflows, so the
    window's width proves nothing there: the page is compared with the layout width too.
    """
    overflow = page.evaluate(
        "document.documentElement.scrollWidth"
        " - Math.min(window.innerWidth, document.documentElement.clientWidth)"
    )
    assert overflow <= 1, (
        f"{page.url} is {overflow}px wider than the viewport: {page.evaluate(_STICKING_OUT)}"
    )


# The variant a practice page shows, and what the engine says of it.


def variant_of(page):
    slug, seed = re.search(r"/practice/([^/]+)/(\d+)/", page.url).groups()
    return slug, int(seed)


def right_answers(scenario, seed):
    variant = make_variant(scenario.slug, scenario.data, seed)
    questions = build_questions(scenario.kind, scenario.data, variant.facts)
    return {q.id: (q, q.right_answer(variant.ruling)) for q in questions}


def typed(scenario, seed, spot):
    """The yards a trainee types for an engine point of the variant (along, across)."""
    variant = make_variant(scenario.slug, scenario.data, seed)
    return FieldSpot.from_engine(spot, field_of(variant.facts))


# The projector fits its screen (tests/browser/test_projector_fit.py, the drill round).

#: Text of the round smaller than this share of the screen's height is not read from the back
#: of a room (12 px at 768, 17 px at 1080): the longest rounds come near it, most stay far above.
SMALLEST_TEXT = 0.016

#: What does not fit: the page scrolling either way, a region whose content is cut, the
#: controls off the screen or over the round, text too small to read from the back.
MISFIT = """(smallest) => {
  const doc = document.documentElement, out = [];
  const down = doc.scrollHeight - innerHeight, sideways = doc.scrollWidth - innerWidth;
  if (down > 1) out.push(`scrolls down ${down}px`);
  if (sideways > 1) out.push(`scrolls sideways ${sideways}px`);
  for (const el of document.querySelectorAll("#stage [data-fit-box]")) {
    if (el.scrollHeight > el.clientHeight + 1)
      out.push(`${el.className} cut by ${el.scrollHeight - el.clientHeight}px`);
  }
  const controls = document.querySelector("#stage .controls");
  if (controls) {
    const box = controls.getBoundingClientRect();
    if (box.bottom > innerHeight + 1) out.push(`controls end ${Math.round(box.bottom)}px down`);
    for (const el of document.querySelectorAll("#stage [data-fit-box]")) {
      if (el.getBoundingClientRect().bottom > box.top + 1) out.push("controls over the round");
    }
  }
  const words = "#stage [data-fit-box] :is(p, li, td, h1, h2), #stage .stage-head h1";
  for (const el of document.querySelectorAll(words)) {
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (el.checkVisibility() && el.textContent.trim() && size < smallest * innerHeight)
      out.push(`${el.tagName.toLowerCase()}.${el.className} at ${size}px`);
  }
  return [...new Set(out)].slice(0, 6).join("; ");
}"""


def fitted(page, width: int, height: int) -> None:
    """Resize the window and wait for the projector to lay its stage out for it."""
    page.set_viewport_size({"width": width, "height": height})
    page.wait_for_function(
        """([w, h]) => {
          const live = document.getElementById("live");
          const stage = live.querySelector("[data-version]");
          // (A page without the fitting script has nothing to wait for.)
          return live.dataset.fitted === `${w}x${h}:${stage.dataset.version}`
            || live.dataset.fitted === undefined;
        }""",
        arg=[width, height],
        timeout=8000,
    )
