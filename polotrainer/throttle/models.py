"""Counted events for rate limits that every app process sees (the database is shared)."""

from django.db import models
from django.utils import timezone


class Hit(models.Model):
    """One counted event (a sign-up, say) by one key (a client address) at one time."""

    bucket = models.CharField(max_length=40)
    key = models.CharField(max_length=100)
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["bucket", "key", "at"], name="throttle_hit_lookup")]

    def __str__(self) -> str:
        return f"{self.bucket} {self.key} {self.at:%Y-%m-%d %H:%M}"
