"""The guessing limits as a phone meets them: the refusal of a typed PIN or join code when the
room's address is paused, in both languages, and the projector's QR link that still joins."""

import re

import pytest
from playwright.sync_api import expect

from polotrainer.clinics import sessions
from polotrainer.clinics.models import Participant
from polotrainer.throttle import passes, rates
from scenarios.models import Scenario
from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.support import assert_accessible, assert_fits, shoot
from tests.people import PASSWORD, make_cohort, make_course, person

pytestmark = pytest.mark.django_db(transaction=True)
ADDRESS = "127.0.0.1"  # the live server sees every browser here: one room behind one router
REFUSED = {
    "en": ("Too many wrong PINs", "Too many wrong codes"),
    "it": ("Troppi PIN sbagliati", "Troppi codici sbagliati"),
}


def _check(p, name):
    assert_accessible(p)
    assert_fits(p)
    shoot(p, name)


def _type(p, path, field, value, button):
    """Open the page, type the value into the field and send it, as a person would."""
    p.goto(path)
    p.fill(f"input[name={field}]", value)
    p.locator(button).click()


@pytest.fixture
def ines():
    return person("ines", instructor=True)


@pytest.mark.parametrize("lang", ["en", "it"])
def test_a_paused_room_is_told_to_scan_the_qr_code_which_still_joins(
    content, ines, phone, page, lang
):
    clinic = sessions.create(
        ines, "Clinic", sessions.Source("scenarios", scenarios=[Scenario.objects.first()]), rounds=1
    )
    for _ in range(sessions.GUESS_LIMIT):
        rates.record(sessions.GUESS_BUCKET, ADDRESS, sessions.GUESS_WINDOW)
    for p, size in ((phone, "phone"), (page, "desktop")):
        _type(p, f"/{lang}/play/", "pin", clinic.pin, "form.pin-entry button")
        expect(p.locator("#pin-error")).to_contain_text(REFUSED[lang][0])
        _check(p, f"limits-pin-refused-{lang}-{size}")
    phone.goto(f"/{lang}/play/{clinic.pin}/?{passes.PARAMETER}={sessions.join_pass(clinic)}")
    phone.fill("input[name=nickname]", "Anna")
    phone.locator("main form button[type=submit]").click()
    phone.wait_for_url(re.compile(rf"/{lang}/play/{clinic.pin}/$"))
    expect(phone.locator("main")).to_contain_text("Anna")
    # The join form's htmx put the phone's page in place: a reload shows it, posting nothing.
    phone.reload()
    expect(phone.locator("#live")).to_contain_text("Anna")
    assert Participant.objects.filter(session=clinic).count() == 1
    _check(phone, f"limits-pin-qr-joined-{lang}-phone")


@pytest.mark.parametrize("lang", ["en", "it"])
def test_a_paused_room_typing_a_join_code_is_told_to_use_the_link(ines, phone, page, lang):
    cohort = make_cohort(make_course(ines, "Spring course"))
    # Under the limit a wrong code says so in the form (htmx swaps the 400 in)...
    _type(phone, f"/{lang}/courses/join/", "code", "AAAAAA", "#join-form button")
    expect(phone.locator("#join-form .errorlist, #join-form [role=alert]").first).to_be_visible()
    # ...and over it, the right code typed is refused like any other.
    for _ in range(30):
        rates.record("join-code-guess", ADDRESS, rates.HOUR)
    for p, size in ((phone, "phone"), (page, "desktop")):
        _type(p, f"/{lang}/courses/join/", "code", cohort.join_code, "#join-form button")
        expect(p.locator("#join-form .form-error")).to_contain_text(REFUSED[lang][1])
        _check(p, f"limits-code-refused-{lang}-{size}")


def test_the_projector_and_the_cohort_page_show_the_qr_link_with_its_pass(
    content, ines, browser, live_server
):
    clinic = sessions.create(
        ines, "Clinic", sessions.Source("scenarios", scenarios=[Scenario.objects.first()]), rounds=1
    )
    cohort = make_cohort(make_course(ines, "Spring course"))
    for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        context = browser.new_context(viewport=viewport, base_url=live_server.url)
        p = context.new_page()
        p.goto("/en/account/login/")
        p.fill("input[name=username]", "ines")
        p.fill("input[name=password]", PASSWORD)
        p.locator("main form button[type=submit]").click()
        p.goto(f"/en/courses/cohort/{cohort.pk}/")
        link = p.locator("#join-panel a.join-link")
        shared = re.compile(rf"/courses/join/{cohort.join_code}/\?k=[\w-]+$")
        expect(link).to_have_attribute("href", shared)
        _check(p, f"limits-cohort-link-{size}")
        if size == "desktop":
            p.goto(f"/en/clinics/{clinic.pk}/")
            expect(p.locator(".join-address")).not_to_contain_text("?k=")
            shoot(p, "limits-projector-desktop")
        context.close()


@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_log_in_pause_page_on_a_phone(phone, lang, settings):
    person("alice")
    for _ in range(settings.AXES_FAILURE_LIMIT + 1):
        phone.goto(f"/{lang}/account/login/")
        phone.fill("input[name=username]", "alice")
        phone.fill("input[name=password]", "wrong-password")
        phone.locator("main form button[type=submit]").click()
    expect(phone.locator("main")).to_contain_text(
        "Too many wrong passwords" if lang == "en" else "Troppe password sbagliate"
    )
    _check(phone, f"limits-login-paused-{lang}-phone")


@pytest.mark.parametrize("lang", ["en", "it"])
def test_a_look_alike_nickname_is_refused_on_the_phone(content, ines, phone, lang):
    clinic = sessions.create(
        ines, "Clinic", sessions.Source("scenarios", scenarios=[Scenario.objects.first()]), rounds=1
    )
    Participant.objects.create(session=clinic, nickname="Anna", nickname_key="anna", secret="s")
    _type(phone, f"/{lang}/play/{clinic.pin}/", "nickname", "\u0410nna", "main form button")
    expect(phone.locator("#nickname-error")).to_contain_text(
        "looks the same" if lang == "en" else "sembra uguale"
    )
    _check(phone, f"limits-nickname-look-alike-{lang}-phone")
    assert Participant.objects.count() == 1
