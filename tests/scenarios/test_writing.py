"""The content-file writer: every bundled entry written out reads back equal, in the files'
own layout, and a value TOML cannot hold is refused rather than written wrong."""

import tomllib

import pytest

from scenarios.content import CONTENT_DIR
from scenarios.writing import scenario_toml

ENTRIES = [
    entry
    for path in sorted((CONTENT_DIR / "scenarios").glob("*.toml"))
    for entry in tomllib.loads(path.read_text("utf-8"))["scenario"]
]


def test_every_bundled_scenario_reads_back_equal():
    assert len(ENTRIES) > 100
    for entry in ENTRIES:
        assert tomllib.loads(scenario_toml(entry))["scenario"] == [entry], entry["slug"]


def test_it_lays_the_entry_out_as_the_files_do():
    text = scenario_toml(next(e for e in ENTRIES if e["slug"] == "p1-goal-awarded"), "a\nb")
    assert text.startswith('# a\n# b\n[[scenario]]\nslug = "p1-goal-awarded"\n')
    assert '\ntitle.en = "A foul in front of goal"\n' in text
    assert '\n[scenario.facts]\npenalty = "1"\n' in text
    assert '\n[scenario.params.foul]\nlabel.it = "fallo del difensore"\n' in text
    assert text.count("\n[[scenario.question]]\n") == 3


@pytest.mark.parametrize(
    "text",
    ['quote " and backslash \\', "line\nbreak\ttab", "del \x7f and bell \x07", "«Arbitro» ° é"],
)
def test_any_text_reads_back(text):
    entry = {"slug": "s", "title": {"it": text, "en": text}, "facts": {"note": text}}
    assert tomllib.loads(scenario_toml(entry))["scenario"] == [entry]


def test_empty_tables_and_lists_stay():
    entry = {"slug": "s", "facts": {}, "params": {}, "question": [], "cites": []}
    assert tomllib.loads(scenario_toml(entry))["scenario"] == [entry]


def test_a_value_toml_cannot_hold_is_refused():
    with pytest.raises(TypeError, match="TOML has no value"):
        scenario_toml({"slug": "s", "facts": {"ball": None}})
