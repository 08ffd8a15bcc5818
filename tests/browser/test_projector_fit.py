"""The projector fits the screen it is on: every phase of every kind of round, read from the back
of a room, without scrolling, on the screens a club has (1024x768, 1280x720, 1920x1080), in
both languages; on a phone it may scroll down but never sideways.

One clinic, one round of each kind (choice, multi, order, number, players, place), each the
longest of its kind in the bundled content; three phones answer over HTTP so that every reveal
has its bars, its histogram, its orders and its spots. Two projector pages (Italian, English)
follow the clinic over the event stream; each is checked at every size at every step.
"""

import re

import httpx
import pytest

from tests import servers as server
from tests.browser.support import MISFIT, SMALLEST_TEXT, contrast_problems, fitted, shoot

SCREENS = [(1024, 768), (1280, 720), (1920, 1080)]
PHONE = (360, 740)
WAIT = 8000  # ms
#: The longest round of each kind in the bundled content (situation, questions, reasons).
ROUNDS = {
    "r3-removed-player-remains-qualified": "choice",
    "rp-what-else-may-be-awarded": "multi",
    "order-p7-removal": "order",
    "p7-ceiling-ex2-handicap-goals": "number",
    "pos-p3-undefended": "players",
    "rp-penalty-1-or-2-where": "place",
}


def _phone(base: str, pin: str, nickname: str) -> httpx.Client:
    client = httpx.Client(
        base_url=base,
        cookies={"csrftoken": server.CSRF},
        headers={"X-CSRFToken": server.CSRF, "Referer": base + "/"},
        timeout=30,
    )
    joined = client.post(f"/en/play/{pin}/", data={"nickname": nickname})
    assert joined.status_code == 302, joined.text[:300]
    return client


@pytest.fixture(scope="module")
def room(browser, served):
    """A clinic of one round of each kind, two projector pages (it, en) and three phones."""
    database, running = served
    clinic = server.setup(database, list(ROUNDS))
    forms = server.forms(database, clinic["id"])
    assert {f["slug"] for f in forms.values()} == set(ROUNDS)
    context = browser.new_context(viewport={"width": 1280, "height": 720}, base_url=running.base)
    context.add_cookies([{"name": "sessionid", "value": clinic["session"], "url": running.base}])
    pages = {}
    for lang in ("it", "en"):
        pages[lang] = context.new_page()
        pages[lang].goto(f"/{lang}/clinics/{clinic['id']}/")
    phones = [_phone(running.base, clinic["pin"], n) for n in ("Anna", "Ben", "Chiara")]
    yield clinic, forms, pages, phones
    for phone in phones:
        phone.close()
    context.close()


def test_every_phase_of_every_round_fits_every_projector(room):
    """No scrolling, nothing cut, the controls below the round, type readable from the back,
    and WCAG's enhanced contrast (7:1 for text: no mid-tone that washes out on a projector)."""
    clinic, forms, pages, phones = room
    misfits: list[str] = []

    def check(step: str, shots: bool = True, contrast: bool = False, screens=SCREENS) -> None:
        version = pages["en"].locator("#stage [data-version]").get_attribute("data-version")
        for lang, page in pages.items():
            page.wait_for_selector(f"#stage [data-version='{version}']", timeout=WAIT)
            # Italian, the longer, on every screen; English on the two smaller ones.
            for width, height in screens if lang == "it" else screens[:2]:
                fitted(page, width, height)
                found = page.evaluate(MISFIT, SMALLEST_TEXT)
                if found:
                    misfits.append(f"{lang} {width}x{height} {step}: {found}")
                if shots and (
                    (width, height) == (1280, 720) or (lang == "it" and "reveal" in step)
                ):
                    shoot(page, f"projector-{lang}-{width}x{height}-{step}")
                if contrast and lang == "en" and (width, height) == (1280, 720):
                    misfits.extend(f"{lang} {step}: {p}" for p in contrast_problems(page))
            page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
            sideways = page.evaluate(
                "document.documentElement.scrollWidth - document.documentElement.clientWidth"
            )
            if sideways > 1:
                misfits.append(f"{lang} 360px {step}: scrolls sideways {sideways}px")

    def control(label: re.Pattern[str]) -> None:
        pages["en"].set_viewport_size({"width": 1280, "height": 720})
        pages["en"].locator("#stage .controls").get_by_role("button", name=label).click()

    check("lobby", contrast=True)
    control(re.compile("Show the first round"))
    for position in sorted(forms):
        kind = ROUNDS[forms[position]["slug"]]
        pages["en"].wait_for_selector("#stage [data-phase='open']", timeout=WAIT)
        check(f"{position}-{kind}-open", contrast=position == 1)
        for phone, verdict in zip(phones, ("right", "right", "wrong"), strict=True):
            sent = phone.post(f"/en/play/{clinic['pin']}/answer/", data=forms[position][verdict])
            assert sent.status_code == 302, sent.text[:300]
        control(re.compile("Close answers"))
        pages["en"].wait_for_selector("#stage [data-phase='closed']", timeout=WAIT)
        # Closed: the open round's screen, "answers closed" added.
        check(f"{position}-{kind}-closed", shots=False, screens=SCREENS[:1])
        control(re.compile("Reveal"))
        pages["en"].wait_for_selector("#stage [data-phase='revealed']", timeout=WAIT)
        check(f"{position}-{kind}-reveal", contrast=True)
        if position in (1, max(forms)):
            control(re.compile("Leaderboard"))
            pages["en"].wait_for_selector("#stage [data-phase='leaderboard']", timeout=WAIT)
            check(f"{position}-leaderboard", contrast=position == 1)
        if position < max(forms):
            control(re.compile("Next round"))
    control(re.compile("End the clinic"))
    pages["en"].wait_for_selector("#stage [data-phase='ended']", timeout=WAIT)
    check("ended", contrast=True)
    assert not misfits, "\n".join(misfits)


def test_a_refused_set_name_keeps_its_message_once_the_stream_has_spoken(room):
    """After a refused name the page comes back with the message; the stream's first event, the
    state the page already shows, must not swap a blank form over it."""
    _clinic, _forms, pages, _phones = room
    page = pages["it"]
    page.set_viewport_size({"width": 1280, "height": 720})
    if not page.locator("#stage [data-phase='ended']").count():
        page.locator("#stage .controls").get_by_role("button", name="Termina la clinic").click()
    page.wait_for_selector("#stage [data-phase='ended']", timeout=WAIT)
    page.locator(".save-set input[name=name]").fill("   ")
    page.locator(".save-set button").click()
    page.wait_for_selector(".save-set .errorlist", timeout=WAIT)
    # The stream sends the state, then "ended", which closes it: both have been read.
    page.wait_for_function(
        "() => { const d = document.querySelector('#live')['htmx-internal-data'];"
        " return d && d.sseEventSource && d.sseEventSource.readyState === 2; }",
        timeout=WAIT,
    )
    assert "Dai un nome alla serie." in page.locator(".save-set").inner_text()
