"""The history CSV keeps its bytes: a fixed history on the bundled content, exported in English
and in Italian, is byte for byte the file the export wrote before it was made fast (issue 23).

The history answers one scenario of each question type (wrong and right), a spot on a field a
parameter sets, a question since removed, an answer of a shape the content no longer has, an
exam whose results are hidden (until 2100) or shown again, and a clinic's label. The expected
files are in tests/umpires/golden/; after a deliberate change of the CSV or of the content's
words, write them again with `REGENERATE_GOLDEN=1 .venv/bin/python -m pytest
tests/umpires/test_history_csv_bytes.py` and read the diff.
"""

import os
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import translation

from polotrainer.umpires.history import csv_lines
from polotrainer.umpires.models import Mode
from polotrainer.umpires.progress import Answer, Answers, Context, Person, record_answers
from scenarios import quiz
from scenarios.models import Scenario

pytestmark = pytest.mark.django_db
GOLDEN = Path(__file__).parent / "golden"
START = datetime(2026, 3, 28, 23, 30, 15, 123456, tzinfo=UTC)  # the night Rome's clocks move


def _wrong(posed: quiz.Posed, q: quiz.PosedQuestion):
    """An answer of the question's kind that the engine's ruling does not give."""
    right = q.source.right_answer(posed.variant.ruling)
    match q.type:
        case quiz.QuestionType.BOOL:
            return not right
        case quiz.QuestionType.NUMBER:
            return right + 1
        case quiz.QuestionType.PLACE:
            return {"x": right["x"] + 7.5, "y": right["y"] - 3.25}
        case quiz.QuestionType.ORDER:
            return list(reversed(right))
        case quiz.QuestionType.MULTI | quiz.QuestionType.PLAYERS:
            return list(right)[1:]
    return next((o.value for o in q.options if o.value != right), right)


def _history(user_id: int) -> None:
    by_type: dict[str, Scenario] = {}
    field_param: Scenario | None = None
    for scenario in Scenario.objects.live().order_by("slug"):
        posed = quiz.pose(scenario, 11, "en")
        for q in posed.questions:
            by_type.setdefault(q.type, scenario)
            if q.type == quiz.QuestionType.PLACE and quiz.needs_field(posed.spec, q.source.id):
                field_param = field_param or scenario
    chosen = [*by_type.values(), *([field_param] if field_param else [])]
    assert len(by_type) == len(quiz.QuestionType) and field_param is not None
    contexts = [
        Context(Mode.PRACTICE),
        Context(Mode.REVIEW),
        Context(
            Mode.EXAM,
            ref_id=1,
            label="Esame «finale»",
            result_hidden_until=datetime(2000, 1, 1, tzinfo=UTC),
            right_hidden_until=datetime(2100, 1, 1, tzinfo=UTC),
            variant_hidden_until=datetime(2100, 1, 1, tzinfo=UTC),
        ),
        Context(Mode.CLINIC, ref_id=2, label="Clinic, Sunday"),
    ]
    n = 0
    for k, scenario in enumerate(chosen):
        for seed in (3, 77, 2024):
            posed = quiz.pose(scenario, seed, "en")
            n += 1
            at = START + timedelta(minutes=37 * n, seconds=n)
            right = {q.id: q.source.right_answer(posed.variant.ruling) for q in posed.questions}
            wrong = seed == 77
            items = [
                Answer(
                    q.id,
                    _wrong(posed, q) if wrong else right[q.id],
                    right[q.id],
                    not wrong,
                    f"golden-{n}-{q.id}",
                )
                for q in posed.questions
            ]
            record_answers(
                Person(user_id=user_id),
                contexts[(k + seed) % len(contexts)],
                Answers(
                    posed.scenario_id,
                    seed,
                    posed.version,
                    items,
                    time_taken_ms=None if seed == 2024 else 1234 * n,
                    at=at,
                ),
            )
    scenario = chosen[0]
    record_answers(
        Person(user_id=user_id),
        Context(Mode.EXAM, ref_id=3, result_hidden_until=datetime(2100, 1, 1, tzinfo=UTC)),
        Answers(
            scenario.pk,
            5,
            "old",
            [
                Answer("gone", {"odd": ["shape", 1]}, "x", False, "golden-gone"),
                Answer(
                    quiz.pose(scenario, 5, "en").questions[0].id,
                    {"odd": True},
                    None,
                    False,
                    "golden-odd",
                ),
            ],
            at=START + timedelta(days=3),
        ),
    )


@pytest.mark.usefixtures("bundled_content")
@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_history_csv_is_byte_for_byte_what_it_was(lang):
    user = get_user_model().objects.create_user("golden")
    _history(user.pk)
    with translation.override(lang):
        made = "".join(csv_lines(user.pk, lang)).encode()
    golden = GOLDEN / f"history-{lang}.csv"
    if os.environ.get("REGENERATE_GOLDEN"):
        golden.parent.mkdir(exist_ok=True)
        golden.write_bytes(made)
    assert made == golden.read_bytes()
    # The download is that same file.
    client = Client()
    client.force_login(user)
    response = client.get(f"/{lang}/me/history.csv")
    assert b"".join(response.streaming_content) == golden.read_bytes()
