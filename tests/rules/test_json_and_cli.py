"""The JSON contract the web layer relies on, and the command line."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from polotrainer.rules import KINDS, REASON_REFS, REFS, ReasonKey, describe, rule_json
from polotrainer.rules.__main__ import main
from polotrainer.rules.errors import FactError, UnknownKind

ROOT = Path(__file__).resolve().parents[2]
TYPES = {"int", "number", "bool", "enum", "point", "ids", "enums", "players", "object", "reasons"}
TYPES |= {"sequence"}


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "polotrainer.rules", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )


def test_every_reason_key_cites_a_known_section() -> None:
    assert set(REASON_REFS) == set(ReasonKey)
    assert set(REASON_REFS.values()) <= REFS


def test_kinds_have_a_name_situation_decide_and_summary() -> None:
    for name, kind in KINDS.items():
        assert kind.name == name
        assert callable(kind.decide)
        assert kind.summary.endswith(".")


@pytest.mark.parametrize("name", list(KINDS))
def test_describe_uses_only_the_contract_types(name: str) -> None:
    schema = describe(name)
    assert schema["summary"] == KINDS[name].summary
    for entry in [*schema["facts"].values(), *schema["ruling"].values()]:
        assert entry["type"] in TYPES
    assert all("required" in entry for entry in schema["facts"].values())
    assert schema["ruling"]["reasons"] == {"type": "reasons"}


def test_describe_gives_defaults_and_choices() -> None:
    facts = describe("penalty_spot")["facts"]
    assert facts["penalty"] == {
        "type": "enum",
        "choices": ["1", "2", "3", "4", "5a", "5b", "6"],
        "required": True,
    }
    assert facts["ball"] == {"type": "point", "default": None, "required": False}
    assert facts["field"]["default"] == {"length": 300.0, "width": 160.0, "boarded": True}
    players = describe("penalty_7")["facts"]["fouling_players"]
    assert players["type"] == "players"
    assert players["fields"]["id"]["type"] == "id"
    assert describe("penalty_positions")["ruling"]["breaches"]["type"] == "object"
    assert describe("penalty_positions")["ruling"]["requirements"]["type"] == "enums"
    assert describe("penalty_7")["ruling"]["designatable"] == {"type": "ids"}


def test_rule_json_speaks_plain_json() -> None:
    ruling = rule_json(
        "penalty_positions",
        {
            "penalty": "5a",
            "ball": {"x": 0, "y": 0},
            "players": [{"id": "B1", "team": "fouling", "position": {"x": 10, "y": 0}}],
        },
    )
    assert ruling == json.loads(json.dumps(ruling))
    assert ruling["out_of_position"] == ["B1"]
    assert ruling["breaches"][0] == {"player": "B1", "requirement": "thirty_yards_from_ball"}


@pytest.mark.parametrize(
    ("kind", "facts", "code", "field"),
    [
        ("penalty_11", {}, "unknown_kind", "kind"),
        ("penalty_spot", {}, "missing", "penalty"),
        ("penalty_spot", {"penalty": "7"}, "unknown_penalty", "penalty"),
        ("penalty_spot", {"penalty": "3", "colour": "red"}, "unknown_fact", "colour"),
        ("penalty_spot", {"penalty": 3}, "unknown_penalty", "penalty"),
        ("penalty_spot", {"penalty": "6", "crossing_y": "far"}, "wrong_type", "crossing_y"),
        ("penalty_spot", {"penalty": "6", "crossing_y": True}, "wrong_type", "crossing_y"),
        (
            "penalty_spot",
            {"penalty": "6", "crossing_y": float("inf")},
            "out_of_range",
            "crossing_y",
        ),
        ("penalty_spot", {"penalty": "5a", "ball": [1, 2]}, "wrong_type", "ball"),
        ("penalty_spot", {"penalty": "5a", "ball": {"x": 1}}, "missing", "ball.y"),
        ("penalty_spot", {"penalty": "5a", "ball": {"x": 1, "y": 99}}, "off_field", "ball"),
        ("penalty_spot", {"penalty": "3", "field": {"width": 170}}, "out_of_range", "field.width"),
        ("penalty_spot", {"penalty": "2", "p2_choice": "corner"}, "invalid_choice", "p2_choice"),
        (
            "foul_at_horn",
            {"timing": "before_horn", "final_period": "no"},
            "wrong_type",
            "final_period",
        ),
        (
            "penalty_7",
            {"disabled_handicap": 2.5, "fouling_players": []},
            "wrong_type",
            "disabled_handicap",
        ),
        (
            "penalty_7",
            {"disabled_handicap": 2, "fouling_players": {}},
            "wrong_type",
            "fouling_players",
        ),
        (
            "penalty_7",
            {"disabled_handicap": 2, "fouling_players": [{"id": "", "handicap": 1}]},
            "wrong_type",
            "fouling_players[0].id",
        ),
        (
            "penalty_7",
            {"disabled_handicap": 2, "fouling_players": [{"id": "B1", "handicap": 11}]},
            "out_of_range",
            "fouling_players[0].handicap",
        ),
        (
            "substitution",
            {
                "event_upper": 8,
                "moment": "during_play",
                "reason": "injured",
                "team": [{"id": f"R{i}", "handicap": 1} for i in range(5)],
            },
            "too_many_players",
            "team",
        ),
        (
            "substitution",
            {
                "event_upper": 8,
                "moment": "during_play",
                "reason": "injured",
                "team": [{"id": "R1", "handicap": 1}],
                "outgoing": ["B2"],
            },
            "not_on_field",
            "outgoing[0]",
        ),
    ],
)
def test_bad_facts_name_the_field_and_the_code(
    kind: str, facts: dict[str, object], code: str, field: str
) -> None:
    with pytest.raises(FactError) as excinfo:
        rule_json(kind, facts)
    assert (excinfo.value.code, excinfo.value.field) == (code, field)
    assert isinstance(excinfo.value, ValueError)


def test_null_is_the_default_of_an_optional_fact() -> None:
    ruling = rule_json("penalty_spot", {"penalty": "4", "ball": None, "crossing_y": None})
    assert ruling["spot"] == {"x": -90.0, "y": 0.0}


def test_facts_must_be_an_object() -> None:
    with pytest.raises(FactError) as excinfo:
        rule_json("foul_at_horn", ["before_horn"])  # type: ignore[arg-type]
    assert (excinfo.value.code, excinfo.value.field) == ("wrong_type", "facts")


def test_an_unknown_kind_is_a_value_error() -> None:
    with pytest.raises(UnknownKind):
        describe("penalty_11")


def test_the_cli_prints_the_ruling() -> None:
    result = run(
        "penalty_spot",
        stdin='{"penalty": "6", "crossing_y": 95, "field": {"width": 200, "boarded": false}}',
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["spot"] == {"x": -90.0, "y": 40.0}


@pytest.mark.parametrize(
    ("args", "stdin", "start"),
    [
        (("penalty_spot",), "{not json", "facts:"),
        (("penalty_spot",), '{"penalty": "9"}', "penalty:"),
        (("no_such_kind",), "{}", "kind:"),
        (
            ("penalty_7",),
            '{"disabled_handicap": 2, "fouling_players": [{"id": "B", "handicap": 12}]}',
            "fouling_players[0].handicap:",
        ),
        ((), "", "usage:"),
        (("--bogus",), "", "usage:"),
        (("a", "b"), "", "usage:"),
    ],
)
def test_the_cli_refuses_bad_input_in_one_line(
    args: tuple[str, ...], stdin: str, start: str
) -> None:
    result = run(*args, stdin=stdin)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith(start)
    assert result.stderr.count("\n") == 1
    assert "Traceback" not in result.stderr


def test_the_cli_lists_every_kind() -> None:
    result = run("--list")
    assert result.returncode == 0
    for name in KINDS:
        assert f"\n{name}: " in "\n" + result.stdout
    assert "    crossing_y: number = null" in result.stdout
    schemas = json.loads(run("--list", "--json").stdout)
    assert schemas == {name: describe(name) for name in KINDS}


def test_main_can_be_called_in_process(capsys: pytest.CaptureFixture[str]) -> None:
    import io

    assert main(["--json", "--list"], io.StringIO(), sys.stdout, sys.stderr) == 0
    assert json.loads(capsys.readouterr().out).keys() == KINDS.keys()
    assert (
        main(["foul_at_horn"], io.StringIO('{"timing": "before_horn"}'), sys.stdout, sys.stderr)
        == 0
    )
    assert json.loads(capsys.readouterr().out)["execution"] == "at_once"


@pytest.mark.parametrize(
    ("args", "stdin", "start"),
    [
        (["penalty_spot"], "{not json", "facts:"),
        (["penalty_spot"], "[" * 100_000, "facts:"),
        (["penalty_spot"], '{"penalty": "5a"}', "ball:"),
        ([], "", "usage:"),
        (["--list", "--list", "--list"], "", "usage:"),
    ],
)
def test_main_in_process_refuses_bad_input(
    args: list[str], stdin: str, start: str, capsys: pytest.CaptureFixture[str]
) -> None:
    import io

    assert main(args, io.StringIO(stdin), sys.stdout, sys.stderr) == 2
    err = capsys.readouterr().err
    assert err.startswith(start)
    assert err.count("\n") == 1


def test_main_in_process_lists_kinds(capsys: pytest.CaptureFixture[str]) -> None:
    import io

    assert main(["--list"], io.StringIO(), sys.stdout, sys.stderr) == 0
    assert "stoppage: " in capsys.readouterr().out


def test_the_module_runs_as_a_script(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import io
    import runpy

    monkeypatch.delitem(sys.modules, "polotrainer.rules.__main__", raising=False)
    monkeypatch.setattr(sys, "argv", ["polotrainer.rules", "foul_at_horn"])
    monkeypatch.setattr(sys, "stdin", io.StringIO('{"timing": "before_horn"}'))
    with pytest.raises(SystemExit) as excinfo:
        runpy.run_module("polotrainer.rules", run_name="__main__")
    assert excinfo.value.code == 0
    assert '"at_once"' in capsys.readouterr().out


def test_the_cli_refuses_bytes_that_are_not_utf8() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "polotrainer.rules", "penalty_spot"],
        input=b"\xff\xfe{",
        capture_output=True,
        cwd=ROOT,
        check=False,
        env={"PYTHONIOENCODING": "utf-8", "PATH": ""},
    )
    assert result.returncode == 2
    assert result.stderr.decode().startswith("facts:")
    assert b"Traceback" not in result.stderr
