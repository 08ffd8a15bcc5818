"""The shared vocabulary of the engine: rule references, reasons and players.

A :class:`Reason` names the rulebook section that decided a ruling (``ref``, one of
:data:`REFS`, as listed in docs/references.md) and a machine key (:class:`ReasonKey`) that the
web layer turns into an Italian or English sentence.

>>> because(ReasonKey.P6_SPOT_OPPOSITE_CROSSING)
(Reason(ref='37.6', key=<ReasonKey.P6_SPOT_OPPOSITE_CROSSING: 'p6_spot_opposite_crossing'>),)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from functools import cache

from .errors import DuplicateId, OutOfRange, TooFewPlayers, TooManyPlayers

#: Every section reference a reason may cite (docs/references.md).
REFS: frozenset[str] = frozenset(
    (
        "3.a",
        "3.b",
        "3.c",
        "3.d",
        "3.e",
        "3.f",
        "3.summary",
        "21",
        "21.a",
        "21.b",
        "21.c",
        "21.d",
        "21.e",
        "21.f",
        "21.f(1)",
        "21.f(2)",
        "21.f(3)",
        "21.f(4)",
        "21.f(5)",
        "21.g",
        "21.h",
        "21.i",
        "21.j",
        "21.k",
        "21.l",
        "21.discussion",
        "37.1",
        "37.2",
        "37.3",
        "37.4",
        "37.5a",
        "37.5b",
        "37.6",
        "37.7",
        "37.7.applying",
        "37.8",
        "37.9",
        "37.10",
    )
)

#: Handicaps run from -2 to 10 goals.
MIN_HANDICAP = -2
MAX_HANDICAP = 10
#: At most four players a side are on the field.
MAX_PLAYERS = 4


class ReasonKey(StrEnum):
    """Every reason the engine can give; :data:`REASON_REFS` holds the section of each."""

    # Rule 37: penalty spots
    P1_GOAL_AWARDED = "p1_goal_awarded"
    P1_NOT_DANGEROUS_OR_DELIBERATE = "p1_not_dangerous_or_deliberate"
    P1_NOT_IN_VICINITY_OF_GOAL = "p1_not_in_vicinity_of_goal"
    P1_NOT_TO_SAVE_A_GOAL = "p1_not_to_save_a_goal"
    P2_THIRTY_YARD_LINE = "p2_thirty_yard_line"
    P2_SPOT_OF_FOUL = "p2_spot_of_foul"
    P3_FORTY_YARD_LINE = "p3_forty_yard_line"
    P4_SIXTY_YARD_LINE = "p4_sixty_yard_line"
    P5A_SPOT_WHERE_BALL_WAS = "p5a_spot_where_ball_was"
    P5A_FIVE_YARDS_FROM_SIDES = "p5a_five_yards_from_sides"
    P5B_CENTRE = "p5b_centre"
    P6_SPOT_OPPOSITE_CROSSING = "p6_spot_opposite_crossing"
    P6_NO_MORE_THAN_40_FROM_CENTRE = "p6_no_more_than_40_from_centre"
    # Rule 37: positions
    P2_THIRTY_POSITIONS = "p2_thirty_positions"
    P2_SPOT_POSITIONS = "p2_spot_positions"
    P2_NO_ENTRY_ONCE_IN_PLAY = "p2_no_entry_once_in_play"
    P3_POSITIONS = "p3_positions"
    P3_UNDEFENDED_NO_ENTRY = "p3_undefended_no_entry"
    P3_DEFENDED_ENTRY = "p3_defended_entry"
    P3_DEFENDED_NOT_BETWEEN_POSTS = "p3_defended_not_between_posts"
    P3_UNDEFENDED_HIT_ONCE = "p3_undefended_hit_once"
    P3_DEFENDED_HIT_ONCE_UNTIL = "p3_defended_hit_once_until"
    P3_DEFENDED_BALL_FREED = "p3_defended_ball_freed"
    # Rule 37: whether a Penalty 3 is defended (the note printed with 37.2)
    P3_DEFENDED_ELECTED = "p3_defended_elected"
    P3_NOT_ELECTED = "p3_not_elected"
    P3_NOT_COMMUNICATED = "p3_not_communicated"
    P3_BELOW_EIGHT_GOALS = "p3_below_eight_goals"
    P3_NO_PROFESSIONAL_UMPIRES = "p3_no_professional_umpires"
    P3_UMPIRES_LLC_APPROVED = "p3_umpires_llc_approved"
    P4_POSITIONS = "p4_positions"
    P5A_POSITIONS = "p5a_positions"
    P5B_POSITIONS = "p5b_positions"
    P6_POSITIONS = "p6_positions"
    # Rule 37: interference with Penalties 2, 3 and 4
    P2_INTERFERENCE_GOAL = "p2_interference_goal"
    P2_INTERFERENCE_RETAKE = "p2_interference_retake"
    P2_HIT_STANDS = "p2_hit_stands"
    P3_INTERFERENCE_GOAL = "p3_interference_goal"
    P3_INTERFERENCE_RETAKE = "p3_interference_retake"
    P3_HIT_STANDS = "p3_hit_stands"
    P4_PROCEDURE_GOAL = "p4_procedure_goal"
    P4_HIT_STANDS = "p4_hit_stands"
    # Rule 37: Penalty 7
    P7_AWARD_AT_UMPIRES_DISCRETION = "p7_award_at_umpires_discretion"
    P7_NEAREST_ABOVE = "p7_nearest_above"
    P7_ANY_WHEN_NONE_ABOVE = "p7_any_when_none_above"
    P7_QUALIFIED_SUBSTITUTE = "p7_qualified_substitute"
    P7_HANDICAP_UNCHANGED = "p7_handicap_unchanged"
    P7_FIFTEEN_MINUTES = "p7_fifteen_minutes"
    P7_THREE_A_SIDE = "p7_three_a_side"
    P7_ONLY_AT_TIME_OF_FOUL = "p7_only_at_time_of_foul"
    P7_CEILING_HIGHER_TEAM = "p7_ceiling_higher_team"
    P7_FOULING_ORIGINAL_THREE = "p7_fouling_original_three"
    P7_INJURED_MAY_NOT_RETURN = "p7_injured_may_not_return"
    P7_REMOVED_REMAINS_QUALIFIED = "p7_removed_remains_qualified"
    # Rule 37: Penalties 8, 9 and 10
    P8_MOUNT_ORDERED_OFF = "p8_mount_ordered_off"
    P8_CURED_MAY_RETURN = "p8_cured_may_return"
    P8_NOT_CURED = "p8_not_cured"
    P8_WOULD_DELAY_GAME = "p8_would_delay_game"
    P8_RULE_6A_FORFEITURE = "p8_rule_6a_forfeiture"
    P9_FORFEIT = "p9_forfeit"
    P9_BOTH_FORFEIT = "p9_both_forfeit"
    P10_DELIBERATE_DANGEROUS_FOUL = "p10_deliberate_dangerous_foul"
    P10_PREJUDICIAL_CONDUCT = "p10_prejudicial_conduct"
    P10_NO_GROUNDS = "p10_no_grounds"
    # Rule 3: substitutes
    SUB_BETWEEN_PERIODS = "sub_between_periods"
    SUB_UNABLE_ANY_TIME = "sub_unable_any_time"
    SUB_DOUBLE_ON_INJURY = "sub_double_on_injury"
    SUB_DOUBLE_ONLY_ON_INJURY = "sub_double_only_on_injury"
    SUB_ABLE_END_OF_PERIOD = "sub_able_end_of_period"
    SUB_OPEN_POSITION_ANY_TIME = "sub_open_position_any_time"
    SUB_MUST_BE_ELIGIBLE = "sub_must_be_eligible"
    SUB_MUST_HAVE_BEEN_ELIGIBLE_TO_START = "sub_must_have_been_eligible_to_start"
    SUB_OVER_UPPER_LIMIT = "sub_over_upper_limit"
    SUB_CHANGE_NOW_OVER_UPPER_LIMIT = "sub_change_now_over_upper_limit"
    SUB_BELOW_LOWER_ALLOWED = "sub_below_lower_allowed"
    SUB_OVER_PENALTY_7_CEILING = "sub_over_penalty_7_ceiling"
    SUB_OVER_FOULING_TEAM_LIMIT = "sub_over_fouling_team_limit"
    SUB_UNCONSCIOUS_NOT_TODAY = "sub_unconscious_not_today"
    HIGHEST_HANDICAP_COUNTS = "highest_handicap_counts"
    PLAY_ON_WITH_THREE = "play_on_with_three"
    # Rule 21: stoppages
    SAFETY_PENALTY_6 = "safety_penalty_6"
    SAFETY_NOT_IF_TOUCHED_OTHER = "safety_not_if_touched_other"
    SAFETY_MERE_TOUCH_IS_A_HIT = "safety_mere_touch_is_a_hit"
    SAFETY_TEAMMATES_MALLET = "safety_teammates_mallet"
    FOUL_MAY_STOP = "foul_may_stop"
    FOUL_ADVANTAGE = "foul_advantage"
    FOUL_MECHANICS_DISCRETION = "foul_mechanics_discretion"
    FOUL_DANGEROUS_AT_ONCE = "foul_dangerous_at_once"
    FOUL_WHEN_STOPPED_SIGNAL = "foul_when_stopped_signal"
    FOUL_NO_ADVANTAGE_WHISTLE = "foul_no_advantage_whistle"
    FOUL_DELAY_JUDGE_AFTER_NEXT_PLAY = "foul_delay_judge_after_next_play"
    FOUL_PLAY_ON = "foul_play_on"
    FOUL_NON_CALL = "foul_non_call"
    CUE_MAY_INFORM = "cue_may_inform"
    CUE_NOT_REQUIRED = "cue_not_required"
    CUE_NEVER_COACH = "cue_never_coach"
    CUE_WHEN_TIME_AND_PROXIMITY_PERMIT = "cue_when_time_and_proximity_permit"
    BALL_UNPLAYABLE_STOP = "ball_unplayable_stop"
    BALL_MINOR_WAIT_NEUTRAL = "ball_minor_wait_neutral"
    INJURY_TEN_MINUTES = "injury_ten_minutes"
    INJURY_UNCONSCIOUS_NO_PLAY_TODAY = "injury_unconscious_no_play_today"
    INJURY_NO_TIMEOUT_FOR_RECURRENCE = "injury_no_timeout_for_recurrence"
    INJURY_MORE_TIME_TO_REMOVE = "injury_more_time_to_remove"
    INJURY_ADDITIONAL_TIME_GRANTED = "injury_additional_time_granted"
    UNABLE_ASSUME_INJURED = "unable_assume_injured"
    UNABLE_QUITS_NO_TIMEOUT = "unable_quits_no_timeout"
    FALL_STOP_AT_NEUTRAL = "fall_stop_at_neutral"
    FALL_POSSIBLY_INJURED_STOP_NOW = "fall_possibly_injured_stop_now"
    MOUNT_INJURED_STOP_NOW = "mount_injured_stop_now"
    MOUNT_VISIBLY_INJURED_ALL_MAY_CHANGE = "mount_visibly_injured_all_may_change"
    MOUNT_NOT_VISIBLY_INJURED_PLAYER_CHANGES = "mount_not_visibly_injured_player_changes"
    EXCUSED_MOUNT_MAY_NOT_PLAY = "excused_mount_may_not_play"
    MOUNT_AUTHORITY_TO_STOP = "mount_authority_to_stop"
    COURTESY_CHANGE_ONE_MINUTE = "courtesy_change_one_minute"
    COURTESY_CHANGE_NOT_AVAILABLE = "courtesy_change_not_available"
    COURTESY_TWO_HORSES_PER_UMPIRE = "courtesy_two_horses_per_umpire"
    COURTESY_NO_HORSES_SHORT_GAME = "courtesy_no_horses_short_game"
    MOUNT_FALL_STOP_NOW = "mount_fall_stop_now"
    MOUNT_FALL_SOUND_MAY_REMOUNT = "mount_fall_sound_may_remount"
    MOUNT_FALL_CHANGE_MAY_RETURN = "mount_fall_change_may_return"
    MOUNT_FALL_UNSOUND_MUST_CHANGE = "mount_fall_unsound_must_change"
    MOUNT_TIMEOUT_FIVE_MINUTES = "mount_timeout_five_minutes"
    MOUNT_TIMEOUT_SOUND_REMOUNTS = "mount_timeout_sound_remounts"
    MOUNT_TIMEOUT_CHANGE_EXTENDS = "mount_timeout_change_extends"
    MOUNT_TIMEOUT_TEAMMATE_CHANGED = "mount_timeout_teammate_changed"
    MOUNT_CHANGED_IN_PLAY_MAY_RETURN = "mount_changed_in_play_may_return"
    EXCUSED_MOUNT_RETURNED_FORFEIT = "excused_mount_returned_forfeit"
    EXCUSED_MOUNT_NO_EVIDENCE = "excused_mount_no_evidence"
    TACK_DANGEROUS_STOP_NOW = "tack_dangerous_stop_now"
    TACK_NOT_DANGEROUS_WAIT_BALL_OUT = "tack_not_dangerous_wait_ball_out"
    TACK_RISK_WAIT_NEUTRAL = "tack_risk_wait_neutral"
    TACK_NO_RISK_NOT_STATED = "tack_no_risk_not_stated"
    TACK_LOW_GOAL_FIVE_MINUTES = "tack_low_goal_five_minutes"
    TACK_FIVE_MINUTES_NOT_ANNOUNCED = "tack_five_minutes_not_announced"
    TACK_LEAVE_FIELD = "tack_leave_field"
    TACK_CONTACT_FIVE_MINUTES = "tack_contact_five_minutes"
    TACK_CHANGE_IF_QUICKER = "tack_change_if_quicker"
    TACK_CALL_LINEUP = "tack_call_lineup"
    TACK_RESTART_THROW_IN = "tack_restart_throw_in"
    TACK_CHANGED_WITHOUT_PERMISSION = "tack_changed_without_permission"
    EQUIPMENT_WAIT_NEUTRAL = "equipment_wait_neutral"
    EQUIPMENT_STOP_NOW = "equipment_stop_now"
    HELMET_STOP_AT_NEUTRAL = "helmet_stop_at_neutral"
    LODGED_BALL_DEAD_WHERE_LODGED = "lodged_ball_dead_where_lodged"
    LODGED_BALL_DROPPED_PLAY_ON = "lodged_ball_dropped_play_on"
    PERIOD_END_STOP = "period_end_stop"
    SUSPENSION_DISCRETION = "suspension_discretion"
    INADVERTENT_WHISTLE_THROW_IN = "inadvertent_whistle_throw_in"
    INADVERTENT_WHISTLE_FAIR_PLAY = "inadvertent_whistle_fair_play"
    DROPPED_MALLET_NO_TIME = "dropped_mallet_no_time"
    # Rule 21: fouls at the horn
    FOUL_BEFORE_HORN = "foul_before_horn"
    HORN_FOUL_NEXT_PERIOD = "horn_foul_next_period"
    HORN_FOUL_FIVE_SECONDS = "horn_foul_five_seconds"
    UNSPORTSMANLIKE_BETWEEN_PERIODS = "unsportsmanlike_between_periods"
    UNSPORTSMANLIKE_YELLOW_CARD = "unsportsmanlike_yellow_card"


def _refs() -> dict[ReasonKey, str]:
    k = ReasonKey
    by_ref: dict[str, tuple[ReasonKey, ...]] = {
        "37.1": (
            k.P1_GOAL_AWARDED,
            k.P1_NOT_DANGEROUS_OR_DELIBERATE,
            k.P1_NOT_IN_VICINITY_OF_GOAL,
            k.P1_NOT_TO_SAVE_A_GOAL,
        ),
        "37.2": (
            k.P2_THIRTY_YARD_LINE,
            k.P2_SPOT_OF_FOUL,
            k.P2_THIRTY_POSITIONS,
            k.P2_SPOT_POSITIONS,
            k.P2_NO_ENTRY_ONCE_IN_PLAY,
            k.P2_INTERFERENCE_GOAL,
            k.P2_INTERFERENCE_RETAKE,
            k.P2_HIT_STANDS,
            # The bracketed "Penalty 3 may be defended" note is printed after Penalty 2.
            k.P3_DEFENDED_ELECTED,
            k.P3_NOT_ELECTED,
            k.P3_NOT_COMMUNICATED,
            k.P3_BELOW_EIGHT_GOALS,
            k.P3_NO_PROFESSIONAL_UMPIRES,
            k.P3_UMPIRES_LLC_APPROVED,
        ),
        "37.3": (
            k.P3_FORTY_YARD_LINE,
            k.P3_POSITIONS,
            k.P3_UNDEFENDED_NO_ENTRY,
            k.P3_DEFENDED_ENTRY,
            k.P3_DEFENDED_NOT_BETWEEN_POSTS,
            k.P3_UNDEFENDED_HIT_ONCE,
            k.P3_DEFENDED_HIT_ONCE_UNTIL,
            k.P3_DEFENDED_BALL_FREED,
            k.P3_INTERFERENCE_GOAL,
            k.P3_INTERFERENCE_RETAKE,
            k.P3_HIT_STANDS,
        ),
        "37.4": (k.P4_SIXTY_YARD_LINE, k.P4_POSITIONS, k.P4_PROCEDURE_GOAL, k.P4_HIT_STANDS),
        "37.5a": (k.P5A_SPOT_WHERE_BALL_WAS, k.P5A_FIVE_YARDS_FROM_SIDES, k.P5A_POSITIONS),
        "37.5b": (k.P5B_CENTRE, k.P5B_POSITIONS),
        "37.6": (k.P6_SPOT_OPPOSITE_CROSSING, k.P6_NO_MORE_THAN_40_FROM_CENTRE, k.P6_POSITIONS),
        "37.7": (
            k.P7_NEAREST_ABOVE,
            k.P7_ANY_WHEN_NONE_ABOVE,
            k.P7_QUALIFIED_SUBSTITUTE,
            k.P7_HANDICAP_UNCHANGED,
        ),
        "37.7.applying": (
            k.P7_AWARD_AT_UMPIRES_DISCRETION,
            k.P7_FIFTEEN_MINUTES,
            k.P7_THREE_A_SIDE,
            k.P7_ONLY_AT_TIME_OF_FOUL,
            k.P7_FOULING_ORIGINAL_THREE,
            k.P7_REMOVED_REMAINS_QUALIFIED,
            k.SUB_OVER_FOULING_TEAM_LIMIT,
        ),
        "37.8": (
            k.P8_MOUNT_ORDERED_OFF,
            k.P8_CURED_MAY_RETURN,
            k.P8_NOT_CURED,
            k.P8_WOULD_DELAY_GAME,
            k.P8_RULE_6A_FORFEITURE,
        ),
        "37.9": (k.P9_FORFEIT, k.P9_BOTH_FORFEIT),
        "37.10": (k.P10_DELIBERATE_DANGEROUS_FOUL, k.P10_PREJUDICIAL_CONDUCT, k.P10_NO_GROUNDS),
        "3.a": (k.SUB_BETWEEN_PERIODS,),
        "3.b": (
            k.SUB_UNABLE_ANY_TIME,
            k.SUB_DOUBLE_ON_INJURY,
            k.SUB_DOUBLE_ONLY_ON_INJURY,
            k.SUB_ABLE_END_OF_PERIOD,
            k.SUB_OPEN_POSITION_ANY_TIME,
            k.UNABLE_ASSUME_INJURED,
            k.UNABLE_QUITS_NO_TIMEOUT,
        ),
        "3.c": (
            k.SUB_MUST_BE_ELIGIBLE,
            k.SUB_MUST_HAVE_BEEN_ELIGIBLE_TO_START,
            k.SUB_OVER_UPPER_LIMIT,
            k.SUB_CHANGE_NOW_OVER_UPPER_LIMIT,
            k.SUB_BELOW_LOWER_ALLOWED,
        ),
        "3.d": (k.HIGHEST_HANDICAP_COUNTS,),
        "3.e": (k.PLAY_ON_WITH_THREE,),
        "3.f": (
            k.P7_CEILING_HIGHER_TEAM,
            k.P7_INJURED_MAY_NOT_RETURN,
            k.SUB_OVER_PENALTY_7_CEILING,
        ),
        "21.a": (
            k.SAFETY_PENALTY_6,
            k.SAFETY_NOT_IF_TOUCHED_OTHER,
            k.SAFETY_MERE_TOUCH_IS_A_HIT,
            k.SAFETY_TEAMMATES_MALLET,
        ),
        "21.b": (
            k.FOUL_MAY_STOP,
            k.FOUL_ADVANTAGE,
            k.FOUL_WHEN_STOPPED_SIGNAL,
            k.FOUL_NO_ADVANTAGE_WHISTLE,
            k.FOUL_DELAY_JUDGE_AFTER_NEXT_PLAY,
            k.FOUL_PLAY_ON,
            k.FOUL_NON_CALL,
            k.CUE_MAY_INFORM,
            k.CUE_NOT_REQUIRED,
            k.CUE_NEVER_COACH,
            k.CUE_WHEN_TIME_AND_PROXIMITY_PERMIT,
        ),
        "21.c": (k.BALL_UNPLAYABLE_STOP, k.BALL_MINOR_WAIT_NEUTRAL),
        "21.d": (
            k.INJURY_TEN_MINUTES,
            k.INJURY_UNCONSCIOUS_NO_PLAY_TODAY,
            k.INJURY_NO_TIMEOUT_FOR_RECURRENCE,
            k.INJURY_MORE_TIME_TO_REMOVE,
            k.INJURY_ADDITIONAL_TIME_GRANTED,
            k.SUB_UNCONSCIOUS_NOT_TODAY,
        ),
        "21.e": (k.FALL_STOP_AT_NEUTRAL, k.FALL_POSSIBLY_INJURED_STOP_NOW),
        "21.f(1)": (
            k.MOUNT_INJURED_STOP_NOW,
            k.MOUNT_VISIBLY_INJURED_ALL_MAY_CHANGE,
            k.MOUNT_NOT_VISIBLY_INJURED_PLAYER_CHANGES,
            k.EXCUSED_MOUNT_MAY_NOT_PLAY,
        ),
        "21.f(2)": (
            k.MOUNT_AUTHORITY_TO_STOP,
            k.COURTESY_CHANGE_ONE_MINUTE,
            k.COURTESY_CHANGE_NOT_AVAILABLE,
            k.COURTESY_TWO_HORSES_PER_UMPIRE,
            k.COURTESY_NO_HORSES_SHORT_GAME,
        ),
        "21.f(3)": (
            k.MOUNT_FALL_STOP_NOW,
            k.MOUNT_FALL_SOUND_MAY_REMOUNT,
            k.MOUNT_FALL_UNSOUND_MUST_CHANGE,
        ),
        "21.f(4)": (k.MOUNT_TIMEOUT_FIVE_MINUTES, k.MOUNT_TIMEOUT_TEAMMATE_CHANGED),
        "21.f(5)": (k.EXCUSED_MOUNT_RETURNED_FORFEIT, k.EXCUSED_MOUNT_NO_EVIDENCE),
        "21.g": (
            k.TACK_DANGEROUS_STOP_NOW,
            k.TACK_RISK_WAIT_NEUTRAL,
            k.TACK_NO_RISK_NOT_STATED,
            k.TACK_LOW_GOAL_FIVE_MINUTES,
            k.TACK_FIVE_MINUTES_NOT_ANNOUNCED,
            k.TACK_LEAVE_FIELD,
            k.TACK_CONTACT_FIVE_MINUTES,
            k.TACK_CHANGED_WITHOUT_PERMISSION,
            k.EQUIPMENT_WAIT_NEUTRAL,
            k.EQUIPMENT_STOP_NOW,
        ),
        "21.h": (k.HELMET_STOP_AT_NEUTRAL,),
        "21.i": (k.LODGED_BALL_DEAD_WHERE_LODGED, k.LODGED_BALL_DROPPED_PLAY_ON),
        "21.j": (k.PERIOD_END_STOP,),
        "21.k": (k.SUSPENSION_DISCRETION,),
        "21.l": (k.INADVERTENT_WHISTLE_THROW_IN, k.INADVERTENT_WHISTLE_FAIR_PLAY),
        "21.discussion": (
            k.FOUL_MECHANICS_DISCRETION,
            k.FOUL_DANGEROUS_AT_ONCE,
            k.MOUNT_FALL_CHANGE_MAY_RETURN,
            k.MOUNT_TIMEOUT_SOUND_REMOUNTS,
            k.MOUNT_TIMEOUT_CHANGE_EXTENDS,
            k.MOUNT_CHANGED_IN_PLAY_MAY_RETURN,
            k.TACK_NOT_DANGEROUS_WAIT_BALL_OUT,
            k.TACK_CHANGE_IF_QUICKER,
            k.TACK_CALL_LINEUP,
            k.TACK_RESTART_THROW_IN,
            k.DROPPED_MALLET_NO_TIME,
            k.FOUL_BEFORE_HORN,
            k.HORN_FOUL_NEXT_PERIOD,
            k.HORN_FOUL_FIVE_SECONDS,
            k.UNSPORTSMANLIKE_BETWEEN_PERIODS,
            k.UNSPORTSMANLIKE_YELLOW_CARD,
        ),
    }
    return {key: ref for ref, keys in by_ref.items() for key in keys}


#: The section each reason key cites.
REASON_REFS: dict[ReasonKey, str] = _refs()


class Step(StrEnum):
    """The steps of a procedure, in order. A ruling field holding a tuple of a ``Step`` enum is
    an ordered sequence (``describe`` types it ``"sequence"``), not a set of values."""


@dataclass(frozen=True, slots=True)
class Reason:
    """One step of a ruling's justification: a section reference and a machine key."""

    ref: str
    key: ReasonKey


_REASONS = {key: Reason(ref, key) for key, ref in REASON_REFS.items()}


@cache
def because(*keys: ReasonKey) -> tuple[Reason, ...]:
    """The reasons for ``keys``, each with the section it cites.

    >>> [r.ref for r in because(ReasonKey.SUB_BETWEEN_PERIODS, ReasonKey.HIGHEST_HANDICAP_COUNTS)]
    ['3.a', '3.d']
    """
    return tuple(_REASONS[key] for key in keys)


@dataclass(frozen=True, slots=True)
class Player:
    """A player by id (e.g. "R1", "B3") and handicap; ``eligible`` for a substitute."""

    id: str
    handicap: int
    eligible: bool = True


def check_players(field: str, players: Iterable[Player], limit: int = MAX_PLAYERS) -> int:
    """Check one side's players and return its aggregate handicap."""
    total = 0
    count = 0
    for index, player in enumerate(players):
        check_handicap(f"{field}[{index}].handicap", player.handicap)
        total += player.handicap
        count += 1
    if count > limit:
        raise TooManyPlayers(field, f"expected at most {limit} players a side, got {count}")
    if count == 0:
        raise TooFewPlayers(field, "expected at least one player")
    return total


def check_handicap(field: str, handicap: int) -> None:
    """Check that ``handicap`` is a player handicap (-2..10)."""
    if not MIN_HANDICAP <= handicap <= MAX_HANDICAP:
        raise OutOfRange(
            field, f"expected a handicap from {MIN_HANDICAP} to {MAX_HANDICAP}, got {handicap}"
        )


def check_unique(ids: Iterable[tuple[str, str]]) -> None:
    """Check that no player id repeats; ``ids`` holds (field path, id) pairs."""
    seen: set[str] = set()
    for field, player_id in ids:
        if player_id in seen:
            raise DuplicateId(field, f"expected a unique player id, {player_id!r} repeats")
        seen.add(player_id)
