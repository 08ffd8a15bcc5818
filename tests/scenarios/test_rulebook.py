"""The rulebook reader: rules, sections and the glossary in both languages."""

import re
from urllib.parse import quote

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils.html import escape
from django.utils.translation import gettext, override

from scenarios.content import CONTENT_DIR, read_content
from scenarios.loading import load
from scenarios.models import Section

SUMMARY = {"it": "Original text", "en": "Italian translation"}


def translated(msgid, lang):
    with override(lang):
        return gettext(msgid)


@pytest.fixture
def real_rulebook(db, tmp_path):
    """The real rule files and glossary (the reader does not depend on the scenarios)."""
    for name in ("rules", "glossary.toml"):
        (tmp_path / name).symlink_to(CONTENT_DIR / name)
    load(read_content(tmp_path, complete=False))


def text(html):
    return re.sub(r"<[^>]+>", "", html)


def details_blocks(html):
    return re.findall(r'<details class="other-lang">(.*?)</details>', html, re.S)


@pytest.mark.parametrize("lang", ["it", "en"])
def test_rules_index_lists_every_rule_and_section_with_practise_links(client, real_rulebook, lang):
    html = client.get(f"/{lang}/rules/").content.decode()
    for number in (3, 21, 37):
        assert f'href="/{lang}/rules/{number}/"' in html
        assert f'href="/{lang}/practice/?rule={number}"' in html
    for section in Section.objects.all():
        assert f'href="/{lang}/rules/section/{section.ref}/"' in html
        assert f'href="/{lang}/practice/?section={quote(section.ref, safe="")}"' in html
    assert f'href="/{lang}/practice/?section=21.f%281%29"' in html


def test_rules_index_speaks_the_page_language(client, real_rulebook):
    it = client.get("/it/rules/").content.decode()
    en = client.get("/en/rules/").content.decode()
    assert "Le punizioni" in it and "Traduzione a scopo didattico" in it
    assert "Penalties" in en and "The English original prevails" in en
    assert "Le punizioni" not in en


def test_italian_section_shows_italian_with_the_english_original_behind_details(
    client, real_rulebook
):
    html = client.get("/it/rules/section/21.a/").content.decode()
    assert '<html lang="it">' in html
    assert "Traduzione a scopo didattico. Prevale il testo originale in inglese." in html
    blocks = details_blocks(html)
    assert blocks
    assert f"<summary>{translated('Original text', 'it')}</summary>" in blocks[0]
    assert '<p lang="en">' in blocks[0]
    main = html.split('<details class="other-lang">')[0]
    assert '<p lang="it">' in main


def test_english_section_shows_english_with_the_italian_translation_behind_details(
    client, real_rulebook
):
    html = client.get("/en/rules/section/21.a/").content.decode()
    assert '<html lang="en">' in html
    assert "The English original prevails." in html
    blocks = details_blocks(html)
    assert "<summary>Italian translation</summary>" in blocks[0]
    assert '<p lang="it">' in blocks[0]


def _catalog_has(msgid, lang):
    return translated(msgid, lang) != msgid


@pytest.mark.skipif(
    not _catalog_has("Original text", "it"), reason="the catalog does not have the string yet"
)
def test_italian_pages_read_testo_originale(client, real_rulebook):
    assert (
        "<summary>Testo originale</summary>"
        in client.get("/it/rules/section/3.a/").content.decode()
    )


@pytest.mark.parametrize("lang", ["it", "en"])
def test_every_paragraph_has_the_other_language_one_click_away(client, real_rulebook, lang):
    other = "en" if lang == "it" else "it"
    section = Section.objects.get(ref="3.b")
    html = client.get(f"/{lang}/rules/section/3.b/").content.decode()
    assert len(details_blocks(html)) == len(section.paragraphs) + len(section.cases)
    first = section.paragraphs[0]
    assert first[lang][:40] in text(html)
    assert first[other][:40] in text("".join(details_blocks(html)))


@pytest.mark.parametrize("lang", ["it", "en"])
def test_worked_examples_show_title_and_number(client, real_rulebook, lang):
    html = client.get(f"/{lang}/rules/section/3.b/").content.decode()
    heading = {"it": "Esempi", "en": "Worked examples"}[lang]
    assert translated("Worked examples", lang) in html
    assert lang == "it" or heading in html
    section = Section.objects.get(ref="3.b")
    example = {"it": "Esempio", "en": "Example"}[lang]
    for number, case in enumerate(section.cases, start=1):
        assert escape(case["title"][lang]) in html
        assert f'<span class="case-id">{example} {number}</span>' in html
        assert f'id="case-{case["id"].replace(".", "")}"' in html  # the anchor keeps the id


@pytest.mark.parametrize("lang", ["it", "en"])
@pytest.mark.parametrize(
    "path", ["rules/", "rules/3/", "rules/21/", "rules/37/", "glossary/", "rules/section/3.f/"]
)
def test_readers_see_section_numbers_as_the_rulebook_prints_them(client, real_rulebook, lang, path):
    shown = text(client.get(f"/{lang}/{path}").content.decode())
    for name in (".summary", ".discussion", ".applying"):
        assert name not in shown


@pytest.mark.parametrize(
    ("ref", "lang", "label"),
    [
        ("37.7.applying", "en", "37.7 Applying Penalty 7"),
        ("3.summary", "it", "3 In sintesi"),
        ("21.discussion", "en", "21 Discussion and examples"),
        ("21.f(1)", "en", "21.f(1) Injured or distressed horse"),
    ],
)
def test_a_section_is_named_by_its_number_and_title(real_rulebook, ref, lang, label):
    with override(lang):
        assert Section.objects.get(ref=ref).label == label


@pytest.mark.parametrize("lang", ["it", "en"])
def test_section_links_to_practise_it_with_the_ref(client, real_rulebook, lang):
    html = client.get(f"/{lang}/rules/section/21.f(1)/").content.decode()
    assert f'href="/{lang}/practice/?section=21.f%281%29"' in html


def test_section_has_previous_and_next(client, real_rulebook):
    html = client.get("/en/rules/section/21/").content.decode()
    assert 'href="/en/rules/section/3.summary/" rel="prev"' in html
    assert 'href="/en/rules/section/21.a/" rel="next"' in html
    first = client.get("/en/rules/section/3.a/").content.decode()
    assert 'rel="prev"' not in first


@pytest.mark.parametrize("lang", ["it", "en"])
def test_penalty_2_shows_the_spot_list_at_its_place_and_the_diagram(client, real_rulebook, lang):
    html = client.get(f"/{lang}/rules/section/37.2/").content.decode()
    section = Section.objects.get(ref="37.2")
    after = section.spots["after_paragraph"]
    figure = html.index('<figure class="spots">')
    paragraphs = [m.start() for m in re.finditer(r'<div class="para">', html)]
    assert sum(p < figure for p in paragraphs) == after
    for item in section.spots["item"]:
        assert item[lang] in html
    svg = html[html.index("<svg") : html.index("</svg>")]
    assert 'role="img"' in svg and ("Penalty 2" if lang == "en" else "Punizione 2") in svg
    # Drawn from the engine's field: goal line at -150, the 30/40/60 lines, P6's 40-yard band.
    for x in ("-150", "-120", "-110", "-90"):
        assert f'x1="{x}"' in svg
    assert 'class="band" x="-92" y="-40" width="4" height="80"' in svg
    for label in ("2", "3", "4", "5b", "6"):
        assert f">{label}</text>" in svg


def test_only_penalty_2_has_the_diagram(client, real_rulebook):
    assert "<svg" not in client.get("/en/rules/section/37.3/").content.decode()


@pytest.mark.parametrize("lang", ["it", "en"])
def test_rule_page_shows_every_section(client, real_rulebook, lang):
    html = client.get(f"/{lang}/rules/37/").content.decode()
    for section in Section.objects.filter(rule=37):
        assert section.title_it if lang == "it" else section.title_en in html
    assert f'href="/{lang}/practice/?rule=37"' in html
    assert html.count("<svg") == 1


@pytest.mark.parametrize("lang", ["it", "en"])
@pytest.mark.parametrize("path", ["rules/9/", "rules/section/99.z/", "rules/section/3/"])
def test_unknown_rule_or_section_is_a_translated_404(client, real_rulebook, lang, path):
    response = client.get(f"/{lang}/{path}")
    assert response.status_code == 404
    assert translated("Page not found", lang) in response.content.decode()


@pytest.mark.parametrize("lang", ["it", "en"])
def test_terms_are_linked_in_the_text_and_in_the_other_language(client, real_rulebook, lang):
    html = client.get(f"/{lang}/rules/section/21.a/").content.decode()
    main, *others = html.split('<details class="other-lang">')
    assert f'<a class="term" href="/{lang}/glossary/#term-safety">Safety</a>' in main
    end_line = {"it": "end line", "en": "linea di fondo"}[lang]
    assert f'href="/{lang}/glossary/#term-end-line">{end_line}</a>' in "".join(others)


@pytest.mark.parametrize("lang", ["it", "en"])
def test_glossary_shows_both_languages_definitions_and_sections(client, real_rulebook, lang):
    html = client.get(f"/{lang}/glossary/").content.decode()
    assert 'id="term-knock-in"' in html
    assert "rimessa dal fondo" in html and "knock-in" in html
    definition = {
        "it": "La ripresa del gioco da parte della squadra che difende",
        "en": "The restart by the defending team",
    }[lang]
    assert definition in html
    entry = html[html.index('id="term-knock-in"') :]
    entry = entry[: entry.index("</div>")]
    assert f'href="/{lang}/rules/section/21.discussion/"' in entry


@pytest.mark.parametrize(
    ("path", "most"),
    [("/it/rules/", 2), ("/en/rules/37/", 3), ("/it/rules/section/37.2/", 5), ("/en/glossary/", 2)],
)
def test_pages_take_few_queries(client, real_rulebook, path, most):
    with CaptureQueriesContext(connection) as queries:
        assert client.get(path).status_code == 200
    assert len(queries) <= most
