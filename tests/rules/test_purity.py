"""The engine is pure Python: no module of polotrainer/rules imports Django."""

import ast
import doctest
import importlib
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "polotrainer" / "rules"
MODULES = sorted(PACKAGE.glob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=[p.name for p in MODULES])
def test_no_module_imports_django(path: Path) -> None:
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""]
        else:
            continue
        assert not any(name.split(".")[0] == "django" for name in names), path.name


@pytest.mark.parametrize("path", MODULES, ids=[p.name for p in MODULES])
def test_doctests_pass(path: Path) -> None:
    module = importlib.import_module(f"polotrainer.rules.{path.stem}".removesuffix(".__init__"))
    results = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert results.failed == 0


def test_the_public_functions_have_doctested_examples() -> None:
    import polotrainer.rules as rules

    for name in ("rule_json", "decide_penalty_spot", "decide_penalty_7", "decide_substitution"):
        assert ">>>" in (getattr(rules, name).__doc__ or ""), name
