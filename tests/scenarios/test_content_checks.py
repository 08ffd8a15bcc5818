"""`content check`'s fairness checks: a small bad scenario for each, caught by field and seed."""

import dataclasses
import shutil
import textwrap
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from scenarios import scenes
from scenarios.content import CHECKS, CONTENT_DIR, ContentError, Problem, read_content
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
    ball_touched = "nothing"

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


# --- leaks -------------------------------------------------------------------------------------

#: Penalty 10 with a wording that changes no fact: the crowd's noise. Fair as it is; built to
#: leak when a constraint ties the noise to the answer, which two facts decide together.
EXCLUSION = textwrap.dedent(
    """
    [[scenario]]
    slug = "exclusion-clue"
    section = "37.10"
    kind = "penalty_10"
    title.it = "Escludere il giocatore?"
    title.en = "Exclude the player?"
    situation.it = "Sei l'Arbitro. A tuo giudizio il fallo di Rosso #2 {nature}; {conduct}. {crowd}"
    situation.en = "You are the umpire. In your opinion Red #2's foul is {nature}; {conduct}. \
    {crowd}"

    [scenario.facts]
    deliberate = "{deliberate}"
    dangerous = "{dangerous}"
    prejudicial_conduct = "{prejudicial}"

    [scenario.params.nature]
    label = { it = "il fallo", en = "the foul" }
    type = "choice"
    values = ["dangerous", "deliberate", "both", "neither"]
    default = "both"
    labels.dangerous = { it = "è pericoloso e non deliberato", en = "dangerous, not deliberate" }
    labels.deliberate = { it = "è deliberato e non pericoloso", en = "deliberate, not dangerous" }
    labels.both = { it = "è pericoloso e deliberato", en = "dangerous and deliberate" }
    labels.neither = { it = "non è pericoloso né deliberato", en = "neither" }

    [scenario.params.conduct]
    label = { it = "la condotta", en = "the conduct" }
    type = "choice"
    values = ["fair", "prejudicial"]
    default = "fair"
    labels.fair = { it = "poi torna al gioco", en = "he then rides back to the play" }
    labels.prejudicial = { it = "poi insulta l'Arbitro", en = "he then abuses the Umpire" }

    [scenario.params.crowd]
    label = { it = "il pubblico", en = "the crowd" }
    type = "choice"
    values = ["loud", "quiet"]
    default = "loud"
    labels.loud = { it = "Il pubblico rumoreggia.", en = "The crowd roars." }
    labels.quiet = { it = "Il pubblico tace.", en = "The crowd is quiet." }

    [scenario.derived]
    deliberate = "nature == 'deliberate' or nature == 'both'"
    dangerous = "nature == 'dangerous' or nature == 'both'"
    prejudicial = "conduct == 'prejudicial'"

    [[scenario.question]]
    id = "exclude"
    ask = "may_exclude"
    prompt.it = "Puoi escludere Rosso #2 dalla partita?"
    prompt.en = "May you exclude Red #2 from the game?"
    """
)
#: The crowd roars exactly when the player may be excluded: the words give the answer away.
LEAKY = EXCLUSION.replace(
    'kind = "penalty_10"\n',
    'kind = "penalty_10"\n'
    "constraints = [\"(crowd == 'loud') == (nature == 'both' or conduct == 'prejudicial')\"]\n",
)


def leak_problems(root: Path, text: str) -> list[Problem]:
    """The leak check looks at seeds 0-59 with the default sample (fewer: a quick look)."""
    (root / "scenarios" / "case.toml").write_text(text, encoding="utf-8")
    return read_content(root, complete=False).problems


def test_a_wording_that_comes_with_one_answer_is_a_leak(content_dir):
    assert LEAKY != EXCLUSION
    result = [p for p in leak_problems(content_dir, LEAKY) if p.check == "leak"]
    assert [(p.seed, p.field) for p in result] == [(None, "question exclude")]
    assert result[0].message.startswith(
        "wording crowd predicts the answer to question exclude on 100% of 60 seeds (every seed"
    )


def test_a_wording_drawn_whatever_the_answer_is_no_leak(content_dir):
    assert leak_problems(content_dir, EXCLUSION) == []
    # A quick look (8 seeds) cannot tell a leak: the check looks at those 8 only.
    assert [p for p in problems(content_dir, LEAKY) if p.check == "leak"] == []


def test_a_mark_hidden_only_when_the_penalty_1_test_fails_would_leak(content_dir, monkeypatch):
    # Before the diagram hid the ball whichever way the Penalty 1 test went, its absence said
    # "Penalty 5a" (rp-penalty-1-or-5a-where). Draw it that way again: the check catches it.
    from scenarios import diagram

    monkeypatch.setattr(diagram, "hidden_points", diagram.ruled_points)
    root = content_dir
    shutil.copy(CONTENT_DIR / "scenarios" / "rule-37-recognise.toml", root / "scenarios" / "r.toml")
    result = read_content(root, complete=False).problems
    leaked = {(p.scenario, p.field) for p in result if p.check == "leak"}
    assert ("rp-penalty-1-or-5a-where", "question penalty") in leaked
    assert ("rp-penalty-1-or-2-where", "question penalty") in leaked
    monkeypatch.undo()
    assert read_content(root, complete=False).problems == []


# --- options -----------------------------------------------------------------------------------


def test_a_choice_without_the_engines_answer_is_caught(content_dir):
    text = changed(
        'options = ["penalty_6", "throw_in"]', 'options = ["throw_in", "penalty"]', SAFETY
    )
    result = problems(content_dir, text)
    assert found(result, "options") == {(0, "question restart.options")}
    assert "['penalty_6'] is not offered" in result[0].message


def test_a_right_answer_that_says_the_rule_is_silent_is_caught(content_dir):
    text = changed('ball_touched = "nothing"', 'ball_touched = "opponent"', SAFETY)
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


def counted_by_b(root: Path, italian: str, english: str) -> tuple[list[Problem], set[int]]:
    """The problems when the situation counts with b (1 or 2: "Blu #{b}" and "Blue #{b}" become
    `italian` and `english`), and the seeds on which b is 1."""
    text = changed("max = 4\ndefault = 2", "max = 2\ndefault = 1")
    text = changed("Blu #{b} manda", f"{italian} manda", text)
    text = changed("Blue #{b} hits", f"{english} hits", text)
    result = problems(root, text)
    ones = {s for s in range(8) if values(root, s)["b"] == 1}
    assert 0 in ones and len(ones) < 8
    return result, ones


def test_one_with_a_plural_noun_is_caught_where_the_number_is_one(content_dir):
    result, ones = counted_by_b(content_dir, "Blu #{b} ({b} gol)", "Blue #{b} ({b} goals)")
    assert found(result, "grammar") == {(s, "situation.en") for s in ones}
    assert "\"1 goals\": 'goal' after 1" in next(p.message for p in result if p.check == "grammar")


def test_italian_number_and_noun_disagreement_is_caught(content_dir):
    italian, english = "Dopo {b} minuti Blu #{b}", "After {b|minute|minutes} Blue #{b}"
    result, ones = counted_by_b(content_dir, italian, english)
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


# --- terms -------------------------------------------------------------------------------------


def test_a_word_spelled_the_other_way_is_caught(content_dir):
    text = changed("Blu #{b} manda la palla", "Dopo un time-out Blu #{b} manda la palla")
    text = changed("Blue #{b} hits the ball", "After a time out Blue #{b} hits the ball", text)
    result = problems(content_dir, text)
    assert found(result, "terms") == {(s, "situation.it") for s in range(8)}
    assert result[0].message == '"time-out": write "time out"'


# --- hidden facts ------------------------------------------------------------------------------

#: A foul in play whose whistle depends on whether play was already stopped: a fact it states.
FOUL = textwrap.dedent(
    """
    [[scenario]]
    slug = "foul-whistle"
    section = "21.b"
    kind = "stoppage"
    title.it = "Un fallo"
    title.en = "A foul"
    situation.it = "Sei l'Arbitro. Nel {period}° periodo, a gioco in corso, vedi un fallo \
    pericoloso."
    situation.en = "You are the umpire. In period {period}, with play in progress, you see a \
    dangerous foul."

    [scenario.facts]
    incident = "foul"
    dangerous = true
    play_already_stopped = false
    assessment = "not_assessed"

    [scenario.params.period]
    label = { it = "periodo", en = "period" }
    type = "int"
    min = 1
    max = 6
    default = 2

    [[scenario.question]]
    id = "stop"
    ask = "stop"
    prompt.it = "Quando fischi?"
    prompt.en = "When do you blow the whistle?"
    options = ["immediately", "umpire_discretion", "already_stopped"]
    """
)


def test_an_answer_that_hangs_on_a_fact_left_to_its_default_is_caught(content_dir):
    assert problems(content_dir, FOUL) == []
    text = changed("play_already_stopped = false\n", "", FOUL)
    result = problems(content_dir, text)
    assert found(result, "hidden") == {(s, "facts.play_already_stopped") for s in range(8)}
    assert "the answer to question stop changes with play_already_stopped" in result[0].message


def test_a_default_that_changes_no_answer_asked_is_not_caught(content_dir):
    # "dangerous" decides the whistle, "unconscious" is not read for a foul: only one is needed.
    text = changed("dangerous = true\n", "", FOUL)
    assert {p.field for p in problems(content_dir, text)} == {"facts.dangerous"}
    assert found(problems(content_dir, FOUL), "hidden") == set()


# --- order -------------------------------------------------------------------------------------

#: An injured player's procedure, put in order.
ORDER = textwrap.dedent(
    """
    [[scenario]]
    slug = "injury-order"
    section = "21.d"
    kind = "stoppage"
    title.it = "Un infortunio"
    title.en = "An injury"
    situation.it = "Sei l'Arbitro. Nel {period}° periodo Blu #4 si fa male a un ginocchio."
    situation.en = "You are the umpire. In period {period} Blue #4 hurts a knee."

    [scenario.facts]
    incident = "injured_player"
    recurrence = false

    [scenario.params.period]
    label = { it = "periodo", en = "period" }
    type = "int"
    min = 1
    max = 6
    default = 2

    [[scenario.question]]
    id = "order"
    ask = "procedure"
    prompt.it = "Metti in ordine i passi."
    prompt.en = "Put the steps in order."
    """
)


def test_an_order_question_with_steps_to_order_passes(content_dir):
    assert problems(content_dir, ORDER) == []


def test_an_order_question_the_engine_gives_no_steps_for_is_caught(content_dir):
    # A recurrence of the same injury: no time-out, so no procedure to order.
    text = changed("recurrence = false", "recurrence = true", ORDER)
    result = problems(content_dir, text)
    assert found(result, "order") == {(s, "question order.steps") for s in range(8)}
    assert "the engine gives 0 step(s): nothing to order" in result[0].message


def test_two_steps_that_read_the_same_are_caught(content_dir, monkeypatch):
    from scenarios import questions

    label = questions.enum_label

    def same_words(enum_name, value):
        if value == "play_resumes":
            return label(enum_name, "play_stopped")
        return label(enum_name, value)

    monkeypatch.setattr(questions, "enum_label", same_words)
    result = problems(content_dir, ORDER)
    assert found(result, "order") == {
        (s, f"question order.steps.{lang}") for s in range(8) for lang in ("it", "en")
    }
    assert "2 steps read 'The Umpire stops play'" in {p.message for p in result}


# --- constant answers (a warning) ----------------------------------------------------------------


def warnings(root: Path, text: str) -> list[Problem]:
    (root / "scenarios" / "case.toml").write_text(text, encoding="utf-8")
    return read_content(root, sample=range(20), complete=False).warnings


#: The facts vary (how rough the play is), the answer never does: a lost helmet waits for a
#: neutral play whatever the roughness, which the engine does not read for a helmet.
HELMET = textwrap.dedent(
    """
    [[scenario]]
    slug = "helmet"
    section = "21.h"
    kind = "stoppage"
    title.it = "Il casco"
    title.en = "The helmet"
    situation.it = "Sei l'Arbitro. Nel {period}° periodo il casco di Blu #2 cade."
    situation.en = "You are the umpire. In period {period} Blue #2's helmet falls off."

    [scenario.facts]
    incident = "lost_helmet"
    dangerous = "{rough}"

    [scenario.params.period]
    label = { it = "periodo", en = "period" }
    type = "int"
    min = 1
    max = 6
    default = 2

    [scenario.derived]
    rough = "period > 3"

    [[scenario.question]]
    id = "stop"
    ask = "stop"
    prompt.it = "Quando fermi il gioco?"
    prompt.en = "When do you stop play?"
    options = ["immediately", "at_neutral_play"]
    """
)


def test_an_answer_that_never_varies_while_the_facts_do_is_a_warning_not_a_failure(content_dir):
    (content_dir / "scenarios" / "case.toml").write_text(HELMET, encoding="utf-8")
    content = read_content(content_dir, sample=range(20), complete=False)
    assert content.problems == []
    assert [(w.check, w.seed, w.field) for w in content.warnings] == [
        ("constant", None, "question stop")
    ]
    assert 'the answer is "at_neutral_play" on every seed' in content.warnings[0].message


def test_a_small_sample_warns_about_nothing(content_dir):
    (content_dir / "scenarios" / "case.toml").write_text(HELMET, encoding="utf-8")
    assert read_content(content_dir, sample=range(19), complete=False).warnings == []


def test_facts_that_never_vary_are_not_warned_about(content_dir):
    assert (
        warnings(content_dir, changed('dangerous = "{rough}"', "dangerous = false", HELMET)) == []
    )


def test_an_answer_constant_on_purpose_says_so_and_is_not_warned_about(content_dir):
    text = changed('ask = "stop"', 'ask = "stop"\nconstant = true', HELMET)
    assert warnings(content_dir, text) == []


def test_constant_must_be_true_or_absent(content_dir):
    text = changed('ask = "stop"', 'ask = "stop"\nconstant = "yes"', HELMET)
    with pytest.raises(ContentError) as excinfo:
        warnings(content_dir, text)
    assert excinfo.value.field == "question stop.constant"


def test_an_order_question_is_never_warned_about(content_dir):
    # Its steps are shuffled anew for each variant: the same order is the lesson.
    text = changed("recurrence = false", 'recurrence = false\nunconscious = "{knocked}"', ORDER)
    text = changed(
        "[[scenario.question]]",
        '[scenario.derived]\nknocked = "period > 3"\n\n[[scenario.question]]',
        text,
    )
    assert warnings(content_dir, text) == []


# --- the command -------------------------------------------------------------------------------


@pytest.fixture
def full_dir(content_dir: Path) -> Path:
    """The bundled content (every worked example covered), to add one scenario to."""
    for path in (CONTENT_DIR / "scenarios").glob("*.toml"):
        shutil.copy(path, content_dir / "scenarios" / path.name)
    shutil.copy(CONTENT_DIR / "decisions.toml", content_dir / "decisions.toml")
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
    assert (slash, failed) == ("/", "1") and int(looked_at) > 130 * 2  # 2 seeds, 2 languages
    assert "warnings (looked at / reported, not failures):" in out
    # Two seeds say nothing about an answer that never varies: the warning looks at nothing.
    assert lines["constant"].split(":")[1].split("(")[0].split() == ["0", "/", "0"]
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


def test_a_section_with_nothing_to_practise_stops_the_check(full_dir):
    (full_dir / "scenarios" / "rule-37-penalties-3-8-9-10.toml").unlink()
    with pytest.raises(ContentError) as excinfo:
        read_content(full_dir, sample=range(1))
    assert excinfo.value.field == "section"
    assert str(excinfo.value).endswith("nothing to practise in: 37.8, 37.9")


# --- decisions ---------------------------------------------------------------------------------


def edit_decisions(root: Path, old: str, new: str) -> None:
    path = root / "decisions.toml"
    text = path.read_text("utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_every_decision_of_the_bundled_list_is_asked(full_dir):
    content = read_content(full_dir, sample=range(1))
    counts = content.counts()
    assert counts["decisions of the rule text"] == counts["decisions a scenario asks"] > 100
    assert [w for w in content.warnings if w.check == "unlisted"] == []


def test_a_decision_no_scenario_asks_stops_the_check(full_dir):
    edit_decisions(full_dir, 'scenarios = ["r21b-verbal-cues"]', "scenarios = []")
    with pytest.raises(ContentError) as excinfo:
        read_content(full_dir, sample=range(1))
    assert excinfo.value.field == "scenarios"
    assert "no scenario asks: 21.b Verbal cues may inform players" in str(excinfo.value)


def test_a_decision_needs_the_scenario_to_cite_its_section(full_dir):
    edit_decisions(full_dir, 'scenarios = ["r21b-verbal-cues"]', 'scenarios = ["p5b-centre"]')
    with pytest.raises(ContentError) as excinfo:
        read_content(full_dir, sample=range(1))
    assert str(excinfo.value).endswith("p5b-centre does not cite 21.b (its section or cites)")


def test_a_decision_naming_no_scenario_or_no_section_is_refused(full_dir):
    edit_decisions(full_dir, 'scenarios = ["r21b-verbal-cues"]', 'scenarios = ["r21b-cues"]')
    with pytest.raises(ContentError, match="no scenario 'r21b-cues'"):
        read_content(full_dir, sample=range(1))


def test_a_scenario_that_asks_no_listed_decision_is_a_warning(full_dir):
    (full_dir / "scenarios" / "case.toml").write_text(GOOD, encoding="utf-8")
    content = read_content(full_dir, sample=range(1))
    assert [(w.scenario, w.field) for w in content.warnings if w.check == "unlisted"] == [
        ("safety-spot", "decisions")
    ]
    assert content.problems == []


def test_the_decisions_file_is_part_of_the_content(full_dir):
    (full_dir / "decisions.toml").unlink()
    with pytest.raises(ContentError, match="missing: every decision of the rule text"):
        read_content(full_dir, sample=range(1))


# --- scenes ------------------------------------------------------------------------------------


def test_the_scene_of_every_seed_is_checked(content_dir):
    (content_dir / "scenarios" / "case.toml").write_text(GOOD, encoding="utf-8")
    content = read_content(content_dir, sample=range(40), complete=False)
    assert content.checked["scene"] == 40
    assert found(content.problems, "scene") == set()


def altered(monkeypatch, family: scenes.Family, change) -> None:
    """Every scene of `family` is built as before, then passed through `change`."""
    build = scenes._BUILDS[family]
    monkeypatch.setitem(scenes._BUILDS, family, lambda situation: change(build(situation)))


def test_a_scene_whose_ball_crosses_elsewhere_is_caught(content_dir, monkeypatch):
    def off_by_two(scene):
        ball = scene.track("ball")
        moved = scenes.Track(
            "ball", "", "", tuple(scenes.Key(k.t, k.x, k.y + 2.0) for k in ball.keys)
        )
        tracks = tuple(moved if t.id == "ball" else t for t in scene.tracks)
        return dataclasses.replace(scene, tracks=tracks)

    altered(monkeypatch, scenes.Family.SAFETY, off_by_two)
    assert found(problems(content_dir, GOOD), "scene") == {(s, "scene.crossing") for s in range(8)}


def test_a_rider_standing_on_the_spot_before_the_stop_is_caught(content_dir, monkeypatch):
    def planted(scene):
        x, y = scene.reveal[0]
        on_it = scenes.Track("R1", "red", "1", (scenes.Key(0.0, x, y),))
        return dataclasses.replace(scene, tracks=(*scene.tracks, on_it))

    altered(monkeypatch, scenes.Family.SAFETY, planted)
    assert found(problems(content_dir, GOOD), "scene") == {(s, "scene.leak") for s in range(8)}


# --- scenes of Rules 21 and 37 in play (issue 25) ------------------------------------------------


def _bundled_file(content_dir, name: str) -> None:
    source = CONTENT_DIR / "scenarios" / name
    (content_dir / "scenarios" / name).write_text(source.read_text("utf-8"), encoding="utf-8")


def test_the_lineups_of_rule_37_are_checked_and_a_player_off_his_place_is_caught(
    content_dir, monkeypatch
):
    _bundled_file(content_dir, "rule-37-positions.toml")
    content = read_content(content_dir, sample=range(8), complete=False)
    assert content.checked["scene"] == 8 * len(content.scenarios)
    assert found(content.problems, "scene") == set()

    def one_off(scene):
        pid, (x, y) = next(iter(scene.follows["positions"].items()))
        tracks = tuple(
            scenes.Track(t.id, t.team, t.number, (scenes.Key(0.0, x, y + 4.0),))
            if t.id == pid
            else t
            for t in scene.tracks
        )
        return dataclasses.replace(scene, tracks=tracks)

    altered(monkeypatch, scenes.Family.LINEUP, one_off)
    content = read_content(content_dir, sample=range(8), complete=False)
    assert {field for _, field in found(content.problems, "scene")} == {"scene.position"}
    assert len(found(content.problems, "scene")) == 8


def test_the_incidents_of_rule_21_are_checked_and_one_played_elsewhere_is_caught(
    content_dir, monkeypatch
):
    _bundled_file(content_dir, "rule-21-whistle-and-horses.toml")
    content = read_content(content_dir, sample=range(8), complete=False)
    assert content.checked["scene"] > 0
    assert found(content.problems, "scene") == set()

    def elsewhere(scene):
        t, x = scene.follows["play_x"]
        return dataclasses.replace(scene, follows={**scene.follows, "play_x": (t, x + 10.0)})

    _bundled_file(content_dir, "rule-21-stoppages.toml")
    altered(monkeypatch, scenes.Family.WHISTLE, elsewhere)
    content = read_content(content_dir, sample=range(8), complete=False)
    wrong = [p for p in content.problems if p.check == "scene"]
    assert wrong and {p.field for p in wrong} == {"scene.where"}
