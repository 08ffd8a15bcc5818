"""Reading and checking the content files in scenarios/content/.

`read_content()` parses and validates everything, returning plain data. A malformed file raises
a ContentError naming the file, the scenario (or section/term) and the field. Then every
scenario is checked for fairness on a sample of seeds (the checks are named in CHECKS); what
fails is kept in `Content.problems`, each naming file, scenario, seed and field, and counted per
check. `content check` prints them; `content load` writes nothing while there is one.
"""

import json
import math
import re
import tomllib
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from polotrainer.rules import KINDS, FactError, describe, rule_json
from scenarios import diagram, expressions, leaks, scenes
from scenarios.questions import (
    QUESTION_TYPES,
    Question,
    build_questions,
    point,
    ruling_enum,
    strings,
)
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
QUESTION_KEYS = {"id", "ask", "prompt", "options", "tolerance", "constant"}

#: The fairness checks, in the order `content check` prints them.
CHECKS = {
    "facts": "the facts are a valid situation for the engine",
    "options": "a choice question offers the right answer once, and only it",
    "placeholders": "no text keeps a placeholder",
    "languages": "Italian and English carry the same numbers",
    "grammar": "numbers agree with their nouns and articles",
    "terms": "words are spelled one way (vocabulary.toml [spelling])",
    "diagram": "the diagram marks no answer",
    "order": "an order question has two or more steps, each once and each read differently",
    "hidden": "every fact an answer depends on is stated in the facts",
    "leak": "no mark, wording or option's place predicts an answer (seeds 0-59)",
    "scene": "a drill's scene follows the facts and shows no answer before its stop",
}
#: What `content check` reports without failing: worth a look, not always wrong.
WARNINGS = {
    "constant": "an answer is the same on every seed though the facts vary",
    "unlisted": "a scenario asks no decision decisions.toml lists",
}
#: A sample smaller than this says little about an answer that never varies: no warning.
CONSTANT_MIN_SEEDS = 20
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
    decisions: list[dict[str, Any]] = field(default_factory=list)
    variants_sampled: int = 0
    draws_refused: int = 0
    checked: Counter[str] = field(default_factory=Counter)
    problems: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)

    def check_counts(self) -> dict[str, tuple[int, int]]:
        """Per check: how many things it looked at, and how many failed."""
        failed = Counter(p.check for p in self.problems)
        return {name: (self.checked[name], failed[name]) for name in CHECKS}

    def warning_counts(self) -> dict[str, tuple[int, int]]:
        """Per warning: how many things it looked at, and how many it reports."""
        found = Counter(p.check for p in self.warnings)
        return {name: (self.checked[name], found[name]) for name in WARNINGS}

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
            "decisions of the rule text": len(self.decisions),
            "decisions a scenario asks": sum(1 for d in self.decisions if d["scenarios"]),
            "variants sampled": self.variants_sampled,
            "draws refused by the engine": self.draws_refused,
        }


def read_content(
    root: Path = CONTENT_DIR, *, sample: range = SAMPLE_SEEDS, complete: bool = True
) -> Content:
    """Parse and check all content under root; `complete` also requires every worked-example
    case and every section covered by a scenario."""
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
        content.decisions = _check_decisions(content, root)
    glossary_path = root / "glossary.toml"
    if glossary_path.exists():
        content.glossary = _check_glossary(_toml(glossary_path, root), content, root)
    return content


def check_entry(
    entry: Mapping[str, Any],
    sections: Mapping[str, Any],
    cases: Mapping[str, str],
    *,
    file: str = "",
    sample: range = SAMPLE_SEEDS,
) -> Content:
    """One scenario's entry through everything `content check` runs on a file's (the browser's
    editor, polotrainer.authoring): a ContentError for what is malformed, every fairness
    problem and warning in the Content returned. `sections` are the rulebook's refs (values
    unused), `cases` the worked-example case ids with their section."""
    content = Content(sections={ref: {} for ref in sections}, cases=dict(cases))
    _check_scenario(content, entry, 0, file, sample)
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
        if "constant" in q and q["constant"] is not True:
            raise ContentError(file, where, f"{qwhere}.constant", "expected true, or no key")
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
    unstated = _unstated_facts(entry)
    facts_seen: set[str] = set()
    answers_seen: dict[str, set[str]] = {}
    made: dict[int, Variant] = {}
    for seed in seeds:
        content.checked["facts"] += 1
        try:
            variant = made[seed] = make_variant(slug, entry, seed)
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
        questions = build_questions(entry["kind"], entry, variant.facts, variant.ruling)
        facts_seen.add(_canonical(variant.facts))
        for q in questions:
            answers_seen.setdefault(q.id, set()).add(_canonical(q.right_answer(variant.ruling)))
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
            _check_order(content, problem, seed, q, variant)
        if diagram.wants_diagram(entry["kind"], [q.type for q in questions]):
            _check_diagram(content, problem, seed, questions, variant)
        _check_hidden(content, problem, seed, entry["kind"], unstated, questions, variant)
        _check_scene(content, problem, seed, entry, variant)
    if len(seeds) >= CONSTANT_MIN_SEEDS:
        _check_constant(content, file, entry, facts_seen, answers_seen)
    if entry.get("params"):
        # A quick look (fewer seeds than the default sample) looks for leaks on those seeds only.
        leak_seeds = leaks.LEAK_SEEDS if len(sample) >= len(SAMPLE_SEEDS) else sample
        _check_leaks(content, problem, entry, made, leak_seeds)


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
        content.checked["terms"] += 1
        for message in misspellings(text, lang):
            problem("terms", seed, f"{name}.{lang}", message)
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


def misspellings(text: str, lang: str) -> Iterator[str]:
    """Each word of vocabulary.toml's [spelling] the text spells the other way: '"time-out":
    write "time out"'. A capitalised form where a sentence begins is its own capital."""
    for wrong, right in vocabulary().get("spelling", {}).get(lang, {}).items():
        for match in re.finditer(rf"(?<![\w-]){re.escape(wrong)}(?![\w-])", text):
            before = text[: match.start()].rstrip(" «\"'“(")
            if wrong[0].isupper() and (not before or before[-1] in ".!?:"):
                continue
            yield f'"{wrong}": write "{right}"'


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
    wanted = set(strings(right)) if q.type == "multi" else {str(right)}
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


def _check_order(content: Content, problem: Any, seed: int, q: Question, variant: Variant) -> None:
    """An order question has steps to order: two or more, none twice, none read like another
    (the trainee could not tell which place is whose)."""
    if q.type != "order":
        return
    content.checked["order"] += 1
    field = f"question {q.id}.steps"
    steps = strings(q.right_answer(variant.ruling))
    if len(steps) < 2:
        problem("order", seed, field, f"the engine gives {len(steps)} step(s): nothing to order")
        return
    for step, times in Counter(steps).items():
        if times > 1:
            problem("order", seed, field, f"step {step!r} comes {times} times")
    for lang in LANGS:
        labels = Counter(o.label[lang] for o in q.options)
        for label, times in labels.items():
            if times > 1:
                problem("order", seed, f"{field}.{lang}", f"{times} steps read {label!r}")


def _unstated_facts(entry: Mapping[str, Any]) -> list[tuple[str, list[Any]]]:
    """The optional yes/no and choice facts the scenario leaves to the engine's default, each
    with the other values it could take."""
    out = []
    for name, spec in describe(str(entry["kind"]))["facts"].items():
        if spec["required"] or name in entry["facts"]:
            continue
        if spec["type"] == "bool":
            out.append((name, [not spec["default"]]))
        elif spec["type"] == "enum":
            out.append((name, [c for c in spec["choices"] if c != spec["default"]]))
    return out


def _check_hidden(
    content: Content,
    problem: Any,
    seed: int,
    kind: str,
    unstated: list[tuple[str, list[Any]]],
    questions: list[Question],
    variant: Variant,
) -> None:
    """No answer depends on a fact the scenario leaves to the engine's default: a fact the
    facts do not state is a fact the situation need not say, and the trainee cannot know."""
    content.checked["hidden"] += 1
    for name, others in unstated:
        for other in others:
            try:
                ruling = rule_json(kind, {**variant.facts, name: other})
            except FactError:
                continue  # not a situation: the default is the only value these facts allow
            changed = [
                q.id for q in questions if q.right_answer(ruling) != q.right_answer(variant.ruling)
            ]
            if changed:
                default = variant.facts.get(name, describe(kind)["facts"][name]["default"])
                problem(
                    "hidden",
                    seed,
                    f"facts.{name}",
                    f"the answer to question {', '.join(changed)} changes with {name} "
                    f"({json.dumps(default)} unless stated, but {json.dumps(other)} changes it): "
                    "state it in the facts and in the situation",
                )
                break


def _check_constant(
    content: Content,
    file: str,
    entry: Mapping[str, Any],
    facts_seen: set[str],
    answers_seen: Mapping[str, set[str]],
) -> None:
    """Warn when a question's answer is the same on every sampled seed though the facts vary:
    the variants only dress the same answer, which a trainee learns by heart. A question that
    is so on purpose (a worked example's ruling, with other numbers) says `constant = true`.
    An order question is not warned about: its steps are shuffled anew for every variant, and
    the order to learn by heart is the lesson."""
    if len(facts_seen) < 2:
        return
    schema = describe(str(entry["kind"]))["ruling"]
    for q in entry.get("question", []):
        if schema[q["ask"]]["type"] == "sequence":
            continue
        content.checked["constant"] += 1
        answers = answers_seen.get(q["id"], set())
        if len(answers) == 1 and not q.get("constant"):
            content.warnings.append(
                Problem(
                    "constant",
                    file,
                    entry["slug"],
                    None,
                    f"question {q['id']}",
                    f"the answer is {next(iter(answers))} on every seed though the facts vary: "
                    "vary what decides it, or say `constant = true` if that is the point",
                )
            )


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def _check_diagram(
    content: Content, problem: Any, seed: int, questions: list[Question], variant: Variant
) -> None:
    """No mark of the diagram lies within a place question's tolerance of its right spot."""
    content.checked["diagram"] += 1
    drawn = diagram.diagram_for(variant.facts)
    for q in questions:
        if q.type != "place":
            continue
        right = point(q.right_answer(variant.ruling))
        if right is None:
            continue
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


def scene_of(entry: Mapping[str, Any], variant: Variant) -> scenes.Scene | None:
    """The drill scene of a variant, if a scene family plays it."""
    situation_en = variant.render(entry["situation"], "en")
    if scenes.family_of(entry["kind"], variant.facts, situation_en) is None:
        return None
    return scenes.scene_for(
        entry["slug"],
        variant.seed,
        variant.facts,
        variant.values,
        variant.ruling,
        kind=entry["kind"],
        situation_en=situation_en,
    )


def _check_scene(
    content: Content, problem: Any, seed: int, entry: Mapping[str, Any], variant: Variant
) -> None:
    """The scene plays the facts (the crossing, the foul's spot, real speeds) and, before its
    stop, stands nothing on a point the engine rules or would rule (scenes.flaws)."""
    scene = scene_of(entry, variant)
    if scene is None:
        return
    content.checked["scene"] += 1
    for flaw in scenes.flaws(scene, diagram.hidden_points(variant.facts)):
        problem("scene", seed, f"scene.{flaw.code}", flaw.message)


def _check_leaks(
    content: Content,
    problem: Any,
    entry: Mapping[str, Any],
    made: dict[int, Variant],
    seeds: range,
) -> None:
    """No feature a trainee sees without the rule predicts an answer (scenarios/leaks.py), on
    seeds 0 to 59 (the variants the other checks made are reused)."""
    content.checked["leak"] += 1
    wording = _wording_params(entry)
    seen = []
    for seed in seeds:
        variant = made.get(seed)
        if variant is None:
            try:
                variant = make_variant(entry["slug"], entry, seed)
            except (FactError, VariantError, expressions.ExpressionError, KeyError):
                continue  # the facts check names it
        seen.append(_seen(entry, variant, wording))
    for leak in leaks.find_leaks(seen):
        problem(
            "leak",
            None,
            f"question {leak.question}",
            f"{leak}: a trainee reads it off without the rule; draw, word or order it the "
            "same way whatever the answer",
        )


def _seen(entry: Mapping[str, Any], variant: Variant, wording: list[str]) -> leaks.Seen:
    """One variant as the leak check looks at it (scenarios/leaks.py)."""
    kind = entry["kind"]
    questions = build_questions(kind, entry, variant.facts, variant.ruling)
    features = {f"wording {name}": str(variant.values[name]) for name in wording}
    if diagram.wants_diagram(kind, [q.type for q in questions]):
        drawn = dict(diagram.diagram_for(variant.facts).marks)
        for name in _MARKS | set(drawn):
            mark = drawn.get(name)
            features[f"drawn {name}"] = "yes" if mark else "no"
            if name not in _MARKS:  # a player's mark carries a label; the others none
                features[f"label {name}"] = _canonical(dict(mark.label)) if mark else ""
    scene = scene_of(entry, variant)
    if scene is not None:
        # What the drill plays before its stop is seen too: the events, the riders, the stop.
        features.update(scenes.features(scene))
    shown = {}
    for q in questions:
        if q.type in {"choice", "multi", "bool", "players"}:
            right = q.right_answer(variant.ruling)
            wanted = {_option_value(v) for v in (right if isinstance(right, list) else [right])}
            values = tuple(o.value for o in q.options)
            shown[q.id] = (values, tuple(i for i, v in enumerate(values) if v in wanted))
    return leaks.Seen(
        seed=variant.seed,
        facts={k: v for k, v in variant.facts.items() if isinstance(v, str | bool)},
        features=features,
        answers={q.id: _canonical(q.right_answer(variant.ruling)) for q in questions},
        shown=shown,
    )


#: The marks a diagram may draw besides the players: their absence is a feature too.
_MARKS = frozenset({"ball", "foul", "crossing"})


def _option_value(value: Any) -> str:
    """A right answer as an option's value: a yes/no answer is the option "true" or "false"."""
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def _wording_params(entry: Mapping[str, Any]) -> list[str]:
    """The choice parameters that change only the words: no fact reads them, not even through
    a derived value."""
    derived: Mapping[str, str] = entry.get("derived", {})
    reached: set[str] = set()
    pending = _template_names(entry["facts"])
    while pending:
        name = pending.pop()
        if name in reached:
            continue
        reached.add(name)
        if name in derived:
            pending |= expressions.names(derived[name])
    params = entry.get("params", {})
    return sorted(n for n, p in params.items() if p.get("type") == "choice" and n not in reached)


def _template_names(template: Any) -> set[str]:
    """The names a facts template fills in ("{name}" strings), at any depth."""
    if isinstance(template, str):
        found = placeholders(template) if template.startswith("{") else []
        return {p.name for p in found}
    if isinstance(template, list):
        return set().union(*(_template_names(t) for t in template))
    if isinstance(template, Mapping):
        return set().union(*(_template_names(t) for t in template.values()))
    return set()


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
    # Every section of the reader has a "Practise" link: it must lead to something.
    practised = {s["section"] for s in content.scenarios}
    empty = [ref for ref in content.sections if ref not in practised]
    if empty:
        raise ContentError(
            "scenarios/content/scenarios",
            "sections",
            "section",
            f"nothing to practise in: {', '.join(empty)}",
        )


def _check_decisions(content: Content, root: Path) -> list[dict[str, Any]]:
    """decisions.toml lists every decision the rule text makes and the scenarios that ask it:
    each names a section and scenarios that cite it (a ContentError otherwise); a scenario that
    asks none of them is a warning."""
    path = root / "decisions.toml"
    file = _name(path, root)
    if not path.exists():
        raise ContentError(file, "file", "decision", "missing: every decision of the rule text")
    cited = {s["slug"]: {s["section"], *s.get("cites", [])} for s in content.scenarios}
    decisions = _toml(path, root).get("decision", [])
    unasked = []
    for index, decision in enumerate(decisions):
        where = f"decision #{index + 1}"
        if set(decision) != {"ref", "decision", "scenarios"}:
            raise ContentError(file, where, "keys", "expected ref, decision and scenarios")
        text, ref, slugs = decision["decision"], decision["ref"], decision["scenarios"]
        if not isinstance(text, str) or not text.strip() or "\n" in text:
            raise ContentError(file, where, "decision", "expected the decision on one line")
        if ref not in content.sections:
            raise ContentError(file, where, "ref", f"no section {ref!r}")
        if not isinstance(slugs, list) or not all(isinstance(s, str) for s in slugs):
            raise ContentError(file, where, "scenarios", "expected a list of scenario slugs")
        for slug in slugs:
            if slug not in cited:
                raise ContentError(file, where, "scenarios", f"no scenario {slug!r}")
            if ref not in cited[slug]:
                raise ContentError(
                    file, where, "scenarios", f"{slug} does not cite {ref} (its section or cites)"
                )
        if not slugs:
            unasked.append(f"{ref} {text}")
    if unasked:
        raise ContentError(
            file, "decisions", "scenarios", f"no scenario asks: {'; '.join(unasked)}"
        )
    listed = {slug for d in decisions for slug in d["scenarios"]}
    for scenario in content.scenarios:
        content.checked["unlisted"] += 1
        if scenario["slug"] not in listed:
            content.warnings.append(
                Problem(
                    "unlisted",
                    scenario["source_file"],
                    scenario["slug"],
                    None,
                    "decisions",
                    f"no decision of {file} lists it: add it to the decisions it asks",
                )
            )
    return list(decisions)


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
