"""Invitations end to end in Chromium: an instructor invites two addresses, one person signs up
from the mail's link and joins; the cohort's list shows who joined. Then every new page of mail
and calendars, both languages, phone and desktop: axe, width, a screenshot."""

import re

import pytest
from django.core import mail
from django.test import Client

from polotrainer.courses import codes
from polotrainer.courses.models import Cohort, Course, Membership
from polotrainer.notify import unsubscribe
from polotrainer.notify.models import Invitation, InvitationStatus, Kind
from polotrainer.umpires import roles
from tests.browser.support import assert_accessible, assert_fits, shoot
from tests.browser.test_courses import PASSWORD, _person

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def cohort(transactional_db, settings):
    settings.MAIL_ENABLED = True
    ines = _person("ines", "Ines Ferri", instructor=True, lang="it")
    course = Course.objects.create(
        title_it="Corso arbitri", title_en="Umpire course", track="outdoor", year=2026
    )
    course.instructors.add(ines)
    cohort = Cohort(course=course, name="Primavera")
    codes.give_new_code(cohort)
    return cohort


def _log_in(page, username, lang):
    page.goto(f"/{lang}/account/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(lambda url: "/account/login/" not in url)


def test_two_invited_one_signs_up_from_the_mail_and_joins(browser, live_server, cohort):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, base_url=live_server.url)
    page = context.new_page()
    _log_in(page, "ines", "it")
    page.goto(f"/it/courses/cohort/{cohort.pk}/")
    page.get_by_role("link", name="Invita per e-mail").click()
    page.fill("textarea[name=addresses]", "Anna Rossi, anna@example.org\nsophie@example.org, en")
    # The mail goes out while the POST is answered: its answer is enough to wait for (not
    # network idle, which once ran past 30 s in another test on a loaded machine).
    with page.expect_response(lambda r: r.request.method == "POST"):
        page.locator("main form button[type=submit]").click()
    assert sorted(m.to[0] for m in mail.outbox) == ["anna@example.org", "sophie@example.org"]
    sophie_mail = next(m for m in mail.outbox if m.to == ["sophie@example.org"])
    link = re.search(r"https?://\S+/en/invitations/\S+/", sophie_mail.body).group(0)
    assert sophie_mail.subject.startswith("Invitation")
    context.close()

    visitor = browser.new_context(viewport={"width": 360, "height": 780}, base_url=live_server.url)
    phone = visitor.new_page()
    phone.goto(link)
    shoot(phone, "notify-invitation-signed-out-en-360")
    phone.locator("article.join-invite").get_by_role("button", name="Sign up").click()
    phone.fill("input[name=username]", "sophie")
    phone.fill("input[name=email]", "sophie@example.org")
    phone.fill("input[name=password1]", PASSWORD)
    phone.fill("input[name=password2]", PASSWORD)
    phone.get_by_role("button", name="Create my account").click()
    phone.wait_for_url(lambda url: "/invitations/" in url)
    phone.get_by_role("button", name="Join the cohort").click()
    phone.wait_for_url(lambda url: "/courses/" in url and "/invitations/" not in url)
    assert Membership.objects.filter(cohort=cohort, user__username="sophie").exists()
    visitor.close()

    statuses = dict(Invitation.objects.values_list("email", "status"))
    assert statuses == {
        "anna@example.org": InvitationStatus.INVITED,
        "sophie@example.org": InvitationStatus.JOINED,
    }
    context = browser.new_context(viewport={"width": 1280, "height": 900}, base_url=live_server.url)
    page = context.new_page()
    _log_in(page, "ines", "en")
    page.goto(f"/en/courses/cohort/{cohort.pk}/invitations/")
    rows = page.locator("tbody tr")
    assert "Joined" in rows.filter(has_text="sophie@example.org").inner_text()
    assert "Invited" in rows.filter(has_text="anna@example.org").inner_text()
    context.close()


def _as(browser, live_server, width, user):
    context = browser.new_context(
        viewport={"width": width, "height": 900}, base_url=live_server.url, is_mobile=width < 500
    )
    if user is not None:
        client = Client()
        client.force_login(user)
        cookie = client.cookies["sessionid"].value
        context.add_cookies([{"name": "sessionid", "value": cookie, "url": live_server.url}])
    return context


@pytest.mark.parametrize("lang", ["en", "it"])
@pytest.mark.parametrize("width", [360, 1280])
def test_every_new_page_reads_well(browser, live_server, cohort, lang, width):
    ines = cohort.course.instructors.get()
    sam = _person("sam", "Sam Staff", staff=True)
    tom = _person("tom", "Tom Trainee")
    Membership.objects.create(cohort=cohort, user=tom)
    Client().force_login(ines)
    client = Client()
    client.force_login(ines)
    client.post(
        f"/en/courses/cohort/{cohort.pk}/invitations/",
        {"addresses": "anna@example.org\nbad line\n", "language": "it"},
    )
    client.force_login(tom)
    client.post("/en/calendar/new/")
    token = Invitation.objects.get().token
    stop = unsubscribe.token(tom, Kind.DIGEST)
    pages = [
        (ines, "invitations", f"/courses/cohort/{cohort.pk}/invitations/"),
        (None, "invitation", f"/invitations/{token}/"),
        (tom, "calendar", "/calendar/"),
        (None, "stop", f"/mail/stop/{stop}/"),
        (sam, "issuer", "/certificates/staff/issuer/"),
    ]
    assert roles.is_instructor(ines)
    for user, name, path in pages:
        context = _as(browser, live_server, width, user)
        page = context.new_page()
        page.goto(f"/{lang}{path}")  # the load event: these pages load nothing later
        assert_accessible(page)
        assert_fits(page)
        shoot(page, f"notify-{name}-{lang}-{width}")
        context.close()
