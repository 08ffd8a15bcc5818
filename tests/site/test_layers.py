"""The whole import graph, stated once: each part of the code and what it may import.

Arrows mean "may import" (and whatever that may import in turn); nothing imports upward,
nothing sideways, and the graph has no cycle. Every import of every module (at the top or inside
a function: there is no dodging; `from package import module` counts as importing the module)
is read from the source and checked against it. There is no list of exceptions.

    polotrainer (settings, urls, views, demo, templatetags, ...): anything
    clinics -> drills; certificates, drills -> courses.exams -> courses -> umpires -> scenarios
    scenarios -> rules, web, throttle (three leaves that import none of our code)
    courses.urls -> courses.views -> courses.gradebook -> courses.exams
    practice -> umpires

Why the cohort's screens and its gradebook sit above exams (a truer graph than "exams may
import courses" alone): a cohort's page lists its exams and its gradebook has a column per exam,
so they read exam rows; exams, in turn, build on cohorts, memberships and assignments. Cutting
the courses app there keeps both arrows pointing one way. The `exams` command
(courses.management) runs the exam domain.

Besides the graph, one rule: only a `urls` module imports views (no app imports another app's
views, not even one above it).
"""

import ast
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: Each part of the code (a dotted prefix: the longest one a module starts with is its part)
#: and the parts it may import directly; what those may import, it may import too.
GRAPH: dict[str, set[str]] = {
    "polotrainer.rules": set(),  # the engine: pure Python
    "polotrainer.web": set(),  # small shared web pieces, knowing only Django
    "polotrainer.throttle": set(),  # client address and guessing limits
    "scenarios": {"polotrainer.rules", "polotrainer.web", "polotrainer.throttle"},
    "polotrainer.umpires": {"scenarios"},
    "polotrainer.practice": {"polotrainer.umpires"},
    # Practice with no signal: packs made and outboxes synced by the quiz core and umpires.
    "polotrainer.offline": {"polotrainer.umpires"},
    "polotrainer.courses": {"polotrainer.umpires"},
    "polotrainer.courses.exams": {"polotrainer.courses"},
    "polotrainer.courses.gradebook": {"polotrainer.courses.exams"},
    "polotrainer.courses.views": {"polotrainer.courses.gradebook"},
    # The gradebook's cells, made in one go for its template (courses/templatetags/gradebook.py).
    "polotrainer.courses.templatetags": {"polotrainer.courses.gradebook"},
    "polotrainer.courses.urls": {"polotrainer.courses.views"},
    "polotrainer.courses.management": {"polotrainer.courses.exams"},
    # The app's start wires the exams into umpires.closedbook (offline packs stop from a
    # closed-book exam's opening), as authoring wires itself into scenarios.audience.
    "polotrainer.courses.apps": {"polotrainer.courses.exams"},
    "polotrainer.certificates": {"polotrainer.courses.exams"},
    # The server's lanes: the clinic stream marks its controls for the instructor's own lane.
    "polotrainer.serving": set(),
    # A drill gives the extra time an instructor set for a trainee in an exam (accommodation).
    "polotrainer.drills": {"polotrainer.courses.exams"},
    # A clinic's drill round plays a drill's scene (drills.screen) with its countdown.
    "polotrainer.clinics": {"polotrainer.drills", "polotrainer.serving"},
    # A course's own situations: owned by the course, shown to its cohorts (scenarios.audience
    # asks this app through the resolver it registers, never by importing it).
    "polotrainer.authoring": {"polotrainer.courses"},
    # Mail and calendars: invitations to cohorts, reminders of exams and certificates, and the
    # follow-up after a clinic (its answers, and practice's signed link to what was missed).
    "polotrainer.notify": {
        "polotrainer.certificates",
        "polotrainer.clinics",
        "polotrainer.practice",
    },
    # The staff look-up (Django's admin) shows every app's rows.
    "polotrainer.lookup": {"polotrainer.certificates", "polotrainer.clinics"},
    "polotrainer": {
        "polotrainer.practice",
        "polotrainer.offline",
        "polotrainer.courses.urls",
        "polotrainer.courses.management",
        "polotrainer.certificates",
        "polotrainer.clinics",
        "polotrainer.drills",
        "polotrainer.authoring",
        "polotrainer.notify",
        "polotrainer.lookup",
    },
}


@cache
def reach(part: str) -> frozenset[str]:
    """Every part `part` may import: its arrows and theirs (the graph has no cycle)."""
    out: set[str] = set()
    for target in GRAPH[part]:
        out |= {target} | reach(target)
    return frozenset(out)


def part_of(module: str) -> str | None:
    """The part of the graph a dotted module name belongs to (the longest prefix), if ours."""
    matches = [p for p in GRAPH if module == p or module.startswith(p + ".")]
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


def _is_module(dotted: str) -> bool:
    path = ROOT.joinpath(*dotted.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def imports_of(path: Path, module: str) -> list[str]:
    names = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: resolve against the module's own package
                package = module if path.name == "__init__.py" else module.rpartition(".")[0]
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1])
                source = f"{base}.{node.module}" if node.module else base
            else:
                source = node.module or ""
            # `from polotrainer.courses import views` imports polotrainer.courses.views.
            submodules = [
                f"{source}.{a.name}" for a in node.names if _is_module(f"{source}.{a.name}")
            ]
            names += submodules or [source]
            if submodules and len(submodules) < len(node.names):
                names.append(source)
    return names


def wrong_arrows(module: str, imported: list[str]) -> list[str]:
    source = part_of(module)
    assert source is not None, module
    bad = []
    for name in imported:
        target = part_of(name)
        if target is None:
            continue
        is_views = "views" in name.split(".")[len(target.split(".")) :]
        if is_views and target != source and "urls" not in module.split("."):
            bad.append(f"{module} imports {name}: only a urls module imports views")
        elif target != source and target not in reach(source):
            bad.append(f"{module} imports {name} ({source} -> {target})")
    return bad


MODULES = modules()


@pytest.mark.parametrize(("module", "path"), MODULES, ids=[m for m, _ in MODULES])
def test_imports_run_one_way(module, path):
    assert wrong_arrows(module, imports_of(path, module)) == []


def test_the_graph_has_no_cycle():
    for part in GRAPH:
        assert part not in reach(part), part


def test_every_arrow_of_the_graph_names_a_part_of_it():
    assert all(targets <= GRAPH.keys() for targets in GRAPH.values())


def test_the_checker_catches_an_arrow_the_wrong_way():
    assert wrong_arrows("scenarios.quiz", ["polotrainer.umpires.models"])
    assert wrong_arrows("polotrainer.umpires.views", ["polotrainer.practice.views"])
    assert wrong_arrows("polotrainer.courses.views", ["polotrainer.clinics.models"])
    assert wrong_arrows("polotrainer.clinics.views", ["polotrainer.courses.views"])
    assert wrong_arrows("polotrainer.clinics.views", ["polotrainer.courses.exams.views"])
    assert wrong_arrows("polotrainer.clinics.models", ["polotrainer.certificates.models"])
    assert wrong_arrows("polotrainer.practice.views", ["polotrainer.courses.models"])
    assert wrong_arrows("polotrainer.courses.models", ["polotrainer.courses.exams.models"])
    assert wrong_arrows("polotrainer.courses.exams.attempts", ["polotrainer.courses.gradebook"])
    assert wrong_arrows("polotrainer.courses.gradebook", ["polotrainer.courses.views"])
    assert wrong_arrows("polotrainer.web.htmx", ["scenarios.models"])
    assert wrong_arrows("polotrainer.rules.field", ["polotrainer.web.htmx"])
    assert not wrong_arrows("polotrainer.clinics.views", ["polotrainer.courses.models"])
    assert not wrong_arrows("polotrainer.certificates.apps", ["polotrainer.courses.exams.signals"])
    assert not wrong_arrows("polotrainer.courses.exams.views", ["polotrainer.courses.assignments"])
    assert not wrong_arrows("polotrainer.courses.views", ["polotrainer.courses.exams.models"])
    assert not wrong_arrows("polotrainer.courses.urls", ["polotrainer.courses.exams.views"])
    assert not wrong_arrows("polotrainer.practice.views", ["scenarios.quiz", "polotrainer.web"])
    assert not wrong_arrows("polotrainer.views", ["polotrainer.umpires.models"])


def test_from_a_package_import_a_module_counts_as_importing_the_module(tmp_path):
    source = tmp_path / "m.py"
    source.write_text(
        "from polotrainer.courses import views, models\nfrom polotrainer.web import qr\n"
    )
    assert set(imports_of(source, "polotrainer.clinics.m")) == {
        "polotrainer.courses.views",
        "polotrainer.courses.models",
        "polotrainer.web.qr",
    }


def test_every_module_of_ours_has_a_part():
    for module, _path in MODULES:
        assert part_of(module) is not None, module
