"""The scope picker's form fields, one definition for assignments, exams and clinics: the rule,
the sections and the situations a set of questions is drawn from, and one set of messages for
a scope whose choice is missing. Its template is `templates/scenarios/scope.html`."""

from typing import TYPE_CHECKING, Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

if TYPE_CHECKING:
    from django.utils.functional import _StrOrPromise as StrOrPromise

from scenarios.models import Rule, Scenario, Section
from scenarios.scope import Scope


class RuleChoice(forms.ModelChoiceField[Rule]):
    def label_from_instance(self, obj: Any) -> str:
        return _("Rule %(number)s: %(title)s") % {"number": obj.number, "title": obj.title}


class SectionChoice(forms.ModelMultipleChoiceField[Section]):
    def label_from_instance(self, obj: Any) -> str:
        return str(obj.label)  # "3 Summary" for 3.summary: the rulebook's number


class ScenarioChoice(forms.ModelMultipleChoiceField[Scenario]):
    def label_from_instance(self, obj: Any) -> str:
        return f"{obj.section.citation} · {obj.title}"


def situations_field(label: "StrOrPromise | None" = None) -> ScenarioChoice:
    """Tick boxes for the live situations, each named by its citation and title."""
    return ScenarioChoice(
        label=label or gettext_lazy("Situations"),
        queryset=Scenario.objects.live().select_related("section"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )


#: What is missing for each scope, and where it is said.
MISSING = {
    Scope.RULE: ("rule", gettext_lazy("Choose a rule."), "no_rule"),
    Scope.SECTIONS: ("sections", gettext_lazy("Tick at least one section."), "no_sections"),
    Scope.SCENARIOS: ("scenarios", gettext_lazy("Tick at least one situation."), "no_scenarios"),
}


class ScopeForm(forms.Form):
    """The rule, sections and situations of a scope; a subclass adds the radio that chooses
    between them (named by `scope_field`) and calls `check_scope` from its `clean`."""

    scope_field = "scope"

    rule = RuleChoice(
        label=gettext_lazy("Rule"), queryset=Rule.objects.all(), required=False, empty_label="—"
    )
    sections = SectionChoice(
        label=gettext_lazy("Sections"),
        queryset=Section.objects.offered(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    scenarios = situations_field()

    def check_scope(self, data: dict[str, Any]) -> None:
        """An error on the field the chosen scope needs, when it is empty."""
        chosen = data.get(self.scope_field)
        if chosen in MISSING:
            name, message, code = MISSING[Scope(chosen)]
            if not data.get(name):
                self.add_error(name, forms.ValidationError(message, code=code))
