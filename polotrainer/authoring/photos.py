"""A photo or drawing of the real incident beside an authored situation (optional).

The upload is checked (at most MAX_BYTES; JPEG, PNG or WebP, its content type and name saying
the same as its bytes), re-encoded in its own format from its pixels (polotrainer.web.images:
no EXIF or other metadata survives), scaled to fit MAX_SIDE and kept under MEDIA_ROOT with a
fresh random name. It is served by views.photo to the situation's audience only, never by
WhiteNoise or a public URL. docs/content.md states the limits.
"""

import io
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.core.files.base import ContentFile
from django.core.files.uploadedfile import UploadedFile
from django.urls import reverse
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

from polotrainer.authoring.models import Situation
from polotrainer.web.images import BadImage, ImageCode, decode
from scenarios import photos

MAX_BYTES = 5 * 1024 * 1024
MAX_PIXELS = 50_000_000  # what the file may say it holds (a 48-megapixel phone photo passes)
MAX_SIDE = 2000  # the kept picture fits in this square: sharp beside a situation, small to send
#: format -> (content type, the file name endings that say it)
FORMATS: dict[str, tuple[str, tuple[str, ...]]] = {
    "JPEG": ("image/jpeg", (".jpg", ".jpeg")),
    "PNG": ("image/png", (".png",)),
    "WEBP": ("image/webp", (".webp",)),
}
EXTENSIONS = {"JPEG": "jpg", "PNG": "png", "WEBP": "webp"}
CONTENT_TYPES = {ext: FORMATS[fmt][0] for fmt, ext in EXTENSIONS.items()}

MESSAGES: dict[ImageCode, Promise] = {
    ImageCode.TOO_BIG: gettext_lazy("This file is larger than 5 MB: choose a smaller picture."),
    ImageCode.NOT_IMAGE: gettext_lazy("This file is not a JPEG, PNG or WebP image."),
    ImageCode.TOO_MANY_PIXELS: gettext_lazy(
        "This picture has too many pixels (more than 50 million): choose a smaller one."
    ),
    ImageCode.MISMATCH: gettext_lazy(
        "This file's type or name does not match what it holds: save it again as a JPEG, "
        "PNG or WebP picture and upload that."
    ),
}
ALT_MISSING = {
    "it": gettext_lazy("Describe the picture in Italian, for those who cannot see it."),
    "en": gettext_lazy("Describe the picture in English, for those who cannot see it."),
}


def reencode(data: bytes, content_type: str, name: str) -> tuple[bytes, str]:
    """The upload re-encoded, and its file ending; BadImage with the reason if refused."""
    if len(data) > MAX_BYTES:
        raise BadImage(ImageCode.TOO_BIG)
    picture, found = decode(data, tuple(FORMATS), MAX_PIXELS)
    declared, endings = FORMATS[found]
    if content_type.split(";")[0].strip().lower() != declared or not name.lower().endswith(endings):
        raise BadImage(ImageCode.MISMATCH)
    picture.thumbnail((MAX_SIDE, MAX_SIDE))
    if found == "JPEG" and picture.mode != "RGB":
        picture = picture.convert("RGB")
    out = io.BytesIO()
    options: dict[str, Any] = {"PNG": {"optimize": True}}.get(found, {"quality": 85})
    picture.save(out, format=found, **options)
    return out.getvalue(), EXTENSIONS[found]


@dataclass
class Change:
    """What the photo part of the editor's POST asks for, once read and checked."""

    alt: dict[str, str]
    gives_away: bool
    remove: bool = False
    upload: tuple[bytes, str] | None = None
    errors: dict[str, list[str]] = field(default_factory=dict)


def read(
    situation: Situation, data: Mapping[str, Any], upload: "UploadedFile[Any] | None"
) -> Change:
    """The photo fields of the editor's POST (`data`: name -> list of strings): a new picture
    checked and re-encoded, the alt texts (both required while there is a picture)."""

    def one(name: str) -> str:
        values = data.get(name) or [""]
        return str(values[0]).strip()

    change = Change(
        alt={lang: one(f"photo_alt_{lang}") for lang in ("it", "en")},
        gives_away=bool(one("photo_gives_away")),
        remove=bool(one("photo_remove")),
    )
    if upload is not None:
        try:
            if (upload.size or 0) > MAX_BYTES:
                raise BadImage(ImageCode.TOO_BIG)
            change.upload = reencode(
                upload.read(MAX_BYTES + 1), upload.content_type or "", upload.name or ""
            )
            change.remove = False
        except BadImage as bad:
            change.errors["photo"] = [str(MESSAGES[bad.code])]
    has_photo = change.upload is not None or (bool(situation.photo) and not change.remove)
    if has_photo or "photo" in change.errors:
        for lang, message in ALT_MISSING.items():
            if not change.alt[lang]:
                change.errors[f"photo_alt_{lang}"] = [str(message)]
    return change


def apply(situation: Situation, change: Change) -> list[str]:
    """Keep the change on the situation (not saved: the caller saves the fields returned)."""
    old = situation.photo.name if situation.photo else ""
    if change.upload is not None:
        picture, ending = change.upload
        name = f"{situation.pk}-{secrets.token_urlsafe(9)}.{ending}"
        situation.photo.save(name, ContentFile(picture), save=False)
    elif change.remove:
        situation.photo = None
    if old and old != (situation.photo.name if situation.photo else ""):
        situation.photo.storage.delete(old)
    has_photo = bool(situation.photo)
    situation.photo_alt = change.alt if has_photo else {}
    situation.photo_gives_away = change.gives_away and has_photo
    return ["photo", "photo_alt", "photo_gives_away"]


def url(situation: Situation) -> str:
    """Where the situation's audience fetches the picture (its name changes with the picture,
    so a cached copy of an old one is never shown)."""
    return reverse("authoring:photo", args=[situation.pk, file_name(situation)])


def file_name(situation: Situation) -> str:
    """The stored picture's name without its folder ("" for none)."""
    return (situation.photo.name or "").rsplit("/", 1)[-1]


def photo_of(scenario_id: int) -> photos.Photo | None:
    """The picture beside an authored scenario (any version of its situation): the resolver
    this app registers with scenarios.photos."""
    situation = (
        Situation.objects.filter(versions__scenario_id=scenario_id).exclude(photo="").first()
    )
    if situation is None:
        return None
    return photos.Photo(
        url=url(situation), alt=dict(situation.photo_alt), gives_away=situation.photo_gives_away
    )
