"""The suite's people and the courses they share: one cast for every app's tests.

Two courses, each with its instructor and a cohort with one trainee: Ines teaches course A
(trainee Alice), Ivan teaches course B (trainee Bob). Sam is staff. Everyone must see their own
and nothing of the other's. `cast()` makes them; `make_world()` (the `world` fixture) adds an
assignment and an observation on each side, the certificates' `world` a certificate each.

`person` is the one way a test makes an account: username@example.org, the suite's PASSWORD
(hashed with the fast hasher, tests/conftest.py), a Profile in English unless `profile=False`,
and the site-wide instructor role with `instructor=True`. `answer` records an answer as the
quiz core's callers do, at a chosen time.
"""

import copy
import itertools
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.utils import timezone

from polotrainer.courses import assignments, codes
from polotrainer.courses.exams.models import Exam, Review
from polotrainer.courses.models import Assignment, Cohort, Course, Membership, Observation
from polotrainer.umpires import roles
from polotrainer.umpires.models import Mode, Profile
from polotrainer.umpires.progress import Answer, Answers, Context, Person, record_answers
from tests.content import small_rulebook

PASSWORD = "correct-horse-battery-staple-42"


def person(
    username: str,
    *,
    staff: bool = False,
    instructor: bool = False,
    name: str = "",
    profile: bool = True,
) -> User:
    user = get_user_model().objects.create_user(
        username=username, email=f"{username}@example.org", password=PASSWORD, is_staff=staff
    )
    if profile:
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


@dataclass
class Cast:
    instructor_a: User
    instructor_b: User
    trainee_a: User
    trainee_b: User
    staff: User
    course_a: Course
    course_b: Course
    cohort_a: Cohort
    cohort_b: Cohort


def cast(*, joined_days_ago: int = 10) -> Cast:
    """Ines (course A, cohort A, Alice), Ivan (course B, cohort B, Bob) and Sam, staff."""
    ines = person("ines", instructor=True, name="Ines Istruttrice")
    ivan = person("ivan", instructor=True, name="Ivan Instructor")
    alice = person("alice", name="Alice Allieva")
    bob = person("bob", name="Bob Trainee")
    sam = person("sam", staff=True, name="Sam Staff")
    course_a, course_b = make_course(ines, "Course A"), make_course(ivan, "Course B")
    cohort_a, cohort_b = make_cohort(course_a, "Cohort A"), make_cohort(course_b, "Cohort B")
    enrol(cohort_a, alice, days_ago=joined_days_ago)
    enrol(cohort_b, bob, days_ago=joined_days_ago)
    return Cast(ines, ivan, alice, bob, sam, course_a, course_b, cohort_a, cohort_b)


# --- what they did ------------------------------------------------------------------------------

_nonces = itertools.count(1)


def answer(
    user,
    scenario,
    *,
    correct=True,
    seed=7,
    when=None,
    mode=Mode.PRACTICE,
    visitor="",
    question="ruling",
):
    """Record one answer through record_answers, at a chosen time."""
    who = Person(visitor=visitor) if user is None else Person(user_id=user.pk)
    (attempt,) = record_answers(
        who,
        Context(Mode(mode)),
        Answers(
            scenario_id=scenario.pk,
            seed=seed,
            content_version="test",
            items=[
                Answer(
                    question,
                    {"choice": "penalty-2"},
                    {"choice": "penalty-2" if correct else "penalty-3"},
                    correct,
                    f"n{next(_nonces)}",
                )
            ],
            time_taken_ms=4200,
            at=when,
        ),
    ).attempts
    return attempt


def days_ago(n: int, hour: int = 12) -> datetime:
    now = timezone.localtime()
    return (now - timedelta(days=n)).replace(hour=hour, minute=0, second=0, microsecond=0)


@dataclass
class World(Cast):
    """The cast with an assignment and an observation on each side."""

    rulebook: dict
    assignment_a: Assignment
    assignment_b: Assignment
    observation_a: Observation
    observation_b: Observation


def make_world() -> World:
    """The cast, the small rulebook, an assignment and an observation on each side (the
    `world` fixture, tests/conftest.py)."""
    rulebook = small_rulebook()
    sections = [rulebook["3a-one"].section]
    people = cast()
    ines, ivan = people.instructor_a, people.instructor_b
    today = timezone.localdate()
    return World(
        **vars(people),
        rulebook=rulebook,
        assignment_a=set_assignment(people.cohort_a, sections, by=ines),
        assignment_b=set_assignment(people.cohort_b, sections, by=ivan),
        observation_a=Observation.objects.create(
            cohort=people.cohort_a,
            trainee=people.trainee_a,
            observer=ines,
            observed_on=today,
            game="Red v Blue, Roma",
            outcome="satisfactory",
            notes="Secret note about Alice",
        ),
        observation_b=Observation.objects.create(
            cohort=people.cohort_b,
            trainee=people.trainee_b,
            observer=ivan,
            observed_on=today,
            game="Green v White, Milano",
            outcome="needs_work",
            notes="Secret note about Bob",
        ),
    )


def kept(make: Callable[[], Any], name: str = "world") -> tuple[Any, Any]:
    """Two fixtures for a module whose many tests (a role x URL matrix) each read the same
    world and may write to it: `make()` runs once for the module, in `module_db`, and each test
    gets its own copy of what it returned, its writes rolled back after it. Use as
    `kept_once, world = kept(make_world)` at a module's top level."""

    @pytest.fixture(scope="module", name="kept_once")
    def once(module_db, django_db_blocker) -> Any:
        with django_db_blocker.unblock():
            return make()

    @pytest.fixture(name=name)
    def each(kept_once, db) -> Any:
        return copy.deepcopy(kept_once)

    return once, each


__all__ = ["PASSWORD", "Assignment", "Cast"]
