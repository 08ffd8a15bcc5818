"""One home for every concept: each is defined once, and nothing else in the apps does its
work by hand. Read from the source with ast (every module of polotrainer/ and scenarios/,
migrations left out), so a second copy fails here before it can drift from the first.

- the CSV stream: polotrainer/web/downloads.py (csv.writer and its file object)
- QR drawing: polotrainer/web/qr.py (segno)
- the spot conversion: scenarios/spots.py (FieldSpot.from_engine, to_engine)
- the answer-error messages and every refusal's messages: one table per code enum
  (tests/site/test_error_codes.py checks each table is complete in both languages)
- the scope picker's fields: scenarios/forms.py; the plural count: polotrainer/web/plurals.py
"""

import ast
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def sources() -> dict[str, ast.Module]:
    out = {}
    for base in ("polotrainer", "scenarios"):
        for path in sorted((ROOT / base).rglob("*.py")):
            if "migrations" not in path.parts:
                out[path.relative_to(ROOT).as_posix()] = ast.parse(path.read_text("utf-8"))
    return out


SOURCES = sources()


def definitions(name: str) -> list[str]:
    """Where a function or class called `name` is defined (a method counts too)."""
    return [
        path
        for path, tree in SOURCES.items()
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.ClassDef) and node.name == name
    ]


def _names(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if isinstance(node, ast.ImportFrom):
        return [node.module or ""]
    return []


def importers(module: str) -> list[str]:
    return sorted(
        {
            path
            for path, tree in SOURCES.items()
            for node in ast.walk(tree)
            for name in _names(node)
            if name == module or name.startswith(module + ".")
        }
    )


def calls(attribute: str, of: str) -> list[str]:
    """Where `<of>.<attribute>(...)` is called."""
    return [
        path
        for path, tree in SOURCES.items()
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == attribute
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == of
    ]


def test_one_csv_stream():
    assert calls("writer", "csv") == ["polotrainer/web/downloads.py"]
    assert definitions("csv_response") == ["polotrainer/web/downloads.py"]
    # No file object for csv.writer anywhere else (the `_Echo` buffer was written four times).
    writers = [
        path
        for path, tree in SOURCES.items()
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef)
        and any(isinstance(f, ast.FunctionDef) and f.name == "write" for f in node.body)
    ]
    assert writers == ["polotrainer/web/downloads.py"]


def test_one_qr_drawing():
    assert importers("segno") == ["polotrainer/web/qr.py"]
    assert Counter(calls("svg_inline", "qr")) == Counter({"polotrainer/web/qr.py": 1})


def test_one_spot_conversion():
    assert definitions("FieldSpot") == ["scenarios/spots.py"]
    assert definitions("from_engine") == ["scenarios/spots.py"]
    assert definitions("to_engine") == ["scenarios/spots.py"]


MESSAGE_TABLES = ("ERRORS", "MESSAGES", "REFUSALS")


def tables() -> dict[str, ast.Dict]:
    """Every module-level table of messages: a dict named ..._ERRORS, ..._MESSAGES or REFUSALS."""
    out = {}
    for path, tree in SOURCES.items():
        for node in tree.body:
            target = node.target if isinstance(node, ast.AnnAssign) else None
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                target = node.targets[0]
            if (
                isinstance(target, ast.Name)
                and target.id.endswith(MESSAGE_TABLES)
                and isinstance(node.value, ast.Dict)
            ):
                out[f"{path}:{target.id}"] = node.value
    return out


def test_every_message_table_is_keyed_by_its_code_enum_and_each_enum_has_one():
    keyed_by: dict[str, list[str]] = {}
    for name, table in tables().items():
        enums = set()
        for key in table.keys:
            assert isinstance(key, ast.Attribute), f"{name}: a key that is no enum member"
            enums.add(ast.unparse(key.value))
        assert len(enums) == 1, f"{name} mixes codes of {sorted(enums)}"
        keyed_by.setdefault(enums.pop(), []).append(name)
    assert {enum: names for enum, names in keyed_by.items() if len(names) > 1} == {}
    assert "AnswerCode" in keyed_by and len(keyed_by) >= 15


def test_the_answer_errors_have_one_table_in_the_quiz_core():
    homes = [name for name in tables() if name.endswith(":ANSWER_MESSAGES")]
    assert homes == ["scenarios/quiz.py:ANSWER_MESSAGES"]
    # Nobody else spells those words out: each English message occurs once in the apps.
    table = tables()["scenarios/quiz.py:ANSWER_MESSAGES"]
    for value in table.values:
        assert isinstance(value, ast.Call)
        text = ast.literal_eval(value.args[0])
        holders = [p for p, tree in SOURCES.items() if _has_string(tree, text)]
        assert holders == ["scenarios/quiz.py"], (text, holders)


def _has_string(tree: ast.Module, text: str) -> bool:
    return any(isinstance(n, ast.Constant) and n.value == text for n in ast.walk(tree))


def test_one_scope_picker():
    for name in ("RuleChoice", "SectionChoice", "ScenarioChoice", "ScopeForm", "Scope"):
        assert definitions(name) == ["scenarios/forms.py"] or definitions(name) == [
            "scenarios/scope.py"
        ], name
    assert definitions("resolve") == ["scenarios/scope.py"]


def test_one_plural_count():
    """The spot's words and the templates' filter count a measure alike (quiz._plural was a
    second, slightly different copy)."""
    assert definitions("plural_count") == ["polotrainer/web/plurals.py"]
    assert definitions("_plural") == []


def _is_a_mark(node: ast.AST) -> bool:
    """`x.correct`, `correct` or `ok`: a question's mark, right or not."""
    if isinstance(node, ast.Attribute):
        return node.attr == "correct"
    return isinstance(node, ast.Name) and node.id in ("correct", "ok")


def _counts_marks(node: ast.AST) -> bool:
    """`sum(x.correct for ...)` or `sum(1 for ... if ok)`: the right marks counted by hand."""
    if not (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "sum"
        and node.args
        and isinstance(node.args[0], ast.GeneratorExp)
    ):
        return False
    generator = node.args[0]
    conditions = [c for g in generator.generators for c in g.ifs]
    return _is_a_mark(generator.elt) or any(_is_a_mark(c) for c in conditions)


def test_one_count_of_the_right_marks():
    """Practice, exams, offline sync and the umpire's progress count a score alike."""
    assert definitions("count_right") == ["scenarios/quiz.py"]
    by_hand = [
        f"{path}:{node.lineno}"
        for path, tree in SOURCES.items()
        for node in ast.walk(tree)
        if _counts_marks(node)
    ]
    assert len(by_hand) == 1 and by_hand[0].startswith("scenarios/quiz.py:"), by_hand


def test_the_count_of_right_marks_is_caught_by_hand():
    assert _counts_marks(ast.parse("sum(1 for ok in marks.values() if ok)").body[0].value)
    assert _counts_marks(ast.parse("sum(a.correct for a in answers)").body[0].value)
    assert not _counts_marks(ast.parse("sum(1 for i in done if not i.correct)").body[0].value)


def _reaches_by_hand(node: ast.AST) -> bool:
    """`get_object_or_404(...)` filtering by a course's instructors or a cohort's members."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "get_object_or_404"
        and any(
            isinstance(k, ast.keyword)
            and k.arg is not None
            and (k.arg.endswith("instructors") or k.arg.endswith("memberships__user"))
            for k in ast.walk(node)
        )
    )


def test_one_home_for_the_access_helpers_that_404_for_someone_elses_row():
    """A course's rows are reached through courses/access.py alone: `_cohort_for` and
    `_taught_cohort` were two names (in four apps) for one query."""
    for name in ("taught", "joined", "taught_course", "taught_cohort"):
        homes = [
            path
            for path, tree in SOURCES.items()
            for node in tree.body
            if isinstance(node, ast.FunctionDef) and node.name == name
        ]
        assert homes == ["polotrainer/courses/access.py"], name
    for name in ("_cohort_for", "_taught_cohort", "_course_for", "_taught_exam", "_own_exam"):
        assert definitions(name) == [], name
    by_hand = [
        path for path, tree in SOURCES.items() for node in ast.walk(tree) if _reaches_by_hand(node)
    ]
    assert set(by_hand) <= {"polotrainer/courses/access.py"}, by_hand
    old = "get_object_or_404(Cohort.objects.filter(course__instructors=user), pk=cohort_id)"
    assert _reaches_by_hand(ast.parse(old).body[0].value)


def test_one_field_tools_template():
    """The field input's tools (close-up, the yard nudges, the readout) are written once:
    practice and clinics include the figure, an exam's questions its `tools` partial."""
    holders = sorted(
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / "templates").rglob("*.html")
        if "data-nudge=" in path.read_text("utf-8")
    )
    assert holders == ["templates/scenarios/question_figure.html"]
    exam = (ROOT / "templates/courses/exam_attempt.html").read_text("utf-8")
    assert '{% include "scenarios/question_figure.html#tools" with field_uid=q.uid %}' in exam


def test_one_loop_sends_the_exam_reminders():
    """Opening and closing exams: one loop over the trainees without an attempt."""
    tree = SOURCES["polotrainer/notify/reminders.py"]
    loops = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "_without_attempt"
    ]
    assert len(loops) == 1
    assert definitions("_exam_notices") == ["polotrainer/notify/reminders.py"]


def test_the_dashboard_and_offline_benchmarks_share_their_throwaway_database():
    """benchmarks/offline.py was a copy of the dashboard's setup: both call one helper."""
    for name in ("dashboard", "offline"):
        text = (ROOT / "benchmarks" / f"{name}.py").read_text("utf-8")
        assert f'DB = throwaway("bench_{name}")' in text, name
        assert "tempfile" not in text and "psycopg" not in text, name


def test_the_join_page_and_an_invitation_share_what_instructors_see_and_the_sign_in():
    """notify/invitation.html was a copy of courses/join_cohort.html: it includes its partials."""
    words = ("What your instructors will see", "To join, log in or create an account")
    for text in words:
        holders = sorted(
            path.relative_to(ROOT).as_posix()
            for path in (ROOT / "templates").rglob("*.html")
            if text in path.read_text("utf-8")
        )
        assert holders == ["templates/courses/join_cohort.html"], text
    invitation = (ROOT / "templates/notify/invitation.html").read_text("utf-8")
    assert '{% include "courses/join_cohort.html#notice" %}' in invitation
    assert '{% include "courses/join_cohort.html#signin" %}' in invitation


def test_the_answers_that_cross_layers_are_typed():
    """The quiz core's entry points take a Scenario row and give and take typed answers
    (scenarios/questions.py Answer, the engine's point as scenarios/spots.py EnginePoint):
    no `Any` where an answer or a scenario crosses into another app."""
    from typing import Any, get_type_hints

    from scenarios import questions, quiz
    from scenarios.models import Scenario

    assert definitions("EnginePoint") == ["scenarios/spots.py"]
    hints = {
        "Marked.given": get_type_hints(quiz.Marked)["given"],
        "Marked.right": get_type_hints(quiz.Marked)["right"],
        "read_one": get_type_hints(quiz.read_one)["return"],
        "grade": get_type_hints(quiz.grade)["given"],
        "checked": get_type_hints(quiz.checked)["given"],
        "form_values": get_type_hints(quiz.form_values)["given"],
        "why_not": get_type_hints(quiz.why_not)["given"],
        "answer_text": get_type_hints(quiz.answer_text)["value"],
        "Question.parse": get_type_hints(questions.Question.parse)["return"],
        "Question.right_answer": get_type_hints(questions.Question.right_answer)["return"],
        "Question.is_correct": get_type_hints(questions.Question.is_correct)["answer"],
    }
    for where, hint in hints.items():
        assert hint is not Any and "Any" not in str(hint), (where, hint)
        assert "EnginePoint" in str(hint), (where, hint)
    model = {"Scenario": Scenario}
    assert get_type_hints(quiz.pose, localns=model)["scenario"] is Scenario
    assert get_type_hints(quiz.variant_of, localns=model)["scenario"] is Scenario
