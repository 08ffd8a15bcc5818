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
from django.utils.translation import ngettext

from polotrainer.courses.models import (
    FAMILIES,
    SCOPES,
    Cohort,
    Course,
    Kind,
    Observation,
    Outcome,
    Rating,
    Track,
)
from polotrainer.web import inputs
from scenarios import drillable
from scenarios.forms import ScenarioChoice, ScopeForm
from scenarios.models import Scenario
from scenarios.scope import Scope


def _time_zones() -> list[tuple[str, str]]:
    return [(name, name.replace("_", " ")) for name in sorted(available_timezones())]


def too_many_plays() -> str:
    """The refusal of a drill set above DRILL_MAX plays (the form's and the edit's)."""
    return ngettext(
        "A drill set has at most %(most)d play.",
        "A drill set has at most %(most)d plays.",
        DRILL_MAX,
    ) % {"most": DRILL_MAX}


class CourseForm(forms.ModelForm[Course]):
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


class CohortForm(forms.ModelForm[Cohort]):
    join_expires_on = inputs.DateField(
        label=_("Join code valid until (optional)"),
        required=False,
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


#: The most plays a drill set asks (five sets of 20: four sessions of 60 incidents trained
#: assistant referees; more in one assignment is a season, not homework).
DRILL_MAX = 100


class AssignmentForm(ScopeForm):
    kind = forms.ChoiceField(
        label=_("What the trainees do"),
        choices=Kind.choices,
        initial=Kind.QUESTIONS,
        required=False,  # none sent: questions, as before there were drill sets
        widget=forms.RadioSelect,
        help_text=_(
            "Questions are answered through ordinary practice; a drill set plays each situation "
            "on the field at match speed, to be called in seconds."
        ),
    )
    scope = forms.ChoiceField(
        label=_("Questions drawn from"),
        choices=SCOPES,
        initial=Scope.SECTIONS,
        widget=forms.RadioSelect,
    )
    families = forms.MultipleChoiceField(
        label=_("Scene families (drill sets)"),
        choices=[(f.value, label) for f, label in drillable.FAMILY_LABELS.items()],
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    questions = forms.IntegerField(
        label=_("Number of questions (or of plays, for a drill set)"),
        min_value=1,
        max_value=200,
        initial=10,
        help_text=_(
            "Each answer to one question counts: a situation may ask two or three. In a drill "
            "set each play counts once."
        ),
        error_messages={
            "min_value": _("Ask for at least one: a set with nothing in it cannot be done."),
        },
    )
    due_on = inputs.DateField(
        label=_("Due date"),
        help_text=_("Due by the end of this day in the course's time zone."),
    )
    note = forms.CharField(
        label=_("Note for the trainees (optional)"),
        max_length=300,
        required=False,
        widget=inputs.Textarea(attrs={"rows": 2}),
    )

    def __init__(self, *args: Any, audience: int | None = None, **kwargs: Any) -> None:
        """`audience`: the instructor's user id, so the situations to choose from include the
        ones their courses wrote (scenarios.audience); a trainee is only ever asked what they
        may meet (assignments.next_scenario)."""
        super().__init__(*args, **kwargs)
        if audience is not None:
            field = self.fields["scenarios"]
            assert isinstance(field, ScenarioChoice)
            field.queryset = Scenario.objects.live_for(audience).select_related("section")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        self.check_scope(data)
        data["kind"] = data.get("kind") or Kind.QUESTIONS
        scope = data.get("scope")
        if data.get("kind") == Kind.DRILLS:
            if scope not in (FAMILIES, Scope.SECTIONS):
                self.add_error(
                    "scope",
                    forms.ValidationError(
                        _("A drill set is drawn from scene families or from sections."),
                        code="drill_scope",
                    ),
                )
            elif scope == FAMILIES and not data.get("families"):
                self.add_error(
                    "families",
                    forms.ValidationError(_("Tick at least one scene family."), code="no_families"),
                )
            questions = data.get("questions")
            if questions is not None and questions > DRILL_MAX:
                self.add_error(
                    "questions",
                    forms.ValidationError(
                        too_many_plays(),
                        code="too_many_plays",
                    ),
                )
        elif scope == FAMILIES:
            self.add_error(
                "scope",
                forms.ValidationError(
                    _("Scene families are for drill sets: choose a rule, sections or situations."),
                    code="families_for_drills",
                ),
            )
        return data


class AssignmentChangeForm(forms.Form):
    questions = AssignmentForm.base_fields["questions"]
    due_on = AssignmentForm.base_fields["due_on"]
    note = AssignmentForm.base_fields["note"]


class ObservationForm(forms.ModelForm[Observation]):
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
        field_classes = {"observed_on": inputs.DateField}
        widgets = {"notes": inputs.Textarea(attrs={"rows": 4})}

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
