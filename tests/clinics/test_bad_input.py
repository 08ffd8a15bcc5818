"""Every bad input gets a clear message in the phone's language, and nothing is recorded."""

import pytest
from django.core import signing
from django.test import Client

from polotrainer.clinics import sessions
from polotrainer.clinics.models import ClinicAnswer, Participant
from polotrainer.throttle.models import Hit
from tests.clinics.support import BOOL_NUMBER, Phone, answer_form, drive, make_clinic, text

pytestmark = pytest.mark.django_db


def snapshot():
    return (
        list(ClinicAnswer.objects.values_list("pk", "participant_id", "question", "answer")),
        list(Participant.objects.values_list("pk", "nickname")),
    )


@pytest.mark.parametrize(
    ("pin", "message"),
    [
        ("12345", "A game PIN is six digits"),
        ("abcdef", "A game PIN is six digits"),
        ("999999", "No clinic is running with that PIN"),
    ],
)
def test_a_wrong_pin_says_so(clinic, pin, message):
    if pin == clinic.pin:
        pytest.skip("drew the very PIN")
    response = Client().post("/en/play/", {"pin": pin})
    assert response.status_code == 400
    assert message in text(response.content.decode())


def test_the_pin_with_spaces_and_dashes_is_fine(clinic):
    typed = f"{clinic.pin[:3]} - {clinic.pin[3:]}"
    response = Client().get("/en/play/", {"pin": typed})
    assert response.status_code == 200
    assert f'action="/en/play/{clinic.pin}/?k=' in response.content.decode()


def test_an_ended_pin_says_the_clinic_has_ended_in_italian(clinic):
    drive(clinic, "end")
    response = Client().get(f"/it/play/{clinic.pin}/")
    assert response.status_code == 404
    assert "Quella clinic è terminata" in text(response.content.decode()) or (
        "terminat" in text(response.content.decode())
    )


def test_guessing_pins_is_paused_per_address(clinic, settings):
    client = Client()
    for n in range(sessions.GUESS_LIMIT):
        client.post("/en/play/", {"pin": f"{(int(clinic.pin) + 1 + n) % 10**6:06d}"})
    # Even the right one, typed by a phone that has not joined: the answer is the same as for a
    # wrong one, so guessing on learns nothing (the QR code's link still joins).
    response = client.post("/en/play/", {"pin": clinic.pin})
    assert response.status_code == 429
    assert "Too many wrong PINs" in text(response.content.decode())
    assert Hit.objects.filter(bucket=sessions.GUESS_BUCKET).count() == sessions.GUESS_LIMIT


@pytest.mark.parametrize(
    ("nickname", "message"),
    [
        ("", "Please choose a nickname."),
        ("   ", "Please choose a nickname."),
        ("x" * 200, "That nickname is too long"),
        ("anna", "Someone in this clinic already has that nickname"),
    ],
)
def test_a_bad_nickname_is_refused(clinic, nickname, message):
    Phone(clinic).join("Anna")
    before = snapshot()
    response = Phone(clinic).join(nickname)
    assert response.status_code == 400
    assert message in text(response.content.decode())
    assert snapshot() == before


def test_a_team_must_be_one_of_the_sessions(bundled_content, ines):
    session = make_clinic(ines, [BOOL_NUMBER], teams=["Red", "Blue"])
    other = make_clinic(ines, [BOOL_NUMBER], teams=["Green"])
    green = other.teams.get()
    response = Phone(session).join("Anna", team=str(green.pk))
    assert response.status_code == 400
    assert "Please choose one of the teams." in text(response.content.decode())
    assert not Participant.objects.exists()


def test_an_answer_after_the_round_closed_is_not_recorded(clinic):
    phone = Phone(clinic)
    phone.join("Anna")
    drive(clinic, "show")
    form = answer_form(clinic)
    drive(clinic, "close")
    response = phone.client.post(phone.base + "answer/", form, HTTP_HX_REQUEST="true")
    assert response.status_code == 409
    assert "Answers for this round are closed" in text(response.content.decode())
    assert not ClinicAnswer.objects.exists()


def test_a_second_answer_is_refused_and_the_first_counts(clinic):
    phone = Phone(clinic)
    phone.join("Anna")
    drive(clinic, "show")
    phone.answer(right=True)
    before = snapshot()
    response = phone.answer(right=False, HTTP_HX_REQUEST="true")
    assert response.status_code == 409
    assert "You have already answered this round" in text(response.content.decode())
    assert snapshot() == before
    assert all(ClinicAnswer.objects.values_list("correct", flat=True))


def test_an_answer_cannot_be_given_for_another_participant(clinic):
    anna, mallory = Phone(clinic), Phone(clinic)
    anna.join("Anna")
    mallory.join("Mallory")
    drive(clinic, "show")
    form = answer_form(clinic) | {"participant": str(anna.participant_id)}
    mallory.client.post(mallory.base + "answer/", form)
    assert set(ClinicAnswer.objects.values_list("participant__nickname", flat=True)) == {"Mallory"}
    # Anna's cookie id with Mallory's secret: a forged pass.
    forged = signing.dumps(
        [clinic.pk, anna.participant_id, mallory.participant.secret],
        salt="polotrainer.clinics.participant",
    )
    thief = Phone(clinic)
    thief.client.cookies[f"clinic{clinic.pk}"] = forged
    before = snapshot()
    response = thief.client.post(thief.base + "answer/", answer_form(clinic))
    assert response.status_code == 403
    assert "not valid for this clinic" in text(response.content.decode())
    assert snapshot() == before


def test_a_tampered_pass_records_nothing(clinic):
    phone = Phone(clinic)
    phone.join("Anna")
    drive(clinic, "show")
    name = f"clinic{clinic.pk}"
    phone.client.cookies[name] = phone.client.cookies[name].value[:-3] + "abc"
    before = snapshot()
    response = phone.answer()
    assert response.status_code == 403
    assert "not valid for this clinic" in text(response.content.decode())
    assert snapshot() == before


def test_another_sessions_pass_or_round_is_refused(clinic, ines):
    other = make_clinic(ines, [BOOL_NUMBER])
    here, there = Phone(clinic), Phone(other)
    here.join("Anna")
    there.join("Anna")
    drive(clinic, "show")
    drive(other, "show")
    # The other session's round (and its questions) sent to this session.
    response = here.client.post(here.base + "answer/", answer_form(other), HTTP_HX_REQUEST="true")
    assert response.status_code == 409
    assert "not for the round on the projector now" in text(response.content.decode())
    # The other session's pass sent here.
    here.client.cookies[f"clinic{clinic.pk}"] = there.client.cookies[f"clinic{other.pk}"].value
    assert here.answer().status_code == 403
    assert not ClinicAnswer.objects.exists()


def test_a_malformed_answer_names_the_field_and_records_nothing(clinic):
    phone = Phone(clinic)
    phone.join("Anna")
    drive(clinic, "show")
    form = {
        key: "not a number" if key.startswith("q-") else value
        for key, value in answer_form(clinic).items()
    }
    response = phone.client.post(phone.base + "answer/", form, HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    assert "Nothing was recorded" in text(response.content.decode())
    assert not ClinicAnswer.objects.exists()


def test_an_answer_to_an_ended_clinic(clinic):
    phone = Phone(clinic)
    phone.join("Anna")
    drive(clinic, "show")
    form = answer_form(clinic)
    drive(clinic, "end")
    response = phone.client.post(phone.base + "answer/", form)
    assert response.status_code == 404
    assert "That clinic has ended." in text(response.content.decode())
    assert not ClinicAnswer.objects.exists()
