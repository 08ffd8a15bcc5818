"""Making a session: from chosen situations, a rule, sections or a cohort's assignment."""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from polotrainer.clinics import sessions
from polotrainer.clinics.models import ClinicSession, Round
from polotrainer.courses import assignments
from polotrainer.courses.models import Cohort, Course
from scenarios.models import Rule, Scenario, Section
from tests.clinics.support import BOOL_NUMBER, PLACE

pytestmark = pytest.mark.django_db


def _client(user):
    client = Client()
    client.force_login(user)
    return client


def test_from_chosen_situations_in_rulebook_order(bundled_content, ines):
    chosen = list(Scenario.objects.filter(slug__in=[PLACE, BOOL_NUMBER]))
    created = sessions.create(ines, "C", sessions.Source("scenarios", scenarios=chosen), rounds=5)
    slugs = list(created.rounds.order_by("position").values_list("scenario__slug", flat=True))
    assert slugs == [BOOL_NUMBER, PLACE]
    assert len(created.pin) == 6 and created.pin.isdigit()
    assert all(r.seed > 0 for r in created.rounds.all())


def test_from_a_rule_capped_at_the_number_of_rounds(bundled_content, ines):
    rule = Rule.objects.get(number=21)
    created = sessions.create(ines, "C", sessions.Source("rule", rule=rule), rounds=4)
    assert created.rounds.count() == 4
    assert set(created.rounds.values_list("scenario__rule_id", flat=True)) == {rule.pk}


def test_from_sections_and_from_an_assignment_through_the_form(bundled_content, ines):
    section = Section.objects.get(ref="21.d")
    response = _client(ines).post(
        "/en/clinics/new/",
        {"title": "Sections", "source": "sections", "sections": [section.pk], "rounds": 3},
    )
    made = ClinicSession.objects.get(title="Sections")
    assert response["Location"] == f"/en/clinics/{made.pk}/"
    assert set(
        Round.objects.filter(session=made).values_list("scenario__section_id", flat=True)
    ) == {section.pk}
    course = Course.objects.create(title_it="c", title_en="c", track="outdoor", year=2026)
    course.instructors.add(ines)
    cohort = Cohort.objects.create(course=course, name="Spring", join_code="ABCDEF")
    task = assignments.create(
        cohort,
        scope="scenarios",
        questions=2,
        due_on=timezone.localdate() + timedelta(days=3),
        scenarios=list(Scenario.objects.filter(slug=PLACE)),
    )
    _client(ines).post(
        "/en/clinics/new/",
        {"title": "Homework", "source": "assignment", "assignment": task.pk, "rounds": 5},
    )
    made = ClinicSession.objects.get(title="Homework")
    assert list(made.rounds.values_list("scenario__slug", flat=True)) == [PLACE]
    assert "Spring" in made.source


def test_another_instructors_assignment_cannot_be_chosen(bundled_content, ines, ivan):
    course = Course.objects.create(title_it="c", title_en="c", track="outdoor", year=2026)
    course.instructors.add(ivan)
    cohort = Cohort.objects.create(course=course, name="Ivan's", join_code="GHJKLM")
    task = assignments.create(
        cohort,
        scope="scenarios",
        questions=2,
        due_on=timezone.localdate() + timedelta(days=3),
        scenarios=list(Scenario.objects.filter(slug=PLACE)),
    )
    response = _client(ines).post(
        "/en/clinics/new/",
        {"title": "Theft", "source": "assignment", "assignment": task.pk, "rounds": 5},
    )
    assert response.status_code == 400
    assert not ClinicSession.objects.exists()


def test_a_source_without_a_choice_says_what_to_choose(bundled_content, ines):
    response = _client(ines).post("/en/clinics/new/", {"title": "x", "source": "rule", "rounds": 3})
    assert response.status_code == 400 and "Choose a rule." in response.content.decode()
    assert not ClinicSession.objects.exists()


def test_pins_are_unique_among_running_sessions_only(bundled_content, ines, monkeypatch):
    draws = iter(["111111", "111111", "222222"])
    monkeypatch.setattr(sessions, "draw_pin", lambda: next(draws))
    chosen = list(Scenario.objects.filter(slug=BOOL_NUMBER))
    first = sessions.create(ines, "A", sessions.Source("scenarios", scenarios=chosen), rounds=1)
    second = sessions.create(ines, "B", sessions.Source("scenarios", scenarios=chosen), rounds=1)
    assert (first.pin, second.pin) == ("111111", "222222")
    ClinicSession.objects.filter(pk=first.pk).update(phase="ended")
    monkeypatch.setattr(sessions, "draw_pin", lambda: "111111")
    third = sessions.create(ines, "C", sessions.Source("scenarios", scenarios=chosen), rounds=1)
    assert third.pin == "111111"
