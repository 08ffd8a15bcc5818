"""System checks: a signing key that cannot be read is an error at start-up; no key at all is
a deploy warning (certificates would wait unsigned), named by `manage.py check --deploy`."""

from typing import Any

from django.conf import settings
from django.core import checks
from django.core.exceptions import ImproperlyConfigured

from polotrainer.certificates import signing


def key_is_readable(**kwargs: Any) -> list[checks.CheckMessage]:
    try:
        signing.signing_key()
    except ImproperlyConfigured as exc:
        return [checks.Error(str(exc), id="certificates.E001")]
    return []


def key_is_set(**kwargs: Any) -> list[checks.CheckMessage]:
    configured = settings.CERTIFICATE_SIGNING_KEY or settings.CERTIFICATE_SIGNING_KEY_FILE
    if configured or settings.DEBUG:
        return []
    return [
        checks.Warning(
            "No certificate signing key: certificates are issued but wait unsigned.",
            hint="Create one with `manage.py certificates keygen --file PATH` and set "
            "CERTIFICATE_SIGNING_KEY_FILE (or CERTIFICATE_SIGNING_KEY) on every app machine.",
            id="certificates.W001",
        )
    ]


def register() -> None:
    checks.register(key_is_readable)
    checks.register(key_is_set, deploy=True)
