"""The session's state as the room sees it, read once per version and rendered once per language.

A `Snapshot` is everything the projector and the phones show at one version of a session: the
round posed in each language, the spread after the reveal, the scores. The phones' shared
fragment is rendered from it once per language (and per "already answered or not") and sent
as is to every phone; each phone gets only its own small result beside it. A phone whose
account an exam holds closed-book (umpires.closedbook, read once per snapshot for the whole
room) gets the notice saying so instead, and no result. Each process keeps
the snapshots of its sessions' latest versions, so 300 phones cost one read and two renders.
"""

import functools
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext

from polotrainer.clinics import board, control, drill, sessions
from polotrainer.clinics.forms import SetForm
from polotrainer.clinics.models import (
    ClinicAnswer,
    ClinicSession,
    Participant,
    Phase,
    Round,
    Team,
)
from polotrainer.drills import screen, words
from polotrainer.umpires import closedbook
from polotrainer.umpires.models import ClosedBook
from polotrainer.web import language, qr
from scenarios import diagram, drillable, quiz, scenes, texts
from scenarios.models import Scenario
from scenarios.spec import Texts

LANGUAGES = ("it", "en")
PHONE = "clinics/phone.html"
PROJECTOR = "clinics/projector.html"
LEADERS = 10


@dataclass(frozen=True)
class Pulse:
    """What the watchers read every tick: the version and the counts the projector shows."""

    version: int
    participants: int
    answered: int
    phase: str
    closes_at: datetime | None = None


def pulse(session_id: int) -> Pulse | None:
    """The session's version and counts now (closing a round whose time is up); None if gone."""
    session = ClinicSession.objects.filter(pk=session_id).first()
    if session is None:
        return None
    control.expire(session)
    participants = Participant.objects.filter(session_id=session_id).count()
    answered = (
        ClinicAnswer.objects.filter(round__session_id=session_id, round__position=session.current)
        .values("participant_id")
        .distinct()
        .count()
        if session.current
        else 0
    )
    return Pulse(session.version, participants, answered, session.phase, session.closes_at)


@dataclass
class Snapshot:
    session: ClinicSession
    rounds: list[Round]
    current: Round | None
    participants: list[Participant]
    teams: list[Team]
    scenario: Scenario | None
    answers: list[ClinicAnswer]  # every answer of the session (scores)
    by_participant: dict[int, dict[str, Any]]  # the current round's answers, per participant
    standings: list[board.Standing]
    team_standings: list[board.TeamStanding]
    # The participants' accounts held closed-book when the snapshot was read: user id -> window.
    held: dict[int, ClosedBook] = field(default_factory=dict)
    posed: dict[str, quiz.Posed] = field(default_factory=dict)
    phone_html: dict[tuple[str, bool], str] = field(default_factory=dict)
    _scene: list[scenes.Scene] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def version(self) -> int:
        return self.session.version

    @property
    def phase(self) -> str:
        return self.session.phase

    @property
    def standing_of(self) -> dict[int, board.Standing]:
        return {row.participant_id: row for row in self.standings}

    def pose(self, lang: str) -> quiz.Posed | None:
        if self.current is None or self.scenario is None:
            return None
        if lang not in self.posed:
            self.posed[lang] = quiz.pose(self.scenario, self.current.seed, lang)
        return self.posed[lang]

    def context(self, lang: str) -> dict[str, Any]:
        """What both screens show, in one language."""
        session = self.session
        posed = self.pose(lang)
        shown = [r for r in self.rounds if not r.skipped]
        context: dict[str, Any] = {
            "clinic": session,
            "phase": session.phase,
            "current": self.current,
            "round_number": next(
                (n for n, r in enumerate(shown, start=1) if r.pk == getattr(self.current, "pk", 0)),
                0,
            ),
            "round_total": len(shown),
            "posed": posed,
            "participant_count": len(self.participants),
            "answered_count": len(self.by_participant),
            "lang": lang,
            "leaders": self.standings[:LEADERS],
            "team_standings": self.team_standings,
            "version": self.version,
            "closes_at": session.closes_at,
            "seconds_left": max(0, int((session.closes_at - timezone.now()).total_seconds()))
            if session.closes_at and session.phase == Phase.OPEN
            else None,
        }
        if posed is not None and self.current is not None and self.current.stop_ms is not None:
            context["drill"] = self._drill(posed, lang)
        if posed is not None:
            context["items"] = [quiz.Marked(q, ()) for q in posed.questions]
            context["question_field"] = _question_field(posed)
            if session.phase in (Phase.REVEALED, Phase.LEADERBOARD, Phase.ENDED):
                answers = [a for a in self.answers if a.round_id == self.current.pk]  # type: ignore[union-attr]
                context["spread"] = board.spread(posed, answers)
                context["checked"] = quiz.checked(posed, {})
                context["crumbs_title"] = (
                    texts.section_titles(posed.stamp).get(posed.spec.section, Texts()).pick(lang)
                )
        return context

    def scene(self, posed: quiz.Posed) -> scenes.Scene:
        """The drill round's scene (the same in every language): built once per snapshot."""
        if not self._scene:
            self._scene.append(drillable.scene_of(posed))
        return self._scene[0]

    def _drill(self, posed: quiz.Posed, lang: str) -> dict[str, Any]:
        """What a drill round adds (clinics.drill): the scene to play from the opening, when it
        stops, the countdown; after the reveal, the spread of decision times and the replay."""
        assert self.current is not None and self.current.stop_ms is not None
        scene = self.scene(posed)
        opened = self.session.opened_at or timezone.now()
        out: dict[str, Any] = {
            "scene_json": screen.play_json(scene),
            "ground": screen.ground(scene),
            "view_box": screen.view_box(scene),
            "opened_ms": round(opened.timestamp() * 1000),
            "stop_ms": self.current.stop_ms,
            "stop_at_ms": round(drill.stop_at(opened, self.current.stop_ms).timestamp() * 1000),
            "countdown_ms": drill.COUNTDOWN_MS,
            "countdown_s": drill.COUNTDOWN_MS // 1000,
            "description": words.describe(scene, lang),
        }
        if self.session.phase in (Phase.REVEALED, Phase.LEADERBOARD, Phase.ENDED):
            out["replay_json"] = screen.replay_json(scene)
            out["times"] = drill.times(self.current, self.answers, len(self.participants))
        return out

    def phone_stage(self, lang: str, answered: bool) -> str:
        """The phones' shared fragment in one language: rendered once per snapshot."""
        key = (lang, answered)
        with self._lock:
            if key not in self.phone_html:
                with translation.override(lang):
                    context = self.context(lang)
                    context.update(answered=answered, answer_url=answer_url(self.session))
                    self.phone_html[key] = render_to_string(f"{PHONE}#stage", context)
            return self.phone_html[key]

    def held_for(self, participant: Participant) -> ClosedBook | None:
        """The closed-book window holding this phone's account, as the snapshot read it."""
        window = self.held.get(participant.user_id) if participant.user_id else None
        return window if window is not None and window.until > timezone.now() else None

    def held_stage(self, window: ClosedBook) -> str:
        """The stage of a phone held closed-book, in the active language: the notice."""
        context = closedbook.notice(window) | {"version": self.version, "phase": self.phase}
        return render_to_string(f"{PHONE}#held", context)

    def mine(
        self,
        participant: Participant,
        lang: str,
        fresh: dict[str, Any] | None = None,
        *,
        held: bool = False,
    ) -> dict[str, Any]:
        """One phone's own part: its nickname, score and rank, and its result of this round
        (`fresh`: its answers read after the snapshot); no result while `held` closed-book."""
        standing = self.standing_of.get(participant.pk) or board.Standing(
            participant.pk, participant.nickname, participant.team_id
        )
        given = fresh if fresh is not None else self.by_participant.get(participant.pk)
        results = None
        fields: dict[str, str] = {}
        posed = self.pose(lang)
        decided = None
        if self.current is not None and self.current.stop_ms is not None:
            mine = [
                a.elapsed_ms
                for a in self.answers
                if a.round_id == self.current.pk and a.participant_id == participant.pk
            ]
            decided = drill.decision_ms(self.current, mine[0]) / 1000 if mine else None
        if (
            given is not None
            and posed is not None
            and not held
            and self.phase in (Phase.REVEALED, Phase.LEADERBOARD, Phase.ENDED)
        ):
            results = quiz.grade(posed, given)
            fields = self._own_spots(posed, results)
        team = next((t for t in self.teams if t.pk == participant.team_id), None)
        return {
            "me": participant,
            "standing": standing,
            "of": len(self.participants),
            "given": given,
            "results": results,
            "my_results": [(m, fields.get(m.question.id, "")) for m in results or ()],
            "all_right": results is not None and all(m.correct for m in results),
            "team": team,
            "phase": self.phase,
            "clinic": self.session,
            "held": held,
            "drill_round": self.current is not None and self.current.stop_ms is not None,
            "decision_s": decided,
        }

    def _own_spots(self, posed: quiz.Posed, results: Sequence[quiz.Marked]) -> dict[str, str]:
        """Per place question this phone answered: the field with its spot beside the right
        one, among the room's."""
        assert self.current is not None
        out = {}
        for m in results:
            if m.question.type != quiz.QuestionType.PLACE or not m.given:
                continue
            room = [
                a.answer
                for a in self.answers
                if a.round_id == self.current.pk and a.question == m.question.id
            ]
            out[m.question.id] = board.spots_field(posed, m.question, room, m.right, m.given)
        return out


def projector_context(snap: Snapshot, lang: str, request: HttpRequest) -> dict[str, Any]:
    """What the projector shows, in its language: the room's context, the join link and its
    QR code, and the controls that apply now (the page and every pushed update alike)."""
    context = snap.context(lang)
    # The address shown is the short one to type (then the PIN); the QR code's link carries
    # the session's pass: a phone scanning it joins even when its address is paused for wrong
    # PINs (clinics.sessions). Neither carries a language: each phone opens in its own.
    join_url = request.build_absolute_uri(language.without_language(reverse("clinics:enter")))
    join_link = request.build_absolute_uri(
        language.without_language(sessions.join_path(snap.session))
    )
    context.update(
        join_url=join_url,
        join_link=join_link,
        join_qr=_join_qr(join_link, gettext("QR code of the link to join the clinic")),
        can=control.allowed(snap.session),
        # Once the clinic has ended, the stage offers to save its situations as a set: the
        # name's field belongs to the stage the stream pushes as much as to the page.
        set_form=SetForm(),
    )
    posed = snap.pose(lang)
    if posed is not None and posed.diagram is not None:
        # The room watches this field: nobody places a ball on it.
        context["projector_field"] = diagram.render(posed.diagram, lang, uid="projector-field")
    return context


@functools.lru_cache(maxsize=64)
def _join_qr(url: str, label: str) -> str:
    return qr.link(url, label)


def _question_field(posed: quiz.Posed) -> str:
    if posed.diagram is None:
        return ""
    return diagram.render(posed.diagram, posed.lang, interactive=posed.has_place)


def answer_url(session: ClinicSession) -> str:
    return reverse("clinics:answer", args=[session.pin])


def build(session_id: int) -> Snapshot | None:
    """Read a session's whole state (a handful of queries, whatever the size of the room)."""
    session = ClinicSession.objects.select_related("instructor").filter(pk=session_id).first()
    if session is None:
        return None
    control.expire(session)
    rounds = list(Round.objects.filter(session=session).order_by("position"))
    current = next((r for r in rounds if r.position == session.current), None)
    participants = list(Participant.objects.filter(session=session))
    teams = list(Team.objects.filter(session=session))
    answers = list(
        ClinicAnswer.objects.filter(round__session=session).only(
            "participant_id", "round_id", "question", "answer", "correct", "points", "elapsed_ms"
        )
    )
    by_participant: dict[int, dict[str, Any]] = {}
    if current is not None:
        for a in answers:
            if a.round_id == current.pk:
                by_participant.setdefault(a.participant_id, {})[a.question] = a.answer
    table = board.standings(session, participants, answers, rounds)
    return Snapshot(
        session=session,
        rounds=rounds,
        current=current,
        participants=participants,
        teams=teams,
        scenario=Scenario.objects.filter(pk=current.scenario_id).first() if current else None,
        answers=answers,
        by_participant=by_participant,
        standings=table,
        team_standings=board.team_standings(teams, table),
        held=closedbook.holding(p.user_id for p in participants if p.user_id is not None),
    )


_CACHE: "OrderedDict[tuple[int, int], Snapshot]" = OrderedDict()
_CACHE_LOCK = threading.Lock()
_CACHE_SIZE = 64


def snapshot(session_id: int, version: int | None = None) -> Snapshot | None:
    """The snapshot at `version` if this process has it, else read now (and kept)."""
    if version is not None:
        with _CACHE_LOCK:
            found = _CACHE.get((session_id, version))
        if found is not None:
            return found
    snap = build(session_id)
    if snap is None:
        return None
    with _CACHE_LOCK:
        _CACHE[(session_id, snap.version)] = snap
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return snap


def forget() -> None:
    """Drop every snapshot this process keeps."""
    with _CACHE_LOCK:
        _CACHE.clear()


def current(session_id: int) -> Snapshot | None:
    """The snapshot of the session's present version: read once per version by this process,
    however many phones ask (one small query to learn the version)."""
    session = ClinicSession.objects.filter(pk=session_id).first()
    if session is None:
        return None
    control.expire(session)  # a round whose time is up closes, even with nobody watching
    return snapshot(session_id, session.version)


def of(session: ClinicSession) -> Snapshot | None:
    """The snapshot of `session` as the request has just read it (its round closed first if its
    time is up): the row is not read a second time."""
    control.expire(session)
    return snapshot(session.pk, session.version)


def given_now(snap: Snapshot, participant: Participant) -> dict[str, Any] | None:
    """The participant's answers to the round on screen, read now (a snapshot taken while the
    round is open does not have the answers that came after it)."""
    if snap.current is None:
        return None
    rows = ClinicAnswer.objects.filter(participant=participant, round=snap.current)
    return {a.question: a.answer for a in rows} or None
