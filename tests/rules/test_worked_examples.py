"""Every worked example of Rules 3, 21 and 37, as data (worked_examples.json); and, beside
them, the decisions the rule text makes outside its examples (rule_text_cases.json): each case
quotes the English original it rules on (the English prevails) and says in a note which reading
of it the case holds."""

import json
from pathlib import Path

import pytest

from polotrainer.rules import KINDS, REFS, rule_json

EXAMPLES = json.loads((Path(__file__).parent / "worked_examples.json").read_text("utf-8"))
RULE_TEXT = json.loads((Path(__file__).parent / "rule_text_cases.json").read_text("utf-8"))
SEEDS = Path(__file__).resolve().parents[3] / "shared" / "seeds"


def _subset(expected: object, actual: object) -> bool:
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(
            key in actual and _subset(value, actual[key]) for key, value in expected.items()
        )
    return expected == actual


@pytest.mark.parametrize("example", EXAMPLES, ids=[e["id"] for e in EXAMPLES])
def test_the_engine_rules_as_the_rulebook_example_does(example: dict[str, object]) -> None:
    ruling = rule_json(str(example["kind"]), example["facts"])  # type: ignore[arg-type]
    assert _subset(example["expect"], ruling), ruling


def test_every_example_of_the_seeds_is_here_once() -> None:
    ids = [e["id"] for e in EXAMPLES]
    expected = (
        ["3.b.ex1", "3.b.ex2a", "3.b.ex2b", "3.b.ex3", "3.b.ex4", "3.b.ex5", "3.b.ex6"]
        + ["3.c.ex1", "3.d.ex1", "3.d.ex2", "3.e.ex1", "3.f.ex1", "3.f.ex2"]
        + ["37.7.applying.ex1", "37.7.applying.ex2"]
        + [f"21.discussion.ex{n}" for n in range(1, 12)]
        + ["21.discussion.ex12a", "21.discussion.ex12b", "21.discussion.ex13"]
        + ["21.discussion.ex14a", "21.discussion.ex14b"]
    )
    assert ids == expected
    assert len({i.rstrip("ab") for i in ids}) == 28


@pytest.mark.parametrize("example", EXAMPLES, ids=[e["id"] for e in EXAMPLES])
def test_each_example_is_well_formed(example: dict[str, object]) -> None:
    assert example["source"] in REFS
    assert str(example["id"]).startswith(f"{example['source']}.ex")
    assert example["kind"] in KINDS
    assert str(example["sentence"]).strip()


@pytest.mark.parametrize("case", RULE_TEXT, ids=[c["id"] for c in RULE_TEXT])
def test_the_engine_rules_as_the_rule_text_does(case: dict[str, object]) -> None:
    ruling = rule_json(str(case["kind"]), case["facts"])  # type: ignore[arg-type]
    assert _subset(case["expect"], ruling), ruling


@pytest.mark.parametrize("case", RULE_TEXT, ids=[c["id"] for c in RULE_TEXT])
def test_each_rule_text_case_is_well_formed(case: dict[str, object]) -> None:
    assert case["source"] in REFS
    assert str(case["id"]).startswith(f"{case['source']}.")
    assert case["kind"] in KINDS
    assert str(case["sentence"]).strip() and str(case["note"]).strip()


def test_the_rule_text_cases_have_unique_ids() -> None:
    ids = [c["id"] for c in RULE_TEXT]
    assert len(ids) == len(set(ids))


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the seed rules (../shared/seeds) are not here")
def test_each_sentence_is_quoted_from_the_english_original() -> None:
    text = " ".join(" ".join(p.read_text("utf-8").split()) for p in SEEDS.glob("*.txt"))
    for example in [*EXAMPLES, *RULE_TEXT]:
        assert " ".join(str(example["sentence"]).split()) in text, example["id"]
