"""The home page, the switcher and the 404 page as a person sees them."""

import pytest

from tests.browser.support import assert_accessible, assert_fits, shoot

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("lang", ["it", "en"])
def test_home_is_accessible_and_fits_a_phone(phone, page, lang):
    for p, size in ((page, "desktop"), (phone, "phone")):
        p.goto(f"/{lang}/")
        assert p.locator("html").get_attribute("lang") == lang
        assert_accessible(p)
        assert_fits(p)
        shoot(p, f"home-{lang}-{size}")


def test_skip_link_is_the_first_stop_and_moves_focus_to_main(page):
    page.goto("/en/")
    page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement.textContent")
    assert focused.strip() == "Skip to content"
    page.keyboard.press("Enter")
    assert page.evaluate("location.hash") == "#main"


def test_switcher_keeps_the_page_in_the_other_language(page):
    page.goto("/it/")
    page.get_by_role("button", name="English").click()
    page.wait_for_url("**/en/")
    assert page.locator("html").get_attribute("lang") == "en"
    page.goto("/")
    page.wait_for_url("**/en/")


@pytest.mark.parametrize("lang", ["it", "en"])
def test_404_page_is_styled_and_translated(page, lang):
    page.goto(f"/{lang}/no-such-page/")
    heading = page.get_by_role("heading", level=1).text_content()
    assert heading == {"it": "Pagina non trovata", "en": "Page not found"}[lang]
    assert_accessible(page)
    shoot(page, f"404-{lang}")
