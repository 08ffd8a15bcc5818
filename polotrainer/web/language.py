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
