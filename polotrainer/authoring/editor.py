"""The situation editor's form: a draft entry (docs/content.md's shape) to form values and back.

The facts part is generated from the engine's own description of the kind's facts
(`polotrainer.rules.describe`, the codec the CLI and docs/engine.md use): a choice is a select
of the engine's values, yes/no a select, a number a number input, a point two numbers, an object
its fields, a list of ids a line of ids, a list of players the codec's JSON. Any single value may
instead vary with a parameter (or a derived value): its "varies with" box names it, and the entry
holds "{name}", as the content files do.

Form values are a dict of name -> list of strings, like a QueryDict, so a page re-shows exactly
what was typed when something is wrong, and nothing typed is lost.
"""

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from polotrainer.rules import describe
from scenarios.localize import pick
from scenarios.questions import QUESTION_TYPES, ruling_enum
from scenarios.vocabulary import (
    enum_label,
    fact_enum,
    fact_label,
    player_key_label,
    ruling_label,
)

Data = Mapping[str, list[str]]
LANGS = ("it", "en")
#: Empty rows the form offers below the parameters and questions already written.
SPARE_PARAMS = 2
SPARE_QUESTIONS = 1
_NAME = re.compile(r"^[a-z_][a-z0-9_]*$")
_WHOLE = re.compile(r"^\{([a-z_][a-z0-9_]*)\}$")
#: The texts of an entry, each in both languages.
TEXTS = ("title", "situation", "explanation")
TEXT_LABELS = {
    ("title", "it"): gettext_lazy("Title in Italian"),
    ("title", "en"): gettext_lazy("Title in English"),
    ("situation", "it"): gettext_lazy("Situation in Italian"),
    ("situation", "en"): gettext_lazy("Situation in English"),
    ("explanation", "it"): gettext_lazy("Explanation in Italian (optional)"),
    ("explanation", "en"): gettext_lazy("Explanation in English (optional)"),
}


class Choice(NamedTuple):
    """One choice of a select or of checkboxes: the form value, what it reads, and the
    engine's own name for it when that is not the label (docs/engine.md's word)."""

    value: str
    label: str
    engine: str = ""


@dataclass
class Input:
    """One control of the form, as the template draws it."""

    name: str
    label: str
    kind: str  # select | number | text | textarea | checkboxes | checkbox
    value: Any = ""
    choices: list[Choice] = field(default_factory=list)
    step: str = "any"
    help: str = ""
    lang: str = ""
    vary: str = ""  # the name of the "varies with" box beside it, if any
    vary_value: str = ""
    errors: list[str] = field(default_factory=list)
    #: The engine's name of what the control states (a fact's path), shown small after the label.
    engine: str = ""

    def __post_init__(self) -> None:
        self.choices = [Choice(*c) for c in self.choices]


class Errors(dict[str, list[str]]):
    def add(self, name: str, message: str) -> None:
        if message not in self.setdefault(name, []):
            self[name].append(message)


# --- the facts, from the engine's description ---------------------------------------------------


def fact_leaves(kind: str) -> list[tuple[str, dict[str, Any]]]:
    """(path, schema) of every control of the kind's facts: objects are opened, a point is
    its x and y."""
    out: list[tuple[str, dict[str, Any]]] = []

    def walk(prefix: str, schema: Mapping[str, Any]) -> None:
        for name, spec in schema.items():
            path = f"{prefix}{name}"
            if spec["type"] == "object":
                walk(f"{path}.", spec["fields"])
            elif spec["type"] == "point":
                for axis in ("x", "y"):
                    out.append((f"{path}.{axis}", {**spec, "type": "number", "axis": axis}))
            else:
                out.append((path, dict(spec)))

    walk("", describe(kind)["facts"])
    return out


def _get(facts: Mapping[str, Any], path: str) -> Any:
    value: Any = facts
    for part in path.split("."):
        if not isinstance(value, Mapping) or part not in value:
            return None
        value = value[part]
    return value


def _put(facts: dict[str, Any], path: str, value: Any) -> None:
    parts = path.split(".")
    for part in parts[:-1]:
        facts = facts.setdefault(part, {})
    facts[parts[-1]] = value


def _number(value: float) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


# --- entry -> form values ------------------------------------------------------------------------


def to_data(entry: Mapping[str, Any]) -> dict[str, list[str]]:
    """The form values that show this entry."""
    data: dict[str, list[str]] = {
        "section": [str(entry.get("section", ""))],
        "cites": [", ".join(entry.get("cites", []))],
    }
    for key in TEXTS:
        for lang in LANGS:
            data[f"{key}_{lang}"] = [str((entry.get(key) or {}).get(lang, ""))]
    kind = str(entry.get("kind", ""))
    facts = entry.get("facts", {})
    for path, spec in fact_leaves(kind):
        value = _get(facts, path)
        name = f"fact:{path}"
        if isinstance(value, str) and (whole := _WHOLE.match(value)) and spec["type"] != "id":
            data[f"vary:{path}"] = [whole.group(1)]
            data[name] = [""]
            continue
        match spec["type"]:
            case _ if value is None:
                data[name] = []
            case "bool":
                data[name] = ["yes" if value else "no"]
            case "int" | "number":
                data[name] = [_number(value)]
            case "enums":
                data[name] = [str(v) for v in value]
            case "ids":
                data[name] = [", ".join(str(v) for v in value)]
            case "players":
                data[name] = [json.dumps(value, ensure_ascii=False, indent=1)]
            case _:
                data[name] = [str(value)]
    for i, (pname, spec) in enumerate(entry.get("params", {}).items()):
        row = f"p{i}-"
        data[row + "name"] = [pname]
        data[row + "type"] = [spec.get("type", "")]
        data[row + "label_it"] = [spec.get("label", {}).get("it", "")]
        data[row + "label_en"] = [spec.get("label", {}).get("en", "")]
        for key in ("min", "max", "step"):
            data[row + key] = [str(spec[key])] if key in spec else []
        data[row + "default"] = [str(spec.get("default", ""))]
        labels = spec.get("labels", {})
        lines = [
            f"{v} | {labels.get(str(v), {}).get('it', '')} | {labels.get(str(v), {}).get('en', '')}"
            for v in spec.get("values", [])
        ]
        data[row + "values"] = ["\n".join(lines)]
    data["derived"] = ["\n".join(f"{n} = {src}" for n, src in entry.get("derived", {}).items())]
    data["constraints"] = ["\n".join(entry.get("constraints", []))]
    for i, q in enumerate(entry.get("question", [])):
        row = f"q{i}-"
        data[row + "id"] = [str(q.get("id", ""))]
        data[row + "ask"] = [str(q.get("ask", ""))]
        data[row + "prompt_it"] = [q.get("prompt", {}).get("it", "")]
        data[row + "prompt_en"] = [q.get("prompt", {}).get("en", "")]
        data[row + "options"] = [str(o) for o in q.get("options", [])]
        data[row + "tolerance"] = [_number(q["tolerance"])] if "tolerance" in q else []
        data[row + "constant"] = ["on"] if q.get("constant") else []
    return data


def rows(data: Data, prefix: str) -> int:
    """How many rows of parameters (p) or questions (q) the values hold."""
    found = [int(m.group(1)) for k in data if (m := re.match(rf"^{prefix}(\d+)-", k))]
    return max(found) + 1 if found else 0


def _one(data: Data, name: str) -> str:
    values = data.get(name) or [""]
    return values[0].strip()


# --- form values -> entry -----------------------------------------------------------------------


def from_data(kind: str, data: Data) -> tuple[dict[str, Any], Errors]:
    """The entry the values describe, and what cannot even be read (a word where a number
    goes, JSON that is not JSON, a "varies with" that names nothing): those are the form's
    own errors; what the engine and the fairness checks say comes after (authoring.checking)."""
    errors = Errors()
    entry: dict[str, Any] = {"section": _one(data, "section"), "kind": kind}
    cites = [c.strip() for c in _one(data, "cites").split(",") if c.strip()]
    entry["cites"] = cites if entry["section"] in cites else [entry["section"], *cites]
    for key in TEXTS:
        texts = {lang: _one(data, f"{key}_{lang}") for lang in LANGS}
        if key == "explanation" and not any(texts.values()):
            continue
        entry[key] = texts
    params, names = _params(data, errors)
    if params:
        entry["params"] = params
    derived = _derived(data, errors)
    if derived:
        entry["derived"] = derived
    constraints = [c.strip() for c in _one(data, "constraints").splitlines() if c.strip()]
    if constraints:
        entry["constraints"] = constraints
    entry["facts"] = _facts(kind, data, errors, names | set(derived))
    entry["question"] = _questions(kind, data, errors)
    return entry, errors


def _facts(kind: str, data: Data, errors: Errors, names: set[str]) -> dict[str, Any]:
    facts: dict[str, Any] = {}
    for path, spec in fact_leaves(kind):
        name = f"fact:{path}"
        vary = _one(data, f"vary:{path}")
        if vary:
            if vary not in names:
                errors.add(
                    name,
                    _("“%(name)s” is not a parameter or a derived value of this situation.")
                    % {"name": vary},
                )
            _put(facts, path, "{" + vary + "}")
            continue
        values = [v for v in data.get(name, []) if v.strip()]
        if not values:
            continue
        raw = values[0].strip()
        match spec["type"]:
            case "bool":
                if raw not in {"yes", "no"}:
                    errors.add(name, _("Choose yes or no."))
                    continue
                value: Any = raw == "yes"
            case "int":
                try:
                    value = int(raw)
                except ValueError:
                    errors.add(name, _("Enter a whole number, for example 3."))
                    continue
            case "number":
                try:
                    value = float(raw.replace(",", "."))
                except ValueError:
                    errors.add(name, _("Enter a number, for example 30."))
                    continue
                value = int(value) if value.is_integer() else value
            case "enums":
                value = values
            case "ids":
                value = [i.strip() for i in raw.split(",") if i.strip()]
            case "players":
                try:
                    value = json.loads(raw)
                except json.JSONDecodeError as exc:
                    errors.add(
                        name,
                        _("Not valid JSON (line %(line)s, column %(column)s).")
                        % {"line": exc.lineno, "column": exc.colno},
                    )
                    continue
            case _:
                value = raw
        _put(facts, path, value)
    # A point with one coordinate given is a point without the other: the engine names it.
    return facts


def _params(data: Data, errors: Errors) -> tuple[dict[str, Any], set[str]]:
    params: dict[str, Any] = {}
    for i in range(rows(data, "p")):
        row = f"p{i}-"
        pname = _one(data, row + "name")
        if not pname:
            continue
        if not _NAME.match(pname):
            errors.add(row + "name", _("A name of lower-case letters, digits and _, like side."))
            continue
        if pname in params:
            errors.add(row + "name", _("Two parameters have this name."))
            continue
        kind = _one(data, row + "type")
        spec: dict[str, Any] = {
            "type": kind,
            "label": {lang: _one(data, f"{row}label_{lang}") for lang in LANGS},
        }
        if kind == "int":
            for key in ("min", "max", "step", "default"):
                raw = _one(data, row + key)
                if not raw and key == "step":
                    continue
                try:
                    spec[key] = int(raw)
                except ValueError:
                    errors.add(row + key, _("Enter a whole number, for example 3."))
        else:
            values, labels = [], {}
            for line in _one(data, row + "values").splitlines():
                if not line.strip():
                    continue
                value, _bar, rest = (p.strip() for p in line.partition("|"))
                it, _bar, en = (p.strip() for p in rest.partition("|"))
                values.append(value)
                labels[value] = {"it": it, "en": en}
            spec |= {"values": values, "labels": labels, "default": _one(data, row + "default")}
        params[pname] = spec
    return params, set(params)


def _derived(data: Data, errors: Errors) -> dict[str, str]:
    derived: dict[str, str] = {}
    for line in _one(data, "derived").splitlines():
        if not line.strip():
            continue
        name, equals, source = (p.strip() for p in line.partition("="))
        if not equals or not _NAME.match(name) or not source:
            errors.add("derived", _("Write each derived value as name = expression."))
            continue
        derived[name] = source
    return derived


def _questions(kind: str, data: Data, errors: Errors) -> list[dict[str, Any]]:
    questions = []
    for i in range(rows(data, "q")):
        row = f"q{i}-"
        qid = _one(data, row + "id")
        ask = _one(data, row + "ask")
        if not qid and not ask:
            continue
        q: dict[str, Any] = {
            "id": qid,
            "ask": ask,
            "prompt": {lang: _one(data, f"{row}prompt_{lang}") for lang in LANGS},
        }
        options = [o for o in data.get(row + "options", []) if o.strip()]
        if options:
            q["options"] = options
        tolerance = _one(data, row + "tolerance")
        if tolerance:
            try:
                q["tolerance"] = float(tolerance.replace(",", "."))
            except ValueError:
                errors.add(row + "tolerance", _("Enter a number, for example 2."))
        if _one(data, row + "constant"):
            q["constant"] = True
        questions.append(q)
    return questions


# --- the controls the template draws ------------------------------------------------------------


def askable(kind: str) -> list[tuple[str, dict[str, Any]]]:
    """The ruling fields a question may ask (the kinds the quiz core asks)."""
    return [
        (name, spec)
        for name, spec in describe(kind)["ruling"].items()
        if spec["type"] in QUESTION_TYPES
    ]


#: What kind of answer a ruling's field takes, in words (the select of "What the question asks").
ANSWER_KINDS = {
    "bool": gettext_lazy("yes or no"),
    "enum": gettext_lazy("one choice"),
    "enums": gettext_lazy("several choices"),
    "int": gettext_lazy("a number"),
    "number": gettext_lazy("a number"),
    "ids": gettext_lazy("players"),
    "point": gettext_lazy("a place on the field"),
    "sequence": gettext_lazy("steps in order"),
}


def _ask_name(name: str, spec: Mapping[str, Any]) -> str:
    """A ruling's field as the select offers it: its name in the active language
    (fact_labels.toml [ruling]) and the kind of answer it takes."""
    try:
        label = pick(ruling_label(name))
    except KeyError:
        label = name
    answer = ANSWER_KINDS.get(spec["type"])
    return f"{label} ({answer})" if answer else label


def _players_help(fields: Mapping[str, Any]) -> str:
    """What the JSON of a players fact holds, key by key, in the active language."""
    keys = []
    for key, spec in fields.items():
        try:
            words = pick(player_key_label(key))
        except KeyError:
            words = key
        if not spec.get("required"):
            words += " " + _("(may be left out)")
        keys.append(f'"{key}": {words}')
    return _("A list of players in JSON, one {…} each. %(keys)s.") % {"keys": "; ".join(keys)}


def _fact_name(kind: str, path: str) -> str:
    """The fact's name in the active language (fact_labels.toml); a fact the engine has grown
    since keeps its engine name until the file names it (tests/authoring/test_labels.py)."""
    try:
        return pick(fact_label(kind, path))
    except KeyError:
        return path


def _choices(kind: str, path: str, values: list[str]) -> list[Choice]:
    """An enum fact's choices, each read in the active language (vocabulary.toml) and each
    with the engine's value, which is what the form sends."""
    enum = fact_enum(kind, path)
    return [Choice(v, _enum_text(enum, v) if enum else v, v) for v in values]


def _enum_text(enum: str, value: str) -> str:
    """An enum value in the active language (vocabulary.toml), else the engine's value."""
    try:
        return pick(enum_label(enum, value))
    except KeyError:
        return value


@dataclass
class Form:
    """Everything the editor page draws, grouped as it draws it."""

    texts: list[Input]
    facts: list[Input]
    params: list[list[Input]]
    expressions: list[Input]
    questions: list[list[Input]]
    general: list[str]


def build(
    kind: str, data: Data, errors: Mapping[str, list[str]], sections: list[tuple[str, str]]
) -> Form:
    def one(name: str) -> str:
        values = data.get(name) or [""]
        return values[0]

    def control(name: str, label: str, kind_: str, **extra: Any) -> Input:
        value = extra.pop("value", one(name))
        return Input(name, label, kind_, value=value, errors=list(errors.get(name, [])), **extra)

    texts = [
        control("section", _("Rule section"), "select", choices=sections),
        control(
            "cites",
            _("Also cites (sections, separated by commas)"),
            "text",
            help=_("The section is cited anyway; for example 37.2, 21.a"),
        ),
    ]
    for key in TEXTS:
        for lang in LANGS:
            texts.append(
                control(
                    f"{key}_{lang}",
                    str(TEXT_LABELS[key, lang]),
                    "text" if key == "title" else "textarea",
                    lang=lang,
                )
            )
    facts = []
    for path, spec in fact_leaves(kind):
        name = f"fact:{path}"
        default = spec.get("default")
        if spec.get("axis"):
            default = None
        needed = _("required") if spec["required"] else _("not stated: the engine's default")
        if default is not None and not isinstance(default, dict | list):
            shown = (
                {True: _("yes"), False: _("no")}.get(default) if isinstance(default, bool) else None
            )
            needed = _("not stated: the engine takes %(default)s") % {
                "default": shown or (_number(default) if isinstance(default, float) else default)
            }
        label = _fact_name(kind, path)
        common: dict[str, Any] = {"vary": f"vary:{path}", "vary_value": one(f"vary:{path}")}
        match spec["type"]:
            case "bool":
                facts.append(
                    control(
                        name,
                        label,
                        "select",
                        choices=[("", f"— {needed}"), ("yes", _("yes")), ("no", _("no"))],
                        engine=path,
                        **common,
                    )
                )
            case "enum":
                choices = [Choice("", f"— {needed}"), *_choices(kind, path, spec["choices"])]
                facts.append(control(name, label, "select", choices=choices, engine=path, **common))
            case "int" | "number":
                facts.append(
                    control(
                        name,
                        label,
                        "number",
                        engine=path,
                        step="1" if spec["type"] == "int" else "any",
                        help="" if spec["required"] else needed,
                        **common,
                    )
                )
            case "enums":
                ticked = list(data.get(name, []))
                # A value that varies ("{first}", as content files write a list of them) is
                # a tick-box of its own, ticked, so saving the page as drawn keeps it.
                varying = [Choice(v, v) for v in ticked if v not in spec["choices"]]
                facts.append(
                    control(
                        name,
                        label,
                        "checkboxes",
                        value=ticked,
                        choices=[*_choices(kind, path, spec["choices"]), *varying],
                        engine=path,
                    )
                )
            case "ids":
                facts.append(
                    control(
                        name,
                        label,
                        "text",
                        help=_("Player ids separated by commas: R1, B3"),
                        engine=path,
                    )
                )
            case "players":
                facts.append(
                    control(
                        name, label, "textarea", engine=path, help=_players_help(spec["fields"])
                    )
                )
            case _:
                facts.append(control(name, label, "text", engine=path, **common))
    params = []
    for i in range(rows(data, "p") + SPARE_PARAMS):
        row = f"p{i}-"
        params.append(
            [
                control(row + "name", _("Name"), "text"),
                control(
                    row + "type",
                    _("Type"),
                    "select",
                    choices=[("int", _("a whole number")), ("choice", _("a choice"))],
                ),
                control(row + "label_it", _("Label (Italian)"), "text", lang="it"),
                control(row + "label_en", _("Label (English)"), "text", lang="en"),
                control(row + "min", _("Smallest"), "number", step="1"),
                control(row + "max", _("Largest"), "number", step="1"),
                control(row + "step", _("Step"), "number", step="1"),
                control(row + "default", _("Default (seed 0)"), "text"),
                control(
                    row + "values",
                    _("Choices, one a line: value | italiano | English"),
                    "textarea",
                ),
            ]
        )
    expressions = [
        control(
            "derived",
            _("Derived values, one a line: name = expression"),
            "textarea",
            help=_("For example: crossing_y = crossing_abs if side == 'left' else -crossing_abs"),
        ),
        control(
            "constraints",
            _("Constraints every variant meets, one a line"),
            "textarea",
            help=_("For example: b1 + b2 <= 26"),
        ),
    ]
    asks = askable(kind)
    all_options = sorted({c for _n, s in asks for c in s.get("choices", [])})
    option_labels: dict[str, str] = {}
    for ask, spec in asks:
        for choice in spec.get("choices", []):
            option_labels.setdefault(choice, _enum_text(ruling_enum(kind, ask), choice))
    questions = []
    for i in range(rows(data, "q") + SPARE_QUESTIONS):
        row = f"q{i}-"
        questions.append(
            [
                control(row + "id", _("Id (a short name)"), "text"),
                control(
                    row + "ask",
                    _("What the question asks"),
                    "select",
                    choices=[Choice("", "—"), *(Choice(n, _ask_name(n, s), n) for n, s in asks)],
                ),
                control(row + "prompt_it", _("Question (Italian)"), "text", lang="it"),
                control(row + "prompt_en", _("Question (English)"), "text", lang="en"),
                control(
                    row + "options",
                    _("Options offered (none ticked: all of the field's values)"),
                    "checkboxes",
                    value=list(data.get(row + "options", [])),
                    choices=[Choice(c, option_labels[c], c) for c in all_options],
                ),
                control(
                    row + "tolerance",
                    _("Tolerance in yards (a place on the field)"),
                    "number",
                    step="any",
                ),
                control(
                    row + "constant",
                    _("The answer is the same for every variant, on purpose"),
                    "checkbox",
                    value=bool(one(row + "constant")),
                ),
            ]
        )
    named = {c.name for c in texts + facts + expressions}
    named |= {c.name for group in params + questions for c in group}
    general = [m for name, messages in errors.items() if name not in named for m in messages]
    return Form(texts, facts, params, expressions, questions, general)
