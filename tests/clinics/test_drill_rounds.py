"""A clinic's drill round (issue 25): the projector plays the scene, the phones call it in the
countdown after the stop, by the server's clock; the reveal shows how fast the room called it."""

import json
from datetime import datetime, timedelta

import pytest
from django.test import Client

from polotrainer.clinics import drill, state
from polotrainer.clinics.models import ClinicAnswer, Phase, Round
from polotrainer.umpires.models import Attempt
from scenarios import drillable, quiz
from tests.clinics.support import BOOL_NUMBER, Phone, drive, make_clinic, text

#: A Safety or not (a scene plays it) and a question of penalties no scene plays.
PLAYED = "r21-safety-off-an-opponent"
NOT_PLAYED = "p8-which-violation-forfeits"
OPENED = datetime.fromisoformat("2026-06-01 10:00:00+00:00")


def at(ms: int) -> str:
    """The clock this long after the round was shown."""
    return (OPENED + timedelta(milliseconds=ms)).isoformat()


@pytest.fixture
def drills(bundled_content, ines):
    return make_clinic(ines, [PLAYED, NOT_PLAYED], drills=True, title="Drill clinic")


def shown(session, time_machine):
    time_machine.move_to(OPENED, tick=False)
    session = drive(session, "show")
    current = Round.objects.get(session=session, position=session.current)
    return session, current


def test_the_situations_a_scene_plays_become_drill_rounds_with_their_stop(drills):
    rounds = {r.scenario.slug: r for r in Round.objects.filter(session=drills)}
    played, other = rounds[PLAYED], rounds[NOT_PLAYED]
    assert other.stop_ms is None  # no family plays it: an ordinary round
    assert played.stop_ms is not None and played.stop_ms > 0
    scene = drillable.scene_of(quiz.pose(played.scenario, played.seed, "en"))
    assert played.stop_ms == round(scene.stop * 1000)
    # Without "as drills" the same situation is an ordinary round.
    plain = make_clinic(drills.instructor, [PLAYED])
    assert Round.objects.get(session=plain).stop_ms is None


def test_a_drill_round_closes_at_the_stop_plus_the_countdown(drills, time_machine):
    session, current = shown(drills, time_machine)
    assert current.scenario.slug == PLAYED
    assert session.closes_at == OPENED + timedelta(
        milliseconds=current.stop_ms + drill.COUNTDOWN_MS
    )
    # An ordinary round of the same clinic has no time limit unless the clinic sets one.
    time_machine.move_to(at(current.stop_ms + 500), tick=False)
    session = drive(session, "close", "reveal", "next")
    assert session.closes_at is None


def test_an_answer_before_the_stop_is_refused_and_keeps_the_choices(drills, time_machine):
    phone = Phone(drills)
    phone.join("Anna")
    session, current = shown(drills, time_machine)
    time_machine.move_to(at(current.stop_ms - 400), tick=False)
    posed = state.snapshot(session.pk).pose("en")
    asked = next(q for q in posed.questions if q.options)
    chosen = asked.options[-1].value
    response = phone.client.post(
        phone.base + "answer/",
        {"round": str(current.pk), asked.name: chosen},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 409
    page = response.content.decode()
    assert "The play has not stopped yet" in text(page)
    assert not ClinicAnswer.objects.exists()
    # What was chosen is still chosen, to send at the stop.
    assert f'name="{asked.name}" value="{chosen}" checked' in page
    assert "data-drill-questions" in page


def test_an_answer_in_the_countdown_is_recorded_with_its_decision_time(drills, alice, time_machine):
    phone = Phone(drills, user=alice)
    phone.join("Alice")
    _session, current = shown(drills, time_machine)
    time_machine.move_to(at(current.stop_ms + 1800), tick=False)
    assert phone.answer(right=True).status_code == 302
    rows = list(ClinicAnswer.objects.filter(round=current))
    assert rows and all(r.elapsed_ms == current.stop_ms + 1800 for r in rows)
    assert all(r.points == 1.0 for r in rows)  # no speed points by default
    assert drill.decision_ms(current, rows[0].elapsed_ms) == 1800
    assert Attempt.objects.filter(user=alice).count() == len(rows)  # in her history too


def test_the_speed_bonus_when_on_counts_from_the_stop(bundled_content, ines, time_machine):
    session = make_clinic(ines, [PLAYED], drills=True, speed_bonus=True)
    phone = Phone(session)
    phone.join("Anna")
    session, current = shown(session, time_machine)
    time_machine.move_to(at(current.stop_ms + 1000), tick=False)  # 1 s of the 5: 0.4 more
    phone.answer(right=True)
    points = {round(r.points, 2) for r in ClinicAnswer.objects.filter(round=current)}
    assert points == {1.4}


def test_an_answer_after_the_countdown_is_refused_by_the_servers_clock(drills, time_machine):
    phone = Phone(drills)
    phone.join("Anna")
    session, current = shown(drills, time_machine)
    # The page may say anything; the server's clock says the countdown and its grace are over.
    time_machine.move_to(at(current.stop_ms + drill.COUNTDOWN_MS + 1600), tick=False)
    response = phone.answer(right=True)
    assert response.status_code == 409
    assert "Answers for this round are closed" in response.content.decode()
    assert not ClinicAnswer.objects.exists()
    session.refresh_from_db()
    assert session.phase == Phase.CLOSED


def test_the_reveal_shows_the_spread_of_decision_times_and_who_timed_out(
    drills, ines, time_machine
):
    anna, ben, chiara = Phone(drills), Phone(drills), Phone(drills, lang="it")
    for phone, name in ((anna, "Anna"), (ben, "Ben"), (chiara, "Chiara")):
        phone.join(name)
    session, current = shown(drills, time_machine)
    time_machine.move_to(at(current.stop_ms + 700), tick=False)
    anna.answer(right=True)
    time_machine.move_to(at(current.stop_ms + 3200), tick=False)
    chiara.answer(right=False)
    time_machine.move_to(at(current.stop_ms + drill.COUNTDOWN_MS + 10), tick=False)
    session = drive(session, "reveal")  # Ben never called it
    times = state.snapshot(session.pk).context("en")["drill"]["times"]
    assert [b.count for b in times.bars] == [1, 0, 0, 1, 0, 1]
    assert times.timed_out == 1 and times.fast_right == 1 and times.median_s == pytest.approx(1.95)
    client = Client()
    client.force_login(ines)
    projector = client.get(f"/en/clinics/{session.pk}/").content.decode()
    words = text(projector)
    assert "Decision time after the stop" in words and "Median: 2.0 s." in words
    assert "1 fast and right (within 2 s)." in words
    assert "data-drill-scene" in projector and "data-replay" in projector  # the replay...
    part = state.snapshot(session.pk).context("en")["drill"]
    scene = state.snapshot(session.pk).scene(state.snapshot(session.pk).pose("en"))
    assert json.loads(part["replay_json"])["reveal"] == [list(p) for p in scene.reveal]
    assert "Your decision time after the stop, in seconds: 0.7." in text(anna.page())
    assert "Time-out: you did not call this play in time." in text(ben.page())
    italian = text(chiara.page())
    assert "Tempo di decisione dopo lo stop" in italian and "Time-out" not in italian.replace(
        "Time-out:", ""
    )


def test_the_phone_waits_for_the_stop_in_its_language(drills, time_machine):
    chiara = Phone(drills, lang="it")
    chiara.join("Chiara")
    session, current = shown(drills, time_machine)
    page = chiara.page()
    assert "data-drill-questions" in page and "disabled" in page
    stop_at = round((OPENED + timedelta(milliseconds=current.stop_ms)).timestamp() * 1000)
    assert f'data-stop-at="{stop_at}"' in page
    assert "Guarda il proiettore" in text(page)
    # The projector has the scene to play from the opening, and no ruled spot before the call.
    snap = state.snapshot(session.pk)
    assert '"reveal"' not in snap.context("en")["drill"]["scene_json"]


def test_a_clinic_of_ordinary_rounds_has_no_drill_part(bundled_content, ines):
    session = make_clinic(ines, [BOOL_NUMBER])
    session = drive(session, "show")
    assert "drill" not in state.snapshot(session.pk).context("en")
