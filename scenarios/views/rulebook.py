"""The rulebook reader: rules, sections, the glossary.

Texts are shown in the page's language with the other language one click away; glossary terms
are linked in both. The glossary is fetched once per request and reused for every text.
"""

from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models.functions import Lower
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import translation
from django.utils.safestring import SafeString
from django.utils.translation import gettext
from django.views.decorators.http import require_safe

from polotrainer.rules import PenaltySpotSituation, SpotPenalty, decide_penalty_spot, field
from scenarios import diagram
from scenarios.glossary_links import Term
from scenarios.localize import current_language, localize, other_language, pick
from scenarios.models import GlossaryTerm, Rule, Section
from scenarios.texts import Text, bilingual, glossary_terms


@dataclass(frozen=True)
class Case:
    id: str
    title: str
    other_title: str
    body: Text


@dataclass(frozen=True)
class Spot:
    penalty: str
    body: Text


@dataclass(frozen=True)
class Reading:
    """A section as the reader shows it: paragraphs, the spot list at its place, the cases."""

    section: Section
    paragraphs: list[Text]
    cases: list[Case]
    spots_intro: Text | None
    spots: list[Spot]
    spots_after: int


def _reading(section: Section, terms: Sequence[Term]) -> Reading:
    lang = current_language()
    spots = section.spots or {}
    return Reading(
        section=section,
        paragraphs=[bilingual(p, lang, terms) for p in section.paragraphs],
        cases=[
            Case(
                id=case["id"],
                title=pick(case["title"], lang),
                other_title=pick(case["title"], other_language(lang)),
                body=bilingual(case, lang, terms),
            )
            for case in section.cases
        ],
        spots_intro=bilingual(spots["intro"], lang, terms) if spots.get("intro") else None,
        # The spot list is a legend to the diagram: its terms are linked in the text around it.
        spots=[Spot(item["penalty"], bilingual(item, lang, [])) for item in spots.get("item", [])],
        spots_after=int(spots.get("after_paragraph", len(section.paragraphs))),
    )


def spot_diagram(lang: str, f: field.Field = field.DEFAULT_FIELD) -> SafeString:
    """The to-scale diagram of the penalty spots: the fouling team's half of the engine's field,
    each fixed spot where the engine puts it, and Penalty 6's band. Drawn by the same renderer
    as every other field."""
    d = diagram.diagram_for({"field": {"length": f.length, "width": f.width}})
    # Penalty 6 from a ball that crossed at the side: the engine's farthest spot bounds the band.
    far = decide_penalty_spot(
        PenaltySpotSituation(SpotPenalty.P6, field=f, crossing_y=f.half_width)
    ).spot
    spots = [
        diagram.Spot(*_spot(f, penalty), label=penalty, dx=dx, dy=dy)
        for penalty, dx, dy in (("2", 0, 15), ("3", 0, -9), ("4", 8, 15), ("5b", -11, 4))
    ]
    with translation.override(lang):
        description = gettext(
            "Half of a polo field seen from above, from the fouling team's goal line on the "
            "left to the centre of the field on the right. Penalty 2 is on the 30-yard line, "
            "Penalty 3 on the 40-yard line and Penalty 4 on the 60-yard line, each opposite "
            "the centre of the goal. Penalty 5b is at the centre of the field. Penalty 6 is on "
            "the 60-yard line within the hatched band, no more than 40 yards either side of the "
            "centre."
        )
    return diagram.render(
        d,
        lang,
        view=diagram.goal_half(d),
        spots=spots,
        band=diagram.Band(far.x, far.y, "6"),
        label=description,
        uid="spots",
    )


def _spot(f: field.Field, penalty: str) -> tuple[float, float]:
    spot = decide_penalty_spot(PenaltySpotSituation(SpotPenalty(penalty), field=f)).spot
    return spot.x, spot.y


@require_safe
def rules(request: HttpRequest) -> HttpResponse:
    """The three rules and their sections."""
    entries = [
        {"rule": r, "notice": localize(r, "notice")}
        for r in Rule.objects.prefetch_related("sections")
    ]
    return render(request, "scenarios/rules.html", {"entries": entries})


@require_safe
def rule(request: HttpRequest, number: int) -> HttpResponse:
    """One rule, every section."""
    the_rule = get_object_or_404(Rule, number=number)
    terms = glossary_terms()
    readings = [_reading(s, terms) for s in the_rule.sections.all()]
    return render(
        request,
        "scenarios/rule.html",
        {
            "rule": the_rule,
            "notice": localize(the_rule, "notice"),
            "readings": readings,
            "diagram": spot_diagram(current_language()),
        },
    )


@require_safe
def section(request: HttpRequest, ref: str) -> HttpResponse:
    """One section, with the sections before and after it."""
    the_section = get_object_or_404(Section.objects.select_related("rule"), ref=ref)
    order = list(Section.objects.order_by("rule", "position").only("ref", "title_it", "title_en"))
    at = next(i for i, s in enumerate(order) if s.pk == the_section.pk)
    return render(
        request,
        "scenarios/section.html",
        {
            "rule": the_section.rule,
            "notice": localize(the_section.rule, "notice"),
            "reading": _reading(the_section, glossary_terms()),
            "previous": order[at - 1] if at > 0 else None,
            "next": order[at + 1] if at + 1 < len(order) else None,
            "diagram": spot_diagram(current_language()),
        },
    )


@require_safe
def glossary(request: HttpRequest) -> HttpResponse:
    """The bilingual glossary."""
    terms = GlossaryTerm.objects.order_by(Lower(f"term_{current_language()}"))
    refs = {ref for term in terms for ref in term.section_refs}
    titles = {
        s.ref: s for s in Section.objects.filter(ref__in=refs).only("ref", "title_it", "title_en")
    }
    entries = [
        {"term": term, "sections": [titles[r] for r in term.section_refs if r in titles]}
        for term in terms
    ]
    return render(request, "scenarios/glossary.html", {"entries": entries})
