"""An instructor writes a situation in Italian at desktop width, checks and publishes it; her
trainee practises it on a 360 px phone. And every authoring page, in both languages, at both
widths: axe-core, nothing sideways, a screenshot."""

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from polotrainer.authoring.models import Situation, Version
from polotrainer.umpires.models import Attempt
from scenarios.diagram import field_of
from scenarios.spots import FieldSpot
from scenarios.variants import make_variant
from tests.authoring.conftest import (  # noqa: F401 - fixtures (_media: uploads to a tmp folder)
    _media,
    authoring,
    good_entry,
    picture,
    rulebook,
)
from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.support import assert_accessible, assert_fits, shoot

pytestmark = pytest.mark.django_db(transaction=True)


def signed_in(browser, live_server, user, viewport, phone=False):
    client = Client()
    client.force_login(user)
    context = browser.new_context(
        viewport=viewport, base_url=live_server.url, is_mobile=phone, has_touch=phone
    )
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    return context


def test_an_instructor_writes_in_italian_and_her_trainee_practises_on_a_phone(
    browser,
    live_server,
    authoring,  # noqa: F811 - the fixture imported above
):
    w = authoring
    desk = signed_in(browser, live_server, w.instructor_a, DESKTOP)
    p = desk.new_page()
    p.goto(f"/it/courses/{w.course_a.pk}/situations/")
    p.select_option("#new-section", "37.6")
    p.select_option("#new-kind", "penalty_spot")
    with p.expect_navigation():
        p.get_by_role("button", name="Inizia a scrivere").click()
    situation = Situation.objects.get()
    fill = p.fill
    fill("[name=title_it]", "La Safety di domenica")
    fill("[name=title_en]", "Sunday's Safety")
    fill(
        "[name=situation_it]",
        "Sei l'Arbitro. Blu #2 colpisce la palla oltre la propria linea di fondo, "
        "{crossing_abs|yarda|yarde} a {side} del centro della porta. Fischi un Safety "
        "(Punizione 6). Sinistra e destra sono viste da dietro la porta della Blu, guardando "
        "verso il campo.",
    )
    fill(
        "[name=situation_en]",
        "You are the umpire. Blue #2 hits the ball across his own end line "
        "{crossing_abs|yard|yards} to the {side} of the centre of the goal. You call a Safety "
        "(Penalty 6). Left and right are as seen from behind Blue's goal, looking up the field.",
    )
    p.select_option("[name='fact:penalty']", "6")
    fill("[name='fact:field.width']", "160")
    fill("[name='vary:crossing_y']", "crossing_y")
    fill("[name=p0-name]", "crossing_abs")
    p.select_option("[name=p0-type]", "int")
    fill("[name=p0-label_it]", "distanza dal centro della porta (yarde)")
    fill("[name=p0-label_en]", "distance from the centre of the goal (yards)")
    fill("[name=p0-min]", "10")
    fill("[name=p0-max]", "70")
    fill("[name=p0-step]", "5")
    fill("[name=p0-default]", "60")
    fill("[name=p1-name]", "side")
    p.select_option("[name=p1-type]", "choice")
    fill("[name=p1-label_it]", "lato")
    fill("[name=p1-label_en]", "side")
    fill("[name=p1-default]", "left")
    fill("[name=p1-values]", "left | sinistra | left\nright | destra | right")
    fill("[name=derived]", "crossing_y = crossing_abs if side == 'left' else -crossing_abs")
    fill("[name=q0-id]", "spot")
    p.select_option("[name=q0-ask]", "spot")
    fill("[name=q0-prompt_it]", "Dove metti la palla?")
    fill("[name=q0-prompt_en]", "Where do you place the ball?")
    fill("[name=q0-tolerance]", "2")
    # A photo of the real incident, with what it shows in both languages.
    p.set_input_files(
        "[name=photo]",
        files=[{"name": "domenica.jpg", "mimeType": "image/jpeg", "buffer": picture()}],
    )
    fill("[name=photo_alt_it]", "Il punto della linea di fondo dove è uscita la palla")
    fill("[name=photo_alt_en]", "Where the ball crossed the end line")
    with p.expect_navigation():
        p.get_by_role("button", name="Controlla").click()
    figure = p.locator("#photo-part figure img")
    assert figure.get_attribute("alt") == "Il punto della linea di fondo dove è uscita la palla"
    assert p.evaluate("(img) => img.complete && img.naturalWidth > 0", figure.element_handle())
    report = p.locator("#check-report")
    assert "Ogni controllo passa su 40 varianti" in report.inner_text()
    assert_accessible(p)
    assert_fits(p)
    shoot(p, "authoring-checked-it-desktop")
    with p.expect_navigation():
        p.get_by_role("button", name="Pubblica per i miei gruppi").click()
    assert "Pubblicata (versione 1)" in p.locator("main").inner_text()
    desk.close()
    version = Version.objects.get(situation=situation)
    scenario = version.scenario
    assert scenario.title_it == "La Safety di domenica"

    phone = signed_in(browser, live_server, w.trainee_a, PHONE, phone=True)
    t = phone.new_page()
    t.goto(f"/it/practice/{scenario.slug}/7/")
    assert t.locator("h1").inner_text() == "La Safety di domenica"
    variant = make_variant(scenario.slug, scenario.data, 7)
    spot = FieldSpot.from_engine(variant.ruling["spot"], field_of(variant.facts))
    along, across = spot.form_values()
    t.fill("[name=q-spot-along]", along)
    t.fill("[name=q-spot-across]", across)
    t.locator("#quiz button[type=submit]").click()
    t.locator("#feedback-heading").wait_for()
    assert "Esatto!" in t.locator("#feedback-heading").inner_text()
    photo = t.locator("figure.incident-photo img")
    photo.scroll_into_view_if_needed()
    t.wait_for_function("(img) => img.complete && img.naturalWidth > 0", arg=photo.element_handle())
    assert photo.get_attribute("alt") == "Il punto della linea di fondo dove è uscita la palla"
    assert_accessible(t)
    assert_fits(t)
    shoot(t, "authoring-practised-it-phone")
    phone.close()
    assert Attempt.objects.get(user=w.trainee_a, scenario=scenario).correct


@pytest.mark.parametrize("lang", ["it", "en"])
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_every_authoring_page_reads_and_fits(browser, live_server, authoring, lang, size):  # noqa: F811
    w = authoring
    failing = good_entry()
    failing["situation"]["en"] += " {vento}"
    situation = Situation.objects.create(course=w.course_a, entry=good_entry())
    broken = Situation.objects.create(course=w.course_a, entry=failing)
    context = signed_in(
        browser, live_server, w.instructor_a, PHONE if size == "phone" else DESKTOP, size == "phone"
    )
    p = context.new_page()
    with translation.override(lang):
        pages = {
            "list": reverse("authoring:situations", args=[w.course_a.pk]),
            "edit": reverse("authoring:edit", args=[situation.pk]),
            "preview": reverse("authoring:preview", args=[situation.pk]),
            "failed": reverse("authoring:edit", args=[broken.pk]),
        }
    for name, url in pages.items():
        p.goto(url)
        if name == "failed":
            with p.expect_navigation():
                p.locator("button[value=check]").click()
            assert p.locator("#situation_en-errors").count() == 1
        assert_accessible(p)
        assert_fits(p)
        shoot(p, f"authoring-{name}-{lang}-{size}")
    context.close()


@pytest.mark.parametrize("lang", ["it", "en"])
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_staff_promote_a_situation_from_pages_that_read_and_fit(
    browser,
    live_server,
    authoring,  # noqa: F811 - the fixture imported above
    lang,
    size,
):
    from polotrainer.authoring import publishing

    w = authoring
    version = publishing.publish(
        Situation.objects.create(course=w.course_a, entry=good_entry()), w.instructor_a
    )
    context = signed_in(
        browser, live_server, w.staff, PHONE if size == "phone" else DESKTOP, size == "phone"
    )
    p = context.new_page()
    with translation.override(lang):
        every = reverse("authoring:every")
        promote = reverse("authoring:promote", args=[version.situation_id])
    p.goto(every)
    assert_accessible(p)
    assert_fits(p)
    shoot(p, f"authoring-every-{lang}-{size}")
    with p.expect_navigation():
        p.locator(f'a[href="{promote}"]').click()
    assert_accessible(p)
    assert_fits(p)
    shoot(p, f"authoring-promote-{lang}-{size}")
    with p.expect_navigation():
        p.locator("main button[type=submit]").click()
    assert p.url.endswith(every)
    said = {"en": "is site content now", "it": "ora è contenuto del sito"}[lang]
    assert said in p.locator("main").inner_text()
    assert p.locator(f'a[href="{promote}"]').count() == 0  # promoted: nothing more to promote
    version.scenario.refresh_from_db()
    assert version.scenario.promoted
    context.close()
