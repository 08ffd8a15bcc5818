"""The engine's kinds of ruling, said in the page's language (the engine's own summaries are
English only: `python -m polotrainer.rules --list`)."""

from django.utils.translation import gettext_lazy as _

from polotrainer.rules import KINDS, describe

KIND_NAMES = {
    "penalty_spot": _("Where the ball is placed for a Penalty 1 to 6 (Rule 37)."),
    "penalty_positions": _(
        "Which players are out of position for a Penalty 2 to 6, and why (Rule 37)."
    ),
    "penalty_interference": _(
        "A Penalty 2, 3 or 4 interfered with by the fouling team: goal, retake or stands."
    ),
    "recognise_penalty": _(
        "A foul as the Umpire judges it: the Penalty 1 test, which penalty, where it is taken."
    ),
    "penalty_3_defended": _("Whether Penalty 3 is defended in an event, and why not (Rule 37)."),
    "penalty_3_in_play": _(
        "Penalty 3 once hit: may the fouled team play the ball again, may the fouling team enter."
    ),
    "penalty_7": _(
        "Penalty 7: who may be designated for removal and the time allowed, or why not."
    ),
    "ceiling_after_penalty_7": _(
        "After a Penalty 7 removal: the handicap ceiling and who may re-enter (Rules 3.f, 37)."
    ),
    "penalty_8": _(
        "Penalty 8: whether the mount ordered off may play again; forfeiture for Rule 6a."
    ),
    "penalty_9": _("Penalty 9: which teams forfeit the game."),
    "penalty_10": _("Penalty 10: whether the Umpire may exclude the player (Rule 37)."),
    "substitution": _(
        "Whether and when a substitution may be made, and the handicap counted (Rule 3)."
    ),
    "stoppage": _(
        "When play stops for an incident, the time allowed, the restart, mounts (Rule 21)."
    ),
    "foul_at_horn": _(
        "When a penalty for a foul at the horn or between periods is executed (Rule 21)."
    ),
    "verbal_cue": _("Whether the Umpire may give a player a verbal cue during play (Rule 21.b)."),
}


def kind_name(kind: str) -> str:
    """The kind's summary in the page's language (the engine's English for a kind added since)."""
    return str(KIND_NAMES.get(kind) or describe(kind)["summary"])


def kinds() -> list[tuple[str, str]]:
    return [(k, kind_name(k)) for k in KINDS]
