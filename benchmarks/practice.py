"""Answer-check throughput and p95 latency under gunicorn, as a ratio to a trivial view.

    .venv/bin/python benchmarks/practice.py [--requests 300] [--concurrency 4]

Serves the app with gunicorn (2 workers, 127.0.0.1, DEBUG=0) on a throwaway SQLite database
with migrate + the bundled content loaded (the test fixtures if the content does not load),
then, in the same run: /healthz (one SELECT 1) and the practice answer POST (htmx), each with a
bounded loop of requests from a few threads. Every answer uses its own question token, fetched
before the timed loop, so each one is checked and recorded for real.
"""

import argparse
import http.cookiejar
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
GUNICORN = str(Path(PYTHON).with_name("gunicorn"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def setup(env: dict[str, str]) -> str:
    """Migrate, load content; the slug of a one-question scenario to answer."""
    manage = [PYTHON, str(ROOT / "manage.py")]
    subprocess.run([*manage, "migrate", "-v0"], env=env, check=True, cwd=ROOT)
    loaded = subprocess.run([*manage, "content", "load"], env=env, cwd=ROOT, capture_output=True)
    code = (
        "from scenarios.models import Scenario\n"
        "from tests.scenarios.conftest import ALL, create_rulebook, make_scenario\n"
        "if not Scenario.objects.exists():\n"
        "    create_rulebook(); [make_scenario(d) for d in ALL]\n"
        "one = [s for s in Scenario.objects.live() if len(s.data.get('question', [])) == 1]\n"
        "place = [s for s in one if s.kind == 'penalty_spot']\n"
        "print((place or one)[0].slug)\n"
    )
    out = subprocess.run(
        [*manage, "shell", "-c", code], env=env, cwd=ROOT, check=True, capture_output=True
    )
    print("content:", "bundled" if loaded.returncode == 0 else "test fixtures (load failed)")
    return out.stdout.decode().strip().splitlines()[-1]


class Visitor:
    """A browser: its own cookies (session, CSRF)."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def get(self, path: str) -> str:
        with self.opener.open(self.base + path, timeout=30) as response:
            return response.read().decode()

    def post(self, path: str, form: dict[str, str], headers: dict[str, str]) -> int:
        data = urllib.parse.urlencode(form).encode()
        request = urllib.request.Request(self.base + path, data=data, headers=headers)
        with self.opener.open(request, timeout=30) as response:
            response.read()
            return int(response.status)


def answer_form(page: str) -> tuple[str, dict[str, str]]:
    """The form fields that answer the page's question: any well-formed answer will do."""
    form = {
        "token": re.search(r'name="token" value="([^"]+)"', page).group(1),
        "csrfmiddlewaretoken": re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(
            1
        ),
    }
    action = re.search(r'<form id="quiz"[^>]*action="([^"]+)"', page).group(1)
    for name in set(re.findall(r'name="(q-[\w-]+)"', page)):
        if name.endswith("-along"):
            form[name] = "60"
        elif name.endswith("-across"):
            form[name] = "0"
        else:
            value = re.search(rf'name="{name}" value="([^"]*)"', page)
            form[name] = value.group(1) if value and value.group(1) else "1"
    return action.replace("&amp;", "&"), form


def run(jobs, concurrency: int) -> tuple[float, list[float]]:
    """Run the callables `jobs` from `concurrency` threads; wall time and each latency (s)."""
    latencies: list[float] = []
    lock = threading.Lock()
    queue = list(jobs)

    def worker() -> None:
        while True:
            with lock:
                if not queue:
                    return
                job = queue.pop()
            start = time.perf_counter()
            job()
            took = time.perf_counter() - start
            with lock:
                latencies.append(took)

    threads = [threading.Thread(target=worker) for _ in range(concurrency)]
    began = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return time.perf_counter() - began, latencies


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--concurrency", type=int, default=4)
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="polotrainer-practice-bench-"))
    port = free_port()
    env = {
        **os.environ,
        "DEBUG": "0",
        "SECRET_KEY": "benchmark-only-not-a-secret",
        "ALLOWED_HOSTS": "127.0.0.1",
        "DATABASE_URL": f"sqlite:///{tmp}/bench.sqlite3",
        "STATIC_MANIFEST": "0",  # pages render without collectstatic; no static file is fetched
        "DJANGO_SETTINGS_MODULE": "polotrainer.settings",
        "PYTHONPATH": str(ROOT),
    }
    slug = setup(env)
    server = subprocess.Popen(
        [
            GUNICORN,
            "polotrainer.wsgi",
            "-w",
            "2",
            "-b",
            f"127.0.0.1:{port}",
            "--log-level",
            "warning",
        ],
        env=env,
        cwd=ROOT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(base + "/healthz", timeout=1).read()
                break
            except OSError:
                time.sleep(0.1)
        visitors = [Visitor(base) for _ in range(args.concurrency)]
        # Warm up both workers, then fetch every question (token) the timed loop will answer.
        for v in visitors:
            for _ in range(5):
                v.get("/healthz")
        prepared = []
        for i in range(args.requests):
            v = visitors[i % len(visitors)]
            prepared.append((v, *answer_form(v.get(f"/en/practice/{slug}/{i + 1}/"))))

        def healthz(v=visitors[0]) -> None:
            v.get("/healthz")

        statuses: list[int] = []

        def answer_job(v, action, form):
            def job() -> None:
                statuses.append(
                    v.post(
                        action,
                        form,
                        {"HX-Request": "true", "HX-Target": "feedback", "Referer": base},
                    )
                )

            return job

        h_wall, h_lat = run([healthz] * args.requests, args.concurrency)
        a_wall, a_lat = run([answer_job(*p) for p in prepared], args.concurrency)
    finally:
        server.terminate()
        server.wait(timeout=10)
    assert all(s == 200 for s in statuses), set(statuses)
    h_rps, a_rps = args.requests / h_wall, args.requests / a_wall
    print(f"answering {slug}: {args.requests} requests, {args.concurrency} at a time, 2 workers")
    print(f"/healthz       {h_rps:8.1f} req/s   p95 {p95(h_lat) * 1000:7.1f} ms")
    print(f"answer check   {a_rps:8.1f} req/s   p95 {p95(a_lat) * 1000:7.1f} ms")
    ratio_p95 = p95(h_lat) / p95(a_lat)
    print(f"ratio: throughput {a_rps / h_rps:.2f}, p95 latency (healthz/answer) {ratio_p95:.2f}")


if __name__ == "__main__":
    main()
