"""The history as CSV: words a person reads in their language, then the codes; one's own only."""

import csv
import io

import pytest

from tests.people import answer

pytestmark = pytest.mark.django_db

CODES = [
    "slug",
    "seed",
    "question",
    "answer",
    "right_answer",
    "correct",
    "mode",
    "content_version",
    "created_at",
]


def rows(response):
    text = b"".join(response.streaming_content).decode()
    assert text.startswith("\ufeff")  # a byte-order mark: spreadsheets read it as UTF-8
    return list(csv.DictReader(io.StringIO(text.removeprefix("\ufeff"))))


def test_csv_has_every_answer_in_words_and_in_codes(alice_client, trainee, rulebook):
    answer(trainee, rulebook["3b"], seed=4242, correct=False)
    response = alice_client.get("/en/me/history.csv")
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    (row,) = rows(response)
    assert list(row)[-len(CODES) :] == CODES
    assert row["Situation"] == "Situation sub-three" and row["Result"] == "wrong"
    assert row["Seconds"] == "4.2" and row["Where"] == "Practice"
    assert (row["slug"], row["seed"], row["question"], row["correct"]) == (
        "sub-three",
        "4242",
        "ruling",
        "false",
    )
    assert row["answer"] == '{"choice": "penalty-2"}'
    assert row["right_answer"] == '{"choice": "penalty-3"}'


def test_csv_holds_only_the_requesters_rows_whatever_is_asked(
    alice_client, trainee, other_trainee, rulebook
):
    answer(trainee, rulebook["3b"], seed=1)
    answer(other_trainee, rulebook["21a"], seed=2)
    answer(None, rulebook["21a"], seed=3, visitor="someone")
    for query in ("", f"?user={other_trainee.pk}", "?user=bob"):
        body = rows(alice_client.get(f"/en/me/history.csv{query}"))
        assert [(r["slug"], r["seed"]) for r in body] == [("sub-three", "1")]


@pytest.mark.parametrize(
    "zone",
    ["Europe/Rome", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe", "UTC"],
)
def test_each_time_is_written_as_its_zone_gives_it_across_a_change_of_clocks(zone):
    """The export's two times (the reader's minute, the UTC instant) are what astimezone() and
    isoformat() write, from SQLite's UTC text or a datetime, in a zone a whole number of hours
    from UTC, a zone half an hour off, and on the nights the clocks move (half an hour, on Lord
    Howe Island)."""
    from datetime import UTC, datetime, timedelta
    from zoneinfo import ZoneInfo

    from polotrainer.umpires.history import _Clock

    clock, there = _Clock(ZoneInfo(zone)), ZoneInfo(zone)
    for start in (datetime(2026, 3, 28, 12, tzinfo=UTC), datetime(2026, 10, 3, 12, tzinfo=UTC)):
        for minutes in range(0, 10 * 24 * 60, 7):
            at = start + timedelta(minutes=minutes, seconds=minutes % 60, microseconds=minutes % 3)
            expected = (at.isoformat(), at.astimezone(there).isoformat(" ", "minutes")[:16])
            assert clock(str(at.replace(tzinfo=None))) == expected  # SQLite's text
            assert clock(at) == expected
