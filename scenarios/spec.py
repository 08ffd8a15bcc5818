"""A scenario's content as typed values: `Scenario.data` parsed once, then read by attribute.

`content check` has already validated the data when it was loaded; parsing here only gives it
types, so the quiz core and the screens never `.get()` their way through raw dictionaries. Specs
are cached by the scenario's content version, so a changed file is never read from the cache.
"""

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from scenarios.localize import pick

if TYPE_CHECKING:  # the model module needs the app registry
    from scenarios.models import Scenario


@dataclass(frozen=True)
class Texts:
    """One text in Italian and English."""

    it: str = ""
    en: str = ""

    @classmethod
    def of(cls, value: Any) -> "Texts":
        if isinstance(value, Mapping):
            return cls(str(value.get("it", "")), str(value.get("en", "")))
        return cls()

    def __bool__(self) -> bool:
        return bool(self.it or self.en)

    def pick(self, lang: str) -> str:
        """The text in `lang`, with the explicit fallback of scenarios.localize."""
        return pick(self.as_dict(), lang)

    def as_dict(self) -> dict[str, str]:
        return {"it": self.it, "en": self.en}


@dataclass(frozen=True)
class Param:
    """A parameter that makes variants: an integer range or a set of choices."""

    name: str
    type: Literal["int", "choice"]
    label: Texts
    default: Any
    min: int = 0
    max: int = 0
    step: int = 1
    values: tuple[Any, ...] = ()
    labels: Mapping[str, Texts] = field(default_factory=dict)

    def label_of(self, value: Any, lang: str) -> str:
        """How a choice's value reads in `lang` (the value itself when it has no label)."""
        texts = self.labels.get(str(value))
        return texts.pick(lang) if texts else str(value)


@dataclass(frozen=True)
class QuestionSpec:
    """A question as authored: the ruling field it asks and its prompt."""

    id: str
    ask: str
    prompt: Texts
    options: tuple[str, ...] | None = None
    tolerance: float | None = None


@dataclass(frozen=True)
class ScenarioSpec:
    """A scenario's content, typed. `data` keeps the raw mapping for making variants."""

    slug: str
    kind: str
    section: str
    title: Texts
    situation: Texts
    explanation: Texts
    cites: tuple[str, ...]
    params: Mapping[str, Param]
    questions: tuple[QuestionSpec, ...]
    data: Mapping[str, Any] = field(repr=False, compare=False)


def parse(slug: str, kind: str, section: str, data: Mapping[str, Any]) -> ScenarioSpec:
    """The typed spec of a scenario's data (already checked by `content check`)."""
    return ScenarioSpec(
        slug=slug,
        kind=kind,
        section=section,
        title=Texts.of(data.get("title")),
        situation=Texts.of(data.get("situation")),
        explanation=Texts.of(data.get("explanation")),
        cites=tuple(data.get("cites") or [section]),
        params={name: _param(name, raw) for name, raw in sorted(data.get("params", {}).items())},
        questions=tuple(
            QuestionSpec(
                id=str(q["id"]),
                ask=str(q["ask"]),
                prompt=Texts.of(q.get("prompt")),
                options=tuple(q["options"]) if q.get("options") else None,
                tolerance=float(q["tolerance"]) if q.get("tolerance") is not None else None,
            )
            for q in data.get("question", [])
        ),
        data=data,
    )


def _param(name: str, raw: Mapping[str, Any]) -> Param:
    if raw.get("type") == "int":
        return Param(
            name=name,
            type="int",
            label=Texts.of(raw.get("label")),
            default=raw.get("default"),
            min=int(raw["min"]),
            max=int(raw["max"]),
            step=int(raw.get("step", 1)),
        )
    return Param(
        name=name,
        type="choice",
        label=Texts.of(raw.get("label")),
        default=raw.get("default"),
        values=tuple(raw.get("values", ())),
        labels={str(k): Texts.of(v) for k, v in raw.get("labels", {}).items()},
    )


def spec_of(scenario: "Scenario") -> ScenarioSpec:
    """The spec of a Scenario row, parsed once per content version (per process)."""
    section = scenario.data.get("section") or ""
    if not scenario.version:
        return parse(scenario.slug, scenario.kind, section, scenario.data)
    return _cached_spec(scenario.slug, scenario.kind, section, scenario.version, scenario.data)


_SPECS: dict[tuple[str, str], ScenarioSpec] = {}
_SPECS_MAX = 2048


def _cached_spec(
    slug: str, kind: str, section: str, version: str, data: Mapping[str, Any]
) -> ScenarioSpec:
    key = (slug, version)
    spec = _SPECS.get(key)
    if spec is None:
        if len(_SPECS) >= _SPECS_MAX:
            _SPECS.clear()
        spec = _SPECS[key] = parse(slug, kind, section, data)
    return spec
