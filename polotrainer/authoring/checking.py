"""Check: `content check`'s fairness suite on one draft, each failure beside the field causing it.

The checks are the content check's own (scenarios.content.check_entry: facts, options,
placeholders, languages, grammar, terms, diagram, order, hidden, leak) over SAMPLE_SEEDS (40)
seeds and the leak check's 60. Their messages are written for a developer reading a file's
report; here each becomes a sentence in the instructor's language, keeping the check's own words
beside it as the detail. Facts the engine refuses are named by the engine's error code.
"""

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from polotrainer.rules import FactError
from scenarios import content as checks
from scenarios.models import Section
from scenarios.variants import VariantError, make_variant

from .editor import Errors, fact_leaves

#: The engine's error codes (polotrainer.rules.errors), in words.
FACT_CODES = {
    "missing": gettext_lazy("The engine needs this fact: give it."),
    "wrong_type": gettext_lazy("This is not the kind of value this fact takes."),
    "invalid_choice": gettext_lazy("This is not one of the fact's values."),
    "unknown_penalty": gettext_lazy("The engine does not apply this penalty in this kind."),
    "unknown_fact": gettext_lazy("The engine does not know this fact."),
    "out_of_range": gettext_lazy("Out of the range the engine allows."),
    "off_field": gettext_lazy("This point is off the field."),
    "too_many_players": gettext_lazy("A side has more players than the rules allow."),
    "too_few_players": gettext_lazy("A side has fewer players than the situation needs."),
    "not_on_field": gettext_lazy("This player is not among the players on the field."),
    "duplicate_id": gettext_lazy("Two players share this id."),
    "over_upper_limit": gettext_lazy(
        "A team starts above the event's upper handicap limit: it could not have played."
    ),
    "inconsistent": gettext_lazy("These facts contradict each other or the rules."),
    "invalid": gettext_lazy("The engine refuses this fact."),
}
CHECK_SENTENCES = {
    "options": gettext_lazy(
        "The options must offer the engine's answer, once, and no other option that is right too."
    ),
    "placeholders": gettext_lazy(
        "A placeholder is left: only the situation may have them, and each must name a "
        "parameter or a derived value."
    ),
    "languages": gettext_lazy("The Italian and the English carry different numbers."),
    "grammar": gettext_lazy(
        "A number and its noun disagree: write {name|one|other}, for example "
        "{minutes|minuto|minuti}."
    ),
    "terms": gettext_lazy("A word is spelled unlike the rest of the content."),
    "diagram": gettext_lazy(
        "The diagram draws a mark on the right spot: it gives the answer away."
    ),
    "order": gettext_lazy(
        "An order question needs two or more steps, each once and each read differently."
    ),
    "hidden": gettext_lazy(
        "An answer depends on this fact, which is left to the engine's default: state it "
        "here, and say it in the situation."
    ),
    "leak": gettext_lazy(
        "Something a trainee sees without the rule predicts the answer: draw, word or order "
        "it the same way whatever the answer."
    ),
    "facts": gettext_lazy("The engine refuses these facts."),
    "scene": gettext_lazy(
        "The drill's play of these facts contradicts them or shows the answer before the "
        "whistle: change the facts the play is drawn from."
    ),
}
#: What a malformed entry's message (scenarios.content.ContentError) says, in words.
STRUCTURE = [
    (
        re.compile(r"missing or empty text"),
        gettext_lazy("Write this text in Italian and in English."),
    ),
    (
        re.compile(r"unknown placeholder \{(?P<name>[^}]*)\}"),
        gettext_lazy(
            "{%(name)s} is not a varying fact: add a parameter or a derived value of that name, "
            "or take the braces away."
        ),
    ),
    (
        re.compile(r"expected integers min <= default <= max"),
        gettext_lazy("Give whole numbers with smallest ≤ default ≤ largest."),
    ),
    (
        re.compile(r"expected values and a default among them"),
        gettext_lazy("Give the choices, and a default that is one of them."),
    ),
    (re.compile(r"expected int or choice"), gettext_lazy("Choose the parameter's type.")),
    (re.compile(r"not values of the field"), gettext_lazy("Tick only values of the asked field.")),
    (re.compile(r"expected a unique question id"), gettext_lazy("Give each question its own id.")),
    (
        re.compile(r"expected at least one question"),
        gettext_lazy("Ask at least one question."),
    ),
    (re.compile(r"^expected one of"), gettext_lazy("Choose what the question asks.")),
    (re.compile(r"unknown name (?P<name>\w+)"), gettext_lazy("%(name)s names no parameter.")),
    (re.compile(r"^no section"), gettext_lazy("No section has this reference.")),
]
SAMPLE = checks.SAMPLE_SEEDS
#: The check's own words shown for one problem: the first variants only.
DETAILS = 2


@dataclass
class Report:
    """What Check found: messages per form field, the ones no field holds, the counts."""

    errors: Errors = field(default_factory=Errors)
    seeds: int = 0
    counts: dict[str, tuple[int, int]] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.errors


def sections_and_cases() -> tuple[dict[str, None], dict[str, str]]:
    sections: dict[str, None] = {}
    cases: dict[str, str] = {}
    for ref, section_cases in Section.objects.values_list("ref", "cases"):
        sections[ref] = None
        for case in section_cases or []:
            cases[case["id"]] = ref
    return sections, cases


def check(entry: Mapping[str, Any], slug: str, sample: range = SAMPLE) -> Report:
    """Every check on the entry; the report maps each failure to the form field causing it."""
    report = Report(seeds=len(sample))
    entry = {**entry, "slug": slug}
    sections, cases = sections_and_cases()
    try:
        found = checks.check_entry(entry, sections, cases, sample=sample)
    except checks.ContentError as exc:
        report.errors.add(_field_of(entry, exc.field), _structure(str(exc).rsplit(": ", 1)[-1]))
        return report
    report.counts = found.check_counts()
    refused = _refused(entry, slug, sample)
    details: dict[tuple[str, str], list[checks.Problem]] = {}
    for problem in found.problems:
        name = _field_of(entry, problem.field)
        if problem.check == "facts":
            message = refused.get(problem.field) or str(CHECK_SENTENCES["facts"])
        else:
            message = str(CHECK_SENTENCES[problem.check])
        report.errors.add(name, message)
        details.setdefault((name, message), []).append(problem)
    for (name, _message), problems in details.items():
        for problem in problems[:DETAILS]:
            report.errors.add(name, _detail(problem))
        if len(problems) > DETAILS:
            more = len(problems) - DETAILS
            report.errors.add(
                name,
                "↳ "
                + ngettext("and %(count)s more variant", "and %(count)s more variants", more)
                % {"count": more},
            )
    for warning in found.warnings:
        report.warnings.append(
            _(
                "Worth a look: the answer to question %(question)s is the same on every seed "
                "though the facts vary (tick “the same for every variant” if that is the point)."
            )
            % {"question": warning.field.removeprefix("question ")}
        )
    return report


def _detail(problem: checks.Problem) -> str:
    where = (
        _("every variant") if problem.seed is None else _("seed %(seed)s") % {"seed": problem.seed}
    )
    return f"↳ {where}: {problem.message}"


def _refused(entry: Mapping[str, Any], slug: str, sample: range) -> dict[str, str]:
    """The engine's own word on each fact it refused: the message of its error code, then its
    own text (the OutOfRange range, the choices it expects), per `facts.<field>`."""
    out: dict[str, str] = {}
    for seed in sample:
        try:
            make_variant(slug, entry, seed)
        except FactError as exc:
            error: FactError | None = exc
        except (VariantError, KeyError, ValueError) as exc:
            error = exc.__cause__ if isinstance(exc.__cause__, FactError) else None
        else:
            continue
        if error is not None:
            out.setdefault(
                f"facts.{error.field}",
                f"{FACT_CODES.get(error.code, FACT_CODES['invalid'])} ({error.expected})",
            )
    return out


def _structure(message: str) -> str:
    for pattern, words in STRUCTURE:
        if match := pattern.search(message):
            return str(words) % match.groupdict() if match.groupdict() else str(words)
    return _("Not valid: %(detail)s") % {"detail": message}


_QUESTION = re.compile(r"^question (?P<id>[^.\s]+)(?:\.(?P<rest>.*))?$")
_MARKS = {"ball": "ball.x", "foul": "foul_spot.x", "crossing": "crossing_y"}


def _field_of(entry: Mapping[str, Any], where: str) -> str:
    """The form field a check's field name points at ("facts.crossing_y", "situation.it",
    "question spot.options", "params.side.label"); "" when none holds it."""
    kind = str(entry.get("kind", ""))
    leaves = {path for path, _spec in fact_leaves(kind)} if kind else set()
    head, _dot, rest = where.partition(".")
    if head in ("title", "situation", "explanation") and rest in ("it", "en"):
        return f"{head}_{rest}"
    if head in ("section", "cites"):
        return head
    if head == "facts":
        path = re.sub(r"\[\d+\].*$", "", rest)
        for candidate in (rest, path, f"{path}.x"):
            if candidate in leaves:
                return f"fact:{candidate}"
        top = path.split(".")[0]
        matching = sorted(p for p in leaves if p.split(".")[0] == top)
        return f"fact:{matching[0]}" if matching else ""
    if head == "diagram":
        mark = _MARKS.get(rest)
        if mark and mark in leaves:
            return f"fact:{mark}"
        return "fact:players" if "fact:players" in {f"fact:{p}" for p in leaves} else ""
    if head == "params":
        name = rest.split(".")[0]
        for i, pname in enumerate(entry.get("params", {})):
            if pname == name:
                parts = rest.split(".")
                if len(parts) > 2 and parts[1] == "label":
                    return f"p{i}-label_{parts[2]}"
                if len(parts) > 1:
                    return {"labels": f"p{i}-values", "type": f"p{i}-type"}.get(
                        parts[1], f"p{i}-name"
                    )
                return f"p{i}-default"
        return ""
    if head == "derived":
        return "derived"
    if head.startswith("constraints"):
        return "constraints"
    if match := _QUESTION.match(where):
        for i, q in enumerate(entry.get("question", [])):
            if q.get("id") == match["id"]:
                rest = match["rest"] or ""
                if rest.startswith("prompt."):
                    return f"q{i}-prompt_{rest.rsplit('.', 1)[-1]}"
                if rest.startswith("options"):
                    return f"q{i}-options"
                if rest in ("ask", "steps") or rest.startswith("steps"):
                    return f"q{i}-ask"
                if rest in ("constant", "tolerance"):
                    return f"q{i}-{rest}"
                return f"q{i}-id"
    if where.startswith("question") and entry.get("question"):
        return f"q{len(entry['question']) - 1}-id" if where == "question" else "q0-id"
    return ""
