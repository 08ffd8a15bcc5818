"""Making a clinic session: its rounds (chosen scenarios, a rule, sections or a cohort's
assignment, each with a fresh seed), its teams and its PIN; finding a running one by PIN.

The PIN is six digits (a phone's number pad), drawn with the system's CSPRNG and unique among
the sessions still running. Wrong PINs are counted per address (polotrainer.throttle), so
trying PINs one after another stops long before it finds a session: with a few sessions
running among a million PINs, the guesses allowed in a window find one with odds of a few in
ten thousand, and what it finds is a seat in a quiz, nothing else.
"""

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

from polotrainer.clinics.models import ClinicSession, Phase, Round, Team
from polotrainer.courses.assignments import resolve
from polotrainer.courses.models import Assignment, Scope
from polotrainer.throttle import rates
from scenarios.models import Rule, Scenario, Section
from scenarios.variants import fresh_seed

PIN_LENGTH = 6
PIN_TRIES = 30
#: Wrong PINs one address may type in GUESS_WINDOW before it must wait.
GUESS_LIMIT = 40
GUESS_WINDOW = timedelta(minutes=10)
GUESS_BUCKET = "clinic-pin"
MAX_ROUNDS = 30
MAX_TEAMS = 12


class SessionError(Exception):
    """A session refused: `code` is no_scenarios, too_many_teams or no_pin."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


@dataclass(frozen=True)
class Source:
    """Where the rounds come from: one of scenarios, a rule, sections or an assignment."""

    scope: str  # Scope.SCENARIOS, RULE, SECTIONS, or "assignment"
    scenarios: Sequence[Scenario] = ()
    rule: Rule | None = None
    sections: Sequence[Section] = ()
    assignment: Assignment | None = None

    def scenario_ids(self) -> list[int]:
        if self.assignment is not None:
            return resolve(Scope.SCENARIOS, scenarios=self.assignment.scenarios.all())
        return resolve(self.scope, self.rule, self.sections, self.scenarios)

    def label(self) -> str:
        if self.assignment is not None:
            return f"{self.assignment.cohort.name}: {self.assignment.title}"[:200]
        if self.rule is not None:
            return f"Rule {self.rule.number}"
        if self.sections:
            return ", ".join(s.ref for s in self.sections)[:200]
        return ", ".join(s.slug for s in self.scenarios)[:200]


def draw_pin() -> str:
    """>>> len(draw_pin()) == PIN_LENGTH and draw_pin().isdigit()
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
) -> ClinicSession:
    """A new session in the lobby: up to `rounds` rounds drawn from the source, in its order."""
    chosen = source.scenario_ids()[: min(rounds, MAX_ROUNDS)]
    if not chosen:
        raise SessionError("no_scenarios")
    names = list(dict.fromkeys(t.strip()[:40] for t in teams if t.strip()))
    if len(names) > MAX_TEAMS:
        raise SessionError("too_many_teams")
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
                    Round(session=session, position=n, scenario_id=pk, seed=fresh_seed())
                    for n, pk in enumerate(chosen, start=1)
                )
                Team.objects.bulk_create(Team(session=session, name=name) for name in names)
            return session
        except IntegrityError:
            continue  # the PIN was taken by a running session meanwhile: draw again
    raise SessionError("no_pin")


def normalise_pin(text: str) -> str:
    """What was typed, as a PIN: spaces and dashes do not matter.

    >>> normalise_pin(" 123-456 ")
    '123456'
    """
    return "".join(c for c in text[:40] if c not in " -.\u00b7\t")


class PinError(Exception):
    """A PIN refused: `code` is malformed, unknown, ended or paused (too many wrong ones)."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def find(pin: str, address: str) -> ClinicSession:
    """The running session with this PIN; PinError otherwise (wrong PINs are counted)."""
    key = address or "-"
    if not rates.allowed(GUESS_BUCKET, key, GUESS_LIMIT, GUESS_WINDOW):
        raise PinError("paused")
    pin = normalise_pin(pin)
    if len(pin) != PIN_LENGTH or not pin.isascii() or not pin.isdigit():
        raise PinError("malformed")
    session = ClinicSession.objects.exclude(phase=Phase.ENDED).filter(pin=pin).first()
    if session is None:
        rates.record(GUESS_BUCKET, key, GUESS_WINDOW)
        if ClinicSession.objects.filter(pin=pin, phase=Phase.ENDED).exists():
            raise PinError("ended")
        raise PinError("unknown")
    return session
