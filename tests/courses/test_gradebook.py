"""The gradebook, its CSV, one trainee as the instructors see them, and observations."""

import csv
import io
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from polotrainer.courses import gradebook
from polotrainer.courses.models import Observation
from polotrainer.umpires.models import Attempt
from tests.people import answer, enrol, person, set_assignment

pytestmark = pytest.mark.django_db


def _gradebook(client, world, query="", lang="en", **headers):
    url = f"/{lang}/courses/cohort/{world.cohort_a.pk}/gradebook/{query}"
    return client.get(url, headers=headers)


def test_rows_are_trainees_with_mastery_per_section_weakest_first(client, world):
    carol = person("carol", name="Carol Strong")
    enrol(world.cohort_a, carol, days_ago=1)
    for key in ("3a-one", "3a-two", "3b", "21a"):
        answer(carol, world.rulebook[key], correct=True)
    answer(world.trainee_a, world.rulebook["3b"], correct=True)
    client.force_login(world.instructor_a)
    book = _gradebook(client, world).context["book"]
    assert [r.name for r in book.rows] == ["Alice Allieva", "Carol Strong"]
    assert [c.ref for c in book.rules] == ["3", "21"]
    assert [c.ref for c in book.sections] == ["3.a", "3.b", "21.a"]
    alice = book.rows[0]
    assert [c.percent for c in alice.cells] == [33, 0, 0, 100, 0]
    assert alice.overall_cell.percent == 25
    assert book.rows[1].overall_cell.percent == 100
    assert "Bob" not in _gradebook(client, world).content.decode()


def test_answers_before_joining_are_not_in_the_gradebook(client, world):
    dora = person("dora", name="Dora Early")
    answer(dora, world.rulebook["3b"], correct=True, when=timezone.now() - timedelta(days=2))
    enrol(world.cohort_a, dora)
    client.force_login(world.instructor_a)
    row = next(r for r in _gradebook(client, world).context["book"].rows if r.name == "Dora Early")
    assert row.overall_cell.percent == 0
    assert row.last_active is None


def test_any_column_sorts_weakest_first_and_htmx_gets_the_table_alone(client, world):
    carol = person("carol", name="Carol Strong")
    enrol(world.cohort_a, carol, days_ago=1)
    answer(carol, world.rulebook["21a"], correct=True)
    answer(world.trainee_a, world.rulebook["3b"], correct=True)
    client.force_login(world.instructor_a)
    by_21a = _gradebook(client, world, "?sort=s-21.a").context["book"]
    assert [r.name for r in by_21a.rows] == ["Alice Allieva", "Carol Strong"]
    by_3b = _gradebook(client, world, "?sort=s-3.b").context["book"]
    assert [r.name for r in by_3b.rows] == ["Carol Strong", "Alice Allieva"]
    assert _gradebook(client, world, "?sort=junk").context["book"].sort == "weakest"
    response = _gradebook(
        client, world, "?sort=name", **{"HX-Request": "true", "HX-Target": "gradebook"}
    )
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="gradebook"') and "<html" not in html
    assert "Sorted by name." in html


def test_assignment_completion_observations_and_last_activity_are_shown(client, world):
    for _ in range(2):
        answer(world.trainee_a, world.rulebook["3a-one"], correct=False)
    client.force_login(world.instructor_a)
    response = _gradebook(client, world)
    row = response.context["book"].rows[0]
    assert [(p.answered, p.right, p.target) for p in row.progress] == [(2, 0, 3)]
    assert row.observations == [world.observation_a]
    assert row.last_active is not None
    html = response.content.decode()
    assert "2/3" in html and "Satisfactory" in html
    assert f'href="/en/courses/cohort/{world.cohort_a.pk}/trainees/{world.trainee_a.pk}/"' in html


def _cohort_of(world, trainees, answers_each):
    people = [person(f"t{i}") for i in range(trainees)]
    scenarios = list(world.rulebook.values())
    now = timezone.now()
    rows = []
    for user in people:
        enrol(world.cohort_a, user, days_ago=30)
        for n in range(answers_each):
            at = now - timedelta(minutes=n)
            rows.append(
                Attempt(
                    user=user,
                    scenario=scenarios[n % len(scenarios)],
                    seed=n,
                    question="q",
                    answer={},
                    correct=n % 3 != 0,
                    nonce=f"{user.pk}-{n}",
                    created_at=at,
                    day=timezone.localdate(at),
                )
            )
    Attempt.objects.bulk_create(rows)
    from polotrainer.umpires.progress import rebuild

    for user in people:
        rebuild(user.pk)


@pytest.mark.parametrize("answers_each", [2, 60])
def test_the_gradebook_costs_the_same_few_queries_whatever_the_answers(client, world, answers_each):
    _cohort_of(world, 5, answers_each)
    set_assignment(world.cohort_a, [world.rulebook["21a"].section])
    client.force_login(world.instructor_a)
    _gradebook(client, world)
    with CaptureQueriesContext(connection) as queries:
        response = _gradebook(client, world)
    assert response.status_code == 200
    assert len(response.context["book"].rows) == 6
    assert len(queries) <= 12, [q["sql"][:80] for q in queries]


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", ["Trainee", "Overall mastery (%)", "Satisfactory", "Open"]),
        ("it", ["Allievo", "Padronanza complessiva (%)", "Soddisfacente", "Aperto"]),
    ],
)
def test_the_csv_streams_in_the_instructors_language(client, world, lang, words):
    answer(world.trainee_a, world.rulebook["3a-one"], correct=True)
    client.force_login(world.instructor_a)
    response = client.get(f"/{lang}/courses/cohort/{world.cohort_a.pk}/gradebook.csv")
    assert response.streaming
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert "gradebook-" in response["Content-Disposition"]
    text = b"".join(response.streaming_content).decode("utf-8")
    assert text.startswith("\ufeff")
    rows = list(csv.reader(io.StringIO(text.lstrip("\ufeff"))))
    header, alice = rows
    for word in words:
        assert word in text, word
    assert alice[0] == "Alice Allieva" and alice[1] == "alice"
    assert "3.a Section 3.a (%)" in header or "3.a Sezione 3.a (%)" in header
    assert "Bob" not in text


def test_the_trainee_page_shows_only_what_was_done_since_joining(client, world):
    alice, scenario = world.trainee_a, world.rulebook["3b"]
    membership = world.cohort_a.memberships.get(user=alice)
    joined = timezone.now().replace(hour=12, minute=0, second=0, microsecond=0)
    membership.joined_at = joined
    membership.save()
    answer(alice, scenario, correct=True, when=joined - timedelta(hours=2))  # same day, before
    answer(alice, scenario, correct=True, when=joined - timedelta(days=3))
    answer(alice, scenario, correct=False, when=joined + timedelta(minutes=10))
    client.force_login(world.instructor_a)
    response = client.get(f"/en/courses/cohort/{world.cohort_a.pk}/trainees/{alice.pk}/")
    report = response.context["report"]
    assert (report.answers, report.right, report.active_days) == (1, 0, 1)
    assert next(s for s in report.sections if s.ref == "3.b").percent == 0
    html = response.content.decode()
    assert "Secret note about Alice" in html and "Record an observation" in html
    assert "1 answer since joining, 0 right." in html and "Active on 1 day." in html


def test_a_trainee_reads_what_their_instructors_see_and_their_observations(client, world):
    client.force_login(world.trainee_a)
    own = client.get(f"/en/courses/cohort/{world.cohort_a.pk}/me/").content.decode()
    assert "This is what your instructors see of you" in own
    assert "Secret note about Alice" in own and "Record an observation" not in own
    mine = client.get("/en/courses/").content.decode()
    assert "Secret note about Alice" in mine and "Satisfactory" in mine
    assert "Secret note about Bob" not in mine


def test_an_instructor_records_edits_and_deletes_an_observation(client, world):
    alice = world.trainee_a
    client.force_login(world.instructor_a)
    url = f"/en/courses/cohort/{world.cohort_a.pk}/trainees/{alice.pk}/observations/new/"
    data = {
        "observed_on": timezone.localdate().isoformat(),
        "game": "Final, Coppa Italia",
        "outcome": "recommended",
        "rating": "C2",
        "notes": "Clear whistle.",
    }
    assert client.post(url, data).status_code == 302
    made = Observation.objects.get(game="Final, Coppa Italia")
    assert (made.observer, made.trainee, made.rating) == (world.instructor_a, alice, "C2")
    client.post(f"/en/courses/observation/{made.pk}/edit/", data | {"outcome": "needs_work"})
    made.refresh_from_db()
    assert made.outcome == "needs_work"
    client.post(f"/en/courses/observation/{made.pk}/delete/")
    assert not Observation.objects.filter(pk=made.pk).exists()


def test_an_observation_of_a_game_not_yet_played_is_refused(client, world):
    client.force_login(world.instructor_a)
    url = f"/en/courses/cohort/{world.cohort_a.pk}/trainees/{world.trainee_a.pk}/observations/new/"
    tomorrow = timezone.localdate() + timedelta(days=1)
    response = client.post(
        url, {"observed_on": tomorrow.isoformat(), "game": "G", "outcome": "satisfactory"}
    )
    assert response.status_code == 400
    assert response.context["form"].errors.as_data()["observed_on"][0].code == "future"
    assert Observation.objects.count() == 2


def test_the_build_sorts_by_last_activity_longest_ago_first(world):
    carol = person("carol")
    enrol(world.cohort_a, carol)
    answer(carol, world.rulebook["3b"])
    book = gradebook.build(world.cohort_a, "last")
    assert [r.membership.user.username for r in book.rows] == ["alice", "carol"]


def test_a_section_heading_is_the_rulebooks_number_never_a_ref_name():
    """3.summary is part of Rule 3 the rulebook does not number: "3 Summary", not the ref."""
    summary = gradebook.Column("s-3.summary", "3.summary", "Summary", is_rule=False)
    applying = gradebook.Column("s-37.7.applying", "37.7.applying", "Applying", is_rule=False)
    between = gradebook.Column("s-3.a", "3.a", "Between periods", is_rule=False)
    assert (summary.heading, summary.citation) == ("3 Summary", "3")
    assert applying.heading == "37.7 Applying"
    assert (between.heading, between.citation) == ("3.a", "3.a")
