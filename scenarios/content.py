"""Reading and checking the content files in scenarios/content/.

`read_content()` parses and validates everything, returning plain data. A malformed file raises
a ContentError naming the file, the scenario (or section/term) and the field. Then every
scenario is checked for fairness on a sample of seeds (the checks are named in CHECKS); what
fails is kept in `Content.problems`, each naming file, scenario, seed and field, and counted per
check. `content check` prints them; `content load` writes nothing while there is one.
"""

import math
import re
import tomllib
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from polotrainer.rules import KINDS, FactError, describe
from scenarios import diagram, expressions
from scenarios.questions import QUESTION_TYPES, Question, build_questions, ruling_enum
from scenarios.variants import (
    TemplateError,
    Variant,
    VariantError,
    english_article,
    make_variant,
    placeholders,
)
from scenarios.vocabulary import vocabulary

CONTENT_DIR = Path(__file__).resolve().parent / "content"
LANGS = ("it", "en")
SAMPLE_SEEDS = range(0, 40)
_SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
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

#: The fairness checks, in the order `content check` prints them.
CHECKS = {
    "facts": "the facts are a valid situation for the engine",
    "options": "a choice question offers the right answer once, and only it",
    "placeholders": "no text keeps a placeholder",
    "languages": "Italian and English carry the same numbers",
    "grammar": "numbers agree with their nouns and articles",
    "diagram": "the diagram marks no answer",
}
#: Texts that are the same for every variant (a title is also listed without one).
FIXED_TEXTS = ("title", "explanation")
#: The ruling's values that say the Rule is silent: never a fair right answer.
SILENT = "not_stated"
_NUMBER = re.compile(r"\d+(?:[.,]\d+)?")
#: A number and the word after it; not a player's number (#1), a range's end (4-8) or a decimal.
_COUNTED = re.compile(r"(?<![#\w.,\-])(-?\d+(?:\.\d+)?)\s+(\w+)")
_ARTICLE = re.compile(r"\b([Aa]n?)\s+(-?\d+)\b")
#: Nouns whose form follows the number: singular for 1 and -1, plural for any other number.
NOUNS = {
    "en": {
        "goal": "goals",
        "minute": "minutes",
        "yard": "yards",
        "second": "seconds",
        "hour": "hours",
        "period": "periods",
        "player": "players",
    },
    "it": {
        "minuto": "minuti",
        "yarda": "yarde",
        "secondo": "secondi",
        "ora": "ore",
        "periodo": "periodi",
        "giocatore": "giocatori",
        "risposta": "risposte",
    },
}


class ContentError(ValueError):
    """A content file is malformed or incomplete; the message names file, entry and field."""

    def __init__(self, file: str, entry: str, field: str, message: str) -> None:
        super().__init__(f"{file}: {entry}: {field}: {message}")
        self.file, self.entry, self.field = file, entry, field


@dataclass(frozen=True)
class Problem:
    """A scenario that fails a fairness check: where (file, scenario, seed, field) and why."""

    check: str
    file: str
    scenario: str
    seed: int | None  # None: every seed (a text that is the same for all)
    field: str
    message: str

    def __str__(self) -> str:
        seed = "every seed" if self.seed is None else f"seed {self.seed}"
        return f"{self.file}: scenario {self.scenario}: {seed}: {self.field}: {self.message}"


@dataclass
class Content:
    rules: list[dict[str, Any]] = field(default_factory=list)
    sections: dict[str, dict[str, Any]] = field(default_factory=dict)
    cases: dict[str, str] = field(default_factory=dict)  # case id -> section ref
    scenarios: list[dict[str, Any]] = field(default_factory=list)
    glossary: list[dict[str, Any]] = field(default_factory=list)
    variants_sampled: int = 0
    draws_refused: int = 0
    checked: Counter[str] = field(default_factory=Counter)
    problems: list[Problem] = field(default_factory=list)

    def check_counts(self) -> dict[str, tuple[int, int]]:
        """Per check: how many things it looked at, and how many failed."""
        failed = Counter(p.check for p in self.problems)
        return {name: (self.checked[name], failed[name]) for name in CHECKS}

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
            "draws refused by the engine": self.draws_refused,
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
    _check_fairness(content, file, entry, sample)


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
    for lang in LANGS:
        try:
            found = placeholders(entry["situation"][lang])
        except TemplateError as exc:
            raise ContentError(file, where, f"situation.{lang}", str(exc)) from None
        for p in found:
            if p.name not in known:
                message = f"unknown placeholder {{{p.name}}}"
                raise ContentError(file, where, f"situation.{lang}", message)


def _check_fairness(content: Content, file: str, entry: Mapping[str, Any], sample: range) -> None:
    """Every fairness check (CHECKS) on the scenario's fixed texts and each sampled variant."""
    slug = entry["slug"]

    def problem(check: str, seed: int | None, field: str, message: str) -> None:
        content.problems.append(Problem(check, file, slug, seed, field, message))

    for key in FIXED_TEXTS:
        if key in entry:
            _check_texts(content, problem, None, key, dict(entry[key]))
    seeds = sample if entry.get("params") else range(1)
    questions_checked = False
    for seed in seeds:
        content.checked["facts"] += 1
        try:
            variant = make_variant(slug, entry, seed)
        except FactError as exc:
            problem("facts", seed, f"facts.{exc.field}", str(exc))
            continue
        except (VariantError, expressions.ExpressionError, KeyError) as exc:
            # Every draw refused: name the fact the engine refused last, if it was the engine.
            cause = exc.__cause__
            where = f"facts.{cause.field}" if isinstance(cause, FactError) else "params"
            problem("facts", seed, where, str(exc))
            continue
        for ref in (r["ref"] for r in variant.ruling.get("reasons", [])):
            if ref not in content.sections:
                raise ContentError(
                    file, f"scenario {slug}", "reasons", f"engine cites unknown section {ref}"
                )
        content.variants_sampled += 1
        content.draws_refused += variant.refused
        questions = build_questions(entry["kind"], entry, variant.facts)
        if not questions_checked:
            # Prompts and option labels are the same for every variant.
            questions_checked = True
            for q in questions:
                _check_texts(content, problem, None, f"question {q.id}.prompt", dict(q.prompt))
                for o in q.options:
                    name = f"question {q.id}.options.{o.value}"
                    _check_texts(content, problem, None, name, dict(o.label))
        rendered: dict[str, str] = {}
        for lang in LANGS:
            content.checked["placeholders"] += 1
            try:
                rendered[lang] = variant.render(entry["situation"], lang)
            except TemplateError as exc:
                problem("placeholders", seed, f"situation.{lang}", str(exc))
        if len(rendered) == len(LANGS):
            _check_texts(content, problem, seed, "situation", rendered)
        for q in questions:
            _check_options(content, problem, seed, entry["kind"], q, variant)
        if diagram.wants_diagram(entry["kind"], [q.type for q in questions]):
            _check_diagram(content, problem, seed, questions, variant)


def _check_texts(
    content: Content, problem: Any, seed: int | None, name: str, texts: Mapping[str, str]
) -> None:
    """A text in both languages, as shown: no placeholder left, the same numbers, grammar."""
    fixed = seed is None
    for lang in LANGS:
        text = texts[lang]
        if fixed:
            content.checked["placeholders"] += 1
            if "{" in text or "}" in text:
                problem(
                    "placeholders",
                    seed,
                    f"{name}.{lang}",
                    f"keeps a placeholder, but it is the same for every variant: {_excerpt(text)}",
                )
        elif "{" in text or "}" in text:
            problem("placeholders", seed, f"{name}.{lang}", f"keeps a brace: {_excerpt(text)}")
        content.checked["grammar"] += 1
        for message in _grammar(text, lang):
            problem("grammar", seed, f"{name}.{lang}", message)
    content.checked["languages"] += 1
    numbers = {lang: Counter(_NUMBER.findall(texts[lang])) for lang in LANGS}
    if numbers["it"] != numbers["en"]:
        only_it = sorted((numbers["it"] - numbers["en"]).elements())
        only_en = sorted((numbers["en"] - numbers["it"]).elements())
        problem(
            "languages",
            seed,
            name,
            f"numbers only in Italian {only_it}, only in English {only_en}",
        )


def _grammar(text: str, lang: str) -> Iterator[str]:
    """What disagrees in a text: '1 goals', '3 minute', '1 minuti', 'a 8-goal'."""
    nouns = NOUNS[lang]
    plurals = {plural: one for one, plural in nouns.items()}
    for match in _COUNTED.finditer(text):
        number, word = float(match.group(1)), match.group(2)
        one = abs(number) == 1
        if one and word in plurals:
            yield f'"{match.group(0)}": {plurals[word]!r} after {match.group(1)}'
        elif not one and word in nouns:
            yield f'"{match.group(0)}": {nouns[word]!r} after {match.group(1)}'
    if lang == "en":
        for match in _ARTICLE.finditer(text):
            wanted = english_article(int(match.group(2)))
            if match.group(1).lower() != wanted:
                yield f'"{match.group(0)}": {wanted!r} before {match.group(2)}'


def _excerpt(text: str) -> str:
    brace = min(i for i in (text.find("{"), text.find("}")) if i >= 0)
    return repr(text[max(0, brace - 20) : brace + 30])


def _check_options(
    content: Content, problem: Any, seed: int, kind: str, q: Question, variant: Variant
) -> None:
    """A choice question offers the engine's answer, not a 'the Rule does not say', and no
    other option that is right whenever the answer is (vocabulary.toml's [overlap])."""
    if q.type not in {"choice", "multi"}:
        return
    content.checked["options"] += 1
    right = q.right_answer(variant.ruling)
    wanted = set(right) if q.type == "multi" else {right}
    offered = {o.value for o in q.options}
    field = f"question {q.id}.options"
    if not wanted <= offered:
        missing = sorted(wanted - offered)
        problem("options", seed, field, f"the engine's answer {missing} is not offered")
    if SILENT in wanted:
        problem(
            "options",
            seed,
            field,
            f"the right option is {SILENT!r} (the Rule is silent): ask what the rule does say",
        )
    enum = ruling_enum(kind, q.ask)
    for a, b in vocabulary().get("overlap", {}).get(enum, []):
        for answer, other in ((a, b), (b, a)):
            if answer in wanted and other in offered and other not in wanted:
                problem(
                    "options",
                    seed,
                    field,
                    f"{other!r} is right too when {answer!r} is: offer one of them",
                )


def _check_diagram(
    content: Content, problem: Any, seed: int, questions: list[Question], variant: Variant
) -> None:
    """No mark of the diagram lies within a place question's tolerance of its right spot."""
    content.checked["diagram"] += 1
    drawn = diagram.diagram_for(variant.facts)
    for q in questions:
        if q.type != "place":
            continue
        right = q.right_answer(variant.ruling)
        for name, mark in drawn.marks:
            distance = math.dist((mark.x, mark.y), (right["x"], right["y"]))
            if distance <= q.tolerance:
                problem(
                    "diagram",
                    seed,
                    f"diagram.{name}",
                    f"drawn {distance:.1f} yards from the right spot of question {q.id} "
                    f"(tolerance {q.tolerance:g}): it gives the answer away",
                )


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
