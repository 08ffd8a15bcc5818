"""Variants: a scenario's parameters drawn from a seed, its texts and facts rendered from them.

Seed 0 is the rulebook's own numbers (every parameter's default). Any other seed draws from
``random.Random("<slug>:<seed>")`` and re-draws, deterministically, until the constraints hold
and the engine accepts the facts: the same slug and seed give the same variant forever.
"""

import random
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from polotrainer.rules import FactError, rule_json
from scenarios import expressions

MAX_SEED = 2**31 - 1
MAX_DRAWS = 200
_PLACEHOLDER = re.compile(r"^\{([a-z_][a-z0-9_]*)\}$")


class VariantError(ValueError):
    """No variant can be made: a parameter is ill-formed or no draw satisfies the facts."""


@dataclass(frozen=True)
class Variant:
    slug: str
    seed: int
    values: Mapping[str, Any]
    facts: Mapping[str, Any]
    ruling: Mapping[str, Any]
    labels: Mapping[str, Mapping[str, str]]

    def render(self, texts: Mapping[str, str], lang: str) -> str:
        """A text of the scenario in `lang`, its placeholders filled with this variant's values."""
        shown = {
            name: self.labels.get(name, {}).get(lang, value) for name, value in self.values.items()
        }
        return texts.get(lang, "").format_map(shown)


def make_variant(slug: str, data: Mapping[str, Any], seed: int) -> Variant:
    """The variant `seed` of the scenario `slug` described by `data`, ruled by the engine."""
    if not 0 <= seed <= MAX_SEED:
        raise VariantError(f"seed must be between 0 and {MAX_SEED}")
    params: Mapping[str, Mapping[str, Any]] = data.get("params", {})
    rng = random.Random(f"{slug}:{seed}")
    last_error: Exception | None = None
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
            continue
        labels = {
            name: {lang: spec["labels"][str(values[name])][lang] for lang in ("it", "en")}
            for name, spec in params.items()
            if spec.get("type") == "choice" and "labels" in spec
        }
        return Variant(slug, seed, values, facts, ruling, labels)
    raise VariantError(f"no valid variant for seed {seed}: {last_error}")


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
