"""Languages, the home page, health and error pages."""

import pytest
from django.db import DatabaseError

pytestmark = pytest.mark.django_db


def test_root_sends_a_first_visitor_to_the_language_their_browser_prefers(client):
    response = client.get("/", headers={"accept-language": "en-GB,en;q=0.9"})
    assert response.status_code == 302
    assert response["Location"] == "/en/"


def test_root_prefers_italian_when_the_browser_prefers_neither(client):
    response = client.get("/", headers={"accept-language": "de-DE,fr;q=0.8"})
    assert response.status_code == 302
    assert response["Location"] == "/it/"


def test_home_says_what_the_app_is_in_each_language(client):
    italian = client.get("/it/").content.decode()
    english = client.get("/en/").content.decode()
    assert 'lang="it"' in italian and "Arbitro" in italian
    assert 'lang="en"' in english and "rules engine" in english
    assert "rules engine" not in italian


@pytest.mark.parametrize(
    ("lang", "working"),
    [
        ("en", "Join a course"),
        ("it", "Iscriviti a un corso"),
    ],
)
def test_home_promises_only_what_works(client, lang, working):
    html = client.get(f"/{lang}/").content.decode()
    # Courses work, so the home page offers them and no longer says they are coming.
    assert working in html
    for promise in (
        "are not available yet",
        "non sono ancora disponibili",
        "each on their own phone",
    ):
        assert promise not in html
    # More in tests/site/test_home.py.


def test_every_page_has_landmarks_and_a_skip_link(client):
    html = client.get("/en/").content.decode()
    assert 'href="#main"' in html
    assert '<main id="main"' in html
    assert "<nav" in html and "<footer" in html


def test_switcher_keeps_the_page_and_remembers_the_choice(client):
    response = client.post("/i18n/setlang/", {"language": "en", "next": "/it/glossary/"})
    assert response.status_code == 302
    assert response["Location"] == "/en/glossary/"
    assert response.cookies["django_language"].value == "en"
    # The remembered choice now wins at the root, whatever the browser says.
    again = client.get("/", headers={"accept-language": "it"})
    assert again["Location"] == "/en/"


def test_switcher_is_on_the_page_pointing_at_the_other_language(client):
    html = client.get("/it/").content.decode()
    assert 'name="language" value="en"' in html
    assert 'name="next" value="/it/"' in html


@pytest.mark.parametrize(
    ("path", "text"),
    [("/it/nessuna-pagina/", "Pagina non trovata"), ("/en/no-such-page/", "Page not found")],
)
def test_unknown_page_gets_a_translated_404(client, path, text):
    response = client.get(path)
    assert response.status_code == 404
    assert text in response.content.decode()


def test_unknown_language_prefix_is_a_404(client):
    response = client.get("/de/", headers={"accept-language": "en"})
    assert response.status_code == 404
    assert "Page not found" in response.content.decode()


def test_healthz_answers_when_the_database_answers(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.content == b"ok\n"


def test_healthz_fails_when_the_database_does_not(client, monkeypatch):
    from django.db.backends.utils import CursorWrapper

    def broken(self, sql, params=None):
        raise DatabaseError("down")

    monkeypatch.setattr(CursorWrapper, "execute", broken)
    response = client.get("/healthz")
    assert response.status_code == 503


def test_server_error_page_is_translated_and_needs_no_database(rf, settings):
    from django.utils import translation

    from polotrainer.views import server_error

    request = rf.get("/it/")
    with translation.override("it"):
        response = server_error(request)
    assert response.status_code == 500
    assert "Qualcosa è andato storto" in response.content.decode()


@pytest.mark.parametrize(
    ("lang", "heading"), [("it", "Il modulo è scaduto"), ("en", "The form has expired")]
)
def test_a_form_without_its_security_token_gets_a_translated_page(lang, heading):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    response = client.post(f"/{lang}/account/login/", {"username": "a", "password": "b"})
    assert response.status_code == 403
    assert heading in response.content.decode()
