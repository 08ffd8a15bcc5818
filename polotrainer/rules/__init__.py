"""The polo rules engine: rulings of USPA Rules 3, 21 and 37 computed from the facts.

Pure Python, standard library only. Every ruling carries its ``reasons``: the rulebook sections
(docs/references.md) that decided it, each with a machine key.

>>> rule_json("penalty_spot", {"penalty": "6", "crossing_y": -60})["spot"]
{'x': -90.0, 'y': -40.0}
>>> sorted(KINDS)[:3]
['ceiling_after_penalty_7', 'foul_at_horn', 'penalty_10']
"""

from .errors import (
    DuplicateId,
    FactError,
    Inconsistent,
    InvalidChoice,
    MissingFact,
    NotOnField,
    OffField,
    OutOfRange,
    OverUpperLimit,
    TooFewPlayers,
    TooManyPlayers,
    UnknownFact,
    UnknownKind,
    UnknownPenalty,
    WrongType,
)
from .field import (
    DEFAULT_FIELD,
    GOAL_POST_HALF_WIDTH,
    LINE_DISTANCES,
    P6_MAX_FROM_CENTRE,
    SIDE_MARGIN,
    Field,
    Point,
)
from .kinds import KINDS, Kind, describe, rule_json
from .penalties import (
    Breach,
    CeilingRuling,
    CeilingSituation,
    InterferenceOutcome,
    MountViolation,
    Penalty2Choice,
    Penalty3Condition,
    Penalty3DefendedRuling,
    Penalty3DefendedSituation,
    Penalty7Outcome,
    Penalty7Ruling,
    Penalty7Situation,
    Penalty7Step,
    Penalty8Ruling,
    Penalty8Situation,
    Penalty9Ruling,
    Penalty9Situation,
    Penalty10Ruling,
    Penalty10Situation,
    PenaltyInterferenceRuling,
    PenaltyInterferenceSituation,
    PenaltyPositionsRuling,
    PenaltyPositionsSituation,
    PenaltySpotRuling,
    PenaltySpotSituation,
    PlacedPlayer,
    PlayerStatus,
    Requirement,
    SpotPenalty,
    Team,
    TeamColour,
    decide_ceiling,
    decide_penalty_3_defended,
    decide_penalty_7,
    decide_penalty_8,
    decide_penalty_9,
    decide_penalty_10,
    decide_penalty_interference,
    decide_penalty_positions,
    decide_penalty_spot,
)
from .recognition import (
    AwardedPenalty,
    Penalty1Condition,
    PenaltyNumber,
    RecognitionRuling,
    RecognitionSituation,
    decide_recognition,
)
from .stoppages import (
    Announcement,
    Consequence,
    Execution,
    FoulAtHornRuling,
    FoulAtHornSituation,
    HornTiming,
    Incident,
    MountChange,
    MountReturn,
    Restart,
    Signal,
    StoppageRuling,
    StoppageSituation,
    StoppageStep,
    StopWhen,
    decide_foul_at_horn,
    decide_stoppage,
)
from .substitutes import (
    LeaveReason,
    Moment,
    SubDecision,
    Substitute,
    SubstitutionRuling,
    SubstitutionSituation,
    decide_substitution,
)
from .vocabulary import REASON_REFS, REFS, Player, Reason, ReasonKey, Step

__all__ = [
    "DEFAULT_FIELD", "GOAL_POST_HALF_WIDTH", "KINDS", "LINE_DISTANCES", "P6_MAX_FROM_CENTRE",
    "REASON_REFS", "REFS", "SIDE_MARGIN",
    "Announcement", "AwardedPenalty", "Breach", "CeilingRuling", "CeilingSituation", "Consequence",
    "DuplicateId", "Execution", "FactError", "Field", "FoulAtHornRuling", "FoulAtHornSituation",
    "HornTiming", "Incident", "Inconsistent", "InterferenceOutcome", "InvalidChoice", "Kind",
    "LeaveReason", "MissingFact", "Moment", "MountChange", "MountReturn", "MountViolation",
    "NotOnField", "OffField", "OutOfRange", "OverUpperLimit", "Penalty1Condition", "Penalty2Choice",
    "Penalty3Condition", "Penalty3DefendedRuling", "Penalty3DefendedSituation", "Penalty7Outcome",
    "Penalty7Ruling", "Penalty7Situation", "Penalty7Step", "Penalty8Ruling", "Penalty8Situation",
    "Penalty9Ruling", "Penalty9Situation", "Penalty10Ruling", "Penalty10Situation",
    "PenaltyInterferenceRuling", "PenaltyInterferenceSituation", "PenaltyNumber",
    "PenaltyPositionsRuling", "PenaltyPositionsSituation", "PenaltySpotRuling",
    "PenaltySpotSituation", "PlacedPlayer", "Player", "PlayerStatus", "Point", "Reason",
    "ReasonKey", "RecognitionRuling", "RecognitionSituation", "Requirement", "Restart", "Signal",
    "SpotPenalty", "Step", "StopWhen", "StoppageRuling", "StoppageSituation", "StoppageStep",
    "SubDecision", "Substitute", "SubstitutionRuling", "SubstitutionSituation", "Team",
    "TeamColour", "TooFewPlayers", "TooManyPlayers", "UnknownFact", "UnknownKind", "UnknownPenalty",
    "WrongType",
    "decide_ceiling", "decide_foul_at_horn", "decide_penalty_3_defended", "decide_penalty_7",
    "decide_penalty_8", "decide_penalty_9", "decide_penalty_10", "decide_penalty_interference",
    "decide_penalty_positions", "decide_penalty_spot", "decide_recognition", "decide_stoppage",
    "decide_substitution", "describe", "rule_json",
]  # fmt: skip
