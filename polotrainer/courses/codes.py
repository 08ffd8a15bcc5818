"""Join codes: six characters from an alphabet without look-alikes, and the QR code of the link.

The alphabet is Canvas's (no 0/O, 1/I/L-lookalikes, 2/Z, 5/S, U/V): about 244 million codes,
drawn with the operating system's CSPRNG; a collision with an existing cohort draws again.
"""

import re
import secrets

import segno
from django.db import IntegrityError, transaction
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from polotrainer.courses.models import Cohort

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
    """>>> is_well_formed("K7M4PX"), is_well_formed("K0M4PX"), is_well_formed("K7M4P")
    (True, False, False)
    """
    return len(code) == LENGTH and all(c in ALPHABET for c in code)


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


def qr_svg(url: str, label: str) -> SafeString:
    """The link as an inline SVG QR code, scaled by CSS, with a text alternative."""
    qr = segno.make(url, error="m")
    svg = qr.svg_inline(scale=1, omitsize=True, svgclass="qr", dark="#000", light="#fff")
    # The label is the accessible name; segno writes no style attributes (CSP-safe).
    return mark_safe(  # noqa: S308 - segno's SVG holds only numbers; the label is escaped
        svg.replace("<svg ", f'<svg role="img" aria-label="{escape(label)}" ', 1)
    )
