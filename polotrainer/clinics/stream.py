"""Server-Sent Events: the live state of a session, pushed to the projector and the phones.

Each server process runs one watcher per session that has listeners: it reads the session's
version and counts every TICK seconds (one small query, however many phones listen) and wakes
its listeners when they change. No message bus: the database is what every process shares, so
phones on one process and the projector on another see the same state (README, Decisions).

Every connection starts with the whole current state, so a first connect, a reconnect after
lost Wi-Fi, a late joiner and a phone waking from sleep are the same path. Events:
`state` (the shared fragment, one per language), `mine` (this phone's own score and result),
`count` (the projector's live counts) and `ended` (the htmx extension closes the stream).

Under WSGI (runserver, the test client) Django would read an endless async stream to its end:
there the view sends the current state once and ends, and EventSource reconnects after `retry`
milliseconds, which is polling.
"""

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIRequest
from django.db import connection
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.template.loader import render_to_string
from django.utils import translation
from django.views.decorators.http import require_safe

from polotrainer.clinics import room, state
from polotrainer.clinics.models import ClinicSession, Participant, Phase
from polotrainer.courses.roles import is_instructor

log = logging.getLogger(__name__)

#: Seconds between two reads of a session's version by a process's watcher.
TICK = 0.25
#: A comment line this often keeps proxies and phones from dropping an idle stream.
HEARTBEAT = 15.0
#: A stream ends after this long and the browser reconnects (memory of long-lived tasks).
MAX_AGE = 30 * 60
RETRY_MS = 2000


class Watch:
    """One session watched in this process: its last pulse, and the queues of its listeners."""

    def __init__(self, session_id: int) -> None:
        self.session_id = session_id
        self.pulse: state.Pulse | None = None
        self.listeners: set[asyncio.Queue[str]] = set()
        self.task: asyncio.Task[None] | None = None
        self.lock = asyncio.Lock()

    def join(self) -> "asyncio.Queue[str]":
        queue: asyncio.Queue[str] = asyncio.Queue()
        self.listeners.add(queue)
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self.run())
        return queue

    def leave(self, queue: "asyncio.Queue[str]") -> None:
        self.listeners.discard(queue)

    def _tell(self, what: str) -> None:
        for queue in self.listeners:
            queue.put_nowait(what)

    async def run(self) -> None:
        while self.listeners:
            try:
                now = await sync_to_async(_read_pulse, thread_sensitive=False)(self.session_id)
            except Exception:  # the database away for a moment: keep watching
                log.exception("clinic %s: reading the version failed", self.session_id)
                await sync_to_async(_reset_connection, thread_sensitive=False)()
                await asyncio.sleep(1)
                continue
            if now is None:
                self._tell("gone")
                break
            before, self.pulse = self.pulse, now
            if before is None or now.version != before.version:
                # Read the new state once for every listener in this process.
                await sync_to_async(state.snapshot, thread_sensitive=False)(
                    self.session_id, now.version
                )
                self._tell("state")
            elif (now.participants, now.answered) != (before.participants, before.answered):
                self._tell("count")
            await asyncio.sleep(TICK)
        WATCHES.pop(self.session_id, None)


def _read_pulse(session_id: int) -> state.Pulse | None:
    return state.pulse(session_id)


def _reset_connection() -> None:
    connection.close()


WATCHES: dict[int, Watch] = {}


def watch(session_id: int) -> Watch:
    found = WATCHES.get(session_id)
    if found is None:
        found = WATCHES[session_id] = Watch(session_id)
    return found


def event(name: str, html: str, version: int | None = None) -> str:
    """One SSE event: each line of the fragment on a `data:` line of its own."""
    lines = [f"event: {name}"]
    if version is not None:
        lines.append(f"id: {version}")
    lines += [f"data: {line}" for line in html.splitlines() or [""]]
    return "\n".join(lines) + "\n\n"


@dataclass(frozen=True)
class Listener:
    """Who is on the other end: the session's instructor (projector) or a participant."""

    session_id: int
    lang: str
    participant: Participant | None = None

    @property
    def projector(self) -> bool:
        return self.participant is None


def _render(listener: Listener, snap: state.Snapshot, first: bool, request: Any) -> list[str]:
    """The events one listener gets for a snapshot (the shared parts come from its cache)."""
    lang = listener.lang
    out = []
    with translation.override(lang):
        if listener.participant is None:
            context = state.projector_context(snap, lang, request)
            html = render_to_string(f"{state.PROJECTOR}#stage", context, request=request)
            out.append(event("state", html, snap.version))
            counts = render_to_string(f"{state.PROJECTOR}#counts", context)
            out.append(event("count", counts))
        else:
            me = listener.participant
            fresh = state.given_now(snap, me) if first and snap.phase == Phase.OPEN else None
            mine = snap.mine(me, lang, fresh)
            answered = mine["given"] is not None
            out.append(event("state", snap.phone_stage(lang, answered), snap.version))
            out.append(event("mine", render_to_string(f"{state.PHONE}#mine", mine)))
    if snap.phase == Phase.ENDED:
        out.append(event("ended", ""))
    return out


def _counts(listener: Listener, session_id: int) -> list[str]:
    snap = state.current(session_id)
    if snap is None:
        return []
    with translation.override(listener.lang):
        context = snap.context(listener.lang)
        pulse = state.pulse(session_id)
        if pulse is not None:
            context.update(participant_count=pulse.participants, answered_count=pulse.answered)
        return [event("count", render_to_string(f"{state.PROJECTOR}#counts", context))]


def _snapshot_events(
    listener: Listener, version: int | None, first: bool, request: Any
) -> list[str]:
    snap = (
        state.current(listener.session_id)
        if version is None
        else state.snapshot(listener.session_id, version)
    )
    if snap is None:
        return [event("ended", "")]
    return _render(listener, snap, first, request)


def _version_of(chunks: list[str]) -> int | None:
    """The version a list of events carries (its `id:` line), if any."""
    for chunk in chunks:
        for line in chunk.splitlines():
            if line.startswith("id: "):
                return int(line[4:])
    return None


def _db[T](request: HttpRequest, fn: Callable[..., T]) -> Callable[..., Awaitable[T]]:
    """`fn` run in a thread: under ASGI in the shared pool, whose threads keep a connection
    each (a thread per open stream would hold a database connection per phone); elsewhere (the
    test client, WSGI) in the request's own thread, which holds its transaction."""
    return sync_to_async(fn, thread_sensitive=not isinstance(request, ASGIRequest))


async def _stream(listener: Listener, request: HttpRequest) -> AsyncIterator[str]:
    live = isinstance(request, ASGIRequest)
    yield f"retry: {RETRY_MS}\n\n"
    events = await _db(request, _snapshot_events)(listener, None, True, request)
    for chunk in events:
        yield chunk
    sent = _version_of(events)
    if not live or any(chunk.startswith("event: ended") for chunk in events):
        return
    w = watch(listener.session_id)
    queue = w.join()
    try:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + MAX_AGE
        while loop.time() < deadline:
            try:
                what = await asyncio.wait_for(queue.get(), HEARTBEAT)
            except TimeoutError:
                yield ": ping\n\n"
                continue
            if what == "gone":
                yield event("ended", "")
                return
            if what == "count" and not listener.projector:
                continue
            # Only the latest news matters: drop what queued up meanwhile.
            while not queue.empty():
                nxt = queue.get_nowait()
                what = "state" if "state" in (what, nxt) else nxt
            if what == "count":
                chunks = await sync_to_async(_counts, thread_sensitive=False)(
                    listener, listener.session_id
                )
            else:
                version = w.pulse.version if w.pulse else None
                if version is not None and version == sent:
                    continue  # this listener started with that version already
                chunks = await sync_to_async(_snapshot_events, thread_sensitive=False)(
                    listener, version, False, request
                )
                sent = _version_of(chunks) or sent
            for chunk in chunks:
                yield chunk
            if any(chunk.startswith("event: ended") for chunk in chunks):
                return
    finally:
        w.leave(queue)


def _response(listener: Listener, request: HttpRequest) -> StreamingHttpResponse:
    response = StreamingHttpResponse(_stream(listener, request), content_type="text/event-stream")
    response["Cache-Control"] = "no-store"
    # Proxies (nginx) would otherwise hold the events back in their buffers.
    response["X-Accel-Buffering"] = "no"
    return response


def _phone_listener(request: HttpRequest, pin: str) -> Listener | None:
    try:
        session = ClinicSession.objects.exclude(phase=Phase.ENDED).get(pin=pin)
        participant = room.participant_of(request, session)
    except (ClinicSession.DoesNotExist, room.TokenError):
        return None
    return Listener(session.pk, translation.get_language() or "it", participant)


def _projector_listener(request: HttpRequest, session_id: int) -> Listener | None:
    user = request.user
    if not is_instructor(user):
        return None
    found = ClinicSession.objects.filter(pk=session_id, instructor_id=user.pk).exists()
    return Listener(session_id, translation.get_language() or "it") if found else None


@require_safe
async def phone_events(request: HttpRequest, pin: str) -> HttpResponseBase:
    """The phone's live stream: its state at once, then every change."""
    listener = await _db(request, _phone_listener)(request, pin)
    if listener is None:
        return HttpResponse(status=204)  # EventSource stops on 204: nothing to listen to
    return _response(listener, request)


@require_safe
async def projector_events(request: HttpRequest, session_id: int) -> HttpResponseBase:
    """The projector's live stream (the session's instructor only)."""
    listener = await _db(request, _projector_listener)(request, session_id)
    if listener is None:
        return HttpResponse(status=404)
    return _response(listener, request)
