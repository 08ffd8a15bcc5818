"""Mastery: how well an umpire rules on each section and each rule of the rulebook.

A scenario's score is the share of right answers among the umpire's last five answers to it
(0 when never answered). A section's mastery is the mean score of its live scenarios, a rule's
the mean over all its live scenarios: so mastery grows only by answering *every* situation
right, recently and repeatedly. docs/progress.md says the same for people.

Scores come from the ScenarioProgress rows kept as answers are recorded, so reading them costs
the same with ten answers or a hundred thousand; a course's gradebook reads the same rows for a
whole cohort in one query.
"""

import json
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import User
from django.db.models import TextField
from django.db.models.functions import Cast

from polotrainer.umpires.models import ScenarioProgress
from scenarios.localize import pick
from scenarios.models import Scenario, citation

LAST_N = 5


@dataclass(frozen=True)
class Mastery:
    """Mastery of one section (ref "3.b") or one rule (ref "3")."""

    ref: str
    rule: int
    position: int
    title: str
    scenarios: int
    answered: int
    score: float

    @property
    def percent(self) -> int:
        return round(self.score * 100)

    @property
    def citation(self) -> str:
        """The section as the rulebook numbers it ("37.7" for 37.7.applying)."""
        return citation(self.ref)


@dataclass(frozen=True)
class Situation:
    """A live scenario as mastery groups it: its section and rule, with their titles."""

    id: int
    rule: int
    rule_title: Mapping[str, str]
    section: str
    section_position: int
    section_title: Mapping[str, str]


def catalogue() -> list[Situation]:
    """Every live scenario with its section and rule, in one query."""
    rows = Scenario.objects.live().values_list(
        "id",
        "rule_id",
        "rule__title_it",
        "rule__title_en",
        "section__ref",
        "section__position",
        "section__title_it",
        "section__title_en",
    )
    return [
        Situation(sid, rule, {"it": r_it, "en": r_en}, ref, pos, {"it": s_it, "en": s_en})
        for sid, rule, r_it, r_en, ref, pos, s_it, s_en in rows
    ]


def score(recent: Iterable[list[int]], since: datetime | None = None) -> float | None:
    """The share of right answers among the last LAST_N (given since `since`, if set)."""
    return _share(recent, _floor(since))


def _share(recent: Iterable[list[int]], floor: float | None) -> float | None:
    kept = [bool(right) for at, right in list(recent)[:LAST_N] if floor is None or at >= floor]
    return sum(kept) / len(kept) if kept else None


def _floor(since: datetime | None) -> float | None:
    """A moment as `recent` writes it: epoch milliseconds."""
    return since.timestamp() * 1000 if since is not None else None


def summary(recent: Iterable[list[int]]) -> tuple[float | None, int | None]:
    """What `score` reads of `recent` from any moment up to its oldest answer, kept beside it
    (ScenarioProgress.recent_score, recent_from): the score, and when the oldest of the last
    LAST_N was given (epoch milliseconds).

    >>> summary([[3000, True], [1000, False], [2000, True]])
    (0.6666666666666666, 1000)
    >>> summary([])
    (None, None)
    """
    last = list(recent)[:LAST_N]
    return (score(last), min(at for at, _right in last)) if last else (None, None)


def _score(
    kept: float | None, oldest: int | None, recent: str, floor: float | None
) -> float | None:
    """A progress row's score from `floor` (epoch milliseconds) on, read as its recent_score,
    recent_from and `recent` as JSON text: the stored score when every answer it keeps was
    given since the floor (every row of a trainee who joined before answering it), else
    `recent` decoded and counted."""
    if oldest is not None and (floor is None or oldest >= floor):
        return kept
    return _share(json.loads(recent), floor)


#: `recent` as the database's JSON text: most rows never decode it (see `_score`).
_RECENT_TEXT = Cast("recent", TextField())


def scenario_scores(user: User, since: datetime | None = None) -> dict[int, float]:
    """Each answered scenario's score for one umpire."""
    floor = _floor(since)
    rows = ScenarioProgress.objects.filter(user=user).values_list(
        "scenario_id", "recent_score", "recent_from", _RECENT_TEXT
    )
    return {
        sid: s
        for sid, kept, oldest, recent in rows
        if (s := _score(kept, oldest, recent, floor)) is not None
    }


def scores_by_user(
    user_ids: Iterable[int], since: Mapping[int, datetime] | None = None
) -> dict[int, dict[int, float]]:
    """Scenario scores for many umpires in one query (each counted from its own `since`)."""
    floors = {uid: _floor(at) for uid, at in (since or {}).items()}
    out: dict[int, dict[int, float]] = defaultdict(dict)
    rows = ScenarioProgress.objects.filter(user_id__in=list(user_ids)).values_list(
        "user_id", "scenario_id", "recent_score", "recent_from", _RECENT_TEXT
    )
    for uid, sid, kept, oldest, recent in rows:
        s = _score(kept, oldest, recent, floors.get(uid))
        if s is not None:
            out[uid][sid] = s
    return out


def mastery(user: User, since: datetime | None = None) -> tuple[list[Mastery], list[Mastery]]:
    """(sections, rules), each weakest first; two queries whatever the history size."""
    return summarise(scenario_scores(user, since), catalogue())


@dataclass(frozen=True)
class Group:
    """A section (ref "3.b") or a rule (ref "3") and its live scenarios, titled in the current
    language: what a mastery figure averages over."""

    ref: str
    rule: int
    position: int
    title: str
    ids: tuple[int, ...]


@dataclass(frozen=True)
class Groups:
    """The live scenarios by section and by rule, worked out once: a gradebook summarises a
    whole cohort over the same groups."""

    sections: tuple[Group, ...]
    rules: tuple[Group, ...]


def grouped(situations: Iterable[Situation]) -> Groups:
    """The situations by section and by rule, each title picked once."""
    sections: dict[str, tuple[Situation, list[int]]] = {}
    rules: dict[int, tuple[Situation, list[int]]] = {}
    for s in situations:
        sections.setdefault(s.section, (s, []))[1].append(s.id)
        rules.setdefault(s.rule, (s, []))[1].append(s.id)
    return Groups(
        tuple(
            Group(ref, s.rule, s.section_position, pick(s.section_title), tuple(ids))
            for ref, (s, ids) in sections.items()
        ),
        tuple(
            Group(str(rule), rule, 0, pick(s.rule_title), tuple(ids))
            for rule, (s, ids) in rules.items()
        ),
    )


def summarise(
    scores: Mapping[int, float], situations: Iterable[Situation] | Groups
) -> tuple[list[Mastery], list[Mastery]]:
    """Sections and rules, weakest first, from scenario scores over the live scenarios (or over
    their `grouped` sections and rules, for many umpires at once)."""
    groups = situations if isinstance(situations, Groups) else grouped(situations)

    def build(group: Group) -> Mastery:
        seen, total = 0, 0.0
        for sid in group.ids:
            value = scores.get(sid)
            if value is not None:
                seen += 1
                total += value
        return Mastery(
            ref=group.ref,
            rule=group.rule,
            position=group.position,
            title=group.title,
            scenarios=len(group.ids),
            answered=seen,
            score=total / len(group.ids),
        )

    def weakest_first(m: Mastery) -> tuple[float, int, int]:
        return (m.score, m.rule, m.position)

    return (
        sorted((build(g) for g in groups.sections), key=weakest_first),
        sorted((build(g) for g in groups.rules), key=weakest_first),
    )
