"""Invariants that hold for every situation (hypothesis)."""

import math

from hypothesis import given
from hypothesis import strategies as st

from polotrainer.rules import (
    KINDS,
    Field,
    LeaveReason,
    Moment,
    Player,
    Point,
    SpotPenalty,
    SubDecision,
    Substitute,
    SubstitutionSituation,
    decide_penalty_spot,
    decide_substitution,
    rule_json,
)
from polotrainer.rules.errors import FactError
from polotrainer.rules.penalties import Penalty2Choice, PenaltySpotSituation

fields = st.builds(
    lambda length, width, boarded: Field(length, min(width, 160.0) if boarded else width, boarded),
    st.floats(150, 300),
    st.floats(80, 200),
    st.booleans(),
)


@st.composite
def spot_situations(draw: st.DrawFn) -> PenaltySpotSituation:
    field = draw(fields)
    half_l, half_w = field.length / 2, field.half_width
    on_field = st.builds(Point, st.floats(-half_l, half_l), st.floats(-half_w, half_w))
    crossing = draw(st.floats(4.001, half_w)) * draw(st.sampled_from([-1, 1]))
    return PenaltySpotSituation(
        penalty=draw(st.sampled_from(SpotPenalty)),
        field=field,
        p2_choice=draw(st.sampled_from(Penalty2Choice)),
        foul_spot=draw(on_field),
        ball=draw(on_field),
        crossing_y=crossing,
    )


@given(spot_situations())
def test_every_spot_is_on_the_field(s: PenaltySpotSituation) -> None:
    ruling = decide_penalty_spot(s)
    assert s.field.contains(ruling.spot)
    assert decide_penalty_spot(s) == ruling


@given(spot_situations())
def test_a_penalty_6_spot_is_never_more_than_40_from_centre(s: PenaltySpotSituation) -> None:
    s = PenaltySpotSituation(SpotPenalty.P6, s.field, crossing_y=s.crossing_y)
    spot = decide_penalty_spot(s).spot
    assert spot.x == s.field.line_x(60)
    assert math.dist((spot.x, spot.y), (s.field.line_x(60), 0)) <= 40


@given(spot_situations())
def test_a_penalty_5a_spot_is_never_within_5_yards_of_the_sides(s: PenaltySpotSituation) -> None:
    s = PenaltySpotSituation(SpotPenalty.P5A, s.field, ball=s.ball)
    spot = decide_penalty_spot(s).spot
    assert s.field.half_width - abs(spot.y) >= 5


players = st.integers(-2, 10)


@st.composite
def substitution_steps(draw: st.DrawFn) -> list[tuple[int, int, Moment, LeaveReason, bool]]:
    return draw(
        st.lists(
            st.tuples(
                st.integers(0, 3),
                players,
                st.sampled_from(Moment),
                st.sampled_from(
                    [
                        LeaveReason.INJURED,
                        LeaveReason.UNABLE_TO_CONTINUE,
                        LeaveReason.ABLE_TO_CONTINUE,
                    ]
                ),
                st.booleans(),
            ),
            max_size=12,
        )
    )


@given(st.lists(players, min_size=4, max_size=4), st.integers(0, 16), substitution_steps())
def test_the_handicap_counted_never_decreases(
    start: list[int], margin: int, steps: list[tuple[int, int, Moment, LeaveReason, bool]]
) -> None:
    team = [Player(f"R{i}", h) for i, h in enumerate(start)]
    counted = sum(start)
    upper = min(counted + margin, 40)  # a team that may play in the event
    for n, (slot, handicap, moment, reason, eligible) in enumerate(steps):
        incoming = Substitute(f"S{n}", handicap, eligible)
        ruling = decide_substitution(
            SubstitutionSituation(
                event_upper=upper,
                team=tuple(team),
                moment=moment,
                reason=reason,
                outgoing=(team[slot].id,),
                incoming=(incoming,),
                counted_so_far=counted,
            )
        )
        assert ruling.handicap_counted >= counted
        assert ruling.scoreboard_change == counted - ruling.handicap_counted
        counted = ruling.handicap_counted
        assert ruling.handicap_counted <= upper
        if ruling.decision is not SubDecision.NOT_ALLOWED:
            team[slot] = Player(incoming.id, incoming.handicap)
            assert ruling.handicap_on_field == sum(p.handicap for p in team)


json_facts = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 400) | st.sampled_from(["1", "5a", "foul", "R1"]),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner, max_size=4)
    ),
    max_leaves=12,
)


@given(
    st.sampled_from(sorted(KINDS)), st.dictionaries(st.text(max_size=12), json_facts, max_size=4)
)
def test_rulings_are_deterministic_and_bad_facts_raise_fact_errors(
    kind: str, facts: dict[str, object]
) -> None:
    try:
        first = rule_json(kind, facts)
    except FactError as error:
        assert error.field
        assert error.code
        return
    assert rule_json(kind, facts) == first
