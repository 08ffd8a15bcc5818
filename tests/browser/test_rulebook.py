"""The rulebook reader as a person sees it: index, sections in both languages, the glossary."""

import pytest

from scenarios.content import CONTENT_DIR, read_content
from scenarios.loading import load
from tests.browser.support import assert_accessible, assert_fits, shoot, shoot_part

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def real_rulebook(transactional_db, tmp_path):
    # The rule files and the glossary only: the reader does not depend on the scenarios.
    for name in ("rules", "glossary.toml"):
        (tmp_path / name).symlink_to(CONTENT_DIR / name)
    load(read_content(tmp_path, complete=False))


def _check(p, name):
    assert_accessible(p)
    assert_fits(p)
    shoot(p, name)


@pytest.mark.parametrize("lang", ["it", "en"])
def test_rules_index_is_accessible_and_fits_a_phone(real_rulebook, page, phone, lang):
    for p, size in ((page, "desktop"), (phone, "phone")):
        p.goto(f"/{lang}/rules/")
        assert p.locator("html").get_attribute("lang") == lang
        assert p.locator(".rule-card").count() == 3
        _check(p, f"rulebook-index-{lang}-{size}")


@pytest.mark.parametrize("lang", ["it", "en"])
def test_section_with_spots_shows_the_other_language_on_click(real_rulebook, page, phone, lang):
    summary = {"it": "Original text", "en": "Italian translation"}[lang]
    other = {"it": "A penalty hit at the ball", "en": "Un tiro di punizione alla palla"}[lang]
    for p, size in ((page, "desktop"), (phone, "phone")):
        p.goto(f"/{lang}/rules/section/37.2/")
        assert p.locator("svg.field").is_visible()
        hidden = p.locator(".para details p").first
        assert not hidden.is_visible()
        details = p.locator(".para details summary").first
        # Italian pages read "Testo originale" once the catalog has the string.
        assert details.text_content() in {summary, "Testo originale", "Traduzione italiana"}
        details.click()
        assert hidden.is_visible()
        assert other in hidden.text_content()
        _check(p, f"rulebook-section-37.2-{lang}-{size}")
        shoot_part(p.locator("figure.spots"), f"spots-{lang}-{size}")


@pytest.mark.parametrize("lang", ["it", "en"])
def test_section_with_worked_examples(real_rulebook, page, phone, lang):
    for p, size in ((page, "desktop"), (phone, "phone")):
        p.goto(f"/{lang}/rules/section/3.b/")
        assert p.locator(".case").count() == 6
        p.locator(".case details summary").first.click()
        _check(p, f"rulebook-section-3.b-{lang}-{size}")


def test_a_term_link_leads_to_its_glossary_entry(real_rulebook, page):
    page.goto("/en/rules/section/21.a/")
    page.locator(".para > p a.term", has_text="Safety").first.click()
    page.wait_for_url("**/en/glossary/#term-safety")
    assert page.locator("#term-safety").is_visible()


@pytest.mark.parametrize("lang", ["it", "en"])
def test_glossary_is_accessible_and_fits_a_phone(real_rulebook, page, phone, lang):
    for p, size in ((page, "desktop"), (phone, "phone")):
        p.goto(f"/{lang}/glossary/")
        assert p.locator(".glossary .entry").count() > 30
        _check(p, f"glossary-{lang}-{size}")
        shoot(p, f"glossary-{lang}-{size}-top", full_page=False)


def test_rule_page_in_italian(real_rulebook, page, phone):
    for p, size in ((page, "desktop"), (phone, "phone")):
        p.goto("/it/rules/37/")
        _check(p, f"rulebook-rule-37-it-{size}")
