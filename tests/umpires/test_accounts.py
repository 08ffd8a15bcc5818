"""Sign up, log in and out, profile, password change and reset, account deletion."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail

from polotrainer.umpires.models import Attempt, Profile, ScenarioProgress
from polotrainer.umpires.people import VISITOR_KEY
from tests.people import answer

pytestmark = pytest.mark.django_db
User = get_user_model()
STRONG = "a-long-unusual-passphrase-91"


def codes(response, field):
    return [e.code for e in response.context["form"].errors.as_data().get(field, [])]


def signup_data(**overrides):
    data = {
        "username": "dora",
        "email": "dora@example.org",
        "display_name": "Dora",
        "password1": STRONG,
        "password2": STRONG,
    }
    return data | overrides


def visit_as_visitor(client, scenario):
    """Answer as an anonymous visitor: the session holds a visitor id."""
    session = client.session
    session[VISITOR_KEY] = "visitor-123"
    session.save()
    return answer(None, scenario, visitor="visitor-123")


def test_signup_creates_the_account_logs_in_and_keeps_the_language(client):
    response = client.post("/en/account/signup/", signup_data())
    assert response.status_code == 302
    assert response["Location"] == "/en/start/"
    user = User.objects.get(username="dora")
    assert user.profile.language == "en"
    assert user.profile.display_name == "Dora"
    assert response.cookies["django_language"].value == "en"
    assert client.get("/en/me/").status_code == 200


def test_signup_carries_the_visitors_answers_into_the_account(client, rulebook):
    attempt = visit_as_visitor(client, rulebook["3b"])
    client.post("/it/account/signup/", signup_data())
    attempt.refresh_from_db()
    assert attempt.user.username == "dora"
    assert attempt.visitor == ""
    assert ScenarioProgress.objects.filter(user=attempt.user, scenario=rulebook["3b"]).exists()


def test_signup_with_a_taken_username_is_refused_and_nothing_changes(client, trainee):
    response = client.post("/en/account/signup/", signup_data(username="alice"))
    assert response.status_code == 200
    assert codes(response, "username") == ["unique"]
    assert User.objects.count() == 1


def test_signup_never_says_whether_an_email_address_is_registered(client, trainee):
    taken = client.post("/en/account/signup/", signup_data(email="ALICE@example.org"))
    client.post("/en/account/logout/")
    fresh = client.post(
        "/en/account/signup/", signup_data(username="erin", email="erin@example.org")
    )
    assert (taken.status_code, taken["Location"]) == (fresh.status_code, fresh["Location"])
    assert User.objects.filter(username="dora", email="ALICE@example.org").exists()


def test_the_owner_of_a_registered_address_is_told_by_mail_in_the_pages_language(client, trainee):
    client.post("/it/account/signup/", signup_data(email="alice@example.org"))
    (sent,) = mail.outbox
    assert sent.to == ["alice@example.org"]
    assert "dora" in sent.body and "alice" in sent.body
    assert "Qualcuno" in sent.body  # Italian, like the page


def test_a_new_address_gets_a_welcome_mail(client, db):
    client.post("/en/account/signup/", signup_data())
    (sent,) = mail.outbox
    assert sent.to == ["dora@example.org"]
    assert "dora" in sent.body and "already" not in sent.body


def test_without_mail_configured_signup_sends_nothing_and_still_works(client, db, settings):
    settings.MAIL_ENABLED = False
    response = client.post("/en/account/signup/", signup_data())
    assert response.status_code == 302
    assert mail.outbox == []


@pytest.mark.parametrize(
    ("password", "code"),
    [
        ("short1", "password_too_short"),
        ("password123", "password_too_common"),
        ("8472619305", "password_entirely_numeric"),
    ],
)
def test_signup_with_a_weak_password_is_refused(client, db, password, code):
    response = client.post(
        "/en/account/signup/", signup_data(password1=password, password2=password)
    )
    assert code in codes(response, "password2")
    assert not User.objects.exists()


def test_signup_errors_are_in_the_pages_language(client, trainee):
    response = client.post("/it/account/signup/", signup_data(username="alice"))
    assert 'lang="it"' in response.content.decode()
    assert "già presente" in response.content.decode()  # Django's own Italian catalog


def test_login_with_a_wrong_password_is_refused_without_saying_which_part_was_wrong(
    client, trainee
):
    response = client.post("/en/account/login/", {"username": "alice", "password": "wrong"})
    assert response.status_code == 200
    assert [e.code for e in response.context["form"].non_field_errors().as_data()] == [
        "invalid_login"
    ]
    assert "_auth_user_id" not in client.session


def test_login_carries_the_visitors_answers_and_goes_on_in_the_profile_language(
    client, trainee, password, rulebook
):
    Profile.objects.create(user=trainee, language="it")
    attempt = visit_as_visitor(client, rulebook["3a-one"])
    response = client.post("/en/account/login/", {"username": "alice", "password": password})
    assert response.status_code == 302
    assert response["Location"] == "/it/start/"
    assert response.cookies["django_language"].value == "it"
    attempt.refresh_from_db()
    assert attempt.user == trainee and attempt.visitor == ""


def test_login_follows_a_safe_next_and_ignores_an_offsite_one(client, trainee, password):
    ok = client.post(
        "/en/account/login/", {"username": "alice", "password": password, "next": "/en/review/"}
    )
    assert ok["Location"] == "/en/review/"
    client.post("/en/account/logout/")
    evil = client.post(
        "/en/account/login/",
        {"username": "alice", "password": password, "next": "https://evil.example/"},
    )
    assert evil["Location"] == "/en/start/"


def test_login_is_paused_after_five_wrong_passwords(client, trainee, password):
    for _ in range(5):
        client.post("/en/account/login/", {"username": "alice", "password": "wrong"})
    response = client.post("/en/account/login/", {"username": "alice", "password": password})
    assert response.status_code == 429
    assert "umpires/locked_out.html" in [t.name for t in response.templates]
    assert "_auth_user_id" not in client.session


def test_logout_takes_a_post_only(alice_client):
    assert alice_client.get("/en/account/logout/").status_code == 405
    assert alice_client.post("/en/account/logout/").status_code == 302
    assert "_auth_user_id" not in alice_client.session


def test_profile_saves_display_name_and_language(alice_client, trainee):
    response = alice_client.post("/en/account/", {"display_name": "Al", "language": "it"})
    assert response.status_code == 302
    assert response.cookies["django_language"].value == "it"
    trainee.profile.refresh_from_db()
    assert (trainee.profile.display_name, trainee.profile.language) == ("Al", "it")


def test_profile_rejects_an_unknown_language(alice_client, trainee):
    response = alice_client.post("/en/account/", {"display_name": "Al", "language": "de"})
    assert codes(response, "language") == ["invalid_choice"]


def test_password_change_needs_the_old_password(alice_client, trainee, password):
    response = alice_client.post(
        "/en/account/password/",
        {"old_password": "nope", "new_password1": STRONG, "new_password2": STRONG},
    )
    assert codes(response, "old_password") == ["password_incorrect"]
    trainee.refresh_from_db()
    assert trainee.check_password(password)


def test_password_change_keeps_the_umpire_logged_in(alice_client, trainee, password):
    response = alice_client.post(
        "/en/account/password/",
        {"old_password": password, "new_password1": STRONG, "new_password2": STRONG},
    )
    assert response.status_code == 302
    trainee.refresh_from_db()
    assert trainee.check_password(STRONG)
    assert alice_client.get("/en/me/").status_code == 200


def _reset_link(client, email, lang="en"):
    client.post(f"/{lang}/account/password/reset/", {"email": email})
    return re.search(r"https?://[^/]+(/\S+)", mail.outbox[-1].body).group(1)


def test_password_reset_mails_a_link_in_the_pages_language_that_sets_a_new_password(
    client, trainee
):
    link = _reset_link(client, "alice@example.org", "it")
    assert link.startswith("/it/account/password/reset/")
    form_page = client.get(link, follow=True)
    assert form_page.context["validlink"] is True
    response = client.post(
        form_page.redirect_chain[-1][0], {"new_password1": STRONG, "new_password2": STRONG}
    )
    assert response.status_code == 302
    trainee.refresh_from_db()
    assert trainee.check_password(STRONG)


@pytest.mark.parametrize("lang", ["it", "en"])
def test_without_mail_configured_password_reset_says_it_is_not_available(
    client, trainee, settings, lang
):
    settings.MAIL_ENABLED = False
    page = client.get(f"/{lang}/account/password/reset/")
    posted = client.post(f"/{lang}/account/password/reset/", {"email": "alice@example.org"})
    for response in (page, posted):
        assert response.status_code == 200
        assert response.context["step"] == "unavailable"
        assert "<form" not in response.content.decode().split("<main", 1)[1].split("</main>")[0]
    assert mail.outbox == []
    text = page.content.decode()
    assert ("non invia email" in text) if lang == "it" else ("does not send email" in text)
    assert "spam" not in text


def test_password_reset_for_an_unknown_address_says_the_same_and_sends_nothing(client, db):
    response = client.post("/en/account/password/reset/", {"email": "nobody@example.org"})
    assert response["Location"] == "/en/account/password/reset/sent/"
    assert mail.outbox == []


def test_an_invalid_or_used_reset_link_changes_nothing(client, trainee, password):
    response = client.get("/en/account/password/reset/MQ/not-a-token/")
    assert response.context["validlink"] is False
    assert "Ask for a new link" in response.content.decode()
    trainee.refresh_from_db()
    assert trainee.check_password(password)


def test_an_expired_reset_link_changes_nothing(client, trainee, password, settings):
    link = _reset_link(client, "alice@example.org")
    settings.PASSWORD_RESET_TIMEOUT = -1
    response = client.get(link, follow=True)
    assert response.context["validlink"] is False
    trainee.refresh_from_db()
    assert trainee.check_password(password)


def test_delete_account_with_a_wrong_password_deletes_nothing(alice_client, trainee, rulebook):
    answer(trainee, rulebook["3b"])
    response = alice_client.post("/en/account/delete/", {"password": "nope"})
    assert codes(response, "password") == ["wrong_password"]
    assert User.objects.filter(pk=trainee.pk).exists()
    assert Attempt.objects.filter(user=trainee).count() == 1


def test_delete_account_removes_the_user_and_all_their_data(
    alice_client, trainee, other_trainee, password, rulebook
):

    answer(trainee, rulebook["3b"])
    answer(other_trainee, rulebook["3b"])
    Profile.objects.create(user=trainee)
    response = alice_client.post("/en/account/delete/", {"password": password})
    assert response.status_code == 302
    assert not User.objects.filter(pk=trainee.pk).exists()
    assert not Attempt.objects.filter(user_id=trainee.pk).exists()
    assert not ScenarioProgress.objects.filter(user_id=trainee.pk).exists()
    assert not Profile.objects.filter(user_id=trainee.pk).exists()
    # Bob's data is untouched.
    assert Attempt.objects.filter(user=other_trainee).count() == 1
    assert ScenarioProgress.objects.filter(user=other_trainee).count() == 1


def test_delete_account_takes_a_post(alice_client, trainee):
    alice_client.get("/en/account/delete/")
    assert User.objects.filter(pk=trainee.pk).exists()


@pytest.mark.parametrize(
    "path",
    [
        "/en/me/",
        "/en/account/",
        "/en/me/history.csv",
        "/en/review/",
        "/en/account/delete/",
        "/en/account/password/",
    ],
)
def test_pages_of_an_account_send_a_visitor_to_log_in(client, db, path):
    response = client.get(path)
    assert response.status_code == 302
    assert response["Location"].startswith("/en/account/login/?next=")


@pytest.mark.parametrize("lang", ["it", "en"])
@pytest.mark.parametrize("path", ["account/login/", "account/signup/", "account/password/reset/"])
def test_account_pages_render_in_both_languages(client, db, lang, path):
    response = client.get(f"/{lang}/{path}")
    assert response.status_code == 200
    assert f'lang="{lang}"' in response.content.decode()


def test_an_overlong_username_at_log_in_is_a_form_error_not_a_database_error(client, db):
    response = client.post("/en/account/login/", {"username": "u" * 300, "password": "x"})
    assert response.status_code == 200
    assert codes(response, "username") == ["max_length"]
