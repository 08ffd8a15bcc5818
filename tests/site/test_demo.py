"""The demo, made once for the module from the bundled content: what it holds, that a second
run adds nothing, and that every answer in it is the engine's."""

import io
import json
from collections.abc import Iterator
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db.models import Max, Min
from django.test import override_settings
from django.utils import timezone

from polotrainer import demo
from polotrainer.certificates.models import Certificate, HolderName, Kind
from polotrainer.certificates.verification import Status, verify_code
from polotrainer.clinics.models import ClinicSession, Phase, Round
from polotrainer.courses import assignments
from polotrainer.courses.exams import attempts, itemanalysis
from polotrainer.courses.exams.models import Exam, ExamAttempt, ExamSlot
from polotrainer.courses.models import (
    Assignment,
    AssignmentScenario,
    Cohort,
    Course,
    Membership,
    Observation,
)
from polotrainer.umpires.models import (
    Attempt,
    DayActivity,
    InstructorRole,
    Mode,
    Profile,
    ScenarioProgress,
)
from polotrainer.umpires.review import due_count
from scenarios import quiz
from scenarios.models import Scenario
from tests.certificates.support import new_key

pytestmark = pytest.mark.django_db


TABLES = (
    User,
    Profile,
    InstructorRole,
    Course,
    Cohort,
    Membership,
    Assignment,
    AssignmentScenario,
    Observation,
    Attempt,
    ScenarioProgress,
    DayActivity,
    Certificate,
    HolderName,
    Exam,
    ExamAttempt,
    ExamSlot,
    ClinicSession,
    Round,
)


#: This install's signing key for the demo's certificates (never the developer's own file).
SIGNING = {"CERTIFICATE_SIGNING_KEY": new_key(), "CERTIFICATE_SIGNING_KEY_FILE": ""}


def counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in TABLES}


@pytest.fixture(scope="module")
def first_run(bundled_content, django_db_blocker) -> Iterator[str]:
    """The demo made once, on the bundled content; the command's output."""
    out = io.StringIO()
    with (
        django_db_blocker.unblock(),
        override_settings(DEBUG=True, **SIGNING),
    ):
        call_command("demo", "--address", "http://127.0.0.1:8000/", stdout=out)
    return out.getvalue()


def user_named(name: str) -> User:
    return User.objects.get(username=f"demo-{name}")


def test_it_makes_an_instructor_and_trainees_in_a_course(first_run):
    assert set(User.objects.values_list("username", flat=True)) == set(demo.USERNAMES)
    instructor = User.objects.get(username="demo-instructor")
    assert InstructorRole.objects.filter(user=instructor).exists()
    cohort = Cohort.objects.get()
    assert list(cohort.course.instructors.all()) == [instructor]
    assert set(cohort.memberships.values_list("user__username", flat=True)) == {
        a.username for a in demo.TRAINEES
    }
    assert Observation.objects.filter(cohort=cohort, observer=instructor).count() == 4
    assert Profile.objects.get(user__username="demo-sophie").language == "en"
    # Everyone opens with the published password, and only it.
    assert all(u.check_password(demo.PASSWORD) for u in User.objects.all())


def test_each_trainee_has_weeks_of_history_in_the_past(first_run):
    now = timezone.now()
    for account in demo.TRAINEES:
        answers = Attempt.objects.filter(user__username=account.username)
        span = answers.aggregate(first=Min("created_at"), last=Max("created_at"))
        assert answers.count() > 50, account.username
        assert span["first"] < now - timedelta(days=18), account.username
        assert span["last"] < now, account.username
        assert answers.values("day").distinct().count() >= 5, account.username
        assert answers.filter(correct=False).exists(), account.username
        assert answers.filter(correct=True).exists(), account.username
    assert Attempt.objects.filter(mode=Mode.REVIEW).exists()
    assert not Attempt.objects.filter(visitor__gt="").exists()


def test_the_stronger_trainee_answers_better(first_run):
    def share(name: str) -> float:
        answers = Attempt.objects.filter(user__username=f"demo-{name}")
        return answers.filter(correct=True).count() / answers.count()

    assert share("anna") > share("marco") > share("luca")


def test_every_recorded_right_answer_is_the_engines_ruling(first_run):
    checked = 0
    scenarios = {s.pk: s for s in Scenario.objects.all()}
    for attempt in Attempt.objects.order_by("pk").iterator():
        posed = quiz.pose(scenarios[attempt.scenario_id], attempt.seed, "en")
        question = next(q for q in posed.questions if q.id == attempt.question)
        right = question.source.right_answer(posed.variant.ruling)
        assert attempt.right_answer == json.loads(json.dumps(right)), attempt.pk
        assert attempt.correct == question.source.is_correct(attempt.answer, right), attempt.pk
        assert attempt.content_version == posed.version
        checked += 1
    assert checked == Attempt.objects.count() > 500


def test_the_aggregates_and_reviews_follow_the_recorded_times(first_run):
    for row in ScenarioProgress.objects.all()[:200]:
        last = Attempt.objects.filter(user=row.user, scenario=row.scenario).aggregate(
            last=Max("created_at")
        )["last"]
        assert row.last_answered_at == last
    for day in DayActivity.objects.all():
        assert day.answers == Attempt.objects.filter(user=day.user, day=day.day).count()
    # Wrong answers come back within minutes: a struggling trainee has reviews due now.
    assert due_count(user_named("luca")) > 5


def test_the_assignments_end_as_the_stories_say(first_run):
    past, current = Assignment.objects.order_by("due_at")
    now = timezone.now()
    assert past.due_at < now < current.due_at <= now + timedelta(days=4)
    users = [user_named(n) for n in ("anna", "marco", "sophie", "luca")]
    done = assignments.progress([past, current], [u.pk for u in users])
    status = {
        u.username: (done[(past.pk, u.pk)].status, done[(current.pk, u.pk)].status) for u in users
    }
    assert status == {
        "demo-anna": ("done", "done"),
        "demo-marco": ("late", "open"),
        "demo-sophie": ("done", "open"),
        "demo-luca": ("overdue", "open"),
    }
    assert 0 < done[(current.pk, user_named("marco").pk)].answered < current.questions
    assert [a for a, _p in assignments.due_for(user_named("marco"))] == [current]


def test_a_second_run_adds_nothing_and_says_so(first_run):
    before = counts()
    out = io.StringIO()
    with override_settings(DEBUG=True, **SIGNING):
        call_command("demo", stdout=out)
    assert counts() == before
    assert "already loaded" in out.getvalue()
    # It still says where to look: the certificates, the exam and the clinic's PIN.
    pin = ClinicSession.objects.get().pin
    for said in ("a certificate to verify", "an exam with results", f"PIN {pin}"):
        assert said in out.getvalue()


def test_it_prints_the_address_and_each_log_in_once(first_run):
    assert first_run.count("http://127.0.0.1:8000/") == 1
    assert first_run.count(demo.PASSWORD) == 1
    for username in demo.USERNAMES:
        assert first_run.count(f"  {username} ") == 1, username
    assert "demo loaded" in first_run


def test_the_published_password_is_the_one_the_check_looks_for(first_run):
    assert sorted(demo.holds_demo()) == sorted(demo.USERNAMES)
    with override_settings(DEBUG=False):
        assert "demo-anna" in demo.refusal()
    with override_settings(DEBUG=True):
        assert demo.refusal() == ""


def test_a_trainee_holds_a_certificate_that_verifies(first_run):
    anna = user_named("anna")
    assert HolderName.objects.get(user=anna).full_name == "Anna Rossi"
    certificate = Certificate.objects.get(user=anna, kind=Kind.COMPLETION)
    with override_settings(**SIGNING):
        verdict = verify_code(certificate.code)
    assert verdict.status == Status.VALID and verdict.claims is not None
    assert f"code {certificate.code}" in first_run


def test_the_closed_exam_has_one_pass_with_its_certificate_and_one_fail(first_run):
    exam = Exam.objects.get(title_en=demo.EXAM_CLOSED["en"])
    now = timezone.now()
    assert exam.closes_at < now and exam.is_closed(now)
    assert exam.pass_percent == 95 and exam.time_limit_minutes == demo.EXAM_MINUTES
    assert exam.released_at is not None  # its review policy shows the results now
    attempts = {a.user.username: a for a in exam.attempts.select_related("user")}
    assert set(attempts) == {a.username for a in demo.TRAINEES}
    assert [a.user.username for a in exam.attempts.filter(passed=True)] == ["demo-anna"]
    luca = attempts["demo-luca"]
    assert luca.passed is False and luca.percent is not None and luca.percent < 95
    for attempt in attempts.values():
        assert exam.opens_at <= attempt.started_at < attempt.finished_at <= attempt.deadline
        assert attempt.finished_at < exam.closes_at
        assert attempt.total == sum(len(s.marks) for s in attempt.slots.all())
        # Each answer the exam recorded is in the history, at the finish, mode exam.
        recorded = Attempt.objects.filter(mode=Mode.EXAM, context_id=attempt.pk)
        assert recorded.count() == sum(len(s.given) for s in attempt.slots.all()) > 0
        assert set(recorded.values_list("created_at", flat=True)) == {attempt.finished_at}
    anna = attempts["demo-anna"]
    certificate = Certificate.objects.get(attempt_id=anna.pk)
    assert certificate.kind == Kind.EXAM and certificate.user == anna.user
    assert certificate.issued_on == timezone.localdate(anna.finished_at)
    with override_settings(**SIGNING):
        verdict = verify_code(certificate.code)
    assert verdict.status == Status.VALID and verdict.claims is not None
    assert verdict.claims.name == "Anna Rossi"
    assert f"certificate code {certificate.code}" in first_run


def test_every_exam_answer_is_graded_on_its_frozen_variant(first_run):
    for slot in ExamSlot.objects.select_related("scenario"):
        posed = quiz.pose(slot.scenario, slot.seed, "en", frozen=attempts.frozen_variant(slot))
        marked = {m.id: m.correct for m in quiz.grade(posed, slot.given)}
        assert {k: bool(v) for k, v in marked.items()} == slot.marks, slot.pk


def test_the_item_analysis_of_the_exam_computes(first_run):
    exam = Exam.objects.get(title_en=demo.EXAM_CLOSED["en"])
    analysis = itemanalysis.for_exam(exam)
    assert analysis.attempts == 4
    assert analysis.items and all(0 <= i.facility <= 1 for i in analysis.items)
    assert any(s.wrong for s in analysis.scenarios)


def test_an_exam_is_open_now_for_the_trainees(first_run):
    now = timezone.now()
    (open_now,) = attempts.open_for(user_named("sophie"), now)
    assert open_now.title_en == demo.EXAM_OPEN["en"]
    assert not ExamAttempt.objects.filter(exam=open_now).exists()


def test_a_clinic_waits_in_the_lobby_for_the_instructor(first_run):
    (clinic,) = ClinicSession.objects.all()
    assert clinic.instructor == user_named("instructor")
    assert clinic.phase == Phase.LOBBY and clinic.current == 0
    current = Assignment.objects.order_by("-due_at").first()
    asked = set(current.scenario_links.values_list("scenario_id", flat=True))
    rounds = list(Round.objects.filter(session=clinic))
    assert 0 < len(rounds) <= demo.CLINIC_ROUNDS
    assert {r.scenario_id for r in rounds} <= asked
    assert f"PIN {clinic.pin}" in first_run and f"/clinics/{clinic.pk}/" in first_run


def test_removing_the_demo_leaves_none_of_its_rows(first_run):
    with override_settings(DEBUG=True):
        demo.remove()
    assert {name: n for name, n in counts().items() if n} == {}
