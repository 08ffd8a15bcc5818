"""record_answers: every answer kept once with its ruling, aggregates kept, reviews scheduled."""

from datetime import timedelta

import pytest
from django.utils import timezone

from polotrainer.umpires.models import Attempt, DayActivity, Mode, ScenarioProgress
from polotrainer.umpires.progress import (
    PRACTICE,
    REVIEW,
    Answer,
    Answers,
    Context,
    Person,
    adopt_visitor_attempts,
    rebuild,
    record_answers,
)

pytestmark = pytest.mark.django_db


def record(person, scenario, nonce="n1", correct=True, seed=5, context=REVIEW, at=None):
    return record_answers(
        person,
        context,
        Answers(
            scenario_id=scenario.pk,
            seed=seed,
            content_version="v1",
            items=[Answer("ruling", {"choice": "a"}, {"choice": "b"}, correct, nonce)],
            time_taken_ms=3100,
            at=at,
        ),
    )


def me(user):
    return Person(user_id=user.pk)


def test_a_person_is_a_user_or_a_visitor_never_both_or_neither():
    with pytest.raises(ValueError):
        Person()
    with pytest.raises(ValueError):
        Person(user_id=1, visitor="v")


def test_a_logged_in_answer_is_kept_with_its_ruling_and_scheduled(trainee, rulebook):
    (attempt,) = record(me(trainee), rulebook["3b"], correct=False).attempts
    stored = Attempt.objects.get(pk=attempt.pk)
    assert (stored.user, stored.visitor, stored.seed, stored.mode) == (trainee, "", 5, "review")
    assert stored.answer == {"choice": "a"} and stored.right_answer == {"choice": "b"}
    assert stored.content_version == "v1" and stored.time_taken_ms == 3100
    progress = ScenarioProgress.objects.get(user=trainee, scenario=rulebook["3b"])
    assert progress.card is not None and progress.due is not None
    assert (progress.answers, progress.correct) == (1, 0)
    assert [right for _at, right in progress.recent] == [False]
    assert DayActivity.objects.get(user=trainee).answers == 1


def test_an_exam_or_clinic_answer_counts_for_progress_but_schedules_nothing(trainee, rulebook):
    exam = Context(Mode.EXAM, ref_id=42, label="Exam 2026 · attempt 1")
    (attempt,) = record(me(trainee), rulebook["3b"], context=exam).attempts
    assert (attempt.context_id, attempt.context_label) == (42, "Exam 2026 · attempt 1")
    progress = ScenarioProgress.objects.get(user=trainee, scenario=rulebook["3b"])
    assert progress.answers == 1 and progress.card is None and progress.due is None


def test_a_replayed_nonce_records_nothing(trainee, rulebook):
    assert not record(me(trainee), rulebook["3b"]).duplicate
    assert record(me(trainee), rulebook["3b"]).duplicate
    assert Attempt.objects.count() == 1
    assert ScenarioProgress.objects.get().answers == 1
    assert DayActivity.objects.get().answers == 1


def test_an_integrity_error_that_is_not_the_nonce_is_raised(trainee, rulebook):
    from django.db import IntegrityError

    with pytest.raises(IntegrityError):
        record_answers(
            me(trainee),
            PRACTICE,
            Answers(
                scenario_id=rulebook["3b"].pk,
                seed=5,
                content_version="v1",
                # Two answers with one nonce: a bug, not "already answered".
                items=[Answer("a", 1, 1, True, "same"), Answer("b", 1, 1, True, "same")],
            ),
        )


def test_a_visitors_answer_is_kept_under_their_id_without_aggregates(db, rulebook):
    (attempt,) = record(Person(visitor="v" * 32), rulebook["3b"]).attempts
    assert attempt.user is None and attempt.visitor == "v" * 32
    assert not ScenarioProgress.objects.exists() and not DayActivity.objects.exists()


def test_recent_keeps_the_last_five_newest_first(trainee, rulebook):
    start = timezone.now() - timedelta(hours=3)
    for n in range(7):
        record(
            me(trainee),
            rulebook["3b"],
            nonce=f"n{n}",
            seed=n,
            correct=n >= 5,
            at=start + timedelta(minutes=n),
            context=PRACTICE,
        )
    progress = ScenarioProgress.objects.get()
    assert [right for _at, right in progress.recent] == [True, True, False, False, False]
    assert (progress.answers, progress.correct) == (7, 2)


def test_adopting_moves_only_that_visitors_answers(trainee, rulebook):
    mine, theirs = Person(visitor="mine"), Person(visitor="theirs")
    record(mine, rulebook["3b"], nonce="a")
    record(mine, rulebook["21a"], nonce="b", correct=False)
    record(theirs, rulebook["3b"], nonce="c")
    assert adopt_visitor_attempts(trainee.pk, "mine") == 2
    assert Attempt.objects.filter(user=trainee).count() == 2
    assert Attempt.objects.filter(user=None).count() == 1
    assert ScenarioProgress.objects.filter(user=trainee, card__isnull=False).count() == 2
    assert DayActivity.objects.get(user=trainee).answers == 2
    assert adopt_visitor_attempts(trainee.pk, "") == 0


def test_adopting_adds_to_what_the_account_already_has(trainee, rulebook):
    record(me(trainee), rulebook["3b"], nonce="own")
    record(Person(visitor="mine"), rulebook["3b"], nonce="visited", seed=9, correct=False)
    adopt_visitor_attempts(trainee.pk, "mine")
    progress = ScenarioProgress.objects.get(user=trainee, scenario=rulebook["3b"])
    assert (progress.answers, progress.correct) == (2, 1)
    assert DayActivity.objects.get(user=trainee).answers == 2


def test_adopting_many_answers_takes_a_fixed_number_of_queries(
    trainee, rulebook, django_assert_max_num_queries
):
    mine = Person(visitor="mine")
    for n in range(40):
        record(mine, rulebook["3b" if n % 2 else "21a"], nonce=f"m{n}", seed=n)
    with django_assert_max_num_queries(12):
        assert adopt_visitor_attempts(trainee.pk, "mine") == 40
    assert ScenarioProgress.objects.filter(user=trainee).count() == 2


def test_rebuild_gives_what_recording_gave(trainee, rulebook):
    start = timezone.now() - timedelta(days=3)
    for n in range(9):
        scenario = rulebook["3b" if n % 3 else "21a"]
        record(
            me(trainee),
            scenario,
            nonce=f"r{n}",
            seed=n,
            correct=n % 2 == 0,
            at=start + timedelta(hours=7 * n),
            context=PRACTICE,
        )
    fields = (
        "scenario_id",
        "recent",
        "recent_score",
        "recent_from",
        "answers",
        "correct",
        "card",
        "due",
        "variant_seed",
    )
    before = sorted(ScenarioProgress.objects.values_list(*fields))
    days = sorted(DayActivity.objects.values_list("day", "answers", "correct"))
    rebuild(trainee.pk)
    assert sorted(ScenarioProgress.objects.values_list(*fields)) == before
    assert sorted(DayActivity.objects.values_list("day", "answers", "correct")) == days
