"""Mastery: how well an umpire rules on each section and each rule of the rulebook.

A scenario's score is the share of right answers among the umpire's last five answers to it
(0 when never answered). A section's mastery is the mean score of its live scenarios, a rule's
the mean over all its live scenarios: so mastery grows only by answering *every* situation
right, recently and repeatedly. docs/progress.md says the same for people.

Scores come from the ScenarioProgress rows kept as answers are recorded, so reading them costs
the same with ten answers or a hundred thousand; a course's gradebook reads the same rows for a
whole cohort in one query.
"""

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User

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
    floor = since.timestamp() * 1000 if since is not None else None
    kept = [bool(right) for at, right in list(recent)[:LAST_N] if floor is None or at >= floor]
    return sum(kept) / len(kept) if kept else None


def scenario_scores(user: User, since: datetime | None = None) -> dict[int, float]:
    """Each answered scenario's score for one umpire."""
    rows = ScenarioProgress.objects.filter(user=user).values_list("scenario_id", "recent")
    return {sid: s for sid, recent in rows if (s := score(recent, since)) is not None}


def scores_by_user(
    user_ids: Iterable[int], since: Mapping[int, datetime] | None = None
) -> dict[int, dict[int, float]]:
    """Scenario scores for many umpires in one query (each counted from its own `since`)."""
    out: dict[int, dict[int, float]] = defaultdict(dict)
    rows = ScenarioProgress.objects.filter(user_id__in=list(user_ids)).values_list(
        "user_id", "scenario_id", "recent"
    )
    for uid, sid, recent in rows:
        s = score(recent, (since or {}).get(uid))
        if s is not None:
            out[uid][sid] = s
    return out


def mastery(user: User, since: datetime | None = None) -> tuple[list[Mastery], list[Mastery]]:
    """(sections, rules), each weakest first; two queries whatever the history size."""
    return summarise(scenario_scores(user, since), catalogue())


def summarise(
    scores: Mapping[int, float], situations: Iterable[Situation]
) -> tuple[list[Mastery], list[Mastery]]:
    """Sections and rules, weakest first, from scenario scores over the live scenarios."""
    sections: dict[str, dict[str, Any]] = {}
    rules: dict[str, dict[str, Any]] = {}
    for s in situations:
        value = scores.get(s.id)
        for key, bucket, title, pos in (
            (s.section, sections, s.section_title, s.section_position),
            (str(s.rule), rules, s.rule_title, 0),
        ):
            entry = bucket.get(key)
            if entry is None:  # the title is picked once per section, not once per scenario
                entry = bucket[key] = {
                    "rule": s.rule,
                    "position": pos,
                    "title": pick(title),
                    "n": 0,
                    "seen": 0,
                    "sum": 0.0,
                }
            entry["n"] += 1
            if value is not None:
                entry["seen"] += 1
                entry["sum"] += value

    def build(key: str, e: dict[str, Any]) -> Mastery:
        return Mastery(
            ref=str(key),
            rule=e["rule"],
            position=e["position"],
            title=e["title"],
            scenarios=e["n"],
            answered=e["seen"],
            score=e["sum"] / e["n"],
        )

    def weakest_first(m: Mastery) -> tuple[float, int, int]:
        return (m.score, m.rule, m.position)

    return (
        sorted((build(k, e) for k, e in sections.items()), key=weakest_first),
        sorted((build(k, e) for k, e in rules.items()), key=weakest_first),
    )
