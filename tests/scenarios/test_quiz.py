"""The quiz core: pose a variant, read and grade answers, check with the engine's reasons."""

import pytest

from scenarios import quiz
from scenarios.variants import make_variant
from tests.content import ORDER, make_scenario

pytestmark = pytest.mark.django_db


def test_pose_gives_typed_questions_in_the_language_asked(scenarios):
    posed = quiz.pose(scenarios["t-safety-spot"], 0, "it")
    assert [q.type for q in posed.questions] == [quiz.QuestionType.PLACE, quiz.QuestionType.BOOL]
    assert posed.questions[0].prompt == "Dove metti la palla?"
    assert posed.questions[0].place.length == 300 and posed.questions[0].place.tolerance == 2
    assert "60 yarde" in posed.situation and posed.diagram is not None
    assert [o.label for o in posed.questions[1].options] == ["Sì", "No"]


def test_pose_is_the_same_for_the_same_seed_and_differs_between_seeds(scenarios):
    a = quiz.pose(scenarios["t-safety-spot"], 11, "en")
    b = quiz.pose(scenarios["t-safety-spot"], 11, "en")
    assert a.variant == b.variant
    seeds = {quiz.pose(scenarios["t-safety-spot"], s, "en").situation for s in range(1, 9)}
    assert len(seeds) > 1


def test_check_marks_each_question_against_the_engine(scenarios):
    posed = quiz.pose(scenarios["t-safety-spot"], 0, "en")
    checked = quiz.check(
        posed, {"q-spot-along": ["60"], "q-spot-across": ["40"], "q-goal": ["true"]}
    )
    assert not checked.refused
    spot, goal = checked.items
    assert spot.correct and spot.right == {"x": -90.0, "y": 40.0}
    assert not goal.correct and goal.right is False and goal.given is True
    assert checked.right_count == 1 and checked.total == 2
    assert checked.reasons and all(r.ref and r.text for r in checked.reasons)
    assert [c.ref for c in checked.cited][-1] == "37.6"
    assert "40 yards left of the centre" in spot.right_text


def test_a_refused_answer_grades_nothing_and_gives_nothing_away(scenarios):
    posed = quiz.pose(scenarios["t-safety-spot"], 0, "en")
    checked = quiz.check(posed, {"q-spot-along": ["600"], "q-spot-across": ["0"]})
    assert checked.refused
    assert [m.error for m in checked.items] == ["off_field", "missing"]
    assert all(m.right is None for m in checked.items) and checked.reasons == ()


def test_read_one_and_grade_serve_an_exam_that_saves_answers_one_by_one(scenarios):
    posed = quiz.pose(scenarios["t-p4-positions"], 3, "en")
    who, _req = posed.questions
    given = {who.id: quiz.read_one(posed, who, {"q-who": ["B1"]})}
    marked = quiz.grade(posed, given)
    assert marked[0].given == ["B1"]
    assert marked[1].given is None and not marked[1].correct  # unanswered is wrong


def test_a_frozen_variant_is_posed_as_it_was_ruled(scenarios):
    scenario = scenarios["t-horn-seconds"]
    variant = make_variant(scenario.slug, scenario.data, 0)
    frozen = type(variant)(
        variant.slug,
        variant.seed,
        variant.values,
        variant.facts,
        {**variant.ruling, "seconds_put_on_clock": 99},
        variant.labels,
    )
    posed = quiz.pose(scenario, 0, "en", frozen=frozen)
    assert quiz.grade(posed, {"seconds": 99})[0].correct


def test_an_order_question_offers_the_rulings_steps_shuffled(rulebook):
    scenario = make_scenario(ORDER)
    posed = quiz.pose(scenario, 0, "en")
    (q,) = posed.questions
    right = posed.variant.ruling["procedure"]
    offered = [o.value for o in q.options]
    assert sorted(offered) == sorted(right) and offered != right
    assert [o.value for o in quiz.pose(scenario, 0, "it").questions[0].options] == offered
    places = {f"q-steps-{step}": [str(right.index(step) + 1)] for step in offered}
    checked = quiz.check(posed, places)
    assert checked.items[0].correct and checked.items[0].given == right
    assert checked.items[0].right_text.startswith("1. ")
    swapped = dict(places)
    first, second = (f"q-steps-{right[0]}", f"q-steps-{right[1]}")
    swapped[first], swapped[second] = places[second], places[first]
    assert not quiz.check(posed, swapped).items[0].correct


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"first": ""}, "missing"),
        ({"first": "1", "second": "1"}, "not_an_order"),
        ({"first": "²"}, "not_an_order"),
        ({"first": "99"}, "not_an_order"),
    ],
)
def test_an_order_must_give_every_step_its_own_place(rulebook, change, code):
    posed = quiz.pose(make_scenario(ORDER), 0, "en")
    right = posed.variant.ruling["procedure"]
    places = {f"q-steps-{step}": [str(n)] for n, step in enumerate(right, start=1)}
    names = {"first": f"q-steps-{right[0]}", "second": f"q-steps-{right[1]}"}
    for which, value in change.items():
        places[names[which]] = [value]
    assert quiz.check(posed, places).items[0].error == code


def test_what_if_changes_one_fact_and_rules_again(scenarios):
    posed = quiz.pose(scenarios["t-safety-spot"], 0, "en")
    result = quiz.what_if(posed, "side", "right")
    assert result.rows[0].differs and "right of the centre" in result.rows[0].changed
    with pytest.raises(quiz.VariantError):
        quiz.what_if(posed, "crossing_abs", "9999")
    with pytest.raises(quiz.VariantError):
        quiz.what_if(posed, "no_such", "1")


HORN_CHOICE = {
    "slug": "t-horn-when",
    "section": "21.discussion",
    "kind": "foul_at_horn",
    "cites": ["21.discussion"],
    "title": {"it": "Quando si batte", "en": "When it is taken"},
    "situation": {"it": "Fallo ({timing}).", "en": "Foul ({timing})."},
    "facts": {"timing": "{timing}", "final_period": "{final}"},
    "params": {
        "timing": {
            "type": "choice",
            "values": ["before_horn", "at_or_slightly_after_horn"],
            "default": "at_or_slightly_after_horn",
            "label": {"it": "quando", "en": "when"},
            "labels": {
                "before_horn": {"it": "prima", "en": "before the horn"},
                "at_or_slightly_after_horn": {"it": "alla sirena", "en": "at the horn"},
            },
        },
        "final": {
            "type": "choice",
            "values": [False, True],
            "default": False,
            "label": {"it": "ultimo periodo", "en": "final period"},
            "labels": {"False": {"it": "no", "en": "no"}, "True": {"it": "sì", "en": "yes"}},
        },
    },
    "question": [{"id": "when", "ask": "execution", "prompt": {"it": "Quando?", "en": "When?"}}],
}


def test_a_wrong_choice_is_explained_by_the_fact_that_would_make_it_right(rulebook):
    posed = quiz.pose(make_scenario(HORN_CHOICE), 0, "en")
    right = posed.variant.ruling["execution"]
    assert right == "start_of_next_period"
    checked = quiz.check(posed, {"q-when": ["five_seconds_on_clock"]})
    (item,) = checked.items
    assert not item.correct
    assert item.why_not.changes == (("final period", "no", "yes"),)
    posed_it = quiz.pose(make_scenario({**HORN_CHOICE, "slug": "t-horn-when-2"}), 0, "it")
    assert quiz.why_not(posed_it, posed_it.questions[0], "at_once").changes == (
        ("quando", "alla sirena", "prima"),
    )
    assert quiz.check(posed, {"q-when": [right]}).items[0].why_not is None


def test_an_answer_no_change_of_facts_makes_right_is_said_so(scenarios):
    posed = quiz.pose(scenarios["t-safety-spot"], 0, "en")
    goal = posed.questions[1]
    assert quiz.why_not(posed, goal, True).changes == ()
    assert quiz.why_not(posed, posed.questions[0], {"x": 0, "y": 0}) is None  # place: not this


def test_a_recorded_spot_reads_on_the_field_its_variant_was_played_on(rulebook):
    from polotrainer.rules import Field
    from scenarios.spec import spec_of
    from tests.content import SPOT

    fixed = spec_of(make_scenario(SPOT))
    sized = {**SPOT, "slug": "t-safety-sized"}
    sized["facts"] = {**SPOT["facts"], "field": {"length": "{length}", "width": 160}}
    sized["params"] = {
        **SPOT["params"],
        "length": {"type": "int", "min": 250, "max": 300, "step": 50, "default": 300},
    }
    spec = spec_of(make_scenario(sized))
    stored = {"x": -65.0, "y": 40.0}  # the 60-yard line of a 250-yard field, as stored
    # A field the content fixes (300 here) needs no variant; one a parameter sets does.
    assert not quiz.needs_field(fixed, "spot") and quiz.needs_field(spec, "spot")
    assert not quiz.needs_field(spec, "goal")
    assert quiz.recorded_text(fixed, "spot", stored, "en").startswith("85 yards from")
    short = quiz.recorded_text(spec, "spot", stored, "en", Field(length=250))
    assert short == "60 yards from the fouling team's goal line, 40 yards left of the centre"
    assert quiz.recorded_text(spec, "spot", stored, "it", Field(length=250)).startswith("60 ")
    # Without its field, a spot is shown as stored rather than read on a guessed one.
    assert quiz.recorded_text(spec, "spot", stored, "en") == '{"x": -65.0, "y": 40.0}'
