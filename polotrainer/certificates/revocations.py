"""Signed revocation lists: this install's revoked certificates for other installs to import.

A list is a token (signing.py) over the canonical JSON
`{"v": 1, "kid": key id, "issuer": name, "at": ISO time, "revoked": [[code, "YYYY-MM-DD"], ...]}`:
codes and dates only, no names or reasons. Importing checks the signature against a trusted
issuer's key and refuses a list older than the one already imported (a replayed old list must
not un-revoke anything); a newer list replaces the issuer's entries as a whole.
"""

import json
from datetime import UTC, date, datetime
from enum import StrEnum

from django.db import transaction
from django.utils import timezone

from polotrainer.certificates import issuing, signing
from polotrainer.certificates.models import (
    Certificate,
    ForeignRevocation,
    RevocationList,
    TrustedIssuer,
)

VERSION = 1
#: A list's text: about 36 characters a revoked certificate, so room for some 100,000.
MAX_LIST = 4_000_000


class ListCode(StrEnum):
    """Why a revocation list cannot be exported or imported."""

    NO_KEY = "no_key"
    MALFORMED = "malformed"
    UNKNOWN_ISSUER = "unknown_issuer"
    OWN = "own"
    BAD_SIGNATURE = "bad_signature"
    OLDER = "older"


class ListProblem(ValueError):
    """A revocation list that cannot be imported: `code` says why."""

    def __init__(self, code: ListCode, detail: str = "") -> None:
        super().__init__(detail or code)
        self.code = code


def export(now: datetime | None = None) -> str:
    """This install's revocation list, signed with its key."""
    key = signing.signing_key()
    if key is None:
        raise ListProblem(ListCode.NO_KEY, "this install has no signing key (README: Certificates)")
    issuer = issuing.own_issuer(key)
    revoked = (
        Certificate.objects.filter(revoked_at__isnull=False)
        .exclude(signature="")
        .order_by("code")
        .values_list("code", "revoked_at")
    )
    body = {
        "v": VERSION,
        "kid": issuer.key_id,
        "issuer": issuer.name,
        "at": (now or timezone.now()).astimezone(UTC).isoformat(timespec="seconds"),
        "revoked": [[code, timezone.localdate(at).isoformat()] for code, at in revoked],
    }
    return signing.sign(signing.canonical(body), key)


def load(text: str) -> RevocationList:
    """Import a list from a trusted issuer (not this install's own)."""
    try:
        payload, signature = signing.split(text.strip(), limit=MAX_LIST)
        body = json.loads(payload.decode("utf-8"))
    except (signing.BadToken, UnicodeDecodeError, ValueError):
        raise ListProblem(ListCode.MALFORMED, "not a revocation list") from None
    if not isinstance(body, dict) or body.get("v") != VERSION:
        raise ListProblem(ListCode.MALFORMED, "not a version 1 revocation list")
    issuer = TrustedIssuer.objects.filter(key_id=str(body.get("kid"))).first()
    if issuer is None:
        raise ListProblem(
            ListCode.UNKNOWN_ISSUER, f"no trusted issuer has key id {body.get('kid')!r}"
        )
    if issuer.own:
        raise ListProblem(ListCode.OWN, "this is this install's own list")
    try:
        signing.check(payload, signature, signing.parse_public(issuer.public_key))
    except (signing.BadToken, ValueError):
        raise ListProblem(ListCode.BAD_SIGNATURE, "the signature does not match the key") from None
    try:
        listed_at = datetime.fromisoformat(str(body["at"]))
        entries = {str(code): date.fromisoformat(str(day)) for code, day in body["revoked"]}
    except (KeyError, TypeError, ValueError):
        raise ListProblem(
            ListCode.MALFORMED, "the list's entries are not codes and dates"
        ) from None
    if timezone.is_naive(listed_at):
        raise ListProblem(ListCode.MALFORMED, "the list's time has no time zone")
    with transaction.atomic():
        # The issuer's row, which exists before its first list does: two imports of the same
        # issuer's lists run one after the other, and the second reads what the first stored.
        TrustedIssuer.objects.select_for_update().filter(pk=issuer.pk).first()
        current = RevocationList.objects.filter(issuer=issuer).first()
        if current is not None and listed_at <= current.listed_at:
            raise ListProblem(
                ListCode.OLDER, f"not newer than the list imported ({current.listed_at})"
            )
        ForeignRevocation.objects.filter(issuer=issuer).delete()
        ForeignRevocation.objects.bulk_create(
            ForeignRevocation(issuer=issuer, code=code[:10], revoked_on=day)
            for code, day in entries.items()
        )
        row, _created = RevocationList.objects.update_or_create(
            issuer=issuer, defaults={"listed_at": listed_at, "imported_at": timezone.now()}
        )
    return row
