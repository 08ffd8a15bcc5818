"""The history as CSV: one's own, every column, nothing of anyone else's."""

import csv
import io

import pytest

from tests.umpires.factories import answer

pytestmark = pytest.mark.django_db


def rows(response):
    text = b"".join(response.streaming_content).decode()
    return list(csv.reader(io.StringIO(text)))


def test_csv_has_every_answer_with_its_columns(alice_client, trainee, rulebook):
    answer(trainee, rulebook["3b"], seed=4242, correct=False)
    response = alice_client.get("/en/me/history.csv")
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    header, row = rows(response)
    assert header == [
        "slug",
        "seed",
        "question",
        "answer",
        "correct",
        "time_taken_ms",
        "mode",
        "created_at",
    ]
    assert row[:7] == [
        "sub-three",
        "4242",
        "ruling",
        '{"choice": "penalty-2"}',
        "false",
        "4200",
        "practice",
    ]


def test_csv_holds_only_the_requesters_rows_whatever_is_asked(
    alice_client, trainee, other_trainee, rulebook
):
    answer(trainee, rulebook["3b"], seed=1)
    answer(other_trainee, rulebook["21a"], seed=2)
    answer(None, rulebook["21a"], seed=3, visitor="someone")
    for query in ("", f"?user={other_trainee.pk}", "?user=bob"):
        body = rows(alice_client.get(f"/en/me/history.csv{query}"))[1:]
        assert [(r[0], r[1]) for r in body] == [("sub-three", "1")]
