"""Issuing, signing and revoking certificates, and the receivers of the courses app's exam
signals.

A certificate is created at once (its code, date and expiry fixed), but signed only when the
holder's full name is known and the install has a key: until then it is pending, and cannot be
printed or verified. Setting the name (or configuring a key) signs what was waiting.
"""

import logging
import re
import secrets
from datetime import date, datetime
from decimal import ROUND_HALF_UP, Decimal
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from polotrainer.certificates import signing
from polotrainer.certificates.models import (
    Certificate,
    CourseSetting,
    HolderName,
    IssuerProfile,
    Kind,
    TrustedIssuer,
)
from polotrainer.courses.models import Cohort, Course

if TYPE_CHECKING:  # cryptography itself is imported where a key is used (certificates.signing)
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

log = logging.getLogger(__name__)

#: Canvas's unambiguous alphabet (no 0/O, 1/I, 2/Z, 5/S, U/V), as the join codes use.
ALPHABET = "ABCDEFGHJKLMNPRTWXY346789"
CODE_LENGTH = 10  # 25**10: about 10**14 codes
DEFAULT_VALIDITY = 2
# A word of letters, with apostrophes (straight or typographic), dots and hyphens inside.
NAME_WORD = re.compile(r"^[^\W\d_]+(?:['\u2019.\-][^\W\d_]*)*$")


class NameCode(StrEnum):
    """Why a full name is not one."""

    EMPTY = "empty"
    LONG = "long"
    ONE_WORD = "one_word"
    CHARACTERS = "characters"


class NameProblem(ValueError):
    """A full name that is not one: `code` says why."""

    def __init__(self, code: NameCode) -> None:
        super().__init__(code)
        self.code = code


def clean_full_name(text: str) -> str:
    """The name with spaces tidied; NameProblem unless it has two words or more of letters."""
    name = " ".join(str(text).split())
    if not name:
        raise NameProblem(NameCode.EMPTY)
    if len(name) > 120:
        raise NameProblem(NameCode.LONG)
    words = name.split(" ")
    if len(words) < 2:
        raise NameProblem(NameCode.ONE_WORD)
    if not all(NAME_WORD.match(w) for w in words):
        raise NameProblem(NameCode.CHARACTERS)
    return name


def normalize_code(text: str) -> str | None:
    """A code as typed (any case, spaces or dashes) in its stored form, or None if it is none."""
    code = re.sub(r"[\s\-]", "", str(text)).upper()
    if len(code) != CODE_LENGTH or any(c not in ALPHABET for c in code):
        return None
    return code


def new_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def add_years(day: date, years: int) -> date:
    try:
        return day.replace(year=day.year + years)
    except ValueError:  # 29 February into a year without one
        return day.replace(year=day.year + years, day=28)


def validity_years(course: Course) -> int:
    setting = CourseSetting.objects.filter(course=course).first()
    return setting.validity_years if setting else DEFAULT_VALIDITY


def issuer_name() -> str:
    return str(getattr(settings, "CERTIFICATE_ISSUER_NAME", "") or "polotrainer")


def known_name(user: User) -> str:
    row = HolderName.objects.filter(user=user).first()
    return row.full_name if row else ""


def language_of(user: User) -> str:
    profile = getattr(user, "profile", None)
    return profile.language if profile else settings.LANGUAGE_CODE


def person_name(user: User) -> str:
    """How an instructor is named on a certificate: their certificate name, else their handle."""
    profile = getattr(user, "profile", None)
    return known_name(user) or (profile and profile.display_name) or user.get_username()


def issue(
    *,
    user: User,
    cohort: Cohort,
    kind: str,
    by: User | None = None,
    attempt_id: int | None = None,
    exam_titles: tuple[str, str] = ("", ""),
    score_percent: float | None = None,
    on: date | None = None,
) -> Certificate:
    """A new certificate for `user` in `cohort`, signed if the name and the key are there."""
    course = cohort.course
    day = on or timezone.localdate()
    issuer = IssuerProfile.objects.first()
    score = None
    if score_percent is not None:
        score = Decimal(str(score_percent)).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)
    certificate = Certificate(
        kind=kind,
        user=user,
        holder_name=known_name(user),
        language=language_of(user),
        course=course,
        cohort=cohort,
        course_title_it=course.title_it,
        course_title_en=course.title_en,
        track=course.track,
        year=course.year,
        attempt_id=attempt_id,
        exam_title_it=exam_titles[0].strip()[:200],
        exam_title_en=exam_titles[1].strip()[:200],
        score_percent=score,
        issued_by=by,
        issued_by_name=person_name(by) if by else "",
        issuer_name=issuer_name(),
        place=issuer.place if issuer else "",
        logo=(issuer.logo_id or "") if issuer else "",
        issued_on=day,
        expires_on=add_years(day, validity_years(course)),
    )
    for _attempt in range(20):
        certificate.code = new_code()
        try:
            with transaction.atomic():
                certificate.save(force_insert=True)
        except IntegrityError:
            if Certificate.objects.filter(code=certificate.code).exists():
                certificate.pk = None
                continue
            raise
        break
    else:  # pragma: no cover - 20 collisions in 10**14 codes
        raise RuntimeError("no free certificate code")
    complete(certificate)
    return certificate


def claims_of(certificate: Certificate, key_id: str) -> signing.Claims:
    return signing.Claims(
        version=signing.PAYLOAD_VERSION,
        key_id=key_id,
        code=certificate.code,
        name=certificate.holder_name,
        language=certificate.language,
        kind=certificate.kind,
        course_it=certificate.course_title_it,
        course_en=certificate.course_title_en,
        track=certificate.track,
        year=certificate.year,
        exam_it=certificate.exam_title_it,
        exam_en=certificate.exam_title_en,
        score="" if certificate.score_percent is None else str(certificate.score_percent),
        issued=certificate.issued_on,
        expires=certificate.expires_on,
        issuer=certificate.issuer_name,
        issued_by=certificate.issued_by_name,
        place=certificate.place,
        logo=certificate.logo,
    )


def own_issuer(key: "Ed25519PrivateKey") -> TrustedIssuer:
    """The install's key as a trusted issuer, recorded the first time it signs."""
    public = key.public_key()
    issuer, _created = TrustedIssuer.objects.get_or_create(
        key_id=signing.key_id(public),
        defaults={"name": issuer_name(), "public_key": signing.public_text(public), "own": True},
    )
    return issuer


def complete(certificate: Certificate) -> bool:
    """Sign a pending certificate when its holder's name and the install's key are known."""
    if certificate.signature:
        return True
    if not certificate.holder_name and certificate.user_id:
        certificate.holder_name = known_name(certificate.user)  # type: ignore[arg-type]
    if not certificate.holder_name:
        return False
    key = signing.signing_key()
    if key is None:
        return False
    issuer = own_issuer(key)
    claims = claims_of(certificate, issuer.key_id)
    token = signing.sign(claims.encode(), key)
    payload, signature = token.split(".")
    certificate.key_id, certificate.payload, certificate.signature = (
        issuer.key_id,
        payload,
        signature,
    )
    certificate.save(update_fields=["holder_name", "key_id", "payload", "signature"])
    return True


def complete_pending(user: User | None = None) -> int:
    """Sign every pending certificate that can be signed now (of one holder, or all)."""
    pending = Certificate.objects.filter(signature="", revoked_at__isnull=True)
    if user is not None:
        pending = pending.filter(user=user)
    return sum(complete(c) for c in pending.select_related("user"))


def set_name(user: User, full_name: str) -> HolderName:
    """Record the holder's name (from now on) and sign what waited for it."""
    row, _created = HolderName.objects.update_or_create(
        user=user, defaults={"full_name": full_name, "updated_at": timezone.now()}
    )
    complete_pending(user)
    return row


def token(certificate: Certificate) -> str:
    return f"{certificate.payload}.{certificate.signature}"


def revoke(certificate: Certificate, reason: str, by: User | None = None) -> bool:
    """Revoke it now with a reason; False if it was already revoked."""
    updated = Certificate.objects.filter(pk=certificate.pk, revoked_at__isnull=True).update(
        revoked_at=timezone.now(), revoked_reason=reason[:300], revoked_by=by
    )
    certificate.refresh_from_db(fields=["revoked_at", "revoked_reason", "revoked_by"])
    return bool(updated)


# --- the courses app's exam signals ------------------------------------------------------------


def on_exam_passed(
    sender: Any,
    *,
    attempt_id: int,
    user: User,
    course: Course,
    cohort: Cohort,
    exam_title_it: str,
    exam_title_en: str,
    score_percent: float,
    passed_at: datetime,
    **kwargs: Any,
) -> None:
    """A passed exam attempt gets its certificate, once (a re-sent signal changes nothing)."""
    if Certificate.objects.filter(attempt_id=attempt_id, revoked_at__isnull=True).exists():
        return
    try:
        issue(
            user=user,
            cohort=cohort,
            kind=Kind.EXAM,
            attempt_id=attempt_id,
            exam_titles=(str(exam_title_it), str(exam_title_en)),
            score_percent=score_percent,
            on=timezone.localdate(passed_at),
        )
    except IntegrityError:
        # Sent twice at once: the other one issued it (one live certificate per attempt).
        log.info("certificate for exam attempt %s already issued", attempt_id)


def on_exam_pass_withdrawn(sender: Any, *, attempt_id: int, reason: str, **kwargs: Any) -> None:
    """A re-grade turned the pass into a fail: its certificate is revoked with that reason."""
    for certificate in Certificate.objects.filter(attempt_id=attempt_id, revoked_at__isnull=True):
        revoke(certificate, str(reason))
