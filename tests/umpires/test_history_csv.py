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
