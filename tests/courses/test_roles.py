"""The instructor role: granted by staff on their page or by manage.py, asked for by views."""

import pytest
from django.core.management import CommandError, call_command

from polotrainer.umpires.models import InstructorRole
from polotrainer.umpires.roles import is_instructor
from tests.people import person

pytestmark = pytest.mark.django_db


def test_nobody_is_an_instructor_until_granted_not_even_staff(client):
    sam = person("sam", staff=True)
    assert not is_instructor(sam)
    client.force_login(sam)
    assert client.get("/en/courses/new/").status_code == 403


def test_the_command_grants_lists_and_revokes(capsys):
    alice = person("alice")
    call_command("instructor", "grant", "ALICE@example.org")
    assert InstructorRole.objects.filter(user=alice).exists()
    call_command("instructor", "grant", "alice")
    assert "already" in capsys.readouterr().out
    call_command("instructor", "list")
    assert "alice\talice@example.org" in capsys.readouterr().out
    call_command("instructor", "revoke", "alice")
    assert not InstructorRole.objects.exists()


@pytest.mark.parametrize("args", [("grant",), ("grant", "nobody"), ("revoke", "nobody")])
def test_the_command_refuses_what_it_cannot_do(args):
    with pytest.raises(CommandError):
        call_command("instructor", *args)


def test_staff_grant_the_role_on_their_page(client):
    sam, alice = person("sam", staff=True), person("alice")
    client.force_login(sam)
    page = client.get("/it/courses/staff/instructors/")
    assert "Concedi il ruolo" in page.content.decode()
    response = client.post("/en/courses/staff/instructors/", {"person": "alice"})
    assert response.status_code == 302
    role = InstructorRole.objects.get(user=alice)
    assert role.granted_by == sam
    assert "alice" in client.get("/en/courses/staff/instructors/").content.decode()


def test_granting_to_nobody_says_so_and_grants_nothing(client):
    client.force_login(person("sam", staff=True))
    response = client.post("/en/courses/staff/instructors/", {"person": "ghost"})
    assert response.status_code == 400
    assert response.context["form"].errors.as_data()["person"][0].code == "no_such_person"
    assert not InstructorRole.objects.exists()


def test_revoking_asks_first_then_takes_the_role_and_the_courses_away(client):
    sam, ines = person("sam", staff=True), person("ines", instructor=True)
    client.force_login(ines)
    client.post(
        "/en/courses/new/",
        {
            "title_it": "Corso",
            "title_en": "Course",
            "track": "arena",
            "year": 2026,
            "time_zone": "Europe/Rome",
        },
    )
    course_url = f"/en/courses/{ines.courses_taught.get().pk}/"
    assert client.get(course_url).status_code == 200
    client.force_login(sam)
    url = f"/en/courses/staff/instructors/{ines.pk}/revoke/"
    assert "Take the role away" in client.get(url).content.decode()
    assert InstructorRole.objects.filter(user=ines).exists()
    client.post(url)
    assert not InstructorRole.objects.filter(user=ines).exists()
    client.force_login(ines)
    assert client.get(course_url).status_code == 403
    assert ines.courses_taught.count() == 1  # kept for when the role comes back


def test_a_trainee_cannot_reach_the_staff_page(client):
    client.force_login(person("alice"))
    assert client.get("/en/courses/staff/instructors/").status_code == 403
    assert client.post("/en/courses/staff/instructors/", {"person": "alice"}).status_code == 403
    assert not InstructorRole.objects.exists()
