"""Activity: answers per day, the streak, and the bars of the activity chart."""

from dataclasses import dataclass
from datetime import date, timedelta

from django.contrib.auth.models import User

from polotrainer.umpires.models import DayActivity

# The chart's drawing units: each day is a 10-unit slot, bars up to 100 high.
SLOT = 10
BAR = 8
HEIGHT = 100


@dataclass(frozen=True)
class Day:
    day: date
    answers: int
    right: int


@dataclass(frozen=True)
class Bar:
    day: date
    answers: int
    right: int
    x: int
    y: float
    height: float
    right_y: float
    right_height: float


@dataclass(frozen=True)
class Chart:
    """The last `span` days as bars, with what a screen reader is told instead."""

    span: int
    bars: list[Bar]
    first: date
    last: date
    answers: int
    right: int
    active_days: int
    busiest: Day | None

    @property
    def width(self) -> int:
        return self.span * SLOT

    @property
    def height(self) -> int:
        return HEIGHT

    @property
    def active_bars(self) -> list[Bar]:
        return [bar for bar in self.bars if bar.answers]


def daily(user: User, since: date | None = None) -> dict[date, Day]:
    """Answers and right answers per local day (from `since`, if set), in one query.

    Read from the per-day rows kept as answers are recorded: one row per active day, whatever
    the number of answers.
    """
    rows = DayActivity.objects.filter(user=user)
    if since is not None:
        rows = rows.filter(day__gte=since)
    return {
        day: Day(day, answers, right)
        for day, answers, right in rows.values_list("day", "answers", "correct")
    }


def streak(days: set[date], today: date) -> int:
    """Consecutive days with at least one answer, ending today or (if not yet today) yesterday.

    >>> from datetime import date
    >>> streak({date(2026, 3, 1), date(2026, 3, 2)}, date(2026, 3, 3))
    2
    >>> streak({date(2026, 3, 1)}, date(2026, 3, 3))
    0
    """
    current = today if today in days else today - timedelta(days=1)
    count = 0
    while current in days:
        count += 1
        current -= timedelta(days=1)
    return count


def chart(days: dict[date, Day], today: date, span: int) -> Chart:
    """Bars for the `span` days ending today, scaled to the busiest of them."""
    first = today - timedelta(days=span - 1)
    window = [
        days.get(first + timedelta(days=i)) or Day(first + timedelta(days=i), 0, 0)
        for i in range(span)
    ]
    peak = max((d.answers for d in window), default=0) or 1
    bars = []
    for i, d in enumerate(window):
        height = HEIGHT * d.answers / peak
        right_height = HEIGHT * d.right / peak
        bars.append(
            Bar(
                day=d.day,
                answers=d.answers,
                right=d.right,
                x=i * SLOT + (SLOT - BAR) // 2,
                y=HEIGHT - height,
                height=height,
                right_y=HEIGHT - right_height,
                right_height=right_height,
            )
        )
    active = [d for d in window if d.answers]
    return Chart(
        span=span,
        bars=bars,
        first=first,
        last=today,
        answers=sum(d.answers for d in window),
        right=sum(d.right for d in window),
        active_days=len(active),
        busiest=max(active, key=lambda d: d.answers, default=None),
    )
