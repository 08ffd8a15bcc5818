"""Which situations a drill can play: the live scenarios a scene family plays, by family.

One home for the question "is this drillable?", asked by the self-study drill (all of them) and
by a course's drill set (those of the families or sections an instructor chose). A scenario is
drillable when a family plays its rulebook numbers (seed 0) and it asks no order question (a
procedure's steps in order are study, not a call at match speed); its variants may fall outside the
family, which is why the drill draws a seed a family plays for each item.
"""

from collections.abc import Iterable

from django.utils.translation import gettext_lazy

from scenarios import quiz, scenes
from scenarios.models import Scenario
from scenarios.questions import build_questions
from scenarios.variants import Variant, VariantError, fresh_seed

#: Each family as the instructor's form and the gradebook name it.
FAMILY_LABELS = {
    scenes.Family.SAFETY: gettext_lazy("Safety or not"),
    scenes.Family.NEAR_GOAL: gettext_lazy("Fouls near goal"),
    scenes.Family.ADVANTAGE: gettext_lazy("Calling the advantage"),
    scenes.Family.STOP_FOR: gettext_lazy("When to stop play (Rule 21)"),
    scenes.Family.WHISTLE: gettext_lazy("The inadvertent whistle"),
    scenes.Family.HORN: gettext_lazy("A foul at the horn"),
    scenes.Family.LINEUP: gettext_lazy("Who stands wrong at a penalty"),
}


def situation_en(scenario: Scenario, variant: Variant) -> str:
    """The situation in English, as a scene reads it (who is named, where, a break in play)."""
    return str(variant.render(scenario.data["situation"], "en"))


def by_family(
    scenarios: Iterable[Scenario] | None = None,
) -> dict[scenes.Family, list[Scenario]]:
    """The scenarios a scene family plays (by default every live bundled one), by family."""
    if scenarios is None:
        scenarios = Scenario.objects.filter(retired=False).select_related("section")
    out: dict[scenes.Family, list[Scenario]] = {}
    for scenario in scenarios:
        try:
            variant = quiz.variant_of(scenario, 0)
        except VariantError:
            continue
        if any(
            q.type == "order" for q in build_questions(scenario.kind, scenario.data, variant.facts)
        ):
            # Putting a procedure's steps in order is study, not a call under a countdown.
            continue
        family = scenes.family_of(scenario.kind, variant.facts, situation_en(scenario, variant))
        if family is not None:
            out.setdefault(family, []).append(scenario)
    return out


def playable_seed(scenario: Scenario) -> tuple[int, str]:
    """A fresh seed whose variant a family plays (a scenario's incident may vary by seed), and
    that family; seed 0 (the rulebook's own numbers) and its family ("" if none) after 20 tries."""
    for _ in range(20):
        seed = fresh_seed()
        try:
            variant = quiz.variant_of(scenario, seed)
        except VariantError:
            continue
        family = scenes.family_of(scenario.kind, variant.facts, situation_en(scenario, variant))
        if family is not None:
            return seed, family.value
    first = quiz.variant_of(scenario, 0)
    family = scenes.family_of(scenario.kind, first.facts, situation_en(scenario, first))
    return 0, family.value if family else ""


def scene_of(posed: quiz.Posed) -> scenes.Scene:
    """The scene of a posed variant (the self-study drill's plays and a clinic's drill rounds);
    scenes.SceneError if no family plays it."""
    variant = posed.variant
    return scenes.scene_for(
        posed.slug,
        posed.seed,
        variant.facts,
        variant.values,
        variant.ruling,
        kind=posed.spec.kind,
        situation_en=variant.render(posed.spec.situation.as_dict(), "en"),
    )
