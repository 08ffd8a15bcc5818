"""An exam on a phone: start, answer, lose the connection mid-way (answer offline, reload),
come back online with every answer kept, submit; and the exam pages at both sizes and in
both languages."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import Error as PlaywrightError

from polotrainer.courses import codes, roles
from polotrainer.courses.models import Cohort, Course, Exam, ExamAttempt, Membership, Review
from polotrainer.umpires.models import Profile
from tests.browser.support import assert_accessible, assert_fits, shoot
from tests.scenarios.conftest import ALL, create_rulebook, make_scenario

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
    p.wait_for_url("**/me/")


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
    with pytest.raises(PlaywrightError, match="ERR_INTERNET_DISCONNECTED"):
        p.reload()  # the browser's own offline page: nothing of ours can run
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
    assert (
        p.evaluate(
            "Object.keys(localStorage).filter(k => k.startsWith('polotrainer-exam-')).length"
        )
        == 0
    )
    p.locator("[data-exam-submit]").click()
    p.wait_for_url("**/submit/")
    _check(p, "exam-submit-phone-en")
    p.get_by_role("button", name="Submit").click()
    p.wait_for_url("**/result/")
    _check(p, "exam-result-phone-en")
    attempt.refresh_from_db()
    assert attempt.finished_at is not None and attempt.total > 2


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
