"""The role x URL matrix of the clinics: only the session's instructor drives it or reads its
results; a phone is whoever holds its pass. Who may not gets the log-in page, 403, 404 or a
stream with nothing in it, sees none of side A's names, and changes nothing."""

from dataclasses import dataclass

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import get_resolver, reverse

from polotrainer.clinics.models import ClinicAnswer, ClinicSession, Participant
from tests.clinics.access import CASES, INSTRUCTOR_SECRETS, NO_LOGIN, ROLES, SECRETS
from tests.clinics.support import BOOL_NUMBER, Phone, content_of, make_clinic
from tests.people import person

pytestmark = pytest.mark.django_db


@dataclass
class World:
    instructor_a: User
    instructor_b: User
    trainee: User
    staff: User
    clinic_a: ClinicSession
    clinic_b: ClinicSession
    phone: Phone


@pytest.fixture
def world(bundled_content) -> World:
    ines, ivan = person("ines", instructor=True), person("ivan", instructor=True)
    staff = person("sam")
    staff.is_staff = True
    staff.save()
    clinic_a = make_clinic(ines, [BOOL_NUMBER], title="Clinic of Ines")
    clinic_b = make_clinic(ivan, [BOOL_NUMBER], title="Clinic of Ivan")
    phone = Phone(clinic_a)
    phone.join("Anna Secret")
    return World(ines, ivan, person("tom"), staff, clinic_a, clinic_b, phone)


def snapshot():
    return (
        list(ClinicSession.objects.values_list("pk", "phase", "version", "current")),
        list(Participant.objects.values_list("pk", "nickname")),
        list(ClinicAnswer.objects.values_list("pk")),
    )


def _client(world: World, role: str) -> Client:
    if role == "participant":
        return world.phone.client
    client = Client()
    if role != "anonymous":
        client.force_login(getattr(world, role))
    return client


MATRIX = [
    pytest.param(case, role, method, id=f"{case.id}-{role}-{method}")
    for case in CASES
    for role in ROLES
    for method in case.methods
    if not (method == "POST" and role in case.allowed and case.name not in {"answer"})
]


@pytest.mark.parametrize(("case", "role", "method"), MATRIX)
def test_access_matrix(world, case, role, method):
    url = reverse(f"clinics:{case.name}", args=case.args(world))
    client = _client(world, role)
    before = snapshot()
    response = client.get(url) if method == "GET" else client.post(url, case.extra)
    body = content_of(response)
    if role in case.allowed:
        assert response.status_code == case.ok
        return
    if role in {"anonymous", "participant"} and case.name not in NO_LOGIN:
        assert response.status_code == 302
        assert "/account/login/?next=" in response["Location"]
    else:
        assert response.status_code in {204, 403, 404, 405}, response.status_code
    hidden = SECRETS if case.name in NO_LOGIN else SECRETS + INSTRUCTOR_SECRETS
    for secret in hidden:
        assert secret not in body.decode()
    assert snapshot() == before


def test_another_instructors_clinic_is_a_404_everywhere(world):
    client = _client(world, "instructor_b")
    for name in ("projector", "projector_state", "results_csv", "export", "projector_events"):
        assert client.get(reverse(f"clinics:{name}", args=[world.clinic_a.pk])).status_code == 404
    assert (
        client.post(reverse("clinics:control", args=[world.clinic_a.pk]), {"action": "end"})
    ).status_code == 404
    saved = client.post(reverse("clinics:save_set", args=[world.clinic_a.pk]), {"name": "Mine"})
    assert saved.status_code == 404
    world.clinic_a.refresh_from_db()
    assert world.clinic_a.phase == "lobby"


def test_every_clinic_url_is_in_the_matrix():
    _prefix, clinics = get_resolver().namespace_dict["clinics"]
    found = {name for name in clinics.reverse_dict if isinstance(name, str)}
    assert found == {case.name for case in CASES}


def test_the_world_is_what_the_matrix_expects(world):
    assert world.clinic_a.title == "Clinic of Ines"
    assert Participant.objects.get(session=world.clinic_a).nickname == "Anna Secret"
