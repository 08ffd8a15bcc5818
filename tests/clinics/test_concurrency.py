"""Two of the same request at the same moment. The projector's controls pressed twice (two
tabs, a double click): done once. One clinic export imported twice: one import, the other
refused, every answer once in the people's histories. Real concurrency on PostgreSQL (threads,
own connections); on SQLite a write transaction takes the write lock at its start, so they
queue."""

import pytest
from django.db import connection

from polotrainer.clinics import control, transfer
from polotrainer.clinics.models import ClinicSession, Phase
from polotrainer.umpires.models import Attempt
from tests.clinics.support import drive
from tests.clinics.test_results import _played
from tests.content import load_shipped
from tests.people import person
from tests.umpires.test_concurrency import race

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="a PostgreSQL race (SQLite writes queue)"
    ),
]


@pytest.fixture
def bundled_content(transactional_db):
    """The bundled content for each test: a transactional test empties the database after it."""
    load_shipped()


def test_a_control_pressed_twice_at_once_acts_once(clinic):
    session = drive(clinic, "show")
    refused = []

    def press(action):
        try:
            control.act(session.pk, action)
        except control.ControlError as exc:
            refused.append(exc.code)

    for action in ("close", "reveal", "leaderboard"):
        before = ClinicSession.objects.get(pk=session.pk).version
        race([lambda a=action: press(a)] * 2)
        after = ClinicSession.objects.get(pk=session.pk)
        assert after.version == before + 1
    assert after.phase == Phase.LEADERBOARD
    assert refused == ["not_now"] * 3


def test_one_export_imported_twice_at_once_is_imported_once(clinic, ines, alice):
    data = transfer.export(_played(clinic, alice), "https://laptop.example")
    federation = person("fed", instructor=True)
    Attempt.objects.all().delete()
    refused = []

    def load(round_):
        try:
            transfer.import_({**data, "origin": f"{data['origin']}-{round_}"}, federation)
        except transfer.TransferError as exc:
            refused.append(exc.code)

    for round_ in range(5):
        race([lambda r=round_: load(r)] * 2)
        assert ClinicSession.objects.filter(origin=f"{data['origin']}-{round_}").count() == 1
    assert refused == ["already"] * 5
    mine = sum(1 for a in data["answers"] if a["participant"] == _alice(data))
    assert Attempt.objects.filter(user=alice).count() == 5 * mine


def _alice(data) -> int:
    return next(p["id"] for p in data["participants"] if p["nickname"] == "Alice")
