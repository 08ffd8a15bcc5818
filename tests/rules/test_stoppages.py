"""Rule 21: every incident that stops play (or does not), and fouls at the horn."""

import pytest

from polotrainer.rules import (
    BallTouched,
    Execution,
    FoulAssessment,
    FoulAtHornSituation,
    HornTiming,
    Incident,
    StoppageSituation,
    StoppageStep,
    decide_foul_at_horn,
    decide_stoppage,
)
from polotrainer.rules.codec import to_json
from polotrainer.rules.errors import Inconsistent, MissingFact, OutOfRange

INC = Incident
FA = FoulAssessment
BT = BallTouched

# (incident, attributes, expected subset of the ruling's JSON)
CASES: list[tuple[Incident, dict[str, object], dict[str, object]]] = [
    (INC.SAFETY, {}, {"stop": "immediately", "restart": "penalty_6", "consequences": ["penalty"]}),
    (INC.SAFETY, {"ball_touched": BT.OPPONENT}, {"restart": "not_stated", "consequences": []}),
    (INC.SAFETY, {"ball_touched": BT.TEAMMATES_MOUNT}, {"restart": "not_stated"}),
    (INC.SAFETY, {"ball_touched": BT.TEAMMATES_MALLET}, {"restart": "penalty_6"}),
    (INC.SAFETY, {"ball_touched": BT.OWN_MOUNT}, {"restart": "penalty_6"}),
    (INC.FOUL, {}, {"stop": "umpire_discretion", "advantage_may_be_played": True}),
    (INC.FOUL, {"dangerous": True}, {"stop": "immediately", "advantage_may_be_played": False}),
    (INC.FOUL, {"play_already_stopped": True}, {"stop": "already_stopped", "restart": "penalty"}),
    (
        INC.FOUL,
        {"assessment": FA.CALL_WOULD_DISADVANTAGE},
        {"stop": "not_at_all", "restart": "play_continues", "consequences": []},
    ),
    (INC.FOUL, {"assessment": FA.NO_EFFECT}, {"stop": "not_at_all", "consequences": []}),
    (INC.FOUL, {"assessment": FA.UNCLEAR}, {"stop": "after_next_play", "restart": "not_stated"}),
    (
        INC.FOUL,
        {"assessment": FA.FOULED_TEAM_DISADVANTAGED},
        {"stop": "immediately", "advantage_may_be_played": False, "consequences": ["penalty"]},
    ),
    (
        INC.FOUL,
        {"assessment": FA.CALL_WOULD_DISADVANTAGE, "dangerous": True},
        {"stop": "immediately", "advantage_may_be_played": False},
    ),
    (INC.DAMAGED_BALL, {}, {"stop": "immediately"}),
    (
        INC.DAMAGED_BALL,
        {"minor_damage": True},
        {"stop": "at_neutral_play", "consequences": ["largest_piece_played"]},
    ),
    (
        INC.INJURED_PLAYER,
        {},
        {
            "stop": "immediately",
            "minutes_allowed": 10,
            "time_at_discretion": True,
            "consequences": [],
            "resume_at_time_limit": True,
        },
    ),
    (INC.INJURED_PLAYER, {"treatment_needs_more_time": True}, {"resume_at_time_limit": False}),
    (INC.INJURED_PLAYER, {"additional_time_granted": True}, {"resume_at_time_limit": False}),
    (INC.INJURED_PLAYER, {"unconscious": True}, {"consequences": ["no_play_rest_of_day"]}),
    (
        INC.INJURED_PLAYER,
        {"recurrence": True},
        {
            "stop": "not_at_all",
            "minutes_allowed": 0,
            "consequences": ["no_time_out_for_recurrence"],
        },
    ),
    (INC.PLAYER_FALLS, {}, {"stop": "at_neutral_play"}),
    (INC.PLAYER_FALLS, {"possibly_injured": True}, {"stop": "immediately"}),
    (
        INC.MOUNT_INJURED,
        {"visibly_injured": True},
        {
            "stop": "immediately",
            "announcement": "all_may_change",
            "may_change_mounts": "all_may_change",
            "restart": "throw_in",
            "mount_may_return": "may_not_return",
            "consequences": ["delay_penalized"],
        },
    ),
    (
        INC.MOUNT_INJURED,
        {},
        {
            "may_change_mounts": "teammates_may_not_change",
            "restart": "when_mount_off_field",
            "mount_may_return": "may_not_return",
            "announcement": "none",
        },
    ),
    (
        INC.COURTESY_CHANGE,
        {"game_periods": 6},
        {
            "stop": "ball_out_or_neutral_play",
            "minutes_allowed": 1,
            "announcement": "courtesy_change_one_minute",
            "restart": "as_the_case_may_be",
            "may_change_mounts": "all_may_change",
            "horses_per_umpire": 2,
        },
    ),
    (
        INC.COURTESY_CHANGE,
        {"courtesy_declared": False, "game_periods": 6},
        {"stop": "not_at_all", "may_change_mounts": "no_one", "horses_per_umpire": 0},
    ),
    (
        INC.COURTESY_CHANGE,
        {"courtesy_used_this_period": True, "game_periods": 4},
        {"stop": "not_at_all", "horses_per_umpire": 2},
    ),
    (INC.COURTESY_CHANGE, {"game_periods": 3}, {"horses_per_umpire": 0}),
    (
        INC.MOUNT_FALLS,
        {"mount_sound": False},
        {
            "announcement": "all_may_change",
            "may_change_mounts": "all_may_change",
            "mount_may_return": "may_not_return",
            "restart": "throw_in",
            "consequences": ["delay_penalized"],
        },
    ),
    (
        INC.MOUNT_TIME_OUT,
        {},
        {
            "stop": "umpire_discretion",
            "minutes_allowed": 5,
            "restart": "not_stated",
            "may_change_mounts": "teammates_may_not_change",
        },
    ),
    (
        INC.MOUNT_TIME_OUT,
        {"teammate_changed": True},
        {"restart": "penalty", "consequences": ["penalty"]},
    ),
    (INC.EXCUSED_MOUNT_RETURNED, {}, {"consequences": ["forfeiture_must_be_exacted"]}),
    (
        INC.EXCUSED_MOUNT_RETURNED,
        {"detected_during_game": False, "evidence_within_24_hours": True},
        {"consequences": ["forfeiture_must_be_exacted"]},
    ),
    (INC.EXCUSED_MOUNT_RETURNED, {"detected_during_game": False}, {"consequences": []}),
    (
        INC.BROKEN_TACK,
        {"event_upper_handicap": 12, "out_of_the_play": True, "mount_under_control": True},
        {
            "stop": "when_ball_out_of_play",
            "minutes_allowed": 0,
            "may_change_mounts": "not_stated",
            "consequences": ["player_must_leave_field"],
        },
    ),
    (
        INC.BROKEN_TACK,
        {"event_upper_handicap": 12, "broken_by_contact": True, "dangerous": True},
        {"stop": "immediately", "minutes_allowed": 5, "time_at_discretion": False},
    ),
    (
        INC.BROKEN_TACK,
        {"event_upper_handicap": 6, "dangerous": True},
        {
            "minutes_allowed": 5,
            "time_at_discretion": True,
            "may_change_mounts": "player_may_change",
            "consequences": [],
        },
    ),
    (INC.DAMAGED_EQUIPMENT, {}, {"stop": "at_neutral_play"}),
    (INC.DAMAGED_EQUIPMENT, {"dangerous": True}, {"stop": "immediately"}),
    (INC.LOST_HELMET, {}, {"stop": "at_neutral_play"}),
    (
        INC.LODGED_BALL,
        {},
        {
            "stop": "immediately",
            "restart": "ball_dead_where_lodged",
            "restart_at": "where_first_lodged",
        },
    ),
    (
        INC.LODGED_BALL,
        {"can_be_dropped": True},
        {"stop": "not_at_all", "restart": "play_continues"},
    ),
    (INC.PERIOD_END, {}, {"stop": "at_period_end"}),
    (INC.SUSPENSION, {}, {"stop": "umpire_discretion"}),
    (
        INC.INADVERTENT_WHISTLE,
        {},
        {
            "stop": "already_stopped",
            "restart": "throw_in_toward_boards",
            "restart_at": "where_play_was_stopped",
        },
    ),
    (
        INC.INADVERTENT_WHISTLE,
        {"fair_play_possession": True},
        {"restart": "fair_play_possession", "restart_at": "not_stated"},
    ),
]


@pytest.mark.parametrize(("incident", "attributes", "expect"), CASES)
def test_each_incident(
    incident: Incident, attributes: dict[str, object], expect: dict[str, object]
) -> None:
    ruling = to_json(decide_stoppage(StoppageSituation(incident, **attributes)))  # type: ignore[arg-type]
    assert {key: ruling[key] for key in expect} == expect


def test_every_incident_is_covered() -> None:
    assert {case[0] for case in CASES} | {
        INC.PLAYER_UNABLE_TO_CONTINUE,
        INC.MOUNT_CHANGED_DURING_PLAY,
        INC.DROPPED_MALLET,
    } == set(Incident)


def test_the_reasons_cite_the_incidents_own_section() -> None:
    ruling = decide_stoppage(StoppageSituation(INC.LOST_HELMET))
    assert [(r.ref, r.key) for r in ruling.reasons] == [("21.h", "helmet_stop_at_neutral")]


def test_a_courtesy_change_needs_the_number_of_periods() -> None:
    with pytest.raises(MissingFact) as excinfo:
        StoppageSituation(INC.COURTESY_CHANGE)
    assert (excinfo.value.field, excinfo.value.code) == ("game_periods", "missing")
    with pytest.raises(OutOfRange) as range_info:
        StoppageSituation(INC.COURTESY_CHANGE, game_periods=9)
    assert range_info.value.field == "game_periods"


def test_broken_tack_needs_the_events_upper_handicap() -> None:
    with pytest.raises(MissingFact) as excinfo:
        StoppageSituation(INC.BROKEN_TACK)
    assert (excinfo.value.field, excinfo.value.code) == ("event_upper_handicap", "missing")
    with pytest.raises(OutOfRange) as range_info:
        StoppageSituation(INC.BROKEN_TACK, event_upper_handicap=41)
    assert range_info.value.field == "event_upper_handicap"


@pytest.mark.parametrize(
    ("timing", "final", "execution", "seconds", "key"),
    [
        (HornTiming.BEFORE_HORN, False, Execution.AT_ONCE, 0, "foul_before_horn"),
        (
            HornTiming.AT_OR_SLIGHTLY_AFTER_HORN,
            False,
            Execution.START_OF_NEXT_PERIOD,
            0,
            "horn_foul_next_period",
        ),
        (
            HornTiming.AT_OR_SLIGHTLY_AFTER_HORN,
            True,
            Execution.FIVE_SECONDS_ON_CLOCK,
            5,
            "horn_foul_five_seconds",
        ),
        (
            HornTiming.UNSPORTSMANLIKE_BETWEEN_PERIODS,
            False,
            Execution.START_OF_NEXT_PERIOD,
            0,
            "unsportsmanlike_between_periods",
        ),
    ],
)
def test_fouls_at_the_horn(
    timing: HornTiming, final: bool, execution: Execution, seconds: int, key: str
) -> None:
    ruling = decide_foul_at_horn(FoulAtHornSituation(timing, final))
    assert (ruling.execution, ruling.seconds_put_on_clock) == (execution, seconds)
    assert next((r.ref, r.key) for r in ruling.reasons) == ("21.discussion", key)


def test_the_unsportsmanlike_remark_between_periods_gets_a_yellow_card() -> None:
    # 21.discussion example 4: "A yellow card should be displayed and the next period started
    # with a penalty."
    ruling = decide_foul_at_horn(FoulAtHornSituation(HornTiming.UNSPORTSMANLIKE_BETWEEN_PERIODS))
    assert ruling.signals == ("yellow_card",)
    assert decide_foul_at_horn(FoulAtHornSituation(HornTiming.BEFORE_HORN)).signals == ()


def test_no_period_follows_the_final_one() -> None:
    with pytest.raises(Inconsistent) as excinfo:
        FoulAtHornSituation(HornTiming.UNSPORTSMANLIKE_BETWEEN_PERIODS, final_period=True)
    assert excinfo.value.field == "final_period"


# --- 21.g: broken tack that presents no danger --------------------------------------------------


def tack(**facts: object) -> StoppageSituation:
    return StoppageSituation(INC.BROKEN_TACK, event_upper_handicap=8, **facts)  # type: ignore[arg-type]


def test_a_broken_rein_of_a_double_rein_in_play_waits_for_a_neutral_play() -> None:
    # 21.g stops play at once for "broken rein if single"; one rein of a double rein is not such
    # tack. Broken equipment that may pose a risk waits for a neutral play (21.g).
    ruling = decide_stoppage(tack(out_of_the_play=False, may_pose_risk=True))
    assert ruling.stop == "at_neutral_play"
    first = ruling.reasons[0]
    assert (first.ref, first.key) == ("21.g", "tack_risk_wait_neutral")


def test_the_stirrup_leather_example_waits_for_the_ball_out_of_play() -> None:
    # 21.discussion: "He is out of the play and holds his mount under control."
    ruling = decide_stoppage(tack(out_of_the_play=True, mount_under_control=True))
    assert ruling.stop == "when_ball_out_of_play"
    ruling = decide_stoppage(
        tack(out_of_the_play=True, mount_under_control=False, may_pose_risk=True)
    )
    assert ruling.stop == "at_neutral_play"


def test_tack_that_poses_no_risk_in_play_is_not_decided_by_the_seed() -> None:
    ruling = decide_stoppage(tack(out_of_the_play=False, may_pose_risk=False))
    assert (ruling.stop, ruling.reasons[0].key, ruling.procedure) == (
        "not_stated",
        "tack_no_risk_not_stated",
        (),
    )


@pytest.mark.parametrize(
    ("facts", "missing"),
    [
        ({}, "out_of_the_play"),
        ({"out_of_the_play": True}, "mount_under_control"),
        ({"out_of_the_play": False}, "may_pose_risk"),
        ({"out_of_the_play": True, "mount_under_control": False}, "may_pose_risk"),
    ],
)
def test_every_fact_the_stop_for_tack_uses_must_be_stated(
    facts: dict[str, object], missing: str
) -> None:
    with pytest.raises(MissingFact) as excinfo:
        tack(**facts)
    assert excinfo.value.field == missing


@pytest.mark.parametrize(
    "facts",
    [{"dangerous": True}, {"play_already_stopped": True}, {"changed_without_permission": True}],
)
def test_tack_needs_no_more_facts_when_the_stop_does_not_depend_on_them(
    facts: dict[str, object],
) -> None:
    assert decide_stoppage(tack(**facts)).stop in ("immediately", "already_stopped")


def test_tack_when_play_is_already_stopped() -> None:
    ruling = decide_stoppage(tack(play_already_stopped=True, asks_to_change_mount=True))
    assert (ruling.stop, ruling.may_change_mounts) == ("already_stopped", "with_permission")
    assert ruling.procedure[0] is StoppageStep.RECTIFIED_ON_THE_GROUND_IF_QUICK


def test_five_minutes_at_6_goals_only_when_announced_before_the_game() -> None:
    facts = {"event_upper_handicap": 6, "dangerous": True}
    announced = decide_stoppage(StoppageSituation(INC.BROKEN_TACK, **facts))  # type: ignore[arg-type]
    assert announced.minutes_allowed == 5
    silent = decide_stoppage(
        StoppageSituation(INC.BROKEN_TACK, five_minutes_announced=False, **facts)  # type: ignore[arg-type]
    )
    assert (silent.minutes_allowed, silent.consequences) == (0, ("player_must_leave_field",))
    assert [r.key for r in silent.reasons][1:3] == [
        "tack_five_minutes_not_announced",
        "tack_leave_field",
    ]


# --- procedures: the seed's own sequences -------------------------------------------------------

P = StoppageStep


@pytest.mark.parametrize(
    ("incident", "facts", "steps"),
    [
        (
            INC.INJURED_PLAYER,
            {},
            [
                P.PLAY_STOPPED,
                P.TEN_MINUTES_ALLOWED,
                P.PLAYER_RESUMES_OR_SUBSTITUTE_ENTERS,
                P.PLAY_RESUMES,
            ],
        ),
        (
            INC.PLAYER_UNABLE_TO_CONTINUE,
            {},
            [
                P.PLAYER_ASKS_TIME_OUT,
                P.PLAY_STOPPED,
                P.TEN_MINUTES_ALLOWED,
                P.PLAYER_RESUMES_OR_SUBSTITUTE_ENTERS,
                P.PLAY_RESUMES,
            ],
        ),
        (
            INC.MOUNT_INJURED,
            {"visibly_injured": True},
            [
                P.PLAYER_INFORMS_UMPIRES,
                P.PLAY_STOPPED,
                P.ALL_MAY_CHANGE_ANNOUNCED,
                P.MOUNT_LED_OFF,
                P.PLAYER_RETURNS_ON_ANOTHER_MOUNT,
                P.THROW_IN,
            ],
        ),
        (
            INC.MOUNT_INJURED,
            {},
            [
                P.PLAYER_INFORMS_UMPIRES,
                P.PLAY_STOPPED,
                P.PLAYER_INSTRUCTED_TO_CHANGE,
                P.MOUNT_LED_OFF_SHORTEST_LINE,
                P.PLAY_RESUMES,
            ],
        ),
        (
            INC.COURTESY_CHANGE,
            {"game_periods": 4},
            [
                P.PLAY_STOPPED,
                P.COURTESY_CHANGE_ANNOUNCED,
                P.ONE_MINUTE_TO_CHANGE,
                P.RESTART_AS_THE_CASE_MAY_BE,
            ],
        ),
        (INC.COURTESY_CHANGE, {"courtesy_used_this_period": True, "game_periods": 4}, []),
        (INC.MOUNT_FALLS, {}, [P.PLAY_STOPPED, P.MOUNT_TROTTED_AND_EXAMINED, P.PLAYER_REMOUNTS]),
        (
            INC.MOUNT_FALLS,
            {"mount_sound": False},
            [
                P.PLAY_STOPPED,
                P.MOUNT_TROTTED_AND_EXAMINED,
                P.ALL_MAY_CHANGE_ANNOUNCED,
                P.MOUNT_LED_OFF,
                P.PLAYER_RETURNS_ON_ANOTHER_MOUNT,
                P.THROW_IN,
            ],
        ),
        (
            INC.MOUNT_TIME_OUT,
            {},
            [
                P.PLAYER_ASKS_TIME_OUT,
                P.PLAY_STOPPED,
                P.FIVE_MINUTES_TO_CHANGE,
                P.PLAY_RESUMES,
                P.TEAMMATES_MAY_CHANGE,
            ],
        ),
        (
            INC.MOUNT_TIME_OUT,
            {"elects_to_change": False},
            [
                P.PLAYER_ASKS_TIME_OUT,
                P.PLAY_STOPPED,
                P.MOUNT_TROTTED_AND_EXAMINED,
                P.PLAYER_REMOUNTS,
                P.PLAY_RESUMES,
                P.TEAMMATES_MAY_CHANGE,
            ],
        ),
        (
            INC.MOUNT_TIME_OUT,
            {"teammate_changed": True},
            [
                P.PLAYER_ASKS_TIME_OUT,
                P.PLAY_STOPPED,
                P.FIVE_MINUTES_TO_CHANGE,
                P.PENALTY_AWARDED,
                P.PLAY_RESUMES,
            ],
        ),
        (
            INC.BROKEN_TACK,
            {"dangerous": True, "event_upper_handicap": 6},
            [
                P.PLAY_STOPPED,
                P.RECTIFIED_ON_THE_GROUND_IF_QUICK,
                P.FIVE_MINUTES_TO_RECTIFY_OR_CHANGE,
                P.THROW_IN,
            ],
        ),
        (
            INC.BROKEN_TACK,
            {"dangerous": True, "event_upper_handicap": 12, "broken_by_contact": True},
            [
                P.PLAY_STOPPED,
                P.RECTIFIED_ON_THE_GROUND_IF_QUICK,
                P.PLAYER_LEAVES_FIELD,
                P.FIVE_MINUTES_OR_UNTIL_RETURN,
                P.THROW_IN,
            ],
        ),
        (INC.INJURED_PLAYER, {"recurrence": True}, []),
        (INC.LOST_HELMET, {}, []),
    ],
)
def test_the_procedure_follows_the_seeds_sequence(
    incident: Incident, facts: dict[str, object], steps: list[StoppageStep]
) -> None:
    assert list(decide_stoppage(StoppageSituation(incident, **facts)).procedure) == steps  # type: ignore[arg-type]


def test_no_timing_of_the_seed_goes_unpenalized() -> None:
    # NOT_PENALIZED is a choice to offer, never a ruling: every foul at the horn is penalized.
    rulings = {
        decide_foul_at_horn(FoulAtHornSituation(timing, final)).execution
        for timing in HornTiming
        for final in (False, True)
        if not (final and timing is HornTiming.UNSPORTSMANLIKE_BETWEEN_PERIODS)
    }
    assert Execution.NOT_PENALIZED not in rulings
    assert rulings == set(Execution) - {Execution.NOT_PENALIZED}
