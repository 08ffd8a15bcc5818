"""Forms of the clinics: a new session, joining one, the Wi-Fi card, importing results."""

from typing import Any

from django import forms
from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy as _

from polotrainer.clinics.models import ClinicSet
from polotrainer.clinics.sessions import MAX_ROUNDS, MAX_TEAMS
from polotrainer.courses.models import Assignment
from polotrainer.web import inputs
from scenarios.forms import ScopeForm
from scenarios.models import Scenario
from scenarios.scope import Scope

ASSIGNMENT = "assignment"
NAMED = "named"


class AssignmentChoice(forms.ModelChoiceField[Assignment]):
    def label_from_instance(self, obj: Any) -> str:
        return f"{obj.cohort.name}: {obj.title}"


class SessionForm(ScopeForm):
    scope_field = "source"

    title = forms.CharField(label=_("Title"), max_length=120, initial=_("Umpire clinic"))
    source = forms.ChoiceField(
        label=_("Rounds drawn from"),
        choices=[
            *Scope.choices,
            (ASSIGNMENT, _("A cohort's assignment")),
            (NAMED, _("One of my sets")),
        ],
        initial=Scope.SECTIONS,
        widget=forms.RadioSelect,
    )
    assignment = AssignmentChoice(
        label=_("Assignment"), queryset=Assignment.objects.none(), required=False, empty_label="—"
    )
    named_set = forms.ModelChoiceField(
        label=_("My set"),
        queryset=ClinicSet.objects.none(),
        required=False,
        empty_label="—",
        help_text=_("A set runs its situations in its own order, up to the number of rounds."),
    )
    rounds = forms.IntegerField(
        label=_("Number of rounds"),
        min_value=1,
        max_value=MAX_ROUNDS,
        initial=8,
        help_text=_("A round is one situation with all its questions."),
    )
    time_limit = forms.IntegerField(
        label=_("Time limit per round, in seconds (optional)"),
        min_value=5,
        max_value=600,
        required=False,
        help_text=_("Empty: you close each round yourself."),
    )
    drills = forms.BooleanField(
        label=_("Play the situations as drills"),
        required=False,
        help_text=_(
            "Each situation a scene can show plays on the projector at match speed and stops "
            "where the whistle is due; the phones then have 5 seconds to call it. Situations "
            "with no scene stay ordinary rounds."
        ),
    )
    speed_bonus = forms.BooleanField(
        label=_("Speed bonus: up to half a point more for a quick right answer"), required=False
    )
    streaks = forms.BooleanField(
        label=_("Streak bonus for rounds answered all right one after another"), required=False
    )
    teams = forms.CharField(
        label=_("Teams (optional)"),
        required=False,
        max_length=600,
        widget=inputs.Textarea(attrs={"rows": 2}),
        help_text=_("One name per line, at most 12. A team's score is its members' average."),
    )

    def __init__(self, *args: Any, instructor: User, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["assignment"].queryset = (  # type: ignore[attr-defined]
            Assignment.objects.filter(cohort__course__instructors=instructor)
            .select_related("cohort")
            .order_by("-created_at")
        )
        self.fields["named_set"].queryset = ClinicSet.objects.filter(  # type: ignore[attr-defined]
            instructor=instructor
        )
        # Chosen situations may be ones the instructor's courses wrote (scenarios.audience).
        self.fields["scenarios"].queryset = (  # type: ignore[attr-defined]
            Scenario.objects.live_for(instructor.pk).select_related("section")
        )

    def clean_teams(self) -> list[str]:
        names = [
            line.strip()[:40] for line in self.cleaned_data["teams"].splitlines() if line.strip()
        ]
        if len(names) > MAX_TEAMS:
            raise forms.ValidationError(_("At most 12 teams."), code="too_many_teams")
        return names

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        self.check_scope(data)
        if data.get("source") == ASSIGNMENT and not data.get("assignment"):
            self.add_error(
                "assignment",
                forms.ValidationError(_("Choose an assignment."), code="no_assignment"),
            )
        if data.get("source") == NAMED and not data.get("named_set"):
            self.add_error(
                "named_set", forms.ValidationError(_("Choose one of your sets."), code="no_set")
            )
        return data


class SetForm(forms.Form):
    """The name of a set saved from a clinic that ended."""

    name = forms.CharField(
        label=_("Name of the set"),
        max_length=200,  # a longer one is cut, with no silent browser limit
        required=False,
    )


class JoinForm(forms.Form):
    nickname = forms.CharField(
        label=_("Your nickname"),
        max_length=200,  # longer ones get our own message, not the browser's silent cut
        required=False,
        widget=forms.TextInput(attrs={"autocomplete": "nickname", "autocapitalize": "words"}),
        help_text=_("Shown on the projector's leaderboard: at most 24 characters."),
    )


class PinForm(forms.Form):
    pin = forms.CharField(
        label=_("Game PIN"),
        max_length=40,
        widget=forms.TextInput(
            attrs={"inputmode": "numeric", "autocomplete": "off", "pattern": "[0-9 -]*"}
        ),
    )


class WifiForm(forms.Form):
    ssid = forms.CharField(label=_("Network name"), max_length=32)
    password = forms.CharField(
        label=_("Password (empty for an open network)"),
        max_length=63,
        required=False,
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )


class ImportForm(forms.Form):
    file = forms.FileField(label=_("A clinic's results file (.json)"))
