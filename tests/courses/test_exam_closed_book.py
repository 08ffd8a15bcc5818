"""A closed-book exam: while a trainee's attempt is open, practice, what-if, review and the
next question give their account no ruling (the page says when they reopen), the rulebook
stays open, and the window follows the attempt's deadline; the start page says so first; the
history says which scenario and seed an exam asked only once the exam has closed."""

import csv
import importlib
import io
import re
from datetime import timedelta

import pytest
import time_machine
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from polotrainer.courses.exams import attempts
from polotrainer.courses.exams.models import ExamAttempt, Review
from polotrainer.umpires.models import Attempt, Mode
from scenarios.models import Scenario
from tests.content import exam_scenarios
from tests.courses.test_exam_flow import right_form, save, slots, start
from tests.people import make_exam
from tests.practice.test_practice import right_form as practice_form

#: 10:00 UTC is 11:00 in Rome, the course's time zone.
T0 = timezone.datetime(2026, 12, 1, 10, 0, tzinfo=timezone.UTC)
HX = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "feedback"}
SLUG = "t-horn-seconds"


@pytest.fixture
def pool(world):
    return exam_scenarios()


@pytest.fixture
def exam(world, pool):
    return make_exam(
        world.cohort_a, pool, opens_at=T0 - timedelta(hours=1), closes_at=T0 + timedelta(hours=5)
    )


@pytest.fixture
def clock():
    with time_machine.travel(T0, tick=False) as traveller:
        yield traveller


def question(lang: str = "en", seed: int = 7) -> str:
    return f"/{lang}/practice/{SLUG}/{seed}/"


def token_of(html: str) -> str:
    found = re.search(r'name="token" value="([^"]+)"', html)
    assert found, html[:300]
    return found.group(1)


def held_page(response, lang: str = "en") -> str:
    """The closed-book page: refused, saying so, posing and ruling nothing."""
    html = response.content.decode()
    assert response.status_code == 403, html[:300]
    assert ("Exam in progress" if lang == "en" else "Esame in corso") in html
    assert 'id="quiz"' not in html and "The right answer" not in html
    assert "no-cache" in response["Cache-Control"]
    return html


def csv_rows(client) -> list[list[str]]:
    body = b"".join(client.get(reverse("umpires:history_csv")).streaming_content).decode()
    return list(csv.reader(io.StringIO(body.lstrip("\ufeff"))))[1:]


# --- practice during the attempt ----------------------------------------------------------------


def test_an_open_attempt_closes_practice_to_the_trainee_until_submitted(
    world, exam, as_user, clock
):
    client = as_user(world.trainee_a)
    before = client.get(question())  # opened before starting: its form is on a tab
    assert before.status_code == 200
    token = token_of(before.content.decode())
    attempt = start(client, exam)
    clock.move_to(T0 + timedelta(minutes=5))

    for lang in ("en", "it"):
        html = held_page(client.get(question(lang)), lang)
        # Which exam, until when (the deadline, 10:30 UTC, in the course's zone), the way back.
        assert "Final exam" in html if lang == "en" else "Esame finale" in html
        assert "11:30" in html and "Europe/Rome" in html
        assert f"/{lang}/courses/exam/attempt/{attempt.pk}/" in html
        assert f'href="/{lang}/rules/"' in html
    # The answer prepared before the start is not ruled, nor recorded: without JS the page
    # says so, with htmx the page reloads to say so.
    answer = question() + "answer/"
    form = practice_form(Scenario.objects.get(slug=SLUG), 7) | {"token": token}
    held_page(client.post(answer, form))
    refreshed = client.post(answer, form, **HX)
    assert refreshed["HX-Refresh"] == "true" and not refreshed.content
    assert not Attempt.objects.filter(user=world.trainee_a).exists()
    whatif = question() + "what-if/?param=seconds&value=10"
    held_page(client.get(whatif))
    assert client.get(whatif, HTTP_HX_REQUEST="true")["HX-Refresh"] == "true"
    for url in ("/en/practice/next/", "/en/review/", "/en/practice/next/?mode=review"):
        held_page(client.get(url))
    # The rulebook stays open: the USPA test is open-rulebook.
    assert client.get("/en/rules/").status_code == 200
    assert client.get("/en/rules/37/").status_code == 200

    client.post(reverse("courses:exam_submit", args=[attempt.pk]))
    assert client.get(question()).status_code == 200
    fresh = token_of(client.get(question()).content.decode())
    assert client.post(answer, form | {"token": fresh}).status_code == 200
    assert Attempt.objects.filter(user=world.trainee_a, mode=Mode.PRACTICE).exists()


def test_others_are_not_held(world, exam, as_user, client, clock):
    start(as_user(world.trainee_a), exam)
    assert as_user(world.trainee_b).get(question()).status_code == 200
    assert as_user(world.instructor_a).get(question()).status_code == 200
    assert as_user(None).get(question()).status_code == 200  # a visitor: nothing to tell apart


def test_practice_reopens_at_the_deadline_even_if_nobody_submits(world, exam, as_user, clock):
    client = as_user(world.trainee_a)
    attempt = start(client, exam)
    clock.move_to(attempt.deadline - timedelta(seconds=1))
    assert client.get(question()).status_code == 403
    clock.move_to(attempt.deadline)
    assert client.get(question()).status_code == 200
    call_command("exams", "finish")  # the cron job submits it at its deadline
    attempt.refresh_from_db()
    assert attempt.finished and client.get(question()).status_code == 200


def test_the_window_follows_the_deadline_when_the_instructor_moves_it(world, exam, as_user, clock):
    attempt = start(as_user(world.trainee_a), exam)
    teacher = as_user(world.instructor_a)
    teacher.post(
        reverse("courses:exam_accommodation", args=[exam.pk]),
        {"trainee": world.trainee_a.pk, "extra_minutes": "20", "extra_attempts": "0"},
    )
    attempt.refresh_from_db()
    assert attempt.deadline == T0 + timedelta(minutes=50)
    clock.move_to(T0 + timedelta(minutes=40))  # past the old deadline, before the new one
    held_page(as_user(world.trainee_a).get(question()))
    # A shorter time limit brings the window back with the deadline.
    teacher = as_user(world.instructor_a)
    edit = reverse("courses:exam_edit", args=[exam.pk])
    data = {
        k: v
        for k, v in teacher.get(edit).context["form"].initial.items()
        if k not in ("opens_at", "closes_at")
    } | {
        "opens_at": "2026-12-01T10:00",
        "closes_at": "2026-12-01T16:00",
        "time_limit_minutes": "25",
        "closed_book": "on",
    }
    assert teacher.post(edit, data).status_code == 302
    attempt.refresh_from_db()
    assert attempt.deadline == T0 + timedelta(minutes=45)
    client = as_user(world.trainee_a)
    held_page(client.get(question()))
    clock.move_to(T0 + timedelta(minutes=46))  # the old window would last until 50
    assert client.get(question()).status_code == 200


def test_turning_closed_book_off_frees_the_trainees_in_an_attempt(world, exam, as_user, clock):
    client = as_user(world.trainee_a)
    start(client, exam)
    assert client.get(question()).status_code == 403
    teacher = as_user(world.instructor_a)
    edit = reverse("courses:exam_edit", args=[exam.pk])
    form = teacher.get(edit).context["form"]
    assert form.initial["closed_book"] is True
    data = {
        k: v for k, v in form.initial.items() if k not in ("opens_at", "closes_at", "closed_book")
    } | {"opens_at": "2026-12-01T10:00", "closes_at": "2026-12-01T16:00"}
    assert teacher.post(edit, data).status_code == 302
    exam.refresh_from_db()
    assert exam.closed_book is False
    assert as_user(world.trainee_a).get(question()).status_code == 200


def test_an_exam_set_open_book_leaves_practice_open(world, pool, as_user, clock):
    exam = make_exam(world.cohort_a, pool, closed_book=False)
    client = as_user(world.trainee_a)
    start(client, exam)
    assert client.get(question()).status_code == 200


def test_an_instructors_preview_holds_nobody(world, exam, as_user, clock):
    client = as_user(world.instructor_a)
    assert client.post(reverse("courses:exam_preview", args=[exam.pk])).status_code == 302
    assert ExamAttempt.objects.filter(preview=True, finished_at=None).exists()
    assert client.get(question()).status_code == 200


# --- told before starting; the setting ----------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "While your attempt is open, practice, its “What if…?”, review and clinics give"),
        ("it", "Mentre il tuo tentativo è aperto, esercitazione, «E se…?», ripasso e clinic"),
    ],
)
def test_the_start_page_says_practice_closes_during_the_attempt(
    world, pool, exam, as_user, lang, words
):
    client = as_user(world.trainee_a)
    page = client.get(f"/{lang}/courses/exam/{exam.pk}/").content.decode()
    assert words in page
    open_book = make_exam(world.cohort_a, pool, closed_book=False)
    assert words not in client.get(f"/{lang}/courses/exam/{open_book.pk}/").content.decode()


def test_a_new_exam_is_closed_book_unless_the_instructor_unticks_it(world, as_user):
    client = as_user(world.instructor_a)
    page = client.get(f"/en/courses/cohort/{world.cohort_a.pk}/exams/new/")
    assert page.context["form"]["closed_book"].value() is True
    html = page.content.decode()
    assert re.search(r'<input type="checkbox" name="closed_book"[^>]* checked', html)
    assert "supervise a certification exam" in html
    assert (
        "sorveglia"
        in client.get(f"/it/courses/cohort/{world.cohort_a.pk}/exams/new/").content.decode()
    )


# --- the history says which variant only after the close ----------------------------------------


def test_the_history_shows_no_exam_slug_or_seed_before_the_exam_closes(world, pool, as_user, clock):
    # The policy shows everything at once: only the close keeps slug and seed back.
    exam = make_exam(
        world.cohort_a,
        pool,
        review_after_submit=Review.ANSWERS,
        opens_at=T0 - timedelta(hours=1),
        closes_at=T0 + timedelta(hours=5),
    )
    client = as_user(world.trainee_a)
    attempt = start(client, exam)
    for slot in slots(attempt):
        save(client, attempt, slot, right_form(slot))
    client.post(reverse("courses:exam_submit", args=[attempt.pk]))
    asked = {s.scenario.slug for s in slots(attempt)}
    rows = csv_rows(client)
    assert rows and all(row[15] == "exam" for row in rows)
    assert all(row[14] == "true" and row[13] for row in rows)  # the policy shows it all
    assert all(row[9] == "" and row[10] == "" for row in rows)
    dashboard = client.get(reverse("umpires:dashboard")).content.decode()
    assert not any(slug in dashboard for slug in asked)
    # The instructor moves the close: the history keeps them back until the new one.
    exam.closes_at = T0 + timedelta(hours=8)
    exam.save(update_fields=["closes_at"])
    attempts.apply_policy(exam, timezone.now())
    clock.move_to(T0 + timedelta(hours=6))
    assert all(row[9] == "" and row[10] == "" for row in csv_rows(client))
    clock.move_to(T0 + timedelta(hours=8))
    rows = csv_rows(client)
    assert {row[9] for row in rows} == asked
    assert {int(row[10]) for row in rows} == {s.seed for s in slots(attempt)}


def test_the_migration_hides_the_variants_of_exams_still_open(world, pool, as_user):
    """Answers recorded before the upgrade: an open exam's keep slug and seed back too."""
    from django.apps import apps

    migration = importlib.import_module("polotrainer.courses.migrations.0003_exam_closed_book")
    now = timezone.now()
    still_open = make_exam(world.cohort_a, pool, review_after_submit=Review.ANSWERS)
    closed = make_exam(world.cohort_a, pool, review_after_submit=Review.ANSWERS)
    for exam in (still_open, closed):
        client = as_user(world.trainee_a)
        attempt = start(client, exam)
        save(client, attempt, slots(attempt)[0], right_form(slots(attempt)[0]))
        client.post(reverse("courses:exam_submit", args=[attempt.pk]))
    closed.closes_at = now - timedelta(minutes=1)
    closed.save(update_fields=["closes_at"])
    Attempt.objects.update(variant_hidden_until=None)  # as recorded before the upgrade
    migration.hide_open_exams_variants(apps, None)
    by_exam = {
        a.exam_id: set(
            Attempt.objects.filter(context_id=a.pk).values_list("variant_hidden_until", flat=True)
        )
        for a in ExamAttempt.objects.all()
    }
    assert by_exam == {still_open.pk: {still_open.closes_at}, closed.pk: {None}}
