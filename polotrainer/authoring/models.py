"""Situations a course's instructors write in the browser, and the versions they published.

A situation is a draft in the content files' own shape (`entry`: section, kind, texts, facts,
params, questions: docs/content.md) owned by a course. Publishing it makes (or, while nobody
has answered it, updates) a `scenarios.Scenario` with `authored` set, so the quiz core, variants,
history and review treat it like any bundled one; `Version` ties each published scenario to its
situation, and so to the course whose cohorts are its audience (polotrainer.authoring.audience).
"""

from django.conf import settings
from django.db import models
from django.utils import timezone

from polotrainer.courses.models import Course


class Situation(models.Model):
    course = models.ForeignKey(Course, on_delete=models.CASCADE, related_name="situations")
    # The draft as the content files would hold it, without its slug (the version's).
    entry = models.JSONField(default=dict)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(auto_now=True)
    # A photo or drawing of the real incident (optional), re-encoded with no metadata, under
    # MEDIA_ROOT; served to the situation's audience only (authoring.photos, views.photo).
    photo = models.FileField(upload_to="authored/", blank=True)
    photo_alt = models.JSONField(default=dict, blank=True)  # {"it": ..., "en": ...}
    photo_gives_away = models.BooleanField(default=False)  # never shown on an exam page

    class Meta:
        ordering = ["-updated_at", "pk"]

    def __str__(self) -> str:
        return f"situation {self.pk} of course {self.course_id}"

    @property
    def title(self) -> str:
        from scenarios.localize import current_language

        titles = self.entry.get("title") or {}
        return str(titles.get(current_language()) or titles.get("en") or titles.get("it") or "")

    @property
    def current(self) -> "Version | None":
        return self.versions.order_by("-number").first()


class Version(models.Model):
    """One published version: its scenario keeps the texts and facts its answers were given to."""

    situation = models.ForeignKey(Situation, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    scenario = models.OneToOneField(
        "scenarios.Scenario", on_delete=models.PROTECT, related_name="authored_version"
    )
    published_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    published_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["situation", "number"]
        constraints = [
            models.UniqueConstraint(fields=["situation", "number"], name="one_version_number")
        ]

    def __str__(self) -> str:
        return f"{self.situation_id} v{self.number}"
