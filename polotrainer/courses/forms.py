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

from polotrainer.courses.models import Cohort, Course, Observation, Outcome, Rating, Scope, Track
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
