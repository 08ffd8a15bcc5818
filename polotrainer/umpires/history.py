"""The history as a person reads it: each answer with its situation's title, its question's
prompt, the answer given and the right answer in words, in the reader's language.

An attempt stores the question's id, the answer given and the right answer as the engine ruled
them then; the words come from the scenario's content (its typed spec) and the engine's
vocabulary, so they follow the reader's language and any later rewording, while the ruling
itself is never recomputed. A spot is stored in the engine's frame (from the centre of the
field), so it is read on the field of the very variant it was answered on: the content's own,
or, where a parameter sets the field's size, the variant's made again from its seed. Words are
worked out once per scenario, field and value, so an export of 100,000 answers costs little
more than reading them.
"""

import itertools
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, tzinfo
from typing import Any

from django.db import connections
from django.db.models import QuerySet, TextField
from django.db.models.functions import Cast
from django.utils import timezone
from django.utils.translation import gettext as _

from polotrainer.rules import Field
from polotrainer.umpires.models import Attempt, Mode
from polotrainer.web import downloads
from scenarios.diagram import field_of
from scenarios.localize import pick
from scenarios.models import Scenario, citation
from scenarios.quiz import needs_field, recorded_text
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
        self._texts: dict[tuple[int, str, Field | None, str], str] = {}
        self._variants: dict[tuple[int, int], Variant | None] = {}
        self._fields: dict[tuple[int, int], Field | None] = {}
        self._needs_field: dict[tuple[int, str], bool] = {}
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
        variant = self._variant(scenario, seed)
        try:
            return variant.render(texts, self.lang) if variant else text
        except (KeyError, ValueError):  # a placeholder the variant no longer has, or malformed
            return text

    def _variant(self, scenario: Scenario, seed: int) -> Variant | None:
        key = (scenario.pk, seed)
        if key not in self._variants:
            try:
                self._variants[key] = make_variant(scenario.slug, scenario.data, seed)
            except ValueError:  # VariantError, FactError: the content changed since
                self._variants[key] = None
        return self._variants[key]

    def _reads_on_field(self, scenario: Scenario, question: str) -> bool:
        key = (scenario.pk, question)
        if key not in self._needs_field:
            self._needs_field[key] = needs_field(self.spec(scenario), question)
        return self._needs_field[key]

    def _field(self, scenario: Scenario, seed: int) -> Field | None:
        """The field of variant `seed` (the same for each of its answers and questions); None
        when the variant can no longer be made."""
        key = (scenario.pk, seed)
        if key not in self._fields:
            variant = self._variant(scenario, seed)
            self._fields[key] = None if variant is None else field_of(variant.facts)
        return self._fields[key]

    def answer(
        self, scenario: Scenario, seed: int, question: str, value: Any, text: str = ""
    ) -> str:
        """`value`, an answer to variant `seed`, in words; `text`, its JSON if the caller has
        it, spares encoding it again."""
        field: Field | None = None
        if self._reads_on_field(scenario, question):
            field = self._field(scenario, seed)
            if field is None:  # no field to read the spot on: as stored
                return text or json.dumps(value, ensure_ascii=False)
        key = (scenario.pk, question, field, text or json.dumps(value, sort_keys=True))
        if key not in self._texts:
            self._texts[key] = recorded_text(self.spec(scenario), question, value, self.lang, field)
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
                given=words.answer(a.scenario, a.seed, a.question, a.answer),
                right=words.answer(a.scenario, a.seed, a.question, a.right_answer)
                if shows_right
                else "",
                shows_result=a.shows_result(now),
                shows_right=shows_right,
            )
        )
    return rows


def csv_lines(user_id: int, lang: str) -> Iterator[str]:
    """The umpire's whole history as CSV, oldest first: the words a person reads, then the codes
    a tool reads. Scenarios are read once; answers are read in chunks and written in chunks of
    lines; each JSON value, title and answer in words is worked out once however often it
    recurs, and so are the cells a row shares with others, as CSV. Written and streamed in
    chunks by web.downloads."""
    return downloads.csv_lines(_rows(user_id, lang))


def _rows(user_id: int, lang: str) -> Iterator[list[Any] | str]:
    words = Words(lang)
    scenarios = {s.pk: s for s in Scenario.objects.all()}
    modes = {value: str(label) for value, label in Mode.choices}
    sections = {
        ref: f"{citation(ref)} {title.pick(lang)}".strip()
        for ref, title in section_titles().items()
    }
    yield (
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
    # The JSON columns (and on SQLite the time) as the database's text: decoded once per
    # distinct value, not per row, and no per-value converter.
    attempts = Attempt.objects.filter(user_id=user_id).annotate(
        given_text=Cast("answer", TextField()), right_text=Cast("right_answer", TextField())
    )
    when = "created_at"
    if connections[attempts.db].vendor == "sqlite":
        attempts = attempts.annotate(created_text=Cast("created_at", TextField()))
        when = "created_text"
    rows = _raw_rows(
        attempts,
        when,
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
            "variant_hidden_until",
        ),
    )
    # What a scenario's rows share, worked out on its first row: its section and slug, its
    # title when no variant's numbers fill it in (else None: per seed, below), and per
    # question its prompt (likewise) and whether its answers read only on the variant's field.
    per_scenario: dict[int, tuple[Scenario, str, str | None]] = {}
    per_question: dict[tuple[int, str], tuple[str | None, bool]] = {}
    titles: dict[tuple[int, int], str] = {}
    # Answers in words, by (scenario, question, stored text), for questions read without a
    # field; the others go through `words` with their variant's field.
    in_words: dict[tuple[int, str, str], tuple[str, str]] = {}
    decoded: dict[str, tuple[Any, str]] = {}

    def decode(raw: str) -> tuple[Any, str]:
        if raw not in decoded:
            value = json.loads(raw)
            decoded[raw] = (value, json.dumps(value, ensure_ascii=False))
        return decoded[raw]

    def scenario_of(sid: int) -> tuple[Scenario, str, str | None]:
        scenario = scenarios[sid]
        ref = scenario.data.get("section", "")  # a section with no title shows its number
        spec = words.spec(scenario)
        title = pick(spec.title.as_dict() if spec.title else scenario_titles(scenario), lang)
        found = (scenario, sections.get(ref, ref), None if "{" in title else title)
        per_scenario[sid] = found
        return found

    def question_of(sid: int, question: str) -> tuple[str | None, bool]:
        spec = words.spec(scenarios[sid])
        entry = next((q for q in spec.questions if q.id == question), None)
        prompt = pick(entry.prompt.as_dict(), lang) if entry else question
        found = (None if "{" in prompt else prompt, needs_field(spec, question))
        per_question[sid, question] = found
        return found

    def answer_words(
        scenario: Scenario, seed: int, question: str, raw: str, field: bool
    ) -> tuple[str, str]:
        key = (scenario.id, question, raw)
        if not field and key in in_words:
            return in_words[key]
        value, text = decode(raw)
        found = (words.answer(scenario, seed, question, value, text), text)
        if not field:
            in_words[key] = found
        return found

    clock = _Clock(timezone.get_current_timezone())
    now = timezone.now()
    hidden = _("not shown yet")
    # Most rows repeat another's situation, question, answers and result: when nothing of them
    # depends on the variant (its seed) or is hidden, those cells are written as CSV once and
    # the row is a Line of them and of its own time, place, seconds, seed and version.
    shared: dict[tuple[int, str, str, str | None, bool], tuple[str, str, str]] = {}
    # Where the answer was given, and its mode and version, as CSV: by (mode, label, version).
    contexts: dict[tuple[str, str, str], tuple[str, str]] = {}
    durations: dict[int | None, str] = {None: ""}  # milliseconds: seconds as written

    for (
        stored,
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
        variant_until,
    ) in rows:
        iso, local = clock(stored)
        seconds = durations.get(ms)
        if seconds is None:
            seconds = durations[ms] = f"{ms / 1000:.1f}"
        key = (sid, question, given_raw, right_raw, correct)
        shown = result_until is None and right_until is None and variant_until is None
        if shown and (parts := shared.get(key)) is not None:
            context = contexts.get((mode, label, version))
            if context is None:
                context = contexts[mode, label, version] = (
                    downloads.cells([label or modes.get(mode, mode)]),
                    downloads.cells([mode, version]),
                )
            yield (
                f"{local},{context[0]},{parts[0]},{seconds},{parts[1]},{seed},{parts[2]},"
                f"{context[1]},{iso}{downloads.LINE_END}"
            )
            continue
        where = label or modes.get(mode, mode)
        scenario, section, title = per_scenario.get(sid) or scenario_of(sid)
        prompt, field = per_question.get((sid, question)) or question_of(sid, question)
        plain = shown and not (title is None or prompt is None or field)
        if title is None:
            if (sid, seed) not in titles:
                titles[sid, seed] = words.title(scenario, seed)
            title = titles[sid, seed]
        if prompt is None:
            prompt = words.prompt(scenario, seed, question)
        # An exam's review policy may keep whether it was right, and the right answer, for
        # later; until then neither is written, nor the seed that would open the variant. Its
        # scenario (the slug) and seed wait for the exam's close in any case: until then they
        # would tell another trainee which situation to look up.
        result_shown = result_until is None or _moment(result_until) <= now
        right_shown = result_shown and (right_until is None or _moment(right_until) <= now)
        variant_shown = variant_until is None or _moment(variant_until) <= now
        given_words, given_json = answer_words(scenario, seed, question, given_raw, field)
        if right_raw in (None, "null"):
            right_words, right_json = "", ""
        elif right_shown:
            right_words, right_json = answer_words(scenario, seed, question, right_raw, field)
        else:
            right_words, right_json = hidden, ""
        row = [
            local,
            where,
            section,
            title,
            prompt,
            given_words,
            right_words,
            (right_word if correct else wrong_word) if result_shown else hidden,
            seconds,
            scenario.slug if variant_shown else "",
            str(seed) if result_shown and variant_shown else "",
            question,
            given_json,
            right_json,
            ("true" if correct else "false") if result_shown else "",
            mode,
            version,
            iso,
        ]
        if plain:
            shared[key] = (
                downloads.cells(row[2:8]),
                downloads.cells(row[9:10]),
                downloads.cells(row[11:15]),
            )
        yield row


class _Clock:
    """A stored time's two columns: the reader's local minute ("2026-12-07 09:41") and the UTC
    instant in ISO 8601 ("2026-12-07T08:41:05.123456+00:00"), as astimezone() and isoformat()
    write them. From SQLite's UTC text the instant is made without a datetime; the local minute
    is the UTC minute under the local hour, worked out once a day for each hour the zone keeps
    a whole number of hours from UTC all through (any other: for the answer itself)."""

    def __init__(self, zone: tzinfo) -> None:
        self.zone = zone
        self.hours: dict[str, str] = {}  # UTC "2026-12-07T08": local "2026-12-07 09", or ""

    def __call__(self, stored: datetime | str) -> tuple[str, str]:
        if isinstance(stored, str) and len(stored) in (19, 26) and stored[10] == " ":
            iso = f"{stored[:10]}T{stored[11:]}+00:00"  # as the ORM writes a time there
        else:
            iso = _moment(stored).isoformat()
        if iso.endswith("+00:00"):
            local = self.hours.get(iso[:13])
            if local is None:
                self._day(iso[:10])
                local = self.hours[iso[:13]]
            if local:
                return iso, local + iso[13:16]
        return iso, _moment(stored).astimezone(self.zone).isoformat(" ", "minutes")[:16]

    def _day(self, day: str) -> None:
        start = datetime.fromisoformat(f"{day}T00:00:00+00:00")
        ends = [(start + timedelta(hours=h)).astimezone(self.zone) for h in range(25)]
        for h, (local, then) in enumerate(itertools.pairwise(ends)):
            offset = local.utcoffset()
            whole = offset == then.utcoffset() and offset is not None and not offset % _HOUR
            self.hours[f"{day}T{h:02}"] = local.isoformat(" ", "hours")[:13] if whole else ""


_HOUR = timedelta(hours=1)


def scenario_titles(scenario: Scenario) -> dict[str, str]:
    return {"it": scenario.title_it, "en": scenario.title_en}


RAW_CHUNK = 5000


def _raw_rows(
    attempts: QuerySet[Attempt], when: str, fields: tuple[str, ...]
) -> Iterator[tuple[Any, ...]]:
    """(when, *fields) of the attempts (`when`: the time, or its text), oldest first, as the
    database driver gives them (JSON as its text, the time as stored: no per-value converters;
    see _moment), through the cursor
    `.iterator()` uses (a server-side one on PostgreSQL), RAW_CHUNK rows at a time: memory
    stays flat and the first rows leave before the last are read."""
    page = attempts.order_by("created_at", "pk").values_list(when, *fields)
    sql, params = page.query.sql_with_params()
    with connections[page.db].chunked_cursor() as cursor:
        cursor.execute(sql, params)
        while chunk := cursor.fetchmany(RAW_CHUNK):
            yield from chunk


def _moment(value: datetime | str) -> datetime:
    """A stored time as an aware datetime (SQLite hands back its UTC text)."""
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=UTC)
    return datetime.fromisoformat(value).replace(tzinfo=UTC)
