"""Clinics: a live session an instructor runs, its rounds, the people in the room, their answers.

The session's `version` grows by one at every change of what the room sees (a round shown,
closed, revealed, the leaderboard, the end). Every server process reads it to know when to push:
several processes (or machines) stay in step through the database alone. Answers are rows with a
unique (participant, round, question): a retry, a double tap or a replayed request records
nothing twice.
"""

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Phase(models.TextChoices):
    """What the room sees now."""

    LOBBY = "lobby", _("Waiting to start")
    OPEN = "open", _("Answering")
    CLOSED = "closed", _("Answers closed")
    REVEALED = "revealed", _("Answer revealed")
    LEADERBOARD = "leaderboard", _("Leaderboard")
    ENDED = "ended", _("Ended")


class ClinicSession(models.Model):
    instructor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="clinic_sessions",
        verbose_name=_("instructor"),
    )
    title = models.CharField(_("title"), max_length=120)
    # Six digits, typed on a phone; unique among the sessions not ended (see Meta).
    pin = models.CharField(max_length=6)
    phase = models.CharField(_("phase"), max_length=12, choices=Phase.choices, default=Phase.LOBBY)
    version = models.PositiveIntegerField(default=1)
    # The round on screen: its position (0 before the first is shown).
    current = models.PositiveSmallIntegerField(default=0)
    opened_at = models.DateTimeField(null=True, blank=True)
    closes_at = models.DateTimeField(null=True, blank=True)
    time_limit = models.PositiveSmallIntegerField(
        _("time limit per round (seconds)"), null=True, blank=True
    )
    speed_bonus = models.BooleanField(_("speed bonus"), default=False)
    streaks = models.BooleanField(_("streak bonus"), default=False)
    # Where the rounds came from, as the instructor chose it (for the list and the export).
    source = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    ended_at = models.DateTimeField(_("ended"), null=True, blank=True)
    # An imported session: the id its export file gave it, so one file is imported once.
    origin = models.CharField(max_length=100, blank=True, db_index=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("clinic")
        verbose_name_plural = _("clinics")
        constraints = [
            models.UniqueConstraint(
                fields=["pin"],
                condition=~models.Q(phase="ended"),
                name="clinic_pin_unique_while_running",
            )
        ]

    def __str__(self) -> str:
        return f"{self.title} ({self.pin})"

    @property
    def ended(self) -> bool:
        return self.phase == Phase.ENDED


class Team(models.Model):
    session = models.ForeignKey(ClinicSession, on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(max_length=40)

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.UniqueConstraint(fields=["session", "name"], name="clinic_team_unique_name")
        ]

    def __str__(self) -> str:
        return self.name


class Round(models.Model):
    """One scenario's variant with all its questions: the quiz core poses it from slug + seed."""

    session = models.ForeignKey(ClinicSession, on_delete=models.CASCADE, related_name="rounds")
    position = models.PositiveSmallIntegerField()  # 1, 2, ...
    scenario = models.ForeignKey("scenarios.Scenario", on_delete=models.PROTECT, related_name="+")
    seed = models.PositiveIntegerField()
    skipped = models.BooleanField(default=False)
    shown_at = models.DateTimeField(null=True, blank=True)
    # A drill round (clinics.drill): the projector plays the variant's scene from the round's
    # opening, which stops this long after it; the phones then have the countdown to call it.
    # Null: an ordinary round.
    stop_ms = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["session", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["session", "position"], name="clinic_round_unique_position"
            )
        ]

    def __str__(self) -> str:
        return f"{self.session_id}#{self.position}"


class Participant(models.Model):
    session = models.ForeignKey(
        ClinicSession, on_delete=models.CASCADE, related_name="participants"
    )
    nickname = models.CharField(_("nickname"), max_length=24)
    # Compared by look (clinics.lookalikes): "Anna", "anna" and a Cyrillic or full-width
    # look-alike cannot both play.
    nickname_key = models.CharField(max_length=100)
    # The rejoin cookie carries this secret, signed: it never leaves the participant's phone.
    secret = models.CharField(max_length=32)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="clinic_participations",
    )
    team = models.ForeignKey(
        Team, on_delete=models.SET_NULL, null=True, blank=True, related_name="members"
    )
    language = models.CharField(max_length=2, default="it")
    joined_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["joined_at", "pk"]
        verbose_name = _("participant")
        verbose_name_plural = _("participants")
        constraints = [
            models.UniqueConstraint(
                fields=["session", "nickname_key"], name="clinic_nickname_unique"
            )
        ]

    def __str__(self) -> str:
        return self.nickname


class ClinicAnswer(models.Model):
    participant = models.ForeignKey(Participant, on_delete=models.CASCADE, related_name="answers")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="answers")
    question = models.CharField(max_length=60)
    answer = models.JSONField()
    right_answer = models.JSONField(null=True)
    correct = models.BooleanField()
    points = models.FloatField(default=0)
    # Server time: when the answer arrived, and how long after the round was shown.
    created_at = models.DateTimeField(default=timezone.now)
    elapsed_ms = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["round", "participant", "question"]
        constraints = [
            models.UniqueConstraint(
                fields=["participant", "round", "question"], name="clinic_answer_once"
            )
        ]

    def __str__(self) -> str:
        return f"{self.participant_id}/{self.round_id}/{self.question}"


class ClinicSet(models.Model):
    """A named list of situations an instructor keeps to run again: saved from a clinic that
    ended, offered by the new-clinic form. The name is the instructor's own: unique per
    instructor, whatever its letter case."""

    instructor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="clinic_sets",
        verbose_name=_("instructor"),
    )
    name = models.CharField(_("name"), max_length=80)
    created_at = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        ordering = ["name", "pk"]
        verbose_name = _("set of situations")
        verbose_name_plural = _("sets of situations")
        constraints = [
            models.UniqueConstraint(
                Lower("name"), "instructor", name="clinic_set_unique_name_per_instructor"
            )
        ]

    def __str__(self) -> str:
        return self.name


class ClinicSetItem(models.Model):
    """One situation of a set, at its place (1, 2, ...)."""

    set = models.ForeignKey(ClinicSet, on_delete=models.CASCADE, related_name="items")
    position = models.PositiveSmallIntegerField()
    scenario = models.ForeignKey("scenarios.Scenario", on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["set", "position"]
        constraints = [
            models.UniqueConstraint(fields=["set", "position"], name="clinic_set_item_position")
        ]

    def __str__(self) -> str:
        return f"{self.set_id}#{self.position}"
