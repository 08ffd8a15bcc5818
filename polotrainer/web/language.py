"""The language a page is shown in, and how the choice is remembered.

The language in the URL (/it/..., /en/...) always wins: a link opens in the language it names.
A logged-in umpire's preferred language (their profile) is where they land after logging in and
what the switcher keeps up to date; a visitor's choice is remembered in the language cookie,
whose flags are the session cookie's.
"""

from django.conf import settings
from django.http import HttpResponse

LANGUAGES = tuple(code for code, _name in settings.LANGUAGES)


def remember(response: HttpResponse, language: str) -> HttpResponse:
    """Set the language cookie on `response`, with the flags Django's own switcher uses.

    settings.py gives the language cookie the session cookie's flags.
    """
    if language in LANGUAGES:
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            language,
            max_age=settings.LANGUAGE_COOKIE_AGE,
            secure=settings.LANGUAGE_COOKIE_SECURE,
            httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
            samesite=settings.LANGUAGE_COOKIE_SAMESITE,  # type: ignore[arg-type]
        )
    return response


def without_language(path: str) -> str:
    """A path of the site without its language: Django's locale middleware adds the visitor's
    own on arrival (their language cookie, else their browser's Accept-Language), so one
    printed or projected link serves every language. For links that travel (a QR code, an
    address on a projector); a link inside a page keeps the page's language.

    >>> without_language("/it/play/123456/?pass=x"), without_language("/healthz")
    ('/play/123456/?pass=x', '/healthz')
    """
    first, _, rest = path.lstrip("/").partition("/")
    return "/" + rest if first in LANGUAGES else path
