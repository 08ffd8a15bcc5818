"""What the benchmarks that load a real server share: the environment of a benchmark database,
logged-in umpires and their pre-issued answers, the servers they start, and wrk.

benchmarks/practice.py and benchmarks/servers.py import it; nothing here is timed itself.
"""

import io
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
BIN = Path(PYTHON).parent
HOST = "127.0.0.1"
CSRF = "b" * 32  # a CSRF secret: sent as cookie and header, as a browser's htmx does


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def env_for(db: str, tmp: Path, postgres_name: str) -> dict[str, str]:
    """A production environment (DEBUG off, the LAN profile: plain HTTP on 127.0.0.1, as a club
    laptop serves) on the benchmark's database, with /bench/floor/ (benchmarks/urls.py)."""
    if db == "sqlite":
        url = f"sqlite:///{tmp}/bench.sqlite3"
    else:
        # The server DATABASE_URL names, if it names a PostgreSQL one; the database is the
        # benchmark's own (made afresh), never the one DATABASE_URL names.
        given = urlsplit(os.environ.get("DATABASE_URL", ""))
        server = given.netloc if given.scheme.startswith("postgres") else "postgres@127.0.0.1:5432"
        url = f"postgres://{server}/{postgres_name}"
    return {
        **os.environ,
        "DEBUG": "0",
        "DEPLOY_PROFILE": "lan",
        "SECRET_KEY": "benchmark-only-not-a-secret",
        "ALLOWED_HOSTS": HOST,
        "DATABASE_URL": url,
        "STATIC_MANIFEST": "0",
        "DJANGO_SETTINGS_MODULE": "benchmarks.settings",
        "PYTHONPATH": str(ROOT),
        "LOG_LEVEL": "ERROR",
    }


# --- in the child, with Django set up -------------------------------------------------------------


def fresh_database() -> None:
    """Migrate the benchmark's database (recreated first on PostgreSQL) and load the content."""
    from django.core.management import call_command
    from django.db import connection

    if connection.vendor == "postgresql":
        import psycopg

        settings = connection.settings_dict
        name = settings["NAME"]
        connection.close()
        server = {
            "host": settings["HOST"] or "127.0.0.1",
            "port": settings["PORT"] or 5432,
            "user": settings["USER"] or "postgres",
            "password": settings["PASSWORD"] or None,
        }
        with psycopg.connect(dbname="postgres", autocommit=True, **server) as c:
            c.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            c.execute(f'CREATE DATABASE "{name}"')
    call_command("migrate", verbosity=0)
    call_command("content", "load", verbosity=0, stdout=io.StringIO())


def umpires(count: int, prefix: str) -> list[str]:
    """`count` umpires logged in: the Cookie header of each one's session."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    cookies = []
    for n in range(count):
        user = get_user_model().objects.create_user(f"{prefix}{n}", password=None)
        client = Client()
        client.force_login(user)
        cookies.append(f"sessionid={client.cookies['sessionid'].value}; csrftoken={CSRF}")
    return cookies


def answers(cookies: Sequence[str], scenarios: Sequence[Any], seed: int) -> list["Request"]:
    """Each umpire's answer (all right) to a fresh variant of each scenario, seeds from `seed`:
    each a first answer of that umpire to that scenario if none was given before."""
    from polotrainer.practice import tokens
    from scenarios import quiz

    out = []
    for cookie in cookies:
        for scenario in scenarios:
            seed += 1
            posed = quiz.pose(scenario, seed, "en")
            form = right_form(posed)
            form["token"] = tokens.issue(
                scenario.slug, seed, [q.id for q in posed.questions], "practice"
            )
            out.append(
                Request(
                    "POST", f"/en/practice/{scenario.slug}/{seed}/answer/", cookie, encode(form)
                )
            )
    return out


def right_form(posed: Any) -> dict[str, object]:
    """The answer form of a posed question, every answer right, as the page would send it."""
    from scenarios import quiz

    form: dict[str, object] = {}
    for q in posed.questions:
        right = q.source.right_answer(posed.variant.ruling)
        if q.type == "place":
            along, across = quiz.form_values(posed, q, right)
            form[f"{q.name}-along"], form[f"{q.name}-across"] = along, across
        elif q.type == "bool":
            form[q.name] = "true" if right else "false"
        elif q.type in {"multi", "players"}:
            form[q.name] = list(right)
        elif q.type == "order":
            place = {step: n for n, step in enumerate(right, start=1)}
            for option in q.options:
                form[f"{q.name}-{option.value}"] = str(place[option.value])
        else:
            form[q.name] = str(right)
    return form


def encode(form: dict[str, object]) -> str:
    return urlencode(form, doseq=True)


# --- requests, as wrk sends them ------------------------------------------------------------------


class Request:
    """One request wrk sends: a method, a path, the session's Cookie header, a form body."""

    def __init__(self, method: str, path: str, cookie: str = "", body: str = "") -> None:
        self.method, self.path, self.cookie, self.body = method, path, cookie, body

    def line(self) -> str:
        return "\t".join((self.method, self.path, self.body, self.cookie))

    @classmethod
    def parse(cls, line: str) -> "Request":
        method, path, body, cookie = line.split("\t")
        return cls(method, path, cookie, body)


#: wrk's script: each thread sends its own share of the requests in REQUESTS_FILE, each once,
#: in turn (a POST as htmx sends it: CSRF header, HX-Request, HX-Target). Wraps around when
#: the file runs out; the parent counts the lines and says so.
LUA = """
local lines = {}
local counter = 0
local threads = {}
function setup(thread)
  thread:set("id", #threads)
  table.insert(threads, thread)
end
function init(args)
  local n = 0
  for line in io.lines(os.getenv("REQUESTS_FILE")) do
    if n % tonumber(os.getenv("WRK_THREADS")) == id then table.insert(lines, line) end
    n = n + 1
  end
end
function request()
  counter = counter + 1
  local line = lines[((counter - 1) % #lines) + 1]
  local method, path, body, cookie = line:match("([^\\t]*)\\t([^\\t]*)\\t([^\\t]*)\\t([^\\t]*)")
  local headers = {["Cookie"] = cookie}
  if method == "POST" then
    headers["Content-Type"] = "application/x-www-form-urlencoded"
    headers["X-CSRFToken"] = "CSRF"
    headers["HX-Request"] = "true"
    headers["HX-Target"] = "feedback"
  else
    body = nil
  end
  return wrk.format(method, path, headers, body)
end
function done(summary, latency, requests)
  io.write(string.format("RESULT %d %d\\n", summary.requests, summary.errors.status))
end
"""


def write_requests(folder: Path, name: str, requests: Iterable[Request]) -> Path:
    path = folder / f"{name}.tsv"
    path.write_text("\n".join(r.line() for r in requests) + "\n")
    return path


class Wrk:
    """wrk with `threads` threads and `connections` connections for `seconds` each run."""

    def __init__(self, folder: Path, threads: int = 2, connections: int = 32, seconds: int = 10):
        self.threads, self.connections, self.seconds = threads, connections, seconds
        self.script = folder / "requests.lua"
        self.script.write_text(LUA.replace('"CSRF"', f'"{CSRF}"'))

    def run(self, base: str, requests: Path | None = None, seconds: int | None = None) -> dict:
        """Load `base` (one URL), or send the requests in the file `requests` against it: req/s,
        latency percentiles, non-2xx/3xx responses, and how many were sent and prepared."""
        extra: list[str] = []
        env = dict(os.environ)
        if requests is not None:
            extra = ["-s", str(self.script)]
            env |= {"REQUESTS_FILE": str(requests), "WRK_THREADS": str(self.threads)}
        out = subprocess.run(
            [
                "wrk",
                "-t",
                str(self.threads),
                "-c",
                str(self.connections),
                "-d",
                f"{seconds or self.seconds}s",
                "--latency",
                "--timeout",
                "10s",  # a slow answer is counted, not dropped as an error
                *extra,
                base,
            ],
            capture_output=True,
            text=True,
            env=env,
            check=True,
        ).stdout
        result: dict[str, Any] = {"raw": out, "non2xx": 0, "errors": 0}
        for line in out.splitlines():
            parts = line.split()
            if "requests in" in line:
                result["requests"] = int(parts[0])
            elif line.startswith("Requests/sec:"):
                result["rps"] = float(parts[1])
            elif parts and parts[0] in {"50%", "90%", "99%"}:
                result[parts[0]] = parts[1]
            elif line.startswith("RESULT"):
                result["sent"] = int(parts[1])
                assert requests is not None
                result["prepared"] = len(requests.read_text().splitlines())
            elif "Non-2xx or 3xx responses" in line:
                result["non2xx"] = int(parts[-1])
            elif line.strip().startswith("Socket errors"):
                result["errors"] = sum(map(int, re.findall(r"\d+", line)))
        return result


# --- servers --------------------------------------------------------------------------------------


def wait_until_serving(process: subprocess.Popen, base: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"the server stopped (exit {process.returncode}): {process.args}")
        try:
            urllib.request.urlopen(f"{base}/healthz", timeout=2).read()
            return
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise SystemExit(f"the server did not start: {process.args}")


def tree(pid: int) -> list[int]:
    """A process and all its descendants (Linux /proc)."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        todo += children.get(current, [])
    return found


def rss_mb(pid: int) -> float:
    """Resident memory of a process and its descendants, in MB: each process's RSS summed, so
    the pages they share (the interpreter, its libraries) count once per process."""
    return _memory_kb(pid, "status", r"VmRSS:\s+(\d+) kB") / 1024


def pss_mb(pid: int) -> float:
    """The memory a process and its descendants take together, in MB: each one's proportional
    set size (a page shared by N processes counts 1/N in each), what the machine gives them."""
    return _memory_kb(pid, "smaps_rollup", r"\nPss:\s+(\d+) kB") / 1024


def _memory_kb(pid: int, name: str, pattern: str) -> int:
    total = 0
    for current in tree(pid):
        try:
            text = Path(f"/proc/{current}/{name}").read_text()
        except OSError:
            continue
        found = re.search(pattern, text)
        total += int(found.group(1)) if found else 0
    return total


CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """CPU time (user and system) used so far by a process and its live descendants: what a
    server spent, whatever share of the cores the machine's other jobs left it."""
    total = 0
    for current in tree(pid):
        try:
            fields = Path(f"/proc/{current}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15)
    return total / CLOCK_TICKS


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])
