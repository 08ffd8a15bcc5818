"""How the site is served (polotrainer/serving.py): one ASGI application, the event streams on
Django's ASGI handler, every other request on Django's WSGI handler in a bounded pool of
threads; and a client that goes away mid-request, which is never an error.
"""

import asyncio
import logging
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.core.asgi import get_asgi_application
from django.core.wsgi import get_wsgi_application
from django.utils.module_loading import import_string

from polotrainer.serving import Dispatch, environ
from tests import aio


def scope(path: str, method: str = "GET", headers: list[tuple[bytes, bytes]] | None = None):
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"127.0.0.1"), *(headers or [])],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
    }


class Client:
    """One request to an ASGI app: the body it sends, and the messages it gets back."""

    def __init__(self, body: bytes = b"", gone_after: float | None = None) -> None:
        self.body = body
        self.gone_after = gone_after  # seconds after the request until the client goes away
        self.sent: list[dict[str, Any]] = []
        self.received = 0

    async def receive(self) -> dict[str, Any]:
        self.received += 1
        if self.received == 1:
            return {"type": "http.request", "body": self.body, "more_body": False}
        if self.gone_after is None:
            await asyncio.Event().wait()  # still there: never says it left
        await asyncio.sleep(self.gone_after or 0)
        return {"type": "http.disconnect"}

    async def send(self, message: dict[str, Any]) -> None:
        self.sent.append(message)

    @property
    def status(self) -> int:
        return int(self.sent[0]["status"])

    @property
    def content(self) -> bytes:
        return b"".join(m.get("body", b"") for m in self.sent[1:])


def call(app: Any, path: str, client: Client, **extra: Any) -> Client:
    aio.run(app(scope(path, **extra), client.receive, client.send))
    return client


@pytest.fixture
def site() -> Iterator[Dispatch]:
    app = Dispatch(get_asgi_application(), get_wsgi_application(), threads=2)
    yield app
    app.pool.shutdown()


# --- a client that goes away ----------------------------------------------------------------------


def test_every_middleware_runs_in_the_loop_under_asgi():
    """A synchronous middleware in the ASGI chain runs in a thread that hops back to the loop
    for the rest; a client leaving during that hop left asgiref's `CurrentThreadExecutor
    already quit or is broken` in the log (seen under uvicorn, issue 23)."""
    sync_only = [
        path
        for path in settings.MIDDLEWARE
        if not getattr(import_string(path), "async_capable", False)
    ]
    assert sync_only == []


@pytest.mark.django_db(transaction=True)
def test_a_phone_that_leaves_while_its_stream_starts_leaves_no_error(caplog):
    """Phones whose stream request is cut at every moment of its start (the PIN looked up, the
    middleware, the response begun): no exception, nothing logged as an error."""
    app = get_asgi_application()
    caplog.set_level(logging.WARNING)

    async def many() -> list[BaseException | None]:
        outcomes: list[BaseException | None] = []
        for n in range(80):
            client = Client(gone_after=(n % 40) / 5000)
            try:
                await app(scope("/en/play/000000/events/"), client.receive, client.send)
                outcomes.append(None)
            except Exception as exc:  # what the server would log as "Exception in ASGI app"
                outcomes.append(exc)
        return outcomes

    assert [o for o in aio.run(many()) if o is not None] == []
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []


def test_a_client_that_leaves_mid_page_still_gets_its_work_done():
    """As under gunicorn, a page whose request arrived whole is computed to its end (an answer
    sent is recorded), though its client has gone by the time it is ready."""
    recorded: list[bytes] = []

    def answer(environ: dict[str, Any], start_response: Any) -> list[bytes]:
        time.sleep(0.01)  # the client leaves meanwhile
        recorded.append(environ["wsgi.input"].read())
        start_response("302 Found", [("Location", "/next/")])
        return [b""]

    app = Dispatch(streams=None, pages=answer, threads=1)  # type: ignore[arg-type]
    client = call(app, "/answer/", Client(body=b"answer=10", gone_after=0), method="POST")
    assert recorded == [b"answer=10"]
    assert client.status == 302  # sent into the void: uvicorn drops it


@pytest.mark.django_db(transaction=True)
def test_pages_whose_clients_leave_log_no_error(site, caplog):
    caplog.set_level(logging.WARNING)
    for n in range(20):
        client = call(site, "/healthz", Client(gone_after=n / 2000))
        assert client.received == 1  # the page never waits for the client
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []


class Rows:
    """A streaming response, as Django's StreamingHttpResponse is to WSGI: chunks, then close."""

    streaming = True

    def __init__(self, *chunks: bytes) -> None:
        self.chunks = chunks
        self.closed = threading.Event()

    def __iter__(self) -> Iterator[bytes]:
        yield from self.chunks

    def close(self) -> None:
        self.closed.set()


def csv_export(rows: Rows) -> Any:
    def app(environ: dict[str, Any], start_response: Any) -> Rows:
        start_response("200 OK", [("Content-Type", "text/csv")])
        return rows

    return app


def test_a_send_to_a_closed_connection_is_dropped_and_the_page_still_closes():
    rows = Rows(b"a\n", b"b\n", b"c\n")

    async def gone(message: dict[str, Any]) -> None:
        raise OSError("connection closed")

    app = Dispatch(streams=None, pages=csv_export(rows), threads=1)  # type: ignore[arg-type]
    aio.run(app(scope("/export.csv"), Client().receive, gone))
    assert rows.closed.is_set()


# --- pages on WSGI, in a bounded pool -------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_page_is_what_the_wsgi_handler_makes(site):
    client = call(site, "/healthz", Client())
    assert (client.status, client.content) == (200, b"ok\n")
    headers = dict(client.sent[0]["headers"])
    assert headers[b"content-type"] == b"text/plain"
    assert b"permissions-policy" in headers  # the site's middleware ran


@pytest.mark.django_db(transaction=True)
def test_a_form_body_reaches_the_view(site):
    """The request body is read in the loop and handed to WSGI whole: a NUL in a form field is
    refused (400) only if the middleware saw the body."""
    form = Client(body=b"username=a%00b&password=x")
    headers = [(b"content-type", b"application/x-www-form-urlencoded"), (b"content-length", b"25")]
    call(site, "/en/account/login/", form, method="POST", headers=headers)
    assert form.status == 400


def test_a_streaming_response_is_sent_in_order_in_pieces_of_64_kb():
    """Each piece sent is a hop from the thread to the loop: small chunks (a static file's 8 KB
    blocks, a CSV's rows) go together, a long download still leaves as it is made."""
    block = b"x" * 40_000
    rows = Rows(b"a\n", b"", b"b\n", block, block, block)
    app = Dispatch(streams=None, pages=csv_export(rows), threads=1)  # type: ignore[arg-type]
    client = call(app, "/export.csv", Client())
    assert [m["type"] for m in client.sent] == ["http.response.start", *["http.response.body"] * 3]
    bodies = [m.get("body") for m in client.sent[1:]]
    assert bodies == [b"a\nb\n" + block * 2, block, b""]
    assert [m.get("more_body", False) for m in client.sent[1:]] == [True, True, False]
    assert rows.closed.is_set()


def test_a_small_streaming_response_is_sent_in_one_piece():
    rows = Rows(b"a\n", b"", b"b\n")
    app = Dispatch(streams=None, pages=csv_export(rows), threads=1)  # type: ignore[arg-type]
    client = call(app, "/export.csv", Client())
    assert [m.get("body") for m in client.sent[1:]] == [b"a\nb\n", b""]
    assert rows.closed.is_set()


def test_no_more_pages_run_at_once_than_the_pool_has_threads():
    """The bound on database connections: ASGI_CONCURRENCY threads per process, each with its
    own connection; the other requests wait their turn."""
    running, most = 0, 0
    lock = threading.Lock()

    def slow(environ: dict[str, Any], start_response: Any) -> list[bytes]:
        nonlocal running, most
        with lock:
            running += 1
            most = max(most, running)
        time.sleep(0.02)
        with lock:
            running -= 1
        start_response("200 OK", [])
        return [threading.current_thread().name.encode()]

    app = Dispatch(streams=None, pages=slow, threads=3)  # type: ignore[arg-type]

    async def burst() -> list[Client]:
        clients = [Client() for _ in range(12)]
        await asyncio.gather(*(app(scope("/"), c.receive, c.send) for c in clients))
        return clients

    clients = aio.run(burst())
    assert most == 3
    assert all(c.status == 200 for c in clients)
    assert {c.content for c in clients} <= {f"pages_{n}".encode() for n in range(3)}


def test_event_streams_go_to_the_asgi_handler_and_pages_do_not():
    seen: list[str] = []

    async def streams(scope: Any, receive: Any, send: Any) -> None:
        seen.append(scope["path"])
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    def pages(environ: dict[str, Any], start_response: Any) -> list[bytes]:
        start_response("200 OK", [])
        return [b"page"]

    app = Dispatch(streams, pages, threads=1)
    for path in ("/en/play/123456/events/", "/it/clinics/7/events/"):
        call(app, path, Client())
    assert call(app, "/en/play/123456/", Client()).content == b"page"
    assert seen == ["/en/play/123456/events/", "/it/clinics/7/events/"]


def test_the_environ_is_pep_3333s():
    made = environ(
        scope(
            "/it/pratica/è/",
            headers=[(b"cookie", b"a=1"), (b"cookie", b"b=2"), (b"content-type", b"text/plain")],
        )
        | {"query_string": b"q=1", "root_path": ""},
        body=None,
    )
    assert made["PATH_INFO"] == "/it/pratica/è/".encode().decode("latin-1")
    assert made["QUERY_STRING"] == "q=1"
    assert made["HTTP_COOKIE"] == "a=1; b=2"  # HTTP/2 sends each cookie on its own
    assert made["CONTENT_TYPE"] == "text/plain" and "HTTP_CONTENT_TYPE" not in made
    assert (made["REMOTE_ADDR"], made["SERVER_PORT"]) == ("127.0.0.1", "8000")


def test_on_sqlite_one_request_that_may_write_runs_at_a_time_and_reads_keep_the_pool():
    """SQLite takes one writer at a time: a process's POSTs run one after the other in a lane
    of their own, while pages that only read keep running beside them on the pool's threads;
    without `one_writer` (PostgreSQL) POSTs share the pool."""
    running: dict[str, int] = {"POST": 0, "GET": 0}
    most: dict[str, int] = {"POST": 0, "GET": 0}
    lock = threading.Lock()

    def slow(environ: dict[str, Any], start_response: Any) -> list[bytes]:
        method = environ["REQUEST_METHOD"]
        with lock:
            running[method] += 1
            most[method] = max(most[method], running[method])
        time.sleep(0.03)
        with lock:
            running[method] -= 1
        start_response("200 OK", [])
        return [threading.current_thread().name.encode()]

    def burst(one_writer: bool) -> list[Client]:
        app = Dispatch(streams=None, pages=slow, threads=3, one_writer=one_writer)  # type: ignore[arg-type]

        async def go() -> list[Client]:
            posts = [Client(b"a=1") for _ in range(6)]
            gets = [Client() for _ in range(6)]
            await asyncio.gather(
                *(app(scope("/en/practice/x/1/answer/", "POST"), c.receive, c.send) for c in posts),
                *(app(scope("/en/practice/"), c.receive, c.send) for c in gets),
            )
            return posts + gets

        try:
            return aio.run(go())
        finally:
            app.pool.shutdown()

    clients = burst(one_writer=True)
    assert all(c.status == 200 for c in clients)
    assert most == {"POST": 1, "GET": 3}
    assert {c.content for c in clients[:6]} == {b"writes_0"}
    running.update(POST=0, GET=0)
    most.update(POST=0, GET=0)
    burst(one_writer=False)
    assert most["POST"] > 1


def test_a_server_process_starts_without_the_libraries_a_room_of_phones_never_uses(tmp_path):
    """cryptography, Pillow and segno (about 13 MB in each process) are imported where a key,
    an upload or a QR code is handled, not when a server process loads the site."""
    code = (
        "import sys, polotrainer.asgi; from django.urls import get_resolver; "
        "get_resolver().url_patterns; "
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'cryptography', 'PIL', 'segno'}))"
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "polotrainer.settings",
        "DEBUG": "0",
        "DEPLOY_PROFILE": "lan",
        "SECRET_KEY": "a-test-key-" + "x" * 50,
        "ALLOWED_HOSTS": "127.0.0.1",
        "DATABASE_URL": f"sqlite:///{tmp_path}/db.sqlite3",
    }
    out = subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        cwd=settings.BASE_DIR,
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip().splitlines()[-1] == "[]"


# --- immutable static files, kept per process ---------------------------------------------------


def static_files(cache_control: str = "max-age=315360000, public, immutable") -> Any:
    """A WSGI app that serves every path as a static file would be served, counting its calls."""

    def app(environ: dict[str, Any], start_response: Any) -> list[bytes]:
        app.calls += 1  # type: ignore[attr-defined]
        encoding = "gzip" if "gzip" in environ.get("HTTP_ACCEPT_ENCODING", "") else "identity"
        start_response(
            "200 OK",
            [
                ("Cache-Control", cache_control),
                ("Content-Encoding", encoding),
                ("Vary", "Accept-Encoding"),
            ],
        )
        return [environ["PATH_INFO"].encode(), b"|", encoding.encode()]

    app.calls = 0  # type: ignore[attr-defined]
    return app


def test_an_immutable_static_file_is_sent_from_the_loop_the_second_time():
    files = static_files()
    app = Dispatch(streams=None, pages=files, threads=1)  # type: ignore[arg-type]
    gzip = [(b"accept-encoding", b"gzip, deflate")]
    first = call(app, "/static/css/app.1234.css", Client(), headers=gzip)
    second = call(app, "/static/css/app.1234.css", Client(), headers=gzip)
    assert files.calls == 1
    assert second.sent == first.sent and second.content == b"/static/css/app.1234.css|gzip"
    # Another encoding asked for is another answer; so is another file.
    plain = call(app, "/static/css/app.1234.css", Client())
    assert plain.content.endswith(b"|identity") and files.calls == 2
    call(app, "/static/js/field.5678.js", Client(), headers=gzip)
    assert files.calls == 3


def test_a_conditional_request_a_page_or_a_file_not_immutable_always_goes_to_django():
    files = static_files()
    app = Dispatch(streams=None, pages=files, threads=1)  # type: ignore[arg-type]
    call(app, "/static/css/app.1234.css", Client())
    for headers in ([(b"if-none-match", b'"abc"')], [(b"range", b"bytes=0-1")]):
        call(app, "/static/css/app.1234.css", Client(), headers=headers)
    assert files.calls == 3
    call(app, "/en/rules/", Client())
    call(app, "/en/rules/", Client())
    assert files.calls == 5
    plain_names = static_files("max-age=60, public")
    app = Dispatch(streams=None, pages=plain_names, threads=1)  # type: ignore[arg-type]
    call(app, "/static/css/app.css", Client())
    call(app, "/static/css/app.css", Client())
    assert plain_names.calls == 2


def test_a_file_kept_for_https_is_not_the_answer_to_plain_http():
    """Behind the internet profile's proxy a plain HTTP request is redirected: a 200 kept from
    an HTTPS request must not answer it."""
    files = static_files()
    app = Dispatch(streams=None, pages=files, threads=1)  # type: ignore[arg-type]
    https = [(b"x-forwarded-proto", b"https")]
    call(app, "/static/css/app.1234.css", Client(), headers=https)
    call(app, "/static/css/app.1234.css", Client(), headers=https)
    call(app, "/static/css/app.1234.css", Client())
    assert files.calls == 2
