"""Passes: a short token, signed with the site's key, saying that its holder knew a secret that
is guessed under a limit (a clinic's PIN, a cohort's join code).

The site hands one out where the secret is known already: in the link of the QR code the
projector or the instructor shows, and to whoever typed the secret while the guessing limit
let them. A request carrying a valid pass is never stopped by that limit; without one, an
address over the limit gets the same refusal for a right secret and a wrong one, so guessing
on learns nothing. Nobody without the secret can make a pass: it is an HMAC of the thing the
secret opens and the secret itself (a new secret voids the old passes).
"""

from django.core import signing
from django.utils.crypto import constant_time_compare

#: The query parameter a pass travels in (a QR code's link is shorter with one letter).
PARAMETER = "k"
#: Characters kept of the signature: 96 bits, far beyond guessing, short in a QR code.
LENGTH = 16


def issue(purpose: str, *parts: object) -> str:
    """The pass for the thing `parts` name (its id and its secret), for one purpose.

    >>> from django.test.utils import override_settings
    >>> with override_settings(SECRET_KEY="k" * 50):
    ...     token = issue("clinic", 7, "123456")
    ...     len(token), holds(token, "clinic", 7, "123456"), holds(token, "clinic", 7, "654321")
    (16, True, False)
    """
    signer = signing.Signer(salt=f"polotrainer.throttle.passes.{purpose}")
    return signer.signature(":".join(str(part) for part in parts))[:LENGTH]


def holds(value: str | None, purpose: str, *parts: object) -> bool:
    """Whether `value` is the pass for these parts (compared in constant time)."""
    if not value or len(value) != LENGTH:
        return False
    return constant_time_compare(value, issue(purpose, *parts))
