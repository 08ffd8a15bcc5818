"""`content check`'s fairness checks: a small bad scenario for each, caught by field and seed."""

import shutil
import textwrap
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from scenarios.content import CHECKS, CONTENT_DIR, Problem, read_content
from scenarios.models import Scenario
from scenarios.variants import make_variant

#: A scenario that passes every check; each test breaks one thing in it.
GOOD = textwrap.dedent(
    """
    [[scenario]]
    slug = "safety-spot"
    section = "37.6"
    kind = "penalty_spot"
    cites = ["37.6"]
    title.it = "Safety: dove si batte"
    title.en = "Safety: where it is taken"
    situation.it = "Sei l'Arbitro. Blu #{b} manda la palla oltre la propria linea di fondo, \
    {crossing_abs|yarda|yarde} a {side} del centro della porta."
    situation.en = "You are the umpire. Blue #{b} hits the ball across his own end line, \
    {crossing_abs|yard|yards} to the {side} of the centre of the goal."

    [scenario.facts]
    penalty = "6"
    crossing_y = "{crossing_y}"

    [scenario.params.b]
    label = { it = "numero", en = "number" }
    type = "int"
    min = 1
    max = 4
    default = 2

    [scenario.params.crossing_abs]
    label = { it = "distanza dal centro (yarde)", en = "distance from the centre (yards)" }
    type = "int"
    min = 5
    max = 75
    step = 5
    default = 30

    [scenario.params.side]
    label = { it = "lato", en = "side" }
    type = "choice"
    values = ["left", "right"]
    default = "left"
    labels.left = { it = "sinistra", en = "left" }
    labels.right = { it = "destra", en = "right" }

    [scenario.derived]
    crossing_y = "crossing_abs if side == 'left' else -crossing_abs"

    [[scenario.question]]
    id = "spot"
    ask = "spot"
    prompt.it = "Dove metti la palla?"
    prompt.en = "Where do you place the ball?"
    """
)

#: A stoppage without parameters (seed 0 only): the options checks break its question.
SAFETY = textwrap.dedent(
    """
    [[scenario]]
    slug = "safety-restart"
    section = "21.a"
    kind = "stoppage"
    title.it = "Palla oltre la linea di fondo"
    title.en = "Ball across the end line"
    situation.it = "Sei l'Arbitro. Blu #4 manda la palla oltre la propria linea di fondo."
    situation.en = "You are the umpire. Blue #4 hits the ball across his own end line."

    [scenario.facts]
    incident = "safety"
    touched_another_player = false

    [[scenario.question]]
    id = "restart"
    ask = "restart"
    prompt.it = "Come riprende il gioco?"
    prompt.en = "How does play restart?"
    options = ["penalty_6", "throw_in"]
    """
)

#: A Penalty 5a whose ball the diagram draws: 4 yards from the top side of a 160-wide field.
BALL_NEAR_SIDE = textwrap.dedent(
    """
    [[scenario]]
    slug = "ball-near-side"
    section = "37.5a"
    kind = "penalty_spot"
    title.it = "Punizione 5a"
    title.en = "Penalty 5a"
    situation.it = "Sei l'Arbitro. La palla è a 4 yarde dalle tavole."
    situation.en = "You are the umpire. The ball is 4 yards from the boards."

    [scenario.facts]
    penalty = "5a"
    ball = { x = 0, y = 76 }

    [[scenario.question]]
    id = "spot"
    ask = "spot"
    prompt.it = "Dove metti la palla?"
    prompt.en = "Where do you place the ball?"
    """
)


@pytest.fixture
def content_dir(content_root: Path) -> Path:
    return content_root


def problems(root: Path, text: str) -> list[Problem]:
    (root / "scenarios" / "case.toml").write_text(text, encoding="utf-8")
    return read_content(root, sample=range(8), complete=False).problems


def changed(old: str, new: str, text: str = GOOD) -> str:
    assert old in text
    return text.replace(old, new, 1)


def found(problems: list[Problem], check: str) -> set[tuple[int | None, str]]:
    """(seed, field) of every problem of one check."""
    return {(p.seed, p.field) for p in problems if p.check == check}


def test_the_good_scenarios_pass_every_check(content_dir):
    for text in (GOOD, SAFETY):
        assert problems(content_dir, text) == []


# --- placeholders ------------------------------------------------------------------------------


def test_a_title_with_a_placeholder_is_caught_for_every_seed(content_dir):
    text = changed('title.en = "Safety: where it is taken"', 'title.en = "Safety {b}"')
    result = problems(content_dir, text)
    assert found(result, "placeholders") == {(None, "title.en")}
    assert str(result[0]).endswith(
        "case.toml: scenario safety-spot: every seed: title.en: keeps a placeholder, but it is "
        "the same for every variant: 'Safety {b}'"
    )


def test_a_prompt_with_a_placeholder_is_caught(content_dir):
    text = changed('prompt.it = "Dove metti la palla?"', 'prompt.it = "Dove metti la palla, {b}?"')
    assert found(problems(content_dir, text), "placeholders") == {(None, "question spot.prompt.it")}


def test_a_brace_left_in_the_rendered_situation_is_caught_on_the_seed_that_shows_it(content_dir):
    # A choice's label is shown as written: a brace in it survives the rendering.
    text = changed('labels.right = { it = "destra"', 'labels.right = { it = "{destra}"')
    result = problems(content_dir, text)
    seeds_right = {s for s in range(8) if values(content_dir, s)["side"] == "right"}
    assert seeds_right and 0 not in seeds_right  # seed 0 is the default, "left"
    assert found(result, "placeholders") == {(s, "situation.it") for s in seeds_right}


def test_an_english_only_article_in_italian_is_caught(content_dir):
    text = changed("Blu #{b} manda", "Blu {a b} manda")
    assert (0, "situation.it") in found(problems(content_dir, text), "placeholders")


# --- diagram -----------------------------------------------------------------------------------


def test_a_mark_within_the_tolerance_of_the_right_spot_is_caught(content_dir):
    # The ball is 4 yards from the boards; the Penalty 5a spot is 5 yards in: 1 yard apart.
    result = problems(content_dir, BALL_NEAR_SIDE)
    assert found(result, "diagram") == {(0, "diagram.ball")}
    assert "1.0 yards from the right spot of question spot" in result[0].message


def test_a_mark_on_the_right_spot_itself_is_not_drawn_so_not_caught(content_dir):
    text = changed("ball = { x = 0, y = 76 }", "ball = { x = 0, y = 40 }", BALL_NEAR_SIDE)
    assert problems(content_dir, text) == []


def test_a_mark_beyond_the_tolerance_is_fair(content_dir):
    text = changed("ball = { x = 0, y = 76 }", "ball = { x = 0, y = 79 }", BALL_NEAR_SIDE)
    assert (
        problems(content_dir, text.replace("a 4 yarde", "a 1 yarda").replace("4 yards", "1 yard"))
        == []
    )


# --- options -----------------------------------------------------------------------------------


def test_a_choice_without_the_engines_answer_is_caught(content_dir):
    text = changed(
        'options = ["penalty_6", "throw_in"]', 'options = ["throw_in", "penalty"]', SAFETY
    )
    result = problems(content_dir, text)
    assert found(result, "options") == {(0, "question restart.options")}
    assert "['penalty_6'] is not offered" in result[0].message


def test_a_right_answer_that_says_the_rule_is_silent_is_caught(content_dir):
    text = changed("touched_another_player = false", "touched_another_player = true", SAFETY)
    text = changed('["penalty_6", "throw_in"]', '["penalty_6", "not_stated"]', text)
    result = problems(content_dir, text)
    assert found(result, "options") == {(0, "question restart.options")}
    assert "the Rule is silent" in result[0].message


def test_two_options_that_are_both_right_are_caught(content_dir):
    text = changed('["penalty_6", "throw_in"]', '["penalty_6", "penalty"]', SAFETY)
    result = problems(content_dir, text)
    assert found(result, "options") == {(0, "question restart.options")}
    assert "'penalty' is right too when 'penalty_6' is" in result[0].message


# --- facts -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new", "field"),
    [
        ('penalty = "6"', 'penalty = "11"', "facts.penalty"),
        ('penalty = "6"', 'penalty = "6"\nwind = 3', "facts.wind"),
        # Between the posts the ball is a goal, not a Safety: the engine refuses the facts.
        ('crossing_y = "{crossing_y}"', "crossing_y = 2", "facts.crossing_y"),
    ],
)
def test_facts_the_engine_refuses_are_caught_on_every_seed(content_dir, old, new, field):
    # Seed 0 is refused at once; any other seed after every one of its draws is refused.
    assert found(problems(content_dir, changed(old, new)), "facts") == {
        (s, field) for s in range(8)
    }


def test_facts_refused_on_some_draws_only_are_drawn_again_not_reported(content_dir):
    # crossing_abs from 0: a draw of 0 puts the ball between the posts, which the engine refuses.
    text = changed("min = 5\nmax = 75", "min = 0\nmax = 75")
    (content_dir / "scenarios" / "case.toml").write_text(text, encoding="utf-8")
    content = read_content(content_dir, sample=range(40), complete=False)
    assert content.problems == []
    assert content.draws_refused > 0  # counted, for the author: a constraint would be clearer


def test_parameters_that_never_make_a_valid_situation_are_caught_on_every_seed(content_dir):
    text = changed('kind = "penalty_spot"', 'kind = "penalty_spot"\nconstraints = ["b > 4"]')
    assert found(problems(content_dir, text), "facts") == {(s, "params") for s in range(8)}


# --- languages ---------------------------------------------------------------------------------


def test_a_number_in_one_language_only_is_caught(content_dir):
    text = changed("{crossing_abs|yarda|yarde} a {side}", "35 yarde a {side}")
    result = problems(content_dir, text)
    seeds = {p.seed for p in result if p.check == "languages"}
    assert 0 in seeds  # seed 0 says 30 in English
    assert {p.field for p in result if p.check == "languages"} == {"situation"}
    message = next(p.message for p in result if p.seed == 0)
    assert message == "numbers only in Italian ['35'], only in English ['30']"


def test_a_title_whose_languages_differ_in_numbers_is_caught(content_dir):
    text = changed('title.it = "Safety: dove si batte"', 'title.it = "Safety: dove si batte (6)"')
    assert found(problems(content_dir, text), "languages") == {(None, "title")}


# --- grammar -----------------------------------------------------------------------------------


def test_one_with_a_plural_noun_is_caught_where_the_number_is_one(content_dir):
    text = changed("max = 4\ndefault = 2", "max = 2\ndefault = 1")
    text = changed("Blue #{b} hits", "Blue #{b} ({b} goals) hits", text)
    text = changed("Blu #{b} manda", "Blu #{b} ({b} gol) manda", text)
    result = problems(content_dir, text)
    ones = {s for s in range(8) if values(content_dir, s)["b"] == 1}
    assert 0 in ones and len(ones) < 8
    assert found(result, "grammar") == {(s, "situation.en") for s in ones}
    assert "\"1 goals\": 'goal' after 1" in next(p.message for p in result if p.check == "grammar")


def test_italian_number_and_noun_disagreement_is_caught(content_dir):
    text = changed("max = 4\ndefault = 2", "max = 2\ndefault = 1")
    text = changed("Blu #{b} manda", "Dopo {b} minuti Blu #{b} manda", text)
    text = changed("Blue #{b} hits", "After {b|minute|minutes} Blue #{b} hits", text)
    result = problems(content_dir, text)
    ones = {s for s in range(8) if values(content_dir, s)["b"] == 1}
    assert 0 in ones and len(ones) < 8
    assert found(result, "grammar") == {(s, "situation.it") for s in ones}


def test_a_wrong_english_article_before_a_number_is_caught(content_dir):
    text = changed("You are the umpire.", "You are the umpire in a 8-goal game.")
    text = changed("Sei l'Arbitro.", "Sei l'Arbitro in una partita da 8 gol.", text)
    result = problems(content_dir, text)
    assert found(result, "grammar") == {(s, "situation.en") for s in range(8)}
    assert "'an' before 8" in result[0].message


def values(root: Path, seed: int) -> dict:
    """The parameters of the test scenario's variant `seed`."""
    entry = read_content(root, sample=range(1), complete=False).scenarios[0]
    return dict(make_variant(entry["slug"], entry, seed).values)


# --- the command -------------------------------------------------------------------------------


@pytest.fixture
def full_dir(content_dir: Path) -> Path:
    """The bundled content (every worked example covered), to add one scenario to."""
    for path in (CONTENT_DIR / "scenarios").glob("*.toml"):
        shutil.copy(path, content_dir / "scenarios" / path.name)
    return content_dir


def test_the_command_prints_each_checks_count_and_fails_with_the_problems(full_dir, capsys):
    content_dir = full_dir
    text = changed('title.en = "Safety: where it is taken"', 'title.en = "Safety: 1 goals"')
    text = changed('title.it = "Safety: dove si batte"', 'title.it = "Safety: 1 gol"', text)
    (content_dir / "scenarios" / "case.toml").write_text(text, encoding="utf-8")
    with pytest.raises(CommandError) as excinfo:
        call_command("content", "check", "--dir", str(content_dir), "--seeds", "2")
    assert str(excinfo.value) == "1 fairness problem (listed above)"
    out, err = capsys.readouterr()
    lines = {line.split(":")[0].strip(): line for line in out.splitlines()}
    for name in CHECKS:
        assert name in lines, name
    looked_at, slash, failed = lines["grammar"].split(":")[1].split("(")[0].split()
    assert (slash, failed) == ("/", "1") and int(looked_at) > 97 * 2  # 2 seeds, 2 languages
    assert (
        "[grammar] content/scenarios/case.toml: scenario safety-spot: every seed: title.en: "
        "\"1 goals\": 'goal' after 1"
    ) in err


def test_the_command_loads_nothing_while_a_problem_remains(full_dir, db):
    (full_dir / "scenarios" / "case.toml").write_text(BALL_NEAR_SIDE, encoding="utf-8")
    with pytest.raises(CommandError) as excinfo:
        call_command("content", "load", "--dir", str(full_dir), "--seeds", "1")
    assert "nothing was loaded" in str(excinfo.value)
    assert not Scenario.objects.exists()
