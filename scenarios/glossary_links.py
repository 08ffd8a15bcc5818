"""Linking the glossary's terms where they occur in rule and scenario texts.

The texts are plain text from the content files. Every glossary term lists the exact forms it
takes in each language (`match_it`, `match_en`, case-sensitive); forms overlap ("handicap",
"handicap complessivo della squadra"), so the longest wins. A term is linked at most once per
text, so a paragraph does not turn into a page of links.
"""

import re
from collections.abc import Collection, Iterable
from functools import lru_cache
from typing import Protocol

from django.urls import reverse
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe


class Term(Protocol):
    """What the linker needs of a glossary term (a `GlossaryTerm` row fits)."""

    @property
    def slug(self) -> str: ...
    @property
    def match_it(self) -> list[str]: ...
    @property
    def match_en(self) -> list[str]: ...


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
        # A plain substring test first: most forms are absent from most texts, and the
        # whole-word regex is only needed where the form occurs at all.
        if form and form in text
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


#: A cross-reference in the rule text to a section of ours: "21.d", "21.f(1)", "21.f(1)(i)".
_REFERENCE = re.compile(r"(?<![\w.])(3|21|37)\.([a-l])((?:\(\d\))?)(?:\([ivx]+\))?(?![\w])")


def _references(text: str, refs: Collection[str]) -> list[tuple[int, int, str]]:
    """(start, end, ref) of every cross-reference in `text` that names one of `refs`."""
    spans = []
    for match in _REFERENCE.finditer(text):
        ref = f"{match.group(1)}.{match.group(2)}{match.group(3)}"
        if ref in refs:
            spans.append((match.start(), match.end(), ref))
    return spans


def link_terms(
    text: str,
    lang: str,
    terms: Iterable[Term],
    refs: Collection[str] = (),
    linked: set[str] | None = None,
) -> SafeString:
    """`text` HTML-escaped, with the glossary forms of `lang` linked to their glossary entries
    and, when `refs` is given, cross-references such as "Rule 21.d" linked to those sections.

    Matches are whole words, case-sensitive, longest first; each term is linked at most once,
    and not at all when its slug is in `linked` (the terms an earlier paragraph of the same
    text linked; the set is updated). `text` is plain text (never HTML), so no link can end up
    inside another. Take `terms` from scenarios.texts.glossary_terms.
    """
    references = _references(text, refs)
    spans = [
        (start, end, "term", slug)
        for start, end, slug in _matches(text, lang, list(terms))
        if not any(start < e and s < end for s, e, _ in references)
        and (linked is None or slug not in linked)
    ] + [(start, end, "ref", ref) for start, end, ref in references]
    if linked is not None:
        linked.update(key for _s, _e, what, key in spans if what == "term")
    glossary = reverse("scenarios:glossary")
    pieces: list[str] = []
    at = 0
    for start, end, what, key in sorted(spans):
        pieces.append(escape(text[at:start]))
        if what == "ref":
            url = reverse("scenarios:section", args=[key])
            pieces.append(format_html('<a class="ref-link" href="{}">{}</a>', url, text[start:end]))
        else:
            pieces.append(
                format_html(
                    '<a class="term" href="{}#term-{}">{}</a>', glossary, key, text[start:end]
                )
            )
        at = end
    pieces.append(escape(text[at:]))
    return mark_safe("".join(pieces))  # noqa: S308 - every piece above is escaped
