"""The people of a certificate story, and the install's signing key.

Tests run with DEBUG off and no key in the environment; every test here gets a fresh key of its
own through the settings (an "install"), so no key file is ever read or written. Two courses:
Ines teaches course A (trainee Alice), Ivan course B (trainee Bob); Sam is staff.
"""

from dataclasses import dataclass
from datetime import datetime

import pytest
from django.contrib.auth.models import User
from django.utils import timezone, translation

from polotrainer.certificates import issuing, signing
from polotrainer.certificates.models import Certificate, Kind
from polotrainer.courses.exams.signals import exam_passed
from polotrainer.courses.models import Cohort, Course
from tests.courses.conftest import enrol, make_cohort, make_course, person


def new_key() -> str:
    """A private key as the environment variable holds it (base64url of 32 bytes)."""
    return signing.b64e(signing.generate().private_bytes_raw())


@pytest.fixture(autouse=True)
def install(settings):
    """This install's key and name, as CERTIFICATE_SIGNING_KEY and CERTIFICATE_ISSUER_NAME."""
    settings.CERTIFICATE_SIGNING_KEY = new_key()
    settings.CERTIFICATE_SIGNING_KEY_FILE = ""
    settings.CERTIFICATE_ISSUER_NAME = "Club A"
    settings.CERTIFICATE_VERIFY_URL = ""
    return settings


@pytest.fixture(autouse=True)
def english():
    """reverse() names /en/ pages, whatever an earlier test left active."""
    with translation.override("en"):
        yield


@dataclass
class World:
    instructor_a: User
    instructor_b: User
    trainee_a: User
    trainee_b: User
    staff: User
    course_a: Course
    course_b: Course
    cohort_a: Cohort
    cohort_b: Cohort
    certificate_a: Certificate
    certificate_b: Certificate


def pass_exam(
    user,
    cohort,
    attempt_id,
    score=96.5,
    when: datetime | None = None,
    title="Final",
    title_it: str | None = None,
):
    """The courses app's signal for a passed exam titled `title` (`title_it` in Italian, by
    default the English one marked "(it)", as make_course names a course)."""
    exam_passed.send(
        sender=None,
        attempt_id=attempt_id,
        user=user,
        course=cohort.course,
        cohort=cohort,
        exam_title_it=f"{title} (it)" if title_it is None else title_it,
        exam_title_en=title,
        score_percent=score,
        passed_at=when or timezone.now(),
    )
    return Certificate.objects.get(attempt_id=attempt_id, revoked_at__isnull=True)


@pytest.fixture
def world(db) -> World:
    ines = person("ines", instructor=True, name="Ines Istruttrice")
    ivan = person("ivan", instructor=True, name="Ivan Instructor")
    alice = person("alice", name="Alice Allieva")
    bob = person("bob", name="Bob Trainee")
    sam = person("sam", staff=True, name="Sam Staff")
    course_a, course_b = make_course(ines, "Course A"), make_course(ivan, "Course B")
    cohort_a, cohort_b = make_cohort(course_a, "Cohort A"), make_cohort(course_b, "Cohort B")
    enrol(cohort_a, alice)
    enrol(cohort_b, bob)
    issuing.set_name(alice, "Alice Allieva Rossi")
    issuing.set_name(bob, "Robert Trainee")
    return World(
        instructor_a=ines,
        instructor_b=ivan,
        trainee_a=alice,
        trainee_b=bob,
        staff=sam,
        course_a=course_a,
        course_b=course_b,
        cohort_a=cohort_a,
        cohort_b=cohort_b,
        certificate_a=pass_exam(alice, cohort_a, attempt_id=101, title="Exam A"),
        certificate_b=issuing.issue(user=bob, cohort=cohort_b, kind=Kind.COMPLETION, by=ivan),
    )
