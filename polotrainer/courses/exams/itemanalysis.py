"""Item analysis of an exam, with Moodle's formulas, over each trainee's first attempt.

An item is one question of one scenario (scenario, question id), marked 0 or 1. Attempts draw
their scenarios from a blueprint, so an item is seen in some attempts only; each item's figures
are computed over the attempts that had it (Moodle does the same for random questions). For an
item, over its s attempts, with x its mark and Y the rest of the test (the attempt's right
answers minus x):

- facility = mean(x) / max mark (1)
- discrimination index = 100 * r(x, Y), Pearson's correlation with s - 1 in both the
  covariance and the variances
- discriminative efficiency = 100 * Cov(x, Y) / Cov_max(x, Y), where Cov_max pairs x and Y each
  sorted on its own (the largest covariance those values could have)

Undefined figures (fewer than two attempts, no variance) are None. Items with a negative
discrimination index come first. Beyond Moodle, per scenario: the wrong answer given most often
and, per parameter of the variant, the value that goes with the most wrong answers.

`analyse` takes plain data (the benchmark feeds it 300 attempts x 50 questions); `for_exam`
reads an exam's first attempts; `in_words` gives the page its words: each situation's title,
each question's prompt, answers and the situation's facts in the reader's language (the CSV
keeps the codes, for tools).
"""

import json
import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from polotrainer.courses.exams.models import Exam, ExamAttempt, ExamSlot
from polotrainer.umpires import history
from scenarios.models import Scenario


@dataclass(frozen=True)
class Mark:
    """One question of one attempt: the item, its mark, the answer and the variant's values."""

    scenario_id: int
    question: str
    mark: int
    given: Any = None
    values: dict[str, Any] = field(default_factory=dict)
    seed: int = 0  # the variant's, to read the answer on its own field

    @property
    def item(self) -> tuple[int, str]:
        return (self.scenario_id, self.question)


@dataclass(frozen=True)
class ItemStats:
    scenario_id: int
    question: str
    attempts: int
    facility: float | None
    discrimination: float | None
    efficiency: float | None

    @property
    def negative(self) -> bool:
        return self.discrimination is not None and self.discrimination < 0


@dataclass(frozen=True)
class ParamLink:
    """A parameter's value and the share of wrong answers among the questions that had it."""

    name: str
    value: str
    wrong: int
    total: int

    @property
    def wrong_share(self) -> float:
        return self.wrong / self.total if self.total else 0.0


@dataclass(frozen=True)
class ScenarioStats:
    scenario_id: int
    answers: int
    wrong: int
    common_wrong: str | None  # the wrong answer given most often (JSON), per question
    common_wrong_question: str | None
    common_wrong_count: int
    common_wrong_seed: int | None  # a variant it was given to (a spot reads on its field)
    params: list[ParamLink]  # the values most linked to wrong answers first


@dataclass(frozen=True)
class Analysis:
    attempts: int
    items: list[ItemStats]
    scenarios: list[ScenarioStats]


def analyse(attempts: Sequence[Sequence[Mark]]) -> Analysis:
    """The statistics of these attempts (each a list of its questions' marks)."""
    totals = [sum(m.mark for m in marks) for marks in attempts]
    per_item: dict[tuple[int, str], tuple[list[int], list[int]]] = defaultdict(lambda: ([], []))
    for marks, total in zip(attempts, totals, strict=True):
        for m in marks:
            xs, ys = per_item[m.item]
            xs.append(m.mark)
            ys.append(total - m.mark)
    items = [_item(key, xs, ys) for key, (xs, ys) in per_item.items()]
    items.sort(
        key=lambda i: (
            not i.negative,
            i.discrimination if i.discrimination is not None else math.inf,
            i.scenario_id,
            i.question,
        )
    )
    return Analysis(len(attempts), items, _scenarios(m for marks in attempts for m in marks))


def _item(key: tuple[int, str], xs: list[int], ys: list[int]) -> ItemStats:
    s = len(xs)
    facility = sum(xs) / s if s else None
    discrimination = efficiency = None
    if s >= 2:
        mx, my = sum(xs) / s, sum(ys) / s
        cov = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / (s - 1)
        vx = sum((x - mx) ** 2 for x in xs) / (s - 1)
        vy = sum((y - my) ** 2 for y in ys) / (s - 1)
        if vx > 0 and vy > 0:
            discrimination = 100 * cov / math.sqrt(vx * vy)
        cov_max = sum((x - mx) * (y - my) for x, y in zip(sorted(xs), sorted(ys), strict=True)) / (
            s - 1
        )
        if cov_max > 0:
            efficiency = 100 * cov / cov_max
    return ItemStats(key[0], key[1], s, facility, discrimination, efficiency)


def _scenarios(marks: Iterable[Mark]) -> list[ScenarioStats]:
    answers: Counter[int] = Counter()
    wrong: Counter[int] = Counter()
    wrong_answers: dict[int, Counter[tuple[str, str]]] = defaultdict(Counter)
    seeds: dict[tuple[int, str, str], int] = {}
    params: dict[int, dict[tuple[str, str], list[int]]] = defaultdict(
        lambda: defaultdict(lambda: [0, 0])
    )
    for m in marks:
        answers[m.scenario_id] += 1
        if not m.mark:
            wrong[m.scenario_id] += 1
            if m.given is not None:
                text = json.dumps(m.given, sort_keys=True, ensure_ascii=False)
                wrong_answers[m.scenario_id][(m.question, text)] += 1
                seeds.setdefault((m.scenario_id, m.question, text), m.seed)
        for name, value in m.values.items():
            tally = params[m.scenario_id][(name, str(value))]
            tally[0] += 0 if m.mark else 1
            tally[1] += 1
    out = []
    for sid in sorted(answers):
        common = wrong_answers[sid].most_common(1)
        links = [
            ParamLink(name, value, w, t)
            for (name, value), (w, t) in params[sid].items()
            if w and len({v for (n, v) in params[sid] if n == name}) > 1
        ]
        links.sort(key=lambda p: (-p.wrong_share, -p.wrong, p.name, p.value))
        out.append(
            ScenarioStats(
                scenario_id=sid,
                answers=answers[sid],
                wrong=wrong[sid],
                common_wrong=common[0][0][1] if common else None,
                common_wrong_question=common[0][0][0] if common else None,
                common_wrong_count=common[0][1] if common else 0,
                common_wrong_seed=seeds[(sid, *common[0][0])] if common else None,
                params=links,
            )
        )
    out.sort(key=lambda s: (-(s.wrong / s.answers if s.answers else 0), s.scenario_id))
    return out


def first_attempts(exam: Exam) -> list[ExamAttempt]:
    """Each trainee's first submitted attempt (Moodle's default), previews left out; attempts
    of deleted accounts stay (their user is gone, the attempt is not)."""
    attempts = exam.attempts.filter(preview=False, finished_at__isnull=False).order_by(
        "number", "started_at", "pk"
    )
    seen: set[int] = set()
    out = []
    for a in attempts:
        if a.user_id is not None:
            if a.user_id in seen:
                continue
            seen.add(a.user_id)
        elif a.number != 1:
            continue
        out.append(a)
    return out


def for_exam(exam: Exam) -> Analysis:
    """The analysis of the exam's first attempts, from two queries."""
    attempts = first_attempts(exam)
    slots: dict[int, list[Mark]] = defaultdict(list)
    rows = ExamSlot.objects.filter(attempt__in=[a.pk for a in attempts]).values_list(
        "attempt_id", "scenario_id", "marks", "given", "variant_values", "seed"
    )
    for attempt_id, scenario_id, marks, given, values, seed in rows:
        for qid, ok in marks.items():
            slots[attempt_id].append(
                Mark(scenario_id, qid, 1 if ok else 0, (given or {}).get(qid), values or {}, seed)
            )
    return analyse([slots[a.pk] for a in attempts])


# --- in words, for the page ---------------------------------------------------------------------

#: The facts a situation's wrong answers are shown with, at most.
FACTS_SHOWN = 3


@dataclass(frozen=True)
class ItemWords:
    stats: ItemStats
    slug: str
    title: str
    prompt: str


@dataclass(frozen=True)
class FactWords:
    """One of the situation's facts ("who falls") at one value ("Blue #1") and its wrong share."""

    label: str
    value: str
    link: ParamLink


@dataclass(frozen=True)
class ScenarioWords:
    stats: ScenarioStats
    title: str
    common_wrong_prompt: str
    common_wrong: str
    facts: list[FactWords]


@dataclass(frozen=True)
class Worded:
    items: list[ItemWords]
    scenarios: list[ScenarioWords]


def in_words(analysis: Analysis, lang: str) -> Worded:
    """The analysis as a reader reads it in `lang`: no slug, question id or field name.

    Facts are the scenario's own parameters, with their labels; values the variant derives
    from them have no label and are left out.
    """
    words = history.Words(lang)
    ids = {i.scenario_id for i in analysis.items} | {s.scenario_id for s in analysis.scenarios}
    scenarios = Scenario.objects.in_bulk(ids)

    def title(sid: int) -> str:
        return words.title(scenarios[sid], 0) if sid in scenarios else ""

    def prompt(sid: int, question: str) -> str:
        return words.prompt(scenarios[sid], 0, question) if sid in scenarios else question

    items = [
        ItemWords(
            i,
            getattr(scenarios.get(i.scenario_id), "slug", ""),
            title(i.scenario_id),
            prompt(i.scenario_id, i.question),
        )
        for i in analysis.items
    ]
    out = []
    for s in analysis.scenarios:
        scenario = scenarios.get(s.scenario_id)
        common = ""
        if scenario is not None and s.common_wrong is not None and s.common_wrong_question:
            value = json.loads(s.common_wrong)
            seed = s.common_wrong_seed or 0
            common = words.answer(scenario, seed, s.common_wrong_question, value, s.common_wrong)
        params = words.spec(scenario).params if scenario is not None else {}
        facts = [
            FactWords(params[p.name].label.pick(lang), params[p.name].label_of(p.value, lang), p)
            for p in s.params
            if p.name in params and params[p.name].label.pick(lang)
        ][:FACTS_SHOWN]
        out.append(
            ScenarioWords(
                s,
                title(s.scenario_id),
                prompt(s.scenario_id, s.common_wrong_question) if s.common_wrong_question else "",
                common,
                facts,
            )
        )
    return Worded(items, out)
