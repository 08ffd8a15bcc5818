"""docs/engine.md documents one worked example per kind; each runs here verbatim."""

import json
import re
from pathlib import Path

import pytest

from polotrainer.rules import KINDS, rule_json

DOC = Path(__file__).resolve().parents[2] / "docs" / "engine.md"
BLOCK = re.compile(r"```json (\w+) (facts|ruling)\n(.*?)\n```", re.DOTALL)


def examples() -> dict[str, dict[str, object]]:
    found: dict[str, dict[str, object]] = {}
    for kind, part, body in BLOCK.findall(DOC.read_text("utf-8")):
        found.setdefault(kind, {})[part] = json.loads(body)
    return found


def test_every_kind_has_one_documented_example() -> None:
    assert list(examples()) == list(KINDS)
    assert all(set(parts) == {"facts", "ruling"} for parts in examples().values())


@pytest.mark.parametrize("kind", list(KINDS))
def test_the_documented_ruling_is_the_engines(kind: str) -> None:
    example = examples()[kind]
    assert rule_json(kind, example["facts"]) == example["ruling"]  # type: ignore[arg-type]


def test_the_discrepancy_of_21d_and_37_is_written_down() -> None:
    text = DOC.read_text("utf-8")
    assert "Rule 21.d (10 minutes) and Rule 37" in text
