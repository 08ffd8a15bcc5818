"""Reading and checking the content files in scenarios/content/.

`read_content()` parses and validates everything, returning plain data; any problem raises a
ContentError naming the file, the scenario (or section/term) and the field. The loader
(scenarios/loading.py) writes only what passed.
"""

import re
import tomllib
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from polotrainer.rules import KINDS, FactError, describe
from scenarios import expressions
from scenarios.questions import QUESTION_TYPES, build_questions, ruling_enum
from scenarios.variants import VariantError, make_variant

CONTENT_DIR = Path(__file__).resolve().parent / "content"
LANGS = ("it", "en")
SAMPLE_SEEDS = range(0, 40)
_SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_PLACEHOLDERS = re.compile(r"\{([^{}]*)\}")
SCENARIO_KEYS = {
    "slug",
    "section",
    "case",
    "kind",
    "cites",
    "title",
    "situation",
    "explanation",
    "facts",
    "params",
    "derived",
    "constraints",
    "question",
}
QUESTION_KEYS = {"id", "ask", "prompt", "options", "tolerance"}


class ContentError(ValueError):
    """A content file is malformed or incomplete; the message names file, entry and field."""

    def __init__(self, file: str, entry: str, field: str, message: str) -> None:
        super().__init__(f"{file}: {entry}: {field}: {message}")
        self.file, self.entry, self.field = file, entry, field


@dataclass
class Content:
    rules: list[dict[str, Any]] = field(default_factory=list)
    sections: dict[str, dict[str, Any]] = field(default_factory=dict)
    cases: dict[str, str] = field(default_factory=dict)  # case id -> section ref
    scenarios: list[dict[str, Any]] = field(default_factory=list)
    glossary: list[dict[str, Any]] = field(default_factory=list)
    variants_sampled: int = 0

    def counts(self) -> dict[str, int]:
        covered = {s["case"] for s in self.scenarios if s.get("case")}
        return {
            "rules": len(self.rules),
            "sections": len(self.sections),
            "scenarios": len(self.scenarios),
            "parametric scenarios": sum(1 for s in self.scenarios if s.get("params")),
            "worked-example cases covered": len(covered & set(self.cases)),
            "worked-example cases": len(self.cases),
            "glossary terms": len(self.glossary),
            "variants sampled": self.variants_sampled,
        }


def read_content(
    root: Path = CONTENT_DIR, *, sample: range = SAMPLE_SEEDS, complete: bool = True
) -> Content:
    """Parse and check all content under root; `complete` also requires every case covered."""
    content = Content()
    for path in sorted((root / "rules").glob("*.toml")):
        _read_rule(content, path, root)
    for path in sorted((root / "scenarios").glob("*.toml")):
        for index, entry in enumerate(_toml(path, root).get("scenario", [])):
            _check_scenario(content, entry, index, _name(path, root), sample)
            content.scenarios.append({**entry, "source_file": _name(path, root)})
    _check_duplicates(content)
    if complete:
        _check_coverage(content)
    glossary_path = root / "glossary.toml"
    if glossary_path.exists():
        content.glossary = _check_glossary(_toml(glossary_path, root), content, root)
    return content


def _name(path: Path, root: Path) -> str:
    """The file's name as an author finds it: from the project's root when inside it."""
    for base in (CONTENT_DIR.parents[1], root.parent):
        if base in path.parents:
            return str(path.relative_to(base))
    return str(path)


def _toml(path: Path, root: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except tomllib.TOMLDecodeError as exc:
        raise ContentError(_name(path, root), "file", "toml", str(exc)) from None


def _texts(file: str, entry: str, field: str, value: Any) -> dict[str, str]:
    if not isinstance(value, Mapping):
        raise ContentError(file, entry, field, "expected an Italian and an English text (it, en)")
    for lang in LANGS:
        text = value.get(lang)
        if not isinstance(text, str) or not text.strip():
            raise ContentError(file, entry, f"{field}.{lang}", "missing or empty text")
    return {lang: value[lang] for lang in LANGS}


def _read_rule(content: Content, path: Path, root: Path) -> None:
    file = _name(path, root)
    data = _toml(path, root)
    entry = f"rule {data.get('number', '?')}"
    for key in ("title", "summary", "notice"):
        _texts(file, entry, key, data.get(key))
    if not isinstance(data.get("number"), int):
        raise ContentError(file, entry, "number", "expected the rule's number")
    content.rules.append(data)
    for position, section in enumerate(data.get("section", [])):
        ref = section.get("ref", "")
        where = f"section {ref or position}"
        if not ref:
            raise ContentError(file, where, "ref", "missing section reference")
        if ref in content.sections:
            raise ContentError(file, where, "ref", "duplicated section reference")
        _texts(file, where, "title", section.get("title"))
        for i, paragraph in enumerate(section.get("paragraph", [])):
            _texts(file, where, f"paragraph[{i}]", paragraph)
        for case in section.get("case", []):
            _texts(file, where, f"case {case.get('id')}", case)
            content.cases[case["id"]] = ref
        content.sections[ref] = {**section, "rule": data["number"], "position": position}


def _check_scenario(
    content: Content, entry: Mapping[str, Any], index: int, file: str, sample: range
) -> None:
    slug = entry.get("slug")
    where = f"scenario {slug or f'#{index + 1}'}"
    if not isinstance(slug, str) or not _SLUG.match(slug):
        raise ContentError(file, where, "slug", "expected a lowercase-hyphenated slug")
    unknown = set(entry) - SCENARIO_KEYS
    if unknown:
        raise ContentError(file, where, sorted(unknown)[0], "unknown field")
    if entry.get("section") not in content.sections:
        raise ContentError(file, where, "section", f"no section {entry.get('section')!r}")
    if entry.get("case") and entry["case"] not in content.cases:
        raise ContentError(file, where, "case", f"no worked-example case {entry['case']!r}")
    for ref in entry.get("cites", []):
        if ref not in content.sections:
            raise ContentError(file, where, "cites", f"no section {ref!r}")
    kind = entry.get("kind")
    if kind not in KINDS:
        raise ContentError(file, where, "kind", f"expected one of {', '.join(KINDS)}")
    for key in ("title", "situation"):
        _texts(file, where, key, entry.get(key))
    if "explanation" in entry:
        _texts(file, where, "explanation", entry["explanation"])
    if not isinstance(entry.get("facts"), Mapping):
        raise ContentError(file, where, "facts", "expected a table of facts for the engine")
    _check_params(file, where, entry)
    questions = entry.get("question", [])
    if not questions:
        raise ContentError(file, where, "question", "expected at least one question")
    schema = describe(str(kind))["ruling"]
    seen: set[str] = set()
    for q in questions:
        qwhere = f"question {q.get('id')}"
        if set(q) - QUESTION_KEYS:
            extra = sorted(set(q) - QUESTION_KEYS)[0]
            raise ContentError(file, where, f"{qwhere}.{extra}", "unknown field")
        if not q.get("id") or q["id"] in seen:
            raise ContentError(file, where, qwhere, "expected a unique question id")
        seen.add(q["id"])
        if q.get("ask") not in schema or schema[q["ask"]]["type"] not in QUESTION_TYPES:
            askable = sorted(f for f, s in schema.items() if s["type"] in QUESTION_TYPES)
            raise ContentError(
                file, where, f"{qwhere}.ask", f"expected one of {', '.join(askable)}"
            )
        _texts(file, where, f"{qwhere}.prompt", q.get("prompt"))
        if "options" in q:
            choices = schema[q["ask"]].get("choices")
            if not choices or not set(q["options"]) <= set(choices):
                raise ContentError(file, where, f"{qwhere}.options", "not values of the field")
    _check_variants(content, file, where, entry, sample)


def _check_params(file: str, where: str, entry: Mapping[str, Any]) -> None:
    known = set()
    for name, spec in entry.get("params", {}).items():
        pwhere = f"params.{name}"
        # The what-if control names the parameter in the page's language.
        _texts(file, where, f"{pwhere}.label", spec.get("label"))
        if spec.get("type") == "int":
            lo, hi, default = spec.get("min"), spec.get("max"), spec.get("default")
            if not all(isinstance(v, int) for v in (lo, hi, default)) or not lo <= default <= hi:
                raise ContentError(file, where, pwhere, "expected integers min <= default <= max")
        elif spec.get("type") == "choice":
            values = spec.get("values")
            if not values or spec.get("default") not in values:
                raise ContentError(file, where, pwhere, "expected values and a default among them")
            for value in values:
                labels = spec.get("labels", {})
                _texts(file, where, f"{pwhere}.labels.{value}", labels.get(str(value)))
        else:
            raise ContentError(file, where, f"{pwhere}.type", "expected int or choice")
        known.add(name)
    derived = entry.get("derived", {})
    known |= set(derived)  # derived values may read each other, in any order (no circles)
    for name, source in derived.items():
        try:
            missing = expressions.names(source) - known
        except expressions.ExpressionError as exc:
            raise ContentError(file, where, f"derived.{name}", str(exc)) from None
        if missing:
            raise ContentError(file, where, f"derived.{name}", f"unknown name {sorted(missing)[0]}")
    for i, source in enumerate(entry.get("constraints", [])):
        try:
            missing = expressions.names(source) - known
        except expressions.ExpressionError as exc:
            raise ContentError(file, where, f"constraints[{i}]", str(exc)) from None
        if missing:
            name = sorted(missing)[0]
            raise ContentError(file, where, f"constraints[{i}]", f"unknown name {name}")
    for key in ("title", "situation", "explanation"):
        for lang in LANGS:
            for name in _PLACEHOLDERS.findall(entry.get(key, {}).get(lang, "")):
                if name not in known:
                    message = f"unknown placeholder {{{name}}}"
                    raise ContentError(file, where, f"{key}.{lang}", message)


def _check_variants(
    content: Content, file: str, where: str, entry: Mapping[str, Any], sample: range
) -> None:
    seeds = sample if entry.get("params") else range(1)
    for seed in seeds:
        try:
            variant = make_variant(entry["slug"], entry, seed)
        except FactError as exc:
            raise ContentError(file, where, f"facts.{exc.field}", f"seed {seed}: {exc}") from None
        except (VariantError, expressions.ExpressionError, KeyError) as exc:
            raise ContentError(file, where, "params", f"seed {seed}: {exc}") from None
        for question in build_questions(entry["kind"], entry, variant.facts):
            right = question.right_answer(variant.ruling)
            if question.type in {"choice", "multi"}:
                offered = {o.value for o in question.options}
                wanted = set(right) if question.type == "multi" else {right}
                if not wanted <= offered:
                    raise ContentError(
                        file,
                        where,
                        f"question {question.id}.options",
                        f"seed {seed}: the engine's answer {sorted(wanted)} is not offered",
                    )
                ruling_enum(entry["kind"], question.ask)
        for ref in (r["ref"] for r in variant.ruling.get("reasons", [])):
            if ref not in content.sections:
                raise ContentError(file, where, "reasons", f"engine cites unknown section {ref}")
        content.variants_sampled += 1


def _check_duplicates(content: Content) -> None:
    counts = Counter(s["slug"] for s in content.scenarios)
    for scenario in content.scenarios:
        if counts[scenario["slug"]] > 1:
            raise ContentError(
                scenario["source_file"], f"scenario {scenario['slug']}", "slug", "duplicated slug"
            )


def _check_coverage(content: Content) -> None:
    if not content.scenarios:
        return
    covered = {s["case"] for s in content.scenarios if s.get("case")}
    missing = sorted(set(content.cases) - covered)
    if missing:
        raise ContentError(
            "scenarios/content/scenarios",
            "worked examples",
            "case",
            f"not covered: {', '.join(missing)}",
        )


def _check_glossary(data: Mapping[str, Any], content: Content, root: Path) -> list[dict[str, Any]]:
    file = _name(root / "glossary.toml", root)
    terms = data.get("term", [])
    slugs = Counter(t.get("slug") for t in terms)
    for term in terms:
        where = f"term {term.get('slug')}"
        if slugs[term.get("slug")] > 1:
            raise ContentError(file, where, "slug", "duplicated slug")
        for lang in LANGS:
            if not term.get(lang):
                raise ContentError(file, where, lang, "missing term")
        _texts(file, where, "definition", term.get("definition"))
        for ref in term.get("sections", []):
            if ref not in content.sections:
                raise ContentError(file, where, "sections", f"no section {ref!r}")
    return list(terms)
