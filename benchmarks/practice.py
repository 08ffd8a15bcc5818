"""The answer path against /healthz: in one process, and under wrk against a real server.

    .venv/bin/python benchmarks/practice.py [--db sqlite|postgres|both] [--server gunicorn|uvicorn]
                                            [--seconds 10] [--connections 32] [--workers 2]

For each database, on a fresh database with the bundled content loaded:

1. In process, through Django's WSGI handler, interleaved in one loop so that the machine's
   noise hits every kind alike: `/healthz` (one SELECT 1), a trivial view that loads the session
   and the user (the floor of any logged-in page), the practice question page (GET), and the
   answer (POST, htmx): a logged-in umpire answering a scenario for the first time, so the
   progress row is created. Every request is a fresh variant (a seed never seen), so no cache
   helps the answer. Prints medians and the ratios to /healthz and to the floor.
2. Query counts of the question page and the answer, with 10 and with 100,000 earlier answers.
3. The server started as README says (gunicorn, or uvicorn for the ASGI topology) with N workers,
   loaded by wrk (the Debian package) at C connections: /healthz, the floor, then the answer POST
   driven by a Lua script that sends pre-issued tokens, each one a first answer. Prints req/s,
   latency percentiles, and the ratios, from the same run.
"""

import argparse
import cProfile
import json
import os
import pstats
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
HOST = "127.0.0.1"
CSRF = "b" * 32  # a CSRF secret: sent as cookie and header, as a browser's htmx does
ANSWERERS = 60  # users; each answers every scenario once, so every POST is a first answer


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def env_for(db: str, tmp: Path) -> dict[str, str]:
    if db == "sqlite":
        url = f"sqlite:///{tmp}/bench.sqlite3"
    else:
        url = "postgres://postgres@127.0.0.1:5432/bench_practice"
    return {
        **os.environ,
        "DEBUG": "0",
        "DEPLOY_PROFILE": "lan",  # plain HTTP on 127.0.0.1, as a club laptop serves
        "SECRET_KEY": "benchmark-only-not-a-secret",
        "ALLOWED_HOSTS": HOST,
        "DATABASE_URL": url,
        "STATIC_MANIFEST": "0",
        "DJANGO_SETTINGS_MODULE": "benchmarks.settings",
        "PYTHONPATH": str(ROOT),
        "LOG_LEVEL": "ERROR",
    }


# --- the child: one database, in process -------------------------------------------------------


def child(args: argparse.Namespace) -> None:
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    if connection.vendor == "postgresql":
        _recreate_postgres(connection.settings_dict["NAME"])
    call_command("migrate", verbosity=0)
    call_command("content", "load", verbosity=0)
    data = _prepare(args)
    results: dict[str, object] = {"vendor": connection.vendor}
    results["in_process"] = _in_process(data, args)
    results["queries"] = _query_counts(data)
    Path(args.out).write_text(json.dumps(results))
    # The requests the server run will send, as lines for the Lua script.
    Path(args.requests_file).write_text(
        "\n".join("\t".join((r["path"], r["body"], r["cookie"])) for r in data["server_answers"])
    )
    Path(args.floor_cookie).write_text(data["server_answers"][0]["cookie"])


def _recreate_postgres(name: str) -> None:
    import psycopg

    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as c:
        c.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        c.execute(f'CREATE DATABASE "{name}"')
    from django.db import connection

    connection.close()


def _prepare(args: argparse.Namespace) -> dict:
    """Users with sessions, and for each (user, scenario) a pre-issued question to answer."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    from polotrainer.practice import tokens
    from scenarios import quiz
    from scenarios.models import Scenario

    user_model = get_user_model()
    scenarios = list(Scenario.objects.live().order_by("slug"))
    cookies = []
    for n in range(ANSWERERS):
        user = user_model.objects.create_user(f"bench{n}", password=None)
        client = Client()
        client.force_login(user)
        cookies.append(f"sessionid={client.cookies['sessionid'].value}; csrftoken={CSRF}")
    answers = []
    seed = 1000
    for user_index, cookie in enumerate(cookies):
        for scenario in scenarios:
            seed += 1
            posed = quiz.pose(scenario, seed, "en")
            form = _right_form(posed)
            form["token"] = tokens.issue(
                scenario.slug, seed, [q.id for q in posed.questions], "practice"
            )
            answers.append(
                {
                    "path": f"/en/practice/{scenario.slug}/{seed}/answer/",
                    "body": _encode(form),
                    "cookie": cookie,
                    "user": user_index,
                }
            )
    # In process: the first users' answers; the server gets the others (all first answers).
    split = len(scenarios) * 10
    return {
        "cookies": cookies,
        "scenarios": [s.slug for s in scenarios],
        "in_process_answers": answers[:split],
        "server_answers": answers[split:],
        "next_seed": seed + 1,
    }


def _right_form(posed) -> dict[str, object]:
    from scenarios import diagram

    form: dict[str, object] = {}
    for q in posed.questions:
        right = q.source.right_answer(posed.variant.ruling)
        if q.type == "place":
            half_length = diagram.bounds(posed.variant.facts)[0]
            form[f"{q.name}-along"] = str(right["x"] + half_length)
            form[f"{q.name}-across"] = str(right["y"])
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


def _encode(form: dict[str, object]) -> str:
    from urllib.parse import urlencode

    return urlencode(form, doseq=True)


def _environ(method: str, path: str, cookie: str = "", body: str = "", htmx: bool = False):
    import io

    raw = body.encode()
    environ = {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "QUERY_STRING": "",
        "SERVER_NAME": HOST,
        "SERVER_PORT": "80",
        "HTTP_HOST": HOST,
        "SERVER_PROTOCOL": "HTTP/1.1",
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(raw),
        "wsgi.errors": sys.stderr,
        "wsgi.version": (1, 0),
        "wsgi.multithread": False,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
        "HTTP_ACCEPT_ENCODING": "gzip",
    }
    if cookie:
        environ["HTTP_COOKIE"] = cookie
    if method == "POST":
        environ["CONTENT_TYPE"] = "application/x-www-form-urlencoded"
        environ["CONTENT_LENGTH"] = str(len(raw))
        environ["HTTP_X_CSRFTOKEN"] = CSRF
    if htmx:
        environ["HTTP_HX_REQUEST"] = "true"
        environ["HTTP_HX_TARGET"] = "feedback"
    return environ


def _call(handler, environ) -> str:
    status: list[str] = []

    def start_response(s, headers, exc_info=None):
        status.append(s)

    body = handler(environ, start_response)
    for _chunk in body:
        pass
    if hasattr(body, "close"):
        body.close()
    return status[0]


def _in_process(data: dict, args: argparse.Namespace) -> dict:
    from django.core.handlers.wsgi import WSGIHandler

    handler = WSGIHandler()
    cookie = data["cookies"][0]
    slugs = data["scenarios"]
    seed = data["next_seed"]
    samples: dict[str, list[float]] = {"healthz": [], "floor": [], "question": [], "answer": []}
    answers = data["in_process_answers"]
    # Warm up every path once (imports, template loading), answering with a spare question.
    for _kind, environ in _round(cookie, slugs[0], seed, answers[0]):
        _call(handler, environ)
    profiler = cProfile.Profile() if args.profile else None
    for i, answer in enumerate(answers[1:]):
        seed += 1
        for kind, environ in _round(cookie, slugs[i % len(slugs)], seed, answer):
            if profiler and kind == "answer":
                profiler.enable()
            began = time.perf_counter()
            status = _call(handler, environ)
            samples[kind].append(time.perf_counter() - began)
            if profiler and kind == "answer":
                profiler.disable()
            assert status.startswith("200"), (kind, status)
    if profiler:
        pstats.Stats(profiler, stream=sys.stderr).sort_stats("cumulative").print_stats(40)
    medians = {k: statistics.median(v) * 1000 for k, v in samples.items()}
    return {
        "n": len(samples["answer"]),
        "median_ms": medians,
        "mean_ms": {k: statistics.fmean(v) * 1000 for k, v in samples.items()},
    }


def _round(cookie: str, slug: str, seed: int, answer: dict):
    yield "healthz", _environ("GET", "/healthz")
    yield "floor", _environ("GET", "/bench/floor/", answer["cookie"])
    yield "question", _environ("GET", f"/en/practice/{slug}/{seed}/", cookie)
    yield "answer", _environ("POST", answer["path"], answer["cookie"], answer["body"], htmx=True)


def _query_counts(data: dict) -> dict:
    """Queries of the question page and of an answer, with 10 and 100,000 earlier answers."""
    from django.contrib.auth import get_user_model
    from django.core.handlers.wsgi import WSGIHandler
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from polotrainer.practice import tokens
    from polotrainer.umpires.models import Attempt
    from polotrainer.umpires.progress import rebuild
    from scenarios import quiz
    from scenarios.models import Scenario

    handler = WSGIHandler()
    scenarios = list(Scenario.objects.live().order_by("slug"))
    out = {}
    for history in (10, 100_000):
        user = get_user_model().objects.create_user(f"history{history}")
        client = Client()
        client.force_login(user)
        cookie = f"sessionid={client.cookies['sessionid'].value}; csrftoken={CSRF}"
        Attempt.objects.bulk_create(
            (
                Attempt(
                    user=user,
                    scenario=scenarios[n % len(scenarios)],
                    seed=n + 1,
                    question="q",
                    answer="a",
                    right_answer="a",
                    correct=n % 3 > 0,
                    nonce=f"h{history}-{n}",
                )
                for n in range(history)
            ),
            batch_size=5000,
        )
        rebuild(user.pk)
        target = scenarios[-1]
        seed = 999_999
        posed = quiz.pose(target, seed, "en")
        form = _right_form(posed)
        form["token"] = tokens.issue(target.slug, seed, [q.id for q in posed.questions], "practice")
        path = f"/en/practice/{target.slug}/{seed}/"
        counts = {}
        for kind, environ in (
            ("question", _environ("GET", path, cookie)),
            ("answer", _environ("POST", path + "answer/", cookie, _encode(form), htmx=True)),
        ):
            with CaptureQueriesContext(connection) as ctx:
                _call(handler, environ)
            data_queries = [
                q["sql"]
                for q in ctx.captured_queries
                if not q["sql"].startswith(("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE"))
            ]
            counts[kind] = len(data_queries)
        out[str(history)] = counts
    return out


# --- the parent: servers and wrk ---------------------------------------------------------------


LUA = """
-- Each wrk thread sends its own share of the pre-issued answers, each once, in turn.
local lines = {}
local counter = 0
local threads = {}
function setup(thread)
  thread:set("id", #threads)
  table.insert(threads, thread)
end
function init(args)
  local n = 0
  for line in io.lines(os.getenv("ANSWERS_FILE")) do
    if n % tonumber(os.getenv("WRK_THREADS")) == id then table.insert(lines, line) end
    n = n + 1
  end
end
function request()
  counter = counter + 1
  local line = lines[((counter - 1) % #lines) + 1]
  local path, body, cookie = line:match("([^\\t]*)\\t([^\\t]*)\\t([^\\t]*)")
  return wrk.format("POST", path, {
    ["Content-Type"] = "application/x-www-form-urlencoded",
    ["Cookie"] = cookie,
    ["X-CSRFToken"] = "CSRF",
    ["HX-Request"] = "true",
    ["HX-Target"] = "feedback",
  }, body)
end
function done(summary, latency, requests)
  -- done() runs in wrk's main state, where init() never ran: the parent counts the file.
  io.write(string.format("RESULT %d %d\\n", summary.requests, summary.errors.status))
end
"""


def start_server(kind: str, env: dict[str, str], port: int, workers: int) -> subprocess.Popen:
    bin_dir = Path(PYTHON).parent
    if kind == "gunicorn":
        command = [
            str(bin_dir / "gunicorn"),
            "benchmarks.wsgi",
            "-w",
            str(workers),
            "-b",
            f"{HOST}:{port}",
            "--log-level",
            "warning",
        ]
    else:
        command = [
            str(bin_dir / "uvicorn"),
            "benchmarks.asgi:application",
            "--workers",
            str(workers),
            "--host",
            HOST,
            "--port",
            str(port),
            "--log-level",
            "warning",
            "--no-access-log",
        ]
    server = subprocess.Popen(command, env=env, cwd=ROOT)
    for _ in range(200):
        try:
            urllib.request.urlopen(f"http://{HOST}:{port}/healthz", timeout=1).read()
            return server
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit("the server did not start")


def wrk(url: str, args: argparse.Namespace, *extra: str, env=None) -> dict:
    out = subprocess.run(
        [
            "wrk",
            "-t",
            "2",
            "-c",
            str(args.connections),
            "-d",
            f"{args.seconds}s",
            "--latency",
            *extra,
            url,
        ],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    ).stdout
    result: dict = {"raw": out}
    for line in out.splitlines():
        parts = line.split()
        if line.startswith("Requests/sec:"):
            result["rps"] = float(parts[1])
        elif parts and parts[0] in {"50%", "90%", "99%"}:
            result[parts[0]] = parts[1]
        elif line.startswith("RESULT"):
            result["sent"], result["bad_status"] = map(int, parts[1:3])
            answers_file = env.get("ANSWERS_FILE")
            if answers_file:
                result["prepared"] = len(Path(answers_file).read_text().splitlines())
        elif "Non-2xx or 3xx responses" in line:
            result["non2xx"] = int(parts[-1])
    return result


def run_database(db: str, args: argparse.Namespace) -> None:
    tmp = Path(tempfile.mkdtemp(prefix=f"polotrainer-bench-{db}-"))
    env = env_for(db, tmp)
    out, requests_file, floor_cookie = tmp / "child.json", tmp / "answers.tsv", tmp / "cookie"
    subprocess.run(
        [
            PYTHON,
            __file__,
            "--child",
            "--out",
            str(out),
            "--requests-file",
            str(requests_file),
            "--floor-cookie",
            str(floor_cookie),
            *(["--profile"] if args.profile else []),
        ],
        env=env,
        cwd=ROOT,
        check=True,
    )
    results = json.loads(out.read_text())
    ip = results["in_process"]
    med = ip["median_ms"]
    print(f"\n== {db} ({results['vendor']})")
    print(f"in process, WSGI handler, {ip['n']} interleaved rounds, median ms:")
    for kind in ("healthz", "floor", "question", "answer"):
        print(f"  {kind:9} {med[kind]:7.2f} ms")
    print(
        f"  answer / healthz: {med['healthz'] / med['answer']:.2f}x   "
        f"answer / floor: {med['floor'] / med['answer']:.2f}x   "
        f"question / healthz: {med['healthz'] / med['question']:.2f}x   "
        f"question / floor: {med['floor'] / med['question']:.2f}x"
    )
    q = results["queries"]
    print(
        "queries (question page, answer): "
        + ", ".join(f"{h} earlier answers: {c['question']}, {c['answer']}" for h, c in q.items())
    )
    port = free_port()
    server = start_server(args.server, env, port, args.workers)
    base = f"http://{HOST}:{port}"
    try:
        script = tmp / "answers.lua"
        script.write_text(LUA.replace('"CSRF"', f'"{CSRF}"'))
        wrk_env = {**os.environ, "ANSWERS_FILE": str(requests_file), "WRK_THREADS": "2"}
        floor_script = tmp / "floor.lua"
        floor_script.write_text(f'wrk.headers["Cookie"] = "{floor_cookie.read_text()}"\n')
        # Warm both workers.
        wrk(f"{base}/healthz", argparse.Namespace(connections=4, seconds=2))
        health = wrk(f"{base}/healthz", args)
        floor = wrk(f"{base}/bench/floor/", args, "-s", str(floor_script))
        answer = wrk(f"{base}/", args, "-s", str(script), env=wrk_env)
    finally:
        server.terminate()
        server.wait(timeout=20)
    print(
        f"{args.server}, {args.workers} workers, wrk 2 threads x {args.connections} connections, "
        f"{args.seconds} s each:"
    )
    for name, r in (("healthz", health), ("floor", floor), ("answer", answer)):
        print(
            f"  {name:9} {r['rps']:8.1f} req/s   p50 {r.get('50%')}   p90 {r.get('90%')}   "
            f"p99 {r.get('99%')}   non-2xx {r.get('non2xx', 0)}"
        )
    if answer.get("sent", 0) > answer.get("prepared", 1):
        print(f"  note: {answer['sent']} answers sent, only {answer['prepared']} prepared")
    print(
        f"  answer / healthz: {answer['rps'] / health['rps']:.2f}x   "
        f"answer / floor: {answer['rps'] / floor['rps']:.2f}x"
    )
    shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", choices=["sqlite", "postgres", "both"], default="both")
    parser.add_argument("--server", choices=["gunicorn", "uvicorn"], default="gunicorn")
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--profile", action="store_true", help="print where the in-process answers spend time"
    )
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    parser.add_argument("--requests-file", help=argparse.SUPPRESS)
    parser.add_argument("--floor-cookie", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args)
        return
    if not shutil.which("wrk"):
        raise SystemExit("wrk is needed: apt-get install wrk")
    for db in ("sqlite", "postgres") if args.db == "both" else (args.db,):
        run_database(db, args)


if __name__ == "__main__":
    main()
