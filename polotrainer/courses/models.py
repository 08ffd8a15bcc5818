"""Certification courses: instructors, courses, cohorts and their trainees, assignments and
observations.

A course (bilingual title, track, year, time zone) is taught by one or more instructors; a cohort
is one run of it, joined by code. Exams, certificates and clinics hang off `Cohort` (and read
`Membership.joined_at`: nothing a trainee did before joining is shown to their instructors).
"""

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scenarios.localize import localize
from scenarios.scope import Scope


class Track(models.TextChoices):
    """The two USPA umpire tracks: their yearly tests differ (pass mark 95% outdoor, 94% arena)."""

    OUTDOOR = "outdoor", _("Outdoor")
    ARENA = "arena", _("Arena")


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
        verbose_name = _("course")
        verbose_name_plural = _("courses")

    def __str__(self) -> str:
        return f"{self.title_en} ({self.year})"

    @property
    def title(self) -> str:
        return localize(self, "title")


class Cohort(models.Model):
    """One run of a course with its trainees, joined by a code, a link or the link's QR code."""

    course = models.ForeignKey(
        Course, on_delete=models.CASCADE, related_name="cohorts", verbose_name=_("course")
    )
    name = models.CharField(_("name"), max_length=120)
    join_code = models.CharField(_("join code"), max_length=6, unique=True)
    join_enabled = models.BooleanField(_("joining open"), default=True)
    join_expires_at = models.DateTimeField(_("joining closes"), null=True, blank=True)
    max_trainees = models.PositiveIntegerField(
        _("enrolment limit"), null=True, blank=True, validators=[MinValueValidator(1)]
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "pk"]
        verbose_name = _("cohort")
        verbose_name_plural = _("cohorts")

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
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = [
            models.UniqueConstraint(fields=["cohort", "user"], name="one_membership_per_cohort")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.cohort_id}"


class Kind(models.TextChoices):
    """What an assignment asks: questions through practice, or plays through the drills."""

    QUESTIONS = "questions", _("Questions")
    DRILLS = "drills", _("Drill set")


#: A drill set is drawn from scene families (or sections); questions never are.
FAMILIES = "families"
SCOPES = [*Scope.choices, (FAMILIES, _("Scene families"))]


class Assignment(models.Model):
    """Practice set for a cohort: a number of questions on a rule, sections or chosen scenarios,
    or (kind "drills") a number of plays to call at match speed from scene families or sections.

    The scenarios are resolved and frozen when it is set (`scenario_links`), so content loaded
    later does not change what was asked. Progress counts each trainee's answers to them given
    after `created_at` and after the trainee joined.
    """

    cohort = models.ForeignKey(Cohort, on_delete=models.CASCADE, related_name="assignments")
    # What it asks, said in both languages when it is set ("Rule 37: Penalties", "Sections 3.b,
    # 37.6"), so that lists and the gradebook name it without reading the rulebook again.
    title_it = models.CharField(max_length=200)
    title_en = models.CharField(max_length=200)
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.QUESTIONS)
    scope = models.CharField(max_length=10, choices=SCOPES)
    #: A drill set's scene families (scenarios.scenes.Family values), when drawn from families.
    families = models.JSONField(default=list, blank=True)
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

    @property
    def is_drill(self) -> bool:
        return self.kind == Kind.DRILLS


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
