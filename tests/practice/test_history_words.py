"""The history of practice answers in words: the CSV in the reader's language."""

import pytest

from tests.practice.test_practice import answer as answer_page
from tests.practice.test_practice import wrong_form
from tests.umpires.test_history_csv import rows

pytestmark = pytest.mark.django_db


def test_csv_speaks_the_language_asked_and_says_answers_in_words(client, scenarios, trainee):
    client.force_login(trainee)
    answer_page(client, "t-p3-interference", 5, wrong_form(scenarios["t-p3-interference"], 5))
    (english,) = rows(client.get("/en/me/history.csv"))
    (italian,) = rows(client.get("/it/me/history.csv"))
    assert english["Question"] == "What do you rule?" and italian["Domanda"] == "Che cosa decidi?"
    assert english["Your answer"] and "_" not in english["Your answer"]  # words, not codes
    assert english["The right answer"] != english["Your answer"]
    assert italian["Esito"] == "sbagliata"
    # The section as people cite it, with its title: never a code like "3.summary".
    assert any(c.isalpha() for c in english["Section"].split(" ", 1)[-1])
    assert " " in italian["Sezione"] and italian["Sezione"] != english["Section"]
