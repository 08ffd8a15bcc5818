"""Italian and English words for the engine's vocabulary: enum values, reasons, players, and
the names of the facts a situation states."""

import dataclasses
import re
import tomllib
import types
import typing
from collections.abc import Mapping
from enum import Enum
from functools import cache
from pathlib import Path
from typing import Any, cast

from polotrainer.rules import KINDS

VOCABULARY_FILE = Path(__file__).resolve().parent / "content" / "vocabulary.toml"
FACT_LABELS_FILE = VOCABULARY_FILE.with_name("fact_labels.toml")
_PLAYER_ID = re.compile(r"^([RB])(\d)$")
TEAM_NAMES = {"R": {"it": "Rosso", "en": "Red"}, "B": {"it": "Blu", "en": "Blue"}}


@cache
def vocabulary() -> Mapping[str, Any]:
    with VOCABULARY_FILE.open("rb") as handle:
        return tomllib.load(handle)


def enum_label(enum_name: str, value: str) -> Mapping[str, str]:
    return cast(Mapping[str, str], vocabulary()["enum"][enum_name][value])


@cache
def fact_labels() -> Mapping[str, Any]:
    with FACT_LABELS_FILE.open("rb") as handle:
        return tomllib.load(handle)


def fact_label(kind: str, path: str) -> Mapping[str, str]:
    """The name of a fact (its path in the kind's facts, a point's "ball.x") in it and en.

    >>> fact_label("penalty_spot", "field.width")["en"]
    'Field: width (yards)'
    """
    labels = fact_labels()
    own = labels.get("kind", {}).get(kind, {})
    return cast(Mapping[str, str], own[path] if path in own else labels["fact"][path])


def ruling_label(field: str) -> Mapping[str, str]:
    """The name of a ruling's field, what a question asks, in it and en.

    >>> ruling_label("spot")["en"]
    'The spot of the penalty'
    """
    return cast(Mapping[str, str], fact_labels()["ruling"][field])


def player_key_label(key: str) -> Mapping[str, str]:
    """What one key of a player in a players fact holds, in it and en.

    >>> player_key_label("handicap")["en"]
    'the handicap in goals'
    """
    return cast(Mapping[str, str], fact_labels()["player"][key])


def fact_enum(kind: str, path: str) -> str | None:
    """The name of the enum a fact holds (one value or several), None for any other fact.

    >>> fact_enum("stoppage", "incident"), fact_enum("penalty_9", "violations")
    ('Incident', 'TeamColour')
    >>> fact_enum("penalty_spot", "ball.x") is None
    True
    """
    tp: Any = KINDS[kind].situation
    for part in path.split("."):
        if not (isinstance(tp, type) and dataclasses.is_dataclass(tp)):
            return None
        tp = typing.get_type_hints(tp).get(part)
        if isinstance(tp, types.UnionType):  # X | None
            tp = next(arg for arg in typing.get_args(tp) if arg is not type(None))
        if typing.get_origin(tp) is tuple:
            tp = typing.get_args(tp)[0]
    return tp.__name__ if isinstance(tp, type) and issubclass(tp, Enum) else None


def reason_text(key: str) -> Mapping[str, str]:
    return cast(Mapping[str, str], vocabulary()["reason"][key])


def player_label(player: Mapping[str, Any]) -> Mapping[str, str]:
    """'Blue #3 (5 goals)' / 'Blu #3 (5 gol)' from a player's id and handicap, if any."""
    match = _PLAYER_ID.match(player["id"])
    names = (
        {lang: f"{TEAM_NAMES[match.group(1)][lang]} #{match.group(2)}" for lang in ("it", "en")}
        if match
        else {"it": player["id"], "en": player["id"]}
    )
    if "handicap" in player:
        h = player["handicap"]
        goals = "goal" if abs(h) == 1 else "goals"
        return {"it": f"{names['it']} ({h} gol)", "en": f"{names['en']} ({h} {goals})"}
    return names


def team_of(player_id: str) -> str:
    """'red' or 'blue' for a player id like R2 or B3; '' otherwise."""
    match = _PLAYER_ID.match(player_id)
    return {"R": "red", "B": "blue"}[match.group(1)] if match else ""
