"""The answer path against /healthz: in one process, and under wrk against a real server.

    .venv/bin/python benchmarks/practice.py [--db sqlite|postgres|both] [--server gunicorn]
                                            [--seconds 10] [--connections 32] [--workers 2]
                                            [--in-process] [--rounds 250] [--profile KIND]

`--in-process` stops after parts 1 and 2 (no server, no wrk). PostgreSQL is the server of
DATABASE_URL when it names one (its database `bench_practice` is made afresh), else
127.0.0.1:5432.

For each database, on a fresh database with the bundled content loaded:

1. In process, through Django's WSGI handler, interleaved in one loop so that the machine's
   noise hits every kind alike: `/healthz` (one SELECT 1), a trivial view that loads the session
   and the user (the floor of any logged-in page), the practice question page (GET) of a fresh
   variant (a seed never seen), its answer (POST, htmx) as a trainee sends it after reading that
   page, and a cold answer: a POST for a variant this process never posed (a token kept from
   another process, a restarted worker). Every answer is the umpire's first to its scenario, so
   the progress row is created. Prints medians and the ratios to /healthz and to the floor, with
   the goal of issue 23 (question and answer <= 2x the floor): of the wall time, and of this
   process's CPU time, which other jobs on the machine do not inflate (on PostgreSQL it leaves
   out the database server's own work).
2. Query counts of the question page and the answer, with 10 and with 100,000 earlier answers
   (budget: 8 each).
3. A server (gunicorn's sync workers, or `production`: scripts/serve.py, or any candidate of
   benchmarks/servers.py) with N workers, loaded by wrk (the Debian package) at C connections:
   /healthz, the floor, then the answer POST driven by a Lua script that sends pre-issued
   tokens, each one a first answer. Prints req/s, latency percentiles, and the ratios, from the
   same run. benchmarks/servers.py compares the servers side by side.
"""

import argparse
import cProfile
import json
import pstats
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import load
from benchmarks.load import CSRF, HOST, PYTHON, ROOT, Request, Wrk
from benchmarks.servers import CANDIDATES, Running

ANSWERERS = 60  # users; each answers every scenario once, so every POST is a first answer


# --- the child: one database, in process -------------------------------------------------------


def child(args: argparse.Namespace) -> None:
    import django

    django.setup()
    from django.db import connection

    load.fresh_database()
    data = _prepare(args)
    results: dict[str, object] = {"vendor": connection.vendor}
    results["in_process"] = _in_process(data, args)
    results["queries"] = _query_counts(data)
    Path(args.out).write_text(json.dumps(results))
    if args.in_process:
        return
    # The requests the server run will send, for wrk's script.
    load.write_requests(Path(args.folder), "answers", data["server_answers"])
    # One line per umpire: each of wrk's threads takes its share of the lines.
    floor = [Request("GET", "/bench/floor/", cookie) for cookie in data["cookies"][:8]]
    load.write_requests(Path(args.folder), "floor", floor)


def _prepare(args: argparse.Namespace) -> dict:
    """Users with sessions; the in-process rounds' cold answers (pre-issued, then forgotten by
    the quiz core's caches); for the server, each (user, scenario) a pre-issued answer."""
    from scenarios.models import Scenario

    scenarios = list(Scenario.objects.live().order_by("slug"))
    cookies = load.umpires(ANSWERERS, "bench")
    # In process, pass after pass over every scenario, the first one a warm-up: in each pass
    # one umpire reads each question page and answers it, another sends the cold answers, so
    # every answer is an umpire's first to its scenario.
    passes = 1 + -(-args.rounds // len(scenarios))
    slugs = [s.slug for s in scenarios]
    rounds = [
        (slugs[i % len(slugs)], cookies[2 * (i // len(slugs))])
        for i in range(len(slugs) + args.rounds)
    ]
    cold = [
        answer
        for k in range(passes)
        for answer in load.answers([cookies[2 * k + 1]], scenarios, 1000 + k * len(scenarios))
    ]
    seed = 1000 + len(cold)
    server_umpires = cookies[2 * passes :]
    server = [] if args.in_process else load.answers(server_umpires, scenarios, seed)
    _forget()
    return {
        "cookies": server_umpires,
        "rounds": rounds,
        "warm_up": len(slugs),
        "cold_answers": cold,
        "server_answers": server,
        "next_seed": seed + len(server) + 1,
    }


def _forget() -> None:
    """Empty the quiz core's in-process caches, as a fresh worker has them."""
    from scenarios import quiz

    clear = getattr(quiz, "clear_caches", None)
    if clear is not None:
        clear()
    for name in ("_VARIANTS", "_POSED", "_WHY_NOT"):
        store = getattr(quiz, name, None)
        if store is not None:
            store.clear()


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


KINDS = ("healthz", "floor", "question", "answer", "cold answer")


def _in_process(data: dict, args: argparse.Namespace) -> dict:
    from django.core.handlers.wsgi import WSGIHandler

    handler = WSGIHandler()
    seed = data["next_seed"]
    samples: dict[str, list[float]] = {kind: [] for kind in KINDS}
    cpu: dict[str, list[float]] = {kind: [] for kind in KINDS}
    cold = data["cold_answers"]
    profiler = cProfile.Profile() if args.profile else None
    # The first pass over every scenario warms up (imports, templates, what a worker keeps per
    # scenario after serving a while); the rounds after it are measured.
    for i, (slug, reader) in enumerate(data["rounds"]):
        seed += 1
        measured = i >= data["warm_up"]
        for kind, environ in _round(reader, slug, seed, cold[i]):
            profiling = profiler is not None and measured and kind == args.profile
            if profiling:
                profiler.enable()
            began, began_cpu = time.perf_counter(), time.thread_time()
            status = _call(handler, environ)
            took_cpu, took = time.thread_time() - began_cpu, time.perf_counter() - began
            if profiling:
                profiler.disable()
            assert status.startswith("200"), (kind, status)
            if measured:
                samples[kind].append(took)
                cpu[kind].append(took_cpu)
    if profiler:
        pstats.Stats(profiler, stream=sys.stderr).sort_stats("cumulative").print_stats(60)
        pstats.Stats(profiler, stream=sys.stderr).sort_stats("tottime").print_stats(25)
    medians = {k: statistics.median(v) * 1000 for k, v in samples.items()}
    return {
        "n": len(samples["answer"]),
        "median_ms": medians,
        "cpu_median_ms": {k: statistics.median(v) * 1000 for k, v in cpu.items()},
        "mean_ms": {k: statistics.fmean(v) * 1000 for k, v in samples.items()},
    }


def _round(reader: str, slug: str, seed: int, cold: Request):
    """One round: /healthz, the floor, a fresh variant's page and its answer by the umpire who
    read it (the form filled in right, its token as the page issues it), a cold answer."""
    yield "healthz", _environ("GET", "/healthz")
    yield "floor", _environ("GET", "/bench/floor/", reader)
    path = f"/en/practice/{slug}/{seed}/"
    yield "question", _environ("GET", path, reader)
    yield "answer", _environ("POST", path + "answer/", reader, _answer_form(slug, seed), True)
    yield "cold answer", _environ("POST", cold.path, cold.cookie, cold.body, htmx=True)


def _answer_form(slug: str, seed: int) -> str:
    """The right answers to the variant the page just showed (posed again: the page's own
    work is done by then) with a token as the page issues it. Built between the timed
    requests, since a generator runs only when the loop asks for the next request."""
    from polotrainer.practice import tokens
    from scenarios import quiz
    from scenarios.models import Scenario

    posed = quiz.pose(Scenario.objects.current(slug), seed, "en")
    form = load.right_form(posed)
    form["token"] = tokens.issue(slug, seed, [q.id for q in posed.questions], "practice")
    return load.encode(form)


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
        form = load.right_form(posed)
        form["token"] = tokens.issue(target.slug, seed, [q.id for q in posed.questions], "practice")
        path = f"/en/practice/{target.slug}/{seed}/"
        counts = {}
        for kind, environ in (
            ("question", _environ("GET", path, cookie)),
            ("answer", _environ("POST", path + "answer/", cookie, load.encode(form), htmx=True)),
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


def run_database(db: str, args: argparse.Namespace) -> None:
    tmp = Path(tempfile.mkdtemp(prefix=f"polotrainer-bench-{db}-"))
    env = load.env_for(db, tmp, "bench_practice")
    out = tmp / "child.json"
    subprocess.run(
        [
            *(PYTHON, __file__, "--child", "--out", str(out), "--folder", str(tmp)),
            *(["--profile", args.profile] if args.profile else []),
            *(["--in-process"] if args.in_process else []),
            *("--rounds", str(args.rounds)),
        ],
        env=env,
        cwd=ROOT,
        check=True,
    )
    results = json.loads(out.read_text())
    ip = results["in_process"]
    med, cpu = ip["median_ms"], ip["cpu_median_ms"]
    print(f"\n== {db} ({results['vendor']}), load average {load.load_average()}")
    print(
        f"in process, WSGI handler, {ip['n']} interleaved rounds, median ms (x the floor); "
        "CPU: this process's own, what a machine shared with other jobs does not inflate"
    )
    for kind in KINDS:
        goal = "   goal <= 2x" if kind in {"question", "answer", "cold answer"} else ""
        print(
            f"  {kind:12} {med[kind]:7.2f} ms  {med[kind] / med['floor']:5.2f}x   "
            f"CPU {cpu[kind]:6.2f} ms  {cpu[kind] / cpu['floor']:5.2f}x{goal}"
        )
    print(
        f"  answer / healthz: {med['healthz'] / med['answer']:.2f}x   "
        f"question / healthz: {med['healthz'] / med['question']:.2f}x"
    )
    q = results["queries"]
    print(
        "queries (question page, answer; budget 8 each): "
        + ", ".join(f"{h} earlier answers: {c['question']}, {c['answer']}" for h, c in q.items())
    )
    if args.in_process:
        shutil.rmtree(tmp, ignore_errors=True)
        return
    candidate = next(c for c in CANDIDATES if c.name == args.server)
    server = Running(candidate, env, args.workers, tmp / "server.log")
    wrk = Wrk(tmp, connections=args.connections, seconds=args.seconds)
    try:
        wrk.run(f"{server.base}/healthz", seconds=2)  # warm both workers
        health = wrk.run(f"{server.base}/healthz")
        floor = wrk.run(f"{server.base}/", tmp / "floor.tsv")
        answer = wrk.run(f"{server.base}/", tmp / "answers.tsv")
    finally:
        server.stop()
    print(
        f"{args.server}, {args.workers} workers, wrk 2 threads x {args.connections} connections, "
        f"{args.seconds} s each:"
    )
    for name, r in (("healthz", health), ("floor", floor), ("answer", answer)):
        print(
            f"  {name:9} {r['rps']:8.1f} req/s   p50 {r.get('50%')}   p90 {r.get('90%')}   "
            f"p99 {r.get('99%')}   non-2xx {r['non2xx']}"
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
    parser.add_argument(
        "--server",
        choices=[c.name for c in CANDIDATES],
        default="gunicorn",
        help="production: scripts/serve.py; the others: benchmarks/servers.py --list",
    )
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--profile", choices=KINDS, help="print where the in-process requests of KIND spend time"
    )
    parser.add_argument(
        "--in-process", action="store_true", help="only the in-process part: no server, no wrk"
    )
    parser.add_argument(
        "--rounds", type=int, default=250, help="in-process rounds (at most one per scenario)"
    )
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    parser.add_argument("--folder", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args)
        return
    if not args.in_process and not shutil.which("wrk"):
        raise SystemExit("wrk is needed: apt-get install wrk")
    for db in ("sqlite", "postgres") if args.db == "both" else (args.db,):
        run_database(db, args)


if __name__ == "__main__":
    main()
