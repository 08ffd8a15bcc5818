"""Answers arriving at the same moment: every one recorded once, none lost, on PostgreSQL.

Real concurrency: threads, each with its own database connection, released together by a
barrier. On SQLite every write transaction takes the database's write lock at its start
(IMMEDIATE), so writers queue and this race cannot happen; PostgreSQL runs them side by side.
"""

import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, connections

from polotrainer.umpires import progress
from polotrainer.umpires.models import Attempt, DayActivity, ScenarioProgress
from polotrainer.umpires.progress import PRACTICE, Answer, Answers, Person, record_answers
from tests.content import small_rulebook

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="a PostgreSQL race (SQLite writes queue)"
    ),
]


def race(calls):
    """Run the calls at the same moment, each on its own connection; return their results."""
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)
    errors: list = []

    def run(i, call):
        try:
            connection.ensure_connection()  # connect first, so that all start together
            barrier.wait()
            results[i] = call()
        except Exception as exc:
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    return results


def first_answer(user_id, scenario_id, n):
    return lambda: record_answers(
        Person(user_id=user_id),
        PRACTICE,
        Answers(
            scenario_id=scenario_id,
            seed=n,
            content_version="v",
            items=[Answer("q", "a", "a", True, f"race-{user_id}-{n}")],
        ),
    )


def test_one_users_first_answers_at_the_same_moment_are_all_recorded():
    scenario = small_rulebook()["3b"]
    user = get_user_model().objects.create_user("racer")
    for round_ in range(5):
        calls = [first_answer(user.pk, scenario.pk, round_ * 100 + n) for n in range(8)]
        ScenarioProgress.objects.filter(user=user).delete()
        results = race(calls)
        assert [r.duplicate for r in results] == [False] * 8
    assert Attempt.objects.filter(user=user).count() == 40
    assert ScenarioProgress.objects.filter(user=user).count() == 1
    assert DayActivity.objects.get(user=user).answers == 40


def test_many_users_and_the_same_form_twice():
    scenario = small_rulebook()["3b"]
    users = [get_user_model().objects.create_user(f"u{n}") for n in range(10)]
    calls = [first_answer(u.pk, scenario.pk, 1) for u in users]
    calls += [first_answer(u.pk, scenario.pk, 1) for u in users]  # each form sent twice
    results = race(calls)
    assert sum(not r.duplicate for r in results) == 10
    assert sum(r.duplicate for r in results) == 10
    assert Attempt.objects.count() == 10
    for user in users:
        progress = ScenarioProgress.objects.get(user=user)
        assert progress.answers == 1


def test_two_rebuilds_of_one_users_aggregates_at_once_count_every_answer_once():
    """Two exams released together (cron and a page), a policy change while one is released:
    each rebuilds the trainee's aggregates. Neither may count the answers on top of the
    rows the other has just rebuilt."""
    scenarios = small_rulebook()
    user = get_user_model().objects.create_user("rebuilt")
    for n, scenario in enumerate(list(scenarios.values()) * 5):
        first_answer(user.pk, scenario.pk, n)()
    for _round in range(5):
        race([lambda: progress.rebuild(user.pk)] * 2)
        assert (
            sum(ScenarioProgress.objects.filter(user=user).values_list("answers", flat=True)) == 20
        )
        assert DayActivity.objects.get(user=user).answers == 20
