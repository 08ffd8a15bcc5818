"""A clinic of 300 phones against the server started as README says (`scripts/serve_lan.py`).

    .venv/bin/python benchmarks/clinic.py [--db sqlite|postgres|both] [--mode sse|poll|both]
                                          [--phones 300] [--workers 2] [--window 10]

For each database (a fresh one, the bundled content loaded) and each mode:
1. The server starts as README says for a club (`scripts/serve_lan.py --address 127.0.0.1`:
   the LAN profile, DEBUG off, uvicorn with WEB_CONCURRENCY workers), with a throwaway config
   folder for its keys.
2. An instructor and a clinic are made, and N participants with their rejoin cookies.
3. sse: every phone holds the live stream open (httpx, async, one connection each plus one for
   its answer); poll: every phone asks for the state every 2 s with the version it shows, as
   the page's fallback does.
4. The instructor shows the round; every phone answers within WINDOW seconds (uniformly spread);
   the instructor reveals. Measured: answers sent / recorded / lost / doubled (from the
   database), answer latency p50/p95/p99, the time from the reveal to each phone having it
   (95 % and 100 %), and the server's CPU time and memory (its process tree, from /proc).

The phones run in this one process on the same 2 cores as the server: the figures include the
load generator's own cost, so they are pessimistic. A real room's ceiling is the Wi-Fi access
point (a phone hotspot takes about 8 devices; a consumer router a few dozen), not this.
"""

import argparse
import asyncio
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
PYTHON = sys.executable
CSRF = "clinicbenchcsrftokenclinicbenchc"  # 32 characters
POLL_S = 2.0
CLK = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")

SETUP = """
from django.contrib.auth import (
    BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model,
)
from django.contrib.sessions.backends.db import SessionStore
from django.core import signing
import secrets
from polotrainer.courses import roles
from polotrainer.clinics import sessions
from polotrainer.clinics.models import Participant
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
Participant.objects.bulk_create(
    Participant(session=clinic, nickname=f"p{n}", nickname_key=f"p{n}",
                secret=secrets.token_urlsafe(18))
    for n in range(N)
)
cookies = [
    signing.dumps([clinic.pk, p.pk, p.secret], salt="polotrainer.clinics.participant")
    for p in Participant.objects.filter(session=clinic).order_by("pk")
]
result = {"id": clinic.pk, "pin": clinic.pin, "session": store.session_key, "cookies": cookies}
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
from polotrainer.clinics.models import ClinicAnswer
rows = ClinicAnswer.objects.filter(round__session_id=CLINIC)
per = rows.values("participant_id", "question").annotate(n=Count("pk"))
result = [rows.values("participant_id").distinct().count(), rows.count(),
          sum(1 for p in per if p["n"] > 1)]
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


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

    def usage(self) -> tuple[float, float]:
        """CPU seconds used so far and resident memory (MB) of the server's process tree."""
        cpu, rss = 0.0, 0
        for pid in _tree(self.process.pid):
            try:
                stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                cpu += (int(stat[11]) + int(stat[12])) / CLK
                rss += int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE
            except (OSError, IndexError, ValueError):
                continue
        return cpu, rss / 2**20

    def close(self) -> None:
        try:
            os.killpg(self.process.pid, 15)
            self.process.wait(timeout=20)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            os.killpg(self.process.pid, 9)
        if self.pg_name:
            self._admin(f'DROP DATABASE IF EXISTS "{self.pg_name}" WITH (FORCE)')


def _tree(root: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo += children.get(pid, [])
    return out


@dataclass
class Phone:
    cookie: str
    version_at: dict[int, float] = field(default_factory=dict)  # version -> when it arrived
    latency: float | None = None
    status: int = 0
    version: int = 0


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))]


async def run_clinic(site: Site, mode: str, phones_n: int, window: float) -> dict[str, Any]:
    made = site.query(f"N = {phones_n}\n" + SETUP)
    clinic, pin = made["id"], made["pin"]
    cookie_name = f"clinic{clinic}"
    phones = [Phone(c) for c in made["cookies"]]
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=None)
    headers = {"X-CSRFToken": CSRF}
    streams: list[asyncio.Task[None]] = []
    stop = asyncio.Event()

    def client_for(phone: Phone) -> httpx.AsyncClient:
        return httpx.AsyncClient(
            base_url=site.base,
            cookies={"csrftoken": CSRF, cookie_name: phone.cookie},
            headers=headers,
            limits=limits,
            timeout=httpx.Timeout(60, read=None),
        )

    async def listen(phone: Phone) -> None:
        async with (
            client_for(phone) as client,
            client.stream("GET", f"/en/play/{pin}/events/") as response,
        ):
            async for line in response.aiter_lines():
                if line.startswith("id: "):
                    version = int(line[4:])
                    phone.version = version
                    phone.version_at.setdefault(version, time.monotonic())
                if stop.is_set():
                    return

    async def poll(phone: Phone) -> None:
        async with client_for(phone) as client:
            await asyncio.sleep(random.uniform(0, POLL_S))
            while not stop.is_set():
                response = await client.get(f"/en/play/{pin}/state/?v={phone.version}")
                if response.status_code == 200:
                    text = response.text
                    at = text.find('data-version="')
                    if at >= 0:
                        version = int(text[at + 14 : text.index('"', at + 14)])
                        phone.version = version
                        phone.version_at.setdefault(version, time.monotonic())
                await asyncio.sleep(POLL_S)

    follow = listen if mode == "sse" else poll
    streams = [asyncio.create_task(follow(p)) for p in phones]
    # Everyone has the lobby's state before the round is shown.
    began = time.monotonic()
    while sum(1 for p in phones if p.version) < len(phones) and time.monotonic() - began < 120:
        await asyncio.sleep(0.1)
    connected = sum(1 for p in phones if p.version)
    cpu0, _ = site.usage()

    async with httpx.AsyncClient(
        base_url=site.base,
        cookies={"csrftoken": CSRF, "sessionid": made["session"]},
        headers=headers,
        timeout=60,
    ) as ines:

        async def act(action: str) -> float:
            response = await ines.post(f"/en/clinics/{clinic}/control/", data={"action": action})
            assert response.status_code == 302, (action, response.status_code)
            return time.monotonic()

        await act("show")
        form = site.query(f"CLINIC = {clinic}\n" + FORM)

        async def answer(phone: Phone, client: httpx.AsyncClient) -> None:
            await asyncio.sleep(random.uniform(0, window))
            sent = time.monotonic()
            response = await client.post(
                f"/en/play/{pin}/answer/",
                data=form,
                headers={"Cookie": f"csrftoken={CSRF}; {cookie_name}={phone.cookie}"},
            )
            phone.latency = time.monotonic() - sent
            phone.status = response.status_code

        async with httpx.AsyncClient(base_url=site.base, limits=limits, timeout=60) as poster:
            poster.headers.update(headers)
            await asyncio.gather(*(answer(p, poster) for p in phones))
        await act("close")
        revealed_at = await act("reveal")
        page = (await ines.get(f"/en/clinics/{clinic}/state/")).text
        at = page.index('data-version="') + 14
        reveal_version = int(page[at : page.index('"', at)])
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if all(reveal_version in p.version_at for p in phones):
                break
            await asyncio.sleep(0.05)
    cpu1, rss = site.usage()
    stop.set()
    for task in streams:
        task.cancel()
    await asyncio.gather(*streams, return_exceptions=True)
    reach = sorted(
        p.version_at[reveal_version] - revealed_at for p in phones if reveal_version in p.version_at
    )
    people, rows, doubled = site.query(f"CLINIC = {clinic}\n" + COUNT)
    questions = len([k for k in form if k.startswith("q-")])
    latencies = [p.latency for p in phones if p.latency is not None]
    return {
        "mode": mode,
        "phones": len(phones),
        "connected": connected,
        "sent": len(latencies),
        "accepted": sum(1 for p in phones if p.status == 302),
        "recorded": people,
        "rows": rows,
        "rows_expected": people * questions,
        "lost": len(latencies) - people,
        "doubled": doubled,
        "answer_p50": statistics.median(latencies),
        "answer_p95": pct(latencies, 95),
        "answer_p99": pct(latencies, 99),
        "reveal_95": pct(reach, 95) if len(reach) >= 0.95 * len(phones) else None,
        "reveal_100": reach[-1] if len(reach) == len(phones) else None,
        "reveal_reached": len(reach),
        "server_cpu_s": cpu1 - cpu0,
        "server_rss_mb": rss,
    }


def show(db: str, r: dict[str, Any]) -> None:
    def s(v: float | None) -> str:
        return "n/a" if v is None else f"{v * 1000:.0f} ms"

    print(
        f"{db:9} {r['mode']:4} phones {r['phones']} connected {r['connected']} | "
        f"sent {r['sent']} recorded {r['recorded']} lost {r['lost']} doubled {r['doubled']} "
        f"(rows {r['rows']}/{r['rows_expected']}) | answer p50 {s(r['answer_p50'])} "
        f"p95 {s(r['answer_p95'])} p99 {s(r['answer_p99'])} | reveal 95% {s(r['reveal_95'])} "
        f"100% {s(r['reveal_100'])} ({r['reveal_reached']}) | server CPU "
        f"{r['server_cpu_s']:.1f} s, RSS {r['server_rss_mb']:.0f} MB"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", choices=["sqlite", "postgres", "both"], default="both")
    parser.add_argument("--mode", choices=["sse", "poll", "both"], default="both")
    parser.add_argument("--phones", type=int, default=300)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--window", type=float, default=10.0)
    options = parser.parse_args()
    dbs = ["sqlite", "postgres"] if options.db == "both" else [options.db]
    modes = ["sse", "poll"] if options.mode == "both" else [options.mode]
    print(
        f"{options.phones} phones, {options.workers} workers, answers within {options.window:g} s"
    )
    for db in dbs:
        for mode in modes:
            with tempfile.TemporaryDirectory(prefix="clinic-bench-") as tmp:
                site = Site(db, options.workers, Path(tmp))
                try:
                    show(db, asyncio.run(run_clinic(site, mode, options.phones, options.window)))
                finally:
                    site.close()
                    shutil.rmtree(Path(tmp), ignore_errors=True)


if __name__ == "__main__":
    main()
