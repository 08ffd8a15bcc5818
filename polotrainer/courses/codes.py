"""Join codes: six characters from an alphabet without look-alikes, and the QR code of the link.

The alphabet is Canvas's (no 0/O, 1/I/L-lookalikes, 2/Z, 5/S, U/V): about 244 million codes,
drawn with the operating system's CSPRNG; a collision with an existing cohort draws again.
"""

import re
import secrets

from django.db import IntegrityError, transaction

from polotrainer.courses.models import Cohort
from polotrainer.throttle import passes

ALPHABET = "ABCDEFGHJKLMNPRTWXY346789"
LENGTH = 6
TRIES = 20
_SEPARATORS = re.compile(r"[\s\-·.]+")


class CodeSpaceExhausted(RuntimeError):
    """No free code was drawn in TRIES attempts (practically impossible below millions)."""


def draw() -> str:
    """A random code.

    >>> len(draw()) == LENGTH and set(draw()) <= set(ALPHABET)
    True
    """
    return "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))


def normalise(text: str) -> str:
    """What the trainee typed, as a code: case, spaces and dashes do not matter.

    >>> normalise(" k7m-4px ")
    'K7M4PX'
    """
    return _SEPARATORS.sub("", text).upper()[:20]


def is_well_formed(code: str) -> bool:
    """Whether `code` (normalised) has the length and only the letters of a join code.

    >>> is_well_formed("K7M4PX"), is_well_formed("K0M4PX"), is_well_formed("K7M4P")
    (True, False, False)
    """
    return len(code) == LENGTH and all(c in ALPHABET for c in code)


PASS_PURPOSE = "cohort"  # noqa: S105 - names what a pass is for, not a password


def join_pass(cohort: Cohort) -> str:
    """The pass of the cohort's join link (polotrainer.throttle.passes): the link and QR code
    the instructor shares carry it; a new code voids it."""
    return passes.issue(PASS_PURPOSE, cohort.pk, cohort.join_code)


def holds_pass(cohort: Cohort, value: str | None) -> bool:
    return passes.holds(value, PASS_PURPOSE, cohort.pk, cohort.join_code)


def give_new_code(cohort: Cohort) -> str:
    """Set a fresh code on the cohort (saved when it exists, else on its first save) and return it.

    The unique index decides: a code taken meanwhile by another cohort fails the save and a new
    one is drawn.
    """
    for _ in range(TRIES):
        code = draw()
        if Cohort.objects.filter(join_code=code).exists():
            continue
        cohort.join_code = code
        try:
            with transaction.atomic():
                if cohort.pk is None:
                    cohort.save(force_insert=True)
                else:
                    cohort.save(update_fields=["join_code"])
        except IntegrityError:
            if Cohort.objects.filter(join_code=code).exclude(pk=cohort.pk).exists():
                continue
            raise
        return code
    raise CodeSpaceExhausted
