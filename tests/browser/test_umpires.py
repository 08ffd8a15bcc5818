"""An umpire's account and dashboard as a person sees them, in both languages, desktop and phone."""

import pytest
from django.contrib.auth import get_user_model

from polotrainer.umpires.models import Profile
from tests.browser.support import assert_accessible, assert_fits, shoot, shoot_part
from tests.content import small_rulebook
from tests.people import answer, days_ago

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "a-long-unusual-passphrase-91"


def _check(p, name):
    assert_accessible(p)
    assert_fits(p)
    shoot(p, name)


@pytest.fixture
def umpire_with_history(transactional_db):
    """Dora, with a fortnight of answers across the small rulebook."""
    rulebook = small_rulebook()
    user = get_user_model().objects.create_user("dora", "dora@example.org", PASSWORD)
    Profile.objects.create(user=user, display_name="Dora", language="en")
    scenarios = list(rulebook.values())
    for n in range(40):
        answer(
            user,
            scenarios[n % 4],
            seed=1000 + n,
            correct=n % 3 != 0,
            when=days_ago((n * 7) % 15, hour=9 + n % 10),
        )
    return user


def _log_in(p, lang="en"):
    p.goto(f"/{lang}/account/login/")
    p.fill("input[name=username]", "dora")
    p.fill("input[name=password]", PASSWORD)
    p.locator("main form button[type=submit]").click()
    p.wait_for_url("**/me/")


def test_sign_up_lands_on_an_empty_dashboard(transactional_db, page):
    small_rulebook()
    page.goto("/en/account/signup/")
    _check(page, "umpires-signup-en-desktop")
    page.fill("input[name=username]", "erin")
    page.fill("input[name=email]", "erin@example.org")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.get_by_role("button", name="Create my account").click()
    page.wait_for_url("**/en/me/")
    assert "No answers yet." in page.content()
    _check(page, "umpires-dashboard-empty-en-desktop")


def test_a_weak_password_is_explained_on_the_form(transactional_db, phone):
    phone.goto("/en/account/signup/")
    phone.fill("input[name=username]", "erin")
    phone.fill("input[name=email]", "erin@example.org")
    phone.fill("input[name=password1]", "12345678")
    phone.fill("input[name=password2]", "12345678")
    phone.get_by_role("button", name="Create my account").click()
    phone.locator(".errorlist").first.wait_for()
    _check(phone, "umpires-signup-weak-password-en-phone")


@pytest.mark.parametrize("lang", ["en", "it"])
def test_log_in_and_read_the_dashboard(umpire_with_history, page, phone, lang):
    Profile.objects.filter(user=umpire_with_history).update(language=lang)
    for p, size in ((page, "desktop"), (phone, "phone")):
        p.goto(f"/{lang}/account/login/")
        _check(p, f"umpires-login-{lang}-{size}")
        p.fill("input[name=username]", "dora")
        p.fill("input[name=password]", PASSWORD)
        p.locator("main form button[type=submit]").click()
        p.wait_for_url(f"**/{lang}/me/")
        assert p.locator("html").get_attribute("lang") == lang
        assert p.locator("progress").count() == 5  # two rules, three sections
        assert p.locator("svg[role=img]").count() == 2
        assert p.locator("table.history tbody tr").count() == 25
        _check(p, f"umpires-dashboard-{lang}-{size}")
        for part in ("mastery", "activity", "history"):
            shoot_part(
                p.locator(f"section[aria-labelledby={part}-title]"),
                f"umpires-dashboard-{part}-{lang}-{size}",
            )


def test_history_pages_swap_in_place_with_htmx(umpire_with_history, page):
    _log_in(page)
    first_row = page.locator("table.history tbody tr").first.text_content()
    page.get_by_role("link", name="Older").click()
    page.wait_for_url("**/me/?page=2")
    assert page.locator("table.history tbody tr").count() == 15
    assert page.locator("table.history tbody tr").first.text_content() != first_row
    assert page.locator("svg[role=img]").count() == 2  # the rest of the page stayed
    _check(page, "umpires-dashboard-history-page-2-en-desktop")


def test_the_history_reads_on_a_phone_without_scrolling_sideways(umpire_with_history, phone):
    """Each answer is a block of lines on a phone (tests/browser/test_layout.py looks closer)."""
    _log_in(phone)
    wrapper = phone.locator("#history .table-scroll")
    assert wrapper.evaluate("el => el.scrollWidth <= el.clientWidth")
    assert_fits(phone)


@pytest.mark.parametrize("lang", ["en", "it"])
def test_profile_and_review_pages(umpire_with_history, page, phone, lang):
    Profile.objects.filter(user=umpire_with_history).update(language=lang)
    for p, size in ((page, "desktop"), (phone, "phone")):
        _log_in(p, lang)
        p.goto(f"/{lang}/account/")
        _check(p, f"umpires-profile-{lang}-{size}")
        p.goto(f"/{lang}/account/delete/")
        _check(p, f"umpires-delete-{lang}-{size}")


def test_repeated_wrong_passwords_pause_logins_with_a_clear_page(
    umpire_with_history, phone, settings
):
    settings.MAIL_ENABLED = True  # a site that sends mail offers the reset that ends the pause
    for _ in range(6):
        phone.goto("/it/account/login/")
        phone.fill("input[name=username]", "dora")
        phone.fill("input[name=password]", "not-the-password")
        phone.locator("main form button[type=submit]").click()
    assert phone.locator("html").get_attribute("lang") == "it"
    assert phone.locator("h1").inner_text() == "Troppe password sbagliate"
    assert phone.locator("a[href='/it/account/password/reset/']").count() >= 1
    _check(phone, "umpires-locked-out-it-phone")
    phone.goto("/it/account/password/reset/")
    _check(phone, "umpires-password-reset-it-phone")
