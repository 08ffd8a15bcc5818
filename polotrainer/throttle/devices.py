"""Device cookies: a browser where a person logged in before is not locked out by someone else.

OWASP's answer to lock-out abuse ("Slow Down Online Guessing Attacks with Device Cookies"):
at each successful log-in the browser gets a cookie, signed with the site's key, holding a
tag of the username and a random nonce (one entry for each of the last MAX_PEOPLE people who
logged in on that browser: a family laptop, the club's computer). A password check for a
username with an entry there is a *trusted* client's: the pauses that guessers elsewhere
cause (guessing.GuessingHandler's three limits) do not apply to it; its own wrong passwords
are counted instead, by nonce, and AXES_FAILURE_LIMIT of them within a day make the cookie
count for nothing until the day has passed (the holder is then an untrusted client like any
other): a stolen phone gets a handful of guesses, not a way around the limits. A cookie for
another username does not help, and one altered by hand or older than AGE is ignored.

The cookie is HttpOnly, SameSite=Lax and Secure where the profile is HTTPS; it names no one
in clear (a keyed hash of the username) and is renewed, with a fresh nonce, at every log-in.
"""

import secrets
from datetime import timedelta

from django.conf import settings
from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.utils.crypto import salted_hmac

from polotrainer.throttle import rates

COOKIE = "device"
AGE = timedelta(days=365)
MAX_PEOPLE = 5
BUCKET = "login-device"
WINDOW = timedelta(days=1)
_SALT = "polotrainer.throttle.devices"


def _tag(username: str) -> str:
    return salted_hmac(_SALT, username, algorithm="sha256").hexdigest()[:20]


def _entries(request: HttpRequest) -> list[tuple[str, str]]:
    """(username tag, nonce) pairs of a valid cookie, newest first; none when missing,
    altered or expired."""
    value = request.COOKIES.get(COOKIE, "")
    if not value:
        return []
    try:
        data = signing.loads(value, salt=_SALT, max_age=AGE)
    except (signing.BadSignature, ValueError, TypeError):
        return []
    if not isinstance(data, list):
        return []
    return [
        (entry[0], entry[1])
        for entry in data[:MAX_PEOPLE]
        if isinstance(entry, list)
        and len(entry) == 2
        and all(isinstance(part, str) for part in entry)
    ]


def _nonce(request: HttpRequest, username: str) -> str | None:
    tag = _tag(username)
    return next((nonce for owner, nonce in _entries(request) if owner == tag), None)


def trusted(request: HttpRequest, username: str) -> bool:
    """Whether this browser logged in as `username` before and has not used up its own
    wrong passwords."""
    nonce = _nonce(request, username)
    return nonce is not None and rates.allowed(BUCKET, nonce, settings.AXES_FAILURE_LIMIT, WINDOW)


def count_failure(request: HttpRequest, username: str) -> bool:
    """Count a wrong password against this browser's cookie, if it holds one for `username`;
    whether it is still trusted afterwards."""
    nonce = _nonce(request, username)
    if nonce is None:
        return False
    rates.record(BUCKET, nonce, WINDOW)
    return trusted(request, username)


def remember(request: HttpRequest, response: HttpResponse, username: str) -> None:
    """After a successful log-in: this browser is trusted for `username`, with a fresh nonce."""
    tag = _tag(username)
    others = [[owner, nonce] for owner, nonce in _entries(request) if owner != tag]
    entries = [[tag, secrets.token_urlsafe(16)], *others][:MAX_PEOPLE]
    response.set_cookie(
        COOKIE,
        signing.dumps(entries, salt=_SALT),
        max_age=int(AGE.total_seconds()),
        httponly=True,
        samesite="Lax",
        secure=settings.SESSION_COOKIE_SECURE,
    )
