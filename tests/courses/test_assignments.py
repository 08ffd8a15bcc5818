"""Assignments: setting them (and refusing bad ones whole), progress, the next question."""

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.contrib.messages import get_messages
from django.utils import timezone

from polotrainer.courses import assignments
from polotrainer.courses.models import Assignment, AssignmentScenario
from tests.content import plain_scenario as make_scenario
from tests.people import answer, enrol, set_assignment

pytestmark = pytest.mark.django_db


def _form(**extra):
    data = {
        "scope": "sections",
        "questions": 5,
        "due_on": (timezone.localdate() + timedelta(days=3)).isoformat(),
        "note": "Before Saturday",
    }
    data.update(extra)
    return data


def test_a_title_names_sections_as_the_rulebook_numbers_them():
    from scenarios.models import Section
    from scenarios.scope import titles

    parts = [
        Section(ref="3.a", rule_id=3, position=1, title_it="Tra i periodi", title_en="Between"),
        Section(ref="3.summary", rule_id=3, position=9, title_it="In sintesi", title_en="Summary"),
    ]
    assert titles("sections", None, parts, 0) == {
        "it": "Sezioni 3.a, 3 In sintesi",
        "en": "Sections 3.a, 3 Summary",
    }


def test_an_instructor_sets_practice_on_sections(client, world):
    client.force_login(world.instructor_a)
    section = world.rulebook["3a-one"].section
    url = f"/en/courses/cohort/{world.cohort_a.pk}/assignments/new/"
    response = client.post(url, _form(sections=[section.pk]))
    assert response.status_code == 302
    made = Assignment.objects.exclude(pk=world.assignment_a.pk).get(cohort=world.cohort_a)
    assert (made.title_en, made.title_it) == ("Section 3.a", "Sezione 3.a")
    assert set(made.scenarios.values_list("slug", flat=True)) == {"sub-one", "sub-two"}
    assert made.set_by == world.instructor_a and made.note == "Before Saturday"


def test_a_rule_or_chosen_situations_freeze_their_live_scenarios(client, world):
    client.force_login(world.instructor_a)
    url = f"/en/courses/cohort/{world.cohort_a.pk}/assignments/new/"
    rule = world.rulebook["3b"].rule
    client.post(url, _form(scope="rule", rule=rule.pk))
    chosen = [world.rulebook["21a"].pk, world.rulebook["3b"].pk]
    client.post(url, _form(scope="scenarios", scenarios=chosen))
    by_rule, by_choice = Assignment.objects.filter(cohort=world.cohort_a).order_by("pk")[1:]
    assert by_rule.title_en == "Rule 3: Rule title 3"
    assert by_rule.scenarios.count() == 3
    assert by_choice.title_en == "2 chosen situations"
    assert by_choice.title_it == "2 situazioni scelte"
    # Content loaded later does not change what was set.
    make_scenario(world.rulebook["3b"].section, "sub-new")
    assert by_rule.scenarios.count() == 3


def test_due_dates_end_at_midnight_in_the_courses_time_zone(world):
    world.course_a.time_zone = "America/New_York"
    world.course_a.save()
    day = timezone.localdate() + timedelta(days=2)
    made = set_assignment(world.cohort_a, [world.rulebook["3b"].section], days=2)
    end = datetime.combine(
        day + timedelta(days=1), datetime.min.time(), ZoneInfo("America/New_York")
    )
    assert made.due_on == day and made.due_at == end


def test_moving_the_course_to_another_time_zone_moves_the_due_times(client, world):
    client.force_login(world.instructor_a)
    course = world.course_a
    client.post(
        f"/en/courses/{course.pk}/edit/",
        {
            "title_it": course.title_it,
            "title_en": course.title_en,
            "track": "arena",
            "year": 2026,
            "time_zone": "Asia/Tokyo",
        },
    )
    world.assignment_a.refresh_from_db()
    assert world.assignment_a.due_at.utcoffset() is not None
    assert world.assignment_a.due_at == assignments.end_of(
        world.assignment_a.due_on, type(course).objects.get(pk=course.pk)
    )
    assert world.assignment_a.due_at.astimezone(ZoneInfo("Asia/Tokyo")).hour == 0


@pytest.mark.parametrize(
    ("extra", "field", "code"),
    [
        ({"due_on": "2000-01-01", "sections": "S"}, "due_on", "past_due"),
        ({"scope": "sections"}, "sections", "no_sections"),
        ({"scope": "rule"}, "rule", "no_rule"),
        ({"scope": "scenarios"}, "scenarios", "no_scenarios"),
        ({"questions": 0, "sections": "S"}, "questions", "min_value"),
        ({"due_on": "not a date", "sections": "S"}, "due_on", "invalid"),
    ],
)
def test_a_bad_assignment_says_why_and_saves_nothing(client, world, extra, field, code):
    client.force_login(world.instructor_a)
    before = (Assignment.objects.count(), AssignmentScenario.objects.count())
    data = _form(**extra)
    if data.get("sections") == "S":
        data["sections"] = [world.rulebook["3b"].section.pk]
    response = client.post(f"/en/courses/cohort/{world.cohort_a.pk}/assignments/new/", data)
    assert response.status_code == 400
    assert code in [e.code for e in response.context["form"].errors.as_data()[field]] or (
        response.context["error_code"] == code
    )
    assert (Assignment.objects.count(), AssignmentScenario.objects.count()) == before


def test_an_assignment_with_no_live_scenario_is_refused(client, world):
    client.force_login(world.instructor_a)
    lonely = world.rulebook["21a"]
    lonely.retired = True
    lonely.save()
    before = Assignment.objects.count()
    with pytest.raises(assignments.AssignmentError) as excinfo:
        set_assignment(world.cohort_a, [lonely.section])
    assert excinfo.value.code == "no_scenarios"
    response = client.post(
        f"/en/courses/cohort/{world.cohort_a.pk}/assignments/new/",
        _form(scope="scenarios", scenarios=[lonely.pk]),
    )
    assert response.status_code == 400
    assert Assignment.objects.count() == before


def test_a_past_due_date_is_said_in_italian_too(client, world):
    client.force_login(world.instructor_a)
    response = client.post(
        f"/it/courses/cohort/{world.cohort_a.pk}/assignments/new/",
        _form(due_on="2000-01-01", sections=[world.rulebook["3b"].section.pk]),
    )
    assert "La data di scadenza è nel passato" in response.content.decode()


def test_progress_counts_only_answers_to_its_scenarios_after_it_was_set(world):
    alice, one, two = world.trainee_a, world.rulebook["3a-one"], world.rulebook["3a-two"]
    set_at = world.assignment_a.created_at
    answer(alice, one, correct=True, when=set_at - timedelta(minutes=5))  # before it was set
    answer(alice, world.rulebook["21a"], correct=True)  # another scenario
    answer(alice, one, correct=True)
    answer(alice, two, correct=False)
    answer(world.trainee_b, one, correct=True)  # someone else
    p = assignments.progress([world.assignment_a], [alice.pk])[(world.assignment_a.pk, alice.pk)]
    assert (p.answered, p.right, p.target, p.done, p.status) == (2, 1, 3, False, "open")
    answer(alice, two, correct=True)
    p = assignments.progress([world.assignment_a], [alice.pk])[(world.assignment_a.pk, alice.pk)]
    assert (p.answered, p.right, p.done, p.late, p.percent) == (3, 2, True, False, 100)


def test_answers_before_joining_never_count(world):
    bob = world.trainee_a.__class__.objects.create_user("carol", "carol@example.org", "x")
    one = world.rulebook["3a-one"]
    answer(bob, one, correct=True)  # after the assignment was set, but before joining
    enrol(world.cohort_a, bob)
    answer(bob, one, correct=False)
    p = assignments.progress([world.assignment_a], [bob.pk])[(world.assignment_a.pk, bob.pk)]
    assert (p.answered, p.right) == (1, 0)


def test_done_after_the_due_time_is_done_late(world):
    Assignment.objects.filter(pk=world.assignment_a.pk).update(
        due_at=timezone.now() - timedelta(minutes=1)
    )
    world.assignment_a.refresh_from_db()
    for _ in range(3):
        answer(world.trainee_a, world.rulebook["3a-one"])
    alice = world.trainee_a.pk
    p = assignments.progress([world.assignment_a], [alice])[(world.assignment_a.pk, alice)]
    assert (p.done, p.late, p.status) == (True, True, "late")
    assert assignments.Progress(3, answered=1, overdue=True).status == "overdue"


def test_next_goes_to_an_unanswered_situation_through_practice_and_back(client, world):
    client.force_login(world.trainee_a)
    answer(world.trainee_a, world.rulebook["3a-one"])
    url = f"/en/courses/assignment/{world.assignment_a.pk}/next/"
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"].startswith("/en/practice/sub-two/")
    assert response["Location"].endswith(f"?then={url}")
    told = [str(m) for m in get_messages(response.wsgi_request)]
    assert told == ["Section 3.a: 1 of 3 questions answered."]


def test_next_on_a_done_assignment_goes_back_to_it(client, world):
    client.force_login(world.trainee_a)
    for _ in range(3):
        answer(world.trainee_a, world.rulebook["3a-one"])
    url = f"/en/courses/assignment/{world.assignment_a.pk}/next/"
    response = client.get(url, follow=True)
    assert response.redirect_chain[-1][0] == f"/en/courses/assignment/{world.assignment_a.pk}/"
    assert "Assignment done: 3 of 3 answers right." in response.content.decode()


def test_what_is_due_is_on_the_home_page_and_in_my_courses(client, world):
    client.force_login(world.trainee_a)
    home = client.get("/en/").content.decode()
    assert "Due in your courses" in home
    assert f'href="/en/courses/assignment/{world.assignment_a.pk}/"' in home
    assert "0 of 3 answered" in home
    mine = client.get("/en/courses/").content.decode()
    assert "0 answered, target 3 · 0 right" in mine
    for _ in range(3):
        answer(world.trainee_a, world.rulebook["3a-two"])
    assert "Due in your courses" not in client.get("/en/").content.decode()
    assert "3 answered, target 3 · 3 right" in client.get("/en/courses/").content.decode()


def test_instructors_change_the_due_date_or_withdraw_an_assignment(client, world):
    client.force_login(world.instructor_a)
    item = world.assignment_a
    later = timezone.localdate() + timedelta(days=30)
    response = client.post(
        f"/en/courses/assignment/{item.pk}/edit/",
        {"questions": 8, "due_on": later.isoformat(), "note": "More time"},
    )
    assert response.status_code == 302
    item.refresh_from_db()
    assert (item.questions, item.due_on, item.note) == (8, later, "More time")
    assert item.due_at == assignments.end_of(later, item.cohort.course)
    past = client.post(
        f"/en/courses/assignment/{item.pk}/edit/",
        {"questions": 8, "due_on": "2001-01-01", "note": ""},
    )
    assert past.status_code == 400
    item.refresh_from_db()
    assert item.due_on == later
    client.post(f"/en/courses/assignment/{item.pk}/delete/")
    assert not Assignment.objects.filter(pk=item.pk).exists()
