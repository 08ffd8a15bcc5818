"""Rule 21: when play stops, for how long, how it restarts; and fouls at the horn.

>>> r = decide_stoppage(StoppageSituation(Incident.PLAYER_FALLS, possibly_injured=True))
>>> r.stop.value, r.restart.value
('immediately', 'not_stated')
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .errors import Inconsistent, MissingFact, OutOfRange
from .vocabulary import Reason, ReasonKey, Step, because

K = ReasonKey
#: Rule 21.g: events up to this upper handicap level may allow five minutes for broken tack.
LOW_GOAL_TACK_LIMIT = 6


class Incident(StrEnum):
    """What happened on the field."""

    SAFETY = "safety"
    FOUL = "foul"
    DAMAGED_BALL = "damaged_ball"
    INJURED_PLAYER = "injured_player"
    PLAYER_UNABLE_TO_CONTINUE = "player_unable_to_continue"
    PLAYER_FALLS = "player_falls"
    MOUNT_INJURED = "mount_injured"
    COURTESY_CHANGE = "courtesy_change"
    MOUNT_FALLS = "mount_falls"
    MOUNT_TIME_OUT = "mount_time_out"
    MOUNT_CHANGED_DURING_PLAY = "mount_changed_during_play"
    EXCUSED_MOUNT_RETURNED = "excused_mount_returned"
    BROKEN_TACK = "broken_tack"
    DAMAGED_EQUIPMENT = "damaged_equipment"
    LOST_HELMET = "lost_helmet"
    LODGED_BALL = "lodged_ball"
    PERIOD_END = "period_end"
    SUSPENSION = "suspension"
    INADVERTENT_WHISTLE = "inadvertent_whistle"
    DROPPED_MALLET = "dropped_mallet"


class StopWhen(StrEnum):
    """When the Umpire stops play."""

    IMMEDIATELY = "immediately"
    #: 21.b: the Umpire briefly delays the whistle and judges immediately after the next play.
    AFTER_NEXT_PLAY = "after_next_play"
    AT_NEUTRAL_PLAY = "at_neutral_play"
    WHEN_BALL_OUT_OF_PLAY = "when_ball_out_of_play"
    BALL_OUT_OR_NEUTRAL_PLAY = "ball_out_or_neutral_play"
    UMPIRE_DISCRETION = "umpire_discretion"
    AT_PERIOD_END = "at_period_end"
    ALREADY_STOPPED = "already_stopped"
    NOT_AT_ALL = "not_at_all"
    NOT_STATED = "not_stated"


class Restart(StrEnum):
    """How play restarts."""

    THROW_IN = "throw_in"
    THROW_IN_TOWARD_BOARDS = "throw_in_toward_boards"
    PENALTY = "penalty"
    PENALTY_6 = "penalty_6"
    AS_THE_CASE_MAY_BE = "as_the_case_may_be"
    WHEN_MOUNT_OFF_FIELD = "when_mount_off_field"
    BALL_DEAD_WHERE_LODGED = "ball_dead_where_lodged"
    FAIR_PLAY_POSSESSION = "fair_play_possession"
    PLAY_CONTINUES = "play_continues"
    NOT_STATED = "not_stated"


class MountChange(StrEnum):
    """Who may change mounts."""

    ALL_MAY_CHANGE = "all_may_change"
    PLAYER_MAY_CHANGE = "player_may_change"
    #: 21.f(1)(ii), 21.f(4): the player concerned may; no other player on his team may (the
    #: rule bars his teammates and says nothing of the opponents).
    TEAMMATES_MAY_NOT_CHANGE = "teammates_may_not_change"
    WITH_PERMISSION = "with_permission"
    NO_ONE = "no_one"
    NOT_STATED = "not_stated"


class MountReturn(StrEnum):
    """Whether the mount concerned may play again in the game."""

    MAY_RETURN = "may_return"
    MAY_NOT_RETURN = "may_not_return"
    NOT_APPLICABLE = "not_applicable"


class RestartPlace(StrEnum):
    """Where play restarts, where the seed says."""

    WHERE_PLAY_WAS_STOPPED = "where_play_was_stopped"
    WHERE_FIRST_LODGED = "where_first_lodged"
    #: Never the ruling: offered so that a question need not presuppose the seed's answer.
    WHERE_BALL_CAME_TO_REST = "where_ball_came_to_rest"
    #: Never the ruling, as above.
    CENTRE_OF_FIELD = "centre_of_field"
    NOT_STATED = "not_stated"


class Authority(StrEnum):
    """Who the rule gives a decision or an authority to."""

    HOST_TOURNAMENT_COMMITTEE = "host_tournament_committee"
    UMPIRES = "umpires"
    #: Never the ruling of these incidents: values a question can offer.
    REFEREE = "referee"
    CAPTAINS = "captains"


class BallTouched(StrEnum):
    """Safety (21.a): what the ball touched on its way across the player's own end line."""

    NOTHING = "nothing"
    OWN_MOUNT = "own_mount"
    GOAL_POST = "goal_post"
    SIDE_BOARDS = "side_boards"
    TEAMMATES_MALLET = "teammates_mallet"
    TEAMMATE = "teammate"
    TEAMMATES_MOUNT = "teammates_mount"
    OPPONENT = "opponent"
    OPPONENTS_MOUNT = "opponents_mount"
    OPPONENTS_MALLET = "opponents_mallet"


#: 21.a: "unless the ball strikes another player, an opposing player's mallet, or another
#: player's mount": a teammate's mallet is none of them.
_SAVES_THE_SAFETY = frozenset(
    {
        BallTouched.TEAMMATE,
        BallTouched.TEAMMATES_MOUNT,
        BallTouched.OPPONENT,
        BallTouched.OPPONENTS_MOUNT,
        BallTouched.OPPONENTS_MALLET,
    }
)


class FoulAssessment(StrEnum):
    """21.b: the Umpire's judgement of a foul that involves no safety, as play goes on."""

    #: The facts say nothing of it: the rule leaves the call to the Umpire.
    NOT_ASSESSED = "not_assessed"
    #: Stopping play and awarding a penalty would disadvantage the fouled team.
    CALL_WOULD_DISADVANTAGE = "call_would_disadvantage"
    #: The infraction neither disadvantaged the fouled team nor endangered anyone.
    NO_EFFECT = "no_effect"
    #: Whether a call would disadvantage the fouled team shows only after the next play.
    UNCLEAR = "unclear"
    #: The foul cost the fouled team and a whistle now takes nothing from it.
    FOULED_TEAM_DISADVANTAGED = "fouled_team_disadvantaged"


class Announcement(StrEnum):
    """What the Umpires announce."""

    NONE = "none"
    ALL_MAY_CHANGE = "all_may_change"
    COURTESY_CHANGE_ONE_MINUTE = "courtesy_change_one_minute"


class Signal(StrEnum):
    """How the Umpire may signal a foul when play is already stopped (at his option)."""

    WHISTLE_AGAIN = "whistle_again"
    YELLOW_CARD = "yellow_card"
    RED_CARD = "red_card"


class Consequence(StrEnum):
    """What follows from the incident."""

    PENALTY = "penalty"
    DELAY_PENALIZED = "delay_penalized"
    FORFEITURE_MUST_BE_EXACTED = "forfeiture_must_be_exacted"
    NO_PLAY_REST_OF_DAY = "no_play_rest_of_day"
    NO_TIME_OUT_FOR_RECURRENCE = "no_time_out_for_recurrence"
    PLAYER_MUST_LEAVE_FIELD = "player_must_leave_field"
    LARGEST_PIECE_PLAYED = "largest_piece_played"


class StoppageStep(Step):
    """The steps of a Rule 21 procedure, in the order the seed gives them."""

    PLAYER_INFORMS_UMPIRES = "player_informs_umpires"
    PLAYER_ASKS_TIME_OUT = "player_asks_time_out"
    PLAY_STOPPED = "play_stopped"
    TEN_MINUTES_ALLOWED = "ten_minutes_allowed"
    PLAYER_RESUMES_OR_SUBSTITUTE_ENTERS = "player_resumes_or_substitute_enters"
    ALL_MAY_CHANGE_ANNOUNCED = "all_may_change_announced"
    MOUNT_LED_OFF = "mount_led_off"
    PLAYER_RETURNS_ON_ANOTHER_MOUNT = "player_returns_on_another_mount"
    PLAYER_INSTRUCTED_TO_CHANGE = "player_instructed_to_change"
    MOUNT_LED_OFF_SHORTEST_LINE = "mount_led_off_shortest_line"
    COURTESY_CHANGE_ANNOUNCED = "courtesy_change_announced"
    ONE_MINUTE_TO_CHANGE = "one_minute_to_change"
    MOUNT_TROTTED_AND_EXAMINED = "mount_trotted_and_examined"
    PLAYER_REMOUNTS = "player_remounts"
    FIVE_MINUTES_TO_CHANGE = "five_minutes_to_change"
    PENALTY_AWARDED = "penalty_awarded"
    TEAMMATES_MAY_CHANGE = "teammates_may_change"
    RECTIFIED_ON_THE_GROUND_IF_QUICK = "rectified_on_the_ground_if_quick"
    FIVE_MINUTES_TO_RECTIFY_OR_CHANGE = "five_minutes_to_rectify_or_change"
    PLAYER_LEAVES_FIELD = "player_leaves_field"
    FIVE_MINUTES_OR_UNTIL_RETURN = "five_minutes_or_until_return"
    THROW_IN = "throw_in"
    RESTART_AS_THE_CASE_MAY_BE = "restart_as_the_case_may_be"
    PLAY_RESUMES = "play_resumes"


ST = StoppageStep
_DEAD_BALL_SIGNALS = (Signal.WHISTLE_AGAIN, Signal.YELLOW_CARD, Signal.RED_CARD)
#: 21.d: stop, 10 minutes, "If, and when, during this interval the injured player is able to
#: resume play or an eligible player is substituted, the Umpire shall continue the game."
_INJURY_STEPS = (
    ST.PLAY_STOPPED,
    ST.TEN_MINUTES_ALLOWED,
    ST.PLAYER_RESUMES_OR_SUBSTITUTE_ENTERS,
    ST.PLAY_RESUMES,
)


@dataclass(frozen=True, slots=True)
class StoppageSituation:
    """An incident and the attributes its ruling depends on (the rest are ignored)."""

    incident: Incident
    #: safety: what the ball touched before crossing the player's own end line.
    ball_touched: BallTouched = BallTouched.NOTHING
    #: safety: the ball merely touched his mallet (swinging the other way, or not swinging).
    merely_touched_mallet: bool = False
    #: foul: involves the safety of player or mount; tack: presents a danger; equipment: may
    #: immediately interfere with play or endanger a player or mount.
    dangerous: bool = False
    #: foul: called when play is already stopped (a "dead ball foul").
    play_already_stopped: bool = False
    #: foul that involves no safety: the Umpire's judgement of the advantage (21.b).
    assessment: FoulAssessment = FoulAssessment.NOT_ASSESSED
    #: damaged ball: only minorly chipped or broken.
    minor_damage: bool = False
    #: injured player: rendered unconscious.
    unconscious: bool = False
    #: injured player: a recurrence of the same injury.
    recurrence: bool = False
    #: injured player: his treatment on the field requires additional time to remove him.
    treatment_needs_more_time: bool = False
    #: injured player: the Umpire(s) granted additional time.
    additional_time_granted: bool = False
    #: player unable to continue: he told the Umpire.
    notified_umpire: bool = True
    #: player falls: in the Umpire's opinion may be injured or in jeopardy of injury.
    possibly_injured: bool = False
    #: injured mount: the Umpires determine it is visibly injured or distressed.
    visibly_injured: bool = False
    #: courtesy change: determined and communicated to the teams before the game.
    courtesy_declared: bool = True
    #: courtesy change: one was already allowed this period.
    courtesy_used_this_period: bool = False
    #: courtesy change: the number of periods the game lasts.
    game_periods: int | None = None
    #: mount falls: trotted out sound, no evidence of injury.
    mount_sound: bool = True
    #: mount time-out: the player elects to change mounts.
    elects_to_change: bool = True
    #: mount time-out: a teammate changed mounts before play resumed.
    teammate_changed: bool = False
    #: excused mount returned: detected during the game.
    detected_during_game: bool = True
    #: excused mount returned: conclusive evidence presented within 24 hours.
    evidence_within_24_hours: bool = False
    #: broken tack: the event's upper handicap level.
    event_upper_handicap: int | None = None
    #: broken tack, 6 goals or less: the five minutes were determined by the Host Tournament
    #: Committee or the Umpires and communicated to the teams before the game or event.
    five_minutes_announced: bool = True
    #: broken tack that presents no danger: the player is out of the play.
    out_of_the_play: bool | None = None
    #: broken tack, the player out of the play: he holds his mount under control.
    mount_under_control: bool | None = None
    #: broken tack that presents no danger, the player not out of the play with his mount
    #: under control: in the Umpire's opinion it may pose a risk to any player or mount.
    may_pose_risk: bool | None = None
    #: broken tack: broken by contact with another horse.
    broken_by_contact: bool = False
    #: broken tack: the player asks to change horses rather than repair.
    asks_to_change_mount: bool = False
    #: broken tack: repaired, the player still rests.
    repair_done: bool = False
    #: broken tack: changed mounts during the time-out without permission.
    changed_without_permission: bool = False
    #: lodged ball: it can be dropped immediately.
    can_be_dropped: bool = False
    #: inadvertent whistle: Rule 22.h (Fair Play Possession) applies.
    fair_play_possession: bool = False

    def __post_init__(self) -> None:
        if self.incident is Incident.COURTESY_CHANGE:
            if self.game_periods is None:
                raise MissingFact("game_periods", "expected the number of periods of the game")
            if not 1 <= self.game_periods <= 8:
                raise OutOfRange("game_periods", "expected from 1 to 8 periods")
        if self.incident is Incident.BROKEN_TACK:
            if self.event_upper_handicap is None:
                raise MissingFact(
                    "event_upper_handicap", "expected the event's upper handicap level for tack"
                )
            if not -8 <= self.event_upper_handicap <= 40:
                raise OutOfRange("event_upper_handicap", "expected from -8 to 40 goals")
            self._check_tack_stop()

    def _check_tack_stop(self) -> None:
        """Every fact the stop for broken tack depends on must be stated (21.g)."""
        if self.changed_without_permission or self.play_already_stopped or self.dangerous:
            return
        if self.out_of_the_play is None:
            raise MissingFact(
                "out_of_the_play",
                "expected whether the player is out of the play (tack that presents no danger)",
            )
        if self.out_of_the_play and self.mount_under_control is None:
            raise MissingFact(
                "mount_under_control", "expected whether he holds his mount under control"
            )
        if not (self.out_of_the_play and self.mount_under_control) and self.may_pose_risk is None:
            raise MissingFact(
                "may_pose_risk",
                "expected whether, in the Umpire's opinion, the broken tack may pose a risk",
            )


@dataclass(frozen=True, slots=True)
class StoppageRuling:
    """When to stop, the time allowed, the restart, mounts, and the consequences."""

    stop: StopWhen
    reasons: tuple[Reason, ...]
    advantage_may_be_played: bool = False
    #: Minutes allowed (0: no time is granted).
    minutes_allowed: int = 0
    #: The Umpire decides the time (grants more, or up to the minutes given).
    time_at_discretion: bool = False
    restart: Restart = Restart.NOT_STATED
    may_change_mounts: MountChange = MountChange.NOT_STATED
    mount_may_return: MountReturn = MountReturn.NOT_APPLICABLE
    announcement: Announcement = Announcement.NONE
    signals: tuple[Signal, ...] = ()
    consequences: tuple[Consequence, ...] = ()
    #: The procedure, step by step, where the seed gives one as a sequence (else empty).
    procedure: tuple[StoppageStep, ...] = ()
    #: Where play restarts, where the seed says (21.i, 21.l).
    restart_at: RestartPlace = RestartPlace.NOT_STATED
    #: Who the rule gives the decision to (21.f(2): the authority to stop an injured or
    #: distressed horse from playing; who determines a courtesy change).
    authority: tuple[Authority, ...] = ()
    #: 21.f(2): horses the teams must provide each Umpire when courtesy changes are allowed.
    horses_per_umpire: int = 0
    #: 21.d: when the minutes allowed are up, the game must be continued (no treatment that
    #: needs more time to remove the player, no additional time granted).
    resume_at_time_limit: bool = False


R = StoppageRuling


def decide_stoppage(s: StoppageSituation) -> StoppageRuling:
    """Rule 21 for one incident.

    >>> r = decide_stoppage(StoppageSituation(Incident.INJURED_PLAYER))
    >>> r.stop.value, r.minutes_allowed, r.time_at_discretion
    ('immediately', 10, True)
    """
    return _DECIDERS[s.incident](s)


def _safety(s: StoppageSituation) -> R:
    if s.ball_touched in _SAVES_THE_SAFETY:
        return R(StopWhen.IMMEDIATELY, because(K.SAFETY_NOT_IF_TOUCHED_OTHER))
    keys = [K.SAFETY_PENALTY_6]
    if s.merely_touched_mallet:
        keys.append(K.SAFETY_MERE_TOUCH_IS_A_HIT)
    if s.ball_touched is BallTouched.TEAMMATES_MALLET:
        keys.append(K.SAFETY_TEAMMATES_MALLET)
    # 21.a: "call a Safety (Penalty 6)": a penalty to the opposing team, as for a foul.
    return R(
        StopWhen.IMMEDIATELY,
        because(*keys),
        restart=Restart.PENALTY_6,
        consequences=(Consequence.PENALTY,),
    )


def _foul(s: StoppageSituation) -> R:
    if s.play_already_stopped:
        return R(
            StopWhen.ALREADY_STOPPED,
            because(K.FOUL_WHEN_STOPPED_SIGNAL),
            restart=Restart.PENALTY,
            signals=_DEAD_BALL_SIGNALS,
            consequences=(Consequence.PENALTY,),
        )
    if s.dangerous:
        # Whatever the advantage: "The Umpire should not elect to delay the call of dangerous
        # fouls" (21.discussion).
        return R(
            StopWhen.IMMEDIATELY,
            because(K.FOUL_MAY_STOP, K.FOUL_DANGEROUS_AT_ONCE),
            restart=Restart.PENALTY,
            consequences=(Consequence.PENALTY,),
        )
    a = FoulAssessment
    if s.assessment is a.FOULED_TEAM_DISADVANTAGED:
        return R(
            StopWhen.IMMEDIATELY,
            because(K.FOUL_MAY_STOP, K.FOUL_NO_ADVANTAGE_WHISTLE),
            restart=Restart.PENALTY,
            consequences=(Consequence.PENALTY,),
        )
    if s.assessment is a.UNCLEAR:
        return R(
            StopWhen.AFTER_NEXT_PLAY,
            because(K.FOUL_ADVANTAGE, K.FOUL_DELAY_JUDGE_AFTER_NEXT_PLAY),
            advantage_may_be_played=True,
        )
    if s.assessment is a.CALL_WOULD_DISADVANTAGE or s.assessment is a.NO_EFFECT:
        last = K.FOUL_PLAY_ON if s.assessment is a.CALL_WOULD_DISADVANTAGE else K.FOUL_NON_CALL
        return R(
            StopWhen.NOT_AT_ALL,
            because(K.FOUL_ADVANTAGE, last),
            advantage_may_be_played=True,
            restart=Restart.PLAY_CONTINUES,
        )
    return R(
        StopWhen.UMPIRE_DISCRETION,
        because(K.FOUL_MAY_STOP, K.FOUL_ADVANTAGE, K.FOUL_MECHANICS_DISCRETION),
        advantage_may_be_played=True,
        restart=Restart.PENALTY,
        consequences=(Consequence.PENALTY,),
    )


def _damaged_ball(s: StoppageSituation) -> R:
    if s.minor_damage:
        return R(
            StopWhen.AT_NEUTRAL_PLAY,
            because(K.BALL_MINOR_WAIT_NEUTRAL),
            consequences=(Consequence.LARGEST_PIECE_PLAYED,),
        )
    return R(StopWhen.IMMEDIATELY, because(K.BALL_UNPLAYABLE_STOP))


def _injured_player(s: StoppageSituation) -> R:
    if s.recurrence:
        return R(
            StopWhen.NOT_AT_ALL,
            because(K.INJURY_NO_TIMEOUT_FOR_RECURRENCE),
            restart=Restart.PLAY_CONTINUES,
            consequences=(Consequence.NO_TIME_OUT_FOR_RECURRENCE,),
        )
    keys = [K.INJURY_TEN_MINUTES]
    consequences: tuple[Consequence, ...] = ()
    if s.unconscious:
        keys.append(K.INJURY_UNCONSCIOUS_NO_PLAY_TODAY)
        consequences = (Consequence.NO_PLAY_REST_OF_DAY,)
    keys += _injury_time_keys(s)
    return R(
        StopWhen.IMMEDIATELY,
        because(*keys),
        minutes_allowed=10,
        time_at_discretion=True,
        consequences=consequences,
        procedure=_INJURY_STEPS,
        resume_at_time_limit=_resume_at_time_limit(s),
    )


def _injury_time_keys(s: StoppageSituation) -> list[ReasonKey]:
    """21.d: "not more than 10 minutes ... unless the injured player's treatment on the field
    requires additional time to remove the player from the field or the Umpire has granted
    additional time"."""
    keys = []
    if s.treatment_needs_more_time:
        keys.append(K.INJURY_MORE_TIME_TO_REMOVE)
    if s.additional_time_granted:
        keys.append(K.INJURY_ADDITIONAL_TIME_GRANTED)
    return keys


def _resume_at_time_limit(s: StoppageSituation) -> bool:
    return not (s.treatment_needs_more_time or s.additional_time_granted)


def _unable_to_continue(s: StoppageSituation) -> R:
    if not s.notified_umpire:
        return R(
            StopWhen.NOT_AT_ALL, because(K.UNABLE_QUITS_NO_TIMEOUT), restart=Restart.PLAY_CONTINUES
        )
    return R(
        StopWhen.IMMEDIATELY,
        because(K.UNABLE_ASSUME_INJURED, K.INJURY_TEN_MINUTES, *_injury_time_keys(s)),
        minutes_allowed=10,
        time_at_discretion=True,
        procedure=(ST.PLAYER_ASKS_TIME_OUT, *_INJURY_STEPS),
        resume_at_time_limit=_resume_at_time_limit(s),
    )


def _player_falls(s: StoppageSituation) -> R:
    if s.possibly_injured:
        return R(StopWhen.IMMEDIATELY, because(K.FALL_POSSIBLY_INJURED_STOP_NOW))
    return R(StopWhen.AT_NEUTRAL_PLAY, because(K.FALL_STOP_AT_NEUTRAL))


#: 21.f(2): "The Host Tournament Committee or Umpires have the authority to stop any injured
#: or distressed horse from playing"; a courtesy change is theirs to determine too.
_COMMITTEE_OR_UMPIRES = (Authority.HOST_TOURNAMENT_COMMITTEE, Authority.UMPIRES)
#: 21.f(1)(i): the changes after the Umpires announce "ALL MAY CHANGE" (a visibly injured
#: mount; a fallen mount that is not sound changes "in accordance with" it, 21.f(3)).
_ALL_MAY_CHANGE_STEPS = (
    ST.ALL_MAY_CHANGE_ANNOUNCED,
    ST.MOUNT_LED_OFF,
    ST.PLAYER_RETURNS_ON_ANOTHER_MOUNT,
    ST.THROW_IN,
)


def _all_may_change(
    keys: tuple[ReasonKey, ...],
    steps: tuple[StoppageStep, ...],
    authority: tuple[Authority, ...] = (),
) -> R:
    """21.f(1)(i): "ALL MAY CHANGE", the mount led off, a throw-in once the player is back on
    another mount, any unwarranted delay penalized, and the mount excused for the game."""
    return R(
        StopWhen.IMMEDIATELY,
        because(*keys),
        restart=Restart.THROW_IN,
        may_change_mounts=MountChange.ALL_MAY_CHANGE,
        mount_may_return=MountReturn.MAY_NOT_RETURN,
        announcement=Announcement.ALL_MAY_CHANGE,
        consequences=(Consequence.DELAY_PENALIZED,),
        procedure=(*steps, *_ALL_MAY_CHANGE_STEPS),
        authority=authority,
    )


def _mount_injured(s: StoppageSituation) -> R:
    if s.visibly_injured:
        return _all_may_change(
            (
                K.MOUNT_INJURED_STOP_NOW,
                K.MOUNT_VISIBLY_INJURED_ALL_MAY_CHANGE,
                K.EXCUSED_MOUNT_MAY_NOT_PLAY,
                K.MOUNT_AUTHORITY_TO_STOP,
            ),
            (ST.PLAYER_INFORMS_UMPIRES, ST.PLAY_STOPPED),
            _COMMITTEE_OR_UMPIRES,
        )
    return R(
        StopWhen.IMMEDIATELY,
        because(
            K.MOUNT_INJURED_STOP_NOW,
            K.MOUNT_NOT_VISIBLY_INJURED_PLAYER_CHANGES,
            K.EXCUSED_MOUNT_MAY_NOT_PLAY,
            K.MOUNT_AUTHORITY_TO_STOP,
        ),
        restart=Restart.WHEN_MOUNT_OFF_FIELD,
        # 21.f(1)(ii): the Umpires "may instruct the player to change"; "No other player on
        # his or her team may change mounts".
        may_change_mounts=MountChange.TEAMMATES_MAY_NOT_CHANGE,
        mount_may_return=MountReturn.MAY_NOT_RETURN,
        authority=_COMMITTEE_OR_UMPIRES,
        procedure=(
            ST.PLAYER_INFORMS_UMPIRES,
            ST.PLAY_STOPPED,
            ST.PLAYER_INSTRUCTED_TO_CHANGE,
            ST.MOUNT_LED_OFF_SHORTEST_LINE,
            ST.PLAY_RESUMES,
        ),
    )


def _courtesy_change(s: StoppageSituation) -> R:
    assert s.game_periods is not None
    horses = 0
    keys = []
    if s.courtesy_declared:
        # "the teams shall be required to provide each Umpire two horses for any game lasting
        # four periods or more" when courtesy changes are allowed under 21.f(2).
        if s.game_periods >= 4:
            horses = 2
            keys.append(K.COURTESY_TWO_HORSES_PER_UMPIRE)
        else:
            keys.append(K.COURTESY_NO_HORSES_SHORT_GAME)
    if not s.courtesy_declared or s.courtesy_used_this_period:
        return R(
            StopWhen.NOT_AT_ALL,
            because(K.COURTESY_CHANGE_NOT_AVAILABLE, *keys),
            restart=Restart.PLAY_CONTINUES,
            may_change_mounts=MountChange.NO_ONE,
            authority=_COMMITTEE_OR_UMPIRES,
            horses_per_umpire=horses,
        )
    return R(
        StopWhen.BALL_OUT_OR_NEUTRAL_PLAY,
        because(K.COURTESY_CHANGE_ONE_MINUTE, *keys),
        authority=_COMMITTEE_OR_UMPIRES,
        horses_per_umpire=horses,
        minutes_allowed=1,
        restart=Restart.AS_THE_CASE_MAY_BE,
        may_change_mounts=MountChange.ALL_MAY_CHANGE,
        announcement=Announcement.COURTESY_CHANGE_ONE_MINUTE,
        consequences=(Consequence.DELAY_PENALIZED,),
        procedure=(
            ST.PLAY_STOPPED,
            ST.COURTESY_CHANGE_ANNOUNCED,
            ST.ONE_MINUTE_TO_CHANGE,
            ST.RESTART_AS_THE_CASE_MAY_BE,
        ),
    )


def _mount_falls(s: StoppageSituation) -> R:
    if s.mount_sound:
        return R(
            StopWhen.IMMEDIATELY,
            because(
                K.MOUNT_FALL_STOP_NOW,
                K.MOUNT_FALL_SOUND_MAY_REMOUNT,
                K.MOUNT_FALL_CHANGE_MAY_RETURN,
            ),
            may_change_mounts=MountChange.PLAYER_MAY_CHANGE,
            mount_may_return=MountReturn.MAY_RETURN,
            procedure=(ST.PLAY_STOPPED, ST.MOUNT_TROTTED_AND_EXAMINED, ST.PLAYER_REMOUNTS),
        )
    # 21.f(3): "otherwise he must change mounts in accordance with subparagraph 21.f(1)(i)",
    # where the Umpires announce "ALL MAY CHANGE".
    return _all_may_change(
        (K.MOUNT_FALL_STOP_NOW, K.MOUNT_FALL_UNSOUND_MUST_CHANGE, K.EXCUSED_MOUNT_MAY_NOT_PLAY),
        (ST.PLAY_STOPPED, ST.MOUNT_TROTTED_AND_EXAMINED),
    )


def _mount_time_out(s: StoppageSituation) -> R:
    keys = [K.MOUNT_TIMEOUT_FIVE_MINUTES]
    steps = [ST.PLAYER_ASKS_TIME_OUT, ST.PLAY_STOPPED]
    if s.elects_to_change:
        keys.append(K.MOUNT_TIMEOUT_CHANGE_EXTENDS)
        returns = MountReturn.MAY_NOT_RETURN
        steps.append(ST.FIVE_MINUTES_TO_CHANGE)
    else:
        keys.append(K.MOUNT_TIMEOUT_SOUND_REMOUNTS)
        returns = MountReturn.NOT_APPLICABLE
        steps += (ST.MOUNT_TROTTED_AND_EXAMINED, ST.PLAYER_REMOUNTS)
    restart = Restart.NOT_STATED
    consequences: tuple[Consequence, ...] = ()
    if s.teammate_changed:
        keys.append(K.MOUNT_TIMEOUT_TEAMMATE_CHANGED)
        restart = Restart.PENALTY
        consequences = (Consequence.PENALTY,)
        steps += (ST.PENALTY_AWARDED, ST.PLAY_RESUMES)
    else:
        steps += (ST.PLAY_RESUMES, ST.TEAMMATES_MAY_CHANGE)
    return R(
        StopWhen.UMPIRE_DISCRETION,
        because(*keys),
        minutes_allowed=5,
        restart=restart,
        # "No player on that player's team may change mounts until after play has resumed."
        may_change_mounts=MountChange.TEAMMATES_MAY_NOT_CHANGE,
        mount_may_return=returns,
        consequences=consequences,
        procedure=tuple(steps),
    )


def _mount_changed_during_play(s: StoppageSituation) -> R:
    return R(
        StopWhen.NOT_AT_ALL,
        because(K.MOUNT_CHANGED_IN_PLAY_MAY_RETURN),
        restart=Restart.PLAY_CONTINUES,
        mount_may_return=MountReturn.MAY_RETURN,
    )


def _excused_mount_returned(s: StoppageSituation) -> R:
    if s.detected_during_game or s.evidence_within_24_hours:
        return R(
            StopWhen.NOT_STATED,
            because(K.EXCUSED_MOUNT_RETURNED_FORFEIT),
            mount_may_return=MountReturn.MAY_NOT_RETURN,
            consequences=(Consequence.FORFEITURE_MUST_BE_EXACTED,),
        )
    return R(
        StopWhen.NOT_STATED,
        because(K.EXCUSED_MOUNT_NO_EVIDENCE),
        mount_may_return=MountReturn.MAY_NOT_RETURN,
    )


def _broken_tack(s: StoppageSituation) -> R:
    if s.changed_without_permission:
        return R(
            StopWhen.ALREADY_STOPPED,
            because(K.TACK_CHANGED_WITHOUT_PERMISSION, K.FOUL_WHEN_STOPPED_SIGNAL),
            restart=Restart.PENALTY,
            signals=_DEAD_BALL_SIGNALS,
            consequences=(Consequence.PENALTY,),
        )
    stop, keys = _tack_stop(s)
    steps = [] if stop is StopWhen.ALREADY_STOPPED else [ST.PLAY_STOPPED]
    steps.append(ST.RECTIFIED_ON_THE_GROUND_IF_QUICK)
    consequences: tuple[Consequence, ...] = ()
    assert s.event_upper_handicap is not None
    low_goal = s.event_upper_handicap <= LOW_GOAL_TACK_LIMIT
    if low_goal and s.five_minutes_announced:
        keys.append(K.TACK_LOW_GOAL_FIVE_MINUTES)
        minutes, discretion, change = 5, True, MountChange.PLAYER_MAY_CHANGE
        steps.append(ST.FIVE_MINUTES_TO_RECTIFY_OR_CHANGE)
    else:
        if low_goal:
            keys.append(K.TACK_FIVE_MINUTES_NOT_ANNOUNCED)
        consequences = (Consequence.PLAYER_MUST_LEAVE_FIELD,)
        discretion, change = False, MountChange.NOT_STATED
        steps.append(ST.PLAYER_LEAVES_FIELD)
        if s.broken_by_contact:
            keys.append(K.TACK_CONTACT_FIVE_MINUTES)
            minutes = 5
            steps.append(ST.FIVE_MINUTES_OR_UNTIL_RETURN)
        else:
            keys.append(K.TACK_LEAVE_FIELD)
            minutes = 0
    if s.asks_to_change_mount:
        keys.append(K.TACK_CHANGE_IF_QUICKER)
        change = MountChange.WITH_PERMISSION
    if s.repair_done:
        keys.append(K.TACK_CALL_LINEUP)
    keys.append(K.TACK_RESTART_THROW_IN)
    steps.append(ST.THROW_IN)
    return R(
        stop,
        because(*keys),
        minutes_allowed=minutes,
        time_at_discretion=discretion,
        restart=Restart.THROW_IN,
        may_change_mounts=change,
        consequences=consequences,
        # The seed does not say when play stops: no procedure to put in order.
        procedure=() if stop is StopWhen.NOT_STATED else tuple(steps),
    )


def _tack_stop(s: StoppageSituation) -> tuple[StopWhen, list[ReasonKey]]:
    """When play stops for broken tack: at once for tack that presents a danger (21.g); for
    the rest, the 21.discussion example (out of the play, mount under control) or 21.g's
    broken equipment that may pose a risk."""
    if s.play_already_stopped:
        return StopWhen.ALREADY_STOPPED, []
    if s.dangerous:
        return StopWhen.IMMEDIATELY, [K.TACK_DANGEROUS_STOP_NOW]
    if s.out_of_the_play and s.mount_under_control:
        return StopWhen.WHEN_BALL_OUT_OF_PLAY, [K.TACK_NOT_DANGEROUS_WAIT_BALL_OUT]
    if s.may_pose_risk:
        return StopWhen.AT_NEUTRAL_PLAY, [K.TACK_RISK_WAIT_NEUTRAL]
    return StopWhen.NOT_STATED, [K.TACK_NO_RISK_NOT_STATED]


def _damaged_equipment(s: StoppageSituation) -> R:
    if s.dangerous:
        return R(StopWhen.IMMEDIATELY, because(K.EQUIPMENT_STOP_NOW))
    return R(StopWhen.AT_NEUTRAL_PLAY, because(K.EQUIPMENT_WAIT_NEUTRAL))


def _lost_helmet(s: StoppageSituation) -> R:
    return R(StopWhen.AT_NEUTRAL_PLAY, because(K.HELMET_STOP_AT_NEUTRAL))


def _lodged_ball(s: StoppageSituation) -> R:
    if s.can_be_dropped:
        return R(
            StopWhen.NOT_AT_ALL,
            because(K.LODGED_BALL_DROPPED_PLAY_ON),
            restart=Restart.PLAY_CONTINUES,
        )
    return R(
        StopWhen.IMMEDIATELY,
        because(K.LODGED_BALL_DEAD_WHERE_LODGED),
        restart=Restart.BALL_DEAD_WHERE_LODGED,
        restart_at=RestartPlace.WHERE_FIRST_LODGED,
    )


def _period_end(s: StoppageSituation) -> R:
    return R(StopWhen.AT_PERIOD_END, because(K.PERIOD_END_STOP))


def _suspension(s: StoppageSituation) -> R:
    return R(StopWhen.UMPIRE_DISCRETION, because(K.SUSPENSION_DISCRETION))


def _inadvertent_whistle(s: StoppageSituation) -> R:
    if s.fair_play_possession:
        return R(
            StopWhen.ALREADY_STOPPED,
            because(K.INADVERTENT_WHISTLE_FAIR_PLAY),
            restart=Restart.FAIR_PLAY_POSSESSION,
        )
    return R(
        StopWhen.ALREADY_STOPPED,
        because(K.INADVERTENT_WHISTLE_THROW_IN),
        restart=Restart.THROW_IN_TOWARD_BOARDS,
        restart_at=RestartPlace.WHERE_PLAY_WAS_STOPPED,
    )


def _dropped_mallet(s: StoppageSituation) -> R:
    return R(StopWhen.NOT_AT_ALL, because(K.DROPPED_MALLET_NO_TIME), restart=Restart.PLAY_CONTINUES)


_DECIDERS = {
    Incident.SAFETY: _safety,
    Incident.FOUL: _foul,
    Incident.DAMAGED_BALL: _damaged_ball,
    Incident.INJURED_PLAYER: _injured_player,
    Incident.PLAYER_UNABLE_TO_CONTINUE: _unable_to_continue,
    Incident.PLAYER_FALLS: _player_falls,
    Incident.MOUNT_INJURED: _mount_injured,
    Incident.COURTESY_CHANGE: _courtesy_change,
    Incident.MOUNT_FALLS: _mount_falls,
    Incident.MOUNT_TIME_OUT: _mount_time_out,
    Incident.MOUNT_CHANGED_DURING_PLAY: _mount_changed_during_play,
    Incident.EXCUSED_MOUNT_RETURNED: _excused_mount_returned,
    Incident.BROKEN_TACK: _broken_tack,
    Incident.DAMAGED_EQUIPMENT: _damaged_equipment,
    Incident.LOST_HELMET: _lost_helmet,
    Incident.LODGED_BALL: _lodged_ball,
    Incident.PERIOD_END: _period_end,
    Incident.SUSPENSION: _suspension,
    Incident.INADVERTENT_WHISTLE: _inadvertent_whistle,
    Incident.DROPPED_MALLET: _dropped_mallet,
}


# --- fouls at the horn --------------------------------------------------------------------------


class HornTiming(StrEnum):
    """When the foul happened relative to the horn ending a period."""

    BEFORE_HORN = "before_horn"
    AT_OR_SLIGHTLY_AFTER_HORN = "at_or_slightly_after_horn"
    UNSPORTSMANLIKE_BETWEEN_PERIODS = "unsportsmanlike_between_periods"


class Execution(StrEnum):
    """When the penalty is executed."""

    AT_ONCE = "at_once"
    START_OF_NEXT_PERIOD = "start_of_next_period"
    FIVE_SECONDS_ON_CLOCK = "five_seconds_on_clock"
    #: Never the ruling: every timing of the seed is penalized (21.discussion). It is a value
    #: so that a question can offer it and need not presuppose that the foul is penalized.
    NOT_PENALIZED = "not_penalized"


@dataclass(frozen=True, slots=True)
class FoulAtHornSituation:
    """A foul near the horn, and whether the period is the final regulation period."""

    timing: HornTiming
    final_period: bool = False

    def __post_init__(self) -> None:
        if self.final_period and self.timing is HornTiming.UNSPORTSMANLIKE_BETWEEN_PERIODS:
            raise Inconsistent("final_period", "expected a period that another period follows")


@dataclass(frozen=True, slots=True)
class FoulAtHornRuling:
    """When and how the penalty is executed."""

    execution: Execution
    seconds_put_on_clock: int
    reasons: tuple[Reason, ...]
    #: How the Umpire signals it (21.discussion example 4: a yellow card).
    signals: tuple[Signal, ...] = ()


def decide_foul_at_horn(s: FoulAtHornSituation) -> FoulAtHornRuling:
    """Rule 21 (discussion) on fouls at or slightly after the horn.

    >>> s = FoulAtHornSituation(HornTiming.AT_OR_SLIGHTLY_AFTER_HORN, final_period=True)
    >>> r = decide_foul_at_horn(s)
    >>> r.execution.value, r.seconds_put_on_clock
    ('five_seconds_on_clock', 5)
    """
    if s.timing is HornTiming.BEFORE_HORN:
        return FoulAtHornRuling(Execution.AT_ONCE, 0, because(K.FOUL_BEFORE_HORN))
    if s.timing is HornTiming.UNSPORTSMANLIKE_BETWEEN_PERIODS:
        return FoulAtHornRuling(
            Execution.START_OF_NEXT_PERIOD,
            0,
            because(K.UNSPORTSMANLIKE_BETWEEN_PERIODS, K.UNSPORTSMANLIKE_YELLOW_CARD),
            (Signal.YELLOW_CARD,),
        )
    if s.final_period:
        return FoulAtHornRuling(
            Execution.FIVE_SECONDS_ON_CLOCK, 5, because(K.HORN_FOUL_FIVE_SECONDS)
        )
    return FoulAtHornRuling(Execution.START_OF_NEXT_PERIOD, 0, because(K.HORN_FOUL_NEXT_PERIOD))


# --- verbal cues (21.b) ---------------------------------------------------------------------------


class Cue(StrEnum):
    """What an Umpire would say to a player during play."""

    #: Informs a player of a potential rule violation ("Clear", "Use it", "That's your tap",
    #: "Blue 3, you're offside").
    POTENTIAL_VIOLATION = "potential_violation"
    #: Tells a player how to play (where to hit, whom to ride off, when to turn).
    COACHING = "coaching"


@dataclass(frozen=True, slots=True)
class VerbalCueSituation:
    """A cue an Umpire would give, and whether time and proximity permit it."""

    cue: Cue
    time_and_proximity_permit: bool = True


@dataclass(frozen=True, slots=True)
class VerbalCueRuling:
    """Whether the Umpire may give the cue, and whether the rule requires it."""

    may_give: bool
    required: bool
    reasons: tuple[Reason, ...]


def decide_verbal_cue(s: VerbalCueSituation) -> VerbalCueRuling:
    """21.b: Umpires "may use verbal cues when time and proximity permits to inform players of
    potential rule violations, but they are not required to do so, and they should never coach
    or instruct the players."

    >>> r = decide_verbal_cue(VerbalCueSituation(Cue.COACHING))
    >>> r.may_give, r.required
    (False, False)
    """
    if s.cue is Cue.COACHING:
        return VerbalCueRuling(False, False, because(K.CUE_NEVER_COACH))
    if not s.time_and_proximity_permit:
        return VerbalCueRuling(False, False, because(K.CUE_WHEN_TIME_AND_PROXIMITY_PERMIT))
    return VerbalCueRuling(True, False, because(K.CUE_MAY_INFORM, K.CUE_NOT_REQUIRED))
