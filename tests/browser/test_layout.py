"""Every page a newcomer meets outside practice fits a 360x740 phone, in both languages: every
rule and every section of the reader, the glossary, the dashboard with a history, every account
page, the review page, the locked-out and error pages. Screenshots at 360 and 1280 px wide land
in artifacts/screenshots/layout-*.png.
"""

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.test import Client
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from polotrainer.umpires.models import Profile
from scenarios.models import Rule, Scenario, Section
from tests.browser.support import assert_accessible, assert_fits, shoot
from tests.content import load_shipped
from tests.people import answer, days_ago

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}
PASSWORD = "a-long-unusual-passphrase-91"
# Sections shot at both widths (every section is measured): the spot diagram, worked examples,
# a sub-item, and the parts of the rulebook it does not number.
SHOT_SECTIONS = {"3.b", "3.summary", "21.a", "21.f(1)", "21.discussion", "37.2", "37.7.applying"}


@pytest.fixture
def bundled(transactional_db):
    """The content the app ships: the rules, the glossary and every scenario."""
    load_shipped()


def _umpire(name: str, lang: str = "it"):
    user = get_user_model().objects.create_user(name, f"{name}@example.org", PASSWORD)
    Profile.objects.create(user=user, display_name=name.title(), language=lang)
    return user


@pytest.fixture
def dora(bundled):
    """Dora, with three weeks of answers: some wrong (so reviews are due), some to the sections
    the rulebook does not number, some to situations whose title carries the variant's numbers."""
    user = _umpire("dora")
    live = list(Scenario.objects.live().select_related("section").order_by("slug"))
    unnumbered = [
        s for s in live if s.section.ref in {"3.summary", "21.discussion", "37.7.applying"}
    ]
    numbered = [s for s in live if "{" in s.title_en]
    chosen = unnumbered[:3] + numbered + live[::9]
    for n, scenario in enumerate(chosen * 2):
        answer(
            user,
            scenario,
            seed=100 + n,
            correct=n % 3 != 0,
            when=days_ago(n % 21, hour=8 + n % 12),
            question=scenario.data["question"][0]["id"],
        )
    return user


@pytest.fixture
def contexts(browser, live_server):
    """A phone and a desktop browser, each with its own cookies."""
    made = []

    def new(viewport):
        context = browser.new_context(
            viewport=viewport, base_url=live_server.url, is_mobile=viewport == PHONE
        )
        made.append(context)
        return context

    yield new
    for context in made:
        context.close()


def _log_in(context, user, live_server):
    """Log the context in through a session cookie (the login form has its own tests)."""
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    cookie = client.cookies["sessionid"]
    context.add_cookies([{"name": "sessionid", "value": cookie.value, "url": live_server.url}])


def _submit(page):
    """Send the page's form and wait for the page that answers it."""
    with page.expect_navigation():
        page.locator("main form button[type=submit]").click()


class Pages:
    """Visits pages at both widths; measures every one on the phone, shoots the chosen ones."""

    def __init__(self, phone, desktop, lang):
        self.phone, self.desktop, self.lang = phone, desktop, lang
        self.too_wide: list[str] = []

    def visit(self, path, name=None, *, axe=False, status=200):
        for page, width in ((self.phone, 360), (self.desktop, 1280)):
            if name is None and width == 1280:
                continue  # measured on the phone only
            response = page.goto(path)
            assert response.status == status, f"{path}: {response.status}"
            assert page.locator("html").get_attribute("lang") == self.lang
            try:
                assert_fits(page)
            except AssertionError as exc:
                self.too_wide.append(f"{width}px {exc}")
            if name:
                shoot(page, f"layout-{name}-{self.lang}-{width}")
            if axe and width == 360:
                assert_accessible(page)

    def check(self):
        assert not self.too_wide, "\n".join(self.too_wide)


def _pages(contexts, lang, user=None, live_server=None):
    phone, desktop = contexts(PHONE), contexts(DESKTOP)
    if user is not None:
        for context in (phone, desktop):
            _log_in(context, user, live_server)
    return Pages(phone.new_page(), desktop.new_page(), lang)


@pytest.mark.parametrize("lang", ["it", "en"])
def test_every_page_of_the_reader_fits_a_phone(bundled, contexts, lang):
    pages = _pages(contexts, lang)
    pages.visit(f"/{lang}/", "home")
    pages.visit(f"/{lang}/rules/", "rules")
    for number in Rule.objects.values_list("number", flat=True):
        pages.visit(f"/{lang}/rules/{number}/", f"rule-{number}")
    sections = list(Section.objects.values_list("ref", flat=True))
    assert len(sections) == 38
    for ref in sections:
        pages.visit(
            f"/{lang}/rules/section/{ref}/", f"section-{ref}" if ref in SHOT_SECTIONS else None
        )
    pages.visit(f"/{lang}/glossary/", "glossary")
    pages.check()


@pytest.mark.parametrize("lang", ["it", "en"])
def test_the_dashboard_with_a_history_fits_a_phone(dora, contexts, live_server, lang):
    Profile.objects.filter(user=dora).update(language=lang)
    pages = _pages(contexts, lang, dora, live_server)
    pages.visit(f"/{lang}/me/", "dashboard", axe=True)
    assert pages.phone.locator("table.history tbody tr").count() == 25
    pages.phone.locator(".chart details summary").first.click()  # the table behind the chart
    assert_fits(pages.phone)
    shoot(pages.phone, f"layout-dashboard-chart-table-{lang}-360")
    pages.visit(f"/{lang}/me/?page=2", "dashboard-page-2")
    pages.check()


@pytest.mark.parametrize("lang", ["it", "en"])
def test_the_dashboard_on_a_phone_puts_the_useful_first_and_folds(
    dora, contexts, live_server, lang
):
    """What is due and the rules first, the latest answers next, then the charts; every part
    folds from its heading, the 38 sections start folded; each answer of the history reads
    whole (result and answers too) without scrolling the table sideways."""
    Profile.objects.filter(user=dora).update(language=lang)
    phone = _pages(contexts, lang, dora, live_server).phone
    phone.goto(f"/{lang}/me/")
    parts = phone.evaluate("[...document.querySelectorAll('main h2')].map(h => h.id)")
    assert parts == ["mastery-title", "history-title", "activity-title"]
    assert phone.locator("details.by-section").get_attribute("open") is None
    height = phone.evaluate("document.documentElement.scrollHeight")
    assert height < 6000, f"the dashboard is {height}px tall on a phone"
    rows = phone.locator("table.history tbody tr")
    assert rows.count() == 25
    table = phone.locator("#history .table-scroll")
    assert table.evaluate("box => box.scrollWidth <= box.clientWidth")
    for n in range(rows.count()):
        for cell in (2, 4):  # the situation; the result with the answer given (and the right one)
            box = rows.nth(n).locator(f"td:nth-child({cell})").bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= 360, (n, cell, box)
    assert_fits(phone)
    shoot(phone, f"layout-dashboard-folds-{lang}-360")
    for part in parts:
        details = phone.locator(f"details:has(> summary #{part})")
        phone.locator(f"summary:has(#{part})").click()
        assert details.get_attribute("open") is None, part
        phone.locator(f"summary:has(#{part})").click()
        assert details.get_attribute("open") is not None, part
    phone.locator("details.by-section > summary").click()
    assert phone.locator("details.by-section ul.mastery li").first.is_visible()
    assert_accessible(phone)


@pytest.mark.parametrize("lang", ["it", "en"])
def test_the_pages_of_an_account_fit_a_phone(dora, contexts, live_server, lang):
    Profile.objects.filter(user=dora).update(language=lang)
    pages = _pages(contexts, lang, dora, live_server)
    pages.visit(f"/{lang}/account/", "profile", axe=True)
    pages.visit(f"/{lang}/account/password/", "password-change", axe=True)
    pages.visit(f"/{lang}/account/delete/", "delete-account", axe=True)
    # A wrong password on the delete form: the error, and nothing deleted.
    pages.phone.fill("input[name=password]", "not-my-password")
    _submit(pages.phone)
    assert pages.phone.locator(".errorlist").count() == 1
    assert_fits(pages.phone)
    shoot(pages.phone, f"layout-delete-account-error-{lang}-360")
    pages.check()


@pytest.mark.parametrize("lang", ["it", "en"])
def test_the_review_page_with_nothing_due_fits_a_phone(bundled, contexts, live_server, lang):
    erin = _umpire("erin", lang)
    answer(erin, Scenario.objects.live().first(), correct=True)  # due in minutes
    pages = _pages(contexts, lang, erin, live_server)
    pages.visit(f"/{lang}/review/", "review-nothing-due", axe=True)
    assert pages.phone.locator("main h1").count() == 1
    pages.visit(f"/{lang}/me/", "dashboard-nothing-due")
    pages.check()


@pytest.mark.parametrize("lang", ["it", "en"])
def test_signing_up_logging_in_and_resetting_a_password_fit_a_phone(bundled, contexts, lang):
    user = _umpire("frank", lang)
    pages = _pages(contexts, lang)
    pages.visit(f"/{lang}/account/login/", "login", axe=True)
    pages.visit(f"/{lang}/account/signup/", "signup", axe=True)
    for page in (pages.phone, pages.desktop):
        page.fill("input[name=username]", "frank")
        page.fill("input[name=email]", "frank@example.org")
        page.fill("input[name=password1]", "12345678")
        page.fill("input[name=password2]", "12345678")
        _submit(page)
        assert page.locator(".errorlist").count() >= 2  # username taken, weak password
        assert_fits(page)
    shoot(pages.phone, f"layout-signup-errors-{lang}-360")
    shoot(pages.desktop, f"layout-signup-errors-{lang}-1280")
    pages.visit(f"/{lang}/account/password/reset/", "password-reset", axe=True)
    pages.visit(f"/{lang}/account/password/reset/sent/", "password-reset-sent")
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    pages.visit(f"/{lang}/account/password/reset/{uid}/not-a-token/", "password-reset-bad-link")
    for page, width in ((pages.phone, 360), (pages.desktop, 1280)):
        page.goto(
            f"/{lang}/account/password/reset/{uid}/{default_token_generator.make_token(user)}/"
        )
        assert page.locator("input[name=new_password1]").count() == 1
        assert_fits(page)
        shoot(page, f"layout-password-reset-choose-{lang}-{width}")
    pages.visit(f"/{lang}/account/password/reset/done/", "password-reset-done")
    pages.check()


@pytest.mark.parametrize("lang", ["it", "en"])
def test_locked_out_and_error_pages_fit_a_phone(bundled, contexts, lang):
    pages = _pages(contexts, lang)
    pages.visit(f"/{lang}/no-such-page/", "not-found", status=404, axe=True)
    for page, width in ((pages.phone, 360), (pages.desktop, 1280)):
        # A form sent without its security token: an old page, or cookies cleared meanwhile.
        page.goto(f"/{lang}/account/login/")
        page.context.clear_cookies()
        page.fill("input[name=username]", "nobody")
        page.fill("input[name=password]", "whatever")
        _submit(page)
        assert page.locator("main h1").text_content() in {
            "The form has expired",
            "Il modulo è scaduto",
        }
        assert_fits(page)
        shoot(page, f"layout-form-expired-{lang}-{width}")
        for _ in range(6):
            page.goto(f"/{lang}/account/login/")
            page.fill("input[name=username]", f"nobody-{width}")
            page.fill("input[name=password]", "not-the-password")
            _submit(page)
        assert page.locator("main h1").text_content() in {
            "Too many wrong passwords",
            "Troppe password sbagliate",
        }
        assert_fits(page)
        shoot(page, f"layout-locked-out-{lang}-{width}")
    pages.check()
