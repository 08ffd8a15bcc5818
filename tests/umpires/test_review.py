"""The FSRS review schedule and the review page."""

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from polotrainer.umpires import review
from polotrainer.umpires.models import ScenarioProgress
from tests.people import answer, days_ago

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


def test_due_count_counts_each_umpires_own_cards_whose_time_has_come(
    trainee, other_trainee, rulebook
):
    answer(trainee, rulebook["3a-one"], correct=False)  # due in minutes
    answer(trainee, rulebook["3b"], correct=True)
    ScenarioProgress.objects.filter(scenario=rulebook["3b"]).update(
        due=timezone.now() + timedelta(days=3)
    )
    answer(other_trainee, rulebook["21a"], correct=False)
    in_an_hour = timezone.now() + timedelta(hours=1)
    assert review.due_count(trainee) == 0
    assert review.due_count(trainee, now=in_an_hour) == 1
    assert review.due_count(other_trainee, now=in_an_hour) == 1


def test_due_count_leaves_out_retired_scenarios(trainee, rulebook):
    answer(trainee, rulebook["3b"], correct=False, when=days_ago(1))
    assert review.due_count(trainee) == 1
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


# --- one rule for "due", on every page, with the clock stopped --------------------------------

# Monday 30 November 2026, 14:06 in Rome: late enough in the day that "due today" and "due now"
# tell apart a card due at 18:00.
DUE = datetime(2026, 11, 30, 14, 6, tzinfo=ZoneInfo("Europe/Rome"))


@pytest.fixture
def card_due_at_14_06(trainee, rulebook):
    answer(trainee, rulebook["3b"], correct=True, when=DUE - timedelta(days=3))
    ScenarioProgress.objects.update(due=DUE)
    return DUE


@pytest.fixture
def stop_the_clock(monkeypatch):
    def stop(at):
        monkeypatch.setattr(timezone, "now", lambda: at)

    return stop


@pytest.mark.parametrize(
    ("now", "due"),
    [
        (DUE - timedelta(hours=6), False),  # the same day, earlier: not due yet
        (DUE - timedelta(seconds=1), False),
        (DUE, True),
        (DUE + timedelta(days=2), True),
    ],
)
def test_due_count_and_the_review_page_apply_the_same_rule(trainee, card_due_at_14_06, now, due):
    assert (review.due_count(trainee, now=now) == 1) is due
    assert (review.next_review(trainee, now=now).slug is not None) is due
    assert review.due_now(trainee, now=now).earliest == DUE


def test_what_the_dashboard_offers_the_review_page_serves(
    alice_client, card_due_at_14_06, stop_the_clock
):
    stop_the_clock(DUE - timedelta(minutes=1))
    dashboard = alice_client.get("/en/me/")
    assert dashboard.context["due_count"] == 0
    assert 'href="/en/review/"' not in dashboard.content.decode()
    assert "Next review: <time" in dashboard.content.decode()
    assert alice_client.get("/en/review/").status_code == 200  # "nothing to review"

    stop_the_clock(DUE + timedelta(minutes=1))
    dashboard = alice_client.get("/en/me/")
    assert dashboard.context["due_count"] == 1
    assert 'href="/en/review/"' in dashboard.content.decode()
    assert alice_client.get("/en/review/").status_code == 302  # to the question


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("it", "Il tuo prossimo ripasso è previsto per lunedì 30 novembre 2026, 14:06."),
        ("en", "Your next review is due on Monday 30 November 2026, 14:06."),
    ],
)
def test_the_next_review_reads_as_a_sentence(
    alice_client, card_due_at_14_06, stop_the_clock, lang, words
):
    stop_the_clock(DUE - timedelta(days=1))
    assert words in alice_client.get(f"/{lang}/review/").content.decode()
