"""The Content-Security-Policy breaks nothing: the main pages, used, log no violation or error.

Every page is visited with a listener for `securitypolicyviolation` (added by Playwright before
any page script, outside the policy) and with the console's errors collected; a practice answer
is sent through htmx, so swapped-in fragments are covered too. Both must stay empty.
"""

import pytest
from django.contrib.auth import get_user_model

from polotrainer.umpires.models import Profile
from scenarios.models import Scenario
from tests.browser.support import shoot
from tests.content import load_shipped

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "correct-horse-battery-staple-42"

LISTEN = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__violations.push(e.violatedDirective + " " + (e.blockedURI || "inline") + " "
    + (e.sourceFile || "") + ":" + e.lineNumber);
});
"""


@pytest.fixture
def watched(browser, live_server, transactional_db):
    load_shipped()
    context = browser.new_context(viewport={"width": 1280, "height": 900}, base_url=live_server.url)
    context.add_init_script(LISTEN)
    page = context.new_page()
    errors: list[str] = []

    def console(msg):  # type: ignore[no-untyped-def]
        # A refused answer (400) is logged as a failed load: the page's own business.
        if msg.type == "error" and "status of 400" not in msg.text:
            errors.append(f"{msg.text} {msg.location.get('url', '')}")

    page.on("console", console)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on(
        "response",
        lambda r: errors.append(f"{r.status} {r.url}") if r.status == 404 else None,
    )
    yield page, errors
    context.close()


def assert_clean(page, errors: list[str]) -> None:
    violations = page.evaluate("window.__violations")
    assert violations == [], f"CSP violations on {page.url}: {violations}"
    assert errors == [], f"console errors on {page.url}: {errors}"


PUBLIC = ["/it/", "/en/rules/", "/en/rules/37/", "/it/rules/section/37.6/", "/en/glossary/"]
ACCOUNT = ["/en/account/login/", "/it/account/signup/", "/en/account/password/reset/"]


def test_public_and_account_pages_run_under_the_policy(watched):
    page, errors = watched
    for path in PUBLIC + ACCOUNT:
        page.goto(path)
        page.wait_for_load_state("networkidle")
        assert_clean(page, errors)
    shoot(page, "csp-last-page")


def test_practice_with_htmx_swaps_runs_under_the_policy(watched):
    page, errors = watched
    slug = Scenario.objects.live().filter(kind="penalty_spot").values_list("slug", flat=True)[0]
    page.goto(f"/en/practice/{slug}/7/")
    page.wait_for_load_state("networkidle")
    assert page.evaluate("typeof htmx") == "object"
    page.locator("#quiz button[type=submit]").click()  # empty: the form comes back with errors
    page.wait_for_load_state("networkidle")
    # htmx did not add its own indicator <style> (the policy would have refused it).
    assert page.evaluate("document.querySelectorAll('style').length") == 0
    assert_clean(page, errors)


def test_personal_pages_run_under_the_policy(watched):
    page, errors = watched
    user = get_user_model().objects.create_user("erin", "erin@example.org", PASSWORD)
    Profile.objects.create(user=user, language="en")
    page.goto("/en/account/login/")
    page.fill("input[name=username]", "erin")
    page.fill("input[name=password]", PASSWORD)
    page.locator("main button[type=submit]").click()
    page.wait_for_url("**/en/me/")
    for path in ["/en/me/", "/en/account/", "/en/account/password/", "/en/review/"]:
        page.goto(path)
        page.wait_for_load_state("networkidle")
        assert_clean(page, errors)
