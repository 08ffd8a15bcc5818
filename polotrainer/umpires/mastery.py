"""Mastery: how well an umpire rules on each section and each rule of the rulebook.

A scenario's score is the share of right answers among the umpire's last five answers to it
(0 when never answered). A section's mastery is the mean score of its live scenarios, a rule's
the mean over all its live scenarios: so mastery grows only by answering *every* situation
right, recently and repeatedly. docs/progress.md says the same for people.
"""

from collections import defaultdict
from dataclasses import dataclass

from django.contrib.auth.base_user import AbstractBaseUser
from django.db.models import F, Window
from django.db.models.functions import RowNumber

from polotrainer.umpires.models import Attempt
from scenarios.localize import pick
from scenarios.models import Scenario

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


def scenario_scores(user: AbstractBaseUser) -> dict[int, float]:
    """Each answered scenario's share of right answers among its last LAST_N answers."""
    latest = (
        Attempt.objects.filter(user=user)
        .annotate(
            recent=Window(
                RowNumber(),
                partition_by=[F("scenario_id")],
                order_by=[F("created_at").desc()],
            )
        )
        .filter(recent__lte=LAST_N)
        .order_by()
        .values_list("scenario_id", "correct")
    )
    right: dict[int, int] = defaultdict(int)
    given: dict[int, int] = defaultdict(int)
    for scenario_id, correct in latest:
        given[scenario_id] += 1
        right[scenario_id] += bool(correct)
    return {scenario_id: right[scenario_id] / n for scenario_id, n in given.items()}


def mastery(user: AbstractBaseUser) -> tuple[list[Mastery], list[Mastery]]:
    """(sections, rules), each weakest first; two queries whatever the history size."""
    scores = scenario_scores(user)
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
    sections: dict[str, dict] = {}
    rules: dict[int, dict] = {}
    for sid, rule, rule_it, rule_en, ref, position, title_it, title_en in rows:
        score = scores.get(sid)
        for key, bucket, title, pos in (
            (ref, sections, {"it": title_it, "en": title_en}, position),
            (rule, rules, {"it": rule_it, "en": rule_en}, 0),
        ):
            entry = bucket.setdefault(
                key,
                {
                    "rule": rule,
                    "position": pos,
                    "title": pick(title),
                    "n": 0,
                    "seen": 0,
                    "sum": 0.0,
                },
            )
            entry["n"] += 1
            if score is not None:
                entry["seen"] += 1
                entry["sum"] += score

    def build(key: object, e: dict) -> Mastery:
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
