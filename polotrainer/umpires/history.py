"""The history as a person reads it: each answer with its situation's title and its question's
prompt in the page's language, with the numbers of that very variant filled in.

An attempt stores the question's id ("counted") and the scenario's slug and seed; the words come
from the scenario's content, so they follow the page's language and any later rewording.
"""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from polotrainer.umpires.models import Attempt
from scenarios.localize import current_language, pick
from scenarios.variants import Variant, make_variant


@dataclass(frozen=True)
class Row:
    attempt: Attempt
    title: str
    prompt: str


def readable(attempts: Iterable[Attempt]) -> list[Row]:
    """The attempts (their scenario and its data loaded) as rows of words in the page's language.

    A text with placeholders ("Red's {red}-goal team") is rendered for the attempt's variant,
    each variant made once per call.
    """
    lang = current_language()
    variants: dict[tuple[str, int], Variant | None] = {}

    def render(attempt: Attempt, texts: Mapping[str, str]) -> str:
        text = pick(texts, lang)
        if "{" not in text:
            return text
        slug, seed = attempt.scenario.slug, attempt.seed
        if (slug, seed) not in variants:
            try:
                variants[slug, seed] = make_variant(slug, attempt.scenario.data, seed)
            except ValueError:  # VariantError, FactError: the content changed since
                variants[slug, seed] = None
        variant = variants[slug, seed]
        try:
            return variant.render(texts, lang) if variant else text
        except (KeyError, ValueError):  # a placeholder the variant no longer has, or malformed
            return text

    rows = []
    for attempt in attempts:
        data: Mapping[str, Any] = attempt.scenario.data
        prompt: Mapping[str, str] = next(
            (
                q.get("prompt", {})
                for q in data.get("question", [])
                if q.get("id") == attempt.question
            ),
            {},
        )
        rows.append(
            Row(
                attempt=attempt,
                title=render(attempt, data.get("title") or _titles(attempt)),
                # A question since removed from the content keeps its id: better than nothing.
                prompt=render(attempt, prompt) if prompt else attempt.question,
            )
        )
    return rows


def _titles(attempt: Attempt) -> dict[str, str]:
    return {"it": attempt.scenario.title_it, "en": attempt.scenario.title_en}
