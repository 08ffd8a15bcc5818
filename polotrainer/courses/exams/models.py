"""The rows of timed exams: an exam of a cohort, extra time for one trainee, an attempt and its
frozen questions (slots).

They belong to the courses app (tables `courses_exam...`, migrations in courses/migrations/);
`CoursesConfig.import_models` loads this module with the app's own models.
"""

from datetime import datetime

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from polotrainer.courses.models import Cohort
from scenarios.localize import localize


class Review(models.IntegerChoices):
    """What a trainee sees of a submitted attempt (each level includes the ones before it)."""

    SCORE = 1, _("The score only")
    MARKS = 2, _("Which questions were right")
    ANSWERS = 3, _("The right answers, with the engine's reasons and the rule text")


#: USPA's pass marks for the yearly umpire tests, by track.
PASS_MARKS = {"outdoor": 95, "arena": 94}


class Exam(models.Model):
    """A timed exam for a cohort: questions drawn per attempt from a blueprint.

    `blueprint` is a list of parts, each `{"title_it", "title_en", "count", "scenarios": [ids]}`:
    draw `count` scenarios from the part's scenarios (resolved and frozen when it is set, like an
    assignment's). A scenario asks one to three questions; the score is right questions over all
    questions. Dates are instants; the form reads and shows them in the course's time zone.
    """

    cohort = models.ForeignKey(
        Cohort, on_delete=models.CASCADE, related_name="exams", verbose_name=_("cohort")
    )
    title_it = models.CharField(_("title in Italian"), max_length=200)
    title_en = models.CharField(_("title in English"), max_length=200)
    blueprint = models.JSONField(default=list)
    pass_percent = models.PositiveSmallIntegerField(
        _("pass mark (%)"), validators=[MinValueValidator(1), MaxValueValidator(100)]
    )
    time_limit_minutes = models.PositiveSmallIntegerField(
        _("time limit (minutes)"), validators=[MinValueValidator(1), MaxValueValidator(600)]
    )
    opens_at = models.DateTimeField(_("opens"))
    closes_at = models.DateTimeField(_("closes"))
    attempts_allowed = models.PositiveSmallIntegerField(
        _("attempts allowed"), default=1, validators=[MinValueValidator(1), MaxValueValidator(20)]
    )
    cooldown_hours = models.PositiveIntegerField(
        _("hours between attempts"), default=0, validators=[MaxValueValidator(24 * 365)]
    )
    review_after_submit = models.PositiveSmallIntegerField(
        _("shown right after submitting"), choices=Review.choices, default=Review.SCORE
    )
    review_after_close = models.PositiveSmallIntegerField(
        _("shown after the exam closes"), choices=Review.choices, default=Review.ANSWERS
    )
    # While a trainee's attempt is open, their account gets no ruling from practice, review or
    # clinics (umpires.closedbook). On unless the instructor turns it off: a mark to pass
    # means the answers are the trainee's own.
    closed_book = models.BooleanField(_("closed book"), default=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    # When the answers hidden until the close were counted into the trainees' aggregates
    # (mastery, days): `exams.release_if_due`.
    released_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["opens_at", "pk"]
        verbose_name = _("exam")
        verbose_name_plural = _("exams")

    def __str__(self) -> str:
        return f"exam {self.pk} of {self.cohort_id}"

    @property
    def title(self) -> str:
        return localize(self, "title")

    def review_level(self, now: datetime) -> int:
        """What a submitted attempt shows at `now`: after the close, the better of the two."""
        if now >= self.closes_at:
            return max(self.review_after_submit, self.review_after_close)
        return self.review_after_submit

    def is_closed(self, now: datetime) -> bool:
        return now >= self.closes_at


class Accommodation(models.Model):
    """Extra time and extra attempts for one trainee in one exam."""

    exam = models.ForeignKey(Exam, on_delete=models.CASCADE, related_name="accommodations")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    extra_minutes = models.PositiveSmallIntegerField(
        _("extra time (minutes)"), default=0, validators=[MaxValueValidator(600)]
    )
    extra_attempts = models.PositiveSmallIntegerField(
        _("extra attempts"), default=0, validators=[MaxValueValidator(20)]
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["exam", "user"], name="one_accommodation_per_trainee")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} in exam {self.exam_id}"


class Finish(models.TextChoices):
    TRAINEE = "trainee", _("Submitted")
    DEADLINE = "deadline", _("Submitted at the deadline")


class ExamAttempt(models.Model):
    """One sitting of an exam, its deadline stored when it starts (the server's timer).

    `deadline` is the earlier of start + time limit + any extra time and the exam's close; no
    reload, device or reconnection changes it. An attempt whose deadline has passed is submitted
    with the deadline as its finish time when anyone next reads it (or by `manage.py exams
    finish`). Deleting an account keeps its attempts (user set to NULL) for the statistics.
    A preview is an instructor's attempt, left out of results and statistics.
    """

    exam = models.ForeignKey(
        Exam, on_delete=models.CASCADE, related_name="attempts", verbose_name=_("exam")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="exam_attempts",
        verbose_name=_("trainee"),
    )
    number = models.PositiveSmallIntegerField(default=1)
    preview = models.BooleanField(default=False)
    started_at = models.DateTimeField(_("started"))
    deadline = models.DateTimeField()
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    finished_by = models.CharField(max_length=10, choices=Finish.choices, blank=True)
    # The question (slot position) the trainee was last on: where the attempt resumes.
    current = models.PositiveSmallIntegerField(default=1)
    right = models.PositiveSmallIntegerField(_("right answers"), null=True, blank=True)
    total = models.PositiveSmallIntegerField(_("questions"), null=True, blank=True)
    passed = models.BooleanField(null=True, blank=True)
    regraded_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["started_at", "pk"]
        verbose_name = _("exam attempt")
        verbose_name_plural = _("exam attempts")
        constraints = [
            # One open attempt per trainee and exam: two tabs pressing Start make one attempt.
            models.UniqueConstraint(
                fields=["exam", "user"],
                condition=models.Q(finished_at__isnull=True),
                name="one_open_attempt_per_trainee",
            ),
        ]
        indexes = [models.Index(fields=["exam", "user"], name="exam_attempt_exam_user")]

    def __str__(self) -> str:
        return f"E{self.exam_id}-A{self.pk}"

    @property
    def reference(self) -> str:
        """What a trainee quotes in a dispute: exam and attempt (a question adds -Q<n>)."""
        return f"E{self.exam_id}-A{self.pk}"

    @property
    def finished(self) -> bool:
        return self.finished_at is not None

    @property
    def percent(self) -> float | None:
        if self.right is None or not self.total:
            return None
        return 100 * self.right / self.total

    @property
    def seconds_taken(self) -> float | None:
        if self.finished_at is None:
            return None
        return (self.finished_at - self.started_at).total_seconds()

    @property
    def duration(self) -> str:
        """The time taken as h:mm:ss or m:ss ("" while open)."""
        seconds = self.seconds_taken
        if seconds is None:
            return ""
        minutes, secs = divmod(round(seconds), 60)
        hours, minutes = divmod(minutes, 60)
        return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


class ExamSlot(models.Model):
    """One question of an attempt (a scenario's variant), frozen when the attempt is drawn.

    The variant's values, facts and ruling are stored, so the question is posed again exactly as
    the engine ruled it then, and a later engine change never changes a grade without a
    re-grade. `values` are the form's raw values (shown again on any device); `given` the
    answers read from them, per question id; `marks` per question id after grading.
    """

    attempt = models.ForeignKey(ExamAttempt, on_delete=models.CASCADE, related_name="slots")
    position = models.PositiveSmallIntegerField()
    part = models.PositiveSmallIntegerField(default=0)
    scenario = models.ForeignKey("scenarios.Scenario", on_delete=models.PROTECT, related_name="+")
    seed = models.PositiveBigIntegerField()
    content_version = models.CharField(max_length=16, blank=True)
    variant_values = models.JSONField(default=dict)
    variant_labels = models.JSONField(default=dict)
    facts = models.JSONField(default=dict)
    ruling = models.JSONField(default=dict)
    values = models.JSONField(default=dict)
    given = models.JSONField(default=dict)
    saved_at = models.DateTimeField(null=True, blank=True)
    marks = models.JSONField(default=dict)
    rights = models.JSONField(default=dict)

    class Meta:
        ordering = ["attempt", "position"]
        verbose_name = _("exam question")
        verbose_name_plural = _("exam questions")
        constraints = [
            models.UniqueConstraint(fields=["attempt", "position"], name="one_slot_per_position")
        ]

    def __str__(self) -> str:
        return f"A{self.attempt_id}-Q{self.position}"
