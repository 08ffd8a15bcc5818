"""The live stream itself, from uvicorn in a process of its own: what a phone's EventSource and
the projector's get, on one server and across two servers sharing the database; and 300 phones
answering one question at once.
"""

import asyncio
import concurrent.futures
import tempfile
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests import servers as server
from tests.clinics.conftest import BOOL_NUMBER, PLACE, Phone, content_of, drive

SLUGS = [BOOL_NUMBER, PLACE]


def run_async(coroutine: Any) -> Any:
    """Run the async clients in a thread of their own: a browser test earlier in the session
    (Playwright's sync API) leaves an event loop running in this thread, and asyncio.run()
    refuses to start inside one."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


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

    async def start(self) -> None:
        opened = asyncio.Event()

        async def run() -> None:
            async with self.client.stream("GET", self.url, timeout=None) as response:
                self.status = response.status_code
                self.content_type = response.headers.get("content-type", "")
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

    run_async(play())


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

    run_async(play())


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
        run_async(play())
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

    statuses = run_async(play())
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
