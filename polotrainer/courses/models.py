"""Certification courses: instructors, courses, cohorts and their trainees, assignments and
observations.

A course (bilingual title, track, year, time zone) is taught by one or more instructors; a cohort
is one run of it, joined by code. Exams, certificates and clinics hang off `Cohort` (and read
`Membership.joined_at`: nothing a trainee did before joining is shown to their instructors).
"""

from datetime import datetime

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scenarios.localize import localize


class Track(models.TextChoices):
    """The two USPA umpire tracks: their yearly tests differ (pass mark 95% outdoor, 94% arena)."""

    OUTDOOR = "outdoor", _("Outdoor")
    ARENA = "arena", _("Arena")


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


class Course(models.Model):
    title_it = models.CharField(_("title in Italian"), max_length=200)
    title_en = models.CharField(_("title in English"), max_length=200)
    track = models.CharField(_("track"), max_length=10, choices=Track.choices)
    year = models.PositiveSmallIntegerField(
        _("year"), validators=[MinValueValidator(2000), MaxValueValidator(2100)]
    )
    # Due dates are days in this time zone: "due on 12 March" ends at midnight here.
    time_zone = models.CharField(_("time zone"), max_length=64, default=settings.TIME_ZONE)
    instructors = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="courses_taught", blank=True
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-year", "title_en", "pk"]

    def __str__(self) -> str:
        return f"{self.title_en} ({self.year})"

    @property
    def title(self) -> str:
        return localize(self, "title")


class Cohort(models.Model):
    """One run of a course with its trainees, joined by a code, a link or the link's QR code."""

    course = models.ForeignKey(Course, on_delete=models.CASCADE, related_name="cohorts")
    name = models.CharField(_("name"), max_length=120)
    join_code = models.CharField(max_length=6, unique=True)
    join_enabled = models.BooleanField(default=True)
    join_expires_at = models.DateTimeField(null=True, blank=True)
    max_trainees = models.PositiveIntegerField(
        _("enrolment limit"), null=True, blank=True, validators=[MinValueValidator(1)]
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "pk"]

    def __str__(self) -> str:
        return f"{self.course} / {self.name}"


class Membership(models.Model):
    """A trainee in a cohort since `joined_at`: what instructors see starts there."""

    cohort = models.ForeignKey(Cohort, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="cohort_memberships"
    )
    joined_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["joined_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["cohort", "user"], name="one_membership_per_cohort")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.cohort_id}"


class Scope(models.TextChoices):
    """What an assignment's questions are drawn from."""

    RULE = "rule", _("A whole rule")
    SECTIONS = "sections", _("Sections")
    SCENARIOS = "scenarios", _("Chosen situations")


class Assignment(models.Model):
    """Practice set for a cohort: a number of questions on a rule, sections or chosen scenarios.

    The scenarios are resolved and frozen when it is set (`scenario_links`), so content loaded
    later does not change what was asked. Progress counts each trainee's answers to them given
    after `created_at` and after the trainee joined.
    """

    cohort = models.ForeignKey(Cohort, on_delete=models.CASCADE, related_name="assignments")
    # What it asks, said in both languages when it is set ("Rule 37: Penalties", "Sections 3.b,
    # 37.6"), so that lists and the gradebook name it without reading the rulebook again.
    title_it = models.CharField(max_length=200)
    title_en = models.CharField(max_length=200)
    scope = models.CharField(max_length=10, choices=Scope.choices)
    rule = models.ForeignKey(
        "scenarios.Rule", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    sections = models.ManyToManyField("scenarios.Section", blank=True, related_name="+")
    scenarios = models.ManyToManyField(
        "scenarios.Scenario", through="AssignmentScenario", related_name="+"
    )
    questions = models.PositiveSmallIntegerField(
        _("number of questions"), validators=[MinValueValidator(1), MaxValueValidator(200)]
    )
    # The day as the instructor chose it, and the instant it ends in the course's time zone.
    due_on = models.DateField(_("due date"))
    due_at = models.DateTimeField()
    note = models.CharField(_("note for the trainees"), max_length=300, blank=True)
    set_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["due_at", "pk"]
        indexes = [models.Index(fields=["cohort", "due_at"], name="assignment_cohort_due")]

    def __str__(self) -> str:
        return f"assignment {self.pk} of {self.cohort_id}"

    @property
    def title(self) -> str:
        return localize(self, "title")


class AssignmentScenario(models.Model):
    assignment = models.ForeignKey(
        Assignment, on_delete=models.CASCADE, related_name="scenario_links"
    )
    scenario = models.ForeignKey(
        "scenarios.Scenario", on_delete=models.PROTECT, related_name="assignment_links"
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["assignment", "scenario"], name="one_link_per_assignment_scenario"
            )
        ]

    def __str__(self) -> str:
        return f"{self.assignment_id}:{self.scenario_id}"


class Outcome(models.TextChoices):
    RECOMMENDED = "recommended", _("Recommended for certification")
    SATISFACTORY = "satisfactory", _("Satisfactory")
    NEEDS_WORK = "needs_work", _("Needs more work")


class Rating(models.TextChoices):
    """USPA umpire ratings, from CU to C4 (uspolo.org)."""

    CU = "CU", "CU"
    C1 = "C1", "C1"
    C2 = "C2", "C2"
    C3 = "C3", "C3"
    C4 = "C4", "C4"


class Observation(models.Model):
    """An instructor watched a trainee umpire a real game: shown in the gradebook and to them."""

    cohort = models.ForeignKey(Cohort, on_delete=models.CASCADE, related_name="observations")
    trainee = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="observations_received"
    )
    observer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    observed_on = models.DateField(_("date of the game"))
    game = models.CharField(_("game"), max_length=200)
    outcome = models.CharField(_("outcome"), max_length=20, choices=Outcome.choices)
    rating = models.CharField(
        _("recommended rating"), max_length=2, choices=Rating.choices, blank=True
    )
    notes = models.TextField(_("notes"), max_length=4000, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-observed_on", "-pk"]
        indexes = [models.Index(fields=["cohort", "trainee"], name="observation_cohort_trainee")]

    def __str__(self) -> str:
        return f"observation {self.pk} of {self.trainee_id}"


# --- exams -------------------------------------------------------------------------------------


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

    cohort = models.ForeignKey(Cohort, on_delete=models.CASCADE, related_name="exams")
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
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    # When the answers hidden until the close were counted into the trainees' aggregates
    # (mastery, days): `exams.release_if_due`.
    released_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["opens_at", "pk"]

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

    exam = models.ForeignKey(Exam, on_delete=models.CASCADE, related_name="attempts")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="exam_attempts",
    )
    number = models.PositiveSmallIntegerField(default=1)
    preview = models.BooleanField(default=False)
    started_at = models.DateTimeField()
    deadline = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)
    finished_by = models.CharField(max_length=10, choices=Finish.choices, blank=True)
    # The question (slot position) the trainee was last on: where the attempt resumes.
    current = models.PositiveSmallIntegerField(default=1)
    right = models.PositiveSmallIntegerField(null=True, blank=True)
    total = models.PositiveSmallIntegerField(null=True, blank=True)
    passed = models.BooleanField(null=True, blank=True)
    regraded_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["started_at", "pk"]
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
        constraints = [
            models.UniqueConstraint(fields=["attempt", "position"], name="one_slot_per_position")
        ]

    def __str__(self) -> str:
        return f"A{self.attempt_id}-Q{self.position}"
