"""Rule 21: every incident that stops play (or does not), and fouls at the horn."""

import pytest

from polotrainer.rules import (
    Execution,
    FoulAtHornSituation,
    HornTiming,
    Incident,
    StoppageSituation,
    decide_foul_at_horn,
    decide_stoppage,
)
from polotrainer.rules.codec import to_json
from polotrainer.rules.errors import Inconsistent, MissingFact, OutOfRange

INC = Incident

# (incident, attributes, expected subset of the ruling's JSON)
CASES: list[tuple[Incident, dict[str, object], dict[str, object]]] = [
    (INC.SAFETY, {}, {"stop": "immediately", "restart": "penalty_6"}),
    (INC.SAFETY, {"touched_another_player": True}, {"restart": "not_stated", "consequences": []}),
    (INC.FOUL, {}, {"stop": "umpire_discretion", "advantage_may_be_played": True}),
    (INC.FOUL, {"dangerous": True}, {"stop": "immediately", "advantage_may_be_played": False}),
    (INC.FOUL, {"play_already_stopped": True}, {"stop": "already_stopped", "restart": "penalty"}),
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
        },
    ),
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
            "may_change_mounts": "player_may_change",
            "restart": "when_mount_off_field",
            "mount_may_return": "may_not_return",
            "announcement": "none",
        },
    ),
    (
        INC.COURTESY_CHANGE,
        {},
        {
            "stop": "ball_out_or_neutral_play",
            "minutes_allowed": 1,
            "announcement": "courtesy_change_one_minute",
            "restart": "as_the_case_may_be",
            "may_change_mounts": "all_may_change",
        },
    ),
    (
        INC.COURTESY_CHANGE,
        {"courtesy_declared": False},
        {"stop": "not_at_all", "may_change_mounts": "no_one"},
    ),
    (INC.COURTESY_CHANGE, {"courtesy_used_this_period": True}, {"stop": "not_at_all"}),
    (
        INC.MOUNT_FALLS,
        {"mount_sound": False},
        {
            "may_change_mounts": "player_must_change",
            "mount_may_return": "may_not_return",
            "restart": "throw_in",
        },
    ),
    (
        INC.MOUNT_TIME_OUT,
        {},
        {"stop": "umpire_discretion", "minutes_allowed": 5, "restart": "not_stated"},
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
        {"event_upper_handicap": 12},
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
        {"event_upper_handicap": 6},
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
    (INC.LODGED_BALL, {}, {"stop": "immediately", "restart": "ball_dead_where_lodged"}),
    (
        INC.LODGED_BALL,
        {"can_be_dropped": True},
        {"stop": "not_at_all", "restart": "play_continues"},
    ),
    (INC.PERIOD_END, {}, {"stop": "at_period_end"}),
    (INC.SUSPENSION, {}, {"stop": "umpire_discretion"}),
    (INC.INADVERTENT_WHISTLE, {}, {"stop": "already_stopped", "restart": "throw_in_toward_boards"}),
    (INC.INADVERTENT_WHISTLE, {"fair_play_possession": True}, {"restart": "fair_play_possession"}),
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
    assert [(r.ref, r.key) for r in ruling.reasons] == [("21.discussion", key)]


def test_no_period_follows_the_final_one() -> None:
    with pytest.raises(Inconsistent) as excinfo:
        FoulAtHornSituation(HornTiming.UNSPORTSMANLIKE_BETWEEN_PERIODS, final_period=True)
    assert excinfo.value.field == "final_period"
