"""A session's results: as CSV for the instructor, and as a file another install imports.

The export file (JSON) carries the session, its rounds by scenario slug and seed, the teams,
the attendance (nickname, team, when they joined, and for a signed-in participant their
username and e-mail) and every answer with the right answer as ruled then. Importing it on
the club's or the federation's server makes an ended session there; an answer of a participant
whose username and e-mail both match an account there also goes into that person's history
(mode clinic, at the time it was given), so a clinic run on a laptop counts afterwards. One
file is imported once (its `origin`).
"""

import json
import secrets
from collections.abc import Iterator
from datetime import datetime
from enum import StrEnum
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from polotrainer.clinics import board, lookalikes, room
from polotrainer.clinics.models import (
    ClinicAnswer,
    ClinicSession,
    Participant,
    Phase,
    Round,
    Team,
)
from polotrainer.umpires.history import Words
from polotrainer.umpires.models import Mode
from polotrainer.umpires.progress import Answer, Answers, Context, Person, record_answers
from polotrainer.web import downloads
from scenarios.models import Scenario

FORMAT = "polotrainer-clinic"
FORMAT_VERSION = 1
MAX_BYTES = 5 * 1024 * 1024


def csv_lines(session: ClinicSession, lang: str) -> Iterator[str]:
    """One line per participant and question, in words in `lang`, then the codes."""
    return downloads.csv_lines(_rows(session, lang))


def _rows(session: ClinicSession, lang: str) -> Iterator[list[Any]]:
    words = Words(lang)
    rounds = {r.pk: r for r in Round.objects.filter(session=session).select_related("scenario")}
    participants = list(Participant.objects.filter(session=session).select_related("team"))
    answers = list(
        ClinicAnswer.objects.filter(round__session=session).order_by(
            "round__position", "participant_id", "question"
        )
    )
    table = {
        row.participant_id: row
        for row in board.standings(session, participants, answers, list(rounds.values()))
    }
    names = {p.pk: p for p in participants}
    yield (
        [
            _("Nickname"),
            _("Team"),
            _("Round"),
            _("Situation"),
            _("Question"),
            _("Answer"),
            _("The right answer"),
            _("Result"),
            _("Points"),
            _("Seconds"),
            _("Total score"),
            "slug",
            "seed",
            "question",
            "answer",
            "right_answer",
            "correct",
            "received_at",
        ]
    )
    right_word, wrong_word = _("right"), _("wrong")
    for a in answers:
        r = rounds[a.round_id]
        p = names[a.participant_id]
        yield (
            [
                p.nickname,
                p.team.name if p.team else "",
                r.position,
                words.title(r.scenario, r.seed),
                words.prompt(r.scenario, r.seed, a.question),
                words.answer(r.scenario, r.seed, a.question, a.answer),
                words.answer(r.scenario, r.seed, a.question, a.right_answer),
                right_word if a.correct else wrong_word,
                f"{a.points:g}",
                f"{a.elapsed_ms / 1000:.1f}",
                table[p.pk].shown if p.pk in table else "0",
                r.scenario.slug,
                r.seed,
                a.question,
                json.dumps(a.answer),
                json.dumps(a.right_answer),
                int(a.correct),
                a.created_at.isoformat(),
            ]
        )


def export(session: ClinicSession, site: str) -> dict[str, Any]:
    """The session's results and attendance as data for `json.dumps`."""
    rounds = list(Round.objects.filter(session=session).select_related("scenario"))
    participants = list(Participant.objects.filter(session=session).select_related("team", "user"))
    index = {p.pk: n for n, p in enumerate(participants)}
    positions = {r.pk: r.position for r in rounds}
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "origin": f"{site}/{session.pk}/{session.created_at.isoformat()}"[:100],
        "session": {
            "title": session.title,
            "pin": session.pin,
            "instructor": session.instructor.get_username(),
            "created_at": session.created_at.isoformat(),
            "ended_at": session.ended_at.isoformat() if session.ended_at else None,
            "source": session.source,
            "time_limit": session.time_limit,
            "speed_bonus": session.speed_bonus,
            "streaks": session.streaks,
        },
        "rounds": [
            {
                "position": r.position,
                "scenario": r.scenario.slug,
                "content_version": r.scenario.version,
                "seed": r.seed,
                "skipped": r.skipped,
                "stop_ms": r.stop_ms,  # a drill round's stop (null: an ordinary round)
            }
            for r in rounds
        ],
        "teams": [t.name for t in Team.objects.filter(session=session)],
        "participants": [
            {
                "id": index[p.pk],
                "nickname": p.nickname,
                "team": p.team.name if p.team else None,
                "joined_at": p.joined_at.isoformat(),
                "language": p.language,
                "account": {"username": p.user.get_username(), "email": p.user.email}
                if p.user
                else None,
            }
            for p in participants
        ],
        "answers": [
            {
                "participant": index[a.participant_id],
                "round": positions[a.round_id],
                "question": a.question,
                "answer": a.answer,
                "right_answer": a.right_answer,
                "correct": a.correct,
                "points": a.points,
                "received_at": a.created_at.isoformat(),
                "elapsed_ms": a.elapsed_ms,
            }
            for a in ClinicAnswer.objects.filter(round__session=session)
        ],
    }


class TransferCode(StrEnum):
    """Why a clinic file was refused."""

    BAD_DATA = "bad_data"
    NOT_JSON = "not_json"
    NOT_CLINIC = "not_clinic"
    UNKNOWN_SCENARIOS = "unknown_scenarios"
    ALREADY = "already"


class TransferError(Exception):
    """A file refused: `code` is not_json, not_clinic, unknown_scenarios, already or bad_data;
    `detail` names what (the missing scenarios)."""

    def __init__(self, code: TransferCode, detail: str = "") -> None:
        super().__init__(code)
        self.code = code
        self.detail = detail


def _when(text: Any) -> datetime:
    when = parse_datetime(str(text)) if text else None
    if when is None:
        raise TransferError(TransferCode.BAD_DATA)
    return when if timezone.is_aware(when) else timezone.make_aware(when)


def load(raw: bytes) -> dict[str, Any]:
    """The file's data; TransferError when it is not a clinic export."""
    if len(raw) > MAX_BYTES:
        raise TransferError(TransferCode.BAD_DATA)
    try:
        data = json.loads(raw.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError):
        raise TransferError(TransferCode.NOT_JSON) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise TransferError(TransferCode.NOT_CLINIC)
    if data.get("format_version") != FORMAT_VERSION:
        raise TransferError(TransferCode.NOT_CLINIC)
    return data


def import_(data: dict[str, Any], instructor: User) -> ClinicSession:
    """An ended session with the file's rounds, attendance and answers; all of it or nothing."""
    try:
        return _import(data, instructor)
    except (KeyError, TypeError, ValueError, AttributeError):
        raise TransferError(TransferCode.BAD_DATA) from None


def _import(data: dict[str, Any], instructor: User) -> ClinicSession:
    origin = str(data["origin"])[:100]
    slugs = {str(r["scenario"]) for r in data["rounds"]}
    scenarios = {s.slug: s for s in Scenario.objects.filter(slug__in=slugs)}
    missing = sorted(slugs - set(scenarios))
    if missing:
        raise TransferError(TransferCode.UNKNOWN_SCENARIOS, ", ".join(missing))
    meta = data["session"]
    accounts = {
        (u.get_username().casefold(), u.email.casefold()): u
        for u in get_user_model().objects.filter(
            username__in=[p["account"]["username"] for p in data["participants"] if p["account"]]
        )
    }
    with transaction.atomic():
        # The importing instructor's row first, and "imported already?" asked under it: the same
        # file sent twice at once (a double click, two tabs) is imported once.
        list(User.objects.select_for_update(no_key=True).filter(pk=instructor.pk).values("pk"))
        if ClinicSession.objects.filter(origin=origin).exists():
            raise TransferError(TransferCode.ALREADY)
        session = ClinicSession.objects.create(
            instructor=instructor,
            title=str(meta["title"])[:120],
            pin=str(meta["pin"])[:6],
            phase=Phase.ENDED,
            time_limit=meta.get("time_limit"),
            speed_bonus=bool(meta.get("speed_bonus")),
            streaks=bool(meta.get("streaks")),
            source=str(meta.get("source", ""))[:200],
            created_at=_when(meta["created_at"]),
            ended_at=_when(meta["ended_at"]) if meta.get("ended_at") else timezone.now(),
            origin=origin,
        )
        rounds = {
            int(r["position"]): Round.objects.create(
                session=session,
                position=int(r["position"]),
                scenario=scenarios[str(r["scenario"])],
                seed=int(r["seed"]),
                skipped=bool(r.get("skipped")),
                stop_ms=_stop_ms(r.get("stop_ms")),
            )
            for r in data["rounds"]
        }
        teams = {
            str(name)[:40]: Team.objects.create(session=session, name=str(name)[:40])
            for name in data["teams"]
        }
        people = {}
        keys: set[str] = set()
        for p in data["participants"]:
            account = p.get("account")
            user = (
                accounts.get(
                    (str(account["username"]).casefold(), str(account["email"]).casefold())
                )
                if account
                else None
            )
            nickname = str(p["nickname"])[:24]
            # A file from an install that let look-alikes both play keeps them both.
            key = lookalikes.key(nickname)[: room.KEY_MAX]
            key = lookalikes.kept_apart(key, p["id"]) if key in keys else key
            keys.add(key)
            people[int(p["id"])] = Participant.objects.create(
                session=session,
                nickname=nickname,
                nickname_key=key,
                secret=secrets.token_urlsafe(18),  # nobody rejoins an imported session
                user=user,
                team=teams.get(str(p["team"])) if p.get("team") else None,
                language=str(p.get("language", "it"))[:2],
                joined_at=_when(p["joined_at"]),
            )
        created = ClinicAnswer.objects.bulk_create(
            ClinicAnswer(
                participant=people[int(a["participant"])],
                round=rounds[int(a["round"])],
                question=str(a["question"])[:60],
                answer=a["answer"],
                right_answer=a["right_answer"],
                correct=bool(a["correct"]),
                points=float(a["points"]),
                created_at=_when(a["received_at"]),
                elapsed_ms=max(0, int(a["elapsed_ms"])),
            )
            for a in data["answers"]
        )
        _to_histories(session, created)
    return session


def _to_histories(session: ClinicSession, created: list[ClinicAnswer]) -> None:
    rows = [
        a
        for a in ClinicAnswer.objects.filter(round__session=session).select_related(
            "participant", "round__scenario"
        )
        if a.participant.user_id
    ]
    del created
    groups: dict[tuple[int, int], list[ClinicAnswer]] = {}
    for a in rows:
        groups.setdefault((a.participant_id, a.round_id), []).append(a)
    for group in groups.values():
        first = group[0]
        record_answers(
            Person(user_id=first.participant.user_id),
            Context(Mode.CLINIC, ref_id=session.pk, label=session.title),
            Answers(
                scenario_id=first.round.scenario_id,
                seed=first.round.seed,
                content_version=first.round.scenario.version,
                items=[
                    Answer(a.question, a.answer, a.right_answer, a.correct, f"clinic-{a.pk}")
                    for a in group
                ],
                time_taken_ms=first.elapsed_ms,
                at=first.created_at,
            ),
        )


def _stop_ms(value: object) -> int | None:
    """A drill round's stop as the file gives it: a whole number of ms under an hour, or none."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 3_600_000:
        return value
    return None
