"""The offline practice page: one copy for everyone, kept per process for the rulebook's rules
and live sections, so it must follow them when they change and never echo a made-up choice."""

import re

import pytest

from scenarios.models import Scenario, Section

pytestmark = pytest.mark.django_db


def _page(html: str) -> str:
    """The page's own part (the head carries the response's masked CSRF token)."""
    return html[html.index('<div class="offline"') :]


def _options(html: str, name: str) -> list[tuple[str, bool]]:
    select = re.search(rf'<select id="pack-{name}" name="{name}">(.*?)</select>', html, re.S)
    assert select is not None
    return [
        (value, bool(selected))
        for value, selected in re.findall(r'<option value="([^"]*)"( selected)?>', select[1])
    ]


@pytest.mark.parametrize(("lang", "word"), [("it", "Regola"), ("en", "Rule")])
def test_the_page_offers_each_rule_and_each_live_section_in_its_language(
    client, scenarios, lang, word
):
    html = client.get(f"/{lang}/offline/").content.decode()
    live = sorted(
        Section.objects.filter(scenarios__retired=False).values_list("ref", flat=True).distinct()
    )
    assert sorted(v for v, _ in _options(html, "section")) == live
    assert [v for v, _ in _options(html, "rule")] and f"{word} 37 · " in html
    assert not any(selected for _v, selected in _options(html, "rule"))


def test_a_chosen_rule_or_section_is_selected_and_a_made_up_one_is_not_echoed(client, scenarios):
    ref = Section.objects.filter(scenarios__retired=False).values_list("ref", flat=True)[0]
    html = client.get(f"/en/offline/?rule=37&section={ref}").content.decode()
    assert ("37", True) in _options(html, "rule") and (ref, True) in _options(html, "section")
    assert 'data-chosen-rule="37"' in html
    plain = client.get("/en/offline/").content.decode()
    junk = client.get("/en/offline/?rule=999&section=%3Cb%3E").content.decode()
    assert _page(junk) == _page(plain)
    assert not any(selected for _v, selected in _options(junk, "section"))


def test_the_kept_page_follows_the_sections_live(client, scenarios):
    before = client.get("/en/offline/").content.decode()
    section = Section.objects.filter(scenarios__retired=False).first()
    Scenario.objects.filter(section=section).update(retired=True)
    after = client.get("/en/offline/").content.decode()
    assert (section.ref, False) in _options(before, "section")
    assert section.ref not in [v for v, _ in _options(after, "section")]
