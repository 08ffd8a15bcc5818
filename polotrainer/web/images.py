"""Uploaded images decoded with Pillow, so what is kept is written from pixels, never the bytes.

Why re-encode: no script (SVG), metadata (EXIF with a place and a time, a camera's serial) or
crafted file reaches a browser. Why Pillow: the one maintained Python imaging library; its
decompression-bomb guard is turned into a refusal here, so a small file that claims to be huge
is refused before its pixels are read.
"""

from __future__ import annotations

import io
import warnings
from enum import StrEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL import Image

# Pillow is imported where an upload is decoded, not in every server process at its start.


class ImageCode(StrEnum):
    """Why an uploaded image is refused (each caller words each code in both languages)."""

    TOO_BIG = "too_big"
    NOT_IMAGE = "not_image"
    TOO_MANY_PIXELS = "too_many_pixels"
    MISMATCH = "mismatch"


class BadImage(ValueError):
    """Not an image the caller accepts."""

    def __init__(self, code: ImageCode) -> None:
        super().__init__(code)
        self.code = code


def decode(
    data: bytes, formats: tuple[str, ...], max_pixels: int, *, upright: bool = True
) -> tuple[Image.Image, str]:
    """The first frame's pixels (turned upright by the EXIF orientation, unless `upright` is
    False), with no metadata, and the format the bytes are in; BadImage if they are not one of
    `formats` or say they hold more than `max_pixels`."""
    from PIL import Image, ImageOps, UnidentifiedImageError

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data), formats=formats) as image:
                if image.width * image.height > max_pixels:
                    raise BadImage(ImageCode.TOO_MANY_PIXELS)
                found = str(image.format)
                image.load()
                turned = ImageOps.exif_transpose(image) if upright else image.copy()
    except BadImage:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise BadImage(ImageCode.TOO_MANY_PIXELS) from None
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError, EOFError):
        raise BadImage(ImageCode.NOT_IMAGE) from None
    clear = turned.mode in {"RGBA", "LA", "PA"} or "transparency" in turned.info
    mode = "RGBA" if clear else "RGB"
    pixels = turned.convert(mode)
    # A new image from the raw pixels carries no info at all: no EXIF, XMP, ICC, comments.
    return Image.frombytes(mode, pixels.size, pixels.tobytes()), found
