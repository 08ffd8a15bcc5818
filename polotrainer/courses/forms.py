"""Forms of the course side: course, cohort, assignment, observation, join code, people."""

from datetime import date
from typing import Any
from zoneinfo import available_timezones

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from polotrainer.courses.models import (
    Cohort,
    Course,
    Observation,
    Outcome,
    Rating,
    Review,
    Scope,
    Track,
)
from scenarios.models import Rule, Scenario, Section


class RuleChoice(forms.ModelChoiceField):
    def label_from_instance(self, obj: Any) -> str:
        return _("Rule %(number)s: %(title)s") % {"number": obj.number, "title": obj.title}


class SectionChoice(forms.ModelMultipleChoiceField):
    def label_from_instance(self, obj: Any) -> str:
        return f"{obj.ref} {obj.title}"


class ScenarioChoice(forms.ModelMultipleChoiceField):
    def label_from_instance(self, obj: Any) -> str:
        return f"{obj.section.ref} · {obj.title}"


def _time_zones() -> list[tuple[str, str]]:
    return [(name, name.replace("_", " ")) for name in sorted(available_timezones())]


class CourseForm(forms.ModelForm):
    # Radio buttons without the blank "select an option" a model field's choices would add.
    track = forms.ChoiceField(
        label=_("Track"), choices=Track.choices, initial=Track.OUTDOOR, widget=forms.RadioSelect
    )
    time_zone = forms.ChoiceField(
        label=_("Time zone"),
        choices=_time_zones,
        help_text=_("Due dates end at midnight in this time zone."),
    )

    class Meta:
        model = Course
        fields = ("title_it", "title_en", "track", "year", "time_zone")
        labels = {
            "title_it": _("Title in Italian"),
            "title_en": _("Title in English"),
            "year": _("Year"),
        }


class CohortForm(forms.ModelForm):
    join_expires_on = forms.DateField(
        label=_("Join code valid until (optional)"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text=_("The last day the code works, in the course's time zone. Empty: no end."),
    )

    class Meta:
        model = Cohort
        fields = ("name", "max_trainees")
        labels = {"name": _("Name"), "max_trainees": _("Enrolment limit (optional)")}
        help_texts = {
            "name": _("For example the season and the place: Spring 2026, Rome."),
            "max_trainees": _("How many trainees may join. Empty: no limit."),
        }


class AssignmentForm(forms.Form):
    scope = forms.ChoiceField(
        label=_("Questions drawn from"),
        choices=Scope.choices,
        initial=Scope.SECTIONS,
        widget=forms.RadioSelect,
    )
    rule = RuleChoice(label=_("Rule"), queryset=Rule.objects.all(), required=False, empty_label="—")
    sections = SectionChoice(
        label=_("Sections"),
        queryset=Section.objects.filter(scenarios__retired=False).distinct(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    scenarios = ScenarioChoice(
        label=_("Situations"),
        queryset=Scenario.objects.live().select_related("section"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    questions = forms.IntegerField(
        label=_("Number of questions"),
        min_value=1,
        max_value=200,
        initial=10,
        help_text=_("Each answer to one question counts: a situation may ask two or three."),
    )
    due_on = forms.DateField(
        label=_("Due date"),
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text=_("Due by the end of this day in the course's time zone."),
    )
    note = forms.CharField(
        label=_("Note for the trainees (optional)"),
        max_length=300,
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        scope = data.get("scope")
        if scope == Scope.RULE and not data.get("rule"):
            self.add_error("rule", forms.ValidationError(_("Choose a rule."), code="no_rule"))
        if scope == Scope.SECTIONS and not data.get("sections"):
            self.add_error(
                "sections",
                forms.ValidationError(_("Tick at least one section."), code="no_sections"),
            )
        if scope == Scope.SCENARIOS and not data.get("scenarios"):
            self.add_error(
                "scenarios",
                forms.ValidationError(_("Tick at least one situation."), code="no_scenarios"),
            )
        return data


class AssignmentChangeForm(forms.Form):
    questions = AssignmentForm.base_fields["questions"]
    due_on = AssignmentForm.base_fields["due_on"]
    note = AssignmentForm.base_fields["note"]


class ObservationForm(forms.ModelForm):
    outcome = forms.ChoiceField(
        label=_("Outcome"), choices=Outcome.choices, widget=forms.RadioSelect
    )
    rating = forms.ChoiceField(
        label=_("Recommended rating (optional)"),
        choices=[("", "—"), *Rating.choices],
        required=False,
    )

    class Meta:
        model = Observation
        fields = ("observed_on", "game", "outcome", "rating", "notes")
        labels = {
            "observed_on": _("Date of the game"),
            "game": _("Game"),
            "notes": _("Notes"),
        }
        help_texts = {
            "game": _("Teams, tournament and ground, as you would write them in a report."),
            "notes": _("What went well and what to work on: the trainee reads this."),
        }
        widgets = {
            "observed_on": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "notes": forms.Textarea(attrs={"rows": 4}),
        }

    def clean_observed_on(self) -> date:
        day: date = self.cleaned_data["observed_on"]
        if day > timezone.localdate():
            raise forms.ValidationError(
                _("An observation records a game already played: the date is in the future."),
                code="future",
            )
        return day


class JoinForm(forms.Form):
    code = forms.CharField(
        label=_("Join code"),
        max_length=20,
        help_text=_("Six letters and digits, from your instructor. Capitals or not: both work."),
        widget=forms.TextInput(
            attrs={
                "autocomplete": "off",
                "autocapitalize": "characters",
                "spellcheck": "false",
                "class": "code-input",
            }
        ),
    )


class PersonForm(forms.Form):
    """Someone with an account, named by username or e-mail."""

    person = forms.CharField(label=_("Username or e-mail"), max_length=254)

    def clean_person(self) -> User:
        text = self.cleaned_data["person"].strip()
        found = list(
            get_user_model().objects.filter(
                Q(username__iexact=text) | Q(email__iexact=text), is_active=True
            )[:2]
        )
        if len(found) != 1:
            raise forms.ValidationError(
                _("No account has this username or e-mail."), code="no_such_person"
            )
        return found[0]


# --- exams -------------------------------------------------------------------------------------

PASS_PRESETS = [
    ("95", _("USPA outdoor: 95%")),
    ("94", _("USPA arena: 94%")),
    ("other", _("Another mark")),
]


class ExamForm(forms.Form):
    """An exam's settings. Dates are read in the course's time zone (the view activates it)."""

    title_it = forms.CharField(label=_("Title in Italian"), max_length=200)
    title_en = forms.CharField(label=_("Title in English"), max_length=200)
    pass_preset = forms.ChoiceField(
        label=_("Pass mark"), choices=PASS_PRESETS, widget=forms.RadioSelect, initial="95"
    )
    pass_percent = forms.IntegerField(
        label=_("Another pass mark (%)"), min_value=1, max_value=100, required=False
    )
    time_limit_minutes = forms.IntegerField(
        label=_("Time limit (minutes)"), min_value=1, max_value=600, initial=30
    )
    opens_at = forms.DateTimeField(
        label=_("Opens"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
    )
    closes_at = forms.DateTimeField(
        label=_("Closes"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
    )
    attempts_allowed = forms.IntegerField(
        label=_("Attempts allowed"), min_value=1, max_value=20, initial=1
    )
    cooldown_hours = forms.IntegerField(
        label=_("Hours between attempts"),
        min_value=0,
        max_value=24 * 365,
        initial=0,
        help_text=_("0: the next attempt may start at once. 4320 hours are 6 months."),
    )
    review_after_submit = forms.TypedChoiceField(
        label=_("Right after submitting, the trainee sees"),
        choices=Review.choices,
        coerce=int,
        initial=Review.SCORE,
        widget=forms.RadioSelect,
    )
    review_after_close = forms.TypedChoiceField(
        label=_("Once the exam has closed, the trainee sees"),
        choices=Review.choices,
        coerce=int,
        initial=Review.ANSWERS,
        widget=forms.RadioSelect,
    )

    def __init__(self, *args: Any, blueprint: bool = True, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.blueprint = blueprint
        self.rule_fields: list[tuple[Rule, str, list[tuple[Section, str]]]] = []
        if not blueprint:
            return
        live = Scenario.objects.live()
        counts: dict[int, int] = {}
        for section_id in live.values_list("section_id", flat=True):
            counts[section_id] = counts.get(section_id, 0) + 1
        sections = Section.objects.filter(pk__in=counts).select_related("rule")
        for rule in Rule.objects.filter(sections__in=sections).distinct():
            in_rule = [s for s in sections if s.rule_id == rule.pk]
            total = sum(counts[s.pk] for s in in_rule)
            rule_name = f"rule_{rule.pk}"
            self.fields[rule_name] = forms.IntegerField(
                label=_("Anywhere in Rule %(number)s (%(count)d situations)")
                % {"number": rule.number, "count": total},
                min_value=0,
                max_value=total,
                required=False,
            )
            section_names = []
            for s in in_rule:
                name = f"section_{s.pk}"
                self.fields[name] = forms.IntegerField(
                    label=f"{s.ref} {s.title} ({counts[s.pk]})",
                    min_value=0,
                    max_value=counts[s.pk],
                    required=False,
                )
                section_names.append((s, name))
            self.rule_fields.append((rule, rule_name, section_names))
        self.fields["chosen"] = ScenarioChoice(
            label=_("Chosen situations"),
            queryset=live.select_related("section"),
            required=False,
            widget=forms.CheckboxSelectMultiple,
        )
        self.fields["chosen_count"] = forms.IntegerField(
            label=_("How many of the chosen situations each attempt asks"),
            min_value=0,
            required=False,
        )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("pass_preset") == "other" and not data.get("pass_percent"):
            self.add_error(
                "pass_percent",
                forms.ValidationError(_("Give the pass mark, 1 to 100."), code="no_pass_mark"),
            )
        opens, closes = data.get("opens_at"), data.get("closes_at")
        if opens and closes and closes <= opens:
            self.add_error(
                "closes_at",
                forms.ValidationError(_("The exam must close after it opens."), code="order"),
            )
        chosen = data.get("chosen") or []
        count = data.get("chosen_count") or 0
        if self.blueprint and count > len(chosen):
            self.add_error(
                "chosen_count",
                forms.ValidationError(
                    _("Tick at least as many situations as each attempt asks."), code="too_few"
                ),
            )
        return data

    def groups(self) -> list[tuple[forms.BoundField, list[forms.BoundField]]]:
        """The blueprint's inputs: per rule, its own count and one per section."""
        return [
            (self[rule_name], [self[name] for _section, name in sections])
            for _rule, rule_name, sections in self.rule_fields
        ]

    @property
    def pass_mark(self) -> int:
        preset = self.cleaned_data["pass_preset"]
        return int(self.cleaned_data["pass_percent"] if preset == "other" else preset)


class AccommodationForm(forms.Form):
    trainee = forms.ModelChoiceField(
        label=_("Trainee"), queryset=User.objects.none(), empty_label="—"
    )
    extra_minutes = forms.IntegerField(
        label=_("Extra time (minutes)"), min_value=0, max_value=600, initial=0
    )
    extra_attempts = forms.IntegerField(
        label=_("Extra attempts"), min_value=0, max_value=20, initial=0
    )

    def __init__(self, *args: Any, cohort: Cohort, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["trainee"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = User.objects.filter(cohort_memberships__cohort=cohort).order_by("username")
