"""Umpires and their learning: profiles, every answer given, the review schedule."""

from datetime import datetime

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scenarios.localize import localize


class InstructorRole(models.Model):
    """The instructor role, granted by staff (the staff page or `manage.py instructor grant`)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="instructor_role",
    )
    granted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    granted_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"instructor {self.user_id}"


class Profile(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile"
    )
    display_name = models.CharField(_("display name"), max_length=80, blank=True)
    language = models.CharField(
        _("preferred language"), max_length=2, choices=settings.LANGUAGES, default="it"
    )

    class Meta:
        verbose_name = _("profile")
        verbose_name_plural = _("profiles")

    def __str__(self) -> str:
        return self.display_name or self.user.get_username()


class Mode(models.TextChoices):
    """Where an answer was given: the kind of its context."""

    PRACTICE = "practice", _("Practice")
    REVIEW = "review", _("Review")
    EXAM = "exam", _("Exam")
    CLINIC = "clinic", _("Clinic")
    DRILL = "drill", _("Drill")


class Attempt(models.Model):
    """One answer to one question of one variant (scenario slug + seed), as it was ruled then.

    The right answer is the engine's ruling at the time of answering and `content_version` the
    scenario's version then: history, exports and statistics read them and never recompute a
    ruling, so a later fix of the content or the engine rewrites nobody's history.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="attempts",
    )
    # A visitor without an account is known by a random id kept in their session; their
    # attempts move to the account when they sign up or log in.
    visitor = models.CharField(max_length=40, blank=True, db_index=True)
    scenario = models.ForeignKey(
        "scenarios.Scenario", on_delete=models.PROTECT, related_name="attempts"
    )
    # Big: exam variants draw their seeds above the practice range (scenarios.variants).
    seed = models.PositiveBigIntegerField()
    question = models.CharField(max_length=60)
    answer = models.JSONField()
    right_answer = models.JSONField(null=True, blank=True)
    correct = models.BooleanField()
    content_version = models.CharField(max_length=16, blank=True)
    time_taken_ms = models.PositiveIntegerField(null=True, blank=True)
    # A drill's decision time: from the moment the scene stopped (the whistle was due) to the
    # answer, by the server's clock (or the page's, when it is within 2 s below the server's);
    # a time-out carries the whole window. Empty for every other mode.
    decision_ms = models.PositiveIntegerField(null=True, blank=True)
    # The context: its kind, and for an exam or a clinic the id of the exam attempt or the
    # clinic round it belongs to (those apps point here; this app knows nothing of them), with
    # a label the history shows.
    mode = models.CharField(max_length=10, choices=Mode.choices, default=Mode.PRACTICE)
    context_id = models.BigIntegerField(null=True, blank=True)
    context_label = models.CharField(max_length=200, blank=True)
    # The signed question's one-time id: a double click or a replayed form records one answer.
    nonce = models.CharField(max_length=32, unique=True)
    # Until when the history keeps quiet about this answer: before `result_hidden_until` it
    # shows the answer given but not whether it was right (nor the right answer, nor the seed);
    # before `right_hidden_until` it shows right or wrong but not the right answer. Set by
    # whoever recorded the answer (an exam, by its review policy); empty means shown.
    result_hidden_until = models.DateTimeField(null=True, blank=True)
    right_hidden_until = models.DateTimeField(null=True, blank=True)
    # Until when the history does not say which variant this was (the scenario's slug, the
    # seed): an exam's question stays its own until the exam closes, whatever its review
    # policy shows of the answer. Empty means shown.
    variant_hidden_until = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    # The local date (site time zone) of created_at, stored so that activity per day and the
    # streak group by a plain column instead of converting every timestamp in SQL.
    day = models.DateField(default=timezone.localdate)

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["user", "-created_at"]),
            # One umpire's answers to one scenario since a moment, right or not, read from the
            # index alone: a course's assignment progress counts them for a whole cohort.
            # With result_hidden_until: whether "correct" may count yet, from the index too.
            models.Index(
                fields=["user", "scenario", "-created_at", "correct", "result_hidden_until"],
                name="attempt_user_scenario_time",
            ),
            models.Index(fields=["user", "day"], name="attempt_user_day"),
            models.Index(fields=["mode", "context_id"], name="attempt_context"),
        ]

    def __str__(self) -> str:
        return f"{self.scenario_id}:{self.seed}:{self.question}"

    @property
    def seconds(self) -> float | None:
        return None if self.time_taken_ms is None else self.time_taken_ms / 1000

    def shows_result(self, now: datetime | None = None) -> bool:
        """Whether the history may say if this answer was right."""
        until = self.result_hidden_until
        return until is None or until <= (now or timezone.now())

    def shows_right(self, now: datetime | None = None) -> bool:
        """Whether the history may show the right answer."""
        until = self.right_hidden_until
        return self.shows_result(now) and (until is None or until <= (now or timezone.now()))


class ScenarioProgress(models.Model):
    """One umpire on one scenario: the last answers (for mastery) and the review schedule.

    Kept up to date as answers are recorded, so the dashboard and a course's gradebook read a
    row per scenario instead of every answer ever given. `recent` holds the last RECENT_KEPT
    variants answered, newest first, as [epoch milliseconds, right]. The FSRS card is empty
    until the scenario is answered in practice or review (exams and clinics do not schedule).
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="scenario_progress"
    )
    scenario = models.ForeignKey(
        "scenarios.Scenario", on_delete=models.PROTECT, related_name="progress"
    )
    recent = models.JSONField(default=list)
    # What mastery reads of `recent` (mastery.summary), kept beside it so that a whole cohort's
    # scores are read without decoding it: the score, and when the oldest answer it keeps was
    # given (epoch milliseconds); `recent` itself is decoded only for a count from a later
    # moment (a trainee who joined a course after answering).
    recent_score = models.FloatField(null=True, blank=True)
    recent_from = models.BigIntegerField(null=True, blank=True)
    answers = models.PositiveIntegerField(default=0)
    correct = models.PositiveIntegerField(default=0)
    last_answered_at = models.DateTimeField(null=True, blank=True)
    card = models.JSONField(null=True, blank=True)
    due = models.DateTimeField(null=True, blank=True, db_index=True)
    # One variant is rated once, however many questions it asks: the seed it was rated on, the
    # rating given and the card as it was before, so a later wrong answer to the same variant
    # turns its Good into Again instead of counting as a second review.
    variant_seed = models.PositiveIntegerField(null=True, blank=True)
    variant_rating = models.PositiveSmallIntegerField(null=True, blank=True)
    card_before = models.JSONField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "scenario"], name="one_progress_per_scenario")
        ]

    def __str__(self) -> str:
        return f"{self.user_id}:{self.scenario_id}"


class DayActivity(models.Model):
    """Answers and right answers of one umpire on one local day, counted as they are given."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="activity"
    )
    day = models.DateField()
    answers = models.PositiveIntegerField(default=0)
    correct = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "day"], name="one_row_per_day")]

    def __str__(self) -> str:
        return f"{self.user_id}:{self.day}"


class ClosedBook(models.Model):
    """An exam attempt holding its umpire closed-book: until `until` (the attempt's stored
    deadline), practice, review and clinics give this account no ruling and no feedback.

    Written by the exams app (umpires.closedbook: `hold` at the start, `move` with the
    deadline, `release` at the submission) and read by every app that rules an answer, so none
    of them needs to know about exams. What the page saying so shows is stored with it: the
    exam's title in both languages, the course's time zone and the way back to the attempt.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="closed_books"
    )
    exam_attempt_id = models.BigIntegerField(unique=True)
    until = models.DateTimeField()
    title_it = models.CharField(max_length=200)
    title_en = models.CharField(max_length=200)
    time_zone = models.CharField(max_length=64)
    back_to = models.CharField(max_length=200, blank=True)

    class Meta:
        indexes = [models.Index(fields=["user", "until"], name="closed_book_user_until")]

    def __str__(self) -> str:
        return f"{self.user_id} closed-book until {self.until:%Y-%m-%d %H:%M}"

    @property
    def title(self) -> str:
        return localize(self, "title")
