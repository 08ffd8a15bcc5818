"""Decision drills: sets of plays to call at match speed, and each play as it was served."""

from django.conf import settings
from django.db import models
from django.utils import timezone


class DrillSet(models.Model):
    """A set of SET_SIZE plays for one person (an account, or a visitor by session id),
    interleaved across the scene families and the rules."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="drill_sets",
    )
    visitor = models.CharField(max_length=40, blank=True, db_index=True)
    created_at = models.DateTimeField(default=timezone.now)
    #: The course's drill set this set was started from (its summary leads back there); the
    #: assignment counts the answers themselves, whichever set they were given in.
    assignment = models.ForeignKey(
        "courses.Assignment",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )

    def __str__(self) -> str:
        return f"drill set {self.pk}"


class DrillItem(models.Model):
    """One play of a set: the variant, the window to answer in, and what happened to it.

    `started_at` is set once, when the scene first starts playing: a reload plays nothing
    again and the window runs from the first start. The answers themselves are Attempts
    (mode "drill", context_id = this item), recorded once by their nonces.
    """

    drill = models.ForeignKey(DrillSet, on_delete=models.CASCADE, related_name="items")
    position = models.PositiveSmallIntegerField()
    scenario = models.ForeignKey("scenarios.Scenario", on_delete=models.PROTECT, related_name="+")
    seed = models.PositiveBigIntegerField()
    family = models.CharField(max_length=20)
    #: How long the trainee has to answer after the stop, extra time included (ms).
    window_ms = models.PositiveIntegerField()
    started_at = models.DateTimeField(null=True, blank=True)
    #: The stop's offset from the start as played (real speed, or the key frames step by step).
    stop_ms = models.PositiveIntegerField(null=True, blank=True)
    answered_at = models.DateTimeField(null=True, blank=True)
    decision_ms = models.PositiveIntegerField(null=True, blank=True)
    correct = models.BooleanField(null=True, blank=True)
    timed_out = models.BooleanField(default=False)
    #: Replays after answering, at real speed and in slow motion: counted, never before.
    replays = models.PositiveSmallIntegerField(default=0)
    slow_replays = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["drill", "position"]
        constraints = [
            models.UniqueConstraint(fields=["drill", "position"], name="one_item_per_place")
        ]

    def __str__(self) -> str:
        return f"{self.drill_id}#{self.position}"
