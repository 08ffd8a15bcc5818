"""Certificates, the names printed on them, the course settings that shape them, and the issuers
this install trusts with the revocation lists it has imported from them.

A certificate copies everything it says (holder's name, course titles, track, year, exam, score,
issuer) when it is issued, and keeps the canonical payload it signed: deleting the account, the
course or the cohort leaves it printable and verifiable.
"""

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from polotrainer.courses.models import Cohort, Course, Track
from scenarios.localize import localize


class Kind(models.TextChoices):
    """What a certificate certifies."""

    EXAM = "exam", _("Exam passed")
    ATTENDANCE = "attendance", _("Clinic attendance")
    COMPLETION = "completion", _("Course completion")


class HolderName(models.Model):
    """The holder's full name as it is printed on their certificates, asked once."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="certificate_name",
    )
    full_name = models.CharField(_("full name"), max_length=120)
    updated_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return self.full_name


class CourseSetting(models.Model):
    """How long a course's certificates are valid (World Rugby: 2 years; USPA: yearly)."""

    course = models.OneToOneField(
        Course, on_delete=models.CASCADE, primary_key=True, related_name="certificate_setting"
    )
    validity_years = models.PositiveSmallIntegerField(
        _("valid for (years)"),
        default=2,
        validators=[MinValueValidator(1), MaxValueValidator(10)],
    )

    def __str__(self) -> str:
        return f"{self.course_id}: {self.validity_years} years"


class TrustedIssuer(models.Model):
    """An Ed25519 public key whose certificates this install accepts; `own` for its own keys
    (recorded when it first signs with one, so a replaced key keeps its certificates valid)."""

    name = models.CharField(_("name"), max_length=120)
    key_id = models.CharField(max_length=16, unique=True)
    public_key = models.CharField(max_length=64)  # base64url of the 32 raw bytes
    own = models.BooleanField(default=False)
    added_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["name", "pk"]

    def __str__(self) -> str:
        return f"{self.name} ({self.key_id})"


class IssuerLogo(models.Model):
    """An issuing body's logo as the app re-encoded it (PNG), named by its digest, which the
    certificates that show it sign (payload version 3). Kept while any certificate names it."""

    digest = models.CharField(max_length=32, primary_key=True)
    png = models.BinaryField()
    width = models.PositiveSmallIntegerField()
    height = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"logo {self.digest}"


class IssuerProfile(models.Model):
    """The issuing body as staff set it (one row): the place and logo new certificates carry.
    The name stays CERTIFICATE_ISSUER_NAME, which the install's key is recorded under."""

    place = models.CharField(_("place"), max_length=120, blank=True)
    logo = models.ForeignKey(
        IssuerLogo, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    updated_at = models.DateTimeField(default=timezone.now)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )

    def __str__(self) -> str:
        return f"issuer at {self.place}"


class Certificate(models.Model):
    code = models.CharField(_("code"), max_length=10, unique=True)
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices)
    # The holder: the account while it exists; the name is copied (and signed) on the
    # certificate. Empty while pending: the holder must give it before it can be printed.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="certificates",
    )
    holder_name = models.CharField(_("holder"), max_length=120, blank=True)
    language = models.CharField(max_length=2, choices=settings.LANGUAGES, default="it")
    course = models.ForeignKey(
        Course, on_delete=models.SET_NULL, null=True, blank=True, related_name="certificates"
    )
    cohort = models.ForeignKey(
        Cohort, on_delete=models.SET_NULL, null=True, blank=True, related_name="certificates"
    )
    course_title_it = models.CharField(max_length=200)
    course_title_en = models.CharField(_("course title in English"), max_length=200)
    track = models.CharField(max_length=10, choices=Track.choices)
    year = models.PositiveSmallIntegerField()
    # For an exam: the exam attempt it was issued for (one live certificate per attempt).
    attempt_id = models.BigIntegerField(null=True, blank=True)
    exam_title_it = models.CharField(max_length=200, blank=True)
    exam_title_en = models.CharField(max_length=200, blank=True)
    score_percent = models.DecimalField(max_digits=4, decimal_places=1, null=True, blank=True)
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    issued_by_name = models.CharField(max_length=120, blank=True)
    issuer_name = models.CharField(max_length=120)
    # Version 3 on: where it was issued, and the digest of the issuer's logo (IssuerLogo).
    place = models.CharField(max_length=120, blank=True)
    logo = models.CharField(max_length=32, blank=True)
    issued_on = models.DateField(_("issued on"))
    expires_on = models.DateField(_("expires on"))
    created_at = models.DateTimeField(default=timezone.now)
    # What was signed, exactly, and the signature: the QR code carries both.
    key_id = models.CharField(max_length=16, blank=True)
    payload = models.TextField(blank=True)
    signature = models.CharField(max_length=100, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    revoked_reason = models.CharField(_("reason"), max_length=300, blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )

    class Meta:
        ordering = ["-issued_on", "-pk"]
        verbose_name = _("certificate")
        verbose_name_plural = _("certificates")
        constraints = [
            models.UniqueConstraint(
                fields=["attempt_id"],
                condition=models.Q(attempt_id__isnull=False, revoked_at__isnull=True),
                name="one_live_certificate_per_attempt",
            )
        ]
        indexes = [models.Index(fields=["cohort", "-issued_on"], name="certificate_cohort")]

    def __str__(self) -> str:
        return f"certificate {self.code}"

    @property
    def pending(self) -> bool:
        """Not signed yet: the holder's name is missing (or the install has no key yet)."""
        return not self.signature

    @property
    def exam_title(self) -> str:
        """The exam's title in the page's language ("" for a certificate of no exam)."""
        return localize(self, "exam_title")

    @property
    def grouped_code(self) -> str:
        return f"{self.code[:5]}-{self.code[5:]}"


class RevocationList(models.Model):
    """The last revocation list imported from a trusted issuer: its date says how current the
    verify page's answer about that issuer's certificates is."""

    issuer = models.OneToOneField(
        TrustedIssuer, on_delete=models.CASCADE, primary_key=True, related_name="revocation_list"
    )
    listed_at = models.DateTimeField()
    imported_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"revocations of {self.issuer_id} at {self.listed_at}"


class ForeignRevocation(models.Model):
    issuer = models.ForeignKey(TrustedIssuer, on_delete=models.CASCADE, related_name="revocations")
    code = models.CharField(max_length=10)
    revoked_on = models.DateField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["issuer", "code"], name="one_revocation_per_code")
        ]

    def __str__(self) -> str:
        return f"{self.code} revoked by {self.issuer_id}"
