"""The suite's content: the rulebook material every app's tests play, in one home.

- one scenario per question kind (SPOT, POSITIONS, INTERFERENCE, HORN: ALL; ORDER apart), on the
  sections of SECTIONS (`create_rulebook`, `make_scenario`): written here, not read from
  scenarios/content/, so the tests hold whatever the authors change;
- `small_rulebook`: Rule 3 (3.a with two situations, 3.b with one) and Rule 21 (21.a), situations
  with no facts, for progress, courses and the dashboard;
- `create_drill_content`: four bundled scenarios with scenes, read from the content files;
- `exam_scenarios`: ALL on the small rulebook's database, for an exam to draw from;
- `load_shipped`: the content the app ships, as `content load` writes it.

Fixtures that serve them (`rulebook`, `scenarios`, `bundled_content`...) are in tests/conftest.py.
"""

import copy
import functools
import tomllib
from pathlib import Path

from scenarios.content import CONTENT_DIR, Content, read_content
from scenarios.loading import LoadReport, load
from scenarios.models import Rule, Scenario, Section


def _texts(it: str, en: str) -> dict[str, str]:
    return {"it": it, "en": en}


SECTIONS = {
    "37.3": (37, "Punizione 3", "Penalty 3"),
    "37.4": (37, "Punizione 4", "Penalty 4"),
    "37.6": (37, "Punizione 6", "Penalty 6"),
    "37.7": (37, "Punizione 7", "Penalty 7"),
    "21.discussion": (21, "Discussione", "Discussion"),
}

SPOT = {  # place + bool: a Safety's spot, and whether a goal is awarded
    "slug": "t-safety-spot",
    "section": "37.6",
    "kind": "penalty_spot",
    "cites": ["37.6"],
    "title": _texts("Safety: dove si batte", "Safety: where it is taken"),
    "situation": _texts(
        "Sei l'Arbitro. Blu #2 colpisce la palla oltre la propria linea di fondo, "
        "{crossing_abs} yarde a {side} del centro della porta.",
        "You are the umpire. Blue #2 hits the ball across his own end line "
        "{crossing_abs} yards to the {side} of the centre of the goal.",
    ),
    "facts": {
        "penalty": "6",
        "crossing_y": "{crossing_y}",
        "field": {"width": 160, "boarded": True},
    },
    "params": {
        "crossing_abs": {
            "type": "int",
            "min": 10,
            "max": 70,
            "step": 5,
            "default": 60,
            "label": _texts("Yarde dal centro della porta", "Yards from the centre of the goal"),
        },
        "side": {
            "type": "choice",
            "values": ["left", "right"],
            "default": "left",
            "label": _texts("Lato", "Side"),
            "labels": {
                "left": _texts("sinistra", "left"),
                "right": _texts("destra", "right"),
            },
        },
    },
    "derived": {"crossing_y": "crossing_abs if side == 'left' else -crossing_abs"},
    "question": [
        {
            "id": "spot",
            "ask": "spot",
            "prompt": _texts("Dove metti la palla?", "Where?"),
            "tolerance": 2,
        },
        {"id": "goal", "ask": "goal_awarded", "prompt": _texts("Gol assegnato?", "Goal awarded?")},
    ],
}

POSITIONS = {  # players + multi
    "slug": "t-p4-positions",
    "section": "37.4",
    "kind": "penalty_positions",
    "cites": ["37.4"],
    "title": _texts("Punizione 4: le posizioni", "Penalty 4: positions"),
    "situation": _texts("Sei l'Arbitro. Punizione 4.", "You are the umpire. Penalty 4."),
    "facts": {
        "penalty": "4",
        "players": [
            {"id": "B1", "team": "fouling", "position": {"x": -100, "y": 20}},
            {"id": "B2", "team": "fouling", "position": {"x": -130, "y": 0}},
            {"id": "R1", "team": "fouled", "position": {"x": -80, "y": 0}},
        ],
    },
    "question": [
        {
            "id": "who",
            "ask": "out_of_position",
            "prompt": _texts("Chi è fuori posizione?", "Who is out of position?"),
        },
        {
            "id": "req",
            "ask": "requirements",
            "prompt": _texts("Quali regole infrange?", "Which requirements are broken?"),
        },
    ],
}

INTERFERENCE = {  # choice
    "slug": "t-p3-interference",
    "section": "37.3",
    "kind": "penalty_interference",
    "cites": ["37.3"],
    "title": _texts("Interferenza", "Interference"),
    "situation": _texts(
        "Sei l'Arbitro. Punizione {penalty}.", "You are the umpire. Penalty {penalty}."
    ),
    "facts": {
        "penalty": "{penalty}",
        "fouling_entered_improperly": True,
        "would_have_scored": False,
    },
    "params": {"penalty": {"type": "choice", "values": ["3"], "default": "3"}},
    "question": [
        {
            "id": "outcome",
            "ask": "outcome",
            "prompt": _texts("Che cosa decidi?", "What do you rule?"),
        },
    ],
}

HORN = {  # number
    "slug": "t-horn-seconds",
    "section": "21.discussion",
    "kind": "foul_at_horn",
    "cites": ["21.discussion"],
    "title": _texts("Fallo alla sirena", "Foul at the horn"),
    "situation": _texts(
        "Sei l'Arbitro. Fallo alla sirena.", "You are the umpire. Foul at the horn."
    ),
    "facts": {"timing": "at_or_slightly_after_horn", "final_period": True},
    "question": [
        {
            "id": "seconds",
            "ask": "seconds_put_on_clock",
            "prompt": _texts("Quanti secondi?", "How many seconds?"),
        },
    ],
}

ALL = [SPOT, POSITIONS, INTERFERENCE, HORN]

ORDER = {  # order: not in ALL, so the tests of "next" keep their four scenarios
    "slug": "t-p7-procedure",
    "section": "37.7",
    "kind": "penalty_7",
    "cites": ["37.7"],
    "title": _texts("Punizione 7: la procedura", "Penalty 7: the procedure"),
    "situation": _texts(
        "Sei l'Arbitro. Un giocatore da {h} gol è messo fuori gioco da un fallo.",
        "You are the umpire. A {h}-goal player is disabled by a foul.",
    ),
    "facts": {
        "disabled_handicap": "{h}",
        "fouling_players": [{"id": "B1", "handicap": 5}, {"id": "B2", "handicap": 4}],
    },
    "params": {
        "h": {"type": "int", "min": 5, "max": 7, "default": 6, "label": _texts("gol", "goals")}
    },
    "question": [
        {
            "id": "steps",
            "ask": "procedure",
            "prompt": _texts("In che ordine?", "In what order?"),
        },
    ],
}


def make_scenario(data: dict, retired: bool = False, ref: str | None = None) -> Scenario:
    """The scenario of an entry, in its own section or in `ref`."""
    section = Section.objects.get(ref=ref or data["section"])
    return Scenario.objects.create(
        slug=data["slug"],
        rule_id=section.rule_id,
        section=section,
        kind=data["kind"],
        title_it=data["title"]["it"],
        title_en=data["title"]["en"],
        data=data,
        source_file="tests",
        retired=retired,
    )


def create_rulebook() -> None:
    for number in (21, 37):
        make_rule(number, title_en=f"Rule {number}")
    for position, (ref, (rule, it, en)) in enumerate(SECTIONS.items()):
        Section.objects.create(
            ref=ref,
            rule_id=rule,
            position=position,
            title_it=it,
            title_en=en,
            paragraphs=[{"it": f"Testo italiano di {ref}.", "en": f"English text of {ref}."}],
        )


# --- the small rulebook -------------------------------------------------------------------------


def make_rule(number: int, title_en: str | None = None) -> Rule:
    return Rule.objects.create(
        number=number,
        slug=f"rule-{number}",
        title_it=f"Regola {number}",
        title_en=title_en or f"Rule title {number}",
        summary_it="",
        summary_en="",
        notice_it="",
        notice_en="",
    )


def make_section(rule: Rule, ref: str, position: int) -> Section:
    return Section.objects.create(
        ref=ref, rule=rule, position=position, title_it=f"Sezione {ref}", title_en=f"Section {ref}"
    )


def plain_scenario(section: Section, slug: str) -> Scenario:
    """A situation with no facts (kind "test"): for what counts answers, not what grades them."""
    return Scenario.objects.create(
        slug=slug,
        rule=section.rule,
        section=section,
        kind="test",
        title_it=f"Situazione {slug}",
        title_en=f"Situation {slug}",
        data={},
        source_file="tests",
    )


def small_rulebook() -> dict[str, Scenario]:
    """Rule 3 with sections 3.a (two situations) and 3.b (one); Rule 21 with 21.a (one)."""
    r3, r21 = make_rule(3), make_rule(21)
    s3a, s3b = make_section(r3, "3.a", 1), make_section(r3, "3.b", 2)
    s21a = make_section(r21, "21.a", 1)
    return {
        "3a-one": plain_scenario(s3a, "sub-one"),
        "3a-two": plain_scenario(s3a, "sub-two"),
        "3b": plain_scenario(s3b, "sub-three"),
        "21a": plain_scenario(s21a, "stop-one"),
    }


def exam_scenarios() -> list[Scenario]:
    """The four scenarios of ALL (one per question kind), on the same database as the small
    rulebook (rules and sections added where missing)."""
    for position, (ref, (number, it, en)) in enumerate(SECTIONS.items()):
        rule, _ = Rule.objects.get_or_create(
            number=number,
            defaults={
                "slug": f"rule-{number}",
                "title_it": f"Regola {number}",
                "title_en": f"Rule {number}",
                "summary_it": "",
                "summary_en": "",
                "notice_it": "",
                "notice_en": "",
            },
        )
        Section.objects.get_or_create(
            ref=ref,
            defaults={
                "rule": rule,
                "position": 10 + position,
                "title_it": it,
                "title_en": en,
                "paragraphs": [{"it": f"Testo di {ref}.", "en": f"Text of {ref}."}],
            },
        )
    return [make_scenario(data) for data in ALL]


# --- bundled scenarios, as shipped ----------------------------------------------------------------

#: The drills' four bundled scenarios, one or two per scene family, and the section each cites.
DRILL_SLUGS = {
    "r21-safety-off-an-opponent": "21.a",
    "p6-safety-spot": "37.6",
    "rp-penalty-1-or-2-where": "37.2",
    "r21-foul-dangerous-or-mechanics": "21.discussion",
}


def bundled(slug: str) -> dict:
    """The entry of scenarios/content/ with this slug, as written."""
    for path in sorted((CONTENT_DIR / "scenarios").glob("*.toml")):
        for entry in tomllib.loads(Path(path).read_text("utf-8"))["scenario"]:
            if entry["slug"] == slug:
                return entry
    raise LookupError(slug)


def create_drill_content() -> dict[str, Scenario]:
    """The rules, the sections DRILL_SLUGS cite, and those scenarios (also for a live server,
    from the browser tests)."""
    for number in (21, 37):
        make_rule(number, title_en=f"Rule {number}")
    refs = ["21.a", "21.b", "21.discussion", "37.1", "37.2", "37.5b", "37.6"]
    for position, ref in enumerate(refs):
        Section.objects.create(
            ref=ref,
            rule_id=int(ref.split(".")[0]),
            position=position,
            title_it=f"Sezione {ref}",
            title_en=f"Section {ref}",
            paragraphs=[{"it": f"Testo italiano di {ref}.", "en": f"English text of {ref}."}],
        )
    return {slug: make_scenario(bundled(slug), ref=ref) for slug, ref in DRILL_SLUGS.items()}


@functools.cache
def _shipped() -> Content:
    # Read and checked once per process: reading checks every scenario's fairness (~2 s), and
    # the files do not change while the tests run.
    return read_content(sample=range(1))


def load_shipped() -> LoadReport:
    """The rulebook, scenarios and glossary as shipped, written as `content load` writes them
    (a copy each time: nothing a test does reaches the next one's content)."""
    return load(copy.deepcopy(_shipped()))
