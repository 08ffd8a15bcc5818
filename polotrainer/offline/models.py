"""What the server keeps of offline practice: the packs it handed out and the answers it took.

A pack is the server's own copy of what it gave a browser: every variant as the engine ruled it
then (so a pack older than a content change still grades as it was posed) and the right answers
the page was given (so an outbox entry whose right answer was changed on the phone is caught).
An entry, once recorded, keeps its id here: the unique constraint makes a sync idempotent.
"""

from django.conf import settings
from django.db import models
from django.utils import timezone


class Pack(models.Model):
    """One download: who got it, when, and the variants in it (see packs.build)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="offline_packs",
    )
    visitor = models.CharField(max_length=40, blank=True)
    made_at = models.DateTimeField(default=timezone.now)
    scope = models.CharField(max_length=60)
    # [{"scenario": pk, "slug", "seed", "version", "mode", "values", "facts", "ruling",
    #   "labels", "right": {question id: form values}}], in the order of the pack's entries.
    variants = models.JSONField(default=list)

    class Meta:
        indexes = [models.Index(fields=["user", "-made_at"], name="offline_pack_user_made")]

    def __str__(self) -> str:
        return f"pack {self.pk} ({self.scope})"


class SyncedEntry(models.Model):
    """One outbox entry (one variant answered offline) recorded: its id, once."""

    entry_id = models.UUIDField(unique=True)
    pack = models.ForeignKey(Pack, on_delete=models.CASCADE, related_name="entries")
    index = models.PositiveIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True
    )
    visitor = models.CharField(max_length=40, blank=True)
    answered_at = models.DateTimeField()
    recorded_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return str(self.entry_id)
