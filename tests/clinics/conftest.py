"""The people of a clinic story: Ines runs a clinic, Ivan another; phones join with nicknames
(Alice signed in, the others not). Phones are test clients with their own cookies
(tests/clinics/support.py)."""

import pytest
from django.contrib.auth.models import User

from polotrainer.clinics import state
from polotrainer.clinics.models import ClinicSession
from tests.clinics.support import BOOL_NUMBER, PLACE, make_clinic
from tests.people import person


@pytest.fixture(autouse=True)
def _fresh_snapshots():
    """Each test's database starts again at id 1, version 1: the process's snapshots of the
    previous test's sessions must go (ids are never reused in a real database)."""
    state.forget()
    yield
    state.forget()


@pytest.fixture
def ines(db) -> User:
    return person("ines", instructor=True, profile=False)


@pytest.fixture
def ivan(db) -> User:
    return person("ivan", instructor=True, profile=False)


@pytest.fixture
def alice(db) -> User:
    return person("alice", profile=False)


@pytest.fixture
def clinic(bundled_content, ines) -> ClinicSession:
    return make_clinic(ines, [BOOL_NUMBER, PLACE], title="Clinic A")
