"""A clinic from the lobby to the end, through the views: join, rounds, answers, reveal, scores."""

import pytest
from django.test import Client

from polotrainer.clinics import control, state
from polotrainer.clinics.models import ClinicAnswer, Participant, Phase
from polotrainer.umpires.models import Attempt, Mode
from tests.clinics.conftest import (
    BOOL_NUMBER,
    CHOICE_ORDER,
    MULTI_PLAYERS,
    PLACE,
    Phone,
    drive,
    make_clinic,
    text,
)

pytestmark = pytest.mark.django_db


def test_a_phone_joins_with_a_nickname_and_no_account(clinic):
    phone = Phone(clinic)
    response = phone.join("  Anna   B ")
    assert response.status_code == 302 and response["Location"] == phone.base
    assert Participant.objects.get(session=clinic).nickname == "Anna B"
    page = phone.page()
    assert "Anna B" in page and "The first round starts" in page


def test_the_projector_shows_pin_join_qr_and_count(clinic, ines):
    Phone(clinic).join("Anna")
    Phone(clinic).join("Ben")
    client = Client()
    client.force_login(ines)
    page = client.get(f"/en/clinics/{clinic.pk}/").content.decode()
    assert clinic.pin in page
    assert '<svg role="img" aria-label="QR code of the link to join the clinic"' in page
    assert f"http://testserver/en/play/{clinic.pin}/" in page
    assert "2 players" in text(page)


def test_a_round_answered_revealed_and_scored(clinic, ines):
    anna, ben = Phone(clinic), Phone(clinic)
    anna.join("Anna")
    ben.join("Ben")
    session = drive(clinic, "show")
    assert 'id="quiz"' in anna.page()
    assert anna.answer(right=True, HTTP_HX_REQUEST="true").status_code == 200
    assert ben.answer(right=False).status_code == 302
    assert "Answer received" in anna.page()
    rows = ClinicAnswer.objects.filter(round__session=clinic)
    assert rows.count() == 2 * len(state.snapshot(clinic.pk).pose("en").questions)
    session = drive(session, "close", "reveal")
    page = anna.page()
    assert "Right!" in page and "The right answer:" in page and "Why" in page
    assert "Not quite." in ben.page()
    session = drive(session, "leaderboard")
    board = state.snapshot(clinic.pk).standings
    assert [(r.nickname, r.rank) for r in board] == [("Anna", 1), ("Ben", 2)]
    assert board[0].score == board[0].right  # a point per right answer, no bonus by default
    assert board[1].score == 0


def test_a_late_joiner_comes_in_during_a_round_and_can_answer(clinic):
    drive(clinic, "show")
    late = Phone(clinic)
    assert late.join("Late").status_code == 302
    assert 'id="quiz"' in late.page()
    assert late.answer().status_code == 302
    assert ClinicAnswer.objects.filter(participant__nickname="Late").exists()


def test_a_reload_keeps_the_nickname_and_the_score(clinic):
    phone = Phone(clinic)
    phone.join("Anna")
    drive(clinic, "show")
    phone.answer(right=True)
    drive(clinic, "reveal")
    before = text(phone.page())
    again = text(phone.page())  # the same cookie: a reload, a phone woken up
    assert "Anna" in again and before == again
    assert Participant.objects.filter(session=clinic).count() == 1


def test_a_signed_in_umpire_finds_the_clinic_in_their_history(clinic, alice):
    phone = Phone(clinic, user=alice)
    phone.join("Alice")
    drive(clinic, "show")
    phone.answer(right=True)
    attempts = Attempt.objects.filter(user=alice)
    assert attempts.exists()
    assert set(attempts.values_list("mode", "context_label")) == {(Mode.CLINIC, "Clinic A")}
    dashboard = phone.client.get("/en/me/").content.decode()
    assert "Clinic A" in dashboard


def test_an_anonymous_phone_writes_no_history(clinic):
    phone = Phone(clinic)
    phone.join("Anna")
    drive(clinic, "show")
    phone.answer()
    assert not Attempt.objects.exists()


def test_each_phone_sees_the_reveal_in_its_own_language(clinic):
    italian, english = Phone(clinic, "it"), Phone(clinic, "en")
    italian.join("Gianni")
    english.join("John")
    drive(clinic, "show", "reveal")
    it_page, en_page = italian.page(), english.page()
    assert "La risposta giusta:" in it_page and "The right answer:" in en_page
    assert "Perché" in it_page and "Why" in en_page


def test_the_shared_stage_is_rendered_once_per_language(clinic):
    drive(clinic, "show", "reveal")
    snap = state.snapshot(clinic.pk)
    first = snap.phone_stage("en", False)
    assert snap.phone_stage("en", False) is first
    assert snap.phone_stage("it", False) != first


def test_the_place_reveal_draws_every_spot_with_the_right_one_and_its_ring(bundled_content, ines):
    session = make_clinic(ines, [PLACE])
    phones = [Phone(session) for _ in range(3)]
    for n, phone in enumerate(phones):
        phone.join(f"P{n}")
    drive(session, "show")
    for n, phone in enumerate(phones):
        phone.answer(right=n == 0)
    drive(session, "reveal")
    page = phones[0].page()
    assert page.count('class="placed"') == 3
    assert 'class="right-ring"' in page or "right-ring" in page
    assert 'class="tolerance"' in page


def test_spread_of_numbers_orders_and_players(bundled_content, ines):
    session = make_clinic(ines, [BOOL_NUMBER, CHOICE_ORDER, MULTI_PLAYERS])
    phones = [Phone(session) for _ in range(3)]
    for n, phone in enumerate(phones):
        phone.join(f"P{n}")
    session = drive(session, "show")
    for round_ in range(3):
        for n, phone in enumerate(phones):
            phone.answer(right=n != 1)
        session = drive(session, "reveal")
        snap = state.snapshot(session.pk)
        spreads = snap.context("en")["spread"]
        rows = ClinicAnswer.objects.filter(round=snap.current)
        for s in spreads:
            right = rows.filter(question=s.question.id, correct=True).count()
            assert s.answered == 3 and s.right == right and right >= 2
            if s.bars:
                assert sum(b.count for b in s.bars if b.right) >= right
            if s.question.type == "order":
                assert s.exact_order == round(100 * right / 3) and s.common_count == right
        if round_ < 2:
            session = drive(session, "next")


def test_controls_move_the_session_and_refuse_what_does_not_apply(clinic):
    assert control.allowed(clinic) == {"show", "end"}
    with pytest.raises(control.ControlError) as refused:
        control.act(clinic.pk, "reveal")
    assert refused.value.code == "not_now"
    session = drive(clinic, "show")
    assert session.phase == Phase.OPEN and session.current == 1
    version = session.version
    session = drive(session, "close", "reveal", "leaderboard", "next")
    assert session.current == 2 and session.version == version + 4
    session = drive(session, "back")
    assert session.current == 1 and session.phase == Phase.REVEALED
    session = drive(session, "end")
    assert session.phase == Phase.ENDED and control.allowed(session) == set()


def test_a_skipped_round_counts_for_nobody(clinic):
    phone = Phone(clinic)
    phone.join("Anna")
    session = drive(clinic, "show")
    phone.answer(right=True)
    session = drive(session, "skip")
    assert session.current == 2
    assert state.snapshot(clinic.pk).standings[0].score == 0


def test_a_timed_round_closes_itself(bundled_content, ines, time_machine):
    session = make_clinic(ines, [BOOL_NUMBER], time_limit=20)
    phone = Phone(session)
    phone.join("Anna")
    time_machine.move_to("2026-06-01 10:00:00+00:00", tick=False)
    session = drive(session, "show")
    time_machine.move_to("2026-06-01 10:00:30+00:00", tick=False)
    response = phone.answer()
    assert response.status_code == 409
    assert "Answers for this round are closed" in response.content.decode()
    session.refresh_from_db()
    assert session.phase == Phase.CLOSED
    assert not ClinicAnswer.objects.exists()
