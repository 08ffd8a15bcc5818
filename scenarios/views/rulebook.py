"""The rulebook reader: rules, sections, the glossary.

Texts are shown in the page's language with the other language one click away; glossary terms
are linked in both. The glossary is fetched once per request and reused for every text.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models.functions import Lower
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_safe

from polotrainer.rules import PenaltySpotSituation, SpotPenalty, decide_penalty_spot, field
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


def spot_diagram(f: field.Field = field.DEFAULT_FIELD) -> dict[str, Any]:
    """Where the to-scale diagram draws lines and spots: the engine's field, in SVG units.

    One unit is one yard; SVG's y runs downwards, so the field's y is negated. The diagram shows
    the fouling team's half, from its goal line to the centre, where every fixed spot lies.
    """
    goal = f.goal_line_x
    half = f.half_width
    lines = [{"yards": int(d), "x": f.line_x(d)} for d in field.LINE_DISTANCES]
    # Penalty 6 from a ball that crossed at the side: the engine's farthest spot bounds the band.
    far = decide_penalty_spot(
        PenaltySpotSituation(SpotPenalty.P6, field=f, crossing_y=f.half_width)
    ).spot
    p6 = far.y
    margin = 14.0
    return {
        "view_box": f"{goal - margin} {-half - 18} {-goal + 2 * margin} {2 * half + 30}",
        "goal_x": goal,
        "half_width": half,
        "field_top": -half,
        "field_height": 2 * half,
        "field_length": -goal,
        "post": field.GOAL_POST_HALF_WIDTH,
        "goal_depth": 3.0,
        "lines": lines,
        "label_y": -half - 5,
        # Where each fixed spot is, the engine says; labels sit off the spots, alternately below
        # and above, so neighbours 10 yards apart stay readable at phone width.
        "spots": [
            {"penalty": penalty, **_spot(f, penalty), **offsets}
            for penalty, offsets in (
                ("2", {"label_dy": 15.0}),
                ("3", {"label_dy": -9.0}),
                ("4", {"label_dx": 8.0, "label_dy": 15.0}),
                ("5b", {"label_dx": -11.0}),
            )
        ],
        "p6": {"x": far.x, "top": -p6, "height": 2 * p6, "label_y": -p6 - 4},
        "centre_x": field.CENTRE.x,
        "caption_y": half + 9,
    }


def _spot(f: field.Field, penalty: str) -> dict[str, float]:
    spot = decide_penalty_spot(PenaltySpotSituation(SpotPenalty(penalty), field=f)).spot
    return {"x": spot.x, "y": spot.y}


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
            "diagram": spot_diagram(),
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
            "diagram": spot_diagram(),
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
