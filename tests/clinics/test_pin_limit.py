"""The PIN limit stops a guesser and never the room behind the same address.

A club's room on the internet profile reaches the site from one address (its router). A
guesser there who types wrong PINs past the limit is refused; the phones that have joined go
on answering, and a new phone joins through the projector's QR code.
"""

import pytest
from django.test import Client

from polotrainer.clinics import sessions
from polotrainer.clinics.models import ClinicAnswer, Participant
from polotrainer.throttle import passes
from polotrainer.throttle.models import Hit
from tests.clinics.support import Phone, answer_form, drive, text

pytestmark = pytest.mark.django_db
ROOM = "203.0.113.5"


class RoomPhone(Phone):
    """A phone behind the room's router."""

    def __init__(self, session, lang="en"):
        super().__init__(session, lang)
        self.client = Client(REMOTE_ADDR=ROOM)


def wrong_pins(session, count):
    return [f"{(int(session.pin) + 1 + n) % 10**6:06d}" for n in range(count)]


def guess(session, count, lang="en"):
    guesser = Client(REMOTE_ADDR=ROOM)
    return [guesser.post(f"/{lang}/play/", {"pin": pin}) for pin in wrong_pins(session, count)]


def qr_link(session, lang="en"):
    return f"/{lang}/play/{session.pin}/?{passes.PARAMETER}={sessions.join_pass(session)}"


def test_300_joined_phones_answer_through_100_wrong_pins_and_a_new_phone_joins(clinic):
    phones = [RoomPhone(clinic) for _ in range(300)]
    for n, phone in enumerate(phones):
        assert phone.join(f"Player {n}").status_code == 302, n
    refused = guess(clinic, 100)
    assert [r.status_code for r in refused].count(429) == 100 - sessions.GUESS_LIMIT
    drive(clinic, "show")
    form = answer_form(clinic)
    for n, phone in enumerate(phones):
        state = phone.client.get(phone.base + "state/")
        assert state.status_code == 200, n
        response = phone.client.post(phone.base + "answer/", form, HTTP_HX_REQUEST="true")
        assert response.status_code == 200, n
    answered = ClinicAnswer.objects.values_list("participant_id", flat=True).distinct()
    assert set(answered) == set(Participant.objects.values_list("pk", flat=True))
    assert len(set(answered)) == 300
    # Only the guesser's wrong PINs were counted, up to the limit.
    assert Hit.objects.filter(bucket=sessions.GUESS_BUCKET).count() == sessions.GUESS_LIMIT
    # A new phone scans the QR code on the projector and joins, late, while the room is paused.
    late = RoomPhone(clinic)
    page = late.client.get(qr_link(clinic))
    assert page.status_code == 200 and "Choose a nickname" in text(page.content.decode())
    joined = late.client.post(qr_link(clinic), {"nickname": "Late"})
    assert joined.status_code == 302
    assert late.client.post(late.base + "answer/", form).status_code == 302
    assert ClinicAnswer.objects.filter(participant__nickname="Late").exists()


def test_over_the_limit_a_typed_pin_is_refused_alike_right_or_wrong_in_both_languages(clinic):
    guess(clinic, sessions.GUESS_LIMIT)
    newcomer = Client(REMOTE_ADDR=ROOM)
    right = newcomer.post("/it/play/", {"pin": clinic.pin})
    wrong = newcomer.post("/it/play/", {"pin": wrong_pins(clinic, 1)[0]})
    assert right.status_code == wrong.status_code == 429
    assert text(right.content.decode()) == text(wrong.content.decode()).replace(
        wrong_pins(clinic, 1)[0], clinic.pin
    )
    assert "Troppi PIN sbagliati" in text(right.content.decode())
    english = newcomer.get(f"/en/play/{clinic.pin}/")
    assert english.status_code == 429
    assert "scan the QR code on the projector" in text(english.content.decode())
    # Refused, not counted, nothing recorded.
    assert Hit.objects.filter(bucket=sessions.GUESS_BUCKET).count() == sessions.GUESS_LIMIT
    assert not Participant.objects.exists()


def test_a_phone_that_typed_the_right_pin_in_time_joins_after_the_room_is_paused(clinic):
    phone = RoomPhone(clinic)
    # The right PIN answers with the join page itself: one request, its form carrying the pass.
    form = phone.client.get("/en/play/", {"pin": clinic.pin}).content.decode()
    guess(clinic, sessions.GUESS_LIMIT)
    assert f'action="{qr_link(clinic)}"' in form
    assert phone.client.post(qr_link(clinic), {"nickname": "Anna"}).status_code == 302
    assert Participant.objects.filter(nickname="Anna").exists()


def test_a_pass_for_another_session_or_altered_does_not_get_past_the_limit(clinic, ines):
    from tests.clinics.support import make_clinic

    other = make_clinic(ines)
    guess(clinic, sessions.GUESS_LIMIT)
    stranger = Client(REMOTE_ADDR=ROOM)
    foreign = f"/en/play/{clinic.pin}/?{passes.PARAMETER}={sessions.join_pass(other)}"
    assert stranger.get(foreign).status_code == 429
    altered = qr_link(clinic)[:-1] + ("A" if qr_link(clinic)[-1] != "A" else "B")
    assert stranger.get(altered).status_code == 429


def test_the_projectors_qr_code_carries_the_pass_and_its_address_stays_short(clinic, ines):
    client = Client()
    client.force_login(ines)
    response = client.get(f"/en/clinics/{clinic.pk}/")
    # With no language: the phone opens in its own (test_flow).
    assert response.context["join_link"] == "http://testserver" + qr_link(clinic)[len("/en") :]
    assert passes.PARAMETER + "=" not in response.context["join_url"]


def test_phones_of_a_clinic_that_ended_are_told_so_and_not_counted(clinic):
    phones = [RoomPhone(clinic) for _ in range(sessions.GUESS_LIMIT + 5)]
    for n, phone in enumerate(phones):
        phone.join(f"Player {n}")
    drive(clinic, "end")
    for phone in phones:  # every phone reloads, or polls, once the clinic is over
        response = phone.client.get(phone.base)
        assert response.status_code == 404
        assert "That clinic has ended" in text(response.content.decode())
    assert not Hit.objects.filter(bucket=sessions.GUESS_BUCKET).exists()


def test_a_joined_phone_typing_its_pin_again_is_not_refused(clinic):
    phone = RoomPhone(clinic)
    phone.join("Anna")
    guess(clinic, sessions.GUESS_LIMIT)
    for again in (
        phone.client.get("/en/play/", {"pin": clinic.pin}),
        phone.client.post("/en/play/", {"pin": clinic.pin}),
    ):
        assert again.status_code == 200
        assert "Anna" in text(again.content.decode())  # its own page, not the join form
        assert 'id="live"' in again.content.decode()


def test_a_phone_with_the_join_page_joins_by_htmx_after_the_room_is_paused(clinic):
    phone = RoomPhone(clinic)
    form = phone.client.get("/en/play/", {"pin": clinic.pin}).content.decode()
    guess(clinic, sessions.GUESS_LIMIT)
    assert f'hx-post="{qr_link(clinic)}"' in form
    joined = phone.client.post(
        qr_link(clinic), {"nickname": "Anna"}, headers={"HX-Request": "true"}
    )
    assert joined.status_code == 200 and 'id="live"' in joined.content.decode()
