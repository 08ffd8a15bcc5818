"""Practice with no signal, in a real browser: the service worker serves the page offline, the
answers wait in IndexedDB, and come back online recorded once, at their times."""

import time

import pytest
from django.test import Client

from polotrainer.offline.models import SyncedEntry
from polotrainer.offline.worker import rulebook
from polotrainer.umpires.models import Attempt, DayActivity, ScenarioProgress
from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.support import assert_accessible, shoot

pytestmark = pytest.mark.django_db(transaction=True)

ANSWERED = 20

# Fills the current question's form with the pack's right answer (every second one wrong where
# the kind allows it), reading the key the page stored in IndexedDB.
FILL = """async (wrong) => {
  const article = document.querySelector('[data-offline-question]');
  const token = article.getAttribute('data-token');
  const packs = await window.PolotrainerOffline.store.all('packs');
  const variant = packs.flatMap(p => p.variants).find(v => v.token === token);
  const kinds = [];
  for (const key of variant.key) {
    kinds.push(key.type);
    const named = (n) => article.querySelectorAll(`[name="${n}"]`);
    if (key.type === 'choice' || key.type === 'bool') {
      const pick = wrong ? key.options.find(o => o !== key.right[0]) : key.right[0];
      [...named(key.name)].find(i => i.value === pick).checked = true;
    } else if (key.type === 'multi' || key.type === 'players') {
      for (const box of named(key.name)) box.checked = key.right.includes(box.value);
    } else if (key.type === 'order') {
      key.options.forEach((o, i) => { named(`${key.name}-${o}`)[0].value = key.right[i]; });
    } else if (key.type === 'number') {
      named(key.name)[0].value = wrong ? String(Number(key.right[0]) + 50) : key.right[0];
    } else if (key.type === 'place') {
      named(`${key.name}-along`)[0].value = key.right[0];
      named(`${key.name}-across`)[0].value = key.right[1];
    }
  }
  return kinds;
}"""


def signed_in(browser, live_server, user, viewport):
    context = browser.new_context(viewport=viewport, base_url=live_server.url)
    client = Client()
    client.force_login(user)
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    return context


def install(page, lang):
    page.goto(f"/{lang}/offline/")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    # The first load is not controlled yet: a reload is, once the worker is active.
    page.reload()
    page.wait_for_function("navigator.serviceWorker.controller !== null")


def count(page, store):
    return page.evaluate(f"window.PolotrainerOffline.store.count('{store}')")


def wait_count(page, store, expected, seconds=30):
    script = f"window.PolotrainerOffline.store.count('{store}').then((n) => n === {expected})"
    wait_until(page, script, seconds)


#: Whether the worker has kept the whole rulebook (templates/offline/sw.js keepRulebook).
KEPT = "caches.open('pages').then((c) => c.match('/offline/rulebook-kept')).then((k) => !!k)"


def wait_until(page, promise, seconds=60):
    """Wait until a promise in the page resolves to true (to wait_for_function a promise is
    already true)."""
    for _n in range(int(seconds * 10)):
        if page.evaluate(promise):
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"not true after {seconds} s: {promise}")


def download_due(page, times):
    for n in range(times):
        page.locator("form[data-needs-account] button").click()
        wait_count(page, "packs", n + 1)


def outbox(page):
    return page.evaluate("window.PolotrainerOffline.store.count('outbox')")


def test_answers_given_offline_are_recorded_once_with_their_times(
    browser, live_server, content, trainee
):
    from tests.content import ORDER, make_scenario

    make_scenario(ORDER)
    context = signed_in(browser, live_server, trainee, DESKTOP)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(error))
    install(page, "en")
    page.locator("form[data-needs-account]:not([hidden])").wait_for()
    download_due(page, 4)  # 5 scenarios each: 20 questions
    assert page.locator("[data-pack-list] li").count() == 4
    assert "5 questions" in page.locator("[data-pack-list]").inner_text()
    context.set_offline(True)
    page.reload()  # from the service worker
    assert page.locator("#offline").count() == 1
    kinds = set()
    times = []
    for n in range(ANSWERED):
        if n == 10:
            # Closed and opened again: the outbox is on the device, not in the page.
            page.close()
            page = context.new_page()
            page.goto("/en/offline/")
        shown = page.locator("[data-offline-question]").get_attribute("data-token")
        page.locator("[data-start]:visible, [data-next]:visible").first.click()
        page.wait_for_function(
            "(shown) => document.querySelector('[data-offline-question]')"
            ".getAttribute('data-token') !== shown",
            arg=shown,
        )
        kinds |= set(page.evaluate(FILL, n % 2 == 1))
        times.append(int(time.time() * 1000))
        page.locator("form[data-offline-quiz] button[type=submit]").click()
        page.locator("[data-feedback] #feedback-heading").wait_for()
        if n == 0:
            shoot(page, "offline-feedback-en-desktop")
        assert outbox(page) == n + 1
        time.sleep(0.05)
    assert kinds == {"choice", "bool", "multi", "players", "order", "number", "place"}
    assert page.locator("[data-outbox-badge]").inner_text().startswith("20 answers waiting")
    assert Attempt.objects.count() == 0
    shoot(page, "offline-waiting-en-desktop")
    # A tampered entry: its right answer changed on the device.
    page.evaluate(
        """async () => {
          const store = window.PolotrainerOffline.store;
          const entries = await store.all('outbox');
          const forged = {...entries[0], id: crypto.randomUUID()};
          const first = Object.keys(forged.right)[0];
          forged.right = {...forged.right, [first]: ['forged']};
          await store.put('outbox', forged);
        }"""
    )
    context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    page.wait_for_function("window.PolotrainerOffline.store.count('outbox').then(n => n === 0)")
    badge = page.locator("[data-outbox-badge]")
    badge.filter(has_text="20 answers recorded").wait_for()
    assert "1 answer refused" in badge.inner_text()
    # The page lists it, with its question and the server's reason, until it is cleared.
    refused = page.locator("[data-refused]")
    refused.wait_for()
    listed = refused.locator("[data-refused-list] li")
    assert listed.count() == 1
    assert "The right answer stored with this question was changed" in listed.inner_text()
    assert listed.locator("strong").inner_text().strip() != ""
    shoot(page, "offline-refused-en-desktop")
    assert SyncedEntry.objects.count() == ANSWERED
    entries = list(SyncedEntry.objects.order_by("answered_at"))
    # Each at the time it was given (to the second: the page stamps it as it records).
    for given, at in zip(times, entries, strict=True):
        assert abs(at.answered_at.timestamp() * 1000 - given) < 2000
    attempts = Attempt.objects.filter(user=trainee)
    assert attempts.values("seed").distinct().count() == ANSWERED
    assert ScenarioProgress.objects.filter(user=trainee, card__isnull=False).count() == 5
    assert DayActivity.objects.get(user=trainee).answers == attempts.count()
    assert errors == []
    # Sent again (another tab, a retry): nothing more.
    page.reload()
    page.wait_for_timeout(300)
    assert SyncedEntry.objects.count() == ANSWERED
    page.locator("[data-refused] [data-refused-list] li").wait_for()  # kept through a reload
    page.locator("[data-refused-clear]").click()
    page.locator("[data-refused]").wait_for(state="hidden")
    context.close()


@pytest.mark.parametrize("lang", ["it", "en"])
@pytest.mark.parametrize(("viewport", "size"), [(PHONE, "phone"), (DESKTOP, "desktop")])
def test_the_offline_page_reads_well(browser, live_server, content, lang, viewport, size):
    context = browser.new_context(viewport=viewport, base_url=live_server.url)
    page = context.new_page()
    page.goto(f"/{lang}/offline/?rule=37")
    page.locator("form[data-download]").first.locator("button").click()
    page.locator("[data-pack-list] li").first.wait_for()
    page.locator("[data-start]").click()
    page.locator("form[data-offline-quiz]").wait_for()
    assert_accessible(page)
    shoot(page, f"offline-{lang}-{size}")
    context.close()


@pytest.mark.parametrize(
    ("lang", "changed"), [("it", "Situazione modificata"), ("en", "Changed situation")]
)
def test_what_if_works_offline_from_what_the_pack_holds(
    browser, live_server, content, lang, changed
):
    """With no signal, the feedback's what-if shows the ruling the server made for another
    value of a fact; the value as asked says so."""
    context = browser.new_context(viewport=PHONE, base_url=live_server.url)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(error))
    install(page, lang)
    for rule in ("37", "21"):
        page.select_option("#pack-rule", rule)
        page.locator("form[data-download]").first.locator("button").click()
        wait_count(page, "packs", 1 if rule == "37" else 2)
    # A pack downloaded: the worker keeps the rulebook reader, both languages (not at install).
    wait_until(page, KEPT)
    context.set_offline(True)
    page.reload()
    for _n in range(12):
        shown = page.locator("[data-offline-question]").get_attribute("data-token")
        page.locator("[data-start]:visible, [data-next]:visible").first.click()
        page.wait_for_function(
            "(shown) => document.querySelector('[data-offline-question]')"
            ".getAttribute('data-token') !== shown",
            arg=shown,
        )
        page.evaluate(FILL, False)
        page.locator("form[data-offline-quiz] button[type=submit]").click()
        page.locator("[data-feedback] #feedback-heading").wait_for()
        if page.locator("[data-whatif] form[data-whatif-form]").count():
            break
    else:
        raise AssertionError("no question of the pack had a what-if")
    form = page.locator("[data-whatif] form[data-whatif-form]").first
    result = page.locator("[data-whatif] [data-whatif-result]")
    form.locator("button").click()  # the value as asked
    assert result.inner_text().strip() != ""
    select = form.locator("select")
    other = select.locator("option:not([selected])").first.get_attribute("value")
    select.select_option(other)
    form.locator("button").click()
    page.wait_for_function(
        "() => document.querySelector('[data-whatif-result] .changed-situation, "
        "[data-whatif-result] .field-error') !== null"
    )
    text = result.inner_text()
    assert changed in text or "non è ammessa" in text or "do not allow" in text
    assert_accessible(page)
    shoot(page, f"offline-whatif-{lang}-phone")
    # Still with no signal: a section of the rulebook in the other language reads from the copy.
    other = "en" if lang == "it" else "it"
    section = next(u for u in rulebook() if u.startswith(f"/{other}/rules/section/"))
    page.goto(section)
    assert page.locator("#offline").count() == 0
    assert page.locator("main h1").inner_text().strip() != ""
    assert page.locator("html").get_attribute("lang") == other
    assert errors == []
    context.close()
