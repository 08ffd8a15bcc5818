"""Dependencies run one way: clinics, courses, practice -> umpires -> scenarios -> rules.

Every import of every module (at the top or inside a function: there is no dodging) is read
from the source and checked against the layers below. `polotrainer.web` is a leaf like the
engine: small pieces every screen shares, importing none of our apps. The site's own modules
(settings, urls, views, wsgi, asgi) sit on top and may import anything.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: Layer of each package: an import may only go to a lower layer (or within its own package).
LAYERS = {
    "polotrainer.rules": 0,
    "polotrainer.web": 0,
    "polotrainer.throttle": 0,  # client address and guessing limits: imports none of our apps
    "scenarios": 1,
    "polotrainer.umpires": 2,
    "polotrainer.practice": 3,
    "polotrainer.courses": 3,
    "polotrainer.clinics": 3,
    "polotrainer.certificates": 3,
    "polotrainer": 4,
}
#: The one sideways arrow: a clinic may be run by a course's instructor, from a cohort's
#: assignment (never through another app's views).
SIDEWAYS = {
    ("polotrainer.clinics", "polotrainer.courses"),
    # A certificate names the course it certifies and is issued when a course's exam is passed.
    ("polotrainer.certificates", "polotrainer.courses"),
}


def package_of(module: str) -> str | None:
    """The layered package a dotted module name belongs to (the longest prefix), if ours."""
    matches = [p for p in LAYERS if module == p or module.startswith(p + ".")]
    return max(matches, key=len) if matches else None


def modules() -> list[tuple[str, Path]]:
    out = []
    for base in ("polotrainer", "scenarios"):
        for path in sorted((ROOT / base).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            dotted = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            out.append((dotted.removesuffix(".__init__"), path))
    return out


def imports_of(path: Path, module: str) -> list[str]:
    names = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: resolve against the module's own package
                package = module if path.name == "__init__.py" else module.rpartition(".")[0]
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1])
                names.append(f"{base}.{node.module}" if node.module else base)
            else:
                names.append(node.module or "")
    return names


def wrong_arrows(module: str, imported: list[str]) -> list[str]:
    source = package_of(module)
    assert source is not None, module
    bad = []
    for name in imported:
        target = package_of(name)
        if target is None or target == source:
            continue
        if (source, target) in SIDEWAYS and ".views" not in name:
            continue
        if LAYERS[target] >= LAYERS[source]:
            bad.append(f"{module} imports {name} ({source} -> {target})")
    return bad


MODULES = modules()


@pytest.mark.parametrize(("module", "path"), MODULES, ids=[m for m, _ in MODULES])
def test_imports_run_one_way(module, path):
    assert wrong_arrows(module, imports_of(path, module)) == []


def test_the_checker_catches_an_arrow_the_wrong_way():
    assert wrong_arrows("scenarios.quiz", ["polotrainer.umpires.models"])
    assert wrong_arrows("polotrainer.umpires.views", ["polotrainer.practice.views"])
    assert wrong_arrows("polotrainer.courses.views", ["polotrainer.clinics.models"])
    assert wrong_arrows("polotrainer.clinics.views", ["polotrainer.courses.views"])
    assert wrong_arrows("polotrainer.web.htmx", ["scenarios.models"])
    assert wrong_arrows("polotrainer.rules.field", ["polotrainer.web.htmx"])
    assert not wrong_arrows("polotrainer.clinics.views", ["polotrainer.courses.models"])
    assert not wrong_arrows("polotrainer.practice.views", ["scenarios.quiz", "polotrainer.web"])
    assert not wrong_arrows("polotrainer.views", ["polotrainer.umpires.models"])


def test_every_package_of_ours_has_a_layer():
    for module, _path in MODULES:
        assert package_of(module) is not None, module
