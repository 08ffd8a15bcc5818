"""A clinic of 300, 600 and 1,000 phones against the server started as README says for a club.

    .venv/bin/python benchmarks/clinic.py [--db sqlite|postgres|both] [--phones 300,600,1000]
                                          [--workers 2] [--window 5] [--clients 2]

For each database (a fresh one, the bundled content loaded; one server per database) and each
number of phones N (a clinic of its own):
1. The server starts as README says for a club (`scripts/serve_lan.py --address 127.0.0.1`:
   the LAN profile, DEBUG off, uvicorn with WEB_CONCURRENCY workers), with a throwaway config
   folder for its keys. An instructor (logged in) makes a clinic of one round; the projector
   holds its own event stream throughout, as the instructor's laptop does.
2. join: N phones join as a room does, at once, sending what the pages' forms send: half type
   the address (`/play/`) and the PIN into its form (the join page comes back), half scan the
   projector's QR code (the join link with the pass: the join page); each posts its nickname
   as the join form's htmx does and gets the phone's page in place.
3. files: every phone fetches what its browser fetches on a first visit besides the pages: the
   join page's static files, the service worker (/sw.js) and what the worker keeps when it
   installs (its PRECACHE list), each once, at most 6 at a time as a browser does.
4. stream: every phone opens its live stream and reads the lobby's state.
5. show: the instructor shows the round (an htmx POST, as the projector's button sends it);
   every phone's stream brings it.
6. answer: every phone answers the round's questions at a moment drawn uniformly within
   WINDOW seconds (an htmx POST, as the phone's form sends it); meanwhile the instructor
   presses a control twice a second (one that does not apply while answers are open, so
   the round goes on: it runs the control's whole path, lock and page included).
7. reveal: the instructor reveals; every phone's stream brings it.

Printed per run: the server's CPU time per phone for each step (its process tree, from /proc:
what it spent, whatever share of the cores the machine's other jobs left it), how long the N
joins took, answers sent / recorded / lost / doubled (counted in the database), the answer
latency p50/p95, the time from the reveal to 95 % and 100 % of phones having it, the largest
memory of all server processes together (RSS: each process's summed, the interpreter's shared
pages counted once per process; PSS: a page shared by N counted 1/N, what the machine gives
them), the instructor's control POSTs (p50 and slowest, under
the answer burst and at show/reveal), and the CPU the phones' load client itself took. The load
average is printed with each run: the machine is shared.

The phones run in --clients processes of their own (httpx, async, one client and cookie jar
per phone: its stream holds one connection, its posts another), on the same cores as the
server, so the figures are pessimistic. A real room's ceiling is the Wi-Fi access point (a
phone hotspot takes about 8 devices; a consumer router a few dozen), not this.
"""

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.load import cpu_seconds, free_port, load_average, pss_mb, rss_mb

ROOT = Path(__file__).resolve().parents[1]
PYTHON = sys.executable
CSRF = "clinicbenchcsrftokenclinicbenchc"  # 32 characters
HTMX = {"HX-Request": "true"}
#: A browser's connections to one host over HTTP/1.1 (Chromium's, Firefox's and Safari's).
BROWSER_CONNECTIONS = 6

SETUP = """
from django.contrib.auth import (
    BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model,
)
from django.contrib.sessions.backends.db import SessionStore
from polotrainer.umpires import roles
from polotrainer.clinics import sessions
from polotrainer.web import language
from scenarios.models import Scenario
user, _ = get_user_model().objects.get_or_create(username="ines", defaults={"email": "i@x.org"})
roles.grant(user)
store = SessionStore()
store[SESSION_KEY] = str(user.pk)
store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
store[HASH_SESSION_KEY] = user.get_session_auth_hash()
store.create()
chosen = list(Scenario.objects.filter(slug="r21-injured-player"))
clinic = sessions.create(user, "Bench", sessions.Source("scenarios", scenarios=chosen), rounds=1)
result = {"id": clinic.pk, "pin": clinic.pin, "session": store.session_key,
          # The projector's QR code's link: no language in it.
          "link": language.without_language(sessions.join_path(clinic)),
          "version": clinic.version}
"""

FORM = """
from polotrainer.clinics import state
from polotrainer.clinics.models import ClinicSession
from scenarios import quiz
clinic = ClinicSession.objects.get(pk=CLINIC)
snap = state.snapshot(clinic.pk)
posed = snap.pose("en")
form = {"round": str(snap.current.pk)}
for g in quiz.grade(posed, {}):
    form[g.question.name] = list(quiz.form_values(posed, g.question, g.right))
result = form
"""

COUNT = """
from django.db.models import Count
from polotrainer.clinics.models import ClinicAnswer, ClinicSession, Participant
rows = ClinicAnswer.objects.filter(round__session_id=CLINIC)
per = rows.values("participant_id", "question").annotate(n=Count("pk"))
result = [rows.values("participant_id").distinct().count(), rows.count(),
          sum(1 for p in per if p["n"] > 1), Participant.objects.filter(session_id=CLINIC).count(),
          ClinicSession.objects.get(pk=CLINIC).version]
"""


class Site:
    def __init__(self, db: str, workers: int, tmp: Path) -> None:
        self.pg_name = ""
        if db == "postgres":
            self.pg_name = f"clinic_bench_{uuid.uuid4().hex[:8]}"
            self._admin(f'CREATE DATABASE "{self.pg_name}"')
            url = f"postgres://postgres@127.0.0.1:5432/{self.pg_name}"
        else:
            url = f"sqlite:///{tmp}/bench.sqlite3"
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = tmp / "server.log"
        self.env = {
            **{k: v for k, v in os.environ.items() if k in {"PATH", "HOME", "LANG"}},
            "DATABASE_URL": url,
            "POLOTRAINER_CONFIG": str(tmp / "config"),
            "WEB_CONCURRENCY": str(workers),
            "LOG_LEVEL": "ERROR",
        }
        self.process = subprocess.Popen(
            [PYTHON, "scripts/serve_lan.py", "--address", "127.0.0.1", "--port", str(self.port)],
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.DEVNULL,
            # The log (ERROR and up) read at the end: a dropped client must leave nothing there.
            stderr=self.log.open("wb"),
            start_new_session=True,
        )
        for _ in range(1200):
            try:
                urllib.request.urlopen(self.base + "/healthz", timeout=1).read()
                break
            except OSError:
                time.sleep(0.25)
        else:
            raise RuntimeError("the server did not start")
        # The keys serve_lan.py made, for the shell below.
        config = Path(self.env["POLOTRAINER_CONFIG"])
        self.shell_env = {
            **self.env,
            "DEBUG": "0",
            "DEPLOY_PROFILE": "lan",
            "SECRET_KEY": (config / "secret_key").read_text().strip(),
            "ALLOWED_HOSTS": "127.0.0.1",
        }
        self.rss_peak = 0.0
        self.pss_peak = 0.0

    @staticmethod
    def _admin(sql: str) -> None:
        import psycopg

        with psycopg.connect("host=127.0.0.1 user=postgres dbname=postgres", autocommit=True) as c:
            c.execute(sql)

    def query(self, code: str) -> Any:
        out = subprocess.run(
            [PYTHON, "manage.py", "shell", "-c", code + "\nimport json; print(json.dumps(result))"],
            cwd=ROOT,
            env=self.shell_env,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        return json.loads(out.strip().splitlines()[-1])

    def cpu(self) -> float:
        """CPU seconds the server's process tree has used so far (and its memory noted)."""
        self.rss_peak = max(self.rss_peak, rss_mb(self.process.pid))
        self.pss_peak = max(self.pss_peak, pss_mb(self.process.pid))
        return cpu_seconds(self.process.pid)

    def close(self) -> None:
        try:
            os.killpg(self.process.pid, 15)
            self.process.wait(timeout=20)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            os.killpg(self.process.pid, 9)
        if self.pg_name:
            self._admin(f'DROP DATABASE IF EXISTS "{self.pg_name}" WITH (FORCE)')


def pct(values: list[float], p: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))]


# --- the phones: in processes of their own ------------------------------------------------------


class Phone:
    def __init__(self, n: int, base: str, pin: str, link: str) -> None:
        self.n = n
        self.pin = pin
        # Half the room types the address and the PIN, half scans the QR code (the join link
        # with its pass). Neither address carries a language.
        self.entry = "/play/" if n % 2 else link
        self.client = httpx.AsyncClient(
            base_url=base,
            headers={"Accept-Language": "en", "X-CSRFToken": CSRF},
            cookies={"csrftoken": CSRF},
            limits=httpx.Limits(max_connections=None, max_keepalive_connections=None),
            timeout=httpx.Timeout(60, read=None),
            follow_redirects=True,
        )
        self.joined = False
        self.first = ""  # the first full page the phone read (the join page), for its files
        self.page = ""  # the phone page's address (/en/play/PIN/)
        self.version_at: dict[int, float] = {}
        self.latency: float | None = None
        self.status = 0

    async def join(self) -> float | None:
        """What a phone's browser sends: the page, then what its forms send (parsed from it)."""
        began = time.monotonic()
        try:
            found = await self.client.get(self.entry)
            if found.status_code != 200:
                return None
            if "pin-entry" in found.text:  # the address typed: the PIN form (method get)
                action = _attribute(found.text, "pin-entry", "action")
                found = await self.client.get(action, params={"pin": self.pin})
                if found.status_code != 200:
                    return None
            # The join form, sent by htmx (hx-post): the phone's page comes back in place,
            # its address in HX-Replace-Url.
            action = _attribute(found.text, 'name="nickname"', "hx-post", before=True)
            token = _attribute(found.text, 'name="csrfmiddlewaretoken"', "value")
            joined = await self.client.post(
                action,
                data={"nickname": f"phone {self.n}", "csrfmiddlewaretoken": token},
                headers={**HTMX, "HX-Current-URL": str(found.url)},
            )
            if joined.status_code != 200 or 'id="live"' not in joined.text:
                return None
            self.page = joined.headers["HX-Replace-Url"]
            self.first = found.text
        except (httpx.HTTPError, KeyError, ValueError):
            return None
        self.joined = True
        return time.monotonic() - began

    async def files(self) -> int:
        """The first visit's files: the page's static files, the service worker and what it
        keeps at install, 6 at a time as a browser asks for them; how many were served."""
        wanted = set(re.findall(r'(?:href|src)="(/static/[^"]+)"', self.first))
        try:
            worker = await self.client.get("/sw.js")
            line = next(ln for ln in worker.text.splitlines() if ln.startswith("const PRECACHE"))
            wanted |= set(json.loads(line.removeprefix("const PRECACHE = ").removesuffix(";")))
            lanes = asyncio.Semaphore(BROWSER_CONNECTIONS)

            async def get(url: str) -> httpx.Response:
                async with lanes:
                    return await self.client.get(url)

            got = await asyncio.gather(*(get(url) for url in sorted(wanted)))
        except (httpx.HTTPError, StopIteration, ValueError):
            return 0
        return 1 + sum(r.status_code == 200 for r in got)

    async def listen(self) -> None:
        try:
            async with self.client.stream("GET", f"{self.page}events/") as response:
                async for line in response.aiter_lines():
                    if line.startswith("id: "):
                        self.version_at.setdefault(int(line[4:]), time.monotonic())
        except httpx.HTTPError:
            return

    async def answer(self, form: dict[str, Any], delay: float) -> None:
        await asyncio.sleep(delay)
        sent = time.monotonic()
        try:
            response = await self.client.post(f"{self.page}answer/", data=form, headers=HTMX)
        except httpx.HTTPError:
            self.status = -1
            return
        self.latency = time.monotonic() - sent
        self.status = response.status_code


def _attribute(html: str, near: str, name: str, *, before: bool = False) -> str:
    """The attribute `name` of the tag holding `near` (or, `before`, of the nearest tag before
    it holding one: the form around a field), unescaped."""
    at = html.index(near)
    start = html.rindex(f' {name}="', 0, at) if before else html.rindex("<", 0, at)
    start = html.index(f' {name}="', start) + len(name) + 3
    return html[start : html.index('"', start)].replace("&amp;", "&")


def _raise_fd_limit() -> None:
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def phones_process(conn: Connection, numbers: list[int], base: str, pin: str, link: str) -> None:
    _raise_fd_limit()
    asyncio.run(_phones(conn, numbers, base, pin, link))
    conn.close()


async def _phones(conn: Connection, numbers: list[int], base: str, pin: str, link: str) -> None:
    loop = asyncio.get_running_loop()
    phones = [Phone(n, base, pin, link) for n in numbers]
    streams: list[asyncio.Task[None]] = []
    while True:
        command, arg = await loop.run_in_executor(None, conn.recv)
        if command == "join":
            took = await asyncio.gather(*(p.join() for p in phones))
            conn.send([t for t in took if t is not None])
        elif command == "files":
            conn.send(await asyncio.gather(*(p.files() for p in phones if p.joined)))
        elif command == "stream":
            streams = [asyncio.create_task(p.listen()) for p in phones if p.joined]
            conn.send(None)
        elif command == "wait":  # until every phone has version `arg` (or 60 s)
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                if all(arg in p.version_at for p in phones if p.joined):
                    break
                await asyncio.sleep(0.02)
            conn.send([p.version_at[arg] for p in phones if arg in p.version_at])
        elif command == "answer":
            form, window = arg
            await asyncio.gather(
                *(p.answer(form, random.uniform(0, window)) for p in phones if p.joined)
            )
            conn.send([(p.latency, p.status) for p in phones if p.joined])
        elif command == "stop":
            for task in streams:
                task.cancel()
            await asyncio.gather(*streams, return_exceptions=True)
            await asyncio.gather(*(p.client.aclose() for p in phones))
            usage = resource.getrusage(resource.RUSAGE_SELF)
            conn.send(usage.ru_utime + usage.ru_stime)
            return


class Room:
    """The phones, spread over `clients` processes: each command goes to all, answers merged."""

    def __init__(self, n: int, clients: int, base: str, pin: str, link: str) -> None:
        context = multiprocessing.get_context("fork")
        self.pipes: list[Connection] = []
        self.processes = []
        for k in range(clients):
            mine, theirs = context.Pipe()
            numbers = list(range(k, n, clients))
            process = context.Process(
                target=phones_process, args=(theirs, numbers, base, pin, link), daemon=True
            )
            process.start()
            self.pipes.append(mine)
            self.processes.append(process)

    async def ask(self, command: str, arg: Any = None) -> list[Any]:
        for pipe in self.pipes:
            pipe.send((command, arg))
        loop = asyncio.get_running_loop()
        return list(await asyncio.gather(*(loop.run_in_executor(None, p.recv) for p in self.pipes)))

    def close(self) -> None:
        for process in self.processes:
            process.join(timeout=10)
            if process.is_alive():
                process.kill()


def _version(html: str) -> int:
    at = html.index('data-version="') + 14
    return int(html[at : html.index('"', at)])


async def run_clinic(site: Site, n: int, window: float, clients: int) -> dict[str, Any]:
    made = site.query(SETUP)
    clinic = made["id"]
    load_before = load_average()
    room = Room(n, clients, site.base, made["pin"], made["link"])
    own_cpu0 = time.process_time()
    out: dict[str, Any] = {"phones": n, "cpu_ms": {}}
    controls: list[float] = []
    async with httpx.AsyncClient(
        base_url=site.base,
        cookies={"csrftoken": CSRF, "sessionid": made["session"]},
        headers={"X-CSRFToken": CSRF, **HTMX},
        timeout=60,
    ) as ines:

        async def act(action: str, status: int = 200) -> int:
            began = time.monotonic()
            response = await ines.post(f"/en/clinics/{clinic}/control/", data={"action": action})
            controls.append(time.monotonic() - began)
            assert response.status_code == status, (action, response.status_code)
            return _version(response.text)

        projector_versions: dict[int, float] = {}

        async def projector() -> None:
            async with ines.stream("GET", f"/en/clinics/{clinic}/events/", timeout=None) as r:
                async for line in r.aiter_lines():
                    if line.startswith("id: "):
                        projector_versions.setdefault(int(line[4:]), time.monotonic())

        watching = asyncio.create_task(projector())

        async def step(name: str, command: str, arg: Any = None) -> list[Any]:
            cpu = site.cpu()
            began = time.monotonic()
            got = await room.ask(command, arg)
            out[f"{name}_s"] = time.monotonic() - began
            out["cpu_ms"][name] = (site.cpu() - cpu) * 1000 / n
            return got

        joins = [t for part in await step("join", "join") for t in part]
        out["joined"] = len(joins)
        served = [count for part in await step("files", "files") for count in part]
        out["files"] = max(served, default=0)
        cpu = site.cpu()
        await room.ask("stream")
        reached = [t for part in await room.ask("wait", made["version"]) for t in part]
        out["cpu_ms"]["stream"] = (site.cpu() - cpu) * 1000 / n
        out["streams"] = len(reached)

        cpu = site.cpu()
        shown_at = time.monotonic()
        shown = await act("show")
        out["show_ms"] = controls[-1] * 1000
        reached = [t for part in await room.ask("wait", shown) for t in part]
        out["cpu_ms"]["show"] = (site.cpu() - cpu) * 1000 / n
        out["show_100"] = max(reached) - shown_at if len(reached) == out["joined"] else None

        form = site.query(f"CLINIC = {clinic}\n" + FORM)
        busy = asyncio.Event()

        async def instructor_meanwhile() -> list[float]:
            taken = []
            while not busy.is_set():
                await asyncio.sleep(0.5)
                await act("next", status=409)  # not while answers are open: nothing changes
                taken.append(controls[-1])
            return taken

        meanwhile = asyncio.create_task(instructor_meanwhile())
        answered = [r for part in await step("answer", "answer", (form, window)) for r in part]
        busy.set()
        during = await meanwhile
        out["control_during"] = during
        latencies = [t for t, status in answered if t is not None and status == 200]
        out["sent"] = len(answered)
        out["accepted"] = len(latencies)
        out["answer_p50"] = statistics.median(latencies) if latencies else None
        out["answer_p95"] = pct(latencies, 95)

        cpu = site.cpu()
        revealed_at = time.monotonic()
        revealed = await act("reveal")
        out["reveal_ms"] = controls[-1] * 1000
        reached = sorted(t - revealed_at for part in await room.ask("wait", revealed) for t in part)
        out["cpu_ms"]["reveal"] = (site.cpu() - cpu) * 1000 / n
        out["reveal_95"] = pct(reached, 95) if len(reached) >= 0.95 * out["joined"] else None
        out["reveal_100"] = reached[-1] if len(reached) == out["joined"] else None
        out["projector_has_reveal"] = revealed in projector_versions
        watching.cancel()
        await asyncio.gather(watching, return_exceptions=True)
    out["controls"] = controls
    client_cpu = sum(await room.ask("stop")) + time.process_time() - own_cpu0
    room.close()
    out["client_cpu_s"] = client_cpu
    out["rss_mb"] = site.rss_peak
    out["pss_mb"] = site.pss_peak
    people, rows, doubled, participants, _ = site.query(f"CLINIC = {clinic}\n" + COUNT)
    out.update(recorded=people, rows=rows, doubled=doubled, participants=participants)
    out["lost"] = out["accepted"] - people
    out["load"] = f"{load_before} -> {load_average()}"
    return out


def show(db: str, r: dict[str, Any]) -> None:
    def ms(v: float | None) -> str:
        return "n/a" if v is None else f"{v * 1000:.0f} ms"

    cpu = " ".join(f"{k} {v:.1f}" for k, v in r["cpu_ms"].items())
    during = r["control_during"]
    print(
        f"{db:10} {r['phones']:5} phones | server CPU ms/phone: {cpu} | "
        f"joins {r['joined']}/{r['phones']} in {r['join_s']:.1f} s | "
        f"first-visit files {r['files']} a phone in {r['files_s']:.1f} s | "
        f"streams {r['streams']} | "
        f"answers sent {r['sent']} accepted {r['accepted']} recorded {r['recorded']} "
        f"lost {r['lost']} doubled {r['doubled']} (rows {r['rows']}) | "
        f"answer p50 {ms(r['answer_p50'])} p95 {ms(r['answer_p95'])} | "
        f"show to 100% {ms(r['show_100'])} | reveal 95% {ms(r['reveal_95'])} "
        f"100% {ms(r['reveal_100'])} | RSS {r['rss_mb']:.0f} MB (PSS {r['pss_mb']:.0f}) | "
        "control POST: show "
        f"{r['show_ms']:.0f} ms, reveal {r['reveal_ms']:.0f} ms, during answers p50 "
        f"{ms(statistics.median(during) if during else None)} max "
        f"{ms(max(during) if during else None)} ({len(during)}) | "
        f"load client CPU {r['client_cpu_s']:.1f} s | load {r['load']}",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", choices=["sqlite", "postgres", "both"], default="both")
    parser.add_argument("--phones", default="300,600,1000", help="comma-separated room sizes")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--window", type=float, default=5.0)
    parser.add_argument("--clients", type=int, default=2, help="load client processes")
    options = parser.parse_args()
    _raise_fd_limit()
    dbs = ["sqlite", "postgres"] if options.db == "both" else [options.db]
    sizes = [int(s) for s in options.phones.split(",")]
    print(
        f"phones {sizes}, {options.workers} workers, answers within {options.window:g} s, "
        f"{options.clients} load client processes, load average {load_average()}",
        flush=True,
    )
    for db in dbs:
        # One server per database, a clinic of its own for each room size.
        with tempfile.TemporaryDirectory(prefix="clinic-bench-") as tmp:
            site = Site(db, options.workers, Path(tmp))
            try:
                for n in sizes:
                    show(db, asyncio.run(run_clinic(site, n, options.window, options.clients)))
            finally:
                site.close()
                errors = [
                    line
                    for line in site.log.read_text(errors="replace").splitlines()
                    if "Error" in line or "Traceback" in line
                ]
                print("\n".join(errors[:20]) or f"{db}: nothing in the server's log", flush=True)
                shutil.rmtree(Path(tmp), ignore_errors=True)


if __name__ == "__main__":
    main()
