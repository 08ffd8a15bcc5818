"""The people of a course story and the world they share.

Two courses, each with its instructor and a cohort with one trainee: Ines teaches course A
(trainee Alice), Ivan teaches course B (trainee Bob). Sam is staff. Everyone must see their own
and nothing of the other's.
"""

from dataclasses import dataclass
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.utils import timezone

from polotrainer.courses import assignments, codes
from polotrainer.courses.exams.models import Exam, Review
from polotrainer.courses.models import Assignment, Cohort, Course, Membership, Observation
from polotrainer.umpires import roles
from polotrainer.umpires.models import Profile
from scenarios.models import Rule, Section
from tests.conftest import PASSWORD
from tests.scenarios.conftest import ALL, SECTIONS, make_scenario
from tests.umpires.factories import small_rulebook


def person(username: str, *, staff: bool = False, instructor: bool = False, name: str = "") -> User:
    user = get_user_model().objects.create_user(
        username=username, email=f"{username}@example.org", password=PASSWORD, is_staff=staff
    )
    Profile.objects.create(user=user, display_name=name or username.title(), language="en")
    if instructor:
        roles.grant(user)
    return user


def make_course(teacher: User, title: str = "Umpire course") -> Course:
    course = Course.objects.create(
        title_it=f"{title} (it)", title_en=title, track="outdoor", year=2026, created_by=teacher
    )
    course.instructors.add(teacher)
    return course


def make_cohort(course: Course, name: str = "Spring", **extra) -> Cohort:
    cohort = Cohort(course=course, name=name, **extra)
    codes.give_new_code(cohort)
    return cohort


def enrol(cohort: Cohort, user: User, days_ago: int = 0) -> Membership:
    return Membership.objects.create(
        cohort=cohort, user=user, joined_at=timezone.now() - timedelta(days=days_ago)
    )


def set_assignment(cohort: Cohort, sections, questions: int = 3, days: int = 7, by=None):
    return assignments.create(
        cohort,
        scope="sections",
        sections=sections,
        questions=questions,
        due_on=timezone.localdate() + timedelta(days=days),
        by=by,
    )


@dataclass
class World:
    rulebook: dict
    instructor_a: User
    instructor_b: User
    trainee_a: User
    trainee_b: User
    staff: User
    course_a: Course
    course_b: Course
    cohort_a: Cohort
    cohort_b: Cohort
    assignment_a: Assignment
    assignment_b: Assignment
    observation_a: Observation
    observation_b: Observation


@pytest.fixture
def world(db) -> World:
    rulebook = small_rulebook()
    sections = [rulebook["3a-one"].section]
    ines = person("ines", instructor=True, name="Ines Istruttrice")
    ivan = person("ivan", instructor=True, name="Ivan Instructor")
    alice = person("alice", name="Alice Allieva")
    bob = person("bob", name="Bob Trainee")
    sam = person("sam", staff=True, name="Sam Staff")
    course_a, course_b = make_course(ines, "Course A"), make_course(ivan, "Course B")
    cohort_a, cohort_b = make_cohort(course_a, "Cohort A"), make_cohort(course_b, "Cohort B")
    enrol(cohort_a, alice, days_ago=10)
    enrol(cohort_b, bob, days_ago=10)
    today = timezone.localdate()
    return World(
        rulebook=rulebook,
        instructor_a=ines,
        instructor_b=ivan,
        trainee_a=alice,
        trainee_b=bob,
        staff=sam,
        course_a=course_a,
        course_b=course_b,
        cohort_a=cohort_a,
        cohort_b=cohort_b,
        assignment_a=set_assignment(cohort_a, sections, by=ines),
        assignment_b=set_assignment(cohort_b, sections, by=ivan),
        observation_a=Observation.objects.create(
            cohort=cohort_a,
            trainee=alice,
            observer=ines,
            observed_on=today,
            game="Red v Blue, Roma",
            outcome="satisfactory",
            notes="Secret note about Alice",
        ),
        observation_b=Observation.objects.create(
            cohort=cohort_b,
            trainee=bob,
            observer=ivan,
            observed_on=today,
            game="Green v White, Milano",
            outcome="needs_work",
            notes="Secret note about Bob",
        ),
    )


@pytest.fixture
def as_user(client):
    """Log the client in as someone (or out, with None) and return it."""

    def login(user):
        client.logout()
        if user is not None:
            client.force_login(user)
        return client

    return login


# --- exams -------------------------------------------------------------------------------------


def exam_scenarios() -> list:
    """The practice tests' four real scenarios (one per question kind), on the same rulebook as
    the world's small one (rules and sections added where missing)."""
    for position, (ref, (number, it, en)) in enumerate(SECTIONS.items()):
        rule, _ = Rule.objects.get_or_create(
            number=number,
            defaults={
                "slug": f"rule-{number}",
                "title_it": f"Regola {number}",
                "title_en": f"Rule {number}",
                "summary_it": "",
                "summary_en": "",
                "notice_it": "",
                "notice_en": "",
            },
        )
        Section.objects.get_or_create(
            ref=ref,
            defaults={
                "rule": rule,
                "position": 10 + position,
                "title_it": it,
                "title_en": en,
                "paragraphs": [{"it": f"Testo di {ref}.", "en": f"Text of {ref}."}],
            },
        )
    return [make_scenario(data) for data in ALL]


def make_exam(cohort: Cohort, scenarios, *, count: int | None = None, **settings) -> Exam:
    """An exam open now for an hour (30 minutes a sitting) drawing from `scenarios`."""
    now = timezone.now()
    values = {
        "title_it": "Esame finale",
        "title_en": "Final exam",
        "pass_percent": 95,
        "time_limit_minutes": 30,
        "opens_at": now - timedelta(hours=1),
        "closes_at": now + timedelta(hours=2),
        "attempts_allowed": 2,
        "cooldown_hours": 0,
        "review_after_submit": Review.SCORE,
        "review_after_close": Review.ANSWERS,
    } | settings
    ids = [s.pk for s in scenarios]
    part = {
        "title_it": "Tutto",
        "title_en": "Everything",
        "count": count or len(ids),
        "scenarios": ids,
    }
    return Exam.objects.create(cohort=cohort, blueprint=[part], **values)
