"""A spot reads the same everywhere: the spot the engine rules, and the one a trainee placed,
say the same yards in the practice feedback, the history (dashboard and CSV), an exam's result
and a clinic's reveal and results, on every field length and for either goal in question.

The engine's frame has its origin at the centre of the field, so the same stored `x` is a
different distance from the goal line on a 250-yard field than on a 300-yard one: each surface
must read a spot with the field of the variant it belongs to (scenarios/spots.py, the one
home of that conversion). The cases are every bundled scenario with a place question, at
every field length its parameters can give, the ruled spot left, right and level with the
centre where its facts allow; and independently of that conversion, the rulebook's own
distances: Penalty 2 from the 30-yard line, Penalty 3 from the 40, Penalty 4 and the Safety
from the 60, Penalty 5b (and the restart after Penalty 1) from the centre, half the length.
"""

import csv
import doctest
import html
import io
import re
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.test import Client
from django.utils import timezone, translation

from polotrainer.clinics import control, state
from polotrainer.clinics.models import Round
from polotrainer.clinics.sessions import MAX_ROUNDS
from polotrainer.courses.exams import attempts
from polotrainer.courses.exams.models import ExamAttempt, Review
from scenarios import quiz, spots
from scenarios.diagram import field_of
from scenarios.models import Scenario
from scenarios.questions import build_questions
from scenarios.spots import FieldSpot
from scenarios.variants import EXAM_SEEDS, VariantError, make_variant
from tests.clinics.support import Phone, content_of, make_clinic
from tests.people import enrol, make_cohort, make_course, make_exam
from tests.people import person as clinic_person
from tests.people import person as course_person
from tests.practice.test_practice import answer as practice_answer
from tests.umpires.test_history_csv import rows as csv_rows

pytestmark = pytest.mark.django_db


#: Seeds tried per scenario to meet every field length and side its parameters can give: at
#: most this many, and no more once this many in a row brought nothing new.
SEEDS_TRIED = 300
SEEDS_IDLE = 40
#: The rulebook's distance from the goal line of each penalty's spot on a line (yards; None:
#: the centre of the field, half its length). Penalty 2 only when taken from the 30-yard line.
ON_A_LINE = {"2": 30.0, "3": 40.0, "4": 60.0, "6": 60.0, "5b": None, "1": None}


@dataclass(frozen=True)
class Case:
    """One variant of a scenario with a place question: its spot, ruled, and one placed
    10 yards up or down the field from it (a trainee's wrong answer)."""

    slug: str
    seed: int
    question: str
    length: float
    right: dict[str, float] = field(compare=False)
    typed: tuple[str, str]

    def right_words(self, lang: str) -> str:
        ground = field_of(_variant(self.slug, self.seed).facts)
        with translation.override(lang):
            return FieldSpot.from_engine(self.right, ground).words()

    def prompt(self, lang: str) -> str:
        scenario = Scenario.objects.get(slug=self.slug)
        posed = quiz.pose(scenario, self.seed, lang, frozen=_variant(self.slug, self.seed))
        return next(q.prompt for q in posed.questions if q.id == self.question)

    def given_words(self, lang: str) -> str:
        along, across = (float(v) for v in self.typed)
        with translation.override(lang):
            return FieldSpot(along, across).words()


_VARIANTS: dict[tuple[str, int], Any] = {}


def _variant(slug: str, seed: int):
    if (slug, seed) not in _VARIANTS:
        scenario = Scenario.objects.get(slug=slug)
        _VARIANTS[slug, seed] = make_variant(slug, scenario.data, seed)
    return _VARIANTS[slug, seed]


def _cases(seeds: range) -> list[Case]:
    """Per scenario with a place question, one seed for each (field length, side of the spot)
    its variants give among `seeds`; every length a `length` parameter allows must be met."""
    out = []
    for scenario in Scenario.objects.live().order_by("slug"):
        first = _variant(scenario.slug, 0)
        asked = build_questions(scenario.kind, scenario.data, first.facts)
        if not any(q.type == quiz.QuestionType.PLACE for q in asked):
            continue
        met: dict[tuple[float, int], Case] = {}
        last_new = seeds.start
        for seed in seeds:
            if seed - last_new > SEEDS_IDLE:
                break
            try:
                variant = _variant(scenario.slug, seed)
            except VariantError:
                continue
            for q in build_questions(scenario.kind, scenario.data, variant.facts):
                if q.type != quiz.QuestionType.PLACE:
                    continue
                ground = field_of(variant.facts)
                right = q.right_answer(variant.ruling)
                side = (right["y"] > 0) - (right["y"] < 0)
                if (ground.length, side) in met:
                    continue
                along = FieldSpot.from_engine(right, ground).from_goal_line
                moved = along + 10 if along + 10 <= ground.length else along - 10
                typed = (f"{moved:g}", f"{right['y']:g}")
                met[ground.length, side] = Case(
                    scenario.slug, seed, q.id, ground.length, right, typed
                )
                last_new = seed
        if not met:
            continue
        length = scenario.data.get("params", {}).get("length")
        if scenario.data["facts"].get("field", {}).get("length") == "{length}":
            wanted = set(range(length["min"], length["max"] + 1, length.get("step", 1)))
            assert {int(k[0]) for k in met} == wanted, scenario.slug
        out.extend(met.values())
    return out


@pytest.fixture(scope="module")
def practice_cases(bundled_content, django_db_blocker):
    with django_db_blocker.unblock():
        return _cases(range(1, SEEDS_TRIED))


@pytest.fixture(scope="module")
def exam_cases(bundled_content, django_db_blocker):
    with django_db_blocker.unblock():
        return _cases(range(EXAM_SEEDS.start, EXAM_SEEDS.start + SEEDS_TRIED))


def _mismatches(found: dict[Any, str], wanted: dict[Any, str]) -> list[str]:
    return [
        f"{key}: {found.get(key, '(missing)')!r} != {words!r}"
        for key, words in wanted.items()
        if found.get(key) != words
    ]


def _wanted(cases: list[Case], lang: str) -> dict[tuple[str, str, str, str], str]:
    """Per variant (slug, seed) and place question, the words of the spot placed and of the
    spot ruled."""
    return {
        (c.slug, str(c.seed), c.question, which): words
        for c in cases
        for which, words in (("given", c.given_words(lang)), ("right", c.right_words(lang)))
    }


def _form(posed: quiz.Posed, case: Case) -> dict[str, Any]:
    """The form a trainee sends: the case's spot typed, every other question the engine's."""
    form: dict[str, Any] = {}
    for q in posed.questions:
        if q.id == case.question:
            values: tuple[str, ...] = case.typed
        else:
            values = quiz.form_values(posed, q, q.source.right_answer(posed.variant.ruling))
        if q.type in (quiz.QuestionType.PLACE, quiz.QuestionType.ORDER):
            form |= dict(zip(q.fields, values, strict=True))
        else:
            form[q.name] = list(values)
    return form


def _shown_in(pages: dict[Case, str], lang: str) -> list[str]:
    """What a page of each case fails to say: the spot placed, the spot ruled."""
    return [
        f"{case}: {words!r}"
        for case, page in pages.items()
        for words in (case.right_words(lang), case.given_words(lang))
        if words not in page
    ]


#: The CSV's columns of the answer given and the right answer, per language.
ANSWER_COLUMNS = {
    "en": ("Your answer", "The right answer"),
    "it": ("La tua risposta", "La risposta giusta"),
}


def _csv(client: Client, url: str, lang: str) -> dict[tuple[str, str, str, str], str]:
    """The history CSV: per variant (slug, seed) and question, the answer and the right one."""
    given, right = ANSWER_COLUMNS[lang]
    out = {}
    for row in csv_rows(client.get(url)):
        out[row["slug"], row["seed"], row["question"], "given"] = row[given]
        out[row["slug"], row["seed"], row["question"], "right"] = row[right]
    return out


def _dashboard(
    client: Client, lang: str, cases: list[Case]
) -> dict[tuple[str, str, str, str], str]:
    """The dashboard's history, every page: per practice variant and question (known by its
    prompt), the answer given and the right one."""
    questions = {(c.slug, str(c.seed), c.prompt(lang)): c.question for c in cases}
    out = {}
    page = 1
    while True:
        body = html.unescape(client.get(f"/{lang}/me/?page={page}").content.decode())
        for row in re.findall(r"<tr>(.*?)</tr>", body, re.S):
            link = re.search(r"/practice/([^/]+)/(\d+)/", row)
            cells = re.findall(r"<td>(.*?)</td>", row, re.S)
            words = re.search(
                r"<small>(.*?)(?: <span class=\"muted\">\(.*?: (.*?)\)</span>)?</small>", row, re.S
            )
            if not (link and words and len(cells) > 2):
                continue
            question = questions.get((link[1], link[2], cells[2].strip()))
            if question is not None:
                out[link[1], link[2], question, "given"] = words[1].strip()
                out[link[1], link[2], question, "right"] = (words[2] or "").strip()
        if f"?page={page + 1}" not in body:
            return out
        page += 1


def test_the_home_converts_both_ways_and_says_it_in_both_languages():
    assert doctest.testmod(spots).failed == 0
    for length in (250.0, 290.0, 300.0):
        ground = field_of({"field": {"length": length}})
        spot = FieldSpot(30, -12.5)
        assert FieldSpot.from_engine(spot.to_engine(ground), ground) == spot
        assert spot.to_engine(ground).x == ground.line_x(30)  # the engine's own 30-yard line
    with translation.override("en"):
        assert FieldSpot(30, 0).words() == (
            "30 yards from the fouling team's goal line, level with the centre of the goal"
        )
        assert FieldSpot(1, 1).words() == (
            "1 yard from the fouling team's goal line, 1 yard left of the centre"
        )
    with translation.override("it"):
        assert FieldSpot(30, -4).words().startswith("30 ")
        assert "destra" in FieldSpot(30, -4).words()


def test_the_cases_cover_every_length_and_both_goals_in_question(practice_cases, exam_cases):
    for cases in (practice_cases, exam_cases):
        assert {c.length for c in cases} == {250.0, 260.0, 270.0, 280.0, 290.0, 300.0}
        texts = " ".join(
            Scenario.objects.get(slug=slug).data["situation"]["en"]
            for slug in {c.slug for c in cases}
        )
        assert "behind Blue's goal" in texts and "behind Red's goal" in texts


def test_the_rulebooks_lines_read_as_their_distance_on_every_length(practice_cases):
    checked = set()
    for case in practice_cases:
        facts = _variant(case.slug, case.seed).facts
        penalty = str(facts.get("penalty", ""))
        if penalty not in ON_A_LINE:
            continue
        if penalty == "2" and facts.get("p2_choice") != "thirty_yard_line":
            continue
        distance = ON_A_LINE[penalty] or case.length / 2
        words = case.right_words("en")
        assert words.startswith(f"{distance:g} yards from the fouling team's goal line"), case
        checked.add((penalty, case.length))
    assert {length for _penalty, length in checked} == {250, 260, 270, 280, 290, 300}


def test_feedback_dashboard_and_csv_read_the_spot_alike(client, trainee, practice_cases):
    client.force_login(trainee)
    feedback = {}
    for case in practice_cases:
        posed = quiz.pose(Scenario.objects.get(slug=case.slug), case.seed, "en")
        response = practice_answer(client, case.slug, case.seed, _form(posed, case))
        assert response.status_code == 200, case
        feedback[case] = html.unescape(response.content.decode())
    assert _shown_in(feedback, "en") == []
    for lang in ("en", "it"):
        wanted = _wanted(practice_cases, lang)
        assert _mismatches(_csv(client, f"/{lang}/me/history.csv", lang), wanted) == [], lang
        assert _mismatches(_dashboard(client, lang, practice_cases), wanted) == [], lang


def test_an_exam_result_and_its_history_read_the_spot_alike(exam_cases, monkeypatch):
    teacher, alice = course_person("ines", instructor=True), course_person("alice")
    cohort = make_cohort(make_course(teacher))
    enrol(cohort, alice, days_ago=1)
    scenarios = {s.slug: s for s in Scenario.objects.filter(slug__in={c.slug for c in exam_cases})}
    exam = make_exam(cohort, list(scenarios.values()), review_after_submit=Review.ANSWERS)
    # The attempt's questions are the cases, drawn and frozen as the exam freezes its draw.
    drawn = [(0, scenarios[c.slug], _variant(c.slug, c.seed)) for c in exam_cases]
    monkeypatch.setattr(attempts, "draw", lambda _exam: drawn)
    now = timezone.now()
    attempt = attempts.start(exam, alice, now)
    # Each answered as the exam's form saves it: the typed values and what the quiz reads.
    for slot, case in zip(attempt.slots.order_by("position"), exam_cases, strict=True):
        posed = attempts.posed(slot, "en")
        slot.values = {k: v if isinstance(v, list) else [v] for k, v in _form(posed, case).items()}
        slot.given = {item.id: item.given for item in quiz.read(posed, slot.values)}
        slot.save(update_fields=["values", "given"])
    attempts.submit(ExamAttempt.objects.get(pk=attempt.pk), now + timedelta(minutes=1))

    client = Client()
    client.force_login(alice)
    response = client.get(f"/en/courses/exam/attempt/{attempt.pk}/result/")
    assert response.status_code == 200
    # Each question's own section of the page, by its number.
    parts = re.split(r'<section class="exam-question" id="q(\d+)">', response.content.decode())
    shown = {int(n): html.unescape(text) for n, text in zip(parts[1::2], parts[2::2], strict=True)}
    assert _shown_in({c: shown.get(n, "") for n, c in enumerate(exam_cases, 1)}, "en") == []
    # The history names an exam's situations and seeds once the exam has closed (closed book).
    with time_machine.travel(exam.closes_at + timedelta(minutes=1), tick=False):
        for lang in ("en", "it"):
            found = _csv(client, f"/{lang}/me/history.csv", lang)
            assert _mismatches(found, _wanted(exam_cases, lang)) == [], lang


def test_a_clinic_reveal_and_its_results_read_the_spot_alike(practice_cases):
    ines = clinic_person("ines", instructor=True)
    projector = Client()
    projector.force_login(ines)
    phones, projected = {}, {}
    results: dict[tuple[str, str, str, str], str] = {}
    for start in range(0, len(practice_cases), MAX_ROUNDS):
        chunk = practice_cases[start : start + MAX_ROUNDS]
        state.forget()
        session = make_clinic(ines, [chunk[0].slug])
        Round.objects.filter(session=session).delete()
        Round.objects.bulk_create(
            Round(
                session=session, position=n, scenario=Scenario.objects.get(slug=c.slug), seed=c.seed
            )
            for n, c in enumerate(chunk, start=1)
        )
        phone = Phone(session)
        phone.join("Anna")
        session = control.act(session.pk, "show")
        for n, case in enumerate(chunk, start=1):
            snap = state.snapshot(session.pk)
            assert snap is not None and snap.current is not None and snap.current.seed == case.seed
            posed = snap.pose("en")
            form = {"round": str(snap.current.pk), **_form(posed, case)}
            assert phone.client.post(phone.base + "answer/", form).status_code == 302
            session = control.act(session.pk, "reveal")
            phones[case] = html.unescape(phone.page())
            projected[case] = html.unescape(
                content_of(projector.get(f"/en/clinics/{session.pk}/")).decode()
            )
            if n < len(chunk):
                session = control.act(session.pk, "next")
        session = control.act(session.pk, "end")
        for lang in ("en", "it"):
            csv_body = content_of(projector.get(f"/{lang}/clinics/{session.pk}/results.csv"))
            for row in csv.DictReader(io.StringIO(csv_body.decode("utf-8-sig"))):
                answer, right = list(row.values())[5:7]  # the answer, the right answer
                results[row["slug"], row["seed"], row["question"], f"given-{lang}"] = answer
                results[row["slug"], row["seed"], row["question"], f"right-{lang}"] = right
    assert _shown_in(phones, "en") == []
    # The projector shows the ruled spot (and the room's spots drawn, not in words).
    assert [f"{c}" for c, page in projected.items() if c.right_words("en") not in page] == []
    wanted = {
        (slug, seed, question, f"{which}-{lang}"): words
        for lang in ("en", "it")
        for (slug, seed, question, which), words in _wanted(practice_cases, lang).items()
    }
    assert _mismatches(results, wanted) == []
