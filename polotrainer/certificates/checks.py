"""System check: a signing key that is configured but cannot be read is an error at start-up.

No key at all is not an error (nor a deploy warning: `check --deploy` stays clean for a site
that issues no certificates): certificates are then issued but wait unsigned, and the
instructor's certificate page says so until a key is configured (README "Certificates").
"""

from typing import Any

from django.core import checks
from django.core.exceptions import ImproperlyConfigured

from polotrainer.certificates import signing


def key_is_readable(**kwargs: Any) -> list[checks.CheckMessage]:
    try:
        signing.signing_key()
    except ImproperlyConfigured as exc:
        return [checks.Error(str(exc), id="certificates.E001")]
    return []


def register() -> None:
    checks.register(key_is_readable)
