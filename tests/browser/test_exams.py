"""An exam on a phone: start, answer, lose the connection mid-way (answer offline, reload),
come back online with every answer kept, submit; every question of several situations answered
offline and sent together once back online, against a served site (real concurrency), all
graded as given; and the exam pages at both sizes and in both languages."""

import re
from collections.abc import Iterator
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from polotrainer.courses import codes
from polotrainer.courses.exams.models import Exam, ExamAttempt, Review
from polotrainer.courses.models import Cohort, Course, Membership
from polotrainer.umpires import roles
from polotrainer.umpires.models import Attempt, ClosedBook, Mode, Profile
from scenarios.models import Scenario
from tests import servers as server
from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.support import assert_accessible, assert_fits, shoot
from tests.browser.test_practice import answer_others, right_answers
from tests.content import ALL, create_rulebook, make_scenario

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "a-long-unusual-passphrase-91"


def _person(username, name, *, instructor=False):
    user = get_user_model().objects.create_user(username, f"{username}@example.org", PASSWORD)
    Profile.objects.create(user=user, display_name=name, language="en")
    if instructor:
        roles.grant(user)
    return user


def _log_in(p, username, lang="en"):
    p.goto(f"/{lang}/account/login/")
    p.fill("input[name=username]", username)
    p.fill("input[name=password]", PASSWORD)
    p.locator("main form button[type=submit]").click()
    # An instructor lands on the home page, a trainee on their progress.
    p.wait_for_url(lambda url: "/account/login/" not in url)


def _check(p, name):
    assert_accessible(p)
    assert_fits(p)
    shoot(p, name)


@pytest.fixture
def exam(transactional_db):
    create_rulebook()
    scenarios = [make_scenario(data) for data in ALL]
    ines = _person("ines", "Ines Istruttrice", instructor=True)
    alice = _person("alice", "Alice Allieva")
    course = Course.objects.create(
        title_it="Corso arbitri", title_en="Umpire course", track="outdoor", year=2026
    )
    course.instructors.add(ines)
    cohort = Cohort(course=course, name="Spring")
    codes.give_new_code(cohort)
    Membership.objects.create(cohort=cohort, user=alice)
    now = timezone.now()
    return Exam.objects.create(
        cohort=cohort,
        title_it="Esame finale",
        title_en="Final exam",
        blueprint=[
            {
                "title_it": "Tutto",
                "title_en": "Everything",
                "count": len(scenarios),
                "scenarios": [s.pk for s in scenarios],
            }
        ],
        pass_percent=95,
        time_limit_minutes=30,
        opens_at=now - timedelta(hours=1),
        closes_at=now + timedelta(days=1),
        attempts_allowed=2,
        review_after_submit=Review.MARKS,
        review_after_close=Review.ANSWERS,
    )


def _radio_forms(p):
    forms = p.locator("form.exam-form")
    return [
        forms.nth(i)
        for i in range(forms.count())
        if forms.nth(i).locator("input[type=radio]").count()
    ]


def test_an_exam_on_a_phone_survives_a_lost_connection(phone, exam):
    p = phone
    _log_in(p, "alice")
    p.goto(f"/en/courses/exam/{exam.pk}/")
    _check(p, "exam-start-phone-en")
    p.get_by_role("button", name="Start the exam").click()
    p.wait_for_url("**/courses/exam/attempt/**")
    attempt = ExamAttempt.objects.get(exam=exam)
    _check(p, "exam-attempt-phone-en")
    # "Ends at" a time of day, in the reader's zone and 24-hour: never a date ("1 Dec, 14:30").
    ends = p.locator(".exam-timer time[data-local]")
    assert re.fullmatch(r"\d{2}:\d{2}( \S+)?", ends.inner_text()), ends.inner_text()
    # A place question: a tap on the field puts the ball there and saves it.
    field = p.locator("section[data-field-scope] svg[data-field]").first
    field.scroll_into_view_if_needed()
    box = field.bounding_box()
    field.click(position={"x": box["width"] * 0.3, "y": box["height"] * 0.4})
    spot_form = p.locator("form.exam-form:has([data-place='along'])").first
    spot_form.locator(".saved-mark.saved").wait_for()
    assert spot_form.locator("[data-place='along']").input_value() != ""
    first, second = _radio_forms(p)[:2]
    first.locator("input[type=radio]").first.check()
    first.locator(".saved-mark.saved").wait_for()
    # The connection drops: the answer stays in the page, which says it is not sent yet.
    p.context.set_offline(True)
    second.locator("input[type=radio]").last.check()
    second.locator(".saved-mark.pending").wait_for()
    shoot(p, "exam-offline-phone-en")
    # A reload with no signal: the service worker's offline page if it is active by then, else
    # the browser's own error page; either way the exam's answer stays on the device.
    try:
        p.reload()
        assert p.locator("main h1").inner_text() == "Practice with no signal"
    except PlaywrightError as error:
        assert "ERR_INTERNET_DISCONNECTED" in str(error)
    p.context.set_offline(False)
    p.goto(f"/en/courses/exam/attempt/{attempt.pk}/")
    # Back online: the answer kept on the device is put back and sent.
    saved = p.locator("form.exam-form .saved-mark.saved")
    saved.nth(2).wait_for()
    assert saved.count() == 3
    keys = [
        p.locator("form.exam-form").nth(i).get_attribute("data-key")
        for i in range(p.locator("form.exam-form").count())
        if p.locator("form.exam-form").nth(i).locator(".saved-mark.saved").count()
    ]
    given = {f"{s.position}-{q}" for s in attempt.slots.all() for q in s.given}
    assert set(keys) == given and len(given) == 3
    assert _pending(p) == 0
    p.locator("[data-exam-submit]").click()
    p.wait_for_url("**/submit/")
    _check(p, "exam-submit-phone-en")
    p.get_by_role("button", name="Submit").click()
    p.wait_for_url("**/result/")
    _check(p, "exam-result-phone-en")
    attempt.refresh_from_db()
    assert attempt.finished_at is not None and attempt.total > 2


def _pending(p) -> int:
    return p.evaluate(
        "Object.keys(localStorage).filter(k => k.startsWith('polotrainer-exam-')).length"
    )


def test_a_save_the_server_did_not_store_stays_on_the_device(phone, exam):
    """A server error, or the log-in page after logging out in another tab, stored nothing:
    the answer stays on the device, marked not sent, and goes when the server can take it."""
    p = phone
    _log_in(p, "alice")
    p.goto(f"/en/courses/exam/{exam.pk}/")
    p.get_by_role("button", name="Start the exam").click()
    p.wait_for_url("**/courses/exam/attempt/**")
    attempt = ExamAttempt.objects.get(exam=exam)
    first, second = _radio_forms(p)[:2]
    saves = "**/courses/exam/attempt/*/q/*/"
    p.route(saves, lambda route: route.fulfill(status=503, body="busy"))
    first.locator("input[type=radio]").first.check()
    first.locator(".saved-mark.pending").wait_for()
    assert _pending(p) == 1
    p.unroute(saves)
    first.locator(".saved-mark.saved").wait_for(timeout=10000)  # sent again a moment later
    assert _pending(p) == 0
    other = p.context.new_page()
    other.goto("/en/")
    other.get_by_role("button", name="Log out").click()
    second.locator("input[type=radio]").last.check()
    second.locator(".saved-mark.pending").wait_for()  # not the log-in page swapped in
    assert _pending(p) == 1
    _log_in(other, "alice")
    p.reload()
    p.locator("form.exam-form .saved-mark.saved").nth(1).wait_for()
    assert _pending(p) == 0
    assert sum(len(s.given) for s in attempt.slots.all()) == 2


@pytest.fixture(scope="module")
def site() -> Iterator[tuple[server.Database, server.Server]]:
    """The app as served (uvicorn, its own database): saves that arrive together really run
    together, as they do for a phone back online (the live server's database is one shared
    connection, where no lock can hold)."""
    with server.served("polotrainer-exam-browser-") as site:
        yield site


def _answer(form, fields: dict[str, list[str]]) -> None:
    """Give one question's answer in its form as a person would: tick, choose, type."""
    for name, values in fields.items():
        if name == "question":
            continue
        boxes = form.locator(
            f"input[name='{name}'][type=radio], input[name='{name}'][type=checkbox]"
        )
        if boxes.count():
            for value in values:
                form.locator(f"input[name='{name}'][value='{value}']").check()
            if not values:  # none of these: only the form's own button says so
                form.get_by_role("button", name="Save this answer").click()
        elif form.locator(f"select[name='{name}']").count():
            form.locator(f"select[name='{name}']").select_option(values[0])
        else:
            form.locator(f"input[name='{name}']").fill(values[0])
            form.locator(f"input[name='{name}']").press("Tab")  # leaving the box: a change


GRADED = """
from polotrainer.courses.exams import attempts
from polotrainer.courses.exams.models import ExamAttempt
attempt = ExamAttempt.objects.get(pk=ATTEMPT)
result = {
    "finished": attempt.finished_at is not None,
    "right": attempt.right,
    "total": attempt.total,
    "slots": {
        f"{slot.position}": {"asked": [q.id for q in attempts.posed(slot, "en").questions],
                             "given": sorted(slot.given), "marks": slot.marks}
        for slot in attempt.slots.select_related("scenario")
    },
}
"""


def test_every_answer_given_offline_is_graded_as_given(browser, site):
    database, running = site
    (sitting,) = server.exam(database, "offline", 1, count=4)
    slots = sitting["slots"]
    asked = sum(len(slot["questions"]) for slot in slots)
    assert asked >= 2 * len(slots) >= 8
    context = browser.new_context(
        viewport=PHONE, base_url=running.base, is_mobile=True, has_touch=True
    )
    context.add_cookies([{"name": "sessionid", "value": sitting["session"], "url": running.base}])
    p = context.new_page()
    try:
        p.goto(f"/en/courses/exam/attempt/{sitting['attempt']}/")
        # Offline before the first answer: every question of every situation is answered with
        # no connection, each kept on the device.
        context.set_offline(True)
        for slot in slots:
            for question in slot["questions"]:
                form = p.locator(
                    f"form.exam-form[data-key='{slot['position']}-{question['question']}']"
                )
                _answer(form, question)
                form.locator(".saved-mark.pending").wait_for()
        shoot(p, "exam-all-offline-phone-en")
        # Back online (no reload): the page sends every pending answer at once.
        context.set_offline(False)
        expect(p.locator("form.exam-form .saved-mark.saved")).to_have_count(asked, timeout=15000)
        assert _pending(p) == 0
        p.locator("[data-exam-submit]").click()
        p.wait_for_url("**/submit/")
        p.get_by_role("button", name="Submit").click()
        p.wait_for_url("**/result/")
    finally:
        context.close()
    graded = database.query(f"ATTEMPT = {sitting['attempt']}\n" + GRADED)
    assert graded["finished"]
    for position, slot in graded["slots"].items():
        assert slot["given"] == sorted(slot["asked"]), f"question {position} lost an answer"
        assert all(slot["marks"].values()), f"question {position} not graded as given"
    assert graded["right"] == graded["total"] == asked


@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_instructor_pages_fit_and_read_in_both_languages(page, exam, lang):
    _log_in(page, "ines", lang)
    for name, url in [
        ("exam-form", f"/{lang}/courses/cohort/{exam.cohort_id}/exams/new/"),
        ("exam-results", f"/{lang}/courses/exam/{exam.pk}/results/"),
        ("exam-items", f"/{lang}/courses/exam/{exam.pk}/items/"),
    ]:
        page.goto(url)
        _check(page, f"{name}-desktop-{lang}")
    page.set_viewport_size({"width": 360, "height": 780})
    page.goto(f"/{lang}/courses/exam/{exam.pk}/results/")
    _check(page, f"exam-results-phone-{lang}")


@pytest.mark.parametrize("lang", ["en", "it"])
def test_a_closed_book_exam_says_so_before_and_closes_practice_during(
    browser, live_server, exam, lang
):
    """Told on the start page; during the attempt an answer already on a tab reloads into the
    page saying the exam is in progress and when practice reopens; the rulebook stays open."""
    words = {
        "en": ("Closed book.", "Start the exam", "Check my answer", "Exam in progress"),
        "it": ("A libro chiuso.", "Inizia l'esame", "Controlla la risposta", "Esame in corso"),
    }[lang]
    for size, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        context = browser.new_context(viewport=viewport, base_url=live_server.url)
        p = context.new_page()
        _log_in(p, "alice", lang)
        # A practice question open on one tab before the exam starts on another.
        practice = context.new_page()
        practice.goto(f"/{lang}/practice/t-horn-seconds/5/")
        p.goto(f"/{lang}/courses/exam/{exam.pk}/")
        assert words[0] in p.locator(".closed-book-note").inner_text()
        _check(p, f"exam-start-closed-book-{size}-{lang}")
        p.get_by_role("button", name=words[1]).click()
        p.wait_for_url("**/courses/exam/attempt/**")
        # The answer sent from the other tab is not ruled: that tab now says why.
        answer_others(practice, right_answers(Scenario.objects.get(slug="t-horn-seconds"), 5))
        practice.get_by_role("button", name=words[2]).click()
        practice.get_by_role("heading", name=words[3]).wait_for()
        assert practice.locator("#feedback-heading").count() == 0
        _check(practice, f"practice-closed-book-{size}-{lang}")
        practice.get_by_role(
            "button", name="Back to your exam" if lang == "en" else "Torna al tuo esame"
        ).click()
        practice.wait_for_url(f"**/{lang}/courses/exam/attempt/**")
        context.close()
        # The next size starts afresh.
        ExamAttempt.objects.filter(exam=exam).delete()
        ClosedBook.objects.all().delete()
    assert not Attempt.objects.filter(mode=Mode.PRACTICE).exists()
