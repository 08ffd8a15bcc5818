"""Pick the text of the active language from bilingual content, with an explicit fallback.

The rulebook's English original prevails, so English is the last resort for a missing Italian
text; an Italian text never stands in for a missing English one silently (content checks forbid
missing texts, this is only the safety net).
"""

from collections.abc import Mapping

from django.utils.translation import get_language

FALLBACK = {"it": ("it", "en"), "en": ("en", "it")}


def current_language() -> str:
    lang = (get_language() or "it")[:2]
    return lang if lang in FALLBACK else "it"


def pick(texts: Mapping[str, str], lang: str | None = None) -> str:
    """Return texts[lang], falling back along FALLBACK; "" when there is nothing at all."""
    for candidate in FALLBACK[lang or current_language()]:
        value = texts.get(candidate)
        if value:
            return value
    return ""


def localize(obj: object, field: str, lang: str | None = None) -> str:
    """The `field_it`/`field_en` attribute of obj for the language, with the same fallback."""
    return pick({code: getattr(obj, f"{field}_{code}", "") for code in FALLBACK}, lang)


def other_language(lang: str | None = None) -> str:
    return "en" if (lang or current_language()) == "it" else "it"
