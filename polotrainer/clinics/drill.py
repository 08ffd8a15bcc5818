"""Drill rounds: a clinic's round played as a scene, the room calling it together (issue 25).

A clinic created "as drills" gives each situation a scene family plays a seed whose variant one
plays (scenarios.drillable) and stores when its scene stops (`Round.stop_ms`); a situation no
family plays stays an ordinary round. When the instructor shows a drill round the projector
plays the scene from the round's opening, at match speed; at the stop every phone's countdown
starts (COUNTDOWN_MS, the self-study drill's) and the round closes at its end
(`ClinicSession.closes_at`, by the server's clock). An answer that arrives before the stop is
refused (the play is not over), one after the countdown plus answering.GRACE_MS is refused like
any late clinic answer. An answer's decision time is its arrival minus the stop. No speed points
unless the instructor turned the speed bonus on (then over the countdown, as for a timed round).
"""

import statistics
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.utils.translation import gettext as _

from polotrainer.clinics.board import Bar
from polotrainer.clinics.models import ClinicAnswer, Round
from polotrainer.drills import plays
from polotrainer.umpires.decisions import FAST_MS
from scenarios import drillable, quiz, scenes
from scenarios.models import Scenario
from scenarios.variants import fresh_seed

#: The phones' countdown after the stop: the self-study drill's.
COUNTDOWN_MS = plays.COUNTDOWN_MS


def prepare(scenario: Scenario) -> tuple[int, int | None]:
    """A drill round's seed and stop (ms after the opening); a fresh seed and None when no scene
    family plays the situation (it is then an ordinary round)."""
    seed, family = drillable.playable_seed(scenario)
    if not family:
        return fresh_seed(), None
    try:
        scene = drillable.scene_of(quiz.pose(scenario, seed, "en"))
    except scenes.SceneError:
        return fresh_seed(), None
    return seed, round(scene.stop * 1000)


def closes_at(opened: datetime, stop_ms: int) -> datetime:
    """When a drill round shown at `opened` closes: the scene's stop, then the countdown."""
    return opened + timedelta(milliseconds=stop_ms + COUNTDOWN_MS)


def stop_at(opened: datetime, stop_ms: int) -> datetime:
    return opened + timedelta(milliseconds=stop_ms)


def decision_ms(current: Round, elapsed_ms: int) -> int:
    """An answer's decision time: from the scene's stop to its arrival (0 for other rounds)."""
    return max(0, elapsed_ms - (current.stop_ms or 0)) if current.stop_ms is not None else 0


@dataclass(frozen=True)
class Times:
    """How fast the room called it: a bar per second of the countdown and one for time-outs."""

    bars: tuple[Bar, ...]
    answered: int
    timed_out: int
    median_s: float | None
    fast_right: int  # answered all right within FAST_MS


def times(current: Round, answers: Iterable[ClinicAnswer], in_room: int) -> Times:
    """The spread of decision times of the round's answers, among the `in_room` participants
    (those who did not answer timed out)."""
    by_participant: dict[int, list[ClinicAnswer]] = {}
    for a in answers:
        if a.round_id == current.pk:
            by_participant.setdefault(a.participant_id, []).append(a)
    decisions = {p: decision_ms(current, rows[0].elapsed_ms) for p, rows in by_participant.items()}
    all_right = {p: all(a.correct for a in rows) for p, rows in by_participant.items()}
    seconds = max(1, COUNTDOWN_MS // 1000)
    counts = [0] * seconds
    for ms in decisions.values():
        counts[min(seconds - 1, ms // 1000)] += 1
    timed_out = max(0, in_room - len(decisions))
    whole = max(1, in_room, len(decisions))
    bars = [
        Bar(_("%(low)s–%(high)s s") % {"low": n, "high": n + 1}, c, round(100 * c / whole))  # noqa: RUF001 (a range)
        for n, c in enumerate(counts)
    ]
    bars.append(Bar(_("Time-out"), timed_out, round(100 * timed_out / whole)))
    return Times(
        bars=tuple(bars),
        answered=len(decisions),
        timed_out=timed_out,
        median_s=statistics.median(decisions.values()) / 1000 if decisions else None,
        fast_right=sum(1 for p, ms in decisions.items() if ms <= FAST_MS and all_right[p]),
    )
