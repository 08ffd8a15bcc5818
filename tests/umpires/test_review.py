"""The FSRS review schedule and the review page."""

from datetime import UTC, timedelta

import pytest
from django.utils import timezone

from polotrainer.umpires import review
from polotrainer.umpires.models import ScenarioProgress
from tests.umpires.factories import answer

pytestmark = pytest.mark.django_db


def card_of(user, scenario):
    return ScenarioProgress.objects.get(user=user, scenario=scenario)


def test_a_right_answer_rates_good_and_a_wrong_one_again(trainee, rulebook):
    answer(trainee, rulebook["3a-one"], correct=True)
    answer(trainee, rulebook["3a-two"], correct=False)
    good, again = card_of(trainee, rulebook["3a-one"]), card_of(trainee, rulebook["3a-two"])
    assert good.variant_rating == 3 and again.variant_rating == 1
    assert good.due > again.due
    assert good.card["due"] == good.due.astimezone(UTC).isoformat()


def test_a_visitors_answer_schedules_nothing(db, rulebook):
    answer(None, rulebook["3b"], visitor="v1")
    assert not ScenarioProgress.objects.exists()


def test_the_questions_of_one_variant_count_as_one_review(trainee, rulebook):
    scenario = rulebook["3b"]
    answer(trainee, scenario, seed=11, correct=True)
    once = card_of(trainee, scenario).card
    answer(trainee, scenario, seed=11, correct=True)
    assert card_of(trainee, scenario).card == once


def test_a_wrong_second_answer_to_the_same_variant_turns_good_into_again(trainee, rulebook):
    scenario = rulebook["3b"]
    answer(trainee, scenario, seed=11, correct=True)
    answer(trainee, scenario, seed=11, correct=False)
    card = card_of(trainee, scenario)
    assert card.variant_rating == 1
    assert card.card["step"] == 0  # back to the first learning step, as one Again


def test_a_new_variant_is_a_new_review(trainee, rulebook):
    scenario = rulebook["3b"]
    answer(trainee, scenario, seed=11, correct=True)
    first = card_of(trainee, scenario).card
    answer(trainee, scenario, seed=12, correct=True)
    assert card_of(trainee, scenario).card != first


def test_due_count_counts_what_falls_due_by_the_end_of_today(trainee, other_trainee, rulebook):
    answer(trainee, rulebook["3a-one"], correct=False)  # due in minutes
    answer(trainee, rulebook["3b"], correct=True)
    ScenarioProgress.objects.filter(scenario=rulebook["3b"]).update(
        due=timezone.now() + timedelta(days=3)
    )
    answer(other_trainee, rulebook["21a"], correct=False)
    assert review.due_count(trainee) == 1
    assert review.due_count(other_trainee) == 1


def test_due_count_leaves_out_retired_scenarios(trainee, rulebook):
    answer(trainee, rulebook["3b"], correct=False)
    rulebook["3b"].retired = True
    rulebook["3b"].save(update_fields=["retired"])
    assert review.due_count(trainee) == 0


def test_review_sends_to_a_fresh_variant_of_the_most_overdue_scenario(
    alice_client, trainee, rulebook
):
    for key in ("3a-one", "21a"):
        answer(trainee, rulebook[key], correct=False)
    now = timezone.now()
    ScenarioProgress.objects.filter(scenario=rulebook["3a-one"]).update(due=now - timedelta(days=1))
    ScenarioProgress.objects.filter(scenario=rulebook["21a"]).update(due=now - timedelta(days=5))
    seeds = set()
    for _ in range(3):
        response = alice_client.get("/en/review/")
        assert response.status_code == 302
        path, query = response["Location"].split("?")
        assert query == "mode=review"
        assert path.startswith("/en/practice/stop-one/")
        seeds.add(path.rstrip("/").rsplit("/", 1)[1])
    assert len(seeds) > 1  # a fresh variant every time


def test_review_with_nothing_due_says_when_the_next_review_is(alice_client, trainee, rulebook):
    answer(trainee, rulebook["3b"], correct=True)
    due = timezone.now() + timedelta(days=2)
    ScenarioProgress.objects.update(due=due)
    response = alice_client.get("/en/review/")
    assert response.status_code == 200
    assert response.context["next_due"] == due
    assert "Your next review is due on" in response.content.decode()


def test_review_with_no_history_invites_to_practise(alice_client):
    response = alice_client.get("/it/review/")
    assert response.status_code == 200
    assert response.context["next_due"] is None
