"""Calendar feed tokens, invitations to a cohort, and the record of every mail sent."""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from polotrainer.courses.models import Cohort


class FeedToken(models.Model):
    """The secret in a person's calendar feed address; revoked, it answers 410 for ever."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="calendar_feeds"
    )
    token = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(default=timezone.now)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user"],
                condition=models.Q(revoked_at__isnull=True),
                name="one_live_feed_per_person",
            )
        ]

    def __str__(self) -> str:
        return f"feed of {self.user_id}"


class InvitationStatus(models.TextChoices):
    INVITED = "invited", _("Invited")
    JOINED = "joined", _("Joined")
    FAILED = "failed", _("Not delivered")
    WITHDRAWN = "withdrawn", _("Withdrawn")


class Invitation(models.Model):
    """One address invited to a cohort (one per address: inviting it again resends)."""

    cohort = models.ForeignKey(Cohort, on_delete=models.CASCADE, related_name="invitations")
    email = models.EmailField(_("e-mail address"))  # lower-cased: one invitation per address
    name = models.CharField(_("name"), max_length=120, blank=True)
    language = models.CharField(_("language"), max_length=2, choices=settings.LANGUAGES)
    token = models.CharField(max_length=64, unique=True)
    status = models.CharField(
        max_length=10, choices=InvitationStatus.choices, default=InvitationStatus.INVITED
    )
    # What the mail server said when it refused the mail (empty: accepted, or never sent).
    error = models.CharField(max_length=300, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    sends = models.PositiveSmallIntegerField(default=0)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    joined_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    joined_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["created_at", "pk"]
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        constraints = [
            models.UniqueConstraint(fields=["cohort", "email"], name="one_invitation_per_address")
        ]

    def __str__(self) -> str:
        return f"{self.email} to {self.cohort_id}"


class Kind(models.TextChoices):
    """The kinds of mail `manage.py notify` sends: each can be stopped on its own."""

    ASSIGNMENT_DUE = "assignment_due", _("Assignments due soon")
    EXAM_OPENS = "exam_opens", _("Exams opening")
    EXAM_CLOSING = "exam_closing", _("Exams closing soon")
    RESULTS = "results", _("Exam results")
    CERTIFICATE = "certificate", _("Certificates issued")
    EXPIRING = "expiring", _("Certificates expiring")
    DIGEST = "digest", _("Weekly digest of my cohorts")
    CLINIC_FOLLOWUP = "clinic_followup", _("My answers after a clinic")


class Sent(models.Model):
    """A mail of a kind about an object went to a person: never again (notify is idempotent)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="mail_sent"
    )
    kind = models.CharField(max_length=20, choices=Kind.choices)
    # The exam, assignment, certificate or clinic it was about; the digest's ISO year and week
    # (202649).
    object_id = models.BigIntegerField()
    sent_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "kind", "object_id"], name="one_mail_per_person_kind_object"
            )
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.object_id} to {self.user_id}"


class OptOut(models.Model):
    """A person stopped one kind of mail (the link in every mail, or List-Unsubscribe)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="mail_opt_outs"
    )
    kind = models.CharField(max_length=20, choices=Kind.choices)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "kind"], name="one_opt_out")]

    def __str__(self) -> str:
        return f"{self.user_id} stopped {self.kind}"
