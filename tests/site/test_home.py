"""The home page: signed out, a start for each kind of user; signed in, what is due."""

import re
from datetime import timedelta

import pytest
from django.utils import formats, timezone, translation

from polotrainer import demo
from polotrainer.clinics.models import ClinicSession, Phase
from polotrainer.courses.exams.models import ExamAttempt
from polotrainer.umpires.review import due_count
from scenarios.models import Section
from tests.content import small_rulebook
from tests.people import (
    PASSWORD,
    answer,
    enrol,
    make_cohort,
    make_course,
    make_exam,
    person,
    set_assignment,
)

pytestmark = pytest.mark.django_db


def form(html: str, action: str) -> str:
    """The <form> with this action, whole."""
    found = re.search(rf'<form[^>]*action="{re.escape(action)}".*?</form>', html, re.S)
    assert found, f"no form to {action}"
    return found.group(0)


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", ("Practise now", "Join a course", "Instructors", "instructor role")),
        ("it", ("Esercitati ora", "Iscriviti a un corso", "Istruttori", "ruolo di istruttore")),
    ],
)
def test_signed_out_each_kind_of_user_finds_their_start(client, lang, words):
    html = client.get(f"/{lang}/").content.decode()
    for word in words:
        assert word in html
    assert f'href="/{lang}/practice/"' in html
    join = form(html, f"/{lang}/courses/join/")
    assert 'method="post"' in join and 'name="code"' in join
    assert "csrfmiddlewaretoken" in join
    assert f'href="/{lang}/account/signup/"' in html


def test_the_join_form_on_the_home_page_leads_to_the_cohort(client):
    teacher = person("ines", instructor=True)
    cohort = make_cohort(make_course(teacher))
    response = client.post("/en/courses/join/", {"code": cohort.join_code.lower()})
    assert response.status_code == 302
    assert response["Location"].startswith(f"/en/courses/join/{cohort.join_code}/?k=")


def test_it_promises_only_what_works(client):
    for lang in ("en", "it"):
        html = client.get(f"/{lang}/").content.decode()
        # Signed out, nobody has an exam: nothing promises one.
        assert not re.search(r"\b(exams?|esami?)\b", html, re.I)
        assert "not available yet" not in html and "non sono ancora disponibili" not in html


@pytest.mark.parametrize(
    ("lang", "title"), [("en", "Join a clinic"), ("it", "Partecipa a una clinic")]
)
def test_the_clinic_pin_box_leads_to_the_room(client, lang, title):
    html = client.get(f"/{lang}/").content.decode()
    pin = form(html, f"/{lang}/play/")
    assert 'method="get"' in pin and 'name="pin"' in pin
    assert "csrfmiddlewaretoken" not in pin  # a GET never carries the token into a URL
    assert title in html
    # A PIN no clinic has is refused on the join page, in the reader's language.
    refused = client.get(f"/{lang}/play/", {"pin": "000000"})
    assert refused.status_code == 400 and 'name="pin"' in refused.content.decode()


@pytest.fixture
def course_story():
    rulebook = small_rulebook()
    teacher = person("ines", instructor=True, name="Ines")
    alice, bob = person("alice", name="Alice"), person("bob", name="Bob")
    course = make_course(teacher, "Spring umpire course")
    cohort = make_cohort(course, "Spring")
    enrol(cohort, alice, days_ago=3)
    enrol(cohort, bob, days_ago=3)
    section = Section.objects.get(ref="3.a")
    work = set_assignment(cohort, [section], questions=2, days=5, by=teacher)
    return rulebook, teacher, alice, bob, cohort, work


def test_signed_in_a_trainee_sees_what_is_due(client, course_story):
    rulebook, _teacher, alice, _bob, _cohort, work = course_story
    answer(alice, rulebook["3a-one"], correct=False, when=timezone.now() - timedelta(hours=2))
    answer(alice, rulebook["21a"], correct=False, when=timezone.now() - timedelta(hours=2))
    client.force_login(alice)
    html = client.get("/en/").content.decode()
    assert "<h1>What is due</h1>" in html
    count = due_count(alice)
    assert count == 2
    assert "2 situations are due for review now." in html
    assert 'href="/en/review/"' in html
    assert f'href="/en/courses/assignment/{work.pk}/"' in html
    assert "0 of 2 answered" in html
    with translation.override("en"):
        assert f"due {formats.date_format(work.due_on, 'DATE_FORMAT')}" in html
    # Signed in, the pitch for visitors is gone; the starts stay.
    assert "rules engine computes every ruling" not in html
    assert "Practise now" in html
    html_it = client.get("/it/").content.decode()
    assert "Cosa c'è da fare" in html_it and "2 situazioni da ripassare ora." in html_it


def test_with_nothing_due_it_says_when_the_next_review_comes(client, course_story):
    rulebook, _teacher, _alice, bob, _cohort, _work = course_story
    answer(bob, rulebook["21a"], correct=True, when=timezone.now() - timedelta(minutes=1))
    answer(bob, rulebook["3a-one"], correct=True)
    answer(bob, rulebook["3a-two"], correct=True)
    client.force_login(bob)
    html = client.get("/en/").content.decode()
    assert due_count(bob) == 0
    assert "Nothing to review now; the next review is due in" in html
    assert "Due in your courses" not in html  # the assignment is done


def test_signed_in_an_instructor_sees_their_cohorts_and_the_gradebook(client, course_story):
    rulebook, teacher, alice, _bob, cohort, _work = course_story
    answer(alice, rulebook["3a-one"])
    answer(alice, rulebook["3a-two"])
    client.force_login(teacher)
    html = client.get("/en/").content.decode()
    assert "Your cohorts" in html
    assert f'href="/en/courses/cohort/{cohort.pk}/gradebook/"' in html
    assert "2 trainees" in html
    assert "Section 3.a: 1 of 2 done, due" in html
    # The verb agrees with those who finished: "1 allievi su 2 hanno finito" no more.
    italian = client.get("/it/").content.decode()
    assert "Sezione 3.a: 1 su 2 ha finito, scade il" in italian
    answer(_bob, rulebook["3a-one"])
    answer(_bob, rulebook["3a-two"])
    assert "Sezione 3.a: 2 su 2 hanno finito" in client.get("/it/").content.decode()
    assert 'href="/en/courses/new/"' in html
    assert "The site's staff give you the instructor role" not in html
    # An instructor who does not practise is not told about reviews they never had.
    assert 'class="due-reviews"' not in html


def test_a_trainee_sees_no_cohorts_to_teach(client, course_story):
    _rulebook, _teacher, alice, _bob, _cohort, _work = course_story
    client.force_login(alice)
    html = client.get("/en/").content.decode()
    assert "Your cohorts" not in html and "/gradebook/" not in html


def test_the_demo_log_ins_show_only_in_development(client, settings):
    person("demo-anna")
    settings.DEBUG = True
    html = client.get("/en/").content.decode()
    assert "Demo data loaded" in html and demo.PASSWORD in html
    assert all(f"<code>{name}</code>" in html for name in demo.USERNAMES)
    # Roles in words that fit anyone: Anna is not "allievo", Giulia is not "istruttore".
    italian = client.get("/it/").content.decode()
    assert "· partecipante</li>" in italian and "· allievo<" not in italian
    settings.DEBUG = False
    html = client.get("/en/").content.decode()
    assert "Demo data loaded" not in html and demo.PASSWORD not in html


@pytest.fixture
def teaching(course_story):
    """Ines's cohort with an exam open (Alice submitted), one coming, one closed last week and
    one closed long ago; a clinic in the lobby and one ended; Ivan's exam and clinic."""
    rulebook, teacher, alice, _bob, cohort, _work = course_story
    now = timezone.now()
    scenarios = [rulebook["3a-one"]]
    exams = {
        "open": make_exam(cohort, scenarios, title_en="Final exam"),
        "coming": make_exam(
            cohort,
            scenarios,
            title_en="Resit exam",
            opens_at=now + timedelta(days=3),
            closes_at=now + timedelta(days=4),
        ),
        "closed": make_exam(
            cohort,
            scenarios,
            title_en="Mid-course exam",
            opens_at=now - timedelta(days=8),
            closes_at=now - timedelta(days=7),
        ),
        "old": make_exam(
            cohort,
            scenarios,
            title_en="Last year's exam",
            opens_at=now - timedelta(days=300),
            closes_at=now - timedelta(days=299),
        ),
    }
    ExamAttempt.objects.create(
        exam=exams["open"], user=alice, started_at=now, deadline=now, finished_at=now
    )
    ivan = person("ivan", instructor=True, name="Ivan")
    make_exam(
        make_cohort(make_course(ivan, "Arena course"), "Winter"), scenarios, title_en="Ivan's exam"
    )
    clinics = {
        "lobby": ClinicSession.objects.create(
            instructor=teacher, title="Saturday clinic", pin="111111"
        ),
        "ended": ClinicSession.objects.create(
            instructor=teacher, title="Last month's clinic", pin="222222", phase=Phase.ENDED
        ),
    }
    ClinicSession.objects.create(instructor=ivan, title="Ivan's clinic", pin="333333")
    return teacher, exams, clinics


def test_an_instructor_signs_in_to_their_cohorts_exams_and_clinics(client, teaching):
    _teacher, exams, clinics = teaching
    response = client.post("/en/account/login/", {"username": "ines", "password": PASSWORD})
    assert response["Location"] == "/en/start/"
    response = client.get(response["Location"])
    assert response.status_code == 302 and response["Location"] == "/en/"
    html = client.get("/en/").content.decode()
    assert "<h1>Your courses and clinics</h1>" in html
    cohorts, exams_at, clinics_at, practice = (
        html.index(f'id="{name}"')
        for name in ("teaching-title", "exams-taught-title", "clinics-title", "own-practice-title")
    )
    assert cohorts < exams_at < clinics_at < practice  # their own practice below
    taught = html[exams_at:clinics_at]
    for state in ("open", "coming", "closed"):
        assert f'href="/en/courses/exam/{exams[state].pk}/results/"' in taught, state
    assert taught.index("Final exam") < taught.index("Resit exam") < taught.index("Mid-course")
    assert "1 of 2 submitted" in taught and "open now" in taught
    assert "Last year's exam" not in html and "Ivan's exam" not in html
    running = html[clinics_at:practice]
    assert f'href="/en/clinics/{clinics["lobby"].pk}/"' in running and "PIN 111111" in running
    assert "Last month's clinic" not in running and "Ivan's clinic" not in running
    assert 'href="/en/practice/"' in html[practice:] and 'href="/en/me/"' in html[practice:]
    it = client.get("/it/").content.decode()
    assert "<h1>I tuoi corsi e le tue clinic</h1>" in it and "1 su 2 ha consegnato" in it


def test_a_trainee_signs_in_to_their_progress(client, course_story):
    response = client.post("/en/account/login/", {"username": "alice", "password": PASSWORD})
    assert client.get(response["Location"])["Location"] == "/en/me/"
    html = client.get("/en/").content.decode()
    assert "<h1>What is due</h1>" in html and "Your own practice" not in html


def test_an_instructor_with_nothing_yet_is_shown_where_to_begin(client):
    small_rulebook()
    client.force_login(person("nina", instructor=True))
    html = client.get("/en/").content.decode()
    assert "You do not teach a course yet." in html and 'href="/en/courses/new/"' in html
    assert "No clinic waiting or running." in html and 'href="/en/clinics/new/"' in html
