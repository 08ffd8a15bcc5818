"""Instructors assign drills (issue 25): a drill set set from the new-assignment form, done by
the trainee through the drills, counted like any assignment, and shown in the gradebook and its
CSV with accuracy and median decision time per trainee and section; its bad inputs."""

import csv
import io
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from polotrainer.courses import assignments
from polotrainer.courses.models import Assignment, Kind
from polotrainer.drills import plays
from polotrainer.drills.models import DrillSet
from tests.drills.test_flow import answer, right_values, set_back, start
from tests.people import enrol, make_cohort, make_course, person

pytestmark = pytest.mark.django_db

SAFETY = {"r21-safety-off-an-opponent", "p6-safety-spot"}  # the safety family's, 21.a and 37.6


def en(name: str, args=()) -> str:
    with translation.override("en"):
        return reverse(name, args=args)


@pytest.fixture
def course(drill_content):
    """Ines teaches a cohort with Alice in it; Bob is in another instructor's cohort."""
    ines = person("ines", instructor=True, name="Ines Istruttrice")
    alice = person("alice", name="Alice Allieva")
    bob = person("bob", name="Bob Trainee")
    cohort = make_cohort(make_course(ines, "Course A"), "Cohort A")
    enrol(cohort, alice, days_ago=3)
    other = make_cohort(make_course(person("ivan", instructor=True), "Course B"), "Cohort B")
    enrol(other, bob, days_ago=3)
    return {"ines": ines, "alice": alice, "bob": bob, "cohort": cohort, "content": drill_content}


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def form(**values) -> dict:
    return {
        "kind": "drills",
        "scope": "families",
        "families": ["safety"],
        "questions": "2",
        "due_on": timezone.localdate().isoformat(),
        "note": "",
    } | values


def set_drills(course, lang: str = "en", **values):
    url = f"/{lang}/courses/cohort/{course['cohort'].pk}/assignments/new/"
    return client_of(course["ines"]).post(url, form(**values))


def call(client: Client, item, ms: int, *, right: bool) -> None:
    """Play the item and call it rightly `ms` after the stop, or let it time out (a wrong call
    whatever the variant: an empty answer may be right, when the engine says nobody)."""
    start(client, item)
    item.refresh_from_db()
    set_back(item, item.stop_ms + ms)
    item.refresh_from_db()
    values = right_values(item) if right else {"timeout": "1"}
    response = answer(client, item, plays.token_for(item), values, reported_ms=str(ms))
    assert response.status_code == 200, response.content


def test_an_assigned_drill_set_done_by_a_trainee_shows_in_the_gradebook_and_its_csv(course):
    response = set_drills(course)
    assert response.status_code == 302
    work = Assignment.objects.get()
    assert work.kind == Kind.DRILLS and work.families == ["safety"] and work.questions == 2
    assert {s.slug for s in work.scenarios.all()} == SAFETY
    assert work.title_en == "Drill set: Safety or not"

    alice = client_of(course["alice"])
    page = alice.get(en("courses:assignment", [work.pk]))
    assert en("drills:assigned", [work.pk]).encode() in page.content
    # On the home page, due in her courses.
    assert [a.pk for a, _p in assignments.due_for(course["alice"])] == [work.pk]

    response = alice.post(en("drills:assigned", [work.pk]))
    drill = DrillSet.objects.get()
    assert response["Location"] == en("drills:play", [drill.pk, 1])
    assert drill.assignment == work and drill.user == course["alice"]
    items = list(drill.items.order_by("position"))
    assert len(items) == 2 and {i.scenario.slug for i in items} == SAFETY
    # Coming back before the end goes on with the same set, at the play not called yet.
    call(alice, items[0], 1200, right=True)
    again = alice.post(en("drills:assigned", [work.pk]))
    assert again["Location"] == en("drills:play", [drill.pk, 2])
    assert DrillSet.objects.count() == 1
    call(alice, items[1], 5000, right=False)  # a time-out: the whole window, 5 s

    # Done (on time): the set's summary leads back to the assignment, nothing more to start.
    summary = alice.get(en("drills:summary", [drill.pk]))
    assert en("courses:assignment", [work.pk]).encode() in summary.content
    done = assignments.progress([work], [course["alice"].pk])[(work.pk, course["alice"].pk)]
    assert (done.answered, done.right, done.status) == (2, 1, "done")
    assert assignments.due_for(course["alice"]) == []
    finished = alice.post(en("drills:assigned", [work.pk]))
    assert finished["Location"] == en("courses:assignment", [work.pk])
    assert DrillSet.objects.count() == 1

    ines = client_of(course["ines"])
    book = ines.get(en("courses:gradebook", [course["cohort"].pk])).context["book"]
    columns = {c.ref: i for i, c in enumerate(book.drill_columns)}
    assert set(columns) == {"21.a", "37.6"}
    (row,) = book.rows
    by_slug = {i.scenario.slug: i.scenario.section.ref for i in items}
    first, second = by_slug[items[0].scenario.slug], by_slug[items[1].scenario.slug]
    assert row.drills[columns[first]].accuracy == 100
    assert row.drills[columns[first]].median_ms == 1200
    assert row.drills[columns[second]].median_ms == 5000  # a time-out takes the window
    assert row.drills[columns[second]].accuracy == 0
    assert row.drills[columns[second]].calls == 1
    assert row.progress[0].status == "done"

    for lang, words in (
        ("en", ("plays called", "accuracy (%)", "median decision time (s)", "Done")),
        ("it", ("azioni decise", "precisione (%)", "tempo di decisione mediano (s)", "Completato")),
    ):
        response = ines.get(f"/{lang}/courses/cohort/{course['cohort'].pk}/gradebook.csv")
        text = b"".join(response.streaming_content).decode("utf-8")
        header, alice_row = list(csv.reader(io.StringIO(text.lstrip("\ufeff"))))
        cells = dict(zip(header, alice_row, strict=True))
        for word in words:
            assert any(word in h for h in header) or word in alice_row, (lang, word)
        found = {h: v for h, v in cells.items() if f", {first}" in h}
        assert sorted(found.values()) == sorted(["1", "100", "1.2"]), found
        found = {h: v for h, v in cells.items() if f", {second}" in h}
        assert sorted(found.values()) == sorted(["1", "0", "5.0"]), found


def test_a_drill_set_by_sections_asks_only_their_drillable_situations(course):
    section = course["content"]["rp-penalty-1-or-2-where"].section
    response = set_drills(course, scope="sections", sections=[section.pk], families=[])
    assert response.status_code == 302
    work = Assignment.objects.get()
    assert [s.slug for s in work.scenarios.all()] == ["rp-penalty-1-or-2-where"]
    assert work.title_en.startswith("Drill set: Section 37.2")


@pytest.mark.parametrize(
    ("lang", "values", "field", "words"),
    [
        ("en", {"questions": "0"}, "questions", "a set with nothing in it"),
        ("it", {"questions": "0"}, "questions", "una serie vuota"),
        ("en", {"families": []}, "families", "Tick at least one scene family."),
        ("it", {"families": []}, "families", "Spunta almeno una famiglia di scene."),
        ("en", {"scope": "rule"}, "scope", "drawn from scene families or from sections"),
        ("en", {"questions": "101"}, "questions", "at most 100 plays"),
        ("en", {"kind": "questions"}, "scope", "Scene families are for drill sets"),
    ],
)
def test_a_bad_drill_set_is_refused_with_a_clear_message(course, lang, values, field, words):
    response = set_drills(course, lang, **values)
    assert response.status_code == 400
    errors = response.context["form"].errors
    assert field in errors and any(words in e for e in errors[field]), errors
    assert Assignment.objects.count() == 0


@pytest.mark.parametrize(
    ("lang", "words"),
    [("en", "can be played as a drill"), ("it", "si può ancora giocare come esercizio")],
)
def test_a_scope_with_no_drillable_situation_is_refused(course, lang, words):
    # The one situation of the near-goal family retired: that family has nothing to play.
    course["content"]["rp-penalty-1-or-2-where"].__class__.objects.filter(
        slug="rp-penalty-1-or-2-where"
    ).update(retired=True)
    response = set_drills(course, lang, families=["near_goal"])
    assert response.status_code == 400
    assert words in response.content.decode()
    assert Assignment.objects.count() == 0


def test_only_a_trainee_of_the_cohort_starts_its_drill_set(course):
    set_drills(course)
    work = Assignment.objects.get()
    url = en("drills:assigned", [work.pk])
    for user in (course["bob"], course["ines"]):
        response = client_of(user).post(url)
        assert response.status_code == 404
        assert b"Alice" not in response.content
    assert Client().post(url).status_code == 302  # to log in
    assert Client().get(url).status_code == 405
    assert DrillSet.objects.count() == 0
    # A questions assignment is not started through the drills.
    questions = Assignment.objects.filter(pk=work.pk)
    questions.update(kind=Kind.QUESTIONS)
    assert client_of(course["alice"]).post(url).status_code == 404
    assert DrillSet.objects.count() == 0


def test_a_late_drill_set_counts_as_done_late(course):
    set_drills(course, questions="1")
    work = Assignment.objects.get()
    alice = client_of(course["alice"])
    alice.post(en("drills:assigned", [work.pk]))
    item = DrillSet.objects.get().items.get()
    call(alice, item, 900, right=True)
    Assignment.objects.filter(pk=work.pk).update(due_at=timezone.now() - timedelta(hours=1))
    work.refresh_from_db()
    done = assignments.progress([work], [course["alice"].pk])[(work.pk, course["alice"].pk)]
    assert done.status == "late"


def test_a_drill_set_edited_past_its_most_plays_is_refused_and_kept(course):
    set_drills(course)
    work = Assignment.objects.get()
    response = client_of(course["ines"]).post(
        f"/it/courses/assignment/{work.pk}/edit/",
        {"questions": "101", "due_on": work.due_on.isoformat(), "note": "x"},
    )
    assert response.status_code == 400
    assert "al massimo 100 azioni" in response.content.decode()
    work.refresh_from_db()
    assert (work.questions, work.note) == (2, "")
