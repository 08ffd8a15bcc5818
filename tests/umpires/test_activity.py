"""Answers per day, the streak and the chart's bars."""

from datetime import date

import pytest
from django.utils import timezone

from polotrainer.umpires import activity
from tests.people import answer, days_ago

pytestmark = pytest.mark.django_db
D = date(2026, 3, 10)


def test_streak_ends_today_or_yesterday():
    assert activity.streak({D, date(2026, 3, 9)}, D) == 2
    assert activity.streak({date(2026, 3, 9), date(2026, 3, 8)}, D) == 2
    assert activity.streak({date(2026, 3, 8)}, D) == 0
    assert activity.streak(set(), D) == 0


def test_daily_counts_answers_and_right_answers_per_local_day(trainee, rulebook):
    answer(trainee, rulebook["3b"], correct=True, when=days_ago(0, hour=1))
    answer(trainee, rulebook["3b"], correct=False, when=days_ago(0, hour=23))
    answer(trainee, rulebook["3b"], correct=True, when=days_ago(2))
    days = activity.daily(trainee)
    today = timezone.localdate()
    assert (days[today].answers, days[today].right) == (2, 1)
    assert len(days) == 2


def test_chart_has_one_slot_per_day_scaled_to_the_busiest(trainee, rulebook):
    for _ in range(4):
        answer(trainee, rulebook["3b"], when=days_ago(0))
    answer(trainee, rulebook["3b"], correct=False, when=days_ago(29))
    answer(trainee, rulebook["3b"], when=days_ago(40))  # outside the 30 days
    chart = activity.chart(activity.daily(trainee), timezone.localdate(), 30)
    assert len(chart.bars) == 30
    assert chart.answers == 5 and chart.right == 4 and chart.active_days == 2
    assert chart.bars[-1].height == activity.HEIGHT
    assert chart.bars[0].height == activity.HEIGHT / 4 and chart.bars[0].right_height == 0
    assert chart.busiest.answers == 4
