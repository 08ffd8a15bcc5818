"""The instructor's controls: show, close, reveal, leaderboard, next, back, skip, end.

Each is one transaction on the session row (locked) that moves the phase or the round and adds
one to `version`, which every server process watches to push the new state to the room (on
PostgreSQL the same transaction notifies them: clinics/live.py).
"""

from datetime import timedelta
from enum import StrEnum

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from polotrainer.clinics import drill, live
from polotrainer.clinics.models import ClinicSession, Phase, Round

ACTIONS = ("show", "close", "reveal", "leaderboard", "next", "back", "skip", "end")


class ControlCode(StrEnum):
    """Why a control does not apply now."""

    UNKNOWN = "unknown"
    ENDED = "ended"
    NOT_NOW = "not_now"


class ControlError(Exception):
    """An action that does not apply now: `code` is unknown, ended, no_round or not_now."""

    def __init__(self, code: ControlCode) -> None:
        super().__init__(code)
        self.code = code


def _rounds(session: ClinicSession) -> list[int]:
    return list(
        Round.objects.filter(session=session, skipped=False)
        .order_by("position")
        .values_list("position", flat=True)
    )


def _open(session: ClinicSession, position: int) -> None:
    now = timezone.now()
    session.current = position
    session.phase = Phase.OPEN
    session.opened_at = now
    session.closes_at = now + timedelta(seconds=session.time_limit) if session.time_limit else None
    stop = (
        Round.objects.filter(session=session, position=position)
        .values_list("stop_ms", flat=True)
        .first()
    )
    if stop is not None:  # a drill round: the scene, then the countdown (clinics.drill)
        session.closes_at = drill.closes_at(now, stop)
    Round.objects.filter(session=session, position=position, shown_at=None).update(shown_at=now)


def allowed(session: ClinicSession) -> set[str]:
    """The actions that apply in the session's present state (the projector shows these)."""
    if session.phase == Phase.ENDED:
        return set()
    rounds = _rounds(session)
    later = [p for p in rounds if p > session.current]
    earlier = [p for p in rounds if p < session.current]
    can = {"end"}
    match session.phase:
        case Phase.LOBBY:
            can |= {"show"} if rounds else set()
        case Phase.OPEN:
            can |= {"close", "reveal", "skip"}
        case Phase.CLOSED:
            can |= {"reveal", "skip"}
        case Phase.REVEALED:
            can |= {"leaderboard"} | ({"next"} if later else set())
        case Phase.LEADERBOARD:
            can |= {"next"} if later else set()
    if earlier and session.phase != Phase.LOBBY:
        can.add("back")
    return can


def act(session_id: int, action: str) -> ClinicSession:
    """Do `action` on the session; ControlError when it does not apply now."""
    if action not in ACTIONS:
        raise ControlError(ControlCode.UNKNOWN)
    with transaction.atomic():
        session = ClinicSession.objects.select_for_update().get(pk=session_id)
        expire(session)
        if session.phase == Phase.ENDED:
            raise ControlError(ControlCode.ENDED)
        if action not in allowed(session):
            raise ControlError(ControlCode.NOT_NOW)
        rounds = _rounds(session)
        fields = ["phase", "version"]
        if action == "show":
            _open(session, session.current if session.current in rounds else rounds[0])
            fields += ["current", "opened_at", "closes_at"]
        elif action == "close":
            session.phase = Phase.CLOSED
        elif action == "reveal":
            session.phase = Phase.REVEALED
        elif action == "leaderboard":
            session.phase = Phase.LEADERBOARD
        elif action == "next":
            _open(session, min(p for p in rounds if p > session.current))
            fields += ["current", "opened_at", "closes_at"]
        elif action == "back":
            # The previous round again, revealed: to talk it over, not to answer it again.
            session.current = max(p for p in rounds if p < session.current)
            session.phase = Phase.REVEALED
            fields += ["current"]
        elif action == "skip":
            Round.objects.filter(session=session, position=session.current).update(skipped=True)
            later = [p for p in rounds if p > session.current]
            if later:
                _open(session, later[0])
                fields += ["current", "opened_at", "closes_at"]
            else:
                session.phase = Phase.LEADERBOARD
        elif action == "end":
            session.phase = Phase.ENDED
            session.ended_at = timezone.now()
            fields += ["ended_at"]
        session.version = F("version") + 1
        session.save(update_fields=fields)
        live.changed(session.pk)
    session.refresh_from_db()
    return session


def expire(session: ClinicSession) -> bool:
    """Close the round whose time is up (once, whichever process sees it first)."""
    if session.phase != Phase.OPEN or session.closes_at is None:
        return False
    if session.closes_at > timezone.now():
        return False
    with transaction.atomic():
        closed = ClinicSession.objects.filter(
            pk=session.pk, phase=Phase.OPEN, version=session.version
        ).update(phase=Phase.CLOSED, version=F("version") + 1)
        if closed:
            live.changed(session.pk)
    session.refresh_from_db()
    return bool(closed)
