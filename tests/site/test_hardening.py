"""Headers every response carries, caching of personal pages, HEAD, cookies, bad input, DB loss."""

import pytest
from django.db import OperationalError
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice(client, trainee):
    client.force_login(trainee)
    return client


# --- headers -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path", ["/en/", "/it/rules/", "/en/account/login/", "/en/no-such-page/", "/healthz"]
)
def test_every_response_carries_the_csp_and_the_permissions_policy(client, path):
    response = client.get(path)
    policy = response["Content-Security-Policy"]
    assert "default-src 'self'" in policy
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy
    assert "style-src 'self'" in policy
    assert "frame-ancestors 'none'" in policy
    assert "camera=()" in response["Permissions-Policy"]


def test_pages_carry_no_inline_script_or_style_and_htmx_adds_none(alice, client):
    html = alice.get("/en/account/").content.decode()
    assert "<style" not in html and " style=" not in html
    assert "<script>" not in html and "<script " in html  # only external scripts
    assert '"includeIndicatorStyles":false' in html and '"allowEval":false' in html


@pytest.mark.parametrize(
    "path", ["/en/me/", "/en/me/history.csv", "/en/account/", "/en/review/", "/en/account/delete/"]
)
def test_personal_pages_and_exports_are_private_and_not_stored(alice, path):
    response = alice.get(path)
    assert response.status_code == 200
    directives = {d.strip() for d in response["Cache-Control"].split(",")}
    assert {"private", "no-store"} <= directives


@pytest.mark.parametrize("path", ["/en/", "/en/rules/", "/en/glossary/", "/en/me/", "/en/review/"])
def test_head_is_answered_wherever_get_is(alice, path):
    get = alice.get(path)
    head = alice.head(path)
    assert head.status_code == get.status_code == 200
    assert head.content == b""


def test_the_language_cookie_has_the_flags_of_the_session_cookie(alice, settings):
    settings.LANGUAGE_COOKIE_SECURE = True
    for response in (
        alice.post("/en/account/", {"display_name": "Al", "language": "it"}),
        alice.post("/i18n/setlang/", {"language": "en", "next": "/it/"}),
    ):
        cookie = response.cookies["django_language"]
        assert cookie["secure"] is True
        assert cookie["samesite"] == settings.SESSION_COOKIE_SAMESITE == "Lax"
        assert cookie["httponly"] is True


# --- bad input ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        "/en/rules/section/a%00b/",
        "/en/practice/next/?section=a%00b",
        "/en/practice/?rule=%00",
        "/en/glossary/?x%00=1",
    ],
)
def test_a_nul_character_anywhere_is_a_translated_400(client, path):
    response = client.get(path)
    assert response.status_code == 400
    assert "This request could not be understood" in response.content.decode()


def test_a_nul_character_in_a_form_field_is_a_400_and_records_nothing(client):
    response = client.post("/it/account/signup/", {"username": "a\x00b", "email": "x@example.org"})
    assert response.status_code == 400
    assert "Questa richiesta non è comprensibile" in response.content.decode()


@pytest.mark.parametrize("rule", ["%C2%B2", "%D9%A3", "-1", "9" * 40])
def test_a_rule_that_is_not_an_ascii_number_is_ignored(client, rule):
    response = client.get(f"/en/practice/next/?rule={rule}")
    assert response.status_code in (200, 302)
    assert "rule=" not in response.get("Location", "")


# --- the database out of reach -------------------------------------------------------------------


@pytest.fixture
def database_down(monkeypatch):
    from django.db.backends.utils import CursorWrapper

    def refuse(self, *args, **kwargs):
        raise OperationalError("connection to server at 127.0.0.1 failed: Connection refused")

    monkeypatch.setattr(CursorWrapper, "execute", refuse)
    monkeypatch.setattr(CursorWrapper, "executemany", refuse)


@pytest.mark.parametrize(
    ("lang", "text"),
    [("it", "Il sito non è disponibile in questo momento"), ("en", "not available right now")],
)
def test_pages_answer_503_in_the_pages_language_when_the_database_is_down(
    database_down, lang, text
):
    response = Client(raise_request_exception=False).get(f"/{lang}/rules/")
    assert response.status_code == 503
    assert text in response.content.decode()
    assert response["Retry-After"]


def test_a_logged_in_page_answers_503_when_the_session_cannot_be_read(trainee, monkeypatch):
    client = Client(raise_request_exception=False)
    client.force_login(trainee)
    from django.db.backends.utils import CursorWrapper

    def refuse(self, *args, **kwargs):
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(CursorWrapper, "execute", refuse)
    assert client.get("/en/me/").status_code == 503


@pytest.mark.parametrize(
    ("lang", "text"),
    [("it", "non è stato registrato"), ("en", "was not recorded")],
)
def test_an_answer_sent_while_the_database_is_down_says_it_was_not_recorded(
    database_down, lang, text
):
    response = Client(raise_request_exception=False).post(
        f"/{lang}/practice/some-scenario/7/answer/", {"token": "t", "q-ruling": "penalty-2"}
    )
    assert response.status_code == 503
    body = response.content.decode()
    assert text in body
    assert "lost" not in body and "perso" not in body


def test_a_server_error_no_longer_promises_that_nothing_was_lost(rf):
    from polotrainer.views import server_error

    response = server_error(rf.post("/en/"))
    assert response.status_code == 500
    assert "is lost" not in response.content.decode()
