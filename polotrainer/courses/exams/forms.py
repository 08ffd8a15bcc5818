"""Forms of the exam side: an exam's settings and blueprint, extra time for one trainee."""

from datetime import tzinfo
from typing import Any

from django import forms
from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from polotrainer.courses.exams.models import Review
from polotrainer.courses.models import Cohort
from polotrainer.web import inputs
from scenarios.forms import situations_field
from scenarios.models import Rule, Scenario, ScenarioQuerySet, Section

PASS_PRESETS = [
    ("95", _("USPA outdoor: 95%")),
    ("94", _("USPA arena: 94%")),
    ("other", _("Another mark")),
]


class ExamForm(forms.Form):
    """An exam's settings. Its times are shown and read in `zone`, the course's time zone."""

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
    opens_at = inputs.DateTimeField(label=_("Opens"))
    closes_at = inputs.DateTimeField(label=_("Closes"))
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
    closed_book = forms.BooleanField(
        label=_("Closed book: no practice during an attempt"),
        required=False,
        initial=True,
        help_text=_(
            "While a trainee's attempt is open, practice, its “What if…?”, review and clinics "
            "give their account no ruling and no feedback; the rulebook stays open. Another device "
            "signed in as someone else, or not signed in, cannot be blocked: supervise a "
            "certification exam."
        ),
    )

    def __init__(
        self,
        *args: Any,
        zone: tzinfo,
        blueprint: bool = True,
        audience: int | None = None,
        **kwargs: Any,
    ) -> None:
        """`audience`: the instructor's user id, so the chosen situations may be ones their
        courses wrote too (scenarios.audience), as an assignment's may."""
        super().__init__(*args, **kwargs)
        self.audience = audience
        for name in ("opens_at", "closes_at"):
            field = self.fields[name]
            assert isinstance(field, inputs.DateTimeField)
            field.zone = zone
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
                label=ngettext(
                    "Anywhere in Rule %(number)s (%(count)d situation)",
                    "Anywhere in Rule %(number)s (%(count)d situations)",
                    total,
                )
                % {"number": rule.number, "count": total},
                min_value=0,
                max_value=total,
                required=False,
            )
            section_names = []
            for s in in_rule:
                name = f"section_{s.pk}"
                self.fields[name] = forms.IntegerField(
                    label=f"{s.label} ({counts[s.pk]})",
                    min_value=0,
                    max_value=counts[s.pk],
                    required=False,
                )
                section_names.append((s, name))
            self.rule_fields.append((rule, rule_name, section_names))
        chosen = situations_field(_("Chosen situations"))
        chosen.queryset = self.chosen_pool().select_related("section")
        self.fields["chosen"] = chosen
        self.fields["chosen_count"] = forms.IntegerField(
            label=_("How many of the chosen situations each attempt asks"),
            min_value=0,
            required=False,
        )

    def chosen_pool(self) -> ScenarioQuerySet:
        """What the chosen situations may be: the bundled ones not retired and the authored ones
        the instructor's courses publish. A rule or a section draws the bundled ones only, as an
        assignment's does (scenarios.scope.resolve)."""
        if self.audience is None:
            return Scenario.objects.live()
        return Scenario.objects.live_for(self.audience)

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
