"""Invitations: a pasted list, one invitation per address, each in its language with its
join link; malformed lines reported by number; the enrolment limit; resend and withdraw;
joining from the link, with an account or signing up on the way."""

import smtplib

import pytest
from django.core import mail

from polotrainer.courses.models import Membership
from polotrainer.notify import invitations
from polotrainer.notify.models import Invitation, InvitationStatus
from tests.people import person

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def mail_on(settings):
    settings.MAIL_ENABLED = True
    settings.DEFAULT_FROM_EMAIL = "Polo Club <trainer@example.org>"


def test_parse_reads_addresses_and_csv_and_reports_the_rest():
    text = (
        "name,email\n"
        "anna@example.org\n"
        "Marco Bianchi, Marco@Example.org\n"
        "sophie@example.org, Sophie Turner, en\n"
        "\n"
        "not an address\n"
        "two@example.org three@example.org\n"
        "anna@example.org\n"
    )
    lines, problems = invitations.parse(text)
    assert [(line.email, line.name, line.language) for line in lines] == [
        ("anna@example.org", "", ""),
        ("marco@example.org", "Marco Bianchi", ""),
        ("sophie@example.org", "Sophie Turner", "en"),
    ]
    assert [(p.number, p.code) for p in problems] == [(6, "malformed"), (7, "malformed")]


def _invite(client, cohort, text, language="it"):
    return client.post(
        f"/en/courses/cohort/{cohort.pk}/invitations/", {"addresses": text, "language": language}
    )


def test_each_address_gets_one_mail_in_its_language_with_its_link(world, as_user):
    client = as_user(world.instructor_a)
    response = _invite(
        client, world.cohort_a, "anna@example.org\nSophie, sophie@example.org, en\nnope\n"
    )
    assert response.status_code == 200  # the malformed line is shown, the rest invited
    body = response.content.decode()
    assert "Line 3" in body and "nope" in body
    assert sorted(m.to[0] for m in mail.outbox) == ["anna@example.org", "sophie@example.org"]
    by = {m.to[0]: m for m in mail.outbox}
    anna, sophie = by["anna@example.org"], by["sophie@example.org"]
    assert anna.subject.startswith("Invito") and sophie.subject.startswith("Invitation")
    assert anna.from_email == "Polo Club <trainer@example.org>"
    token = Invitation.objects.get(email="anna@example.org").token
    assert f"/it/invitations/{token}/" in anna.body
    html = anna.alternatives[0]
    assert html.mimetype == "text/html" and f"/it/invitations/{token}/" in html.content
    # The same address again is the same invitation, sent again.
    _invite(client, world.cohort_a, "ANNA@example.org")
    assert Invitation.objects.filter(email="anna@example.org").count() == 1
    assert len(mail.outbox) == 3
    assert Invitation.objects.get(email="anna@example.org").sends == 2


def test_a_refusing_mail_server_marks_the_invitation_failed(world, as_user, monkeypatch):
    def refuse(self, *args, **kwargs):
        raise smtplib.SMTPRecipientsRefused({"x@example.org": (550, b"5.1.1 No such user")})

    monkeypatch.setattr("django.core.mail.EmailMessage.send", refuse)
    _invite(as_user(world.instructor_a), world.cohort_a, "x@example.org")
    invitation = Invitation.objects.get()
    assert invitation.status == InvitationStatus.FAILED
    assert "No such user" in invitation.error
    page = as_user(world.instructor_a).get(f"/en/courses/cohort/{world.cohort_a.pk}/invitations/")
    assert "Not delivered" in page.content.decode() and "No such user" in page.content.decode()


def test_over_the_limit_is_refused_by_line_and_nothing_sent(world, as_user):
    world.cohort_a.max_trainees = 2  # Alice is in already: one place left
    world.cohort_a.save(update_fields=["max_trainees"])
    response = _invite(
        as_user(world.instructor_a), world.cohort_a, "one@example.org\ntwo@example.org"
    )
    assert [m.to for m in mail.outbox] == [["one@example.org"]]
    assert "Line 2" in response.content.decode() and "no place left" in response.content.decode()
    assert not Invitation.objects.filter(email="two@example.org").exists()


def test_only_the_cohorts_instructors_invite(world, as_user):
    response = _invite(as_user(world.instructor_b), world.cohort_a, "x@example.org")
    assert response.status_code == 404
    assert _invite(as_user(world.trainee_a), world.cohort_a, "x@example.org").status_code == 403
    assert not Invitation.objects.exists() and mail.outbox == []


def test_an_account_joins_on_one_click_and_the_cohort_shows_it(world, as_user):
    _invite(as_user(world.instructor_a), world.cohort_a, "carla@example.org")
    carla = person("carla")
    invitation = Invitation.objects.get()
    client = as_user(carla)
    assert client.get(f"/en/invitations/{invitation.token}/").status_code == 200
    assert client.post(f"/en/invitations/{invitation.token}/").status_code == 302
    assert Membership.objects.filter(cohort=world.cohort_a, user=carla).exists()
    invitation.refresh_from_db()
    assert invitation.status == InvitationStatus.JOINED and invitation.joined_by == carla
    # The link is spent: another account cannot join with it.
    other = as_user(person("dino"))
    assert other.post(f"/en/invitations/{invitation.token}/").status_code == 400
    assert not Membership.objects.filter(cohort=world.cohort_a, user__username="dino").exists()


def test_signed_out_the_link_leads_to_sign_up_and_back(world, as_user):
    _invite(as_user(world.instructor_a), world.cohort_a, "new@example.org")
    token = Invitation.objects.get().token
    page = as_user(None).get(f"/en/invitations/{token}/").content.decode()
    assert f"/en/account/signup/?next=%2Fen%2Finvitations%2F{token}%2F" in page
    # The invitation tells what instructors will see as the join page does, whole.
    assert "The observations they record when they watch you umpire a game" in page
    assert "you can leave the cohort at any time" in page
    response = as_user(None).post(f"/en/invitations/{token}/")
    assert response.status_code == 302 and "/account/login/" in response["Location"]


def test_a_withdrawn_invitation_no_longer_joins(world, as_user):
    client = as_user(world.instructor_a)
    _invite(client, world.cohort_a, "late@example.org")
    invitation = Invitation.objects.get()
    client.post(f"/en/invitations/{invitation.pk}/withdraw/")
    invitation.refresh_from_db()
    assert invitation.status == InvitationStatus.WITHDRAWN
    late = as_user(person("late"))
    response = late.post(f"/en/invitations/{invitation.token}/")
    assert response.status_code == 410 and b"withdrawn" in response.content
    assert not Membership.objects.filter(user__username="late").exists()
    # Sent again, it works again.
    client = as_user(world.instructor_a)
    client.post(f"/en/invitations/{invitation.pk}/resend/")
    invitation.refresh_from_db()
    assert invitation.status == InvitationStatus.INVITED and len(mail.outbox) == 2


def test_without_mail_the_page_says_links_are_to_share(world, as_user, settings):
    settings.MAIL_ENABLED = False
    client = as_user(world.instructor_a)
    response = _invite(client, world.cohort_a, "anna@example.org")
    assert mail.outbox == []
    page = client.get(f"/en/courses/cohort/{world.cohort_a.pk}/invitations/").content.decode()
    assert "This site sends no mail" in page
    assert f"/en/invitations/{Invitation.objects.get().token}/" in page
    assert response.status_code == 302


def test_an_unknown_invitation_link_is_a_clear_404(client, db):
    response = client.get("/en/invitations/nothing-here/")
    assert response.status_code == 404 and b"No invitation has this address" in response.content
