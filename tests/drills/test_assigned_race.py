"""Two Starts of one drill-set assignment by one trainee at once (a double tap, two tabs) make
one set: the set begun is read after the trainee's lock. PostgreSQL only (SQLite writes queue)."""

import pytest
from django.db import connection

from polotrainer.courses.models import Assignment
from polotrainer.drills.models import DrillSet
from tests.drills.test_assigned import client_of, course, set_drills  # noqa: F401
from tests.umpires.test_concurrency import race

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="a PostgreSQL race (SQLite writes queue)"
    ),
]


def test_two_starts_at_once_make_one_set(course):  # noqa: F811 - the fixture
    set_drills(course)
    work = Assignment.objects.get()
    tabs = [client_of(course["alice"]) for _ in range(4)]
    url = f"/en/drills/assignment/{work.pk}/"
    for _round in range(5):
        DrillSet.objects.filter(assignment=work).delete()
        codes = race([lambda c=c: c.post(url).status_code for c in tabs])
        assert codes == [302] * len(tabs)
        assert DrillSet.objects.filter(assignment=work, user=course["alice"]).count() == 1
