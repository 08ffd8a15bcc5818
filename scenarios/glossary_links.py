"""Linking the glossary's terms where they occur in rule and scenario texts.

The texts are plain text from the content files. Every glossary term lists the exact forms it
takes in each language (`match_it`, `match_en`, case-sensitive); forms overlap ("handicap",
"handicap complessivo della squadra"), so the longest wins. A term is linked at most once per
text, so a paragraph does not turn into a page of links.
"""

import re
from collections.abc import Iterable
from functools import lru_cache
from typing import Protocol

from django.urls import reverse
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe


class Term(Protocol):
    """What the linker needs of a glossary term (a `GlossaryTerm` row fits)."""

    slug: str
    match_it: list[str]
    match_en: list[str]


@lru_cache(maxsize=512)
def _pattern(form: str) -> re.Pattern[str]:
    # Whole words only: no letter, digit or underscore may touch the form on either side.
    return re.compile(rf"(?<!\w){re.escape(form)}(?!\w)")


def _matches(text: str, lang: str, terms: Iterable[Term]) -> list[tuple[int, int, str]]:
    """The (start, end, slug) spans to link: longest first, no overlaps, one per term."""
    candidates = [
        (match.start(), match.end(), term.slug)
        for term in terms
        for form in getattr(term, f"match_{lang}", None) or []
        if form
        for match in _pattern(form).finditer(text)
    ]
    # Longest first: a span claimed by a longer form is never linked by a shorter one, even
    # where the longer form's term is not linked again ("fallo" inside a second "squadra che ha
    # subito il fallo").
    candidates.sort(key=lambda c: (c[0] - c[1], c[0]))
    claimed: list[tuple[int, int, str]] = []
    for start, end, slug in candidates:
        if not any(start < e and s < end for s, e, _ in claimed):
            claimed.append((start, end, slug))
    # Then each term is linked where it first occurs.
    chosen: list[tuple[int, int, str]] = []
    linked: set[str] = set()
    for start, end, slug in sorted(claimed):
        if slug not in linked:
            chosen.append((start, end, slug))
            linked.add(slug)
    return chosen


def link_terms(text: str, lang: str, terms: Iterable[Term]) -> SafeString:
    """`text` HTML-escaped, with the glossary forms of `lang` linked to their glossary entries.

    Matches are whole words, case-sensitive, longest first; each term is linked at most once.
    `text` is plain text (never HTML), so no link can end up inside another. Fetch `terms` once
    per request (`list(GlossaryTerm.objects.all())`) and pass the same list for every text.
    """
    terms = list(terms)
    glossary = reverse("scenarios:glossary")
    pieces: list[str] = []
    at = 0
    for start, end, slug in _matches(text, lang, terms):
        pieces.append(escape(text[at:start]))
        pieces.append(
            format_html('<a class="term" href="{}#term-{}">{}</a>', glossary, slug, text[start:end])
        )
        at = end
    pieces.append(escape(text[at:]))
    return mark_safe("".join(pieces))  # noqa: S308 - every piece above is escaped
