"""What clinic tests of every app use: bundled scenarios with every kind of question between
them, a clinic made of them, the POST that answers a round, and a phone in the room (a test
client with its own cookies)."""

import re
from collections.abc import Sequence
from typing import Any

from asgiref.sync import async_to_sync
from django.contrib.auth.models import User
from django.test import Client

from polotrainer.clinics import control, room, sessions, state
from polotrainer.clinics.models import ClinicSession, Participant
from scenarios import quiz
from scenarios.models import Scenario

#: Bundled scenarios with every kind of question between them.
BOOL_NUMBER = "r21-injured-player"
CHOICE_ORDER = "order-injured-horse"
PLACE = "p2-from-the-spot"
MULTI_PLAYERS = "pos-p2-from-the-spot"


def make_clinic(
    instructor: User, slugs: Sequence[str] = (BOOL_NUMBER,), **options: Any
) -> ClinicSession:
    chosen = list(Scenario.objects.filter(slug__in=slugs))
    return sessions.create(
        instructor,
        options.pop("title", "Clinic"),
        sessions.Source("scenarios", scenarios=chosen),
        rounds=options.pop("rounds", 10),
        **options,
    )


def drive(session: ClinicSession, *actions: str) -> ClinicSession:
    for action in actions:
        session = control.act(session.pk, action)
    return session


def answer_form(session: ClinicSession, *, right: bool = True, lang: str = "en") -> dict[str, Any]:
    """The POST data answering the round on screen: all right, or all wrong."""
    snap = state.snapshot(session.pk)
    assert snap is not None and snap.current is not None
    posed = snap.pose(lang)
    assert posed is not None
    return round_form(posed, snap.current.pk, right=right)


def round_form(posed: quiz.Posed, round_id: int, *, right: bool = True) -> dict[str, Any]:
    """The POST data answering one round, posed: all right, or all wrong."""
    data: dict[str, Any] = {"round": str(round_id)}
    for g in quiz.grade(posed, {}):
        q = g.question
        values = list(quiz.form_values(posed, q, g.right))
        if not right:
            values = _wrong(posed, q, values)
        if q.type in (quiz.QuestionType.PLACE, quiz.QuestionType.ORDER):
            data.update({name: value for name, value in zip(q.fields, values, strict=True)})
        else:
            data[q.name] = values
    return data


def _wrong(posed: quiz.Posed, q: quiz.PosedQuestion, values: list[str]) -> list[str]:
    options = [o.value for o in q.options]
    match q.type:
        case quiz.QuestionType.CHOICE | quiz.QuestionType.BOOL:
            return [next(o for o in options if o not in values)]
        case quiz.QuestionType.NUMBER:
            return [str(int(float(values[0])) + 1)]
        case quiz.QuestionType.MULTI | quiz.QuestionType.PLAYERS:
            first = options[0]
            return [v for v in values if v != first] if first in values else [*values, first]
        case quiz.QuestionType.ORDER:
            return list(reversed(values)) if len(set(values)) > 1 else values
        case quiz.QuestionType.PLACE:
            along = float(values[0])
            assert q.place is not None
            moved = along + 25 if along + 25 < q.place.length else along - 25
            return [f"{moved:g}", values[1]]
    raise AssertionError(q.type)


class Phone:
    """A phone in the room: a browser of its own (cookies), in one language."""

    def __init__(self, session: ClinicSession, lang: str = "en", user: User | None = None) -> None:
        self.session = session
        self.lang = lang
        self.client = Client()
        if user is not None:
            self.client.force_login(user)

    @property
    def base(self) -> str:
        return f"/{self.lang}/play/{self.session.pin}/"

    def join(self, nickname: str, headers: dict[str, str] | None = None, **extra: str) -> Any:
        return self.client.post(self.base, {"nickname": nickname, **extra}, headers=headers)

    def page(self) -> str:
        return self.client.get(self.base).content.decode()

    def answer(self, right: bool = True, **headers: str) -> Any:
        self.session.refresh_from_db()
        return self.client.post(
            self.base + "answer/", answer_form(self.session, right=right, lang=self.lang), **headers
        )

    @property
    def participant(self) -> Participant:
        return Participant.objects.get(session=self.session, pk=self.participant_id)

    @property
    def participant_id(self) -> int:
        cookie = self.client.cookies[f"clinic{self.session.pk}"].value
        pid, _secret = room.read_token(cookie, self.session)
        return pid


def content_of(response: Any) -> bytes:
    """The body of any response, an async event stream's included (read to its end)."""
    if not response.streaming:
        return bytes(response.content)
    if getattr(response, "is_async", False):

        async def read() -> bytes:
            return b"".join([chunk async for chunk in response.streaming_content])

        return async_to_sync(read)()
    return b"".join(response.streaming_content)


def text(html: str) -> str:
    """The page's words, without tags (for asserting what a reader sees)."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))
