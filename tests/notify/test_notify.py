"""`manage.py notify`: who gets what, in which language, once; time travel for the windows;
the unsubscribe link and its one-click POST; a tampered token changes nothing."""

from datetime import timedelta
from io import StringIO

import pytest
import time_machine
from django.core import mail
from django.core.management import call_command
from django.utils import timezone

from polotrainer.certificates import issuing
from polotrainer.certificates.models import Kind as CertificateKind
from polotrainer.courses.exams.models import ExamAttempt
from polotrainer.notify import unsubscribe
from polotrainer.notify.models import Kind, OptOut, Sent
from polotrainer.umpires.models import Profile
from tests.content import exam_scenarios
from tests.people import make_exam

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def mail_on(settings):
    settings.MAIL_ENABLED = True
    settings.SITE_URL = "https://trainer.example.org"
    settings.DEFAULT_FROM_EMAIL = "Polo Club <trainer@example.org>"
    settings.CERTIFICATE_SIGNING_KEY = "A" * 43
    settings.CERTIFICATE_SIGNING_KEY_FILE = ""


def notify() -> str:
    out = StringIO()
    call_command("notify", stdout=out)
    return out.getvalue()


def to(user, kind=None):
    return [m for m in mail.outbox if m.to == [user.email] and (kind is None or kind in m.subject)]


def _only_kind(world, keep):
    """Opt everyone out of every other kind, to look at one at a time."""
    for user in (world.trainee_a, world.trainee_b, world.instructor_a, world.instructor_b):
        for kind in Kind.values:
            if kind != keep:
                OptOut.objects.get_or_create(user=user, kind=kind)


def test_an_assignment_due_in_two_days_reminds_who_has_not_done_it_once(world):
    _only_kind(world, Kind.ASSIGNMENT_DUE)
    due = world.assignment_a.due_at
    with time_machine.travel(due - timedelta(days=3), tick=False):
        notify()
    assert mail.outbox == []  # three days ahead: not yet
    Profile.objects.filter(user=world.trainee_a).update(language="it")
    with time_machine.travel(due - timedelta(days=1), tick=False):
        notify()
        notify()  # the second run sends nothing twice
    alice = to(world.trainee_a)
    assert len(alice) == 1
    message = alice[0]
    assert message.subject.startswith("In scadenza")
    assert (
        f"https://trainer.example.org/it/courses/assignment/{world.assignment_a.pk}/"
        in message.body
    )
    assert message.from_email == "Polo Club <trainer@example.org>"
    html = message.alternatives[0]
    assert html.mimetype == "text/html" and "<a href=" in html.content
    stop = message.extra_headers["List-Unsubscribe"]
    assert stop.startswith("<https://trainer.example.org/it/mail/stop/") and stop.endswith(">")
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert Sent.objects.filter(user=world.trainee_a, kind=Kind.ASSIGNMENT_DUE).count() == 1
    # Bob's assignment is in another cohort and due at the same time: his own, in English.
    bob = to(world.trainee_b)
    assert len(bob) == 1 and bob[0].subject.startswith("Due soon")


def test_exam_opening_and_closing_go_to_those_without_an_attempt(world):
    _only_kind(world, "none")
    OptOut.objects.filter(kind__in=[Kind.EXAM_OPENS, Kind.EXAM_CLOSING]).delete()
    now = timezone.now()
    exam = make_exam(
        world.cohort_a,
        exam_scenarios(),
        opens_at=now + timedelta(hours=12),
        closes_at=now + timedelta(days=3),
    )
    notify()
    assert [m.subject for m in to(world.trainee_a)] == ["Exam opening: Final exam"]
    assert to(world.trainee_b) == []  # not in that cohort
    with time_machine.travel(exam.closes_at - timedelta(hours=30), tick=False):
        notify()
    assert len(to(world.trainee_a)) == 1  # more than 24 hours before the close: nothing new
    with time_machine.travel(exam.closes_at - timedelta(hours=2), tick=False):
        ExamAttempt.objects.create(
            exam=exam, user=world.trainee_b, started_at=timezone.now(), deadline=timezone.now()
        )
        notify()
        notify()
    assert [m.subject for m in to(world.trainee_a)][-1] == "Closing soon: Final exam"
    assert len(to(world.trainee_a)) == 2
    opening, closing = to(world.trainee_a)
    page = f"https://trainer.example.org/en/courses/exam/{exam.pk}/"
    zone = exam.cohort.course.time_zone
    assert "The exam “Final exam” opens on " in opening.body and f"({zone})" in opening.body
    assert "you have not sat it yet" not in opening.body
    assert "The exam “Final exam” closes on " in closing.body
    assert "you have not sat it yet." in closing.body
    assert page in opening.body and page in closing.body
    assert [Sent.objects.filter(user=world.trainee_a, kind=k).count() for k in Kind] == [
        1 if k in (Kind.EXAM_OPENS, Kind.EXAM_CLOSING) else 0 for k in Kind
    ]


def test_results_after_the_close_give_the_score_and_never_the_answers(world):
    _only_kind(world, Kind.RESULTS)
    now = timezone.now()
    exam = make_exam(
        world.cohort_a,
        exam_scenarios(),
        opens_at=now - timedelta(days=2),
        closes_at=now - timedelta(hours=1),
    )
    attempt = ExamAttempt.objects.create(
        exam=exam,
        user=world.trainee_a,
        started_at=now - timedelta(days=1),
        deadline=now - timedelta(days=1),
        finished_at=now - timedelta(days=1),
        right=19,
        total=20,
        passed=True,
    )
    notify()
    (message,) = to(world.trainee_a)
    assert "95.0%" in message.body and "passed" in message.body
    assert f"/en/courses/exam/attempt/{attempt.pk}/result/" in message.body
    # The score only: no question, answer or ruling of the exam is in the mail.
    assert "Everything" not in message.body and "ruling" not in message.body.lower()


def test_a_certificate_issued_and_expiring(world):
    _only_kind(world, Kind.CERTIFICATE)
    issuing.set_name(world.trainee_a, "Alice Allieva Rossi")
    certificate = issuing.issue(
        user=world.trainee_a, cohort=world.cohort_a, kind=CertificateKind.COMPLETION
    )
    assert certificate.signature
    notify()
    (issued,) = to(world.trainee_a)
    assert f"/en/certificates/verify/?code={certificate.code}" in issued.body
    OptOut.objects.filter(kind=Kind.EXPIRING).delete()
    with time_machine.travel(timezone.now() + timedelta(days=2 * 365 - 20), tick=False):
        notify()
        notify()
    expiring = [m for m in to(world.trainee_a) if "expires soon" in m.subject]
    assert len(expiring) == 1


def test_the_weekly_digest_goes_once_a_week_to_each_instructor(world):
    _only_kind(world, Kind.DIGEST)
    soon = world.assignment_a.due_at - timedelta(days=1)
    with time_machine.travel(soon, tick=False):
        notify()
        notify()
    (ines,) = to(world.instructor_a)
    assert "Cohort A" in ines.body and "Cohort B" not in ines.body
    assert "Behind on an assignment: Alice Allieva" in ines.body
    assert len(to(world.instructor_b)) == 1
    with time_machine.travel(soon + timedelta(days=7), tick=False):
        notify()
    assert len(to(world.instructor_a)) == 2


def test_stopping_a_kind_by_the_one_click_post_needs_no_csrf(world, client):
    _only_kind(world, Kind.ASSIGNMENT_DUE)
    OptOut.objects.filter(user=world.trainee_a).delete()
    token = unsubscribe.token(world.trainee_a, Kind.ASSIGNMENT_DUE)
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    page = strict.get(f"/en/mail/stop/{token}/")
    assert page.status_code == 200 and not OptOut.objects.filter(user=world.trainee_a).exists()
    response = strict.post(
        f"/en/mail/stop/{token}/",
        "List-Unsubscribe=One-Click",
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 200
    assert OptOut.objects.filter(user=world.trainee_a, kind=Kind.ASSIGNMENT_DUE).count() == 1
    with time_machine.travel(world.assignment_a.due_at - timedelta(days=1), tick=False):
        notify()
    assert to(world.trainee_a) == [] and len(to(world.trainee_b)) == 1


def test_a_tampered_token_stops_nothing_and_says_so(world, client):
    token = unsubscribe.token(world.trainee_a, Kind.DIGEST)
    # The same signature over another person's id: Bob's mail stopped by Alice's link.
    import base64

    _payload, rest = token.split(":", 1)
    other = f'[{world.trainee_b.pk},"digest"]'.encode()
    forged = base64.urlsafe_b64encode(other).rstrip(b"=").decode() + ":" + rest
    assert forged != token
    for bad in (forged, token[:-2] + "xx", "nonsense"):
        response = client.post(f"/en/mail/stop/{bad}/")
        assert response.status_code == 400
        assert b"nothing was stopped" in response.content
    assert not OptOut.objects.exists()


def test_without_mail_nothing_is_sent_and_the_command_says_so(world, settings):
    settings.MAIL_ENABLED = False
    assert "not configured" in notify()
    assert mail.outbox == [] and not Sent.objects.exists()
