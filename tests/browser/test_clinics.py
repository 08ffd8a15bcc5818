"""A clinic in browsers: a projector and three phones (one Italian), through uvicorn as served
for a club, so the live updates are the event stream itself. The phones join by the address and
the link of the projector, which carry no language: each opens in its own. Three rounds; a phone
reloads mid-round and keeps its score; a late joiner; a place question whose reveal shows every
spot, and to each phone its own beside the right one; the leaderboard; the end. What arrives by
the stream is told to a screen reader (the live region, the focus on the new heading)."""

import re

from playwright.sync_api import expect

from tests import servers as server
from tests.browser.support import (
    MISFIT,
    SMALLEST_TEXT,
    assert_accessible,
    assert_fits,
    fitted,
    shoot,
)

PROJECTOR = {"width": 1280, "height": 720}
PHONE = {"width": 360, "height": 740}
SLUGS = ["r21-injured-player", "p2-from-the-spot", "p8-which-violation-forfeits"]
WAIT = 8000  # ms: a pushed update arrives in well under a second; CI machines are slow


def _answer(page, form: dict, *, right: bool) -> None:
    """Fill the round's form as a person would (right answers, or a wrong choice) and send."""
    for name, value in form.items():
        if not name.startswith("q-"):
            continue
        values = value if isinstance(value, list) else [value]
        boxes = page.locator(
            f"input[name='{name}'][type=radio], input[name='{name}'][type=checkbox]"
        )
        if boxes.count():
            if not right and page.locator(f"input[name='{name}'][type=radio]").count():
                wrong = page.locator(f"input[name='{name}'][type=radio]:not([value='{values[0]}'])")
                wrong.first.check()
                continue
            for v in values:
                page.locator(f"input[name='{name}'][value='{v}']").check()
        elif page.locator(f"select[name='{name}']").count():
            page.locator(f"select[name='{name}']").select_option(values[0])
        else:
            shown = values[0]
            if not right and name.endswith("-along"):
                shown = str(float(shown) + 25 if float(shown) < 100 else float(shown) - 25)
            elif not right and re.fullmatch(r"-?\d+", shown):
                shown = str(int(shown) + 1)
            page.locator(f"input[name='{name}']").fill(shown)
    page.get_by_role(
        "button", name=re.compile("Send my answer|Invia la mia risposta|Call it|Decidi")
    ).click()
    page.wait_for_selector(".received", timeout=WAIT)
    # The form is gone: the focus is on the confirmation, not lost on the body.
    page.wait_for_function("document.activeElement.classList.contains('received')", timeout=WAIT)


def _box(locator) -> dict:
    """The element's box once it has one: a pushed update may swap it right after a wait."""
    for _ in range(40):
        locator.wait_for(state="visible", timeout=WAIT)
        box = locator.bounding_box()
        if box:
            return box
    raise AssertionError(f"{locator} never had a box")


def _told(page, text: str, focused: str) -> None:
    """What the stream brought was announced (the live region) and has the focus."""
    expect(page.locator("#announce")).to_contain_text(text, timeout=WAIT)
    page.wait_for_function(
        "(selector) => document.activeElement === document.querySelector(selector)",
        arg=focused,
        timeout=WAIT,
    )


def test_a_clinic_with_a_projector_and_three_phones(browser, served):
    database, running = served
    clinic = server.setup(database, SLUGS)
    pin, base = clinic["pin"], running.base

    def context(viewport, **extra):
        made = browser.new_context(viewport=viewport, base_url=base, **extra)
        return made, made.new_page()

    projector_ctx, projector = context(PROJECTOR)
    projector_ctx.add_cookies([{"name": "sessionid", "value": clinic["session"], "url": base}])
    phones = {}
    # Each phone's browser speaks its own language (Accept-Language).
    for name, locale in (("Anna", "en-GB"), ("Ben", "en-US"), ("Chiara", "it-IT")):
        phones[name] = context(PHONE, is_mobile=True, has_touch=True, locale=locale)
    try:
        # An Italian projector: the address on it and its QR code's link carry no language.
        projector.goto(f"/it/clinics/{clinic['id']}/")
        assert pin in projector.locator(".lobby .pin").inner_text()
        assert projector.locator(".lobby svg.qr").count() == 1
        address = projector.locator(".lobby .join-address").inner_text()
        assert address == f"{base}/play/", address
        projector.goto(f"/en/clinics/{clinic['id']}/")
        shoot(projector, "clinic-projector-lobby")

        # Join: Anna and Chiara type the address and the PIN, Ben opens the QR code's link.
        anna, ben, chiara = (phones[n][1] for n in ("Anna", "Ben", "Chiara"))
        for page, lang, nick in ((anna, "en", "Anna"), (chiara, "it", "Chiara")):
            page.goto(address)
            assert page.url == f"{base}/play/"  # served in the phone's language, in place
            expect(page.locator("html")).to_have_attribute("lang", lang)
            page.locator("#id_pin").fill(f"{pin[:3]} {pin[3:]}")
            page.locator("form.pin-entry button").click()
            page.locator("#id_nickname").fill(nick)
            page.locator("main form button[type=submit]").click()
        ben.goto(f"/play/{pin}/")
        assert ben.url == f"{base}/en/play/{pin}/"
        assert_accessible(ben)
        ben.locator("#id_nickname").fill("Ben")
        ben.locator("main form button[type=submit]").click()
        shoot(chiara, "clinic-phone-lobby-it")
        assert "Sei dentro!" in chiara.locator("#stage").inner_text()
        # The lobby has a heading (the clinic's name); the other language is a click away.
        expect(chiara.locator("#stage h1")).to_have_text("Stream clinic")
        expect(chiara.get_by_role("button", name="English")).to_be_visible()
        # The projector's count is pushed, no reload.
        expect(projector.locator("#counts")).to_contain_text("3 players", timeout=WAIT)

        # Round 1: shown on every phone by the stream.
        projector.get_by_role("button", name="Show the first round").click()
        for page in (anna, ben, chiara):
            page.wait_for_selector("#quiz", timeout=WAIT)
            assert_fits(page)
        title = anna.locator("#stage h1").inner_text()
        _told(anna, title, "#stage h1")
        _told(chiara, "Turno 1 di 3", "#stage h1")
        assert "Invia la mia risposta" in chiara.locator("#quiz").inner_text()
        shoot(anna, "clinic-phone-question-en")
        assert_accessible(anna)
        form = server.form(database, clinic["id"])
        _answer(anna, form, right=True)
        _answer(chiara, form, right=True)
        _answer(ben, form, right=False)
        expect(projector.locator("#counts")).to_contain_text("3 answered", timeout=WAIT)
        shoot(projector, "clinic-projector-question")
        projector.get_by_role("button", name="Close answers").click()
        projector.get_by_role("button", name="Reveal").click()
        projector.wait_for_selector(".reveal-q", timeout=WAIT)
        shoot(projector, "clinic-projector-reveal")
        anna.wait_for_selector("#mine .verdict.right", timeout=WAIT)
        ben.wait_for_selector("#mine .verdict.wrong", timeout=WAIT)
        _told(anna, "Right!", "#my-result-heading")
        _told(ben, "Not quite.", "#my-result-heading")
        chiara.wait_for_selector("text=La risposta giusta:", timeout=WAIT)
        shoot(chiara, "clinic-phone-reveal-it")
        assert_fits(chiara)
        projector.get_by_role("button", name="Leaderboard").click()
        projector.wait_for_selector("table.leaderboard", timeout=WAIT)
        _told(anna, "Leaderboard", "#stage h1")
        rows = projector.locator("table.leaderboard tbody tr").all_inner_texts()
        assert rows[0].startswith("1") and rows[-1].startswith("3") and "Ben" in rows[-1]
        anna_score = anna.locator("#mine .score").get_attribute("data-score")
        assert anna_score and float(anna_score) > 0

        # Round 2, a place question: a late joiner, a reload mid-round, a tap on the field.
        projector.get_by_role("button", name="Next round").click()
        late_ctx, late = context(PHONE, is_mobile=True, has_touch=True)
        late.goto(f"/en/play/{pin}/")
        late.locator("#id_nickname").fill("Dario")
        late.locator("main form button[type=submit]").click()
        late.wait_for_selector("#quiz", timeout=WAIT)
        anna.wait_for_selector("svg.field[data-field]", timeout=WAIT)
        anna.reload()
        anna.wait_for_selector("#quiz", timeout=WAIT)
        assert anna.locator("#mine .score").get_attribute("data-score") == anna_score
        box = _box(anna.locator("svg.field[data-field]"))
        anna.tap(
            "svg.field[data-field]", position={"x": box["width"] * 0.3, "y": box["height"] * 0.5}
        )
        assert anna.locator("input[data-place='along']").input_value() != ""
        shoot(anna, "clinic-phone-place-en")
        form = server.form(database, clinic["id"])
        _answer(anna, form, right=True)
        _answer(ben, form, right=False)
        _answer(chiara, form, right=True)
        _answer(late, form, right=True)
        projector.get_by_role("button", name="Reveal").click()
        projector.wait_for_selector(".spread-field svg", timeout=WAIT)
        assert projector.locator(".spread-field svg.field circle.placed").count() == 4
        assert projector.locator(".spread-field svg.field circle.tolerance").count() == 1
        assert projector.locator(".spread-field svg.field circle.right-ring").count() == 1
        shoot(projector, "clinic-projector-place-reveal")
        late.wait_for_selector(".spread-field svg.field circle.placed", timeout=WAIT)
        assert late.locator(".spread-field svg.field circle.placed").count() == 4
        # Each phone sees its own spot beside the right one (Ben's is 25 yards off), and the
        # close-up says where on the field it is: a line with its number.
        for page, off in ((anna, False), (ben, True)):
            spot = page.locator("#mine .my-spot svg.field")
            spot.locator(".mine-mark").wait_for(timeout=WAIT)
            mine, right = (
                spot.locator(mark).evaluate("g => g.transform.baseVal[0].matrix.e")
                for mark in (".mine-mark", ".right-mark")
            )
            assert (abs(mine - right) > 20) is off, (mine, right)
            shown = spot.locator(".line-label").evaluate_all(
                "labels => labels.filter(t => t.getBoundingClientRect().width > 0).length"
            )
            assert shown >= 1
        shoot(ben, "clinic-phone-place-reveal-en")

        # Round 3, then the end.
        projector.get_by_role("button", name="Next round").click()
        form = server.form(database, clinic["id"])
        for page in (anna, ben, chiara, late):
            page.wait_for_selector("#quiz", timeout=WAIT)
            _answer(page, form, right=page is not ben)
        projector.get_by_role("button", name="Reveal").click()
        projector.get_by_role("button", name="Leaderboard").click()
        projector.wait_for_selector("table.leaderboard", timeout=WAIT)
        shoot(projector, "clinic-projector-leaderboard")
        projector.get_by_role("button", name="End the clinic").click()
        projector.wait_for_selector("text=The clinic has ended", timeout=WAIT)
        for page in (anna, ben, chiara, late):
            page.wait_for_selector(
                "text=/The clinic has ended|La clinic è terminata/", timeout=WAIT
            )
        shoot(ben, "clinic-phone-ended-en")
        board = projector.locator("table.leaderboard tbody tr").all_inner_texts()
        assert "Ben" in board[-1]
        late_ctx.close()
    finally:
        projector_ctx.close()
        for made, _page in phones.values():
            made.close()


#: A Safety or not: a scene plays it, so a clinic "as drills" makes it a drill round.
PLAYED = "r21-safety-off-an-opponent"
SCREENS = [(1024, 768), (1280, 720), (1920, 1080)]
#: Whether the phone's questions are shut, and whether the play is still before its stop.
WATCHING = """() => [
  document.querySelector("fieldset[data-drill-questions]").disabled,
  Date.now() < parseFloat(document.querySelector(".drill-phone").dataset.stopAt),
]"""


def test_a_drill_round_with_a_projector_and_two_phones(browser, served):
    """The projector plays the scene for the room while the phones count down to the stop; then
    the phones call it in the countdown: Anna (English) calls it, Chiara (Italian) lets it run
    out and is told so, by the server's clock. The reveal shows the spread of decision times and
    the replay with the ruled spot, fitting every projector; each phone sees its own time."""
    database, running = served
    clinic = server.setup(database, [PLAYED], drills=True, spotted=True, title="Drill clinic")
    pin, base = clinic["pin"], running.base

    def context(viewport, **extra):
        made = browser.new_context(viewport=viewport, base_url=base, **extra)
        return made, made.new_page()

    projector_ctx, projector = context(PROJECTOR)
    projector_ctx.add_cookies([{"name": "sessionid", "value": clinic["session"], "url": base}])
    made = [context(PHONE, is_mobile=True, has_touch=True, locale=lang) for lang in ("en", "it")]
    (_, anna), (_, chiara) = made
    misfits: list[str] = []

    def fits_every_screen(step: str) -> None:
        for width, height in SCREENS:
            fitted(projector, width, height)
            found = projector.evaluate(MISFIT, SMALLEST_TEXT)
            if found:
                misfits.append(f"{width}x{height} {step}: {found}")
        projector.set_viewport_size(PROJECTOR)

    try:
        projector.goto(f"/en/clinics/{clinic['id']}/")
        for page, nick in ((anna, "Anna"), (chiara, "Chiara")):
            page.goto(f"/play/{pin}/")
            page.locator("#id_nickname").fill(nick)
            page.locator("main form button[type=submit]").click()
        expect(projector.locator("#counts")).to_contain_text("2 players", timeout=WAIT)
        # Anna's right answer, ready before the round opens: the countdown is 5 s.
        form = server.forms(database, clinic["id"])[1]["right"]

        projector.get_by_role("button", name="Show the first round").click()
        # The projector plays the scene: riders and ball drawn, no spot shown before the stop.
        scene = projector.locator("[data-drill-scene]")
        scene.wait_for(timeout=WAIT)
        projector.wait_for_function(
            "() => document.querySelectorAll('[data-drill-scene] .actors > *').length >= 3",
            timeout=WAIT,
        )
        assert projector.locator("[data-drill-scene] .reveal-layer > *").count() == 0
        shoot(projector, "clinic-drill-projector-play")
        # The phones wait for the stop, the questions shut, and say so in their own language.
        for page, words in ((anna, "Watch the projector"), (chiara, "Guarda il proiettore")):
            page.wait_for_selector(".drill-phone", timeout=WAIT)
            expect(page.locator(".drill-phone-status")).to_contain_text(words, timeout=WAIT)
            # Shut before the stop (by the phone's clock, as it shows it).
            shut, before = page.evaluate(WATCHING)
            assert shut or not before
            assert_fits(page)
        shoot(chiara, "clinic-drill-phone-watch-it")
        fits_every_screen("play")

        # At the stop the questions open, with the countdown; Anna calls it at once.
        stop_ms = float(anna.locator(".drill-phone").get_attribute("data-stop-at"))
        anna.wait_for_selector("fieldset[data-drill-questions]:not([disabled])", timeout=WAIT * 2)
        assert anna.evaluate("Date.now()") >= stop_ms
        expect(anna.locator(".drill-phone-status")).to_contain_text("Your call!")
        shoot(anna, "clinic-drill-phone-call-en")
        _answer(anna, form, right=True)
        projector.wait_for_function(
            "() => document.querySelector('[data-drill-scene]').dataset.played === '1'",
            timeout=WAIT,
        )
        # Chiara lets the countdown run out: the server closes the round by its own clock.
        expect(chiara.locator("#stage")).to_contain_text("Tempo scaduto", timeout=WAIT * 2)
        assert chiara.locator("#quiz").count() == 0
        shoot(chiara, "clinic-drill-phone-timeout-it")
        projector.wait_for_selector("#stage [data-phase='closed']", timeout=WAIT)

        projector.get_by_role("button", name="Reveal").click()
        projector.wait_for_selector(".decision-times", timeout=WAIT)
        times = projector.locator(".decision-times").inner_text()
        assert "Median" in times and "1 fast and right" in times, times
        bars = projector.locator(".decision-times .bars li").all_inner_texts()
        assert sum(int(b.split()[-1]) for b in bars) == 2, bars  # Anna's time, Chiara's time-out
        # The replay ends on the ruled spot; the button plays it again.
        projector.wait_for_function(  # a loaded machine may still be playing it
            """() => document.querySelector(
              "[data-drill-scene][data-replay] .reveal-layer").childElementCount > 0""",
            timeout=WAIT * 2,
        )
        projector.get_by_role("button", name="Replay").click()
        projector.wait_for_function(
            """() => {
              const fig = document.querySelector("[data-drill-scene][data-replay]");
              return fig.dataset.played === "1"
                && fig.querySelector(".reveal-layer").childElementCount > 0;
            }""",
            timeout=WAIT * 2,
        )
        shoot(projector, "clinic-drill-projector-reveal")
        fits_every_screen("reveal")
        anna.wait_for_selector("#mine .verdict.right", timeout=WAIT)
        expect(anna.locator("#mine .decision-time")).to_contain_text(
            "Your decision time after the stop", timeout=WAIT
        )
        expect(chiara.locator("#mine")).to_contain_text("Tempo scaduto", timeout=WAIT)
        assert chiara.locator("#mine .decision-time").count() == 0
        for page, name in (
            (anna, "clinic-drill-phone-reveal-en"),
            (chiara, "clinic-drill-phone-reveal-it"),
        ):
            assert_fits(page)
            shoot(page, name)
        assert not misfits, "\n".join(misfits)
    finally:
        projector_ctx.close()
        for ctx, _page in made:
            ctx.close()
