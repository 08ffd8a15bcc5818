"""A certification course as people play it, and every course page in both languages and sizes.

The story: an instructor creates a course and a cohort on a laptop and sets an assignment; a
trainee joins by code on a phone, does the assignment through practice; the instructor reads
the gradebook, opens the trainee and downloads the CSV.
"""

import csv
import io
import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from polotrainer.courses import assignments, codes
from polotrainer.courses.models import Cohort, Course, Membership, Observation
from polotrainer.umpires import roles
from polotrainer.umpires.models import Attempt, Profile
from scenarios.models import Section
from tests.browser.support import (
    assert_accessible,
    assert_fits,
    right_answers,
    shoot,
    typed,
    variant_of,
)
from tests.content import ALL, create_rulebook, make_scenario
from tests.people import answer

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "a-long-unusual-passphrase-91"


def _check(p, name):
    assert_accessible(p)
    assert_fits(p)
    shoot(p, name)


def _person(username, name, *, instructor=False, staff=False, lang="en"):
    user = get_user_model().objects.create_user(
        username, f"{username}@example.org", PASSWORD, is_staff=staff
    )
    Profile.objects.create(user=user, display_name=name, language=lang)
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


@pytest.fixture
def content(transactional_db):
    create_rulebook()
    return {data["slug"]: make_scenario(data) for data in ALL}


def test_a_course_from_creation_to_the_gradebook_csv(page, phone, content):
    _person("ines", "Ines Istruttrice", instructor=True)
    _person("tom", "Tom Trainee")

    # The instructor creates a course and a cohort, and sets an assignment.
    _log_in(page, "ines")
    page.goto("/en/courses/")
    page.get_by_role("button", name="New course").click()
    page.fill("input[name=title_it]", "Corso arbitri 2026")
    page.fill("input[name=title_en]", "Umpire course 2026")
    page.locator("input[name=track][value=arena]").check()
    page.get_by_role("button", name="Create the course").click()
    page.wait_for_url(re.compile(r"/en/courses/\d+/$"))
    page.get_by_role("button", name="New cohort").click()
    page.fill("input[name=name]", "Spring, Rome")
    page.fill("input[name=max_trainees]", "12")
    page.get_by_role("button", name="Create the cohort").click()
    page.wait_for_url(re.compile(r"/en/courses/cohort/\d+/$"))
    code = page.locator("#join-panel .join-code").inner_text().replace(" ", "")
    assert codes.is_well_formed(code)
    assert page.locator("#join-panel svg.qr").count() == 1
    page.get_by_role("button", name="Set an assignment").click()
    page.locator("input[name=scope][value=sections]").check()
    page.get_by_role("checkbox", name="37.6 Penalty 6").check()
    page.fill("input[name=questions]", "2")
    page.fill("input[name=due_on]", (timezone.localdate() + timedelta(days=3)).isoformat())
    page.get_by_role("button", name="Set the assignment").click()
    page.wait_for_url(re.compile(r"/en/courses/cohort/\d+/$"))
    assert "Assignment set" in page.content()

    # The trainee joins by code on a phone, typing it in small letters.
    _log_in(phone, "tom")
    phone.goto("/en/courses/")
    phone.fill("input[name=code]", code.lower())
    phone.get_by_role("button", name="Continue").click()
    phone.wait_for_url(re.compile(rf"/en/courses/join/{code}/\?k=[\w-]+$"))
    assert "What your instructors will see" in phone.content()
    _check(phone, "courses-story-join-en-phone")
    phone.get_by_role("button", name="Join the cohort").click()
    phone.wait_for_url("**/en/courses/")
    assert Membership.objects.filter(user__username="tom").exists()
    phone.goto("/en/")
    assert "Due in your courses" in phone.content()
    phone.get_by_role("link", name="Section 37.6").first.click()
    phone.get_by_role("button", name="Start").click()
    phone.wait_for_url(re.compile(r"/en/practice/t-safety-spot/\d+/\?then="))
    assert "0 of 2 questions answered" in phone.content()
    # The variant's own right answers, as the engine computes them (its field may be short).
    slug, seed = variant_of(phone)
    right = right_answers(content[slug], seed)
    along, across = typed(content[slug], seed, right["spot"][1]).form_values()
    phone.locator("#q-spot-along").fill(along)
    phone.locator("#q-spot-across").fill(across)
    goal = "true" if right["goal"][1] else "false"
    phone.locator(f"input[name=q-goal][value={goal}]").check()
    phone.locator("#quiz button[type=submit]").click()
    phone.locator("#feedback-heading").wait_for()
    phone.locator("#next-question").click()
    phone.wait_for_url(re.compile(r"/en/courses/assignment/\d+/$"))
    # The page may still be arriving when its address changes: wait for the words.
    phone.get_by_text("Assignment done: 2 of 2 answers right.").wait_for(timeout=10_000)
    assert Attempt.objects.filter(user__username="tom").count() == 2

    # The instructor sees it in the gradebook, opens the trainee and exports the CSV.
    page.goto("/en/courses/")
    page.get_by_role("link", name="Umpire course 2026").click()
    page.get_by_role("link", name="Gradebook").first.click()
    row = page.locator("table.gradebook tbody tr").first
    assert "Tom Trainee" in row.inner_text() and "2/2" in row.inner_text()
    page.get_by_role("link", name="Trainee", exact=True).click()  # sorted in place by htmx
    page.wait_for_url("**?sort=name")
    assert "Sorted by name." in page.content()
    with page.expect_download() as download:
        page.get_by_role("button", name="Download as CSV").click()
    text = download.value.path().read_text("utf-8-sig")
    header, tom = list(csv.reader(io.StringIO(text)))
    assert header[0] == "Trainee" and tom[0] == "Tom Trainee"
    assert "Done" in tom
    page.get_by_role("link", name="Tom Trainee").click()
    page.wait_for_url(re.compile(r"/trainees/\d+/$"))
    assert re.search(r"2 answers since joining, [012] right\.", page.content())


# --- every page, both languages, phone and laptop ------------------------------------------------


@pytest.fixture
def course_world(content):
    """A course with a cohort of two trainees, assignments, answers and an observation."""
    ines = _person("ines", "Ines Istruttrice", instructor=True)
    tom = _person("tom", "Tom Trainee")
    ann = _person("ann", "Annalisa Bianchi-Ferraris")
    sam = _person("sam", "Sam Staff", staff=True)
    course = Course.objects.create(
        title_it="Corso arbitri outdoor 2026",
        title_en="Outdoor umpire course 2026",
        track="outdoor",
        year=2026,
        created_by=ines,
    )
    course.instructors.add(ines)
    cohort = Cohort(course=course, name="Spring, Rome", max_trainees=20)
    codes.give_new_code(cohort)
    for user in (tom, ann):
        Membership.objects.create(
            cohort=cohort, user=user, joined_at=timezone.now() - timedelta(days=20)
        )
    due = timezone.localdate() + timedelta(days=5)
    first = assignments.create(
        cohort,
        scope="sections",
        sections=[Section.objects.get(ref="37.6")],
        questions=4,
        due_on=due,
        note="Before Saturday's clinic",
        by=ines,
    )
    assignments.create(
        cohort,
        scope="rule",
        rule=first.sections.get().rule,
        questions=10,
        due_on=due + timedelta(days=7),
        by=ines,
    )
    spot = content["t-safety-spot"]
    for n in range(6):
        answer(tom, spot, correct=n % 2 == 0, seed=100 + n)
    answer(ann, content["t-horn-seconds"], correct=True)
    Observation.objects.create(
        cohort=cohort,
        trainee=tom,
        observer=ines,
        observed_on=timezone.localdate(),
        game="Red v Blue, 8-goal final, Roma Polo Club",
        outcome="satisfactory",
        rating="C1",
        notes="Clear whistle and good position on the throw-in.\nWork on the 60-yard spot.",
    )
    return {
        "ines": ines,
        "tom": tom,
        "sam": sam,
        "course": course,
        "cohort": cohort,
        "assignment": first,
    }


def _as(browser, live_server, viewport, user, lang):
    context = browser.new_context(
        viewport=viewport, base_url=live_server.url, is_mobile=viewport["width"] < 500
    )
    if user is not None:
        client = Client()
        client.force_login(user)
        context.add_cookies(
            [
                {
                    "name": "sessionid",
                    "value": client.cookies["sessionid"].value,
                    "url": live_server.url,
                }
            ]
        )
    return context


@pytest.mark.parametrize("lang", ["en", "it"])
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_every_course_page_reads_well(browser, live_server, course_world, lang, size):
    w = course_world
    viewport = {"width": 360, "height": 780} if size == "phone" else {"width": 1280, "height": 900}
    cohort, course, tom = w["cohort"], w["course"], w["tom"]
    pages = {
        "ines": [
            ("mine-instructor", "/courses/"),
            ("course-new", "/courses/new/"),
            ("course", f"/courses/{course.pk}/"),
            ("cohort-new", f"/courses/{course.pk}/cohorts/new/"),
            ("cohort", f"/courses/cohort/{cohort.pk}/"),
            ("code-projector", f"/courses/cohort/{cohort.pk}/code/show/"),
            ("assignment-new", f"/courses/cohort/{cohort.pk}/assignments/new/"),
            ("gradebook", f"/courses/cohort/{cohort.pk}/gradebook/"),
            ("trainee", f"/courses/cohort/{cohort.pk}/trainees/{tom.pk}/"),
            ("observation-new", f"/courses/cohort/{cohort.pk}/trainees/{tom.pk}/observations/new/"),
            ("remove-confirm", f"/courses/cohort/{cohort.pk}/trainees/{tom.pk}/remove/"),
        ],
        "tom": [
            ("home-due", "/"),
            ("mine-trainee", "/courses/"),
            ("assignment", f"/courses/assignment/{w['assignment'].pk}/"),
            ("my-report", f"/courses/cohort/{cohort.pk}/me/"),
            ("leave-confirm", f"/courses/cohort/{cohort.pk}/leave/"),
        ],
        "sam": [("staff-instructors", "/courses/staff/instructors/")],
        None: [
            ("join", "/courses/join/"),
            ("join-invite", f"/courses/join/{cohort.join_code}/"),
            ("join-wrong-code", "/courses/join/WWWWWW/"),
        ],
    }
    for who, visits in pages.items():
        context = _as(browser, live_server, viewport, w.get(who) if who else None, lang)
        p = context.new_page()
        for name, path in visits:
            response = p.goto(f"/{lang}{path}")
            assert response.status == (404 if name == "join-wrong-code" else 200), path
            assert p.locator("html").get_attribute("lang") == lang
            _check(p, f"courses-{name}-{lang}-{size}")
        context.close()
