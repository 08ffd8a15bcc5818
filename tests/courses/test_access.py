"""The role x URL matrix of the course side: 0 leaks.

Every course URL is opened (GET and POST) by an anonymous visitor, trainee A, trainee B of
another cohort, instructor A, instructor B of another course, and staff. Who may not gets the
login page, 403 or 404, sees none of side A's names or notes, and changes nothing.
"""

import pytest
from django.urls import get_resolver, reverse
from django.utils import timezone, translation

from polotrainer.courses.exams import attempts
from polotrainer.courses.exams.models import Accommodation, Exam, ExamAttempt, ExamSlot
from polotrainer.courses.models import (
    Assignment,
    AssignmentScenario,
    Cohort,
    Course,
    Membership,
    Observation,
)
from polotrainer.umpires.models import InstructorRole
from tests.content import exam_scenarios
from tests.courses.access import CASES, ROLES, SECRETS
from tests.people import kept, make_exam, make_world

pytestmark = pytest.mark.django_db


def snapshot():
    """Everything a course URL could change."""
    return (
        list(Course.objects.values_list("pk", "title_en", "track", "year", "time_zone")),
        list(Course.instructors.through.objects.values_list("course_id", "user_id")),
        list(Cohort.objects.values_list("pk", "name", "join_code", "join_enabled", "max_trainees")),
        list(Membership.objects.values_list("cohort_id", "user_id")),
        list(Assignment.objects.values_list("pk", "questions", "due_on", "note")),
        list(AssignmentScenario.objects.values_list("assignment_id", "scenario_id")),
        list(Observation.objects.values_list("pk", "outcome", "notes")),
        list(InstructorRole.objects.values_list("user_id")),
        list(Exam.objects.values_list("pk", "title_en", "pass_percent", "closes_at")),
        list(ExamAttempt.objects.values_list("pk", "finished_at", "current", "preview")),
        list(ExamSlot.objects.values_list("pk", "given", "values")),
        list(Accommodation.objects.values_list("pk", "extra_minutes", "extra_attempts")),
    )


def make_exam_world():
    """The world with an exam for each cohort and an open attempt by each trainee."""
    world = make_world()
    pool = exam_scenarios()
    world.exam_a = make_exam(
        world.cohort_a, pool, title_en="Secret exam A", title_it="Secret exam A"
    )
    world.exam_b = make_exam(world.cohort_b, pool, title_en="Exam B", title_it="Esame B")
    now = timezone.now()
    world.attempt_a = attempts.start(world.exam_a, world.trainee_a, now)
    world.attempt_b = attempts.start(world.exam_b, world.trainee_b, now)
    return world


# Made once for the module's ~480 tests (a second each under load), copied for each.
kept_once, exam_world = kept(make_exam_world, "exam_world")


def _user(world, role):
    return None if role == "anonymous" else getattr(world, role)


# What an allowed POST does is tested with its view; here every other pair is played.
MATRIX = [
    pytest.param(case, role, method, id=f"{case.id}-{role}-{method}")
    for case in CASES
    for role in ROLES
    for method in case.methods
    if not (method == "POST" and role in case.allowed)
]


@pytest.mark.parametrize(("case", "role", "method"), MATRIX)
def test_access_matrix(client, exam_world, case, role, method):
    world = exam_world
    user = _user(world, role)
    if user is not None:
        client.force_login(user)
    with translation.override("it"):  # whatever language an earlier test left active
        url = reverse(f"courses:{case.name}", args=case.args(world))
    allowed = role in case.allowed
    before = snapshot()
    response = client.get(url) if method == "GET" else client.post(url, case.extra)
    if allowed:
        assert response.status_code == case.ok
        return
    body = b"".join(response.streaming_content) if response.streaming else response.content
    text = body.decode()
    if role == "anonymous":
        assert response.status_code == 302
        # In the URL's own language (whichever an earlier test left active when reversing).
        lang = url.split("/")[1]
        assert response["Location"].startswith(f"/{lang}/account/login/?next=")
    else:
        assert response.status_code in {403, 404, 405}
    for secret in SECRETS:
        assert secret not in text
    assert snapshot() == before


def test_every_course_url_is_in_the_matrix():
    """A new course URL fails here until the table says who may open it."""
    _prefix, courses = get_resolver().namespace_dict["courses"]
    found = {name for name in courses.reverse_dict if isinstance(name, str)}
    assert found == {case.name for case in CASES}


def test_the_world_is_what_the_matrix_expects(exam_world):
    """The denials above mean something only if side A holds what SECRETS names."""
    world = exam_world
    assert world.cohort_a.name == "Cohort A"
    assert world.observation_a.notes == "Secret note about Alice"
    assert world.trainee_a.profile.display_name == "Alice Allieva"
