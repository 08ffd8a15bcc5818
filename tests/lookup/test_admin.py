"""Staff look things up in Django's admin: staff only, in both languages, searchable, and
read-only where a change would break integrity (attempts, signed certificates, clinics)."""

import pytest
from django.utils import timezone

from polotrainer.certificates.models import Certificate
from polotrainer.courses.exams.models import ExamAttempt
from tests.content import exam_scenarios
from tests.people import make_exam

pytestmark = pytest.mark.django_db


def test_staff_sees_the_index_in_each_language(world, as_user):
    client = as_user(world.staff)
    italian = client.get("/it/staff/lookup/").content.decode()
    english = client.get("/en/staff/lookup/").content.decode()
    assert "Corsi di certificazione" in italian and "Certification courses" in english
    assert "Gruppi" in italian and "Cohorts" in english
    assert "Certificati" in italian and "Tentativi d" in italian


@pytest.mark.parametrize("who", ["trainee_a", "instructor_a"])
def test_anyone_but_staff_is_sent_to_the_staff_log_in(world, as_user, who):
    response = as_user(getattr(world, who)).get("/en/staff/lookup/courses/course/")
    assert response.status_code == 302
    assert response["Location"].startswith("/en/staff/lookup/login/")
    assert as_user(None).get("/en/staff/lookup/").status_code == 302


def test_search_finds_a_cohort_by_its_join_code(world, as_user):
    client = as_user(world.staff)
    page = client.get("/en/staff/lookup/courses/cohort/", {"q": world.cohort_b.join_code})
    body = page.content.decode()
    assert "Cohort B" in body and "Cohort A" not in body


def test_search_finds_a_person_by_display_name(world, as_user):
    body = as_user(world.staff).get("/en/staff/lookup/auth/user/", {"q": "Allieva"}).content
    assert b"alice" in body and b"bob" not in body


def _attempt(world):
    exam = make_exam(world.cohort_a, exam_scenarios())
    now = timezone.now()
    return ExamAttempt.objects.create(
        exam=exam, user=world.trainee_a, started_at=now, deadline=now, right=3, total=4
    )


def test_an_attempt_is_shown_but_cannot_be_changed(world, as_user):
    attempt = _attempt(world)
    client = as_user(world.staff)
    url = f"/en/staff/lookup/courses/examattempt/{attempt.pk}/change/"
    page = client.get(url)
    assert page.status_code == 200
    assert b'name="_save"' not in page.content
    response = client.post(url, {"right": "4", "total": "4"})
    assert response.status_code == 403
    attempt.refresh_from_db()
    assert attempt.right == 3
    delete = client.post(
        f"/en/staff/lookup/courses/examattempt/{attempt.pk}/delete/", {"post": "yes"}
    )
    assert delete.status_code == 403
    assert ExamAttempt.objects.filter(pk=attempt.pk).exists()


def test_a_certificate_payload_cannot_be_changed(world, as_user):
    certificate = Certificate.objects.create(
        code="ABCDEFGHJK",
        kind="completion",
        holder_name="Alice Allieva",
        course_title_it="Corso",
        course_title_en="Course",
        track="outdoor",
        year=2026,
        issuer_name="polotrainer",
        issued_on=timezone.localdate(),
        expires_on=timezone.localdate(),
        payload="[2]",
        signature="sig",
    )
    client = as_user(world.staff)
    url = f"/en/staff/lookup/certificates/certificate/{certificate.pk}/change/"
    assert client.get(url).status_code == 200
    assert client.post(url, {"holder_name": "Mallory"}).status_code == 403
    certificate.refresh_from_db()
    assert certificate.holder_name == "Alice Allieva"
    assert client.get("/en/staff/lookup/certificates/certificate/add/").status_code == 403


def test_a_course_is_edited_only_with_django_permissions(world, as_user):
    url = f"/it/staff/lookup/courses/course/{world.course_a.pk}/change/"
    looking = as_user(world.staff).get(url).content.decode()
    assert "Course A" in looking and 'name="_save"' not in looking
    world.staff.is_superuser = True
    world.staff.save(update_fields=["is_superuser"])
    page = as_user(world.staff).get(url)
    assert page.status_code == 200 and "Salva" in page.content.decode()


def test_staff_cannot_make_themselves_superuser(world, as_user):
    client = as_user(world.staff)
    url = f"/en/staff/lookup/auth/user/{world.staff.pk}/change/"
    assert client.get(url).status_code == 200
    response = client.post(url, {"username": "sam", "is_superuser": "on", "is_staff": "on"})
    assert response.status_code == 403
    world.staff.refresh_from_db()
    assert not world.staff.is_superuser


def test_my_courses_links_staff_and_only_staff_to_the_look_up(world, as_user):
    from django.urls import reverse

    for lang in ("it", "en"):
        staff = as_user(world.staff).get(f"/{lang}/courses/").content.decode()
        assert f'href="/{lang}/staff/lookup/"' in staff
    other = as_user(world.instructor_a).get("/en/courses/").content.decode()
    assert reverse("admin:index") not in other
