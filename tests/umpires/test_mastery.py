"""Mastery per section and per rule: the definition written on the dashboard."""

import pytest

from polotrainer.umpires.mastery import mastery, score, scores_by_user
from polotrainer.umpires.models import ScenarioProgress
from tests.people import answer, days_ago

pytestmark = pytest.mark.django_db


def by_ref(items):
    return {m.ref: m for m in items}


def test_nothing_answered_is_zero_everywhere(trainee, rulebook):
    sections, rules = mastery(trainee)
    assert [m.percent for m in sections] == [0, 0, 0]
    assert {m.ref for m in rules} == {"3", "21"}


def test_a_section_averages_its_scenarios_counting_unanswered_ones_as_zero(trainee, rulebook):
    answer(trainee, rulebook["3a-one"], correct=True)
    sections, rules = mastery(trainee)
    assert by_ref(sections)["3.a"].score == 0.5  # one of two situations fully right
    assert by_ref(sections)["3.a"].answered == 1
    assert by_ref(rules)["3"].score == pytest.approx(1 / 3)


def test_only_the_last_five_answers_to_a_scenario_count(trainee, rulebook):
    scenario = rulebook["3b"]
    for n in range(10, 5, -1):  # five old wrong answers
        answer(trainee, scenario, correct=False, when=days_ago(n))
    for n in range(5, 1, -1):  # then four right ones
        answer(trainee, scenario, correct=True, when=days_ago(n))
    assert by_ref(mastery(trainee)[0])["3.b"].score == pytest.approx(4 / 5)
    answer(trainee, scenario, correct=True, when=days_ago(1))
    assert by_ref(mastery(trainee)[0])["3.b"].score == 1


def test_weakest_comes_first(trainee, rulebook):
    answer(trainee, rulebook["3b"], correct=True)
    answer(trainee, rulebook["21a"], correct=True)
    answer(trainee, rulebook["3a-one"], correct=True)
    sections, rules = mastery(trainee)
    assert [m.ref for m in sections] == ["3.a", "3.b", "21.a"]
    assert [m.ref for m in rules] == ["3", "21"]


def test_another_trainees_answers_do_not_count(trainee, other_trainee, rulebook):
    answer(other_trainee, rulebook["3b"], correct=True)
    assert by_ref(mastery(trainee)[0])["3.b"].score == 0


def test_retired_scenarios_do_not_count(trainee, rulebook):
    rulebook["3a-two"].retired = True
    rulebook["3a-two"].save(update_fields=["retired"])
    answer(trainee, rulebook["3a-one"], correct=True)
    assert by_ref(mastery(trainee)[0])["3.a"].score == 1


@pytest.mark.parametrize("joined", [None, 30, 6, 3, 0])
def test_the_score_kept_beside_the_answers_is_the_score_they_give(trainee, rulebook, joined):
    """A cohort's scores are read from the summary kept with the last answers, decoding them
    only for a trainee who joined after some of them: the same figures either way."""
    for n, (slug, right) in enumerate(
        [("3b", False), ("3b", True), ("21a", True), ("3b", True), ("3a-one", False)] * 2
    ):
        answer(trainee, rulebook[slug], correct=right, when=days_ago(10 - n))
    answer(trainee, rulebook["3b"], correct=False, when=days_ago(12))  # given after, older
    since = None if joined is None else days_ago(joined, hour=0)
    expected = {
        p.scenario_id: s
        for p in ScenarioProgress.objects.filter(user=trainee)
        if (s := score(p.recent, since)) is not None
    }
    found = scores_by_user([trainee.pk], {trainee.pk: since} if since else None)
    assert found.get(trainee.pk, {}) == expected
