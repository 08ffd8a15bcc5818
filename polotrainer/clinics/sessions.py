"""Making a clinic session: its rounds (chosen scenarios, a rule, sections or a cohort's
assignment, each with a fresh seed), its teams and its PIN; finding a running one by PIN.

The PIN is six digits (a phone's number pad), drawn with the system's CSPRNG and unique among
the sessions still running. Wrong PINs are counted per address (polotrainer.throttle), so
trying PINs one after another stops long before it finds a session: with a few sessions
running among a million PINs, the guesses allowed in a window find one with odds of a few in
ten thousand, and what it finds is a seat in a quiz, nothing else.

The limit never stops the room it protects. A phone that has joined (its signed rejoin
cookie) and a phone that came through the projector's QR code (its link carries the session's
pass, polotrainer.throttle.passes) are neither counted nor paused; so is a phone that typed
the right PIN while its address was under the limit (it is sent on with the pass). Only a
phone that types a PIN while its address is paused is refused, whatever the PIN, so a guesser
over the limit learns nothing (README, Decisions).
"""

import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import timedelta
from enum import StrEnum

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.urls import reverse

from polotrainer.clinics import drill
from polotrainer.clinics.models import ClinicSession, ClinicSet, ClinicSetItem, Phase, Round, Team
from polotrainer.courses.models import Assignment
from polotrainer.throttle import passes, rates
from scenarios.models import Rule, Scenario, Section
from scenarios.scope import Scope, resolve
from scenarios.variants import fresh_seed

PIN_LENGTH = 6
PIN_TRIES = 30
#: Wrong PINs one address may type in GUESS_WINDOW before it must wait.
GUESS_LIMIT = 40
GUESS_WINDOW = timedelta(minutes=10)
GUESS_BUCKET = "clinic-pin"
PASS_PURPOSE = "clinic"  # noqa: S105 - names what a pass is for, not a password
MAX_ROUNDS = 30
MAX_TEAMS = 12


class SessionCode(StrEnum):
    """Why a clinic could not be created."""

    NO_SCENARIOS = "no_scenarios"
    TOO_MANY_TEAMS = "too_many_teams"
    NO_PIN = "no_pin"


class SessionError(Exception):
    """A session refused: `code` is no_scenarios, too_many_teams or no_pin."""

    def __init__(self, code: SessionCode) -> None:
        super().__init__(code)
        self.code = code


@dataclass(frozen=True)
class Source:
    """Where the rounds come from: one of scenarios, a rule, sections, an assignment or one of
    the instructor's named sets."""

    scope: str  # Scope.SCENARIOS, RULE, SECTIONS, "assignment" or "named"
    scenarios: Sequence[Scenario] = ()
    rule: Rule | None = None
    sections: Sequence[Section] = ()
    assignment: Assignment | None = None
    named: ClinicSet | None = None
    #: The instructor's user id: chosen situations (and an assignment's) may be ones their
    #: courses wrote (scenarios.audience); a rule or sections draw the bundled ones.
    audience: int | None = None

    def scenario_ids(self) -> list[int]:
        if self.named is not None:
            # The set's own order; a situation retired since (or no longer the instructor's
            # to meet) is left out.
            ordered = list(
                ClinicSetItem.objects.filter(set=self.named)
                .order_by("position")
                .values_list("scenario_id", flat=True)
            )
            live = set(
                Scenario.objects.live_for(self.named.instructor_id)
                .filter(pk__in=ordered)
                .values_list("pk", flat=True)
            )
            return [pk for pk in ordered if pk in live]
        if self.assignment is not None:
            return resolve(
                Scope.SCENARIOS, scenarios=self.assignment.scenarios.all(), audience=self.audience
            )
        return resolve(self.scope, self.rule, self.sections, self.scenarios, self.audience)

    def label(self) -> str:
        if self.named is not None:
            return self.named.name[:200]
        if self.assignment is not None:
            return f"{self.assignment.cohort.name}: {self.assignment.title}"[:200]
        if self.rule is not None:
            return f"Rule {self.rule.number}"
        if self.sections:
            return ", ".join(s.ref for s in self.sections)[:200]
        return ", ".join(s.slug for s in self.scenarios)[:200]


def draw_pin() -> str:
    """A clinic's PIN: PIN_LENGTH random digits, leading zeros kept.

    >>> len(draw_pin()) == PIN_LENGTH and draw_pin().isdigit()
    True
    """
    return f"{secrets.randbelow(10**PIN_LENGTH):0{PIN_LENGTH}d}"


def create(
    instructor: User,
    title: str,
    source: Source,
    *,
    rounds: int,
    time_limit: int | None = None,
    speed_bonus: bool = False,
    streaks: bool = False,
    teams: Sequence[str] = (),
    drills: bool = False,
) -> ClinicSession:
    """A new session in the lobby: up to `rounds` rounds drawn from the source, in its order;
    with `drills`, each situation a scene plays is a drill round (clinics.drill)."""
    chosen = source.scenario_ids()[: min(rounds, MAX_ROUNDS)]
    if not chosen:
        raise SessionError(SessionCode.NO_SCENARIOS)
    if drills:
        by_pk = Scenario.objects.in_bulk(chosen)
        played = [drill.prepare(by_pk[pk]) for pk in chosen]
    else:
        played = [(fresh_seed(), None) for _ in chosen]
    names = list(dict.fromkeys(t.strip()[:40] for t in teams if t.strip()))
    if len(names) > MAX_TEAMS:
        raise SessionError(SessionCode.TOO_MANY_TEAMS)
    for _ in range(PIN_TRIES):
        try:
            with transaction.atomic():
                session = ClinicSession.objects.create(
                    instructor=instructor,
                    title=title[:120],
                    pin=draw_pin(),
                    time_limit=time_limit,
                    speed_bonus=speed_bonus,
                    streaks=streaks,
                    source=source.label(),
                )
                Round.objects.bulk_create(
                    Round(session=session, position=n, scenario_id=pk, seed=seed, stop_ms=stop)
                    for n, (pk, (seed, stop)) in enumerate(zip(chosen, played, strict=True), 1)
                )
                Team.objects.bulk_create(Team(session=session, name=name) for name in names)
            return session
        except IntegrityError:
            continue  # the PIN was taken by a running session meanwhile: draw again
    raise SessionError(SessionCode.NO_PIN)


def normalise_pin(text: str) -> str:
    """What was typed, as a PIN: spaces and dashes do not matter.

    >>> normalise_pin(" 123-456 ")
    '123456'
    """
    return "".join(c for c in text[:40] if c not in " -.\u00b7\t")


class PinCode(StrEnum):
    """Why a PIN was refused."""

    MALFORMED = "malformed"
    ENDED = "ended"
    PAUSED = "paused"
    UNKNOWN = "unknown"


class PinError(Exception):
    """A PIN refused: `code` is malformed, unknown, ended or paused (too many wrong ones)."""

    def __init__(self, code: PinCode) -> None:
        super().__init__(code)
        self.code = code


def join_pass(session: ClinicSession) -> str:
    """The pass of the session's join link: the QR code on the projector carries it."""
    return passes.issue(PASS_PURPOSE, session.pk, session.pin)


def join_path(session: ClinicSession) -> str:
    """The phone's join page with the pass: the QR code's link, and where a right PIN leads."""
    path = reverse("clinics:play", args=[session.pin])
    return f"{path}?{passes.PARAMETER}={join_pass(session)}"


def holds_pass(session: ClinicSession, value: str | None) -> bool:
    return passes.holds(value, PASS_PURPOSE, session.pk, session.pin)


def _never(session: ClinicSession) -> bool:
    return False


def find(pin: str, address: str, known: Callable[[ClinicSession], bool] = _never) -> ClinicSession:
    """The running session with this PIN; PinError otherwise.

    `known(session)` says whether this client has shown it knows the session already (a
    rejoin cookie, the join link's pass): it is never counted nor paused, and a phone of a
    session that has just ended is told so without it counting as a wrong PIN. Any other
    client's wrong PINs are counted per address, and an address over the limit is refused
    ("paused") before its PIN is looked at.
    """
    pin = normalise_pin(pin)
    if len(pin) != PIN_LENGTH or not pin.isascii() or not pin.isdigit():
        raise PinError(PinCode.MALFORMED)
    session = ClinicSession.objects.exclude(phase=Phase.ENDED).filter(pin=pin).first()
    if session is None:
        # The last session that ended with this PIN: its phones are told, not counted.
        session = ClinicSession.objects.filter(pin=pin, phase=Phase.ENDED).first()
    if session is not None and known(session):
        if session.ended:
            raise PinError(PinCode.ENDED)
        return session
    key = address or "-"
    if not rates.allowed(GUESS_BUCKET, key, GUESS_LIMIT, GUESS_WINDOW):
        raise PinError(PinCode.PAUSED)
    if session is None or session.ended:
        rates.record(GUESS_BUCKET, key, GUESS_WINDOW)
        raise PinError(PinCode.UNKNOWN if session is None else PinCode.ENDED)
    return session


class SetCode(StrEnum):
    """Why a clinic's situations could not be saved as a named set."""

    NOT_ENDED = "not_ended"
    NO_NAME = "no_name"
    DUPLICATE = "duplicate"


class SetError(Exception):
    """A set refused: `code` is not_ended, no_name or duplicate."""

    def __init__(self, code: SetCode) -> None:
        super().__init__(code)
        self.code = code


SET_NAME_LENGTH = 80


def save_set(session: ClinicSession, name: str) -> ClinicSet:
    """The ended session's situations (every round, in its order) as a set of its instructor
    named `name`; SetError when it has not ended, the name is empty or the instructor has a set
    of that name already (whatever its letter case)."""
    name = " ".join(name.split())
    if not session.ended:
        raise SetError(SetCode.NOT_ENDED)
    if not name:
        raise SetError(SetCode.NO_NAME)
    if len(name) > SET_NAME_LENGTH:
        name = name[:SET_NAME_LENGTH].rstrip()
    ordered = list(
        Round.objects.filter(session=session)
        .order_by("position")
        .values_list("scenario_id", flat=True)
    )
    try:
        with transaction.atomic():
            named = ClinicSet.objects.create(instructor_id=session.instructor_id, name=name)
            ClinicSetItem.objects.bulk_create(
                ClinicSetItem(set=named, position=n, scenario_id=pk)
                for n, pk in enumerate(dict.fromkeys(ordered), start=1)
            )
    except IntegrityError:
        raise SetError(SetCode.DUPLICATE) from None
    return named
