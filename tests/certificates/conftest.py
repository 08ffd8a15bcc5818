"""The people of a certificate story, and the install's signing key.

Tests run with DEBUG off and no key in the environment; every test here gets a fresh key of its
own through the settings (an "install"), so no key file is ever read or written. The suite's
cast (tests/people.py): Ines teaches course A (trainee Alice), Ivan course B (trainee Bob); Sam
is staff; each trainee has a certificate.
"""

from dataclasses import dataclass

import pytest
from django.utils import translation

from polotrainer.certificates import issuing
from polotrainer.certificates.models import Certificate, Kind
from tests.certificates.support import new_key, pass_exam
from tests.people import Cast, cast


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
class World(Cast):
    certificate_a: Certificate
    certificate_b: Certificate


@pytest.fixture
def world(db) -> World:
    people = cast(joined_days_ago=0)
    alice, bob = people.trainee_a, people.trainee_b
    issuing.set_name(alice, "Alice Allieva Rossi")
    issuing.set_name(bob, "Robert Trainee")
    return World(
        **vars(people),
        certificate_a=pass_exam(alice, people.cohort_a, attempt_id=101, title="Exam A"),
        certificate_b=issuing.issue(
            user=bob, cohort=people.cohort_b, kind=Kind.COMPLETION, by=people.instructor_b
        ),
    )
