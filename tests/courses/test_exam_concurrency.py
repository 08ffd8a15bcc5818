"""Saves at the same moment, in threads with their own database connections (SQLite and
PostgreSQL alike): every question keeps one of the answers sent to it, none is lost, and a
submit racing the saves grades exactly what was stored."""

import threading

import pytest
from django.core.management import call_command
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.utils import timezone

from polotrainer.courses import exams
from polotrainer.courses.models import ExamAttempt, ExamSlot
from scenarios import quiz
from tests.courses.conftest import exam_scenarios, make_exam
from tests.courses.test_exam_flow import right_form

pytestmark = pytest.mark.django_db(transaction=True)


def run_together(jobs):
    """Start every job at once (a barrier), each in its own thread; return their errors."""
    barrier = threading.Barrier(len(jobs))
    errors: list[BaseException] = []

    def wrap(job):
        try:
            barrier.wait()
            job()
        except BaseException as exc:  # reported to the test below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=wrap, args=(job,)) for job in jobs]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return errors


def bool_question(slot):
    posed = exams.posed(slot, "en")
    return next((q for q in posed.questions if q.type == quiz.QuestionType.BOOL), None)


@pytest.fixture
def own_database(transactional_db, tmp_path):
    """On SQLite, a database file of the test's own: the test run's in-memory database locks a
    whole table against other connections ("table is locked") where a file, as in production
    (WAL, IMMEDIATE transactions, a busy timeout), makes them wait their turn."""
    if connection.vendor != "sqlite":
        yield
        return
    config = connections.settings[DEFAULT_DB_ALIAS]
    saved_name, saved_connection = config["NAME"], connections[DEFAULT_DB_ALIAS]
    config["NAME"] = str(tmp_path / "exam.sqlite3")
    del connections[DEFAULT_DB_ALIAS]
    call_command("migrate", verbosity=0)
    try:
        yield
    finally:
        connections[DEFAULT_DB_ALIAS].close()
        config["NAME"] = saved_name
        connections[DEFAULT_DB_ALIAS] = saved_connection


@pytest.fixture
def attempt(own_database, world):
    exam = make_exam(world.cohort_a, exam_scenarios())
    return exams.start(exam, world.trainee_a, timezone.now())


def test_saves_to_every_question_at_once_are_all_kept(attempt):
    slots = list(attempt.slots.select_related("scenario"))

    def saver(slot):
        def job():
            fresh = ExamAttempt.objects.get(pk=attempt.pk)
            exams.save(fresh, slot, right_form(slot), timezone.now())

        return job

    # Each question twice (two tabs sending the same answer), all at once.
    errors = run_together([saver(s) for s in slots] * 2)
    assert errors == []
    for slot in slots:
        slot.refresh_from_db()
        assert set(slot.given) == {q.id for q in exams.posed(slot, "en").questions}


def test_two_tabs_racing_on_one_question_leave_one_of_their_answers(attempt):
    slot = next(s for s in attempt.slots.select_related("scenario") if bool_question(s))
    q = bool_question(slot)
    values = [o.value for o in q.options]

    def tab(value):
        def job():
            for _ in range(5):
                fresh = ExamAttempt.objects.get(pk=attempt.pk)
                exams.save(fresh, slot, {q.name: [value]}, timezone.now())

        return job

    assert run_together([tab(v) for v in values]) == []
    slot.refresh_from_db()
    assert slot.values[q.name][0] in values
    assert slot.given[q.id] == q.source.parse(slot.values[q.name])


def test_a_submit_racing_saves_grades_exactly_what_was_stored(attempt):
    slots = list(attempt.slots.select_related("scenario"))

    def saver(slot):
        def job():
            fresh = ExamAttempt.objects.get(pk=attempt.pk)
            try:
                exams.save(fresh, slot, right_form(slot), timezone.now())
            except exams.ExamError as exc:
                assert exc.code == "finished"

        return job

    def submitter():
        exams.submit(ExamAttempt.objects.get(pk=attempt.pk), timezone.now())

    assert run_together([saver(s) for s in slots] + [submitter]) == []
    attempt.refresh_from_db()
    assert attempt.finished_at is not None
    right = 0
    for slot in ExamSlot.objects.filter(attempt=attempt).select_related("scenario"):
        marks, _rights = exams._grade(slot)
        assert marks == slot.marks  # nothing saved after grading
        right += sum(marks.values())
    assert attempt.right == right
