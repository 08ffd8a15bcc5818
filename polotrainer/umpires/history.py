"""The history as a person reads it: each answer with its situation's title, its question's
prompt, the answer given and the right answer in words, in the reader's language.

An attempt stores the question's id, the answer given and the right answer as the engine ruled
them then; the words come from the scenario's content (its typed spec) and the engine's
vocabulary, so they follow the reader's language and any later rewording, while the ruling
itself is never recomputed. Words are worked out once per scenario and value, so an export of
100,000 answers costs little more than reading them.
"""

import csv
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from polotrainer.umpires.models import Attempt, Mode
from scenarios.localize import pick
from scenarios.models import Scenario
from scenarios.quiz import recorded_text
from scenarios.spec import ScenarioSpec, spec_of
from scenarios.variants import Variant, make_variant


@dataclass(frozen=True)
class Row:
    attempt: Attempt
    title: str
    prompt: str
    given: str
    right: str
    # Whether the history may say if it was right, and show the right answer (an exam's
    # review policy may hide both for a while): when not, `right` is empty.
    shows_result: bool = True
    shows_right: bool = True

    @property
    def replayable(self) -> bool:
        """Whether the row links to practice: an exam's variants are not practice seeds."""
        return self.attempt.mode != Mode.EXAM


class Words:
    """Titles, prompts and answers in words for one language, each worked out once."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self._specs: dict[int, ScenarioSpec] = {}
        self._texts: dict[tuple[int, str, str], str] = {}
        self._variants: dict[tuple[int, int], Variant | None] = {}

    def spec(self, scenario: Scenario) -> ScenarioSpec:
        if scenario.pk not in self._specs:
            self._specs[scenario.pk] = spec_of(scenario)
        return self._specs[scenario.pk]

    def title(self, scenario: Scenario, seed: int) -> str:
        title = self.spec(scenario).title
        texts = title.as_dict() if title else {"it": scenario.title_it, "en": scenario.title_en}
        return self._render(scenario, seed, texts)

    def prompt(self, scenario: Scenario, seed: int, question: str) -> str:
        spec = self.spec(scenario)
        entry = next((q for q in spec.questions if q.id == question), None)
        # A question since removed from the content keeps its id: better than nothing.
        return self._render(scenario, seed, entry.prompt.as_dict()) if entry else question

    def _render(self, scenario: Scenario, seed: int, texts: dict[str, str]) -> str:
        """The text in this language with the numbers of that very variant filled in
        ("Red's {red}-goal team"), each variant made once."""
        text = pick(texts, self.lang)
        if "{" not in text:
            return text
        key = (scenario.pk, seed)
        if key not in self._variants:
            try:
                self._variants[key] = make_variant(scenario.slug, scenario.data, seed)
            except ValueError:  # VariantError, FactError: the content changed since
                self._variants[key] = None
        variant = self._variants[key]
        try:
            return variant.render(texts, self.lang) if variant else text
        except (KeyError, ValueError):  # a placeholder the variant no longer has, or malformed
            return text

    def answer(self, scenario: Scenario, question: str, value: Any) -> str:
        key = (scenario.pk, question, json.dumps(value, sort_keys=True))
        if key not in self._texts:
            self._texts[key] = recorded_text(self.spec(scenario), question, value, self.lang)
        return self._texts[key]


def readable(attempts: Iterable[Attempt], lang: str) -> list[Row]:
    """The attempts (their scenario loaded) as rows of words in `lang`."""
    words = Words(lang)
    now = timezone.now()
    rows = []
    for a in attempts:
        shows_right = a.shows_right(now)
        rows.append(
            Row(
                attempt=a,
                title=words.title(a.scenario, a.seed),
                prompt=words.prompt(a.scenario, a.seed, a.question),
                given=words.answer(a.scenario, a.question, a.answer),
                right=words.answer(a.scenario, a.question, a.right_answer) if shows_right else "",
                shows_result=a.shows_result(now),
                shows_right=shows_right,
            )
        )
    return rows


class _Echo:
    def write(self, value: str) -> str:
        return value


def csv_lines(user_id: int, lang: str) -> Iterator[str]:
    """The umpire's whole history as CSV lines, oldest first: the words a person reads, then the
    codes a tool reads. Scenarios are read once; answers stream in chunks."""
    writer = csv.writer(_Echo())
    words = Words(lang)
    scenarios = {s.pk: s for s in Scenario.objects.all()}
    modes = dict(Mode.choices)
    yield "\ufeff" + writer.writerow(
        [
            _("Date"),
            _("Where"),
            _("Section"),
            _("Situation"),
            _("Question"),
            _("Your answer"),
            _("The right answer"),
            _("Result"),
            _("Seconds"),
            "slug",
            "seed",
            "question",
            "answer",
            "right_answer",
            "correct",
            "mode",
            "content_version",
            "created_at",
        ]
    )
    right_word, wrong_word = _("right"), _("wrong")
    rows = (
        Attempt.objects.filter(user_id=user_id)
        .order_by("created_at", "pk")
        .values_list(
            "scenario_id",
            "seed",
            "question",
            "answer",
            "right_answer",
            "correct",
            "time_taken_ms",
            "mode",
            "context_label",
            "content_version",
            "created_at",
            "result_hidden_until",
            "right_hidden_until",
        )
    )
    zone = timezone.get_current_timezone()
    now = timezone.now()
    hidden = _("not shown yet")
    for (
        sid,
        seed,
        question,
        given,
        right,
        correct,
        ms,
        mode,
        label,
        version,
        at,
        result_until,
        right_until,
    ) in rows.iterator(5000):
        scenario = scenarios[sid]
        # An exam's review policy may keep whether it was right, and the right answer, for later.
        if result_until is not None and result_until > now:
            yield writer.writerow(
                [
                    at.astimezone(zone).strftime("%Y-%m-%d %H:%M"),
                    label or str(modes.get(mode, mode)),
                    scenario.data.get("section", ""),
                    words.title(scenario, seed),
                    words.prompt(scenario, seed, question),
                    words.answer(scenario, question, given),
                    hidden,
                    hidden,
                    "" if ms is None else f"{ms / 1000:.1f}",
                    scenario.slug,
                    "",
                    question,
                    json.dumps(given, ensure_ascii=False),
                    "",
                    "",
                    mode,
                    version,
                    at.isoformat(),
                ]
            )
            continue
        if right_until is not None and right_until > now:
            right = None
        yield writer.writerow(
            [
                at.astimezone(zone).strftime("%Y-%m-%d %H:%M"),
                label or str(modes.get(mode, mode)),
                scenario.data.get("section", ""),
                words.title(scenario, seed),
                words.prompt(scenario, seed, question),
                words.answer(scenario, question, given),
                words.answer(scenario, question, right) if right is not None else "",
                right_word if correct else wrong_word,
                "" if ms is None else f"{ms / 1000:.1f}",
                scenario.slug,
                seed,
                question,
                json.dumps(given, ensure_ascii=False),
                "" if right is None else json.dumps(right, ensure_ascii=False),
                "true" if correct else "false",
                mode,
                version,
                at.isoformat(),
            ]
        )
