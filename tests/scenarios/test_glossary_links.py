"""Glossary terms linked in plain text: escaped, whole words, longest first, once per text."""

from types import SimpleNamespace

import pytest
from django.utils.safestring import SafeString
from django.utils.translation import override

from scenarios.glossary_links import link_terms


def term(slug, it=(), en=()):
    return SimpleNamespace(slug=slug, match_it=list(it), match_en=list(en))


TERMS = [
    term("handicap", it=["handicap"], en=["handicap"]),
    term(
        "team-handicap", it=["handicap di squadra"], en=["aggregate team handicap", "team handicap"]
    ),
    term("foul", it=["fallo"], en=["foul", "fouls"]),
    term("team-fouled", it=["squadra che ha subito il fallo"], en=["team fouled"]),
    term("umpire", it=["Arbitro"], en=["Umpire", "Umpire(s)"]),
]


@pytest.fixture(autouse=True)
def _english():
    with override("en"):
        yield


def links(html):
    import re

    return re.findall(r'<a class="term" href="([^"]+)">([^<]+)</a>', html)


def test_it_escapes_the_text_around_and_inside_the_links():
    html = link_terms("<script>alert(1)</script> foul & <b>Umpire</b>", "en", TERMS)
    assert isinstance(html, SafeString)
    assert "<script>" not in html and "<b>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert " &amp; &lt;b&gt;" in html
    assert links(html) == [
        ("/en/glossary/#term-foul", "foul"),
        ("/en/glossary/#term-umpire", "Umpire"),
    ]


def test_a_term_right_next_to_markup_is_still_a_whole_word():
    html = link_terms("<script>foul</script>", "en", TERMS)
    assert links(html) == [("/en/glossary/#term-foul", "foul")]
    assert html.startswith("&lt;script&gt;<a ")


def test_the_longest_match_wins():
    html = link_terms("The aggregate team handicap may not exceed the limit.", "en", TERMS)
    assert links(html) == [("/en/glossary/#term-team-handicap", "aggregate team handicap")]


def test_a_longer_phrase_wins_over_a_shorter_term_inside_it():
    html = link_terms("la squadra che ha subito il fallo batte", "it", TERMS)
    assert links(html) == [("/en/glossary/#term-team-fouled", "squadra che ha subito il fallo")]


def test_forms_with_punctuation_match_whole():
    html = link_terms("the Umpire(s) decide", "en", TERMS)
    assert links(html)[0][1] == "Umpire(s)"


def test_only_whole_words_are_linked():
    html = link_terms("Fouling, handicaps and foulness are not foul.", "en", TERMS)
    assert links(html) == [("/en/glossary/#term-foul", "foul")]
    assert "handicaps" in html


def test_matches_are_case_sensitive():
    assert links(link_terms("the umpire", "en", TERMS)) == []


def test_each_term_is_linked_once_per_text():
    html = link_terms("A foul, another foul and fouls.", "en", TERMS)
    assert [text for _, text in links(html)] == ["foul"]
    assert html.endswith("another foul and fouls.")


def test_a_repeated_longer_phrase_keeps_its_words_from_shorter_terms():
    html = link_terms(
        "la squadra che ha subito il fallo, cioè la squadra che ha subito il fallo", "it", TERMS
    )
    assert [slug for slug, _ in links(html)] == ["/en/glossary/#term-team-fouled"]


def test_it_uses_the_forms_of_the_language_asked():
    assert links(link_terms("Arbitro and Umpire", "it", TERMS)) == [
        ("/en/glossary/#term-umpire", "Arbitro")
    ]


def test_links_point_to_the_glossary_of_the_page_language():
    with override("it"):
        assert links(link_terms("fallo", "it", TERMS)) == [("/it/glossary/#term-foul", "fallo")]


def test_plain_text_without_terms_comes_back_escaped():
    assert link_terms("l'area", "it", []) == "l&#x27;area"


def test_cross_references_to_our_sections_link_to_them():
    text = "as provided in Rule 21.d; change under subparagraph 21.f(1)(i), or Rule 22.h."
    html = str(link_terms(text, "en", [], {"21.d", "21.f(1)"}))
    assert '<a class="ref-link" href="/en/rules/section/21.d/">21.d</a>' in html
    assert '<a class="ref-link" href="/en/rules/section/21.f(1)/">21.f(1)(i)</a>' in html
    assert "22.h" in html and "section/22.h" not in html  # not one of ours: plain text


def test_a_reference_is_not_linked_without_the_known_sections():
    assert "ref-link" not in str(link_terms("Rule 21.d applies.", "en", []))
