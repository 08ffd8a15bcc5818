"""An assignment's due date changed while the course moves to another time zone (two
instructors at once): the due time ends at midnight in the new zone, on the new day. Real
concurrency (threads, own connections), on SQLite and PostgreSQL."""

from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.db import connection, transaction

from polotrainer.courses import assignments as homework
from polotrainer.courses.models import Assignment, Course
from tests.courses.test_exam_concurrency import Gap, own_database  # noqa: F401 - a fixture

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_due_date_changed_while_the_zone_moves_ends_in_the_new_zone(own_database, world):  # noqa: F811
    course, assignment = world.course_a, world.assignment_a
    new_day = assignment.due_on + timedelta(days=3)
    # The zone's change has read the due dates and is about to move them.
    gap = Gap("courses_assignment")

    def move_zone():
        with transaction.atomic():
            Course.objects.filter(pk=course.pk).update(time_zone="Asia/Tokyo")
            moved = Course.objects.get(pk=course.pk)
            with connection.execute_wrapper(gap):
                homework.move_due_times(moved)

    def change_due_date():
        fresh = Assignment.objects.select_related("cohort__course").get(pk=assignment.pk)
        homework.change(fresh, questions=fresh.questions, due_on=new_day, note=fresh.note)

    gap.run(move_zone, change_due_date)
    assignment.refresh_from_db()
    assert assignment.due_on == new_day
    local = assignment.due_at.astimezone(ZoneInfo("Asia/Tokyo"))
    assert (local.date(), local.hour) == (new_day + timedelta(days=1), 0)
