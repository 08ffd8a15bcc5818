"""The live stream itself, from uvicorn in a process of its own: what a phone's EventSource and
the projector's get, on one server and across two servers sharing the database; and 300 phones
answering one question at once.
"""

import asyncio
import os
import tempfile
import zlib
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from django.conf import settings

from polotrainer.clinics import stream as streams
from polotrainer.serving import CONTROL_THREADS
from tests import aio
from tests import servers as server
from tests.clinics.support import BOOL_NUMBER, PLACE, Phone, content_of, drive

SLUGS = [BOOL_NUMBER, PLACE]


@dataclass
class Event:
    name: str
    data: str
    id: str = ""


async def events(response: httpx.Response) -> AsyncIterator[Event]:
    """The SSE events of a streamed response, as EventSource parses them."""
    name, data, ident = "message", [], ""
    async for line in response.aiter_lines():
        if line == "":
            if data:
                yield Event(name, "\n".join(data), ident)
            name, data, ident = "message", [], ""
        elif line.startswith("event: "):
            name = line[7:]
        elif line.startswith("data: "):
            data.append(line[6:])
        elif line.startswith("id: "):
            ident = line[4:]


class Listener:
    """A stream read in the background: every event received, with when."""

    def __init__(self, client: httpx.AsyncClient, url: str) -> None:
        self.client, self.url = client, url
        self.received: list[Event] = []
        self.task: asyncio.Task[None] | None = None
        self.status = 0
        self.content_type = ""
        self.encoding = ""

    async def start(self) -> None:
        opened = asyncio.Event()

        async def run() -> None:
            async with self.client.stream("GET", self.url, timeout=None) as response:
                self.status = response.status_code
                self.content_type = response.headers.get("content-type", "")
                self.encoding = response.headers.get("content-encoding", "")
                opened.set()
                async for event in events(response):
                    self.received.append(event)

        self.task = asyncio.create_task(run())
        await asyncio.wait_for(opened.wait(), 20)

    async def wait_for(self, test, timeout: float = 5.0) -> Event:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        seen = 0
        while loop.time() < deadline:
            for event in self.received[seen:]:
                if test(event):
                    return event
            seen = len(self.received)
            await asyncio.sleep(0.05)
        raise AssertionError(f"no such event in {[(e.name, e.id) for e in self.received]}")

    def stop(self) -> None:
        if self.task:
            self.task.cancel()


def phone_client(base: str, cookie: str | None = None) -> httpx.AsyncClient:
    cookies = {"csrftoken": server.CSRF}
    headers = {"X-CSRFToken": server.CSRF, "Referer": base + "/"}
    client = httpx.AsyncClient(base_url=base, cookies=cookies, headers=headers, timeout=60)
    if cookie:
        client.cookies.set(cookie.split("=", 1)[0], cookie.split("=", 1)[1])
    return client


async def join(client: httpx.AsyncClient, pin: str, nickname: str, lang: str = "en") -> None:
    response = await client.post(f"/{lang}/play/{pin}/", data={"nickname": nickname})
    assert response.status_code == 302, response.text[:500]


def instructor_client(base: str, session_key: str) -> httpx.AsyncClient:
    client = phone_client(base)
    client.cookies.set("sessionid", session_key)
    return client


async def act(client: httpx.AsyncClient, clinic: int, action: str) -> None:
    response = await client.post(f"/en/clinics/{clinic}/control/", data={"action": action})
    assert response.status_code == 302, (action, response.status_code)


@pytest.fixture(scope="module")
def database(django_db_blocker) -> Iterator[server.Database]:
    with tempfile.TemporaryDirectory(prefix="polotrainer-clinic-") as tmp:
        made = server.Database(Path(tmp))
        try:
            yield made
        finally:
            made.drop()


@pytest.fixture(scope="module")
def site(database) -> Iterator[server.Server]:
    running = server.Server(database)
    try:
        yield running
    finally:
        running.stop()


def test_a_streams_gzip_gives_each_event_whole_as_it_comes():
    sent = [f"event: state\ndata: {'<p>The round</p>' * 40} {n}\n\n" for n in range(3)]

    async def events() -> AsyncIterator[str]:
        for text in sent:
            yield text

    async def read() -> list[bytes]:
        return [part async for part in streams._gzip(events())]

    parts = aio.run(read())
    unpacker = zlib.decompressobj(zlib.MAX_WBITS | 16)
    got = [unpacker.decompress(part).decode() for part in parts]
    assert got[:3] == sent and "".join(got[3:]) == ""  # each event whole, as it came
    assert sum(map(len, parts)) < sum(map(len, sent)) // 4  # and far smaller on the way


def test_the_stream_starts_with_the_whole_state_and_pushes_each_change(database, site):
    clinic = server.setup(database, SLUGS)

    async def play() -> None:
        async with (
            phone_client(site.base) as phone,
            phone_client(site.base) as italian,
            instructor_client(site.base, clinic["session"]) as ines,
        ):
            await join(phone, clinic["pin"], "Anna")
            await join(italian, clinic["pin"], "Gianni", "it")
            stream = Listener(phone, f"/en/play/{clinic['pin']}/events/")
            it_stream = Listener(italian, f"/it/play/{clinic['pin']}/events/")
            projector = Listener(ines, f"/en/clinics/{clinic['id']}/events/")
            for listener in (stream, it_stream, projector):
                await listener.start()
            assert stream.status == 200 and stream.content_type.startswith("text/event-stream")
            assert stream.encoding == "gzip"  # the stream's own (httpx asks for it)
            first = await stream.wait_for(lambda e: e.name == "state")
            assert "You are in!" in first.data
            mine = await stream.wait_for(lambda e: e.name == "mine")
            assert "Anna" in mine.data
            lobby = await projector.wait_for(lambda e: e.name == "state")
            assert clinic["pin"] in lobby.data and 'data-phase="lobby"' in lobby.data

            await act(ines, clinic["id"], "show")
            shown = await stream.wait_for(lambda e: e.name == "state" and 'id="quiz"' in e.data)
            assert int(shown.id) == int(first.id) + 1
            await it_stream.wait_for(
                lambda e: e.name == "state" and "Invia la mia risposta" in e.data
            )

            form = server.form(database, clinic["id"])
            answered = await phone.post(f"/en/play/{clinic['pin']}/answer/", data=form)
            assert answered.status_code == 302
            count = await projector.wait_for(lambda e: e.name == "count" and "1 answered" in e.data)
            assert count

            await act(ines, clinic["id"], "reveal")
            await stream.wait_for(lambda e: e.name == "state" and "The right answer:" in e.data)
            await stream.wait_for(lambda e: e.name == "mine" and "Right!" in e.data)
            await it_stream.wait_for(
                lambda e: e.name == "state" and "La risposta giusta:" in e.data
            )
            await it_stream.wait_for(lambda e: e.name == "mine" and "Non hai risposto" in e.data)

            await act(ines, clinic["id"], "end")
            await stream.wait_for(lambda e: e.name == "ended")
            for listener in (stream, it_stream, projector):
                listener.stop()

    aio.run(play())


def test_a_reconnect_gets_the_whole_state_at_once(database, site):
    clinic = server.setup(database, SLUGS)

    async def play() -> None:
        async with (
            phone_client(site.base) as phone,
            instructor_client(site.base, clinic["session"]) as ines,
        ):
            await join(phone, clinic["pin"], "Anna")
            await act(ines, clinic["id"], "show")
            form = server.form(database, clinic["id"])
            await phone.post(f"/en/play/{clinic['pin']}/answer/", data=form)
            # The phone slept through the reveal; a new connection starts with it.
            await act(ines, clinic["id"], "reveal")
            again = Listener(phone, f"/en/play/{clinic['pin']}/events/")
            await again.start()
            await again.wait_for(lambda e: e.name == "state" and "The right answer:" in e.data)
            await again.wait_for(lambda e: e.name == "mine" and "Right!" in e.data)
            again.stop()

    aio.run(play())


def test_phones_on_one_server_and_the_projector_on_another_stay_in_step(database, site):
    """Two app processes share nothing but the database (PostgreSQL in CI's second run)."""
    other = server.Server(database)
    clinic = server.setup(database, SLUGS)

    async def play() -> None:
        async with (
            phone_client(site.base) as anna,
            phone_client(site.base) as ben,
            instructor_client(other.base, clinic["session"]) as ines,
        ):
            await join(anna, clinic["pin"], "Anna")
            await join(ben, clinic["pin"], "Ben")
            streams = [
                Listener(anna, f"/en/play/{clinic['pin']}/events/"),
                Listener(ben, f"/en/play/{clinic['pin']}/events/"),
            ]
            projector = Listener(ines, f"/en/clinics/{clinic['id']}/events/")
            for listener in [*streams, projector]:
                await listener.start()
            await projector.wait_for(lambda e: e.name == "count" and "2 players" in e.data)
            await act(ines, clinic["id"], "show")  # on server B
            for stream in streams:  # seen on server A
                await stream.wait_for(lambda e: e.name == "state" and 'id="quiz"' in e.data)
            form = server.form(database, clinic["id"])
            for phone in (anna, ben):  # answers to server A
                assert (
                    await phone.post(f"/en/play/{clinic['pin']}/answer/", data=form)
                ).status_code == 302
            await projector.wait_for(lambda e: e.name == "count" and "2 answered" in e.data)
            await act(ines, clinic["id"], "reveal")
            for stream in streams:
                await stream.wait_for(lambda e: e.name == "mine" and "Right!" in e.data)
            for listener in [*streams, projector]:
                listener.stop()

    try:
        aio.run(play())
    finally:
        other.stop()


def test_300_phones_answering_at_once_record_exactly_300(database, site):
    clinic = server.setup(database, [BOOL_NUMBER])
    cookies = server.participants(database, clinic["id"], 300)
    name = f"clinic{clinic['id']}"
    form: dict[str, object] = {}

    async def send(client: httpx.AsyncClient, cookie: str) -> int:
        response = await client.post(
            f"/en/play/{clinic['pin']}/answer/",
            data=form,
            headers={
                "Cookie": f"csrftoken={server.CSRF}; {name}={cookie}",
                "X-CSRFToken": server.CSRF,
            },
        )
        return response.status_code

    async def burst(cookies: list[str]) -> list[int]:
        limits = httpx.Limits(max_connections=None)
        async with httpx.AsyncClient(base_url=site.base, limits=limits, timeout=120) as client:
            return list(await asyncio.gather(*(send(client, c) for c in cookies)))

    async def play() -> list[int]:
        async with instructor_client(site.base, clinic["session"]) as ines:
            await act(ines, clinic["id"], "show")
        form.update(server.form(database, clinic["id"]))
        first = await burst(cookies)
        # A third of the phones tap again (a retry, a double tap): nothing more is recorded.
        again = await burst(cookies[:100])
        return [*first, *again]

    statuses = aio.run(play())
    assert statuses[:300] == [302] * 300
    assert statuses[300:] == [409] * 100
    counts = database.query(
        f"from polotrainer.clinics.models import ClinicAnswer\n"
        f"rows = ClinicAnswer.objects.filter(round__session_id={clinic['id']})\n"
        "result = [rows.values('participant_id').distinct().count(), rows.count(),"
        " len(set(rows.values_list('question', flat=True)))]"
    )
    people, rows, questions = counts
    assert people == 300 and rows == 300 * questions
    if server.postgres():
        # The bound on connections: the pool's threads keep theirs (CONN_MAX_AGE), the streams
        # read through the loop's executor; 300 phones at once never meant 300 connections.
        held = database.query(
            "from django.db import connection\n"
            "with connection.cursor() as c:\n"
            "    c.execute('SELECT count(*) FROM pg_stat_activity WHERE datname ="
            " current_database() AND pid <> pg_backend_pid()')\n"
            "    result = c.fetchone()[0]"
        )
        executor = min(32, (os.cpu_count() or 1) + 4)  # asyncio's default executor
        assert 0 < held <= settings.ASGI_CONCURRENCY + CONTROL_THREADS + executor


def test_the_instructor_is_answered_while_the_phones_pool_is_saturated(database):
    """The instructor never waits behind the room (polotrainer/serving.py): with one thread
    for the phones and a crowd of phone pages queued for it, the control POST is answered
    before the phones queued ahead of it, and every phone is still served."""
    crowd = 150
    clinic = server.setup(database, [BOOL_NUMBER])
    cookie = server.participants(database, clinic["id"], 1)[0]
    one_thread = server.Server(database, env={"ASGI_CONCURRENCY": "1"})

    async def play() -> tuple[httpx.Response, int, list[int]]:
        done: list[int] = []
        limits = httpx.Limits(max_connections=None, max_keepalive_connections=None)
        async with (
            httpx.AsyncClient(
                base_url=one_thread.base,
                cookies={f"clinic{clinic['id']}": cookie},
                limits=limits,
                timeout=120,
            ) as phones,
            instructor_client(one_thread.base, clinic["session"]) as ines,
        ):

            async def phone() -> None:
                response = await phones.get(f"/en/play/{clinic['pin']}/")
                done.append(response.status_code)

            crowd_tasks = [asyncio.create_task(phone()) for _ in range(crowd)]
            while not done:  # the pool is at work, the rest of the crowd queued for it
                await asyncio.sleep(0.01)
            control = await ines.post(
                f"/en/clinics/{clinic['id']}/control/",
                data={"action": "show"},
                headers={"HX-Request": "true"},
            )
            answered_after = len(done)
            await asyncio.gather(*crowd_tasks)
            return control, answered_after, done

    try:
        control, answered_after, statuses = aio.run(play())
    finally:
        one_thread.stop()
    assert control.status_code == 200 and 'data-action="close"' in control.text  # shown
    # Without the lane it would come after the whole crowd (one queue, first come first served).
    assert answered_after < crowd // 2, answered_after
    assert statuses == [200] * crowd


@pytest.mark.django_db
def test_without_asgi_the_stream_sends_the_state_once_and_ends(clinic):
    """The test client (like runserver or a WSGI worker) cannot hold a stream open: the view
    sends the whole state and ends, and EventSource reconnects after `retry`: polling."""
    phone = Phone(clinic)
    phone.join("Anna")
    drive(clinic, "show")
    response = phone.client.get(phone.base + "events/")
    body = content_of(response).decode()
    assert body.startswith("retry: 2000")
    assert "event: state" in body and 'id="quiz"' in body and "event: mine" in body


async def leave_mid_request(port: int, request: bytes, after: float) -> None:
    """A client that sends its request and goes away `after` seconds later, whatever it got."""
    _, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(request)
    await writer.drain()
    await asyncio.sleep(after)
    writer.transport.abort()  # a phone losing the Wi-Fi: no goodbye


def test_clients_that_leave_mid_request_leave_no_error_in_the_log(database, site):
    """Phones whose streams, answers and pages are cut at every moment, many at once: the
    server logs no error (uvicorn logged `CurrentThreadExecutor already quit or is broken`
    for them, issue 23), and still serves everyone else."""
    clinic = server.setup(database, [BOOL_NUMBER])
    cookie = server.participants(database, clinic["id"], 1)[0]
    phone = f"Cookie: csrftoken={server.CSRF}; clinic{clinic['id']}={cookie}\r\n"
    body = "round=1&answer=true"
    requests = [
        f"GET /en/play/{clinic['pin']}/events/ HTTP/1.1\r\nAccept: text/event-stream\r\n{phone}",
        "GET /en/play/000000/events/ HTTP/1.1\r\n",
        f"GET /en/play/{clinic['pin']}/ HTTP/1.1\r\n{phone}",
        "GET /healthz HTTP/1.1\r\n",
        f"POST /en/play/{clinic['pin']}/answer/ HTTP/1.1\r\n{phone}X-CSRFToken: {server.CSRF}\r\n"
        f"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {len(body)}\r\n",
    ]
    raw = [(r + "Host: 127.0.0.1\r\n\r\n").encode() for r in requests]
    raw[-1] += body.encode()
    before = len(site.log())

    async def crowd() -> None:
        for wave in range(6):
            await asyncio.gather(
                *(
                    leave_mid_request(site.port, raw[n % len(raw)], (n % 25) / 1000)
                    for n in range(wave * 50, wave * 50 + 50)
                )
            )

    aio.run(crowd())
    with httpx.Client(base_url=site.base) as client:
        assert client.get("/healthz").status_code == 200
    written = site.log()[before:]
    assert "Traceback" not in written and "ERROR" not in written, written[-3000:]


@pytest.mark.skipif(not server.postgres(), reason="LISTEN/NOTIFY is PostgreSQL's")
def test_on_postgresql_every_change_reaches_the_room_without_polling(database):
    """With the watchers' polling and their safety reads an hour apart, only the database's
    notifications (clinics/live.py) can bring the changes: each control, and the count of an
    answer, reaches the phone and the projector."""
    clinic = server.setup(database, [BOOL_NUMBER])
    hour = str(3600 * 1000)
    listening = server.Server(
        database, env={"CLINIC_POLL_MS": hour, "CLINIC_LISTEN_CHECK_MS": hour}
    )

    async def play() -> None:
        async with (
            phone_client(listening.base) as phone,
            instructor_client(listening.base, clinic["session"]) as ines,
        ):
            await join(phone, clinic["pin"], "Anna")
            stream = Listener(phone, f"/en/play/{clinic['pin']}/events/")
            projector = Listener(ines, f"/en/clinics/{clinic['id']}/events/")
            await stream.start()
            await projector.start()
            first = await stream.wait_for(lambda e: e.name == "state")
            await projector.wait_for(lambda e: e.name == "state")

            await act(ines, clinic["id"], "show")
            shown = await stream.wait_for(
                lambda e: e.name == "state" and 'id="quiz"' in e.data, timeout=20
            )
            assert int(shown.id) == int(first.id) + 1
            form = server.form(database, clinic["id"])
            answered = await phone.post(f"/en/play/{clinic['pin']}/answer/", data=form)
            assert answered.status_code == 302
            await projector.wait_for(
                lambda e: e.name == "count" and "1 answered" in e.data, timeout=20
            )
            await act(ines, clinic["id"], "reveal")
            await stream.wait_for(
                lambda e: e.name == "state" and "The right answer:" in e.data, timeout=20
            )
            await act(ines, clinic["id"], "end")
            await stream.wait_for(lambda e: e.name == "ended", timeout=20)
            stream.stop()
            projector.stop()

    try:
        aio.run(play())
        log = listening.log()
    finally:
        listening.stop()
    assert "Traceback" not in log and "listening connection failed" not in log, log
