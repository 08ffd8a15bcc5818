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
from datetime import UTC, datetime
from typing import Any

from django.db import connections
from django.db.models import QuerySet, TextField
from django.db.models.functions import Cast
from django.utils import timezone
from django.utils.translation import gettext as _

from polotrainer.umpires.models import Attempt, Mode
from scenarios.localize import pick
from scenarios.models import Scenario, citation
from scenarios.quiz import recorded_text
from scenarios.spec import ScenarioSpec, spec_of
from scenarios.texts import section_titles
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
        self._prompts: dict[tuple[int, int, str], str] = {}

    def spec(self, scenario: Scenario) -> ScenarioSpec:
        if scenario.pk not in self._specs:
            self._specs[scenario.pk] = spec_of(scenario)
        return self._specs[scenario.pk]

    def title(self, scenario: Scenario, seed: int) -> str:
        title = self.spec(scenario).title
        texts = title.as_dict() if title else {"it": scenario.title_it, "en": scenario.title_en}
        return self._render(scenario, seed, texts)

    def prompt(self, scenario: Scenario, seed: int, question: str) -> str:
        key = (scenario.pk, seed, question)
        if key not in self._prompts:
            self._prompts[key] = self._prompt(scenario, seed, question)
        return self._prompts[key]

    def _prompt(self, scenario: Scenario, seed: int, question: str) -> str:
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

    def answer(self, scenario: Scenario, question: str, value: Any, text: str = "") -> str:
        """`value` in words; `text`, its JSON if the caller has it, spares encoding it again."""
        key = (scenario.pk, question, text or json.dumps(value, sort_keys=True))
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


class _Lines:
    """A file for csv.writer that gathers lines, so the response streams chunks, not rows."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def write(self, value: str) -> None:
        self.lines.append(value)

    def take(self) -> str:
        text, self.lines = "".join(self.lines), []
        return text


CSV_CHUNK = 1000  # rows per chunk of the streamed response


def csv_lines(user_id: int, lang: str) -> Iterator[str]:
    """The umpire's whole history as CSV, oldest first: the words a person reads, then the codes
    a tool reads. Scenarios are read once; answers are read in chunks and written in chunks of
    lines; each JSON value, title and answer in words is worked out once however often it
    recurs."""
    out = _Lines()
    writer = csv.writer(out)
    words = Words(lang)
    scenarios = {s.pk: s for s in Scenario.objects.all()}
    modes = {value: str(label) for value, label in Mode.choices}
    sections = {
        ref: f"{citation(ref)} {title.pick(lang)}".strip()
        for ref, title in section_titles().items()
    }
    writer.writerow(
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
    yield "\ufeff" + out.take()
    right_word, wrong_word = _("right"), _("wrong")
    # The JSON columns as the database's text: decoded once per distinct value, not per row.
    rows = _raw_rows(
        Attempt.objects.filter(user_id=user_id).annotate(
            given_text=Cast("answer", TextField()), right_text=Cast("right_answer", TextField())
        ),
        (
            "scenario_id",
            "seed",
            "question",
            "given_text",
            "right_text",
            "correct",
            "time_taken_ms",
            "mode",
            "context_label",
            "content_version",
            "result_hidden_until",
            "right_hidden_until",
        ),
    )
    decoded: dict[str, tuple[Any, str]] = {}

    def decode(raw: str) -> tuple[Any, str]:
        if raw not in decoded:
            value = json.loads(raw)
            decoded[raw] = (value, json.dumps(value, ensure_ascii=False))
        return decoded[raw]

    titles: dict[tuple[int, int], tuple[str, str, str, str]] = {}
    zone = timezone.get_current_timezone()
    now = timezone.now()
    hidden = _("not shown yet")
    for n, (
        at,
        sid,
        seed,
        question,
        given_raw,
        right_raw,
        correct,
        ms,
        mode,
        label,
        version,
        result_until,
        right_until,
    ) in enumerate(rows, 1):
        scenario = scenarios[sid]
        # An exam's review policy may keep whether it was right, and the right answer, for
        # later; until then neither is written, nor the seed that would open the variant.
        result_shown = result_until is None or _moment(result_until) <= now
        right_shown = result_shown and (right_until is None or _moment(right_until) <= now)
        key = (sid, seed)
        if key not in titles:
            titles[key] = (
                sections.get(scenario.data.get("section", ""), scenario.data.get("section", "")),
                words.title(scenario, seed),
                scenario.slug,
                str(seed),
            )
        section, title, slug, seed_text = titles[key]
        given, given_json = decode(given_raw)
        right, right_json = decode(right_raw) if right_raw not in (None, "null") else (None, "")
        if right is None:
            right_words = ""
        elif right_shown:
            right_words = words.answer(scenario, question, right, right_json)
        else:
            right_words, right_json = hidden, ""
        local = at.astimezone(zone)
        writer.writerow(
            [
                f"{local:%Y-%m-%d %H:%M}",
                label or modes.get(mode, mode),
                section,
                title,
                words.prompt(scenario, seed, question),
                words.answer(scenario, question, given, given_json),
                right_words,
                (right_word if correct else wrong_word) if result_shown else hidden,
                "" if ms is None else f"{ms / 1000:.1f}",
                slug,
                seed_text if result_shown else "",
                question,
                given_json,
                right_json,
                ("true" if correct else "false") if result_shown else "",
                mode,
                version,
                at.isoformat(),
            ]
        )
        if n % CSV_CHUNK == 0:
            yield out.take()
    yield out.take()


RAW_CHUNK = 5000


def _raw_rows(attempts: QuerySet[Attempt], fields: tuple[str, ...]) -> Iterator[tuple[Any, ...]]:
    """(created_at, *fields) of the attempts, oldest first, as the database driver gives them
    (JSON as its text, no per-value converters), through the cursor `.iterator()` uses (a
    server-side one on PostgreSQL), RAW_CHUNK rows at a time: memory stays flat and the first
    rows leave before the last are read."""
    page = attempts.order_by("created_at", "pk").values_list("created_at", *fields)
    sql, params = page.query.sql_with_params()
    with connections[page.db].chunked_cursor() as cursor:
        cursor.execute(sql, params)
        while chunk := cursor.fetchmany(RAW_CHUNK):
            for row in chunk:
                yield (_moment(row[0]), *row[1:])


def _moment(value: datetime | str) -> datetime:
    """A stored time as an aware datetime (SQLite hands back its UTC text)."""
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=UTC)
    return datetime.fromisoformat(value).replace(tzinfo=UTC)
