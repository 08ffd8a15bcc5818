"""Every example in a docstring outside the engine runs (the engine's: tests/rules/test_purity.py).

A module is found by its text (a line starting `>>>`), so a new module's examples run without a
line here. doctest runs on the imported module rather than through pytest's --doctest-modules,
which would import every module of the project, polotrainer/wsgi.py's start-up check included.
"""

import doctest
import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "polotrainer" / "rules"
EXAMPLE = re.compile(r'^\s*(?:""")?>>> ', re.MULTILINE)


def _modules() -> list[Path]:
    found = []
    for folder in ("polotrainer", "scenarios"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if ENGINE in path.parents or "migrations" in path.parts:
                continue
            if EXAMPLE.search(path.read_text("utf-8")):
                found.append(path)
    return found


MODULES = _modules()


def _name(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")


def test_the_modules_with_examples_are_found() -> None:
    names = {_name(path) for path in MODULES}
    # The three whose examples had never run, and failed, when this test came.
    assert {
        "polotrainer.clinics.sessions",
        "polotrainer.courses.codes",
        "polotrainer.web.plurals",  # the plural_count filter, once in templatetags/counts.py
    } <= names
    assert not any(name.startswith("polotrainer.rules") for name in names)


@pytest.mark.parametrize("path", MODULES, ids=_name)
def test_doctests_pass(path: Path) -> None:
    module = importlib.import_module(_name(path))
    results = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert results.attempted > 0, f"{_name(path)} has no example doctest can find"
    assert results.failed == 0
