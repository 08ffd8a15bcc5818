"""Saves at the same moment, in threads with their own database connections (SQLite and
PostgreSQL alike): every question keeps one of the answers sent to it, none is lost, and a
submit racing the saves grades exactly what was stored. Deadlines: an instructor's change
landing in the middle of another's, or of a start, is never undone by it."""

import contextlib
import threading
from datetime import timedelta

import pytest
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.utils import timezone

from polotrainer.courses.exams import attempts
from polotrainer.courses.exams.models import Accommodation, Exam, ExamAttempt, ExamSlot
from scenarios import quiz
from tests.content import exam_scenarios
from tests.courses.test_exam_flow import right_form
from tests.people import enrol, make_exam, person
from tests.servers import migrated_sqlite

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


ROUNDS = 20


def _questions(slot):
    return attempts.posed(slot, "en").questions


def bool_question(slot):
    posed = attempts.posed(slot, "en")
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
    migrated_sqlite(tmp_path / "exam.sqlite3")
    config["NAME"] = str(tmp_path / "exam.sqlite3")
    del connections[DEFAULT_DB_ALIAS]
    try:
        yield
    finally:
        connections[DEFAULT_DB_ALIAS].close()
        config["NAME"] = saved_name
        connections[DEFAULT_DB_ALIAS] = saved_connection


@pytest.fixture
def attempt(own_database, world):
    exam = make_exam(world.cohort_a, exam_scenarios())
    return attempts.start(exam, world.trainee_a, timezone.now())


def test_saves_to_every_question_at_once_are_all_kept(attempt):
    slots = list(attempt.slots.select_related("scenario"))

    def saver(slot):
        def job():
            fresh = ExamAttempt.objects.get(pk=attempt.pk)
            attempts.save(fresh, slot, right_form(slot), timezone.now())

        return job

    # Each question twice (two tabs sending the same answer), all at once.
    errors = run_together([saver(s) for s in slots] * 2)
    assert errors == []
    for slot in slots:
        slot.refresh_from_db()
        assert set(slot.given) == {q.id for q in attempts.posed(slot, "en").questions}


def test_two_tabs_racing_on_one_question_leave_one_of_their_answers(attempt):
    slot = next(s for s in attempt.slots.select_related("scenario") if bool_question(s))
    q = bool_question(slot)
    values = [o.value for o in q.options]

    def tab(value):
        def job():
            for _ in range(5):
                fresh = ExamAttempt.objects.get(pk=attempt.pk)
                attempts.save(fresh, slot, {q.name: [value]}, timezone.now())

        return job

    assert run_together([tab(v) for v in values]) == []
    slot.refresh_from_db()
    assert slot.values[q.name][0] in values
    assert slot.given[q.id] == q.source.parse(slot.values[q.name])


def test_two_questions_of_one_situation_saved_at_once_are_both_kept(attempt):
    """What a phone back online does (and two tabs): each question's own form, sent together.
    Each save reads the slot as it was before the other's write unless it reads after a lock."""
    slot = next(s for s in attempt.slots.select_related("scenario") if len(_questions(s)) >= 2)
    first, second = _questions(slot)[:2]
    form = right_form(slot)
    lost = 0
    for _round in range(ROUNDS):
        ExamSlot.objects.filter(pk=slot.pk).update(given={}, values={})

        def sender(q):
            def job():
                fresh = ExamSlot.objects.select_related("scenario").get(pk=slot.pk)
                own = {name: form[name] for name in q.fields if name in form}
                attempts.save(
                    ExamAttempt.objects.get(pk=attempt.pk), fresh, own, timezone.now(), q.id
                )

            return job

        assert run_together([sender(first), sender(second)]) == []
        slot.refresh_from_db()
        lost += len({first.id, second.id} - set(slot.given))
    assert lost == 0, f"{lost} answers lost in {ROUNDS} rounds"


def test_a_submit_racing_saves_grades_exactly_what_was_stored(attempt):
    slots = list(attempt.slots.select_related("scenario"))

    def saver(slot):
        def job():
            fresh = ExamAttempt.objects.get(pk=attempt.pk)
            try:
                attempts.save(fresh, slot, right_form(slot), timezone.now())
            except attempts.ExamError as exc:
                assert exc.code == "finished"

        return job

    def submitter():
        attempts.submit(ExamAttempt.objects.get(pk=attempt.pk), timezone.now())

    assert run_together([saver(s) for s in slots] + [submitter]) == []
    attempt.refresh_from_db()
    assert attempt.finished_at is not None
    right = 0
    for slot in ExamSlot.objects.filter(attempt=attempt).select_related("scenario"):
        marks, _rights = attempts._grade(slot)
        assert marks == slot.marks  # nothing saved after grading
        right += sum(marks.values())
    assert attempt.right == right


# --- deadlines ---------------------------------------------------------------------------------


class Gap:
    """A stop in one thread's requests, once, after (or before) its first query on `table`,
    while another request runs: what a slow moment between two statements allows."""

    def __init__(self, table: str, *, before: bool = False) -> None:
        self.table, self.before = table, before
        self.reached, self.go = threading.Event(), threading.Event()

    def __call__(self, execute, sql, params, many, context):
        stop = f'"{self.table}"' in sql and not self.reached.is_set()
        if stop and self.before:
            self._wait()
        result = execute(sql, params, many, context)
        if stop and not self.before:
            self._wait()
        return result

    def _wait(self) -> None:
        self.reached.set()
        self.go.wait(10)

    def run(self, first, second) -> None:
        """`first` (which uses this gap), and `second` in its gap; `first` goes on when `second`
        is done, or after 2 s if `second` waits for `first`'s locks."""
        done = threading.Event()
        errors: list[BaseException] = []

        def run(job, end=None):
            try:
                job()
            except BaseException as exc:
                errors.append(exc)
            finally:
                connection.close()
                if end is not None:
                    end.set()

        one = threading.Thread(target=run, args=(first,))
        one.start()
        assert self.reached.wait(20)
        two = threading.Thread(target=run, args=(second, done))
        two.start()
        done.wait(2)
        self.go.set()
        one.join(30)
        two.join(30)
        assert errors == []


def give_extra_time(exam, user, minutes, gap=None):
    def job():
        Accommodation.objects.update_or_create(
            exam=exam, user=user, defaults={"extra_minutes": minutes}
        )
        with connection.execute_wrapper(gap) if gap else contextlib.nullcontext():
            attempts.reschedule(Exam.objects.get(pk=exam.pk))

    return job


def test_two_trainees_given_extra_time_at_once_both_keep_it(own_database, world):
    exam = make_exam(world.cohort_a, exam_scenarios())
    carla = person("carla")
    enrol(world.cohort_a, carla)
    alice = attempts.start(exam, world.trainee_a, timezone.now())
    hers = attempts.start(exam, carla, timezone.now())
    # Alice's extra time is being applied (the extra times are read) when Carla's is given in
    # another tab: the first must not write Carla's old deadline back over her new one.
    gap = Gap("courses_accommodation")
    gap.run(give_extra_time(exam, world.trainee_a, 10, gap), give_extra_time(exam, carla, 20))
    alice.refresh_from_db()
    hers.refresh_from_db()
    assert alice.deadline == alice.started_at + timedelta(minutes=40)
    assert hers.deadline == hers.started_at + timedelta(minutes=50)


def test_a_start_while_the_time_limit_changes_gets_the_new_limit(own_database, world):
    exam = make_exam(world.cohort_a, exam_scenarios())
    made: list[ExamAttempt] = []
    gap = Gap("courses_examattempt", before=True)

    def start():
        # The start's own checks have read the exam; the attempt is about to be written.
        attempts.standing(exam, world.trainee_a, timezone.now())
        with connection.execute_wrapper(gap):
            made.append(attempts.start(exam, world.trainee_a, timezone.now()))

    def lengthen():
        Exam.objects.filter(pk=exam.pk).update(time_limit_minutes=60)
        attempts.reschedule(Exam.objects.get(pk=exam.pk))

    gap.run(start, lengthen)
    (attempt,) = made
    attempt.refresh_from_db()
    assert attempt.deadline == attempt.started_at + timedelta(minutes=60)
