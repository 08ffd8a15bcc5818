"""One ASGI application, two Django handlers: the live event streams on Django's ASGI handler,
every other request on Django's WSGI handler in a fixed pool of threads.

Django's ASGI handler runs a synchronous view (every view here but the clinics' event
streams) in a new thread per request, with a database connection that is opened and closed
for that request, and hops between that thread and the event loop for each middleware that is
not async: /healthz served 7x less than under gunicorn (README, Benchmarks). Here a page is one
hop: its request is read in the event loop, handed whole to a pool thread that runs Django's
WSGI handler as gunicorn's sync worker would (middleware, view, response, `request_finished`),
and its response is sent back from the loop. The pool is bounded (ASGI_CONCURRENCY threads
per process), so each thread keeps its own database connection as WSGI does (CONN_MAX_AGE)
and a process never holds more than that many for pages; requests beyond it wait in the
pool's queue, costing nothing. A streaming response (a CSV export) is iterated in its thread,
which holds it until the last chunk has been sent, as under WSGI.

The event streams (`.../events/`) hold no thread while they wait: they stay on Django's ASGI
handler, whose async view reads the database in the loop's shared executor (clinics/stream.py).

The instructor's controls (a clinic's `control/` and the projector's `state/`) have a lane of
their own: a small pool of CONTROL_THREADS threads, so they never wait in the queue behind a
room of phones, and while one runs no page or stream render that has not started yet begins
(`PRIORITY`, for at most PRIORITY_WAIT seconds): the control competes for the cores and the
GIL only with the requests already running, not with the hundreds queued behind them.

On SQLite (`one_writer`) the requests that may write (POST and the other unsafe methods) have
a lane of one thread per process, and the pages that only read keep the whole pool: SQLite
takes one writer at a time, and threads that wait for its lock sleep in its busy handler while
the lock stands free, so 16 threads answering at once served half of gunicorn's answers
(benchmarks/servers.py, README). The GIL lets one thread compute at a time anyway, so nothing
is given up. The instructor's controls keep their own lane.

A client that goes away mid-request is not an error: its page is still computed (an answer is
still recorded, as under gunicorn) and what is sent to it is dropped.

A static file whose name holds its hash (WhiteNoise marks it immutable) is the same bytes for
every request that asks for it the same way, so its whole response is kept per process
(`Kept`) and sent from the event loop the next time, with no thread, no WSGI and no middleware:
a phone's first visit asks for ~17 of them, and a room of phones asks for the same 17.
"""

import asyncio
import re
import sys
import tempfile
import threading
from collections.abc import Awaitable, Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from django.conf import settings

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Any]
Send = Callable[[Message], Any]
ASGIApp = Callable[..., Awaitable[None]]
WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


#: Threads per process for the instructor's controls (each keeps a database connection).
CONTROL_THREADS = 2
#: Seconds a page or a stream render waits at most for the controls running to finish.
PRIORITY_WAIT = 2.0
_CONTROL = re.compile(r"^/(?:[a-z]{2}/)?clinics/[0-9]+/(?:control|state)/$")
#: A streaming response is sent in pieces of at least this many bytes (Reply._stream).
SEND_AT = 64 * 1024
#: The methods of a request that may write (RFC 9110's unsafe methods).
WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def is_stream(scope: Scope) -> bool:
    """An event stream: the clinics' projector and phone streams (clinics/urls.py)."""
    return bool(scope["path"].endswith("/events/"))


def is_control(scope: Scope) -> bool:
    """The instructor's controls of a clinic and the projector's resync (clinics/urls.py)."""
    return bool(_CONTROL.match(scope["path"]))


class Priority:
    """The instructor first: while a control runs, work that has not started yet waits."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._running = 0
        self._clear = threading.Event()
        self._clear.set()

    def run_first[T](self, fn: Callable[..., T], *args: Any) -> T:
        """Run `fn` (a control) with the others held back until it is done."""
        with self._lock:
            self._running += 1
            self._clear.clear()
        try:
            return fn(*args)
        finally:
            with self._lock:
                self._running -= 1
                if not self._running:
                    self._clear.set()

    def run_after[T](self, fn: Callable[..., T], *args: Any) -> T:
        """Run `fn` (a page, a stream's render) once no control is running."""
        self._clear.wait(PRIORITY_WAIT)
        return fn(*args)

    @property
    def busy(self) -> bool:
        return not self._clear.is_set()


#: One per process: the pages' pool and the streams' renders (clinics/stream.py) yield to it.
PRIORITY = Priority()


class Kept:
    """Whole responses of immutable static files, per path, Accept-Encoding (WhiteNoise picks
    the encoding from it) and scheme (as the server and the proxy's X-Forwarded-Proto say: the
    plain HTTP request the internet profile redirects is never answered with a kept 200),
    bounded. A conditional or range request is never answered from here (its 304 or 206 is
    WhiteNoise's to make), nor one for a file that is not immutable (a development or test
    server's plain names, which change as files do). A streamed body (WhiteNoise's) of SEND_AT
    bytes or more has left in pieces by the time it is done, so it is not kept."""

    MAX_FILES = 256

    def __init__(self) -> None:
        prefix = settings.STATIC_URL or ""
        self.prefix = "" if "://" in prefix else "/" + prefix.lstrip("/")
        self.responses: dict[tuple[str, bytes, str, bytes], list[Message]] = {}

    def key(self, scope: Scope) -> tuple[str, bytes, str, bytes] | None:
        """The key of a request that may be answered from here, or None."""
        if not self.prefix or scope["method"] != "GET" or not scope["path"].startswith(self.prefix):
            return None
        if scope.get("query_string"):
            return None
        encoding = forwarded = b""
        for name, value in scope["headers"]:
            if name in _CONDITIONAL:
                return None
            if name == b"accept-encoding":
                encoding = value
            elif name == b"x-forwarded-proto":
                forwarded = value
        return scope["path"], encoding, scope.get("scheme", "http"), forwarded

    def keep(self, key: tuple[str, bytes, str, bytes], messages: list[Message]) -> None:
        start = messages[0]
        headers = dict(start["headers"])
        if start["status"] != 200 or b"immutable" not in headers.get(b"cache-control", b""):
            return
        if b"set-cookie" in headers:
            return  # never one person's
        if len(self.responses) >= self.MAX_FILES:
            self.responses.clear()
        body = b"".join(m.get("body", b"") for m in messages[1:])
        self.responses[key] = [start, {"type": "http.response.body", "body": body}]


#: Request headers that make a static file's answer depend on more than its path.
_CONDITIONAL = frozenset({b"if-none-match", b"if-modified-since", b"if-range", b"range"})


class Dispatch:
    """The ASGI application: streams to `streams`, the instructor's controls to `pages` in a
    lane of their own, everything else to `pages` in `threads`; with `one_writer` (SQLite),
    one request that may write at a time."""

    def __init__(
        self, streams: ASGIApp, pages: WSGIApp, threads: int, *, one_writer: bool = False
    ) -> None:
        self.streams = streams
        self.pages = pages
        self.writes = (
            ThreadPoolExecutor(max_workers=1, thread_name_prefix="writes") if one_writer else None
        )
        self.pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="pages")
        self.controls = ThreadPoolExecutor(
            max_workers=CONTROL_THREADS, thread_name_prefix="controls"
        )
        self.kept = Kept()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
        elif scope["type"] != "http":
            raise ValueError(f"polotrainer serves HTTP only, not {scope['type']}")
        elif is_stream(scope):
            await self.streams(scope, receive, send)
        else:
            await self._page(scope, receive, send)

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                self.pool.shutdown(wait=False, cancel_futures=True)
                self.controls.shutdown(wait=False, cancel_futures=True)
                if self.writes is not None:
                    self.writes.shutdown(wait=False, cancel_futures=True)
                await send({"type": "lifespan.shutdown.complete"})
                return

    async def _page(self, scope: Scope, receive: Receive, send: Send) -> None:
        body = await _read_body(receive)
        if body is None:
            return  # gone before the request was complete: nothing was done
        key = self.kept.key(scope)
        kept = self.kept.responses.get(key) if key is not None else None
        if kept is not None:
            body.close()
            reply = Reply(asyncio.get_running_loop(), send)
            reply.messages = list(kept)
            await reply.flush()
            return
        loop = asyncio.get_running_loop()
        reply = Reply(loop, send)
        lane: Callable[..., None]
        if is_control(scope):
            pool, lane = self.controls, PRIORITY.run_first
        elif self.writes is not None and scope["method"] in WRITES:
            pool, lane = self.writes, PRIORITY.run_after
        else:
            pool, lane = self.pool, PRIORITY.run_after
        try:
            await loop.run_in_executor(pool, lane, reply.run, self.pages, environ(scope, body))
        finally:
            body.close()
        if key is not None and reply.messages and not reply.sent_early:
            self.kept.keep(key, reply.messages)
        if reply.messages:
            await reply.flush()


class Reply:
    """One page's response: run in a pool thread, sent from the event loop.

    A response that is not streaming is collected whole in the thread and sent in one go once
    the thread is done; a streaming one is sent chunk by chunk as the thread makes it, the
    thread waiting for each send (so a slow client holds its thread, as under WSGI).
    """

    def __init__(self, loop: asyncio.AbstractEventLoop, send: Send) -> None:
        self.loop = loop
        self.send = send
        self.messages: list[Message] = []
        self.gone = False
        self.sent_early = False  # a piece was sent before the thread was done

    def run(self, app: WSGIApp, environ: dict[str, Any]) -> None:
        result = app(environ, self.start_response)
        try:
            if getattr(result, "streaming", False):
                self._stream(result)
            else:
                body = b"".join(result)
                self.messages.append({"type": "http.response.body", "body": body})
        finally:
            close = getattr(result, "close", None)
            if close is not None:
                close()  # Django's request_finished: the thread's connection is kept or closed

    def start_response(
        self, status: str, headers: list[tuple[str, str]], exc_info: Any = None
    ) -> Callable[[bytes], None]:
        self.messages = [
            {
                "type": "http.response.start",
                "status": int(status.split(" ", 1)[0]),
                "headers": [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in headers],
            }
        ]
        return self._write

    def _write(self, chunk: bytes) -> None:
        """WSGI's legacy write(): Django never calls it; sent in order all the same."""
        self.messages.append({"type": "http.response.body", "body": chunk, "more_body": True})

    def _stream(self, chunks: Iterable[bytes]) -> None:
        """Sent in pieces of at least SEND_AT bytes (each a hop to the loop and back, which the
        thread waits for), the rest with the end once the thread is done: a static file
        (WhiteNoise streams 8 KB blocks) goes in one hop instead of one a block."""
        iterator: Iterator[bytes] = iter(chunks)
        held: list[bytes] = []
        size = 0
        for chunk in iterator:
            if not chunk or self.gone:
                continue
            held.append(chunk)
            size += len(chunk)
            if size >= SEND_AT:
                body, held, size = b"".join(held), [], 0
                self._send_now({"type": "http.response.body", "body": body, "more_body": True})
        if held and not self.gone:
            body = b"".join(held)
            self.messages.append({"type": "http.response.body", "body": body, "more_body": True})
        self.messages.append({"type": "http.response.body", "body": b""})

    def _send_now(self, message: Message) -> None:
        """From the thread: send what is pending and `message`, and wait until it is sent."""
        pending, self.messages = [*self.messages, message], []
        self.sent_early = True
        future = asyncio.run_coroutine_threadsafe(self._send_all(pending), self.loop)
        future.result()

    async def flush(self) -> None:
        pending, self.messages = self.messages, []
        await self._send_all(pending)

    async def _send_all(self, messages: list[Message]) -> None:
        if self.gone:
            return
        try:
            for message in messages:
                await self.send(message)
        except OSError:  # the client went away: what it would have read is dropped
            self.gone = True


async def _read_body(receive: Receive) -> Any:
    """The request's body as a file (in memory up to FILE_UPLOAD_MAX_MEMORY_SIZE, then on
    disk, as Django's ASGI handler keeps it), or None if the client went away before the end."""
    body = tempfile.SpooledTemporaryFile(max_size=settings.FILE_UPLOAD_MAX_MEMORY_SIZE)  # noqa: SIM115 - the caller closes it
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            body.close()
            return None
        body.write(message.get("body", b""))
        if not message.get("more_body", False):
            body.seek(0)
            return body


def environ(scope: Scope, body: Any) -> dict[str, Any]:
    """PEP 3333's environ for an ASGI HTTP scope (headers as Latin-1, the path as WSGI says)."""
    server = scope.get("server") or ("localhost", 80)
    client = scope.get("client")
    root = scope.get("root_path", "")
    path = scope["path"]
    if root and path.startswith(root):
        path = path[len(root) :]
    env: dict[str, Any] = {
        "REQUEST_METHOD": scope["method"],
        "SCRIPT_NAME": root.encode("utf-8").decode("latin-1"),
        "PATH_INFO": path.encode("utf-8").decode("latin-1"),
        "QUERY_STRING": scope.get("query_string", b"").decode("latin-1"),
        "SERVER_NAME": str(server[0]),
        "SERVER_PORT": str(server[1] or 80),
        "SERVER_PROTOCOL": f"HTTP/{scope.get('http_version', '1.1')}",
        "REMOTE_ADDR": client[0] if client else "",
        "REMOTE_PORT": str(client[1]) if client else "",
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": scope.get("scheme", "http"),
        "wsgi.input": body,
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    for raw_name, raw_value in scope["headers"]:
        name = raw_name.decode("latin-1").upper().replace("-", "_")
        key = name if name in {"CONTENT_TYPE", "CONTENT_LENGTH"} else f"HTTP_{name}"
        value = raw_value.decode("latin-1")
        if key in env:  # a header sent twice: one value, as Django's ASGI request joins them
            value = f"{env[key]}; {value}" if key == "HTTP_COOKIE" else f"{env[key]},{value}"
        env[key] = value
    return env
