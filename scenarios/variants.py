"""Variants: a scenario's parameters drawn from a seed, its texts and facts rendered from them.

Seed 0 is the rulebook's own numbers (every parameter's default). Any other seed draws from
``random.Random("<slug>:<seed>")`` and re-draws, deterministically, until the constraints hold
and the engine accepts the facts: the same slug and seed give the same variant forever.

A text is a template (docs/content.md, "Texts and their placeholders"):

- ``{name}``: the value; a choice parameter shows its label in the page's language.
- ``{name|one|other}``: the number and the noun that agrees with it: ``one`` for 1 and -1,
  ``other`` for any other number (``{minutes|minute|minutes}``: "1 minute", "3 minutes";
  ``{minutes|minuto|minuti}``: "1 minuto", "3 minuti").
- ``{a name}``, in English: the article the number takes when read aloud, then the number
  (``{a level}-goal``: "an 8-goal", "a 10-goal").
- ``{{`` and ``}}``: a literal brace.

>>> render("In {a n}-goal game, {m|minute|minutes} in", {"n": 8, "m": 1}, {}, "en")
'In an 8-goal game, 1 minute in'
"""

import random
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from polotrainer.rules import FactError, rule_field, rule_json
from scenarios import expressions

#: The seeds practice, review and replay links accept: 0 (the rulebook's numbers) to MAX_SEED.
MAX_SEED = 2**31 - 1
#: Exam variants draw their seeds from the range just above, which practice refuses (a 404),
#: so an exam's seed can never be opened, probed or replayed there.
EXAM_SEEDS = range(MAX_SEED + 1, 2**32)
MAX_DRAWS = 200
_PLACEHOLDER = re.compile(r"^\{([a-z_][a-z0-9_]*)\}$")
_TOKEN = re.compile(r"\{\{|\}\}|\{([^{}]*)\}")
_NAME = r"[a-z_][a-z0-9_]*"
_PLURAL = re.compile(rf"^({_NAME})\|([^|]+)\|([^|]+)$")
_ARTICLE = re.compile(rf"^a ({_NAME})$")
_VALUE = re.compile(rf"^({_NAME})$")


class VariantError(ValueError):
    """No variant can be made: a parameter is ill-formed or no draw satisfies the facts."""


class TemplateError(VariantError):
    """A text's placeholder is malformed, names no value, or cannot take the value it names."""


@dataclass(frozen=True)
class Placeholder:
    """One ``{...}`` of a template: the value it names and how it shows it."""

    name: str
    form: str  # "value", "plural" or "article"
    one: str = ""
    other: str = ""


def placeholders(template: str) -> list[Placeholder]:
    """Every placeholder of a template, in order; TemplateError for one that does not parse.

    >>> [p.name for p in placeholders("{{x}} {a level} {m|minute|minutes} {side}")]
    ['level', 'm', 'side']
    """
    found = []
    for match in _TOKEN.finditer(template):
        if match.group(1) is None:
            continue  # {{ or }}
        found.append(_placeholder(match.group(1)))
    rest = _TOKEN.sub("", template)
    if "{" in rest or "}" in rest:
        raise TemplateError("unmatched brace: write {{ or }} for a literal one")
    return found


def _placeholder(inside: str) -> Placeholder:
    if match := _VALUE.match(inside):
        return Placeholder(match.group(1), "value")
    if match := _PLURAL.match(inside):
        return Placeholder(match.group(1), "plural", match.group(2), match.group(3))
    if match := _ARTICLE.match(inside):
        return Placeholder(match.group(1), "article")
    raise TemplateError(f"malformed placeholder {{{inside}}}")


def render(
    template: str,
    values: Mapping[str, Any],
    labels: Mapping[str, Mapping[str, str]],
    lang: str,
) -> str:
    """The template with every placeholder filled (see the module's docstring)."""
    placeholders(template)  # refuses unmatched braces before anything is filled

    def fill(match: re.Match[str]) -> str:
        if match.group(1) is None:
            return match.group(0)[0]
        p = _placeholder(match.group(1))
        if p.name not in values:
            raise TemplateError(f"unknown placeholder {{{match.group(1)}}}")
        value = values[p.name]
        if p.form == "value":
            return str(labels.get(p.name, {}).get(lang, value))
        if not isinstance(value, int | float) or isinstance(value, bool):
            raise TemplateError(f"{{{match.group(1)}}} needs a number, not {value!r}")
        shown = f"{value:g}" if isinstance(value, float) else str(value)
        if p.form == "plural":
            return f"{shown} {p.one if abs(value) == 1 else p.other}"
        if lang != "en":
            raise TemplateError(f"{{{match.group(1)}}}: the article form is English only")
        return f"{english_article(value)} {shown}"

    return _TOKEN.sub(fill, template)


def english_article(number: float) -> str:
    """'a' or 'an' before a number as it is read aloud: an 8, an 11, an 18, an 80, a 10.

    >>> [english_article(n) for n in (8, 11, 18, 83, 800, 1, 10, 110, 1800, -8, 0)]
    ['an', 'an', 'an', 'an', 'an', 'a', 'a', 'a', 'a', 'a', 'a']
    """
    if number < 0:
        return "a"  # "a minus eight"
    digits = str(int(number))
    # Read aloud in groups of three: the first group decides ("eleven thousand", "eight hundred").
    lead = int(digits[: (len(digits) - 1) % 3 + 1])
    return "an" if lead in (8, 11, 18) or str(lead).startswith("8") else "a"


@dataclass(frozen=True)
class Variant:
    slug: str
    seed: int
    values: Mapping[str, Any]
    facts: Mapping[str, Any]
    ruling: Mapping[str, Any]
    labels: Mapping[str, Mapping[str, str]]
    #: Draws of this seed the engine refused before this one (content check counts them).
    refused: int = 0

    def render(self, texts: Mapping[str, str], lang: str) -> str:
        """A text of the scenario in `lang`, its placeholders filled with this variant's values."""
        return render(texts.get(lang, ""), self.values, self.labels, lang)


def make_variant(slug: str, data: Mapping[str, Any], seed: int) -> Variant:
    """The variant `seed` of the scenario `slug` described by `data`, ruled by the engine."""
    if not 0 <= seed < EXAM_SEEDS.stop:
        raise VariantError(f"seed must be between 0 and {EXAM_SEEDS.stop - 1}")
    params: Mapping[str, Mapping[str, Any]] = data.get("params", {})
    rng = random.Random(f"{slug}:{seed}")
    last_error: Exception | None = None
    refused = 0
    for _draw_number in range(MAX_DRAWS if seed else 1):
        # Drawn in name order, not stored order: PostgreSQL's jsonb does not keep the order
        # of an object's keys, and a variant must not depend on the database it is read from.
        values = {name: _draw(name, params[name], rng, seed == 0) for name in sorted(params)}
        try:
            values.update(_derive(data.get("derived", {}), values))
            if not all(expressions.evaluate(c, values) for c in data.get("constraints", [])):
                last_error = VariantError("constraints not met")
                continue
            facts = _fill(data["facts"], values)
            ruling = rule_json(data["kind"], facts)
        except FactError as exc:
            if seed == 0:
                raise  # the rulebook's own numbers must always be legal facts
            last_error = exc
            refused += 1
            continue
        return Variant(slug, seed, values, facts, ruling, _labels(params, values), refused)
    raise VariantError(f"no valid variant for seed {seed}: {last_error}") from last_error


def variant_with(
    slug: str, data: Mapping[str, Any], values: Mapping[str, Any], *, constraints: bool = True
) -> Variant:
    """The variant whose parameters take `values` (nothing drawn): its derived values, facts
    and ruling. VariantError when that is not a situation, or (with `constraints`) when it
    breaks the scenario's constraints. Cheap: what-if and "why not" try many of these."""
    params: Mapping[str, Mapping[str, Any]] = data.get("params", {})
    chosen, facts = _facts_with(data, values, constraints)
    try:
        ruling = rule_json(data["kind"], facts)
    except (FactError, KeyError, TypeError) as exc:
        raise VariantError(str(exc)) from exc
    return Variant(slug, 0, chosen, facts, ruling, _labels(params, chosen))


def ruled_with(data: Mapping[str, Any], values: Mapping[str, Any], field: str) -> Any:
    """One field of the ruling of the variant whose parameters take `values` (within the
    scenario's constraints), as the engine's JSON: what `variant_with(...).ruling[field]` is,
    without the rest of the ruling and the variant. VariantError as `variant_with`. "Why not"
    tries many of these for one question."""
    _chosen, facts = _facts_with(data, values, True)
    try:
        return rule_field(data["kind"], facts, field)
    except (FactError, KeyError, TypeError) as exc:
        raise VariantError(str(exc)) from exc


def _facts_with(
    data: Mapping[str, Any], values: Mapping[str, Any], constraints: bool
) -> tuple[dict[str, Any], Any]:
    """The parameters' values with the derived ones, and the facts they fill in."""
    params: Mapping[str, Mapping[str, Any]] = data.get("params", {})
    try:
        chosen = {name: values[name] for name in sorted(params)}
        chosen.update(_derive(data.get("derived", {}), chosen))
        if constraints and not all(
            expressions.evaluate(c, chosen) for c in data.get("constraints", [])
        ):
            raise VariantError("constraints not met")
        return chosen, _fill(data["facts"], chosen)
    except (FactError, KeyError, TypeError) as exc:
        raise VariantError(str(exc)) from exc


def _labels(
    params: Mapping[str, Mapping[str, Any]], values: Mapping[str, Any]
) -> dict[str, dict[str, str]]:
    return {
        name: {lang: spec["labels"][str(values[name])][lang] for lang in ("it", "en")}
        for name, spec in params.items()
        if spec.get("type") == "choice" and "labels" in spec
    }


def _draw(name: str, spec: Mapping[str, Any], rng: random.Random, canonical: bool) -> Any:
    kind = spec.get("type")
    if kind == "int":
        if canonical:
            return spec["default"]
        step = spec.get("step", 1)
        return rng.randrange(spec["min"], spec["max"] + 1, step)
    if kind == "choice":
        return spec["default"] if canonical else rng.choice(list(spec["values"]))
    raise VariantError(f"parameter {name}: type must be int or choice")


def _derive(derived: Mapping[str, str], values: Mapping[str, Any]) -> dict[str, Any]:
    """Evaluate the derived values, each once the values it reads are known (whatever order
    they are stored in)."""
    out: dict[str, Any] = {}
    pending = dict(derived)
    while pending:
        ready = sorted(
            name
            for name, source in pending.items()
            if expressions.names(source) <= values.keys() | out.keys()
        )
        if not ready:
            raise VariantError(f"derived values read each other in a circle: {sorted(pending)}")
        for name in ready:
            out[name] = expressions.evaluate(pending.pop(name), {**values, **out})
    return out


def _fill(template: Any, values: Mapping[str, Any]) -> Any:
    if isinstance(template, str):
        match = _PLACEHOLDER.match(template)
        if match:
            return values[match.group(1)]
        return template
    if isinstance(template, list):
        return [_fill(item, values) for item in template]
    if isinstance(template, dict):
        return {key: _fill(item, values) for key, item in template.items()}
    return template


def fresh_seed() -> int:
    """A new random seed for a fresh variant (never 0, which is the rulebook's own numbers)."""
    return random.SystemRandom().randint(1, MAX_SEED)


def fresh_exam_seed() -> int:
    """A new random seed for an exam's variant, from the range practice refuses."""
    return random.SystemRandom().randint(EXAM_SEEDS.start, EXAM_SEEDS.stop - 1)
