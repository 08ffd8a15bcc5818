"""The issuing body's logo: an uploaded image checked and re-encoded with Pillow.

What is stored and shown is a PNG the app wrote from decoded pixels (polotrainer.web.images,
which says why), never the uploaded bytes; a file that claims more than MAX_PIXELS is refused
unread.
"""

import base64
import hashlib
import io
from enum import StrEnum

from polotrainer.certificates.models import IssuerLogo
from polotrainer.web import images

MAX_BYTES = 1_000_000  # an upload larger than this is refused before decoding
MAX_PIXELS = 4000 * 4000  # what the file may say it holds
MAX_SIDE = 400  # the stored logo fits in this square (a certificate prints it ~3 cm wide)
FORMATS = ("PNG", "JPEG", "GIF", "WEBP")


class LogoCode(StrEnum):
    """Why an uploaded logo is refused (issuer_views.LOGO_ERRORS words each): web.images' codes
    that a logo can meet (its type is not checked against its name)."""

    TOO_BIG = "too_big"
    NOT_IMAGE = "not_image"
    TOO_MANY_PIXELS = "too_many_pixels"


class BadLogo(ValueError):
    """Not an image the app accepts."""

    def __init__(self, code: LogoCode) -> None:
        super().__init__(code)
        self.code = code


def digest(png: bytes) -> str:
    """The name a logo is signed under: base64url of the first 16 bytes of its SHA-256."""
    return base64.urlsafe_b64encode(hashlib.sha256(png).digest()[:16]).rstrip(b"=").decode()


def reencode(data: bytes) -> tuple[bytes, int, int]:
    """The uploaded image as a PNG of at most MAX_SIDE x MAX_SIDE; BadLogo if it is not one."""
    if len(data) > MAX_BYTES:
        raise BadLogo(LogoCode.TOO_BIG)
    try:
        decoded, _format = images.decode(data, FORMATS, MAX_PIXELS, upright=False)
    except images.BadImage as bad:
        raise BadLogo(LogoCode(bad.code)) from None
    picture = decoded.convert("RGBA")
    picture.thumbnail((MAX_SIDE, MAX_SIDE))
    out = io.BytesIO()
    picture.save(out, format="PNG", optimize=True)
    return out.getvalue(), picture.width, picture.height


def store(data: bytes) -> IssuerLogo:
    """Check, re-encode and keep an uploaded logo (the same picture twice is one row)."""
    png, width, height = reencode(data)
    logo, _created = IssuerLogo.objects.get_or_create(
        digest=digest(png), defaults={"png": png, "width": width, "height": height}
    )
    return logo
