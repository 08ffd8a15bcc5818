"""The gradebook CSV keeps its bytes, drill sets included: a fixed cohort (two trainees, one
with accents in her name) with a drill set over every scene family, called at fixed moments and
decision times (right, wrong, a time-out, one call after the due day), exported in English and
in Italian, is byte for byte the file in tests/courses/golden/ (issue 25).

After a deliberate change of the CSV or of its words, write the files again with
`REGENERATE_GOLDEN=1 .venv/bin/python -m pytest tests/courses/test_gradebook_csv_bytes.py` and
read the diff.
"""

import os
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
from django.db.models import JSONNull
from django.test import Client
from django.utils import timezone

from polotrainer.courses import assignments
from polotrainer.courses.models import Assignment
from polotrainer.umpires.models import Mode
from polotrainer.umpires.progress import Answer, Answers, Context, Person, record_answers
from scenarios import quiz
from tests.content import create_drill_content
from tests.people import make_cohort, make_course, person

pytestmark = pytest.mark.django_db
GOLDEN = Path(__file__).parent / "golden"
START = datetime(2026, 3, 28, 9, 30, 15, 123456, tzinfo=UTC)
DUE = date(2026, 3, 30)


def _call(user, scenario, item: int, ms: int, at: datetime, *, right: bool, none: bool = False):
    """One play called: every question of the variant, right or wrong (or a time-out)."""
    posed = quiz.pose(scenario, 7 + item, "en")
    answers = []
    for q in posed.questions:
        expected = q.source.right_answer(posed.variant.ruling)
        given = JSONNull() if none else (expected if right else "wrong")
        answers.append(Answer(q.id, given, expected, right, f"golden-drill-{item}-{q.id}"))
    record_answers(
        Person(user_id=user.pk),
        Context(Mode.DRILL, ref_id=item),
        Answers(scenario.pk, 7 + item, posed.version, answers, ms, ms, at),
    )


def _cohort():
    content = create_drill_content()
    ines = person("ines", instructor=True, name="Ines Istruttrice")
    alice = person("alice", name="Alice Allieva, «Roma»")
    bob = person("bob", name="Bob Trainee")
    cohort = make_cohort(make_course(ines, "Course A"), "Cohort A")
    for user, days in ((alice, 3), (bob, 2)):
        cohort.memberships.create(user=user, joined_at=START - timedelta(days=days))
    work = assignments.create(
        cohort,
        kind="drills",
        scope="families",
        families=["safety", "near_goal", "advantage"],
        questions=3,
        due_on=timezone.localdate() + timedelta(days=1),
        by=ines,
    )
    Assignment.objects.filter(pk=work.pk).update(
        created_at=START - timedelta(days=1),
        due_on=DUE,
        due_at=assignments.end_of(DUE, cohort.course),
    )
    safety = content["r21-safety-off-an-opponent"]
    spot = content["p6-safety-spot"]
    goal = content["rp-penalty-1-or-2-where"]
    advantage = content["r21-foul-dangerous-or-mechanics"]
    minute = timedelta(minutes=1)
    _call(alice, safety, 1, 1200, START, right=True)
    _call(alice, spot, 2, 2600, START + minute, right=True)
    _call(alice, goal, 3, 3100, START + 2 * minute, right=False)
    _call(alice, advantage, 4, 5000, START + 3 * minute, right=False, none=True)
    _call(bob, safety, 5, 1800, START + timedelta(days=3), right=True)  # after the due day
    return ines, cohort


@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_gradebook_csv_with_a_drill_set_is_byte_for_byte_what_it_was(lang):
    ines, cohort = _cohort()
    client = Client()
    client.force_login(ines)
    response = client.get(f"/{lang}/courses/cohort/{cohort.pk}/gradebook.csv?sort=name")
    made = b"".join(response.streaming_content)
    golden = GOLDEN / f"gradebook-drills-{lang}.csv"
    if os.environ.get("REGENERATE_GOLDEN"):
        golden.parent.mkdir(exist_ok=True)
        golden.write_bytes(made)
    assert made == golden.read_bytes()
