"""What a set of questions is drawn from: a whole rule, sections, or chosen situations.

One home for the scope of assignments, exams and clinics (it is about the material, so it lives
with the material): the choice (`Scope`), the live scenarios a scope asks (`resolve`) and its
name in both languages (`titles`). Its form fields are `scenarios.forms.ScopeForm`, its picker
`templates/scenarios/scope.html` (the whole picker, and its `situations` partial alone).
"""

from collections.abc import Iterable, Sequence

from django.db import models
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from scenarios.models import Rule, Scenario, Section, heading


class Scope(models.TextChoices):
    """What an assignment's (or a clinic's) questions are drawn from."""

    RULE = "rule", gettext_lazy("A whole rule")
    SECTIONS = "sections", gettext_lazy("Sections")
    SCENARIOS = "scenarios", gettext_lazy("Chosen situations")


def resolve(
    scope: str,
    rule: Rule | None = None,
    sections: Iterable[Section] = (),
    scenarios: Iterable[Scenario] = (),
    audience: int | None = None,
) -> list[int]:
    """The live scenarios a scope asks, in rulebook order. A rule or sections ask the bundled
    ones; chosen situations may be a course's own too, among those the person setting it may
    meet (`audience`, a user id: scenarios.audience)."""
    live = Scenario.objects.live()
    if scope not in (Scope.RULE, Scope.SECTIONS) and audience is not None:
        live = Scenario.objects.live_for(audience)
    if scope == Scope.RULE:
        live = live.filter(rule=rule) if rule is not None else live.none()
    elif scope == Scope.SECTIONS:
        live = live.filter(section__in=list(sections))
    else:
        live = live.filter(pk__in=[s.pk for s in scenarios])
    return list(live.values_list("pk", flat=True))


def titles(
    scope: str, rule: Rule | None, sections: Sequence[Section], count: int
) -> dict[str, str]:
    """What a scope asks, in each language: the rule, the sections or a count."""
    out = {}
    for lang in ("it", "en"):
        with translation.override(lang):
            if scope == Scope.RULE and rule is not None:
                text = _("Rule %(number)s: %(title)s") % {
                    "number": rule.number,
                    "title": getattr(rule, f"title_{lang}"),
                }
            elif scope == Scope.SECTIONS:
                refs = ", ".join(
                    heading(s.ref, getattr(s, f"title_{lang}"))
                    for s in sorted(sections, key=lambda s: (s.rule_id, s.position))
                )
                text = ngettext("Section %(refs)s", "Sections %(refs)s", len(sections)) % {
                    "refs": refs
                }
            else:
                text = ngettext(
                    "%(count)d chosen situation", "%(count)d chosen situations", count
                ) % {"count": count}
        out[lang] = text[:200]
    return out
