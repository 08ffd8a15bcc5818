"""The people in the room: joining with a nickname, and the rejoin cookie that keeps them in.

Two players cannot have nicknames that look alike on the projector (any case, full-width or
Cyrillic look-alikes: clinics.lookalikes); the second is refused as taken.

The cookie holds the participant's id and secret, signed with the site's key (Django signing):
a phone that reloads, sleeps or loses the Wi-Fi comes back as the same participant, with their
nickname and score. A cookie for another session, altered by hand, or naming someone else's id
without their secret is refused: it is never a way to answer as another participant.
"""

import secrets
import unicodedata
from enum import StrEnum

from django.contrib.auth.models import AnonymousUser, User
from django.core import signing
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse

from polotrainer.clinics import live, lookalikes
from polotrainer.clinics.models import ClinicSession, Participant, Phase, Team

NICKNAME_MAX = 24
#: Room for what NFKC makes of 24 characters (a ligature or a full-width sign becomes several).
KEY_MAX = 100
COOKIE_AGE = 24 * 3600
_SALT = "polotrainer.clinics.participant"


class JoinCode(StrEnum):
    """Why a phone could not join a clinic."""

    EMPTY = "empty"
    TOO_LONG = "too_long"
    ENDED = "ended"
    BAD_TEAM = "bad_team"
    TAKEN = "taken"


class JoinError(Exception):
    """A join refused: `code` is empty, too_long, taken, bad_team or ended."""

    def __init__(self, code: JoinCode) -> None:
        super().__init__(code)
        self.code = code


def clean_nickname(text: str) -> str:
    """The nickname as shown: spaces collapsed, control characters dropped; JoinError if empty
    or longer than NICKNAME_MAX.

    >>> clean_nickname("  Anna   B ")
    'Anna B'
    """
    printable = "".join(c for c in text if unicodedata.category(c)[0] != "C")
    name = " ".join(printable.split())
    if not name:
        raise JoinError(JoinCode.EMPTY)
    if len(name) > NICKNAME_MAX:
        raise JoinError(JoinCode.TOO_LONG)
    return name


def join(
    session: ClinicSession,
    nickname: str,
    user: User | AnonymousUser,
    language: str,
    team_id: int | None = None,
    *,
    has_teams: bool | None = None,
) -> Participant:
    """A new participant (late joiners welcome until the session ends). `has_teams`: whether
    the session has teams, if the caller knows (else read)."""
    if session.phase == Phase.ENDED:
        raise JoinError(JoinCode.ENDED)
    name = clean_nickname(nickname)
    team = None
    if team_id is not None:
        team = Team.objects.filter(session=session, pk=team_id).first()
        if team is None:
            raise JoinError(JoinCode.BAD_TEAM)
    elif has_teams if has_teams is not None else session.teams.exists():
        raise JoinError(JoinCode.BAD_TEAM)
    try:
        with transaction.atomic():
            joined = Participant.objects.create(
                session=session,
                nickname=name,
                nickname_key=lookalikes.key(name)[:KEY_MAX],
                secret=secrets.token_urlsafe(18),
                user=user if user.is_authenticated else None,
                team=team,
                language=language[:2],
            )
            live.changed(session.pk, live.COUNT)  # the projector's count
            return joined
    except IntegrityError:
        raise JoinError(JoinCode.TAKEN) from None


def cookie_name(session: ClinicSession) -> str:
    return f"clinic{session.pk}"


def remember(response: HttpResponse, participant: Participant, *, secure: bool) -> None:
    """Set the rejoin cookie on the response."""
    value = signing.dumps([participant.session_id, participant.pk, participant.secret], salt=_SALT)
    response.set_cookie(
        f"clinic{participant.session_id}",
        value,
        max_age=COOKIE_AGE,
        httponly=True,
        samesite="Lax",
        secure=secure,
    )


class PassCode(StrEnum):
    """Why a phone's clinic pass (its cookie) is not this clinic's."""

    NO_PASS = "no_pass"  # noqa: S105 - a reason code, not a password
    TAMPERED = "tampered"


class TokenError(Exception):
    """The participant cookie is missing or not valid for this session: `code` is missing or
    tampered."""

    def __init__(self, code: PassCode) -> None:
        super().__init__(code)
        self.code = code


def read_token(value: str, session: ClinicSession) -> tuple[int, str]:
    """(participant id, secret) from a cookie value; TokenError if missing or not this session's."""
    if not value:
        raise TokenError(PassCode.NO_PASS)
    try:
        session_id, participant_id, secret = signing.loads(value, salt=_SALT, max_age=COOKIE_AGE)
    except (signing.BadSignature, ValueError, TypeError):
        raise TokenError(PassCode.TAMPERED) from None
    if session_id != session.pk or not isinstance(participant_id, int):
        raise TokenError(PassCode.TAMPERED)
    return participant_id, str(secret)


def has_joined(request: HttpRequest, session: ClinicSession) -> bool:
    """Whether this phone holds a rejoin cookie the site signed for this session (no query:
    whose it is, and whether its secret still matches, participant_of says)."""
    try:
        read_token(request.COOKIES.get(cookie_name(session), ""), session)
    except TokenError:
        return False
    return True


def participant_of(request: HttpRequest, session: ClinicSession) -> Participant:
    """The participant this phone is, from its cookie; TokenError if none."""
    participant_id, secret = read_token(request.COOKIES.get(cookie_name(session), ""), session)
    found = Participant.objects.filter(session=session, pk=participant_id).first()
    if found is None or not secrets.compare_digest(found.secret, secret):
        raise TokenError(PassCode.TAMPERED)
    return found
