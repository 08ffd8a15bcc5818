"""A clinic and a closed-book exam: a phone signed in to an account sitting one joins no clinic,
gets no round to answer, no ruling at the reveal and no result of its own; its answers are
refused with a message in its language. Other phones in the room are not touched, and the
phone comes back to the clinic once the attempt is submitted."""

from datetime import timedelta

import pytest
from django.utils import timezone

from polotrainer.clinics import state, stream
from polotrainer.clinics.models import ClinicAnswer, Participant
from polotrainer.courses.exams import attempts
from polotrainer.courses.exams.models import ExamAttempt
from polotrainer.umpires.models import Attempt
from scenarios.models import Scenario
from tests.clinics.support import BOOL_NUMBER, PLACE, Phone, content_of, drive, text
from tests.people import enrol, make_cohort, make_course, make_exam

pytestmark = pytest.mark.django_db


def sit_exam(trainee, instructor) -> ExamAttempt:
    """The trainee starts a closed-book exam of a course the clinic's instructor teaches."""
    cohort = make_cohort(make_course(instructor))
    enrol(cohort, trainee)
    exam = make_exam(cohort, Scenario.objects.filter(slug__in=[BOOL_NUMBER, PLACE]))
    return attempts.start(exam, trainee, timezone.now())


def notice_shown(html: str, lang: str = "en") -> bool:
    words = text(html)
    heading = "Exam in progress" if lang == "en" else "Esame in corso"
    return heading in words and ("Final exam" if lang == "en" else "Esame finale") in words


@pytest.mark.parametrize("lang", ["en", "it"])
def test_an_account_sitting_a_closed_book_exam_joins_no_clinic(clinic, alice, ines, lang):
    sit_exam(alice, ines)
    phone = Phone(clinic, lang, user=alice)
    page = phone.client.get(phone.base)
    assert page.status_code == 403 and notice_shown(page.content.decode(), lang)
    assert 'name="nickname"' not in page.content.decode()
    response = phone.join("Alice")
    assert response.status_code == 403 and notice_shown(response.content.decode(), lang)
    assert not Participant.objects.exists()


def test_a_phone_in_the_room_before_the_exam_gets_no_ruling(clinic, alice, ines):
    alice_phone, other = Phone(clinic, user=alice), Phone(clinic)
    alice_phone.join("Alice")
    other.join("Ben")
    session = drive(clinic, "show")
    assert alice_phone.answer(right=True).status_code == 302  # before the exam: it counts
    attempt = sit_exam(alice, ines)
    session = drive(session, "close", "reveal")
    page = alice_phone.page()
    assert notice_shown(page)
    assert "The right answer:" not in page and "Right!" not in page and "Why" not in text(page)
    assert "The right answer:" in other.page()  # the room is not touched
    # Its live stream says the same, on connecting and at each new state.
    body = content_of(alice_phone.client.get(alice_phone.base + "events/")).decode()
    assert "Exam in progress" in body and "The right answer:" not in body
    listener = stream.Listener(clinic.pk, "en", alice_phone.participant)
    later = "".join(stream._render(listener, state.snapshot(clinic.pk), False, None))
    assert "Exam in progress" in later and "The right answer:" not in later

    # The next round: no question to answer, and an answer sent anyway is refused.
    session = drive(session, "next")
    page = alice_phone.page()
    assert notice_shown(page) and 'id="quiz"' not in page
    before = ClinicAnswer.objects.count(), Attempt.objects.count()
    refused = alice_phone.answer(right=True, HTTP_HX_REQUEST="true")
    assert refused.status_code == 409
    assert "closed-book exam on this account" in text(refused.content.decode())
    assert (ClinicAnswer.objects.count(), Attempt.objects.count()) == before
    assert other.answer(right=True).status_code == 302

    # Submitted: the phone is back in the clinic.
    attempts.submit(attempt, timezone.now())
    page = alice_phone.page()
    assert not notice_shown(page) and 'id="quiz"' in page
    assert alice_phone.answer(right=True).status_code == 302


def test_the_refusal_speaks_the_phones_language(clinic, alice, ines):
    phone = Phone(clinic, "it", user=alice)
    phone.join("Alice")
    drive(clinic, "show")
    sit_exam(alice, ines)
    refused = phone.answer(right=False)
    assert refused.status_code == 409
    words = text(refused.content.decode())
    assert "esame a libro chiuso" in words and "Esame in corso" in words


def test_the_window_ends_at_the_deadline(clinic, alice, ines, time_machine):
    phone = Phone(clinic, user=alice)
    phone.join("Alice")
    drive(clinic, "show")
    attempt = sit_exam(alice, ines)
    assert notice_shown(phone.page())
    time_machine.move_to(attempt.deadline + timedelta(seconds=1))
    assert not notice_shown(phone.page())
