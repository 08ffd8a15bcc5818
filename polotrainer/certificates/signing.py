"""Ed25519 keys and the signed texts: a certificate's canonical payload and a revocation list.

Where the private key comes from, in order: `CERTIFICATE_SIGNING_KEY` (the key itself: PEM, or
the 32 raw bytes in base64url), `CERTIFICATE_SIGNING_KEY_FILE` (a path to either), and in
development only (DEBUG) a key generated on first use into a file outside the repository
(`DEV_KEY_FILE`). Without any, nothing is signed: certificates wait as pending (README).

A public key is written `ed25519:<base64url of its 32 bytes>`; its id is the base64url of the
first 6 bytes of its SHA-256 (8 characters), carried in every payload.

A signed text travels as `<base64url(payload)>.<base64url(signature)>` (a "token"), which is
what the verify URL's `c` parameter and a revocation list file hold.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from scenarios.localize import localize

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import (
        Ed25519PrivateKey,
        Ed25519PublicKey,
    )

# cryptography (about 9 MB in each server process) is imported where a key is read, made or
# checked, not at the start: most requests, and a room of phones, never touch one.

KEY_PREFIX = "ed25519:"
MAX_TOKEN = 4000  # a certificate's token is about 500 characters; refuse long ones unread
DEV_KEY_FILE = (
    Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    / "polotrainer"
    / "dev-certificate-signing.key"
)


class BadToken(ValueError):
    """Not a signed text this app wrote: malformed, or the signature does not match."""


def b64e(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64d(text: str) -> bytes:
    if not text or len(text) % 4 == 1 or not text.isascii():
        raise BadToken("not base64url")
    try:
        data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise BadToken("not base64url") from None
    # One text per value: the unused low bits of the last character must be zero (otherwise
    # a changed last character would decode to the same bytes and still verify).
    if b64e(data) != text:
        raise BadToken("not canonical base64url")
    return data


# --- keys ----------------------------------------------------------------------------------------


def generate() -> Ed25519PrivateKey:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    return Ed25519PrivateKey.generate()


def private_pem(key: Ed25519PrivateKey) -> str:
    from cryptography.hazmat.primitives import serialization

    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ).decode("ascii")


def parse_private(text: str) -> Ed25519PrivateKey:
    """A private key from PEM text or base64url of its 32 raw bytes."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    text = text.strip()
    try:
        if text.startswith("-----BEGIN"):
            key = serialization.load_pem_private_key(text.encode(), password=None)
            if not isinstance(key, Ed25519PrivateKey):
                raise ValueError("not an Ed25519 key")
            return key
        raw = b64d(text.rstrip("="))  # padded or not, as an operator may paste it
        return Ed25519PrivateKey.from_private_bytes(raw)
    except (ValueError, TypeError, BadToken) as exc:
        raise ImproperlyConfigured(
            f"The certificate signing key is not an Ed25519 private key: {exc}"
        ) from None


def public_text(key: Ed25519PublicKey) -> str:
    from cryptography.hazmat.primitives import serialization

    raw = key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return KEY_PREFIX + b64e(raw)


def parse_public(text: str) -> Ed25519PublicKey:
    """`ed25519:<base64url>` (the prefix may be left out); ValueError when it is not a key."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    text = text.strip().removeprefix(KEY_PREFIX).rstrip("=")
    try:
        raw = b64d(text)
    except BadToken:
        raise ValueError("not base64url") from None
    if len(raw) != 32:
        raise ValueError("an Ed25519 public key has 32 bytes")
    return Ed25519PublicKey.from_public_bytes(raw)


def key_id(key: Ed25519PublicKey) -> str:
    from cryptography.hazmat.primitives import serialization

    raw = key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return b64e(hashlib.sha256(raw).digest()[:6])


def signing_key() -> Ed25519PrivateKey | None:
    """The install's private key, or None when none is configured (outside development)."""
    value = getattr(settings, "CERTIFICATE_SIGNING_KEY", "")
    if value:
        return parse_private(value)
    path = getattr(settings, "CERTIFICATE_SIGNING_KEY_FILE", "")
    if path:
        try:
            return parse_private(Path(path).read_text())
        except OSError as exc:
            raise ImproperlyConfigured(
                f"CERTIFICATE_SIGNING_KEY_FILE cannot be read: {exc}"
            ) from None
    if settings.DEBUG:
        return _development_key()
    return None


def _development_key() -> Ed25519PrivateKey:
    if DEV_KEY_FILE.exists():
        return parse_private(DEV_KEY_FILE.read_text())
    key = generate()
    DEV_KEY_FILE.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(DEV_KEY_FILE, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as out:
        out.write(private_pem(key))
    return key


# --- signed texts -------------------------------------------------------------------------------


def canonical(value: Any) -> bytes:
    """One byte string for one value: compact JSON, keys sorted, UTF-8."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode()


def sign(payload: bytes, key: Ed25519PrivateKey) -> str:
    return f"{b64e(payload)}.{b64e(key.sign(payload))}"


def split(token: str, limit: int = MAX_TOKEN) -> tuple[bytes, bytes]:
    """The payload and the signature of a token, unchecked; BadToken if malformed."""
    if not isinstance(token, str) or len(token) > limit or token.count(".") != 1:
        raise BadToken("not a token")
    payload_text, signature_text = token.split(".")
    payload, signature = b64d(payload_text), b64d(signature_text)
    if len(signature) != 64:
        raise BadToken("an Ed25519 signature has 64 bytes")
    return payload, signature


def check(payload: bytes, signature: bytes, key: Ed25519PublicKey) -> None:
    from cryptography.exceptions import InvalidSignature

    try:
        key.verify(signature, payload)
    except InvalidSignature:
        raise BadToken("the signature does not match") from None


# --- a certificate's payload ------------------------------------------------------------------


@dataclass(frozen=True)
class Layout:
    """One version of the payload: its fields in order (a JSON array, so it stays short in the
    QR code), and the fields it carries for several of the claims at once."""

    fields: tuple[str, ...]
    # field -> the claims it stands for: version 1's one exam title is both languages' title.
    shared: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def claims_of(self, field_name: str) -> tuple[str, ...]:
        return self.shared.get(field_name, (field_name,))


_V1 = (
    "version",
    "key_id",
    "code",
    "name",
    "language",
    "kind",
    "course_it",
    "course_en",
    "track",
    "year",
    "exam",
    "score",
    "issued",
    "expires",
    "issuer",
    "issued_by",
)
#: Version 2: the exam's title in both languages, as the instructor typed them.
_V2 = (
    "version",
    "key_id",
    "code",
    "name",
    "language",
    "kind",
    "course_it",
    "course_en",
    "track",
    "year",
    "exam_it",
    "exam_en",
    "score",
    "issued",
    "expires",
    "issuer",
    "issued_by",
)
#: Version 3: where it was issued (a place, "" for none) and the issuing body's logo, named by
#: the digest of the image's bytes (`logos.digest`, "" for none), so the signature covers the
#: very picture the print and verify pages show.
_V3 = (*_V2, "place", "logo")
#: Every payload version this app has signed, and reads: a certificate verifies as it was signed
#: for as long as its key is trusted. A new version is one more row (with defaults on `Claims`
#: for what older versions do not say); `PAYLOAD_VERSION`, the newest, is what `sign` writes.
LAYOUTS: dict[int, Layout] = {
    1: Layout(_V1, shared={"exam": ("exam_it", "exam_en")}),
    2: Layout(_V2),
    3: Layout(_V3),
}
PAYLOAD_VERSION = max(LAYOUTS)
_INTS = frozenset({"version", "year"})
_DATES = frozenset({"issued", "expires"})


@dataclass(frozen=True)
class Claims:
    """What a certificate says, as signed."""

    version: int
    key_id: str
    code: str
    name: str
    language: str
    kind: str
    course_it: str
    course_en: str
    track: str
    year: int
    exam_it: str  # "" without an exam
    exam_en: str
    score: str  # "96.5", or "" without an exam
    issued: date
    expires: date
    issuer: str
    issued_by: str
    place: str = ""  # version 3 on; older versions say none
    logo: str = ""

    def exam(self, lang: str | None = None) -> str:
        """The exam's title in a language (the page's by default), "" without an exam."""
        return localize(self, "exam", lang)

    def encode(self) -> bytes:
        """The canonical payload in this claims' own version; ValueError if it cannot say them."""
        layout = LAYOUTS[self.version]
        said_by_layout = {claim for name in layout.fields for claim in layout.claims_of(name)}
        for name in ("place", "logo"):
            if name not in said_by_layout and getattr(self, name):
                raise ValueError(f"payload version {self.version} cannot say {name}")
        values: list[Any] = []
        for name in layout.fields:
            said = {getattr(self, claim) for claim in layout.claims_of(name)}
            if len(said) != 1:
                raise ValueError(f"payload version {self.version} has one {name} for {said}")
            value = said.pop()
            values.append(value.isoformat() if isinstance(value, date) else value)
        return json.dumps(values, ensure_ascii=False, separators=(",", ":")).encode()

    @classmethod
    def decode(cls, payload: bytes) -> Claims:
        """The claims of a payload; BadToken unless it is exactly a payload of a known version."""
        try:
            values = json.loads(payload.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            raise BadToken("not JSON") from None
        if not isinstance(values, list) or not values or type(values[0]) is not int:
            raise BadToken("not a certificate payload")
        layout = LAYOUTS.get(values[0])
        if layout is None:
            raise BadToken("unknown payload version")
        if len(values) != len(layout.fields):
            raise BadToken("not a certificate payload")
        data: dict[str, Any] = {}
        for name, value in zip(layout.fields, values, strict=True):
            wanted = int if name in _INTS else str
            if type(value) is not wanted:
                raise BadToken(f"{name} has the wrong type")
            for claim in layout.claims_of(name):
                data[claim] = value
        try:
            for name in _DATES:
                data[name] = date.fromisoformat(data[name])
        except ValueError:
            raise BadToken("not a date") from None
        claims = cls(**data)
        if claims.encode() != payload:
            raise BadToken("not in canonical form")  # one text per certificate, nothing extra
        return claims
