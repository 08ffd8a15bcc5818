"""A drill from the start to the reveal: a set, a play started once, an answer scored on right
and on time, a time-out, and everything a user can send wrong (issue 24)."""

import itertools
from datetime import timedelta

import pytest
import time_machine
from django.urls import reverse
from django.utils import timezone, translation

from polotrainer.drills import plays
from polotrainer.drills.models import DrillItem, DrillSet
from polotrainer.umpires.models import Attempt, Mode, ScenarioProgress

pytestmark = pytest.mark.django_db


def en(name: str, args=()) -> str:
    """The English address of a view: the tests read the English words."""
    with translation.override("en"):
        return reverse(name, args=args)


def new_set(client) -> DrillSet:
    response = client.post(en("drills:new"))
    assert response.status_code == 302
    return DrillSet.objects.latest("pk")


def start(client, item: DrillItem, **extra) -> dict:
    response = client.post(en("drills:start", args=[item.pk]), extra)
    assert response.status_code == 200, response.content
    return response.json()


def right_values(item: DrillItem) -> dict[str, str]:
    """The engine's answers as a form sends them (the test's own key, never the page's)."""
    from scenarios import quiz

    posed = quiz.pose(item.scenario, item.seed, "en")
    out: dict[str, str] = {}
    for q in posed.questions:
        right = q.source.right_answer(posed.variant.ruling)
        for name, value in zip(q.fields, quiz.form_values(posed, q, right), strict=False):
            out[name] = value
        if q.type in {"multi", "players"}:
            out[q.name] = list(right)  # type: ignore[assignment]
    return out


def answer(client, item: DrillItem, token: str, values: dict, **extra):
    return client.post(
        en("drills:answer", args=[item.pk]),
        {"token": token, **values, **extra},
        headers={"X-Drill": "1"},
    )


def set_back(item: DrillItem, ms: int) -> None:
    """Move the play's start `ms` into the past (as if the page had waited that long), and
    return nothing: the token of the play must be read again after this."""
    item.refresh_from_db()
    item.started_at = item.started_at - timedelta(milliseconds=ms)
    item.save(update_fields=["started_at"])


def test_a_set_has_twenty_plays_interleaved_across_families(alice_client, drill_content):
    drill = new_set(alice_client)
    items = list(drill.items.all())
    assert len(items) == plays.SET_SIZE
    families = [i.family for i in items]
    assert len(set(families)) == 3
    assert all(a != b for a, b in itertools.pairwise(families))


def test_the_scene_comes_with_the_start_and_without_the_spot(alice_client, drill_content):
    drill = new_set(alice_client)
    item = drill.items.get(position=1)
    page = alice_client.get(en("drills:play", args=[drill.pk, 1]))
    assert page.status_code == 200
    assert b'id="play-button"' in page.content
    data = start(alice_client, item)
    assert data["scene"]["tracks"] and "reveal" not in data["scene"]
    assert data["window_ms"] == plays.COUNTDOWN_MS
    assert data["stop_ms"] == round(data["scene"]["stop"] * 1000)
    assert data["description"][-1]  # the scene in words, for screen readers
    # A reload plays nothing again: the same start, the same token (seconds later too).
    with time_machine.travel(timezone.now() + timedelta(seconds=3)):
        again = start(alice_client, item)
    assert again["again"] is True and again["token"] == data["token"]


def test_an_answer_in_time_is_recorded_with_its_decision_time(alice_client, drill_content):
    drill = new_set(alice_client)
    item = drill.items.get(position=1)
    token = start(alice_client, item)["token"]
    item.refresh_from_db()
    set_back(item, item.stop_ms + 1500)  # answered 1.5 s after the stop
    item.refresh_from_db()
    token = plays.token_for(item)
    response = answer(alice_client, item, token, right_values(item), reported_ms="1200")
    assert response.status_code == 200
    assert b"Fast and right" in response.content
    attempts = Attempt.objects.filter(mode=Mode.DRILL, context_id=item.pk)
    assert attempts.count() == len(item.scenario.data["question"])
    assert all(a.correct for a in attempts)
    # The page's 1.2 s is within 2 s below the server's ~1.5 s: it is taken.
    assert {a.decision_ms for a in attempts} == {1200}
    item.refresh_from_db()
    assert item.correct is True and item.decision_ms == 1200 and not item.timed_out
    # The review schedule sees it like any other answer.
    progress = ScenarioProgress.objects.get(user__username="alice", scenario=item.scenario)
    assert progress.due is not None and progress.answers == attempts.count()


def test_a_page_time_above_the_servers_is_not_taken(alice_client, drill_content):
    drill = new_set(alice_client)
    item = drill.items.get(position=1)
    start(alice_client, item)
    item.refresh_from_db()
    set_back(item, item.stop_ms + 3000)
    item.refresh_from_db()
    answer(alice_client, item, plays.token_for(item), right_values(item), reported_ms="4500")
    item.refresh_from_db()
    assert 3000 <= item.decision_ms < 4500
    assert b"Right, but slow" in alice_client.get(en("drills:play", args=[drill.pk, 1])).content


def test_a_page_time_far_below_the_servers_is_not_taken(alice_client, drill_content):
    drill = new_set(alice_client)
    item = drill.items.get(position=1)
    start(alice_client, item)
    item.refresh_from_db()
    set_back(item, item.stop_ms + 3500)
    item.refresh_from_db()
    answer(alice_client, item, plays.token_for(item), right_values(item), reported_ms="100")
    item.refresh_from_db()
    assert item.decision_ms >= 3500


def test_a_time_out_is_a_wrong_call_with_no_choice(alice_client, drill_content):
    drill = new_set(alice_client)
    item = drill.items.get(position=2)
    token = start(alice_client, item)["token"]
    response = answer(alice_client, item, token, right_values(item), timeout="1")
    assert response.status_code == 200
    assert b"Time-out" in response.content
    attempts = Attempt.objects.filter(mode=Mode.DRILL, context_id=item.pk)
    assert attempts and not any(a.correct for a in attempts)
    assert all(a.answer is None for a in attempts)
    assert {a.decision_ms for a in attempts} == {item.window_ms}


def test_an_answer_late_by_the_servers_clock_counts_as_a_time_out(alice_client, drill_content):
    drill = new_set(alice_client)
    item = drill.items.get(position=1)
    start(alice_client, item)
    item.refresh_from_db()
    set_back(item, item.stop_ms + item.window_ms + plays.GRACE_MS + 500)
    item.refresh_from_db()
    # The page claims it was quick: the server's clock decides.
    response = answer(
        alice_client, item, plays.token_for(item), right_values(item), reported_ms="900"
    )
    assert response.status_code == 200
    assert b"after the countdown by the server" in response.content
    item.refresh_from_db()
    assert item.timed_out and item.correct is False
    assert not Attempt.objects.filter(context_id=item.pk, correct=True).exists()


def test_a_tampered_token_is_refused_and_nothing_is_recorded(alice_client, drill_content):
    drill = new_set(alice_client)
    item = drill.items.get(position=1)
    token = start(alice_client, item)["token"]
    response = answer(alice_client, item, token[:-3] + "abc", right_values(item))
    assert response.status_code == 400
    assert b"does not belong to the play on this page" in response.content
    assert not Attempt.objects.exists()
    # Another play's token does not answer this one either.
    other = drill.items.get(position=2)
    other_token = start(alice_client, other)["token"]
    assert answer(alice_client, item, other_token, right_values(item)).status_code == 400
    assert not Attempt.objects.exists()


def test_a_replayed_answer_is_recorded_once(alice_client, drill_content):
    drill = new_set(alice_client)
    item = drill.items.get(position=1)
    start(alice_client, item)
    set_back(item, 4000)
    item.refresh_from_db()
    token = plays.token_for(item)
    first = answer(alice_client, item, token, right_values(item))
    count = Attempt.objects.count()
    assert count
    second = answer(alice_client, item, token, {}, timeout="1")
    assert first.status_code == second.status_code == 200
    assert b"already answered this play" in second.content
    assert Attempt.objects.count() == count
    item.refresh_from_db()
    assert not item.timed_out


def test_an_answer_before_the_stop_is_refused(alice_client, drill_content):
    drill = new_set(alice_client)
    item = drill.items.get(position=1)
    token = start(alice_client, item)["token"]
    response = answer(alice_client, item, token, right_values(item))
    # Answered at once: before the scene's stop by the server's clock.
    assert response.status_code == 400
    assert b"had not stopped yet" in response.content
    assert not Attempt.objects.exists()


def test_another_users_drill_is_refused_in_their_language(alice_client, bob_client, drill_content):
    drill = new_set(alice_client)
    item = drill.items.get(position=1)
    token = start(alice_client, item)["token"]
    with translation.override("it"):
        italian = reverse("drills:play", args=[drill.pk, 1])
    page = bob_client.get(italian)
    assert page.status_code == 404
    assert "appartiene a qualcun altro" in page.content.decode()
    page = bob_client.get(en("drills:play", args=[drill.pk, 1]))
    assert "belongs to someone else" in page.content.decode()
    assert bob_client.post(en("drills:start", args=[item.pk])).status_code == 404
    sent = bob_client.post(en("drills:answer", args=[item.pk]), {"token": token, "timeout": "1"})
    assert sent.status_code == 404
    assert not Attempt.objects.exists()
    assert bob_client.get(en("drills:summary", args=[drill.pk])).status_code == 404


def test_a_value_no_question_offers_is_refused(alice_client, drill_content):
    drill = new_set(alice_client)
    item = drill.items.get(position=1)
    start(alice_client, item)
    item.refresh_from_db()
    set_back(item, item.stop_ms + 500)
    item.refresh_from_db()
    first = item.scenario.data["question"][0]["id"]
    response = answer(alice_client, item, plays.token_for(item), {f"q-{first}": "nonsense"})
    assert response.status_code == 400
    assert not Attempt.objects.exists()


def test_replays_count_only_after_answering(alice_client, drill_content):
    drill = new_set(alice_client)
    item = drill.items.get(position=1)
    token = start(alice_client, item)["token"]
    url = en("drills:replay", args=[item.pk])
    assert alice_client.post(url).status_code == 400
    answer(alice_client, item, token, {}, timeout="1")
    assert alice_client.post(url).json() == {"replays": 1, "slow_replays": 0}
    assert alice_client.post(url, {"slow": "1"}).json() == {"replays": 1, "slow_replays": 1}


def test_a_reload_after_the_window_is_a_time_out(alice_client, drill_content):
    drill = new_set(alice_client)
    item = drill.items.get(position=1)
    start(alice_client, item)
    set_back(item, 60_000)
    data = start(alice_client, item)
    assert "Time-out" in data["reveal"]
    item.refresh_from_db()
    assert item.timed_out


def test_an_accommodation_gives_extra_time(alice_client, trainee, instructor, drill_content):
    from polotrainer.courses.exams.models import Accommodation
    from tests.people import make_cohort, make_course, make_exam

    exam = make_exam(make_cohort(make_course(instructor)), [drill_content["p6-safety-spot"]])
    # 30 minutes and 15 more: half as much time again in the drills too (7.5 s, to 8 s).
    Accommodation.objects.create(exam=exam, user=trainee, extra_minutes=15)
    drill = new_set(alice_client)
    assert {i.window_ms for i in drill.items.all()} == {8000}
    assert "You then have 8 seconds" in alice_client.get(en("drills:home")).content.decode()


def test_the_dashboard_shows_decision_time_per_section(alice_client, drill_content):
    drill = new_set(alice_client)
    item = drill.items.get(position=1)
    start(alice_client, item)
    item.refresh_from_db()
    set_back(item, item.stop_ms + 2500)
    item.refresh_from_db()
    answer(alice_client, item, plays.token_for(item), right_values(item), reported_ms="2400")
    page = alice_client.get(en("umpires:dashboard")).content.decode()
    assert "Decision time" in page
    assert f'id="decisions-{item.scenario.section.ref}"' in page
    assert "median time in seconds: 2.4" in page and "1 fast and right" not in page
    assert "1 right but slow" in page


def _call_at(client, when, time_machine, late_ms: int, reported_ms: str, section=None):
    """One play of a new set called right at `when`, `late_ms` after its stop (the first of
    `section` if given, else the set's first)."""
    time_machine.move_to(when, tick=False)
    drill = new_set(client)
    items = drill.items.order_by("position")
    item = (items.filter(scenario__section=section) if section else items).first()
    assert item is not None, "the set has no play of that section"
    start(client, item)
    item.refresh_from_db()
    set_back(item, item.stop_ms + late_ms)
    item.refresh_from_db()
    token = plays.token_for(item)
    response = answer(client, item, token, right_values(item), reported_ms=reported_ms)
    assert response.status_code == 200
    return item


def test_the_dashboard_shows_each_sections_decision_time_week_by_week(
    alice_client, drill_content, time_machine
):
    """Slow and right one week, fast and right the next: the trend reads oldest first, in
    the page's language, with the share fast and right rising."""
    from polotrainer.umpires import decisions

    first = _call_at(alice_client, "2026-11-10T10:00+01:00", time_machine, 2500, "2400")
    section = first.scenario.section
    _call_at(alice_client, "2026-11-18T10:00+01:00", time_machine, 1500, "1200", section)
    alice = first.drill.user
    (found,) = [d for d in decisions.per_section(alice) if d.section == section]
    assert [w.start.isoformat() for w in found.weeks] == ["2026-11-09", "2026-11-16"]
    assert [w.median_ms for w in found.weeks] == [2400, 1200]
    assert [w.fast_right_percent for w in found.weeks] == [0, 100]
    for lang, older, newer, heading in (
        ("en", "9 Nov", "16 Nov", "Week from"),
        ("it", "9 nov", "16 nov", "Settimana"),
    ):
        with translation.override(lang):
            page = alice_client.get(reverse("umpires:dashboard")).content.decode()
        table = page.split(f'id="trend-{section.ref}"')[1].split("</table>")[0]
        assert heading in table
        assert table.index(older) < table.index(newer)  # oldest first
        assert "> 0%" in table and "> 100%" in table
