"""Rule text and glossary terms as every screen shows them: one function for each.

A rule's text is shown in the page's language with the other language one click away (the
English original prevails), glossary terms and cross-references linked in both. The reader, the
practice feedback, exams and clinics all take their rule text from `section_texts` and their
glossary from `glossary_terms`.
"""

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from django.core.cache import cache
from django.utils.safestring import SafeString, mark_safe

from polotrainer.rules.vocabulary import REFS
from scenarios.glossary_links import Term, link_terms
from scenarios.localize import other_language, pick
from scenarios.models import GlossaryTerm, Section

#: How long a process keeps the glossary and cited texts (a content load changes the key).
CACHE_SECONDS = 60 * 60


@dataclass(frozen=True)
class GlossaryForms:
    """What the linker needs of a term, cheap to cache."""

    slug: str
    match_it: list[str]
    match_en: list[str]


@dataclass(frozen=True)
class Text:
    """One text in the page's language and in the other one, terms linked in each."""

    text: SafeString
    other: SafeString


@dataclass(frozen=True)
class SectionText:
    """A section's text as cited beside a ruling: its paragraphs in both languages."""

    ref: str
    title: str
    paragraphs: tuple[Text, ...]


def glossary_terms(stamp: str = "") -> list[GlossaryForms]:
    """Every glossary term's word forms; cached under `stamp` when one is given.

    The stamp is anything that changes when the content is loaded again (a scenario's
    `updated_at`): without one, the terms are read from the database.
    """
    if not stamp:
        return _read_terms()
    key = f"texts:glossary:{stamp}"
    terms = cache.get(key)
    if terms is None:
        terms = _read_terms()
        cache.set(key, terms, CACHE_SECONDS)
    return list(terms)


def _read_terms() -> list[GlossaryForms]:
    return [
        GlossaryForms(slug, list(m_it), list(m_en))
        for slug, m_it, m_en in GlossaryTerm.objects.values_list("slug", "match_it", "match_en")
    ]


def bilingual(texts: Mapping[str, str], lang: str, terms: Iterable[Term]) -> Text:
    """A text in `lang` and its other language, glossary terms and references linked."""
    other = other_language(lang)
    terms = list(terms)
    return Text(
        link_terms(texts.get(lang, ""), lang, terms, REFS),
        link_terms(texts.get(other, ""), other, terms, REFS),
    )


def section_texts(refs: Sequence[str], lang: str, stamp: str = "") -> list[SectionText]:
    """The text of the sections `refs`, in order (unknown refs left out), cached under `stamp`."""
    key = f"texts:sections:{stamp}:{lang}:{','.join(refs)}"
    raw = cache.get(key) if stamp else None
    if raw is None:
        terms = glossary_terms(stamp)
        sections = {s.ref: s for s in Section.objects.filter(ref__in=refs)}
        # Cached as plain strings (escaped and linked by link_terms); marked safe when read.
        raw = [
            (
                ref,
                pick({"it": sections[ref].title_it, "en": sections[ref].title_en}, lang),
                [
                    (str(t.text), str(t.other))
                    for t in (bilingual(p, lang, terms) for p in sections[ref].paragraphs)
                ],
            )
            for ref in refs
            if ref in sections
        ]
        if stamp:
            cache.set(key, raw, CACHE_SECONDS)
    return [
        SectionText(
            ref,
            title,
            tuple(Text(mark_safe(a), mark_safe(b)) for a, b in paragraphs),  # noqa: S308 - escaped by link_terms
        )
        for ref, title, paragraphs in raw
    ]
