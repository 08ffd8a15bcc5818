"""Questions: what a scenario asks, built from the engine's schema, and how answers are checked.

A question names a ruling field (`ask`); its kind follows from the field's type in the engine's
schema, and its right answer is whatever the engine rules for the variant. Nothing here decides
polo: it only compares the trainee's answer with the engine's.
"""

import math
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum, StrEnum
from functools import cache
from typing import Any, cast

from polotrainer.rules import KINDS, describe
from scenarios.spots import EnginePoint, FieldSpot
from scenarios.vocabulary import enum_label, player_label


class QuestionType(StrEnum):
    """How a question is answered; follows from the type of the ruling field it asks."""

    CHOICE = "choice"
    MULTI = "multi"
    BOOL = "bool"
    NUMBER = "number"
    PLAYERS = "players"
    PLACE = "place"
    ORDER = "order"


#: The question type for each type of ruling field in the engine's schema (`describe`).
QUESTION_TYPES = {
    "enum": QuestionType.CHOICE,
    "enums": QuestionType.MULTI,
    "bool": QuestionType.BOOL,
    "int": QuestionType.NUMBER,
    "number": QuestionType.NUMBER,
    "ids": QuestionType.PLAYERS,
    "point": QuestionType.PLACE,
    "sequence": QuestionType.ORDER,
}
DEFAULT_TOLERANCE = {QuestionType.PLACE: 2.0, QuestionType.NUMBER: 0.0}


#: An answer as the engine rules it and as a read or recorded one is kept (the JSON of
#: Attempt.given and Attempt.right_answer): an option's value, yes or no, a number, the options
#: or players chosen (sorted), the steps in their order, a point.
Answer = str | bool | int | float | list[str] | EnginePoint
#: An answer as a form's values read (`Question.parse`): a place question's is the spot as
#: typed, which the quiz places on the variant's own field (an EnginePoint).
Read = Answer | FieldSpot


def strings(answer: Answer | None) -> list[str]:
    """A multi, players or order answer's values; [] for an answer of another kind."""
    return [str(v) for v in answer] if isinstance(answer, list) else []


def point(answer: Answer | None) -> EnginePoint | None:
    """A place answer's point; None for an answer of another kind."""
    return answer if isinstance(answer, dict) else None


class AnswerCode(StrEnum):
    """How an answer is not of its question's kind (the words are quiz.ANSWER_MESSAGES)."""

    MISSING = "missing"
    UNKNOWN_OPTION = "unknown_option"
    UNKNOWN_PLAYER = "unknown_player"
    NOT_A_NUMBER = "not_a_number"
    OFF_FIELD = "off_field"
    NOT_AN_ORDER = "not_an_order"
    UNKNOWN_QUESTION = "unknown_question"


class AnswerError(ValueError):
    """The answer is not of the question's kind; `code` says how, for tests and messages."""

    def __init__(self, code: AnswerCode) -> None:
        super().__init__(code)
        self.code = code


@dataclass(frozen=True)
class Option:
    value: str
    label: Mapping[str, str]


@dataclass(frozen=True)
class Question:
    id: str
    ask: str
    type: QuestionType
    prompt: Mapping[str, str]
    options: Sequence[Option]
    tolerance: float

    def right_answer(self, ruling: Mapping[str, Any]) -> Answer:
        value = ruling[self.ask]
        if self.type in {"multi", "players"}:
            return sorted(value)
        if self.type == "order":
            return list(value)
        return cast(Answer, value)

    def parse(self, raw: Sequence[str]) -> Read:
        """The answer from form values (a list of strings); AnswerError if it is not one.

        A place question's answer is the `FieldSpot` typed (yards from the goal line, across):
        only the quiz, which knows the variant's field, turns it into the engine's point."""
        values = [v.strip() for v in raw if v.strip()]
        allowed = {option.value for option in self.options}
        match self.type:
            case "choice" | "bool":
                if len(values) != 1:
                    raise AnswerError(AnswerCode.MISSING)
                if values[0] not in allowed:
                    raise AnswerError(AnswerCode.UNKNOWN_OPTION)
                return values[0] == "true" if self.type == "bool" else values[0]
            case "multi" | "players":
                if any(v not in allowed for v in values):
                    code = (
                        AnswerCode.UNKNOWN_PLAYER
                        if self.type == "players"
                        else AnswerCode.UNKNOWN_OPTION
                    )
                    raise AnswerError(code)
                return sorted(set(values))
            case "number":
                if len(values) != 1:
                    raise AnswerError(AnswerCode.MISSING)
                try:
                    number = float(values[0].replace(",", "."))
                except ValueError:
                    raise AnswerError(AnswerCode.NOT_A_NUMBER) from None
                if not math.isfinite(number) or abs(number) > 10_000:
                    raise AnswerError(AnswerCode.NOT_A_NUMBER)
                return int(number) if number.is_integer() else number
            case "order":
                # The steps in the order given: every offered step exactly once.
                if len(values) != len(allowed) or set(values) != allowed:
                    raise AnswerError(AnswerCode.NOT_AN_ORDER)
                return values
            case "place":
                if len(values) != 2:
                    raise AnswerError(AnswerCode.MISSING)
                try:
                    along, across = (float(v.replace(",", ".")) for v in values)
                except ValueError:
                    raise AnswerError(AnswerCode.NOT_A_NUMBER) from None
                if not (math.isfinite(along) and math.isfinite(across)):
                    raise AnswerError(AnswerCode.NOT_A_NUMBER)
                return FieldSpot(along, across)
        raise AnswerError(AnswerCode.UNKNOWN_QUESTION)  # pragma: no cover

    def is_correct(self, answer: Answer, right: Answer) -> bool:
        if self.type == "place":
            if not (isinstance(answer, dict) and isinstance(right, dict)):
                return False
            return math.dist((answer["x"], answer["y"]), (right["x"], right["y"])) <= self.tolerance
        if self.type == "number":
            if not (isinstance(answer, int | float) and isinstance(right, int | float)):
                return False
            return abs(float(answer) - float(right)) <= self.tolerance
        return bool(answer == right)


def build_questions(
    kind: str,
    data: Mapping[str, Any],
    facts: Mapping[str, Any],
    ruling: Mapping[str, Any] | None = None,
) -> list[Question]:
    """The questions of a scenario's entry, for one variant's facts (players come from them)
    and its ruling (an order question offers the steps the ruling puts in order)."""
    schema = ruling_schema(kind)
    questions = []
    for entry in data.get("question", []):
        field = entry["ask"]
        qtype = QUESTION_TYPES[schema[field]["type"]]
        questions.append(
            Question(
                id=entry["id"],
                ask=field,
                type=qtype,
                prompt=entry["prompt"],
                options=_options(kind, field, qtype, entry, schema[field], facts, ruling),
                tolerance=float(entry.get("tolerance", DEFAULT_TOLERANCE.get(qtype, 0.0))),
            )
        )
    return questions


def _options(
    kind: str,
    field: str,
    qtype: str,
    entry: Mapping[str, Any],
    schema: Mapping[str, Any],
    facts: Mapping[str, Any],
    ruling: Mapping[str, Any] | None,
) -> list[Option]:
    if qtype == "order":
        enum_name = ruling_enum(kind, field)
        steps = ruling[field] if ruling is not None else schema["choices"]
        return [Option(v, enum_label(enum_name, v)) for v in steps]
    if qtype in {"choice", "multi"}:
        enum_name = ruling_enum(kind, field)
        values = entry.get("options") or schema["choices"]
        return [Option(v, enum_label(enum_name, v)) for v in values]
    if qtype == "bool":
        return [
            Option("true", {"it": "Sì", "en": "Yes"}),
            Option("false", {"it": "No", "en": "No"}),
        ]
    if qtype == "players":
        return [Option(p["id"], player_label(p)) for p in players_in(facts)]
    return []


@cache
def ruling_schema(kind: str) -> Mapping[str, Any]:
    """The engine's schema of a kind's ruling fields (cached: it never changes)."""
    return cast(Mapping[str, Any], describe(kind)["ruling"])


@cache
def ruling_enum(kind: str, field: str) -> str:
    """The name of the enum a ruling field holds (for its labels in vocabulary.toml)."""
    hint = typing.get_type_hints(KINDS[kind].ruling)[field]
    if typing.get_origin(hint) is tuple:
        hint = typing.get_args(hint)[0]
    if isinstance(hint, type) and issubclass(hint, Enum):
        return hint.__name__
    raise KeyError(f"{kind}.{field} is not an enum field")


def players_in(facts: Any) -> list[Mapping[str, Any]]:
    """Every player object (a mapping with an `id`) in the facts, in order, once each."""
    found: dict[str, Mapping[str, Any]] = {}

    def walk(node: Any) -> None:
        if isinstance(node, Mapping):
            if isinstance(node.get("id"), str):
                found.setdefault(node["id"], node)
            for key in sorted(node):  # jsonb does not keep key order; lists keep theirs
                walk(node[key])
        elif isinstance(node, list | tuple):
            for item in node:
                walk(item)

    walk(facts)
    return list(found.values())
