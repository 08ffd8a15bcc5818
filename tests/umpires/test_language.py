"""The language in the URL wins; the profile's language is where an umpire lands at log-in."""

import pytest
from django.test import override_settings

from polotrainer.umpires.models import Profile

pytestmark = pytest.mark.django_db


@pytest.fixture
def italian_alice(alice_client, trainee):
    Profile.objects.create(user=trainee, language="it")
    return alice_client


def test_a_page_in_the_other_language_is_served_in_the_language_of_its_url(italian_alice):
    response = italian_alice.get("/en/me/?page=2")
    assert response.status_code == 200
    assert response["Content-Language"] == "en"


def test_log_in_lands_in_the_profiles_language(client, trainee, password):
    Profile.objects.create(user=trainee, language="it")
    response = client.post("/en/account/login/", {"username": "alice", "password": password})
    assert response["Location"] == "/it/start/"
    assert response.cookies["django_language"].value == "it"


def test_saving_the_profile_goes_on_in_its_language(italian_alice):
    response = italian_alice.post("/en/account/", {"display_name": "A", "language": "it"})
    assert response.status_code == 302
    assert response["Location"] == "/it/account/"
    assert response.cookies["django_language"].value == "it"


def test_the_switcher_changes_the_profile(italian_alice, trainee):
    response = italian_alice.post("/i18n/setlang/", {"language": "en", "next": "/it/me/"})
    assert response["Location"] == "/en/me/"
    assert Profile.objects.get(user=trainee).language == "en"


@override_settings(
    SESSION_COOKIE_SECURE=True, LANGUAGE_COOKIE_SECURE=True, LANGUAGE_COOKIE_SAMESITE="Lax"
)
def test_every_language_cookie_carries_the_same_flags(client, trainee, password):
    Profile.objects.create(user=trainee, language="en")
    cookies = [
        client.post("/i18n/setlang/", {"language": "en", "next": "/it/"}).cookies,
        client.post("/en/account/login/", {"username": "alice", "password": password}).cookies,
        client.post("/en/account/", {"display_name": "A", "language": "en"}).cookies,
    ]
    for jar in cookies:
        cookie = jar["django_language"]
        assert cookie["secure"] and cookie["httponly"] and cookie["samesite"] == "Lax"


def test_visitors_read_whichever_language_they_ask_for(client, db):
    assert client.get("/en/").status_code == 200
    assert client.get("/it/").status_code == 200


def test_an_unknown_page_is_a_404_not_a_redirect(italian_alice):
    assert italian_alice.get("/en/no-such-page/").status_code == 404
