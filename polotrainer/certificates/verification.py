"""What the verify page says about a signed certificate or a code: valid, expired, revoked or
not valid, with the details as signed and how current the revocation status is.

A token is checked against the key its payload names, among the issuers this install trusts
(its own keys included); a code is looked up among this install's certificates and then
checked the same way, so an altered database row is "not valid" too.
"""

import enum
from dataclasses import dataclass
from datetime import date, datetime

from django.utils import timezone

from polotrainer.certificates import issuing, signing
from polotrainer.certificates.models import (
    Certificate,
    ForeignRevocation,
    RevocationList,
    TrustedIssuer,
)


class Status(enum.StrEnum):
    VALID = "valid"
    EXPIRED = "expired"
    REVOKED = "revoked"
    INVALID = "invalid"


class Why(enum.StrEnum):
    """Why a certificate is not valid (shown in words; machine codes for the tests)."""

    MALFORMED = "malformed"
    UNKNOWN_ISSUER = "unknown_issuer"
    BAD_SIGNATURE = "bad_signature"
    UNKNOWN_CODE = "unknown_code"


@dataclass(frozen=True)
class Verdict:
    status: Status
    claims: signing.Claims | None = None
    issuer: TrustedIssuer | None = None
    why: Why | None = None
    revoked_on: date | None = None
    # Foreign certificates: the date of the last revocation list imported from their issuer
    # (None: no list, the revocation status is unknown). Own certificates: not used.
    list_date: datetime | None = None
    # Own certificates: False when signed with this install's key but not in its database
    # (another machine with the same key, a restored backup): revocation status unknown.
    on_record: bool = True

    @property
    def own(self) -> bool:
        return bool(self.issuer and self.issuer.own)

    @property
    def revocation_unknown(self) -> bool:
        if self.status == Status.INVALID:
            return False
        return not self.on_record if self.own else self.list_date is None


def _issuer(key_id: str) -> TrustedIssuer | None:
    issuer = TrustedIssuer.objects.filter(key_id=key_id).first()
    if issuer is None:
        # The install's current key is trusted before it has signed anything.
        key = signing.signing_key()
        if key is not None and signing.key_id(key.public_key()) == key_id:
            issuer = issuing.own_issuer(key)
    return issuer


def verify_token(token: str, today: date | None = None) -> Verdict:
    """The verdict on a signed certificate, wherever it was issued."""
    try:
        payload, signature = signing.split(token)
        claims = signing.Claims.decode(payload)
    except signing.BadToken:
        return Verdict(Status.INVALID, why=Why.MALFORMED)
    issuer = _issuer(claims.key_id)
    if issuer is None:
        return Verdict(Status.INVALID, why=Why.UNKNOWN_ISSUER)
    try:
        signing.check(payload, signature, signing.parse_public(issuer.public_key))
    except (signing.BadToken, ValueError):
        return Verdict(Status.INVALID, why=Why.BAD_SIGNATURE)
    return _status(claims, issuer, today or timezone.localdate())


def verify_code(text: str, today: date | None = None) -> Verdict:
    """The verdict on one of this install's certificates found by its code."""
    code = issuing.normalize_code(text)
    certificate = (
        Certificate.objects.filter(code=code).exclude(signature="").first() if code else None
    )
    if certificate is None:
        return Verdict(Status.INVALID, why=Why.UNKNOWN_CODE)
    return verify_token(issuing.token(certificate), today)


def _status(claims: signing.Claims, issuer: TrustedIssuer, today: date) -> Verdict:
    revoked_on: date | None = None
    list_date = None
    on_record = True
    if issuer.own:
        rows = list(
            Certificate.objects.filter(code=claims.code, key_id=claims.key_id).values_list(
                "revoked_at", flat=True
            )[:1]
        )
        on_record = bool(rows)
        if rows and rows[0] is not None:
            revoked_on = timezone.localdate(rows[0])
    else:
        listed = RevocationList.objects.filter(issuer=issuer).first()
        if listed is not None:
            list_date = listed.listed_at
            revoked_on = (
                ForeignRevocation.objects.filter(issuer=issuer, code=claims.code)
                .values_list("revoked_on", flat=True)
                .first()
            )
    if revoked_on is not None:
        status = Status.REVOKED
    elif today > claims.expires:
        status = Status.EXPIRED
    else:
        status = Status.VALID
    return Verdict(
        status, claims, issuer, revoked_on=revoked_on, list_date=list_date, on_record=on_record
    )
