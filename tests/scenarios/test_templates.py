"""The texts' template syntax (scenarios.variants.render): values, plurals, articles, braces."""

import pytest

from scenarios.variants import TemplateError, english_article, placeholders, render

LABELS = {"side": {"it": "sinistra", "en": "left"}}


@pytest.mark.parametrize(
    ("template", "values", "lang", "expected"),
    [
        ("{n} gol", {"n": 3}, "it", "3 gol"),
        ("a {side}", {"side": "left"}, "it", "a sinistra"),
        ("to the {side}", {"side": "left"}, "en", "to the left"),
        ("{m|minute|minutes} into", {"m": 1}, "en", "1 minute into"),
        ("{m|minute|minutes} into", {"m": 2}, "en", "2 minutes into"),
        ("{m|minute|minutes} into", {"m": 0}, "en", "0 minutes into"),
        ("da {m|minuto|minuti}", {"m": 1}, "it", "da 1 minuto"),
        ("a {d|yarda|yarde}", {"d": 1}, "it", "a 1 yarda"),
        ("a {d|yarda|yarde}", {"d": 15}, "it", "a 15 yarde"),
        ("Red #1 ({h|goal|goals})", {"h": -1}, "en", "Red #1 (-1 goal)"),
        ("{x|yard|yards}", {"x": 2.5}, "en", "2.5 yards"),
        ("in {a n}-goal game", {"n": 8}, "en", "in an 8-goal game"),
        ("in {a n}-goal game", {"n": 18}, "en", "in an 18-goal game"),
        ("in {a n}-goal game", {"n": 10}, "en", "in a 10-goal game"),
        ("in {a n}-goal game", {"n": -1}, "en", "in a -1-goal game"),
        ("{{literal}} {n}", {"n": 1}, "en", "{literal} 1"),
    ],
)
def test_a_template_renders_values_plurals_and_articles(template, values, lang, expected):
    assert render(template, values, LABELS, lang) == expected


@pytest.mark.parametrize(
    ("template", "values", "lang", "message"),
    [
        ("{missing}", {}, "en", "unknown placeholder {missing}"),
        ("{side|one|other}", {"side": "left"}, "en", "needs a number"),
        ("{a n}-goal", {"n": 8}, "it", "English only"),
        ("{n|one}", {"n": 1}, "en", "malformed placeholder {n|one}"),
        ("an {n", {"n": 1}, "en", "unmatched brace"),
        ("{N}", {"N": 1}, "en", "malformed placeholder {N}"),
    ],
)
def test_a_bad_placeholder_is_refused_with_its_reason(template, values, lang, message):
    with pytest.raises(TemplateError) as excinfo:
        render(template, values, LABELS, lang)
    assert message in str(excinfo.value)


def test_placeholders_lists_each_with_its_form():
    found = placeholders("{a level}-goal, {m|minute|minutes}, {side}, {{not}}")
    assert [(p.name, p.form) for p in found] == [
        ("level", "article"),
        ("m", "plural"),
        ("side", "value"),
    ]
    assert (found[1].one, found[1].other) == ("minute", "minutes")


@pytest.mark.parametrize(
    ("number", "article"),
    [
        (8, "an"),
        (11, "an"),
        (18, "an"),
        (80, "an"),
        (89, "an"),
        (800, "an"),
        (8000, "an"),
        (11000, "an"),
        (1, "a"),
        (10, "a"),
        (12, "a"),
        (100, "a"),
        (110, "a"),
        (1800, "a"),
        (0, "a"),
        (-8, "a"),
    ],
)
def test_the_english_article_follows_the_number_read_aloud(number, article):
    assert english_article(number) == article
