"""Which bundled situations a drill plays: every family has some, none asks an order question."""

import pytest

from scenarios import drillable, scenes
from scenarios.questions import build_questions
from scenarios.variants import make_variant
from tests.content import load_shipped


@pytest.mark.django_db
def test_every_family_plays_bundled_situations_and_none_asks_for_an_order():
    load_shipped()
    found = drillable.by_family()
    assert set(found) == set(scenes.Family)
    assert set(drillable.FAMILY_LABELS) == set(scenes.Family)
    slugs = {s.slug for family in found.values() for s in family}
    # Rule 21's procedures (steps in order) have scenes but are study, not a call at speed.
    assert "order-injured-horse" not in slugs and "order-horse-falls" not in slugs
    for family in found.values():
        for scenario in family:
            variant = make_variant(scenario.slug, scenario.data, 0)
            types = {q.type for q in build_questions(scenario.kind, scenario.data, variant.facts)}
            assert "order" not in types, scenario.slug
