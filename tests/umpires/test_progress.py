"""record_answers: every answer kept once, scheduled for review when the umpire is logged in."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions.backends.db import SessionStore
from django.test import RequestFactory

from polotrainer.umpires.models import Attempt, Mode, ReviewCard
from polotrainer.umpires.progress import (
    Answer,
    adopt_visitor_attempts,
    record_answers,
    visitor_id,
)

pytestmark = pytest.mark.django_db


def request_for(user=None):
    request = RequestFactory().post("/en/practice/x/1/answer/")
    request.user = user or AnonymousUser()
    request.session = SessionStore()
    return request


def record(request, scenario, nonce="n1", correct=True, seed=5):
    (attempt,) = record_answers(
        request,
        scenario_id=scenario.pk,
        seed=seed,
        answers=[Answer("ruling", {"choice": "a"}, correct, nonce)],
        time_taken_ms=3100,
        mode=Mode.REVIEW,
    )
    return attempt


def test_a_logged_in_answer_is_kept_with_everything_and_scheduled(trainee, rulebook):
    attempt = record(request_for(trainee), rulebook["3b"])
    stored = Attempt.objects.get(pk=attempt.pk)
    assert (stored.user, stored.visitor, stored.seed, stored.mode) == (trainee, "", 5, "review")
    assert stored.answer == {"choice": "a"} and stored.time_taken_ms == 3100
    assert ReviewCard.objects.filter(user=trainee, scenario=rulebook["3b"]).exists()


def test_a_replayed_nonce_records_nothing(trainee, rulebook):
    request = request_for(trainee)
    assert record(request, rulebook["3b"]) is not None
    assert record(request, rulebook["3b"]) is None
    assert Attempt.objects.count() == 1


def test_a_visitors_answer_is_kept_under_their_session_id(db, rulebook):
    request = request_for()
    attempt = record(request, rulebook["3b"])
    assert attempt.user is None
    assert attempt.visitor == visitor_id(request) != ""
    assert not ReviewCard.objects.exists()


def test_adopting_moves_only_that_visitors_answers(trainee, rulebook):
    mine, theirs = request_for(), request_for()
    record(mine, rulebook["3b"], nonce="a")
    record(mine, rulebook["21a"], nonce="b", correct=False)
    record(theirs, rulebook["3b"], nonce="c")
    assert adopt_visitor_attempts(trainee, visitor_id(mine)) == 2
    assert Attempt.objects.filter(user=trainee).count() == 2
    assert Attempt.objects.filter(user=None).count() == 1
    assert ReviewCard.objects.filter(user=trainee).count() == 2
    assert adopt_visitor_attempts(trainee, "") == 0


def test_adopting_many_answers_takes_a_fixed_number_of_queries(
    trainee, rulebook, django_assert_max_num_queries
):
    mine = request_for()
    for n in range(40):
        record(mine, rulebook["3b" if n % 2 else "21a"], nonce=f"m{n}", seed=n)
    with django_assert_max_num_queries(8):
        assert adopt_visitor_attempts(trainee, visitor_id(mine)) == 40
    assert ReviewCard.objects.filter(user=trainee).count() == 2
