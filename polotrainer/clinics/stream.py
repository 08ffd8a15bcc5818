"""Server-Sent Events: the live state of a session, pushed to the projector and the phones.

Each server process runs one watcher per session that has listeners: it reads the session's
version and counts (one small read, however many phones listen) and wakes its listeners when
they change. On SQLite it reads every CLINIC_POLL_MS; on PostgreSQL it reads when the database
notifies a change (LISTEN/NOTIFY, clinics/live.py), the counts at most every COUNT_SPACING. No
message bus: the database is what every process shares, so phones on one process and the
projector on another see the same state (README, Decisions).

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
import zlib
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import connection
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.middleware.gzip import re_accepts_gzip
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_safe

from polotrainer.clinics import control, live, room, state
from polotrainer.clinics.models import ClinicSession, Participant, Phase
from polotrainer.serving import PRIORITY
from polotrainer.umpires import closedbook
from polotrainer.umpires.progress import Person
from polotrainer.umpires.roles import is_instructor

log = logging.getLogger(__name__)

#: Seconds between two reads of a session's version by a process's watcher (polling).
TICK = settings.CLINIC_POLL_MS / 1000
#: Listening, the least seconds between two reads for the counts (a burst of answers).
COUNT_SPACING = 0.25
#: Listening, a watcher reads anyway this often (a notification lost).
CHECK = settings.CLINIC_LISTEN_CHECK_MS / 1000
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
        self.woken = asyncio.Event()
        self.urgent = False  # the version moved (else only the counts)

    def join(self) -> "asyncio.Queue[str]":
        queue: asyncio.Queue[str] = asyncio.Queue()
        self.listeners.add(queue)
        if self.task is None or self.task.done():
            if live.enabled():
                live.HUB.start(WATCHES)
            self.task = asyncio.get_running_loop().create_task(self.run())
        return queue

    def wake(self, *, urgent: bool) -> None:
        """A notification about this session (clinics/live.py)."""
        self.urgent = self.urgent or urgent
        self.woken.set()

    async def _next(self, read_at: float) -> None:
        """Until the next read: TICK when polling; listening, the next notification (a change
        at once, counts no sooner than COUNT_SPACING after the last read), the round's time
        running out, or CHECK."""
        loop = asyncio.get_running_loop()
        listening = live.HUB.live
        # Polling, only the listening connection coming up (or going down) wakes it earlier.
        timeout = CHECK if listening else TICK
        pulse = self.pulse
        if pulse is not None and pulse.closes_at is not None and pulse.phase == Phase.OPEN:
            left = (pulse.closes_at - timezone.now()).total_seconds()
            timeout = min(timeout, max(0.0, left) + 0.05)
        try:
            await asyncio.wait_for(self.woken.wait(), timeout)
        except TimeoutError:
            return
        if listening and not self.urgent:
            await asyncio.sleep(max(0.0, read_at + COUNT_SPACING - loop.time()))

    def leave(self, queue: "asyncio.Queue[str]") -> None:
        self.listeners.discard(queue)

    def _tell(self, what: str) -> None:
        for queue in self.listeners:
            queue.put_nowait(what)

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        while self.listeners:
            # Cleared before the read: a notification during it makes the next read at once.
            self.woken.clear()
            self.urgent = False
            read_at = loop.time()
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
            await self._next(read_at)
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
    version: int | None = None  # the session's version when the stream opened

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
            # Closed book: read afresh on connecting, then as each new snapshot read it.
            held = (
                closedbook.closed_book(Person(user_id=me.user_id))
                if first and me.user_id is not None
                else snap.held_for(me)
            )
            mine = snap.mine(me, lang, fresh, held=held is not None)
            answered = mine["given"] is not None
            stage = snap.held_stage(held) if held else snap.phone_stage(lang, answered)
            out.append(event("state", stage, snap.version))
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
    events = await _db(request, _snapshot_events)(listener, listener.version, True, request)
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
            # Each render waits while an instructor's control runs (polotrainer.serving).
            if what == "count":
                chunks = await sync_to_async(PRIORITY.run_after, thread_sensitive=False)(
                    _counts, listener, listener.session_id
                )
            else:
                version = w.pulse.version if w.pulse else None
                if version is not None and version == sent:
                    continue  # this listener started with that version already
                chunks = await sync_to_async(PRIORITY.run_after, thread_sensitive=False)(
                    _snapshot_events, listener, version, False, request
                )
                sent = _version_of(chunks) or sent
            for chunk in chunks:
                yield chunk
            if any(chunk.startswith("event: ended") for chunk in chunks):
                return
    finally:
        w.leave(queue)


#: A stream's own gzip, which GZipMiddleware leaves as it is: a 1 KB window and a small hash
#: take 14 KB a stream, where zlib's defaults (GZipMiddleware's) take 262 KB: 262 MB on the
#: server for a room of 1,000 phones, for a few KB of HTML an event. Each event is flushed
#: whole, as it comes. Pages of HTML cut into 4 KB events shrink to 38 % of their size (a 4 KB
#: window, 38 KB a stream: 25 %): half a KB more a phone an event on the Wi-Fi, 24 MB less on a
#: server of 1,000 phones (benchmarks/clinic.py).
GZIP_WBITS = 16 + 10  # a gzip header, a 2**10-byte window
GZIP_MEMLEVEL = 3


async def _gzip(events: AsyncIterator[str]) -> AsyncIterator[bytes]:
    packer = zlib.compressobj(6, zlib.DEFLATED, GZIP_WBITS, GZIP_MEMLEVEL)
    async for text in events:
        yield packer.compress(text.encode()) + packer.flush(zlib.Z_SYNC_FLUSH)
    yield packer.flush()


def _response(listener: Listener, request: HttpRequest) -> StreamingHttpResponse:
    events = _stream(listener, request)
    gzip = bool(re_accepts_gzip.search(request.headers.get("Accept-Encoding", "")))
    response = StreamingHttpResponse(
        _gzip(events) if gzip else events, content_type="text/event-stream"
    )
    if gzip:
        response["Content-Encoding"] = "gzip"
    patch_vary_headers(response, ("Accept-Encoding",))
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
    control.expire(session)
    return Listener(session.pk, translation.get_language() or "it", participant, session.version)


def _projector_listener(request: HttpRequest, session_id: int) -> Listener | None:
    user = request.user
    if not is_instructor(user):
        return None
    session = ClinicSession.objects.filter(pk=session_id, instructor_id=user.pk).first()
    if session is None:
        return None
    control.expire(session)
    return Listener(session_id, translation.get_language() or "it", version=session.version)


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
