"""Exam windows and due dates as calendar files (RFC 5545) and a per-person feed by secret
address, revocable, in the person's language."""

from datetime import UTC, datetime, timedelta

import pytest

from polotrainer.notify import ics
from polotrainer.notify.models import FeedToken
from polotrainer.umpires.models import Profile
from tests.content import exam_scenarios
from tests.people import make_exam

pytestmark = pytest.mark.django_db


def unfold(text: str) -> list[str]:
    return text.replace("\r\n ", "").split("\r\n")


def test_lines_are_folded_at_75_octets_with_crlf_and_never_inside_a_character():
    summary = "Esame finale; regola 37, punizione — " + "è" * 60
    event = ics.Event(
        "x@polotrainer",
        datetime(2026, 3, 1, 9, tzinfo=UTC),
        datetime(2026, 3, 1, 10, tzinfo=UTC),
        summary,
        "line one\nline two",
    )
    text = ics.calendar([event], "Cal", datetime(2026, 1, 1, tzinfo=UTC))
    assert text.endswith("\r\n") and "\n" not in text.replace("\r\n", "")
    physical = text.split("\r\n")[:-1]
    assert all(len(line.encode("utf-8")) <= 75 for line in physical)
    assert any(line.startswith(" ") for line in physical)  # the long summary was folded
    logical = unfold(text)
    assert "SUMMARY:Esame finale\\; regola 37\\, punizione — " + "è" * 60 in logical
    assert "DESCRIPTION:line one\\nline two" in logical
    assert "DTSTART:20260301T090000Z" in logical and "DTEND:20260301T100000Z" in logical


@pytest.fixture
def exam(world):
    return make_exam(world.cohort_a, exam_scenarios())


def test_a_trainee_downloads_the_exam_window_in_utc(world, as_user, exam):
    response = as_user(world.trainee_a).get(f"/it/calendar/exam/{exam.pk}.ics")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/calendar")
    lines = unfold(response.content.decode())
    assert f"UID:exam-{exam.pk}@polotrainer" in lines
    assert f"DTSTART:{exam.opens_at.astimezone(UTC):%Y%m%dT%H%M%SZ}" in lines
    assert f"DTEND:{exam.closes_at.astimezone(UTC):%Y%m%dT%H%M%SZ}" in lines
    assert "SUMMARY:Esame: Esame finale" in lines
    assert any(line.startswith("DTSTAMP:") and line.endswith("Z") for line in lines)


def test_someone_elses_exam_or_assignment_is_404(world, as_user, exam):
    client = as_user(world.trainee_b)
    assert client.get(f"/en/calendar/exam/{exam.pk}.ics").status_code == 404
    assert client.get(f"/en/calendar/assignment/{world.assignment_a.pk}.ics").status_code == 404
    assert as_user(None).get(f"/en/calendar/exam/{exam.pk}.ics").status_code == 302


def test_an_assignment_ends_at_its_due_instant(world, as_user):
    a = world.assignment_a
    response = as_user(world.trainee_a).get(f"/en/calendar/assignment/{a.pk}.ics")
    lines = unfold(response.content.decode())
    assert f"DTEND:{a.due_at.astimezone(UTC):%Y%m%dT%H%M%SZ}" in lines
    assert f"DTSTART:{(a.due_at - timedelta(hours=1)).astimezone(UTC):%Y%m%dT%H%M%SZ}" in lines
    assert f"SUMMARY:Due: {a.title_en}" in lines


def test_the_feed_lists_the_persons_dates_in_their_language(world, as_user, exam):
    client = as_user(world.trainee_a)
    assert client.post("/en/calendar/new/").status_code == 302
    token = FeedToken.objects.get(user=world.trainee_a).token
    page = client.get("/en/calendar/").content.decode()
    assert f"/calendar/feed/{token}.ics" in page
    Profile.objects.filter(user=world.trainee_a).update(language="it")
    feed = as_user(None).get(f"/en/calendar/feed/{token}.ics")
    lines = unfold(feed.content.decode())
    assert feed.status_code == 200
    assert f"UID:exam-{exam.pk}@polotrainer" in lines
    assert f"UID:assignment-{world.assignment_a.pk}@polotrainer" in lines
    assert "SUMMARY:Esame: Esame finale" in lines
    assert not any(f"assignment-{world.assignment_b.pk}@" in line for line in lines)


def test_a_stopped_or_replaced_feed_says_so_and_lists_nothing(world, as_user, exam):
    client = as_user(world.trainee_a)
    client.post("/en/calendar/new/")
    first = FeedToken.objects.get(user=world.trainee_a).token
    client.post("/en/calendar/new/")
    second = FeedToken.objects.get(user=world.trainee_a, revoked_at__isnull=True).token
    anonymous = as_user(None)
    old = anonymous.get(f"/en/calendar/feed/{first}.ics")
    assert old.status_code == 410
    assert b"This calendar feed was stopped" in old.content and b"BEGIN:VEVENT" not in old.content
    assert anonymous.get(f"/en/calendar/feed/{second}.ics").status_code == 200
    client = as_user(world.trainee_a)
    client.post("/en/calendar/stop/")
    stopped = as_user(None).get(f"/it/calendar/feed/{second}.ics")
    assert stopped.status_code == 410
    # In the owner's language (English), whatever the address's prefix says.
    assert b"This calendar feed was stopped" in stopped.content


def test_an_unknown_feed_address_is_a_clear_404(client):
    response = client.get("/en/calendar/feed/not-a-token.ics")
    assert response.status_code == 404
    assert b"No calendar feed has this address" in response.content
