"""Every refusal carries a code the type checker can hold (a StrEnum per exception, like the
engine's ReasonKey), and each enum has one message table with a message for every code, in
both languages: no raw code is ever shown, no lookup can fail with a 500."""

import ast
from enum import StrEnum
from pathlib import Path

import pytest
from django.utils import translation

from polotrainer.authoring import publishing
from polotrainer.authoring import views as authoring_views
from polotrainer.certificates import forms as certificate_forms
from polotrainer.certificates import issuing, revocations
from polotrainer.certificates import views as certificate_views
from polotrainer.clinics import answering, control, room, sessions, transfer
from polotrainer.clinics import views as clinic_views
from polotrainer.courses import assignments, enrolment
from polotrainer.courses import views as course_views
from polotrainer.courses.exams import attempts
from polotrainer.courses.exams import views as exam_views
from polotrainer.practice import tokens
from polotrainer.practice import views as practice_views
from scenarios import quiz

ROOT = Path(__file__).resolve().parents[2]

#: (the exception, its code enum, the one table of its messages)
TABLES = [
    (quiz.AnswerError, quiz.AnswerCode, quiz.ANSWER_MESSAGES),
    (tokens.TokenError, tokens.TokenCode, practice_views.TOKEN_ERRORS),
    (attempts.ExamError, attempts.ExamCode, exam_views.EXAM_ERRORS),
    (enrolment.JoinError, enrolment.JoinCode, course_views.JOIN_ERRORS),
    (assignments.AssignmentError, assignments.AssignmentCode, course_views.ASSIGNMENT_ERRORS),
    (sessions.PinError, sessions.PinCode, clinic_views.PIN_ERRORS),
    (sessions.SessionError, sessions.SessionCode, clinic_views.SESSION_ERRORS),
    (room.JoinError, room.JoinCode, clinic_views.JOIN_ERRORS),
    (room.TokenError, room.PassCode, clinic_views.PASS_ERRORS),
    (answering.AnswerRefused, answering.Refusal, clinic_views.REFUSALS),
    (control.ControlError, control.ControlCode, clinic_views.CONTROL_ERRORS),
    (transfer.TransferError, transfer.TransferCode, clinic_views.IMPORT_ERRORS),
    (issuing.NameProblem, issuing.NameCode, certificate_forms.NAME_ERRORS),
    (revocations.ListProblem, revocations.ListCode, certificate_views.LIST_ERRORS),
    (publishing.ShareError, publishing.ShareCode, authoring_views.SHARE_ERRORS),
]
IDS = [f"{error.__module__}.{error.__name__}" for error, _code, _table in TABLES]


@pytest.mark.parametrize(("error", "code", "table"), TABLES, ids=IDS)
def test_every_code_has_a_message_in_both_languages(error, code, table):
    assert issubclass(code, StrEnum)
    assert set(table) == set(code), f"{code.__name__}: codes and messages differ"
    for member in code:
        with translation.override("en"):
            english = str(table[member])
        with translation.override("it"):
            italian = str(table[member])
        assert english and italian and english != italian, (member, english)


@pytest.mark.parametrize(("error", "code", "table"), TABLES, ids=IDS)
def test_the_exception_is_raised_with_its_enum(error, code, table):
    """Every raise names a member of the enum (so mypy holds it), never a bare string."""
    source = Path(__import__(error.__module__, fromlist=["_"]).__file__)
    raised = []
    for node in ast.walk(ast.parse(source.read_text("utf-8"))):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == error.__name__:
            raised.append(node.args[0] if node.args else None)
    assert raised, f"{error.__name__} is never raised in {source.name}"
    for arg in raised:
        assert not isinstance(arg, ast.Constant), ast.unparse(arg)
    annotation = error.__init__.__annotations__["code"]
    assert annotation in (code, code.__name__), annotation


def test_a_clinic_tells_apart_no_pass_and_an_unanswered_question():
    """The two "missing" of clinics/views.py are two codes of two enums now."""
    assert room.PassCode.NO_PASS not in set(quiz.AnswerCode)
    assert "missing" not in {str(c) for c in room.PassCode}
    with translation.override("en"):
        assert "join it with a nickname" in str(clinic_views.PASS_ERRORS[room.PassCode.NO_PASS])
        assert quiz.answer_message(quiz.AnswerCode.MISSING) == "Please answer this question."


def test_no_view_shows_a_raw_code_as_its_message():
    """No `.get(code, code)` (or `.get(x.code, x.code)`, `.get(m.error, m.error)`) in the apps."""
    found = []
    for base in ("polotrainer", "scenarios"):
        for path in (ROOT / base).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text("utf-8"))):
                if (
                    isinstance(node, ast.Call)
                    and getattr(node.func, "attr", None) == "get"
                    and len(node.args) == 2
                    and ast.dump(node.args[0]) == ast.dump(node.args[1])
                    and any(w in ast.unparse(node.args[0]) for w in ("code", "error"))
                ):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == []
