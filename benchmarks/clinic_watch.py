"""What the clinics' watchers cost the database: 50 clinics live at once on two app processes,
polling every 250 ms (as on SQLite) against LISTEN/NOTIFY (PostgreSQL's default).

    .venv/bin/python benchmarks/clinic_watch.py [--clinics 50] [--seconds 20]

On a fresh PostgreSQL database (migrated, the bundled content loaded): --clinics clinics with
one phone each, and two server processes (scripts/serve.py, one worker each, the production
command) on that database. For each mode (CLINIC_LISTEN=0: poll; CLINIC_LISTEN=1: listen) both
servers start, every phone holds one stream on each server (so each process watches every
clinic), and once every stream has its state the database's committed transactions
(pg_stat_database.xact_commit: every read outside a transaction is one) are counted over
--seconds with the room idle. Then the instructor shows the round in every clinic and each
stream must bring it: the changes delivered, and how long after the last show the last one
arrived.

Printed per mode: transactions a second (the database's queries: pg_stat_statements is not
installed here), delivered / expected, the slowest delivery, the load average.
"""

import argparse
import asyncio
import json
import os
import subprocess
import sys
import time
import urllib.request
import uuid
from pathlib import Path
from typing import Any

import httpx
import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.load import free_port, load_average

ROOT = Path(__file__).resolve().parents[1]
PYTHON = sys.executable
ADMIN = "host=127.0.0.1 user=postgres dbname=postgres"

SETUP = """
import secrets
from django.contrib.auth import get_user_model
from django.core import signing
from polotrainer.clinics import sessions
from polotrainer.clinics.models import Participant
from polotrainer.umpires import roles
from scenarios.models import Scenario
user, _ = get_user_model().objects.get_or_create(username="ines")
roles.grant(user)
chosen = list(Scenario.objects.filter(slug="r21-injured-player"))
source = sessions.Source("scenarios", scenarios=chosen)
result = []
for n in range(N):
    clinic = sessions.create(user, f"W{n}", source, rounds=1)
    p = Participant.objects.create(session=clinic, nickname="p", nickname_key="p",
                                   secret=secrets.token_urlsafe(18))
    result.append([clinic.pk, clinic.pin, signing.dumps([clinic.pk, p.pk, p.secret],
                                                         salt="polotrainer.clinics.participant")])
"""

SHOW = """
from polotrainer.clinics import control
result = [control.act(pk, "show").version for pk in IDS]
"""


class Database:
    def __init__(self) -> None:
        self.name = f"clinic_watch_{uuid.uuid4().hex[:8]}"
        with psycopg.connect(ADMIN, autocommit=True) as c:
            c.execute(f'CREATE DATABASE "{self.name}"')
        self.env = {
            **{k: v for k, v in os.environ.items() if k in {"PATH", "HOME", "LANG"}},
            "DEBUG": "0",
            "DEPLOY_PROFILE": "lan",
            "SECRET_KEY": "clinic-watch-benchmark-only",
            "ALLOWED_HOSTS": "127.0.0.1",
            "STATIC_MANIFEST": "0",
            "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{self.name}",
            "DJANGO_SETTINGS_MODULE": "polotrainer.settings",
            "PYTHONPATH": str(ROOT),
            "LOG_LEVEL": "ERROR",
        }
        self.manage("migrate", "-v0")
        self.manage("content", "load")

    def manage(self, *args: str) -> str:
        return subprocess.run(
            [PYTHON, "manage.py", *args],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            check=True,
        ).stdout

    def query(self, code: str) -> Any:
        out = self.manage("shell", "-c", code + "\nimport json; print(json.dumps(result))")
        return json.loads(out.strip().splitlines()[-1])

    def commits(self) -> int:
        with psycopg.connect(ADMIN, autocommit=True) as c:
            c.execute("SELECT pg_stat_clear_snapshot()")
            row = c.execute(
                "SELECT xact_commit FROM pg_stat_database WHERE datname = %s", [self.name]
            ).fetchone()
        return int(row[0]) if row else 0

    def drop(self) -> None:
        with psycopg.connect(ADMIN, autocommit=True) as c:
            c.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')


class Server:
    def __init__(self, database: Database, listen: bool) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        env = {
            **database.env,
            "BIND": f"127.0.0.1:{self.port}",
            "WEB_CONCURRENCY": "1",
            "CLINIC_LISTEN": "1" if listen else "0",
        }
        self.process = subprocess.Popen(
            [PYTHON, "scripts/serve.py"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL
        )
        for _ in range(400):
            try:
                urllib.request.urlopen(self.base + "/healthz", timeout=1).read()
                return
            except OSError:
                time.sleep(0.25)
        raise RuntimeError("the server did not start")

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=20)


async def measure(database: Database, listen: bool, clinics: int, seconds: float) -> str:
    made = database.query(f"N = {clinics}\n" + SETUP)
    servers = [Server(database, listen), Server(database, listen)]
    arrived: dict[tuple[int, int], dict[int, float]] = {}
    tasks = []

    async def stream(client: httpx.AsyncClient, k: int, pin: str, clinic: int) -> None:
        seen = arrived.setdefault((k, clinic), {})
        async with client.stream("GET", f"/en/play/{pin}/events/", timeout=None) as response:
            async for line in response.aiter_lines():
                if line.startswith("id: "):
                    seen.setdefault(int(line[4:]), time.monotonic())

    clients = []
    try:
        for k, running in enumerate(servers):
            for clinic, pin, cookie in made:
                client = httpx.AsyncClient(
                    base_url=running.base, cookies={f"clinic{clinic}": cookie}, timeout=60
                )
                clients.append(client)
                tasks.append(asyncio.create_task(stream(client, k, pin, clinic)))
        deadline = time.monotonic() + 60
        while sum(1 for v in arrived.values() if v) < 2 * clinics:
            if time.monotonic() > deadline:
                raise RuntimeError("not every stream opened")
            await asyncio.sleep(0.1)
        await asyncio.sleep(2)  # every watcher past its first reads
        before = await asyncio.to_thread(database.commits)
        began = time.monotonic()
        await asyncio.sleep(seconds)
        after = await asyncio.to_thread(database.commits)
        rate = (after - before - 2) / (time.monotonic() - began)
        versions = await asyncio.to_thread(
            database.query, f"IDS = {[c for c, _, _ in made]}\n" + SHOW
        )
        shown_at = time.monotonic()  # the shell's end: the last clinic shown
        want = {c: v for (c, _, _), v in zip(made, versions, strict=True)}
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if all(want[c] in seen for (_, c), seen in arrived.items()):
                break
            await asyncio.sleep(0.05)
        got = [seen[want[c]] for (_, c), seen in arrived.items() if want[c] in seen]
        slowest = max(0.0, max(got) - shown_at) if got else float("nan")
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for client in clients:
            await client.aclose()
        for running in servers:
            running.stop()
    mode = "LISTEN/NOTIFY" if listen else "poll 250 ms"
    return (
        f"{mode:14} {clinics} clinics x 2 processes: {rate:7.1f} transactions/s idle | "
        f"show delivered {len(got)}/{2 * clinics}, the last {slowest * 1000:.0f} ms after the "
        f"shell showing them ended | load {load_average()}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clinics", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20.0)
    options = parser.parse_args()
    print(f"load average {load_average()}", flush=True)
    database = Database()
    try:
        for listen in (False, True):
            line = asyncio.run(measure(database, listen, options.clinics, options.seconds))
            print(line, flush=True)
    finally:
        database.drop()


if __name__ == "__main__":
    main()
