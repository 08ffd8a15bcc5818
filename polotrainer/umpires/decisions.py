"""Decision time: how fast an umpire calls a play in the drills, per section of the rulebook.

Every drill answer is recorded with its decision time (Attempt.decision_ms: from the moment
the scene stopped, the whistle due, to the answer). A variant counts once, whatever number of
questions it asked: right only if every answer was, and its time is its questions' (one
answer, one time). "Fast and right" is right within FAST_MS; "slow and right" is right but
later; a time-out is wrong with no choice (its answers are empty).
"""

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from statistics import median

from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.utils import timezone

from polotrainer.umpires.models import Attempt, Mode
from scenarios.models import Section

#: A call within this many milliseconds of the stop is fast: umpires whistle in a second or two.
FAST_MS = 2000


#: The weeks the dashboard's trend shows, the newest last (weeks with no drill are left out).
TREND_WEEKS = 8


@dataclass(frozen=True)
class Week:
    """One week's calls of a section: from Monday (in the active time zone), how many, the
    median time and the share fast and right."""

    start: date
    answered: int
    median_ms: int
    fast_right: int

    @property
    def median_seconds(self) -> float:
        return self.median_ms / 1000

    @property
    def fast_right_percent(self) -> int:
        return round(100 * self.fast_right / self.answered)


@dataclass(frozen=True)
class Decisions:
    """One section's drill answers: how many, how right, how fast, and week by week."""

    section: Section
    answered: int
    fast_right: int
    slow_right: int
    wrong: int
    timed_out: int
    median_ms: int
    weeks: tuple[Week, ...] = ()

    @property
    def median_seconds(self) -> float:
        return self.median_ms / 1000


@dataclass(frozen=True)
class Call:
    """One variant called in a drill: its section, right or not, its time, when."""

    section_id: int
    right: bool
    ms: int
    timed_out: bool
    at: datetime


#: An answer as `calls` reads it: section id, drill item (context id), correct, decision ms,
#: the answer given (None for a time-out) and when it was recorded.
Row = tuple[int, int | None, bool, int | None, object, datetime]


def calls(rows: Iterable[Row]) -> list[Call]:
    """Answers grouped into calls, one per variant (drill item): right only if every answer
    was, its time and moment its first answer's."""
    variants: dict[tuple[int, int | None], list[tuple[bool, int, bool, datetime]]] = defaultdict(
        list
    )
    for section_id, item, correct, ms, answer, at in rows:
        variants[(section_id, item)].append((bool(correct), int(ms or 0), answer is None, at))
    return [
        Call(
            section_id=section_id,
            right=all(c for c, _ms, _none, _at in answers),
            ms=answers[0][1],
            timed_out=all(none for _c, _ms, none, _at in answers),
            at=min(at for _c, _ms, _none, at in answers),
        )
        for (section_id, _item), answers in variants.items()
    ]


def drill_rows(**filters: object) -> "QuerySet[Attempt, Row]":
    """Drill answers with a decision time, as `calls` reads them (filtered by `filters`)."""
    return (
        Attempt.objects.filter(mode=Mode.DRILL, decision_ms__isnull=False, **filters)
        .values_list(
            "scenario__section_id", "context_id", "correct", "decision_ms", "answer", "created_at"
        )
        .order_by()
    )


def per_section(user: User) -> list[Decisions]:
    """The user's drill answers per section, the slowest median first; one query (+ sections)."""
    by_section: dict[int, list[Call]] = defaultdict(list)
    for call in calls(drill_rows(user=user)):
        by_section[call.section_id].append(call)
    sections = Section.objects.in_bulk(list(by_section))
    out = []
    for section_id, made in by_section.items():
        out.append(
            Decisions(
                section=sections[section_id],
                answered=len(made),
                fast_right=sum(1 for c in made if c.right and c.ms <= FAST_MS),
                slow_right=sum(1 for c in made if c.right and c.ms > FAST_MS),
                wrong=sum(1 for c in made if not c.right and not c.timed_out),
                timed_out=sum(1 for c in made if c.timed_out),
                median_ms=round(median(c.ms for c in made)),
                weeks=weekly(made),
            )
        )
    return sorted(out, key=lambda d: (-d.median_ms, d.section.ref))


def weekly(made: Iterable[Call], weeks: int = TREND_WEEKS) -> tuple[Week, ...]:
    """The calls week by week (Monday to Sunday in the active time zone), the last `weeks`
    weeks that have any, oldest first."""
    by_week: dict[date, list[Call]] = defaultdict(list)
    for call in made:
        day = timezone.localdate(call.at)
        by_week[day - timedelta(days=day.weekday())].append(call)
    return tuple(
        Week(
            start=start,
            answered=len(in_week),
            median_ms=round(median(c.ms for c in in_week)),
            fast_right=sum(1 for c in in_week if c.right and c.ms <= FAST_MS),
        )
        for start, in_week in sorted(by_week.items())[-weeks:]
    )
