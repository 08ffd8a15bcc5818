"""The same outbox sent twice at the same moment (two tabs, a retry while the first request
still runs) is recorded once: real threads, each with its own connection, released together.

On SQLite every write transaction takes the write lock at its start (IMMEDIATE), so the two
queue; on PostgreSQL they run side by side and the umpire's row lock (or, for a visitor, the
unique entry id) orders them."""

import uuid

import pytest
from django.db import connection
from django.utils import timezone

from polotrainer.offline import packs, sync
from polotrainer.offline.models import SyncedEntry
from polotrainer.umpires.models import Attempt, DayActivity
from polotrainer.umpires.progress import Person
from tests.offline.test_sync import entry, ms
from tests.umpires.test_concurrency import race

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("who", ["account", "visitor"])
def test_the_same_outbox_sent_twice_at_once_is_recorded_once(scenarios, trainee, who):
    if connection.vendor == "sqlite" and connection.is_in_memory_db():
        # Threads on the test run's shared in-memory database fail with "table is locked"
        # before any lock of ours is taken; a SQLite file queues writers (IMMEDIATE).
        pytest.skip("the in-memory SQLite test database cannot be shared by threads")
    person = Person(user_id=trainee.pk) if who == "account" else Person(visitor=uuid.uuid4().hex)
    made = timezone.now() - timezone.timedelta(hours=1)
    _row, body = packs.build(person, packs.PackScope("rule", "37"), now=made)
    outbox = [entry(v, ms(timezone.now())) for v in body["variants"] for _n in range(3)]
    for _round in range(3):
        results = race([lambda: sync.sync(person, outbox), lambda: sync.sync(person, outbox)])
        recorded = [sum(o.recorded for o in r) for r in results]
        assert sorted(recorded) in ([0, len(outbox)], [0, 0])
    assert SyncedEntry.objects.count() == len(outbox)
    per_entry = sum(len(v["key"]) for v in body["variants"]) * 3
    assert Attempt.objects.count() == per_entry
    if who == "account":
        assert DayActivity.objects.get(user=trainee).answers == per_entry
