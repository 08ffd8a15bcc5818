"""Taking an exam: start, the server's timer, saving, resuming, two devices, submitting at the
deadline, what the history shows, and the bad inputs of the issue."""

import csv
import io
from datetime import timedelta

import pytest
import time_machine
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone, translation

from polotrainer.courses.exams import attempts, signals
from polotrainer.courses.exams.models import Accommodation, ExamAttempt, ExamSlot, Finish, Review
from polotrainer.umpires.models import Attempt, Mode, ScenarioProgress
from scenarios import quiz
from scenarios.variants import MAX_SEED
from tests.content import exam_scenarios
from tests.people import make_exam

T0 = timezone.datetime(2026, 12, 1, 10, 0, tzinfo=timezone.UTC)


@pytest.fixture
def pool(world):
    return exam_scenarios()


@pytest.fixture
def exam(world, pool):
    return make_exam(world.cohort_a, pool)


def right_form(slot: ExamSlot) -> dict[str, list[str]]:
    """The form values that answer every question of the slot rightly (from the frozen ruling)."""
    posed = attempts.posed(slot, "en")
    out: dict[str, list[str]] = {}
    for q in posed.questions:
        values = quiz.form_values(posed, q, q.source.right_answer(posed.variant.ruling))
        if q.type in (quiz.QuestionType.MULTI, quiz.QuestionType.PLAYERS):
            out[q.name] = list(values)
        else:
            for name, value in zip(q.fields, values, strict=False):
                out[name] = [value]
    return out


def start(client, exam) -> ExamAttempt:
    response = client.post(reverse("courses:exam_start", args=[exam.pk]))
    assert response.status_code == 302, response.content.decode()[:500]
    return ExamAttempt.objects.get(exam=exam, finished_at=None)


def save(client, attempt, slot, data, htmx=True):
    headers = {"HX-Request": "true", "HX-Target": f"saved-{slot.position}"} if htmx else {}
    url = reverse("courses:exam_save", args=[attempt.pk, slot.position])
    return client.post(url, data, headers=headers)


def slots(attempt):
    return list(attempt.slots.select_related("scenario").order_by("position"))


# --- the whole way ---


def test_a_trainee_takes_the_exam_and_passes(
    world, exam, as_user, django_capture_on_commit_callbacks
):

    received = []

    def listener(**kwargs):
        received.append(kwargs)

    signals.exam_passed.connect(listener)
    try:
        client = as_user(world.trainee_a)
        attempt = start(client, exam)
        for slot in slots(attempt):
            response = save(client, attempt, slot, right_form(slot))
            assert response.status_code == 200
            assert "saved" in response.content.decode()
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(reverse("courses:exam_submit", args=[attempt.pk]))
        assert response.status_code == 302
    finally:
        signals.exam_passed.disconnect(listener)
    attempt.refresh_from_db()
    assert attempt.right == attempt.total > len(slots(attempt)) - 1
    assert attempt.passed and attempt.finished_by == Finish.TRAINEE
    (sent,) = received
    assert sent["attempt_id"] == attempt.pk and sent["user"] == world.trainee_a
    assert sent["course"] == world.course_a and sent["cohort"] == world.cohort_a
    assert sent["score_percent"] == 100.0 and sent["passed_at"] == attempt.finished_at
    assert (sent["exam_title_it"], sent["exam_title_en"]) == ("Esame finale", "Final exam")
    # In the history, mode exam, pointing at the attempt; not in the review schedule.
    recorded = Attempt.objects.filter(user=world.trainee_a, mode=Mode.EXAM)
    assert recorded.count() == attempt.total
    assert set(recorded.values_list("context_id", flat=True)) == {attempt.pk}
    assert not ScenarioProgress.objects.filter(user=world.trainee_a, due__isnull=False).exists()
    assert not ScenarioProgress.objects.filter(user=world.trainee_a, card__isnull=False).exists()


def test_without_javascript_a_save_goes_back_to_the_next_question(world, exam, as_user):
    client = as_user(world.trainee_a)
    attempt = start(client, exam)
    first = slots(attempt)[0]
    response = save(client, attempt, first, right_form(first), htmx=False)
    assert response.status_code == 302
    assert response["Location"].endswith(f"#q{first.position + 1}")
    first.refresh_from_db()
    assert first.given and first.saved_at is not None


# --- the server's timer -------------------------------------------------------------------------


def test_reloading_or_a_second_device_never_adds_time(world, exam, as_user, client, pool):
    exam.opens_at, exam.closes_at = T0 - timedelta(hours=1), T0 + timedelta(hours=5)
    exam.save()
    with time_machine.travel(T0, tick=False) as clock:
        phone = as_user(world.trainee_a)
        attempt = start(phone, exam)
        assert attempt.deadline == T0 + timedelta(minutes=30)
        clock.move_to(T0 + timedelta(minutes=10))
        page = phone.get(reverse("courses:exam_attempt", args=[attempt.pk]))
        assert page.context["seconds_left"] == 20 * 60
        # A laptop logs in: the same attempt, the same deadline; Start does not start another.
        from django.test import Client

        laptop = Client()
        laptop.force_login(world.trainee_a)
        assert start(laptop, exam).pk == attempt.pk
        clock.move_to(T0 + timedelta(minutes=25))
        page = laptop.get(reverse("courses:exam_attempt", args=[attempt.pk]))
        assert page.context["seconds_left"] == 5 * 60
        assert ExamAttempt.objects.filter(exam=exam).count() == 1
        # The exam's own page says the same.
        page = laptop.get(reverse("courses:exam", args=[exam.pk]))
        assert page.context["seconds_left"] == 5 * 60


def test_at_the_deadline_the_attempt_is_submitted_with_the_deadline_as_finish(world, exam, as_user):
    exam.opens_at, exam.closes_at = T0 - timedelta(hours=1), T0 + timedelta(hours=5)
    exam.save()
    with time_machine.travel(T0, tick=False) as clock:
        client = as_user(world.trainee_a)
        attempt = start(client, exam)
        first = slots(attempt)[0]
        save(client, attempt, first, right_form(first))
        clock.move_to(T0 + timedelta(hours=3))  # the trainee never came back until now
        page = client.get(reverse("courses:exam_attempt", args=[attempt.pk]))
        assert page.status_code == 302 and page["Location"].endswith("/result/")
    attempt.refresh_from_db()
    assert attempt.finished_at == T0 + timedelta(minutes=30)
    assert attempt.finished_by == Finish.DEADLINE
    assert attempt.right == len(attempts.posed(first, "en").questions)


def test_the_cron_command_submits_attempts_nobody_reads(world, exam, as_user):
    exam.opens_at, exam.closes_at = T0 - timedelta(hours=1), T0 + timedelta(minutes=20)
    exam.save()
    with time_machine.travel(T0, tick=False) as clock:
        attempt = start(as_user(world.trainee_a), exam)
        # The close comes before start + time limit: the deadline is the close.
        assert attempt.deadline == T0 + timedelta(minutes=20)
        call_command("exams", "finish")
        attempt.refresh_from_db()
        assert attempt.finished_at is None
        clock.move_to(T0 + timedelta(days=2))
        call_command("exams", "finish")
    attempt.refresh_from_db()
    assert attempt.finished_at == T0 + timedelta(minutes=20)
    assert attempt.passed is False


def test_extra_time_lengthens_one_trainees_deadline(world, exam, as_user):
    from polotrainer.courses.exams.models import Accommodation

    Accommodation.objects.create(exam=exam, user=world.trainee_a, extra_minutes=15)
    with time_machine.travel(timezone.now(), tick=False):
        attempt = start(as_user(world.trainee_a), exam)
        assert attempt.deadline - attempt.started_at == timedelta(minutes=45)


def test_time_given_as_the_old_deadline_passes_is_not_taken_back(world, exam, as_user):
    """The page read the attempt just before the instructor gave 15 more minutes: when it
    finds the old deadline passed, the deadline read under the attempt's lock decides."""
    exam.opens_at, exam.closes_at = T0 - timedelta(hours=1), T0 + timedelta(hours=5)
    exam.save()
    with time_machine.travel(T0, tick=False):
        attempt = start(as_user(world.trainee_a), exam)
    read_before = ExamAttempt.objects.get(pk=attempt.pk)
    Accommodation.objects.create(exam=exam, user=world.trainee_a, extra_minutes=15)
    attempts.reschedule(exam)
    attempts.finish_if_due(read_before, T0 + timedelta(minutes=31))
    assert read_before.finished_at is None
    assert read_before.deadline == T0 + timedelta(minutes=45)
    attempt.refresh_from_db()
    assert attempt.finished_at is None
    first = slots(attempt)[0]
    attempts.save(read_before, first, right_form(first), T0 + timedelta(minutes=32))
    first.refresh_from_db()
    assert first.given


def test_an_answer_after_the_deadline_is_refused_with_the_time_it_closed(world, exam, as_user):
    exam.opens_at, exam.closes_at = T0 - timedelta(hours=1), T0 + timedelta(hours=5)
    exam.save()
    with time_machine.travel(T0, tick=False) as clock:
        client = as_user(world.trainee_a)
        attempt = start(client, exam)
        first = slots(attempt)[0]
        clock.move_to(T0 + timedelta(minutes=31))
        response = save(client, attempt, first, right_form(first))
    assert response.status_code == 409
    assert "11:30 CET" in response.content.decode()  # the deadline, in the course's zone
    first.refresh_from_db()
    assert first.given == {} and first.saved_at is None
    attempt.refresh_from_db()
    assert attempt.finished_at == T0 + timedelta(minutes=30)


# --- resuming, two tabs, nothing lost ------------------------------------------------------------


def test_it_resumes_on_the_question_left_on_any_device(world, exam, as_user):
    client = as_user(world.trainee_a)
    attempt = start(client, exam)
    third = slots(attempt)[2]
    save(client, attempt, third, right_form(third))
    response = client.get(reverse("courses:exam", args=[exam.pk]))
    assert f"#q{third.position}" in response.content.decode()
    page = client.get(reverse("courses:exam_attempt", args=[attempt.pk]))
    assert f'data-current="{third.position}"' in page.content.decode()
    # The saved answer is in its form again.
    for values in right_form(third).values():
        for value in values:
            assert f'value="{value}"' in page.content.decode()


def test_two_tabs_the_last_answer_to_each_question_stands(world, exam, as_user):
    client = as_user(world.trainee_a)
    attempt = start(client, exam)
    spot = next(s for s in slots(attempt) if s.scenario.slug == "t-safety-spot")
    other = next(s for s in slots(attempt) if s.pk != spot.pk)
    posed = attempts.posed(spot, "en")
    bool_q = next(q for q in posed.questions if q.type == quiz.QuestionType.BOOL)
    first, last = (o.value for o in bool_q.options[:2])
    save(client, attempt, spot, {bool_q.name: [first]})  # tab one
    save(client, attempt, other, right_form(other))  # tab two, another question
    save(client, attempt, spot, {bool_q.name: [last]})  # tab two, later, the same question
    spot.refresh_from_db()
    other.refresh_from_db()
    assert spot.values[bool_q.name] == [last]
    assert spot.given[bool_q.id] == bool_q.source.parse([last])
    assert other.given and len(other.given) == len(attempts.posed(other, "en").questions)


def test_two_tabs_answering_two_questions_of_one_situation_keep_both(world, exam, as_user):
    client = as_user(world.trainee_a)
    attempt = start(client, exam)
    spot = next(s for s in slots(attempt) if s.scenario.slug == "t-safety-spot")
    posed = attempts.posed(spot, "en")
    place = next(q for q in posed.questions if q.type == quiz.QuestionType.PLACE)
    yes_no = next(q for q in posed.questions if q.type == quiz.QuestionType.BOOL)
    form = right_form(spot)
    # Each question's own form sends its own fields and names its question.
    tab_one = {name: form[name] for name in place.fields} | {"question": place.id}
    tab_two = {yes_no.name: form[yes_no.name], "question": yes_no.id}
    assert save(client, attempt, spot, tab_one).status_code == 200
    assert save(client, attempt, spot, tab_two).status_code == 200
    spot.refresh_from_db()
    assert set(spot.given) == {place.id, yes_no.id}


def test_a_tampered_question_id_is_a_404_and_nothing_is_saved(world, exam, as_user):
    client = as_user(world.trainee_a)
    attempt = start(client, exam)
    slot = slots(attempt)[0]
    data = right_form(slot) | {"question": "not-a-question"}
    assert save(client, attempt, slot, data).status_code == 404
    slot.refresh_from_db()
    assert slot.given == {} and slot.saved_at is None


def test_an_incomplete_answer_is_kept_in_the_form_but_not_saved_as_an_answer(world, exam, as_user):
    client = as_user(world.trainee_a)
    attempt = start(client, exam)
    spot = next(s for s in slots(attempt) if s.scenario.slug == "t-safety-spot")
    place = next(
        q for q in attempts.posed(spot, "en").questions if q.type == quiz.QuestionType.PLACE
    )
    response = save(client, attempt, spot, {f"{place.name}-along": ["40"]})
    assert response.status_code == 400
    spot.refresh_from_db()
    assert place.id not in spot.given
    assert spot.values[f"{place.name}-along"] == ["40"]


# --- what the pages give away ---


def test_the_attempt_page_shows_no_seed_scenario_or_ruling(world, exam, as_user):
    client = as_user(world.trainee_a)
    attempt = start(client, exam)
    page = client.get(reverse("courses:exam_attempt", args=[attempt.pk])).content.decode()
    for slot in slots(attempt):
        assert str(slot.seed) not in page
        assert slot.scenario.slug not in page
    assert "right answer" not in page.lower()


@pytest.mark.parametrize("lang", ["en", "it"])
def test_a_place_question_has_the_field_tools_of_practice_under_its_own_uid(
    world, exam, as_user, lang
):
    client = as_user(world.trainee_a)
    attempt = start(client, exam)
    spot = next(s for s in slots(attempt) if s.scenario.slug == "t-safety-spot")
    others = [s for s in slots(attempt) if not attempts.posed(s, "en").has_place]
    with translation.override(lang):
        page = client.get(reverse("courses:exam_attempt", args=[attempt.pk])).content.decode()
        nudge = translation.gettext("Move the ball by one yard")
    uid = f"field-{spot.position}"
    assert f'<p id="{uid}-status" class="visually-hidden" aria-live="polite"></p>' in page
    assert f'<div class="field-tools" data-field-tools="{uid}" hidden>' in page
    assert page.count("data-field-tools=") == len(slots(attempt)) - len(others)
    assert page.count(f'aria-label="{nudge}"') == page.count("data-field-tools=")
    assert 'data-field-tools="field"' not in page


def test_practice_refuses_an_exam_seed(world, pool, as_user, client):
    # Open book, so that practice answers the trainee at all (closed book: test_exam_closed_book).
    exam = make_exam(world.cohort_a, pool, closed_book=False)
    attempt = start(as_user(world.trainee_a), exam)
    slot = slots(attempt)[0]
    assert slot.seed > MAX_SEED
    for name in ("practice:question", "practice:whatif"):
        response = client.get(reverse(name, args=[slot.scenario.slug, slot.seed]))
        assert response.status_code in (404, 405)
    assert (
        client.get(reverse("practice:question", args=[slot.scenario.slug, slot.seed])).status_code
        == 404
    )


def test_the_history_hides_exam_results_until_the_policy_allows(world, pool, as_user):
    exam = make_exam(
        world.cohort_a,
        pool,
        review_after_submit=Review.SCORE,
        review_after_close=Review.ANSWERS,
        opens_at=T0 - timedelta(hours=1),
        closes_at=T0 + timedelta(hours=2),
    )
    with time_machine.travel(T0, tick=False) as clock:
        client = as_user(world.trainee_a)
        attempt = start(client, exam)
        for slot in slots(attempt):
            save(client, attempt, slot, right_form(slot))
        client.post(reverse("courses:exam_submit", args=[attempt.pk]))
        dashboard = client.get(reverse("umpires:dashboard")).content.decode()
        csv_text = b"".join(client.get(reverse("umpires:history_csv")).streaming_content).decode()
        assert "Result not shown yet" in dashboard or "Risultato non ancora mostrato" in dashboard
        assert 'class="ok"' not in dashboard.split('id="history"')[1]
        rows = list(csv.reader(io.StringIO(csv_text.lstrip("\ufeff"))))[1:]
        assert rows and all(row[15] == "exam" for row in rows)
        # Neither right/wrong, nor the right answer, nor the seed.
        assert all(row[13] == row[14] == row[10] == "" for row in rows)
        # No link to practice for an exam's variant.
        assert "/practice/" + slots(attempt)[0].scenario.slug not in dashboard
        clock.move_to(T0 + timedelta(hours=3))  # the exam has closed: everything shows
        dashboard = client.get(reverse("umpires:dashboard")).content.decode()
        csv_text = b"".join(client.get(reverse("umpires:history_csv")).streaming_content).decode()
    assert "Result not shown yet" not in dashboard and "non ancora" not in dashboard
    rows = list(csv.reader(io.StringIO(csv_text.lstrip("\ufeff"))))[1:]
    assert all(row[14] == "true" and row[13] and row[10] for row in rows)


# --- refusals ---


@pytest.mark.parametrize(
    ("opens", "closes", "code"),
    [(1, 3, "not_open"), (-3, -1, "closed")],
)
def test_it_refuses_to_start_outside_the_dates(world, pool, as_user, opens, closes, code):
    now = timezone.now()
    exam = make_exam(
        world.cohort_a,
        pool,
        opens_at=now + timedelta(hours=opens),
        closes_at=now + timedelta(hours=closes),
    )
    client = as_user(world.trainee_a)
    response = client.post(reverse("courses:exam_start", args=[exam.pk]))
    assert response.status_code == 409
    assert response.context["standing"].refusal.code == code
    assert not ExamAttempt.objects.exists()


def test_it_refuses_an_attempt_beyond_the_limit_and_inside_the_cooldown(world, pool, as_user):
    exam = make_exam(
        world.cohort_a,
        pool,
        attempts_allowed=2,
        cooldown_hours=24,
        opens_at=T0 - timedelta(hours=1),
        closes_at=T0 + timedelta(days=30),
    )
    with time_machine.travel(T0, tick=False) as clock:
        client = as_user(world.trainee_a)
        first = start(client, exam)
        client.post(reverse("courses:exam_submit", args=[first.pk]))
        clock.move_to(T0 + timedelta(hours=2))
        response = client.post(reverse("courses:exam_start", args=[exam.pk]))
        assert response.status_code == 409
        refusal = response.context["standing"].refusal
        assert refusal.code == "cooldown" and refusal.when == T0 + timedelta(hours=24)
        # A moment inside a sentence, as each language writes it: no ISO date.
        with translation.override("it"):
            italian = client.post(reverse("courses:exam_start", args=[exam.pk]))
        assert "2 dicembre 2026, 11:00 CET" in italian.content.decode()
        assert "2026-12-02" not in italian.content.decode()
        with translation.override("en"):
            english = client.post(reverse("courses:exam_start", args=[exam.pk]))
        assert "2 December 2026, 11:00 CET" in english.content.decode()
        clock.move_to(T0 + timedelta(hours=25))
        second = start(client, exam)
        client.post(reverse("courses:exam_submit", args=[second.pk]))
        clock.move_to(T0 + timedelta(days=3))
        response = client.post(reverse("courses:exam_start", args=[exam.pk]))
        assert response.context["standing"].refusal.code == "no_attempts_left"
    assert ExamAttempt.objects.filter(exam=exam).count() == 2


def test_someone_elses_attempt_is_a_404_and_nothing_changes(world, exam, as_user):
    attempt = start(as_user(world.trainee_a), exam)
    slot = slots(attempt)[0]
    for intruder in (world.trainee_b, world.instructor_a):
        client = as_user(intruder)
        assert client.get(reverse("courses:exam_attempt", args=[attempt.pk])).status_code == 404
        assert save(client, attempt, slot, right_form(slot)).status_code == 404
        assert client.post(reverse("courses:exam_submit", args=[attempt.pk])).status_code == 404
    slot.refresh_from_db()
    attempt.refresh_from_db()
    assert slot.given == {} and attempt.finished_at is None


def test_a_question_not_in_the_attempt_is_a_404(world, exam, as_user):
    client = as_user(world.trainee_a)
    attempt = start(client, exam)
    for position in (len(slots(attempt)) + 1, 10**17):
        url = reverse("courses:exam_save", args=[attempt.pk, position])
        assert client.post(url, {"q-x": ["1"]}).status_code == 404
    bad = f"/en/courses/exam/attempt/{attempt.pk}/q/{'9' * 30}/"
    assert client.post(bad, {}).status_code == 404


def test_a_tampered_field_name_is_ignored_and_nothing_else_changes(world, exam, as_user):
    client = as_user(world.trainee_a)
    attempt = start(client, exam)
    slot = slots(attempt)[0]
    response = save(client, attempt, slot, {"q-not-a-question": ["yes"], "q-": ["1"]})
    assert response.status_code == 200
    slot.refresh_from_db()
    assert slot.given == {} and "q-not-a-question" not in slot.values


def test_a_removed_trainee_loses_the_attempt_page(world, exam, as_user):
    client = as_user(world.trainee_a)
    attempt = start(client, exam)
    world.cohort_a.memberships.filter(user=world.trainee_a).delete()
    assert client.get(reverse("courses:exam_attempt", args=[attempt.pk])).status_code == 404
    assert client.get(reverse("courses:exam", args=[exam.pk])).status_code == 404


# --- speed ---


def test_the_exam_page_and_a_save_stay_within_their_query_budgets(
    world, exam, as_user, django_assert_max_num_queries
):
    client = as_user(world.trainee_a)
    attempt = start(client, exam)
    client.get(reverse("courses:exam_attempt", args=[attempt.pk]))  # warm caches of the content
    with django_assert_max_num_queries(8):
        assert client.get(reverse("courses:exam_attempt", args=[attempt.pk])).status_code == 200
    slot = slots(attempt)[1]
    with django_assert_max_num_queries(6):
        assert save(client, attempt, slot, right_form(slot)).status_code == 200


@pytest.mark.parametrize("htmx", [True, False])
@pytest.mark.parametrize("lang", ["en", "it"])
def test_a_save_poses_its_frozen_slot_once(world, exam, as_user, monkeypatch, htmx, lang):
    """A frozen variant is never cached: the save and the fragment share the request's one
    pose, in the page's language, and the answers read from it are stored all the same."""
    client = as_user(world.trainee_a)
    attempt = start(client, exam)
    slot = slots(attempt)[1]
    form = right_form(slot)
    posed = []
    pose = quiz.pose

    def counted(*args, **kwargs):
        posed.append(kwargs.get("frozen") is not None)
        return pose(*args, **kwargs)

    monkeypatch.setattr(quiz, "pose", counted)
    headers = {"HX-Request": "true", "HX-Target": f"saved-{slot.position}"} if htmx else {}
    with translation.override(lang):
        url = reverse("courses:exam_save", args=[attempt.pk, slot.position])
    response = client.post(url, form, headers=headers)
    assert response.status_code == (200 if htmx else 302)
    assert posed == [True]
    slot.refresh_from_db()
    assert set(slot.given) == {q.id for q in attempts.posed(slot, "en").questions}


# --- results ---


def test_the_result_shows_only_what_the_policy_allows(world, pool, as_user):
    exam = make_exam(
        world.cohort_a,
        pool,
        review_after_submit=Review.MARKS,
        review_after_close=Review.ANSWERS,
        opens_at=T0 - timedelta(hours=1),
        closes_at=T0 + timedelta(hours=2),
    )
    with time_machine.travel(T0, tick=False) as clock:
        client = as_user(world.trainee_a)
        attempt = start(client, exam)
        client.post(reverse("courses:exam_submit", args=[attempt.pk]))
        page = client.get(reverse("courses:exam_result", args=[attempt.pk]))
        assert page.context["level"] == Review.MARKS
        text = page.content.decode()
        assert f"{attempt.reference}-Q1" in text
        assert all(s["checked"] is None for s in page.context["shown"])
        clock.move_to(T0 + timedelta(hours=3))
        page = client.get(reverse("courses:exam_result", args=[attempt.pk]))
    assert page.context["level"] == Review.ANSWERS
    assert all(s["checked"] is not None for s in page.context["shown"])
    # Words, not codes: the situation's title and its reference, never its slug or seed.
    first = slots(attempt)[0]
    text = page.content.decode()
    assert page.context["shown"][0]["posed"].title in text
    assert str(first.seed) not in text and first.scenario.slug not in text


def test_tick_boxes_sent_with_none_ticked_answer_none_of_these(world, exam, as_user):
    client = as_user(world.trainee_a)
    attempt = start(client, exam)
    found = [
        (slot, q)
        for slot in slots(attempt)
        for q in attempts.posed(slot, "en").questions
        if q.type in (quiz.QuestionType.MULTI, quiz.QuestionType.PLAYERS)
    ]
    if not found:
        pytest.skip("no tick-box question was drawn")
    slot, q = found[0]
    assert save(client, attempt, slot, {"question": q.id}).status_code == 200
    slot.refresh_from_db()
    assert slot.given[q.id] == []  # answered: none of these
    # Sent with the whole slot's form instead, an untouched tick-box question stays unanswered.
    attempts.save(attempt, slot, {}, timezone.now())
    slot.refresh_from_db()
    assert q.id not in slot.given
