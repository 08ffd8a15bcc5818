"""A logged-in umpire reads every page in the language of their profile."""

import pytest

from polotrainer.umpires.models import Profile

pytestmark = pytest.mark.django_db


@pytest.fixture
def italian_alice(alice_client, trainee):
    Profile.objects.create(user=trainee, language="it")
    return alice_client


def test_a_page_in_the_other_language_redirects_to_the_profiles(italian_alice):
    response = italian_alice.get("/en/me/?page=2")
    assert response.status_code == 302
    assert response["Location"] == "/it/me/?page=2"


def test_a_page_in_the_profiles_language_is_served(italian_alice):
    assert italian_alice.get("/it/me/").status_code == 200


def test_a_post_is_never_redirected(italian_alice):
    response = italian_alice.post("/en/account/", {"display_name": "A", "language": "it"})
    assert response.status_code == 302
    assert response["Location"] == "/it/account/"


def test_the_switcher_changes_the_profile_and_the_pages_follow(italian_alice, trainee):
    italian_alice.post("/i18n/setlang/", {"language": "en", "next": "/it/me/"})
    assert Profile.objects.get(user=trainee).language == "en"
    assert italian_alice.get("/en/me/").status_code == 200
    assert italian_alice.get("/it/me/")["Location"] == "/en/me/"


def test_visitors_read_whichever_language_they_ask_for(client, db):
    assert client.get("/en/").status_code == 200
    assert client.get("/it/").status_code == 200


def test_an_unknown_page_is_a_404_not_a_redirect(italian_alice):
    assert italian_alice.get("/en/no-such-page/").status_code == 404
