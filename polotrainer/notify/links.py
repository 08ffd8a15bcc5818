"""Absolute addresses in a person's language, for mail and calendars (no request at hand).

`SITE_URL` (settings, README) is the site's public address; a view passes its request's own.
"""

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.urls import reverse
from django.utils import translation


def site_url() -> str:
    """The public address mail links start with; ImproperlyConfigured when none is set."""
    base = getattr(settings, "SITE_URL", "")
    if not base:
        raise ImproperlyConfigured(
            "SITE_URL is not set: mail needs the site's public address, e.g. "
            "https://trainer.example.org"
        )
    return base.rstrip("/")


def absolute(name: str, lang: str, *args: object, base: str | None = None) -> str:
    """The address of a named URL in a language: /it/... or /en/..."""
    with translation.override(lang):
        path = reverse(name, args=args)
    return (base if base is not None else site_url()).rstrip("/") + path
