"""The play in words for the scene families of issue 25: each event said, in both languages,
and never when to stop for it."""

import pytest

from polotrainer.drills.words import describe
from polotrainer.rules import rule_json
from scenarios import scenes


def scene(kind: str, facts: dict, situation_en: str) -> scenes.Scene:
    ruling = rule_json(kind, facts)
    return scenes.scene_for("w", 3, facts, {}, ruling, kind=kind, situation_en=situation_en)


@pytest.mark.parametrize(
    ("kind", "facts", "situation_en", "en", "it"),
    [
        (
            "stoppage",
            {"incident": "lost_helmet"},
            "Blue #4's helmet falls off during a ride-off 50 yards from goal.",
            ["Blue #4 loses his helmet.", "The play stops here: your call."],
            ["Blu #4 perde il casco.", "L'azione si ferma qui: tocca a te decidere."],
        ),
        (
            "stoppage",
            {"incident": "inadvertent_whistle", "fair_play_possession": False},
            "70 yards from the Red goal, as Blue #2 hits the ball you blow an inadvertent "
            "whistle. The ball rolls on for another 30 yards before it stops.",
            [
                "Blue #2 hits the ball.",
                "A whistle sounds.",
                "The ball rolls on and comes to rest.",
                "The play stops here: your call.",
            ],
            [
                "Blu #2 colpisce la palla.",
                "Si sente un fischio.",
                "La palla continua a rotolare e si ferma.",
                "L'azione si ferma qui: tocca a te decidere.",
            ],
        ),
        (
            "foul_at_horn",
            {"timing": "at_or_slightly_after_horn", "final_period": False},
            "Blue #1 fouls Red #2 half a second after the horn ending the period.",
            [
                "The horn sounds the end of the period.",
                "Blue #1 fouls, ",
                "The play stops here: your call.",
            ],
            [
                "La sirena segna la fine del periodo.",
                "Blu #1 commette un fallo, ",
                "L'azione si ferma qui: tocca a te decidere.",
            ],
        ),
    ],
)
def test_each_event_is_said_in_both_languages(kind, facts, situation_en, en, it) -> None:
    played = scene(kind, facts, situation_en)
    for lang, expected in (("en", en), ("it", it)):
        said = describe(played, lang)
        assert len(said) == len(expected)
        assert all(s.startswith(e) for s, e in zip(said, expected, strict=True)), said
