"""Which server serves the site: candidates side by side, under wrk, in one run.

    .venv/bin/python benchmarks/servers.py [--db sqlite|postgres|both] [--seconds 10]
                                           [--rounds 2] [--connections 32] [--workers 2]
                                           [--candidates NAME,NAME,...] [--list]

On one fresh database (the bundled content loaded, umpires logged in, answers pre-issued),
every candidate is started the same way (DEBUG off, the LAN profile, WEB_CONCURRENCY workers
each), one at a time and in turn, round after round (A, B, C, A, B, C...), so that the
machine's noise falls on all of them alike. Each is loaded by wrk on each path: /healthz (one
SELECT 1), /bench/floor/ (the least a logged-in page does: the session and the user), the
practice question page, and the answer POST (htmx, CSRF, each a fresh variant's token). Each
figure is printed with the ratio to gunicorn's sync workers in the same round (median over
rounds) and against the floor the README holds the production server to: 0.8x of gunicorn
sync; and the server's CPU time per request (from /proc), which the machine's other jobs do not
change as they change the rates. Also: whether a clinic's event stream is live on the
candidate (its first event read, then a change pushed on the open connection after the
instructor's POST), and the resident memory of each candidate's processes after the load.

Needs wrk (the Debian package) and, for the candidates not in requirements.txt, their packages
(`--list` names them; a candidate whose server is not installed is skipped with a note).
"""

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.load import (
    BIN,
    CSRF,
    HOST,
    PYTHON,
    ROOT,
    Request,
    Wrk,
    cpu_seconds,
    env_for,
    free_port,
    load_average,
    rss_mb,
    wait_until_serving,
    write_requests,
)

#: The production server is held to this share of gunicorn sync's rate (README, Benchmarks).
FLOOR = 0.8
PATHS = ("healthz", "floor", "question", "answer")
#: Answers prepared per second of each answer run (more than any candidate sends here: a quiet
#: 2-core machine answered ~300 a second, 2026-12-04).
ANSWERS_PER_SECOND = 500


@dataclass(frozen=True)
class Candidate:
    name: str
    what: str
    argv: tuple[str, ...]  # {port} and {workers} are filled in
    env: dict[str, str] = field(default_factory=dict)
    needs: str = ""  # the module that must be importable

    def command(self, port: int, workers: int) -> list[str]:
        return [a.format(port=port, workers=workers, bin=BIN, python=PYTHON) for a in self.argv]

    def installed(self) -> bool:
        if not self.needs:
            return True
        found = subprocess.run([PYTHON, "-c", f"import {self.needs}"], capture_output=True)
        return found.returncode == 0


# Django's ASGI handler: a new thread per request for every sync view, no persistent connection.
DJANGO_ASGI = {"CONN_MAX_AGE": "0"}
DISPATCH = "polotrainer.asgi:application"  # streams on ASGI, pages on WSGI in a pool of threads


def uvicorn(loop: str, http: str, app: str) -> tuple[str, ...]:
    return (
        *("{bin}/uvicorn", "--host", HOST, "--port", "{port}", "--workers", "{workers}"),
        *("--log-level", "warning", "--no-access-log", "--no-proxy-headers"),
        *("--loop", loop, "--http", http, app),
    )


def granian(interface: str, app: str) -> tuple[str, ...]:
    return (
        *("{bin}/granian", "--interface", interface, "--host", HOST, "--port", "{port}"),
        *("--workers", "{workers}", "--no-ws", "--log-level", "warning", "--no-access-log", app),
    )


def gunicorn(app: str, *worker: str) -> tuple[str, ...]:
    return (
        *("{bin}/gunicorn", app, "-w", "{workers}", "-b", f"{HOST}:{{port}}", *worker),
        *("--log-level", "warning", "--config", "/dev/null"),
    )


def hypercorn(app: str) -> tuple[str, ...]:
    return (
        *("{bin}/hypercorn", "-w", "{workers}", "-k", "uvloop", "-b", f"{HOST}:{{port}}"),
        *("--log-level", "warning", app),
    )


CANDIDATES = [
    Candidate(
        "gunicorn",
        "gunicorn, sync workers, WSGI (the reference; streams fall back to polling)",
        gunicorn("benchmarks.wsgi"),
    ),
    Candidate(
        "production",
        "scripts/serve.py: README's production command, as it stands in this checkout",
        ("{python}", str(ROOT / "scripts" / "serve.py")),
    ),
    Candidate(
        "uvicorn-django",
        "uvicorn (asyncio, h11), Django's ASGI handler: README's server before issue 23",
        uvicorn("asyncio", "h11", "benchmarks.asgi:application"),
        DJANGO_ASGI,
    ),
    Candidate(
        "uvicorn-std-django",
        "uvicorn with uvloop and httptools, Django's ASGI handler",
        uvicorn("uvloop", "httptools", "benchmarks.asgi:application"),
        DJANGO_ASGI,
        "uvloop, httptools",
    ),
    Candidate(
        "gunicorn-uvicorn",
        "gunicorn with uvicorn workers (uvloop, httptools), Django's ASGI handler",
        gunicorn("benchmarks.asgi:application", "-k", "uvicorn.workers.UvicornWorker"),
        DJANGO_ASGI,
        "uvloop, httptools",
    ),
    Candidate(
        "hypercorn-django",
        "hypercorn (uvloop workers), Django's ASGI handler",
        hypercorn("benchmarks.asgi:application"),
        DJANGO_ASGI,
        "hypercorn, uvloop",
    ),
    Candidate(
        "granian-django",
        "granian (ASGI), Django's ASGI handler",
        granian("asgi", "benchmarks.asgi:application"),
        DJANGO_ASGI,
        "granian",
    ),
    Candidate(
        "granian-wsgi",
        "granian (WSGI), Django's WSGI handler (streams fall back to polling)",
        granian("wsgi", "benchmarks.wsgi:application"),
        {},
        "granian",
    ),
    Candidate(
        "uvicorn-dispatch",
        "uvicorn (asyncio, h11), polotrainer.asgi: streams on ASGI, pages on WSGI in a pool",
        uvicorn("asyncio", "h11", DISPATCH),
    ),
    Candidate(
        "uvicorn-std-dispatch",
        "uvicorn with uvloop and httptools, polotrainer.asgi (dispatch)",
        uvicorn("uvloop", "httptools", DISPATCH),
        {},
        "uvloop, httptools",
    ),
    Candidate(
        "hypercorn-dispatch",
        "hypercorn (uvloop workers), polotrainer.asgi (dispatch)",
        hypercorn(DISPATCH),
        {},
        "hypercorn, uvloop",
    ),
    Candidate(
        "granian-dispatch",
        "granian (ASGI), polotrainer.asgi (dispatch)",
        granian("asgi", DISPATCH),
        {},
        "granian",
    ),
]
DEFAULT = [c.name for c in CANDIDATES if c.name != "hypercorn-dispatch"]


# --- the child: one database, prepared ------------------------------------------------------------


def child(args: argparse.Namespace) -> None:
    import django

    django.setup()
    from benchmarks import load
    from scenarios.models import Scenario

    load.fresh_database()
    scenarios = list(Scenario.objects.live().order_by("slug"))
    folder = Path(args.folder)
    names = args.candidates.split(",")
    # Each (round, candidate) gets answers of its own, enough for the whole run: each a fresh
    # variant, the first of its umpire for its scenario in round 1, a later one after.
    per_run = args.seconds * ANSWERS_PER_SECOND
    per_candidate = -(-per_run // len(scenarios))
    cookies = load.umpires(per_candidate * len(names), "bench")
    seed = 1000
    for n, name in enumerate(names):
        mine = cookies[n * per_candidate : (n + 1) * per_candidate]
        for round_ in range(args.rounds):
            made = load.answers(mine, scenarios, seed)
            seed += len(made)
            write_requests(folder, f"answer-{name}-{round_}", made)
    pages = [
        Request("GET", f"/en/practice/{s.slug}/{seed + i}/", cookies[i % len(cookies)])
        for i, s in enumerate(scenarios * 4)
    ]
    write_requests(folder, "question", pages)
    floor = [Request("GET", "/bench/floor/", cookie) for cookie in cookies[:64]]
    write_requests(folder, "floor", floor)
    (folder / "clinics.json").write_text(json.dumps(_clinics(names, scenarios[:1])))


def _clinics(names: list[str], chosen: list) -> dict:
    """An instructor logged in, and for each candidate a clinic with one phone in its lobby."""
    from django.contrib.auth import get_user_model
    from django.core import signing
    from django.test import Client

    from polotrainer.clinics import sessions
    from polotrainer.clinics.models import Participant
    from polotrainer.umpires import roles

    instructor = get_user_model().objects.create_user("bench-instructor")
    roles.grant(instructor)
    client = Client()
    client.force_login(instructor)
    out: dict = {"instructor": f"sessionid={client.cookies['sessionid'].value}; csrftoken={CSRF}"}
    for name in names:
        source = sessions.Source("scenarios", scenarios=chosen)
        clinic = sessions.create(instructor, f"Bench {name}", source, rounds=1)
        phone = Participant.objects.create(
            session=clinic, nickname="phone", nickname_key="phone", secret="bench-secret"
        )
        rejoin = signing.dumps(
            [clinic.pk, phone.pk, phone.secret], salt="polotrainer.clinics.participant"
        )
        out[name] = {"id": clinic.pk, "pin": clinic.pin, "cookie": f"clinic{clinic.pk}={rejoin}"}
    return out


# --- the parent: servers, wrk, the table ----------------------------------------------------------


def stream_check(base: str, clinic: dict, instructor: str) -> str:
    """`live (0.3 s)`: the stream's first event came, then the shown round was pushed on the
    open connection; `once`: the first event, then the stream ended (WSGI's fallback)."""
    request = urllib.request.Request(
        f"{base}/en/play/{clinic['pin']}/events/",
        headers={"Accept": "text/event-stream", "Cookie": clinic["cookie"]},
    )
    try:
        with urllib.request.urlopen(request, timeout=15) as stream:
            if not stream.headers.get("Content-Type", "").startswith("text/event-stream"):
                return "no: not an event stream"
            first = _next_state(stream)
            if first is None:
                return "no: no first event"
            began = time.monotonic()
            _post(f"{base}/en/clinics/{clinic['id']}/control/", instructor, "action=show")
            pushed = _next_state(stream)
    except OSError as exc:
        return f"no: {exc}"
    if pushed is None:
        return "once (polling)"
    if pushed <= first:
        return "no: not pushed"
    return f"live ({time.monotonic() - began:.1f} s)"


def _next_state(stream) -> int | None:  # type: ignore[no-untyped-def]
    """The id of the next `state` event, or None if the stream ends first."""
    name, ident = "", 0
    for raw in stream:
        line = raw.decode().rstrip("\n")
        if not line and name == "state":
            return ident
        if not line:
            name, ident = "", 0
        elif line.startswith("event: "):
            name = line[7:]
        elif line.startswith("id: "):
            ident = int(line[4:])
    return None


def _post(url: str, cookie: str, body: str) -> None:
    request = urllib.request.Request(
        url,
        data=body.encode(),
        headers={
            "Cookie": cookie,
            "X-CSRFToken": CSRF,
            "Content-Type": "application/x-www-form-urlencoded",
        },
    )
    urllib.request.urlopen(request, timeout=15).read()


class Running:
    def __init__(self, candidate: Candidate, env: dict[str, str], workers: int, log: Path):
        self.candidate = candidate
        self.port = free_port()
        self.base = f"http://{HOST}:{self.port}"
        self.log = log
        env = env | candidate.env | {"BIND": f"{HOST}:{self.port}", "WEB_CONCURRENCY": str(workers)}
        self.process = subprocess.Popen(
            candidate.command(self.port, workers),
            env=env,
            cwd=ROOT,
            stdout=log.open("wb"),
            stderr=subprocess.STDOUT,
        )
        wait_until_serving(self.process, self.base)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def run_database(db: str, args: argparse.Namespace, chosen: list[Candidate]) -> None:
    tmp = Path(tempfile.mkdtemp(prefix=f"polotrainer-servers-{db}-"))
    env = env_for(db, tmp, "bench_servers")
    names = [c.name for c in chosen]
    subprocess.run(
        [
            *(PYTHON, __file__, "--child", "--folder", str(tmp), "--candidates", ",".join(names)),
            *("--seconds", str(args.seconds), "--rounds", str(args.rounds)),
        ],
        env=env,
        cwd=ROOT,
        check=True,
    )
    clinics = json.loads((tmp / "clinics.json").read_text())
    wrk = Wrk(tmp, connections=args.connections, seconds=args.seconds)
    began_load = load_average()
    results: dict[str, dict[str, list[dict]]] = {n: {p: [] for p in PATHS} for n in names}
    streams: dict[str, str] = {}
    rss: dict[str, float] = {}
    errors = dict.fromkeys(names, 0)
    # One candidate up at a time (each keeps up to ASGI_CONCURRENCY connections per worker:
    # all at once would exhaust PostgreSQL's 100), in turn: A, B, C, A, B, C...
    for round_ in range(args.rounds):
        for candidate in chosen:
            name = candidate.name
            log = tmp / f"{name}-{round_}.log"
            server = Running(candidate, env, args.workers, log)
            try:
                wrk.run(f"{server.base}/healthz", seconds=2)  # warm every worker
                wrk.run(f"{server.base}/", tmp / "question.tsv", seconds=2)
                for path in PATHS:
                    cpu = cpu_seconds(server.process.pid)
                    if path == "healthz":
                        result = wrk.run(f"{server.base}/healthz")
                    elif path == "answer":
                        result = wrk.run(f"{server.base}/", tmp / f"answer-{name}-{round_}.tsv")
                    else:
                        result = wrk.run(f"{server.base}/", tmp / f"{path}.tsv")
                    spent = cpu_seconds(server.process.pid) - cpu
                    result["cpu_ms"] = 1000 * spent / max(result.get("requests", 0), 1)
                    results[name][path].append(result)
                    print(
                        f"  round {round_ + 1} {path:8} {name:22} {result.get('rps', 0):8.1f} "
                        f"req/s  {result['cpu_ms']:6.2f} CPU ms/request  p99 {result.get('99%')}  "
                        f"non-2xx {result['non2xx']}  socket errors {result['errors']}",
                        file=sys.stderr,
                    )
                rss[name] = max(rss.get(name, 0.0), rss_mb(server.process.pid))
                if round_ == 0:
                    streams[name] = stream_check(server.base, clinics[name], clinics["instructor"])
            finally:
                server.stop()
            errors[name] += _errors(log)
    show(db, args, chosen, results, streams, rss, errors, began_load)
    if args.keep:
        print(f"\nthe servers' logs and the requests are left in {tmp}")
    else:
        shutil.rmtree(tmp, ignore_errors=True)


def _errors(log: Path) -> int:
    """Lines of the server's log that report an error (a traceback, ERROR, Exception)."""
    text = log.read_text(errors="replace")
    return sum(1 for line in text.splitlines() if "Traceback" in line or "ERROR" in line)


def _median(runs: list[dict], key: str) -> float:
    return statistics.median(r.get(key, 0.0) for r in runs)


def _ratio(runs: list[dict], reference: list[dict], key: str) -> float:
    """The median over rounds of each round's figure over gunicorn's in that round."""
    return statistics.median(
        r.get(key, 0.0) / max(g.get(key, 0.0), 1e-9) for r, g in zip(runs, reference, strict=True)
    )


def show(
    db: str,
    args: argparse.Namespace,
    chosen: list[Candidate],
    results: dict[str, dict[str, list[dict]]],
    streams: dict[str, str],
    rss: dict[str, float],
    errors: dict[str, int],
    began_load: str,
) -> None:
    print(
        f"\n== {db}: {args.workers} workers each, wrk 2 threads x {args.connections} "
        f"connections, {args.seconds} s per run, {args.rounds} rounds interleaved; "
        f"load average {began_load} before, {load_average()} after"
    )
    reference = results["gunicorn"]
    print("\nreq/s, median of the rounds (x gunicorn sync: median of the rounds' ratios):\n")
    heading = " | ".join(PATHS)
    print(
        f"| candidate | {heading} | event stream | RSS MB | non-2xx | socket errors | log errors |"
    )
    print("|---" * (len(PATHS) + 6) + "|")
    for candidate in chosen:
        name = candidate.name
        cells = []
        for path in PATHS:
            runs = results[name][path]
            wrapped = path == "answer" and any(r.get("sent", 0) > r["prepared"] for r in runs)
            cells.append(
                f"{_median(runs, 'rps'):,.0f} ({_ratio(runs, reference[path], 'rps'):.2f}x)"
                + (" wrapped" if wrapped else "")
            )
        non2xx = sum(r["non2xx"] for p in PATHS for r in results[name][p])
        socket = sum(r["errors"] for p in PATHS for r in results[name][p])
        print(
            f"| {name} | {' | '.join(cells)} | {streams[name]} | {rss[name]:.0f} | {non2xx} "
            f"| {socket} | {errors[name]} |"
        )
    print(
        "\nserver CPU ms per request, median of the rounds (x gunicorn sync; lower is cheaper; "
        "what each request costs whatever share of the cores the machine left the server):\n"
    )
    print(f"| candidate | {heading} |\n" + "|---" * (len(PATHS) + 1) + "|")
    for candidate in chosen:
        mine = results[candidate.name]
        cells = [
            f"{_median(mine[p], 'cpu_ms'):.2f} ({_ratio(mine[p], reference[p], 'cpu_ms'):.2f}x)"
            for p in PATHS
        ]
        print(f"| {candidate.name} | {' | '.join(cells)} |")
    print()
    for candidate in chosen:
        print(f"  {candidate.name}: {candidate.what}")
    if "production" not in results:
        return
    print(f"\nproduction (scripts/serve.py) against its floor, {FLOOR}x gunicorn sync's rate:")
    for path in PATHS:
        runs, ref = results["production"][path], reference[path]
        rate, ratio = _median(runs, "rps"), _ratio(runs, ref, "rps")
        floor = FLOOR * _median(ref, "rps")
        # Requests per CPU second against gunicorn's: the same goal, free of the machine's noise.
        per_cpu = 1 / max(_ratio(runs, ref, "cpu_ms"), 1e-9)
        print(
            f"  {path:8} {rate:8.1f} req/s   floor {floor:8.1f}   ratio {ratio:.2f}x "
            f"{'met' if ratio >= FLOOR else 'NOT met':7}   requests per CPU second "
            f"{per_cpu:.2f}x gunicorn's {'met' if per_cpu >= FLOOR else 'NOT met'}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", choices=["sqlite", "postgres", "both"], default="sqlite")
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--candidates", default=",".join(DEFAULT))
    parser.add_argument("--list", action="store_true", help="name the candidates and stop")
    parser.add_argument("--keep", action="store_true", help="keep the servers' logs")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--folder", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args)
        return
    by_name = {c.name: c for c in CANDIDATES}
    if args.list:
        for c in CANDIDATES:
            needs = f" (needs {c.needs})" if c.needs else ""
            print(f"{c.name:22} {c.what}{needs}")
        return
    if not shutil.which("wrk"):
        raise SystemExit("wrk is needed: apt-get install wrk")
    wanted = ["gunicorn", *(n for n in args.candidates.split(",") if n and n != "gunicorn")]
    unknown = [n for n in wanted if n not in by_name]
    if unknown:
        raise SystemExit(f"unknown candidates {unknown}: see --list")
    chosen = []
    for name in wanted:
        if by_name[name].installed():
            chosen.append(by_name[name])
        else:
            print(f"skipped {name}: needs {by_name[name].needs}", file=sys.stderr)
    for db in ("sqlite", "postgres") if args.db == "both" else (args.db,):
        run_database(db, args, chosen)


if __name__ == "__main__":
    main()
