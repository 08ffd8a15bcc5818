"""The demo as a first-time visitor meets it: log in as the demo instructor and find the
gradebook from the home page, the exam's item analysis from it and a clinic to start; log in as
a demo trainee and find the assignment due, the exam open and a certificate that verifies."""

import re

import pytest

from polotrainer import demo
from polotrainer.certificates.models import Certificate, Kind
from polotrainer.clinics.models import ClinicSession
from polotrainer.courses.exams.models import Exam
from polotrainer.courses.models import Assignment
from tests.browser.support import assert_accessible, assert_fits, shoot

pytestmark = pytest.mark.django_db(transaction=True)


def log_in(p, username: str) -> None:
    p.goto("/en/account/login/")
    p.fill("input[name=username]", username)
    p.fill("input[name=password]", demo.PASSWORD)
    p.locator("main form button[type=submit]").click()
    # An instructor lands on the home page, a trainee on their progress.
    p.wait_for_url(lambda url: "/account/login/" not in url)


def check(p, name: str) -> None:
    assert_accessible(p)
    assert_fits(p)
    shoot(p, name)


def test_the_demo_instructor_finds_the_gradebook_from_the_home_page(page, demo_site):
    log_in(page, "demo-instructor")
    # Signing in lands on the home page: cohorts, exams and clinics, then her own practice.
    assert page.url.endswith("/it/")
    assert page.locator("main h1").inner_text() == "I tuoi corsi e le tue clinic"
    exams = page.locator("article.exams-taught").inner_text()
    assert demo.EXAM_OPEN["it"] in exams and demo.EXAM_CLOSED["it"] in exams
    assert demo.CLINIC_TITLE in page.locator("article.clinics-running").inner_text()
    assert page.locator("section.own-practice").count() == 1
    cohorts = page.locator("article.teaching")
    assert "Demo: corso arbitri · Demo" in cohorts.inner_text()  # Giulia reads Italian
    assert re.search(r"\b4 allievi\b", cohorts.inner_text())
    check(page, "demo-instructor-home")
    cohorts.get_by_role("link", name="Registro").click()
    page.wait_for_url("**/gradebook/")
    table = page.locator("main table").inner_text()
    for account in demo.TRAINEES:
        assert account.name in table
    assert "Regola 37: Le punizioni" in table and "Regola 3: Sostituti" in table
    # Marco did the past assignment late; Luca missed it.
    assert "Completato in ritardo" in table and "Scaduto" in table
    check(page, "demo-instructor-gradebook")


def test_a_demo_trainee_finds_the_assignment_due_on_a_phone(phone, demo_site):
    log_in(phone, "demo-sophie")  # reads English
    phone.get_by_role("link", name="polotrainer").click()
    due = phone.locator("article.due-assignments")
    current = Assignment.objects.order_by("-due_at").first()
    assert current is not None
    assert "Rule 37: Penalties" in due.inner_text()
    assert f"0 of {current.questions} answered" in due.inner_text()
    reviews = phone.locator("article.due-reviews").inner_text()
    assert re.search(r"\d+ situations? (is|are) due for review now", reviews)
    check(phone, "demo-trainee-home")
    due.get_by_role("link", name="Rule 37: Penalties").click()
    phone.wait_for_url(f"**/courses/assignment/{current.pk}/")
    assert "Rule 37: Penalties" in phone.locator("main h1").inner_text()
    check(phone, "demo-trainee-assignment")


def test_the_demo_instructor_finds_the_exams_item_analysis_and_a_clinic(page, demo_site):
    log_in(page, "demo-instructor")
    page.get_by_role("link", name="polotrainer").click()
    page.locator("article.teaching").get_by_role("link", name="Registro").click()
    page.wait_for_url("**/gradebook/")
    exam = Exam.objects.get(title_en=demo.EXAM_CLOSED["en"])
    page.locator("main table").get_by_role("link", name=demo.EXAM_CLOSED["it"]).click()
    page.wait_for_url(f"**/courses/exam/{exam.pk}/results/")
    results = page.locator("main").inner_text()
    for account in demo.TRAINEES:
        assert account.name in results
    page.get_by_role("link", name="Analisi delle domande").click()
    page.wait_for_url(f"**/courses/exam/{exam.pk}/items/")
    assert page.locator("main table").count() >= 1
    check(page, "demo-instructor-items")
    # From the home page to the clinic waiting in the lobby, its PIN on the projector.
    page.get_by_role("link", name="polotrainer").click()
    page.locator("article.clinics-running").get_by_role("link", name="Le mie clinic").click()
    page.wait_for_url("**/clinics/")
    clinic = ClinicSession.objects.get()
    page.get_by_role("link", name=demo.CLINIC_TITLE).click()
    page.wait_for_url(f"**/clinics/{clinic.pk}/")
    assert clinic.pin in page.locator("p.pin").inner_text()
    shoot(page, "demo-instructor-projector")


def test_a_demo_trainee_finds_the_exam_open_and_her_certificate_that_verifies(page, demo_site):
    log_in(page, "demo-anna")  # reads Italian
    page.get_by_role("link", name="polotrainer").click()
    exams_open = page.locator("article.due-exams")
    assert "Esami aperti" in exams_open.inner_text()
    assert demo.EXAM_OPEN["it"] in exams_open.inner_text()
    check(page, "demo-anna-home")
    page.get_by_role("link", name="Certificati").click()
    page.wait_for_url("**/certificates/")
    certificate = Certificate.objects.get(user__username="demo-anna", kind=Kind.EXAM)
    listed = page.locator("ul.certificate-list").inner_text()
    assert demo.EXAM_CLOSED["en"] in listed or demo.EXAM_CLOSED["it"] in listed
    check(page, "demo-anna-certificates")
    page.get_by_role("link", name="Verifica un certificato").click()
    page.wait_for_url("**/certificates/verify/**")
    page.fill("#verify-code", certificate.code)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url("**code=**")
    assert page.locator(".verdict-word").inner_text().strip() == "Valido"
    assert "Anna Rossi" in page.locator("main").inner_text()
    check(page, "demo-anna-verified")
