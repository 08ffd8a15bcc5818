"""Rule text and glossary terms as every screen shows them: one function for each.

A rule's text is shown in the page's language with the other language one click away (the
English original prevails), glossary terms and cross-references linked in both. The reader, the
practice feedback, exams and clinics all take their rule text from `section_texts` and their
glossary from `glossary_terms`.
"""

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from django.utils.safestring import SafeString

from polotrainer.rules.vocabulary import REFS
from scenarios.glossary_links import Term, link_terms
from scenarios.localize import other_language, pick
from scenarios.models import GlossaryTerm, Section
from scenarios.spec import Texts

#: Per process, keyed by a stamp that changes whenever the content is loaded again (and so
#: never stale): the glossary's forms and the sections' linked texts. Plain dictionaries, not
#: Django's cache, which would pickle and unpickle the texts on every read. The stamp is a
#: scenario's, so each text is read once per scenario; large enough for every scenario's
#: glossary, titles and cited sections in both languages (at 512, 145 scenarios emptied it
#: again and again), and a value equal to one read under another stamp (the same glossary,
#: the same sections) is kept once.
_CACHE: dict[tuple[str, ...], object] = {}
_SAME: dict[tuple[str, ...], object] = {}
_CACHE_MAX = 8192


def _remember[T](key: tuple[str, ...], make: Callable[[], T]) -> T:
    found = _CACHE.get(key)
    if found is None:
        if len(_CACHE) >= _CACHE_MAX:
            _CACHE.clear()
            _SAME.clear()
        found = make()
        what = (key[0], *key[2:])  # the key without its stamp
        if _SAME.get(what) == found:
            found = _SAME[what]
        else:
            _SAME[what] = found
        _CACHE[key] = found
    return found  # type: ignore[return-value]


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
    return _remember(("glossary", stamp), _read_terms)


def _read_terms() -> list[GlossaryForms]:
    return [
        GlossaryForms(slug, list(m_it), list(m_en))
        for slug, m_it, m_en in GlossaryTerm.objects.values_list("slug", "match_it", "match_en")
    ]


def section_titles(stamp: str = "") -> dict[str, Texts]:
    """Every section's title in both languages, by reference (cached under `stamp`)."""

    def read() -> dict[str, Texts]:
        rows = Section.objects.values_list("ref", "title_it", "title_en")
        return {ref: Texts(it, en) for ref, it, en in rows}

    return _remember(("titles", stamp), read) if stamp else read()


def bilingual(
    texts: Mapping[str, str],
    lang: str,
    terms: Iterable[Term],
    linked: Mapping[str, set[str]] | None = None,
) -> Text:
    """A text in `lang` and its other language, glossary terms and references linked.

    `linked` carries, per language, the terms already linked in earlier texts of the same
    section: they are not linked again.
    """
    other = other_language(lang)
    terms = list(terms)
    seen = linked or {"it": set(), "en": set()}
    return Text(
        link_terms(texts.get(lang, ""), lang, terms, REFS, linked=seen[lang]),
        link_terms(texts.get(other, ""), other, terms, REFS, linked=seen[other]),
    )


def section_texts(refs: Sequence[str], lang: str, stamp: str = "") -> list[SectionText]:
    """The text of the sections `refs`, in order (unknown refs left out), cached under `stamp`."""
    if stamp:
        return _remember(
            ("sections", stamp, lang, *refs), lambda: _section_texts(refs, lang, stamp)
        )
    return _section_texts(refs, lang, stamp)


def _section_texts(refs: Sequence[str], lang: str, stamp: str) -> list[SectionText]:
    terms = glossary_terms(stamp)
    sections = {s.ref: s for s in Section.objects.filter(ref__in=refs)}
    out = []
    for ref in refs:
        if ref not in sections:
            continue
        section = sections[ref]
        # Each term linked where it first occurs in the section, not in every paragraph.
        linked: dict[str, set[str]] = {"it": set(), "en": set()}
        out.append(
            SectionText(
                ref,
                pick({"it": section.title_it, "en": section.title_en}, lang),
                tuple(bilingual(p, lang, terms, linked) for p in section.paragraphs),
            )
        )
    return out
