"""docs/engine.md documents worked examples of every kind; each runs here verbatim."""

import json
import re
from pathlib import Path

import pytest

from polotrainer.rules import KINDS, rule_json

DOC = Path(__file__).resolve().parents[2] / "docs" / "engine.md"
BLOCK = re.compile(r"```json (\w+) (facts|ruling)\n(.*?)\n```", re.DOTALL)


def examples() -> dict[str, list[tuple[object, object]]]:
    """Each kind's (facts, ruling) pairs, in the order the document gives them."""
    found: dict[str, list[tuple[object, object]]] = {}
    facts: tuple[str, object] | None = None
    for kind, part, body in BLOCK.findall(DOC.read_text("utf-8")):
        if part == "facts":
            assert facts is None, f"{kind}: facts without a ruling"
            facts = (kind, json.loads(body))
        else:
            assert facts is not None and facts[0] == kind, f"{kind}: a ruling without facts"
            found.setdefault(kind, []).append((facts[1], json.loads(body)))
            facts = None
    assert facts is None, "facts without a ruling at the end"
    return found


def test_every_kind_has_a_documented_example_in_the_registrys_order() -> None:
    assert list(examples()) == list(KINDS)


@pytest.mark.parametrize(
    ("kind", "index"),
    [(kind, i) for kind, pairs in examples().items() for i in range(len(pairs))],
)
def test_the_documented_ruling_is_the_engines(kind: str, index: int) -> None:
    facts, ruling = examples()[kind][index]
    assert rule_json(kind, facts) == ruling  # type: ignore[arg-type]


def test_the_discrepancy_of_21d_and_37_is_written_down() -> None:
    text = DOC.read_text("utf-8")
    assert "Rule 21.d (10 minutes) and Rule 37" in text
