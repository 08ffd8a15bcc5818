"""The registry of kinds of ruling, and the JSON entry points the web layer and CLI use.

>>> rule_json("penalty_spot", {"penalty": "4"})["spot"]
{'x': -90.0, 'y': 0.0}
>>> describe("foul_at_horn")["ruling"]["execution"]["type"]
'enum'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from . import penalties, recognition, stoppages, substitutes
from .codec import describe_fields, parse, to_json
from .errors import UnknownKind


@dataclass(frozen=True, slots=True)
class Kind:
    """A kind of ruling: its situation class, the function that decides it, and a summary."""

    name: str
    situation: type
    decide: Callable[[Any], Any]
    ruling: type
    summary: str


def _kinds(*kinds: Kind) -> dict[str, Kind]:
    return {kind.name: kind for kind in kinds}


#: Every kind of ruling, by name.
KINDS: Mapping[str, Kind] = _kinds(
    Kind(
        "penalty_spot",
        penalties.PenaltySpotSituation,
        penalties.decide_penalty_spot,
        penalties.PenaltySpotRuling,
        "Where the ball is placed for a Penalty 1 to 6 (Rule 37).",
    ),
    Kind(
        "penalty_positions",
        penalties.PenaltyPositionsSituation,
        penalties.decide_penalty_positions,
        penalties.PenaltyPositionsRuling,
        "Which players are out of position for a Penalty 2 to 6, and why (Rule 37).",
    ),
    Kind(
        "penalty_interference",
        penalties.PenaltyInterferenceSituation,
        penalties.decide_penalty_interference,
        penalties.PenaltyInterferenceRuling,
        "A Penalty 2, 3 or 4 interfered with by the fouling team: goal, retake or stands.",
    ),
    Kind(
        "recognise_penalty",
        recognition.RecognitionSituation,
        recognition.decide_recognition,
        recognition.RecognitionRuling,
        "A foul as the Umpire judges it: the Penalty 1 test, which penalty, where it is taken.",
    ),
    Kind(
        "penalty_3_defended",
        penalties.Penalty3DefendedSituation,
        penalties.decide_penalty_3_defended,
        penalties.Penalty3DefendedRuling,
        "Whether Penalty 3 is defended in an event, and why not (Rule 37).",
    ),
    Kind(
        "penalty_3_in_play",
        penalties.Penalty3PlaySituation,
        penalties.decide_penalty_3_play,
        penalties.Penalty3PlayRuling,
        "Penalty 3 once hit: may the fouled team play the ball again, may the fouling team enter.",
    ),
    Kind(
        "penalty_7",
        penalties.Penalty7Situation,
        penalties.decide_penalty_7,
        penalties.Penalty7Ruling,
        "Penalty 7: who may be designated for removal and the time allowed, or why not.",
    ),
    Kind(
        "ceiling_after_penalty_7",
        penalties.CeilingSituation,
        penalties.decide_ceiling,
        penalties.CeilingRuling,
        "After a Penalty 7 removal: the handicap ceiling and who may re-enter (Rules 3.f, 37).",
    ),
    Kind(
        "penalty_8",
        penalties.Penalty8Situation,
        penalties.decide_penalty_8,
        penalties.Penalty8Ruling,
        "Penalty 8: whether the mount ordered off may play again; forfeiture for Rule 6a.",
    ),
    Kind(
        "penalty_9",
        penalties.Penalty9Situation,
        penalties.decide_penalty_9,
        penalties.Penalty9Ruling,
        "Penalty 9: which teams forfeit the game.",
    ),
    Kind(
        "penalty_10",
        penalties.Penalty10Situation,
        penalties.decide_penalty_10,
        penalties.Penalty10Ruling,
        "Penalty 10: whether the Umpire may exclude the player (Rule 37).",
    ),
    Kind(
        "substitution",
        substitutes.SubstitutionSituation,
        substitutes.decide_substitution,
        substitutes.SubstitutionRuling,
        "Whether and when a substitution may be made, and the handicap counted (Rule 3).",
    ),
    Kind(
        "stoppage",
        stoppages.StoppageSituation,
        stoppages.decide_stoppage,
        stoppages.StoppageRuling,
        "When play stops for an incident, the time allowed, the restart, mounts (Rule 21).",
    ),
    Kind(
        "foul_at_horn",
        stoppages.FoulAtHornSituation,
        stoppages.decide_foul_at_horn,
        stoppages.FoulAtHornRuling,
        "When a penalty for a foul at the horn or between periods is executed (Rule 21).",
    ),
    Kind(
        "verbal_cue",
        stoppages.VerbalCueSituation,
        stoppages.decide_verbal_cue,
        stoppages.VerbalCueRuling,
        "Whether the Umpire may give a player a verbal cue during play (Rule 21.b).",
    ),
)


def kind_named(name: str) -> Kind:
    """The kind called ``name``; :class:`UnknownKind` if there is none."""
    try:
        return KINDS[name]
    except KeyError:
        raise UnknownKind("kind", f"expected one of: {', '.join(KINDS)}") from None


def rule_json(kind: str, facts: Mapping[str, object]) -> dict[str, Any]:
    """Parse ``facts``, decide, and return the ruling as JSON-compatible data.

    >>> rule_json("penalty_7", {"disabled_handicap": 6, "fouling_players": [
    ...     {"id": "B1", "handicap": 5}, {"id": "B2", "handicap": 4}]})["designatable"]
    ['B1', 'B2']
    """
    k = kind_named(kind)
    ruling: dict[str, Any] = to_json(k.decide(parse(k.situation, facts)))
    return ruling


def rule_field(kind: str, facts: Mapping[str, object], field: str) -> Any:
    """Parse ``facts``, decide, and return one field of the ruling as JSON-compatible data:
    ``rule_json(kind, facts)[field]`` without writing out the rest of the ruling.

    >>> rule_field("penalty_7", {"disabled_handicap": 6, "fouling_players": [
    ...     {"id": "B1", "handicap": 5}, {"id": "B2", "handicap": 4}]}, "designatable")
    ['B1', 'B2']
    """
    k = kind_named(kind)
    return to_json(getattr(k.decide(parse(k.situation, facts)), field))


def describe(kind: str) -> dict[str, Any]:
    """The machine-readable schema of a kind: its summary, facts and ruling fields."""
    k = kind_named(kind)
    ruling = describe_fields(k.ruling)
    for entry in ruling.values():
        entry.pop("default", None)
        entry.pop("required")
    return {"summary": k.summary, "facts": describe_fields(k.situation), "ruling": ruling}
