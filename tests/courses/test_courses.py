"""Courses and cohorts from the instructor's side: creating, editing, co-teaching."""

from datetime import timedelta

import pytest
from django.utils import timezone

from polotrainer.courses import assignments, enrolment
from polotrainer.courses.models import Cohort, Course
from tests.people import make_cohort, make_course, person

pytestmark = pytest.mark.django_db


@pytest.fixture
def ines():
    return person("ines", instructor=True)


def test_a_new_cohort_gets_a_code_a_limit_and_a_last_day(client, ines):
    course = make_course(ines)
    client.force_login(ines)
    last_day = timezone.localdate() + timedelta(days=10)
    response = client.post(
        f"/en/courses/{course.pk}/cohorts/new/",
        {"name": "Autumn", "max_trainees": 8, "join_expires_on": last_day.isoformat()},
    )
    cohort = Cohort.objects.get()
    assert response["Location"] == f"/en/courses/cohort/{cohort.pk}/"
    assert len(cohort.join_code) == 6 and cohort.max_trainees == 8
    assert cohort.join_expires_at == assignments.end_of(last_day, course)
    edit = client.get(f"/en/courses/cohort/{cohort.pk}/edit/")
    assert edit.context["form"].initial["join_expires_on"] == last_day


def test_a_code_works_until_the_end_of_its_last_day_in_the_courses_time_zone(client, ines):
    course = make_course(ines)
    course.time_zone = "Pacific/Auckland"
    course.save()
    cohort = make_cohort(course)
    client.force_login(ines)
    yesterday_there = assignments.today_in(course) - timedelta(days=1)
    client.post(
        f"/en/courses/cohort/{cohort.pk}/edit/",
        {"name": cohort.name, "join_expires_on": yesterday_there.isoformat()},
    )
    with pytest.raises(enrolment.JoinError) as excinfo:
        enrolment.find(cohort.join_code)
    assert excinfo.value.code == "expired"
    client.post(
        f"/en/courses/cohort/{cohort.pk}/edit/",
        {"name": cohort.name, "join_expires_on": assignments.today_in(course).isoformat()},
    )
    assert enrolment.find(cohort.join_code) == cohort


def test_a_bad_course_form_says_why_and_creates_nothing(client, ines):
    client.force_login(ines)
    response = client.post(
        "/en/courses/new/",
        {
            "title_it": "",
            "title_en": "X",
            "track": "indoor",
            "year": 1850,
            "time_zone": "Mars/Base",
        },
    )
    assert response.status_code == 400
    assert set(response.context["form"].errors) == {"title_it", "track", "year", "time_zone"}
    assert not Course.objects.exists()


def test_co_instructors_need_the_role_and_a_course_keeps_one(client, ines):
    course = make_course(ines)
    client.force_login(ines)
    alice = person("alice")
    url = f"/en/courses/{course.pk}/instructors/"
    response = client.post(url, {"person": "alice"}, follow=True)
    assert "alice is not an instructor yet" in response.content.decode()
    assert list(course.instructors.all()) == [ines]
    ivan = person("ivan", instructor=True)
    client.post(url, {"person": "IVAN@example.org"})
    assert set(course.instructors.all()) == {ines, ivan}
    client.force_login(ivan)
    assert client.get(f"/en/courses/{course.pk}/").status_code == 200
    client.post(f"/en/courses/{course.pk}/instructors/{ines.pk}/remove/")
    assert list(course.instructors.all()) == [ivan]
    last = client.post(f"/en/courses/{course.pk}/instructors/{ivan.pk}/remove/", follow=True)
    assert "at least one instructor" in last.content.decode()
    assert list(course.instructors.all()) == [ivan]
    assert alice not in course.instructors.all()
