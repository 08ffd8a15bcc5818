"""The closed-book window: held once per exam attempt, moved with its deadline, released at its
end; asked by person and moment; and the time practice reopens, as each language writes it."""

from datetime import UTC, datetime, timedelta

import pytest
from django.utils import translation

from polotrainer.umpires import closedbook
from polotrainer.umpires.models import ClosedBook
from polotrainer.umpires.progress import Person

pytestmark = pytest.mark.django_db

#: 10:00 UTC on 1 December is 11:00 in Rome.
T0 = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)
TITLES = {"it": "Esame finale", "en": "Final exam"}


def hold(user, attempt_id: int, until: datetime) -> ClosedBook:
    return closedbook.hold(
        user.pk,
        attempt_id,
        until,
        titles=TITLES,
        time_zone="Europe/Rome",
        back_to=f"/it/courses/exam/attempt/{attempt_id}/",
    )


def test_a_window_holds_its_account_until_its_end(trainee, other_trainee):
    hold(trainee, 1, T0 + timedelta(minutes=30))
    me = Person(user_id=trainee.pk)
    assert closedbook.closed_book(me, T0).exam_attempt_id == 1
    assert closedbook.closed_book(me, T0 + timedelta(minutes=30)) is None  # its end is free
    assert closedbook.closed_book(Person(user_id=other_trainee.pk), T0) is None
    assert closedbook.closed_book(Person(visitor="abc"), T0) is None


def test_holding_one_attempt_twice_keeps_the_first(trainee):
    first = hold(trainee, 1, T0 + timedelta(minutes=30))
    again = hold(trainee, 1, T0 + timedelta(hours=5))
    assert again.pk == first.pk and again.until == T0 + timedelta(minutes=30)
    assert ClosedBook.objects.count() == 1


def test_of_two_exams_at_once_the_longer_window_counts(trainee, other_trainee):
    hold(trainee, 1, T0 + timedelta(minutes=30))
    hold(trainee, 2, T0 + timedelta(minutes=90))
    hold(other_trainee, 3, T0 + timedelta(minutes=10))
    assert closedbook.closed_book(Person(user_id=trainee.pk), T0).exam_attempt_id == 2
    held = closedbook.holding([trainee.pk, other_trainee.pk], T0 + timedelta(minutes=20))
    assert {k: w.exam_attempt_id for k, w in held.items()} == {trainee.pk: 2}
    assert closedbook.holding([], T0) == {}


def test_move_and_release_touch_only_the_attempts_named(trainee, other_trainee):
    hold(trainee, 1, T0 + timedelta(minutes=30))
    hold(other_trainee, 2, T0 + timedelta(minutes=30))
    assert closedbook.move({1: T0 + timedelta(minutes=50), 99: T0}) == 1
    assert ClosedBook.objects.get(exam_attempt_id=1).until == T0 + timedelta(minutes=50)
    assert ClosedBook.objects.get(exam_attempt_id=2).until == T0 + timedelta(minutes=30)
    assert closedbook.release([1, 99]) == 1
    assert list(ClosedBook.objects.values_list("exam_attempt_id", flat=True)) == [2]


@pytest.mark.parametrize(
    ("lang", "same_day", "next_day"),
    [("it", "11:30", "2 dicembre, 09:15"), ("en", "11:30", "2 December, 09:15")],
)
def test_practice_reopens_in_the_courses_zone_and_the_readers_words(
    trainee, lang, same_day, next_day
):
    window = hold(trainee, 1, T0 + timedelta(minutes=30))
    late = hold(trainee, 2, datetime(2026, 12, 2, 8, 15, tzinfo=UTC))
    with translation.override(lang):
        assert closedbook.reopens(window, T0) == same_day
        assert closedbook.reopens(late, T0) == next_day
        notice = closedbook.notice(window, T0)
        assert notice["held"].title == TITLES[lang]
    # The way back follows the reader's language, whichever the attempt started in.
    assert notice["back_to"] == f"/{lang}/courses/exam/attempt/1/"
    assert notice["reopens"] == same_day
