"""The scope (a whole rule, sections or chosen situations) has one home in scenarios/: one set
of fields, one set of messages for a missing choice, one picker template, used by assignments,
exams and clinics."""

from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.utils import translation

from polotrainer.clinics.forms import SessionForm
from polotrainer.courses.exams.forms import ExamForm
from polotrainer.courses.forms import AssignmentForm
from scenarios.forms import RuleChoice, ScenarioChoice, ScopeForm, SectionChoice
from scenarios.scope import Scope

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def test_assignments_and_clinics_take_the_scope_fields_from_one_form():
    for form in (AssignmentForm, SessionForm):
        assert issubclass(form, ScopeForm)
        assert isinstance(form.base_fields["rule"], RuleChoice)
        assert isinstance(form.base_fields["sections"], SectionChoice)
        assert isinstance(form.base_fields["scenarios"], ScenarioChoice)


@pytest.mark.django_db
def test_an_exam_ticks_its_situations_with_the_same_field(bundled_content):
    from datetime import UTC

    form = ExamForm(zone=UTC)
    assert isinstance(form.fields["chosen"], ScenarioChoice)


@pytest.mark.parametrize(
    ("lang", "section", "situation"),
    [
        ("en", "Tick at least one section.", "Tick at least one situation."),
        ("it", "Spunta almeno una sezione.", "Spunta almeno una situazione."),
    ],
)
@pytest.mark.django_db
def test_a_missing_choice_reads_the_same_in_an_assignment_and_a_clinic(
    bundled_content, lang, section, situation
):
    instructor = User.objects.create(username="ines")
    with translation.override(lang):
        for scope, field, message in [
            (Scope.SECTIONS, "sections", section),
            (Scope.SCENARIOS, "scenarios", situation),
        ]:
            homework = AssignmentForm(data={"scope": scope, "questions": 5, "due_on": "2030-01-01"})
            clinic = SessionForm(
                data={"title": "C", "source": scope, "rounds": 5}, instructor=instructor
            )
            assert homework.errors[field] == [message]
            assert clinic.errors[field] == [message]


def test_the_picker_is_written_once_and_included_by_the_three_forms():
    picker = "scenarios/scope.html"
    assert f'{{% include "{picker}" with choice=form.scope %}}' in (
        TEMPLATES / "courses/assignment_form.html"
    ).read_text("utf-8")
    assert f'{{% include "{picker}" with choice=form.source %}}' in (
        TEMPLATES / "clinics/new.html"
    ).read_text("utf-8")
    assert f'{{% include "{picker}#situations"' in (TEMPLATES / "courses/exam_form.html").read_text(
        "utf-8"
    )
    copies = [
        path.relative_to(TEMPLATES).as_posix()
        for path in TEMPLATES.rglob("*.html")
        if 'translate "Show every situation"' in path.read_text("utf-8")
    ]
    assert copies == [picker]


@pytest.mark.django_db
def test_the_picker_renders_the_radio_the_rule_the_sections_and_the_situations(bundled_content):
    from django.template.loader import render_to_string

    form = AssignmentForm()
    with translation.override("en"):
        html = render_to_string("scenarios/scope.html", {"form": form, "choice": form["scope"]})
        situations = {"situations": form["scenarios"]}
        alone = render_to_string("scenarios/scope.html#situations", situations)
    assert 'name="scope"' in html and 'name="rule"' in html
    assert 'name="sections"' in html and 'name="scenarios"' in html
    assert "Show every situation" in html and "Show every situation" in alone
    assert 'name="rule"' not in alone and 'name="scenarios"' in alone
