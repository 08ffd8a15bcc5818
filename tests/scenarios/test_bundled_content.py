"""The content the app ships: complete, valid, fair, and ruled by the engine for every sampled seed.

This module is where CI runs `content check` over the bundled content: every fairness check on the
same 40 seeds the command samples.
"""

import pytest

from scenarios.content import CHECKS, SAMPLE_SEEDS, read_content


@pytest.fixture(scope="module")
def content():
    return read_content(sample=SAMPLE_SEEDS)


def test_the_bundled_content_passes_every_fairness_check_on_forty_seeds(content):
    assert len(SAMPLE_SEEDS) >= 40
    assert [str(p) for p in content.problems] == []
    counts = content.check_counts()
    assert set(counts) == set(CHECKS)
    assert all(looked_at > 0 for looked_at, _ in counts.values())


def test_every_worked_example_case_of_the_seeds_is_covered(content):
    counts = content.counts()
    assert counts["worked-example cases"] == 28
    assert counts["worked-example cases covered"] == 28


def test_there_are_at_least_eighty_scenarios_across_the_three_rules(content):
    assert len(content.scenarios) >= 80
    rules = {content.sections[s["section"]]["rule"] for s in content.scenarios}
    assert rules == {3, 21, 37}


def test_penalties_2_to_6_have_placement_and_position_scenarios(content):
    def penalties(kind, asks):
        found = set()
        for s in content.scenarios:
            if s["kind"] == kind and any(q["ask"] in asks for q in s["question"]):
                found.add(str(s["facts"].get("penalty")))
        return found

    wanted = {"2", "3", "4", "5a", "5b", "6"}
    assert wanted <= penalties("penalty_spot", {"spot"})
    assert wanted <= penalties("penalty_positions", {"out_of_position", "requirements"})


def test_every_rule_21_incident_has_a_scenario(content):
    from polotrainer.rules.stoppages import Incident

    used = {s["facts"].get("incident") for s in content.scenarios if s["kind"] == "stoppage"}
    assert {i.value for i in Incident} <= used


def test_most_scenarios_have_variants(content):
    parametric = [s for s in content.scenarios if s.get("params")]
    assert len(parametric) >= 0.8 * len(content.scenarios)
    assert content.variants_sampled >= len(SAMPLE_SEEDS) * len(parametric)
