"""Italian and English words for the engine's vocabulary: enum values, reasons, players."""

import re
import tomllib
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

VOCABULARY_FILE = Path(__file__).resolve().parent / "content" / "vocabulary.toml"
_PLAYER_ID = re.compile(r"^([RB])(\d)$")
TEAM_NAMES = {"R": {"it": "Rosso", "en": "Red"}, "B": {"it": "Blu", "en": "Blue"}}


@cache
def vocabulary() -> Mapping[str, Any]:
    with VOCABULARY_FILE.open("rb") as handle:
        return tomllib.load(handle)


def enum_label(enum_name: str, value: str) -> Mapping[str, str]:
    return vocabulary()["enum"][enum_name][value]


def reason_text(key: str) -> Mapping[str, str]:
    return vocabulary()["reason"][key]


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
