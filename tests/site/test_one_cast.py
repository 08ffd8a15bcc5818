"""One cast and one rulebook for the whole suite: the tests' own helpers have one home each.

- people, courses, cohorts, enrolments, assignments, exams and recorded answers: tests/people.py
  (`person` is the one way a shared helper makes an account);
- the rulebook material (the small rulebooks, one scenario per kind, bundled entries):
  tests/content.py;
- fixtures every app uses: tests/conftest.py; an app's conftest holds only its own fixtures and
  imports no other conftest; what another app needs of it is in its support.py.

Read from the suite's source with ast, so a copy fails here before it drifts.
"""

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
TREES = {
    path.relative_to(TESTS).as_posix(): ast.parse(path.read_text("utf-8"))
    for path in sorted(TESTS.rglob("*.py"))
}
SHARED = ("people.py", "content.py", "conftest.py")


def _imports(tree: ast.Module) -> list[str]:
    return [
        node.module or ""
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("tests")
    ]


def _app(path: str) -> str:
    return path.split("/")[0] if "/" in path else ""


def test_no_conftest_imports_another_conftest():
    found = [
        (path, module)
        for path, tree in TREES.items()
        if path.endswith("conftest.py")
        for module in _imports(tree)
        if module.endswith(".conftest") or module == "tests.conftest"
    ]
    assert found == []


def test_no_test_reads_another_apps_conftest():
    """A browser test may take the fixtures of the app it drives (tests/browser/test_authoring.py
    takes authoring's); nothing else reaches into another app's conftest."""
    found = [
        (path, module)
        for path, tree in TREES.items()
        if _app(path) != "browser"
        for module in _imports(tree)
        if module.endswith(".conftest") and module.split(".")[1] != _app(path)
    ]
    assert found == []


def _defined(name: str) -> list[str]:
    return [
        path
        for path, tree in TREES.items()
        for node in tree.body
        if isinstance(node, ast.FunctionDef) and node.name == name
    ]


def test_each_shared_helper_is_defined_once():
    homes = {
        "person": "people.py",
        "make_course": "people.py",
        "make_cohort": "people.py",
        "enrol": "people.py",
        "set_assignment": "people.py",
        "make_exam": "people.py",
        "cast": "people.py",
        "days_ago": "people.py",
        "make_scenario": "content.py",
        "create_rulebook": "content.py",
        "small_rulebook": "content.py",
        "exam_scenarios": "content.py",
        "create_drill_content": "content.py",
        "bundled": "content.py",
        "make_clinic": "clinics/support.py",
        "new_key": "certificates/support.py",
        "pass_exam": "certificates/support.py",
    }
    found = {name: _defined(name) for name in homes}
    # tests/browser's `bundled` fixtures load the bundled content into a live server's database
    found["bundled"] = [p for p in found["bundled"] if not p.startswith("browser/")]
    assert found == {name: [home] for name, home in homes.items()}


def _creates_users(tree: ast.Module) -> int:
    return sum(
        1
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in {"create_user", "create_superuser"}
    )


def test_the_shared_homes_make_accounts_through_person_only():
    shared = {
        path: _creates_users(tree)
        for path, tree in TREES.items()
        if path.endswith(SHARED) or path.endswith("support.py")
    }
    assert {path: n for path, n in shared.items() if n} == {"people.py": 1}


def test_this_test_would_see_a_conftest_importing_another():
    tree = ast.parse("from tests.courses.conftest import person\n")
    assert _imports(tree) == ["tests.courses.conftest"]
    assert _creates_users(ast.parse("User.objects.create_user('x')")) == 1
