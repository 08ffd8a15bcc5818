"""Offline practice: the sync of 500 queued answers in one request, and the size of a pack.

    .venv/bin/python benchmarks/offline.py [--db sqlite|postgres]

Runs on a throwaway database (a SQLite file in WAL as in production, or a PostgreSQL database
made for it) with the bundled content. One umpire downloads packs of every rule, answers 500
of their variants (some twice over different packs, to exercise the replay of a scenario's
reviews) and sends the whole outbox in one POST through the test client, as the page does.
Prints the sync's time (median of 3 fresh umpires; goal <= 2 s), the same outbox sent again
(all "already recorded"), and per rule the pack's size as JSON and gzipped (goal <= 300 KB),
with the time to make it. Then what the service worker fetches: when it installs (the first
visit to any page, each phone joining a clinic included) and when the offline page asks it to
keep the rulebook (a pack downloaded): addresses, bytes as served and gzipped, and the server's
CPU for them in process (static files served from the source folders here, so only their bytes
count), with what a room of 1,000 phones would cost.
"""

import gzip
import io
import json
import os
import statistics
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.database import throwaway

DB = throwaway("bench_offline")
os.environ.setdefault("STATIC_MANIFEST", "0")  # the pages' static names without collectstatic

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402
from django.utils import timezone  # noqa: E402

from polotrainer.offline import packs, worker  # noqa: E402
from polotrainer.umpires.models import Attempt  # noqa: E402
from polotrainer.umpires.progress import Person  # noqa: E402
from scenarios.models import Rule, Scenario  # noqa: E402

ANSWERS = 500
RUNS = 3


def form_of(variant: dict) -> dict[str, list[str]]:
    """The form values of the right answer (every fourth variant answered wrong where it can)."""
    out: dict[str, list[str]] = {}
    for key in variant["key"]:
        if key["type"] == "order":
            for option, place in zip(key["options"], key["right"], strict=True):
                out[f"{key['name']}-{option}"] = [place]
        elif key["type"] == "place":
            out[key["fields"][0]], out[key["fields"][1]] = [key["right"][0]], [key["right"][1]]
        else:
            out[key["name"]] = list(key["right"])
    return out


def outbox(user_id: int) -> list[dict]:
    person = Person(user_id=user_id)
    made = timezone.now() - timezone.timedelta(hours=2)
    variants = []
    while len(variants) < ANSWERS:
        for rule in Rule.objects.values_list("number", flat=True):
            _row, body = packs.build(person, packs.PackScope("rule", str(rule)), now=made)
            variants += body["variants"]
    start = int((made + timezone.timedelta(minutes=1)).timestamp() * 1000)
    return [
        {
            "id": str(uuid.uuid4()),
            "token": v["token"],
            "answers": form_of(v),
            "right": {k["id"]: k["right"] for k in v["key"]},
            "at": start + n * 1000,
            "lang": "it" if n % 2 else "en",
        }
        for n, v in enumerate(variants[:ANSWERS])
    ]


def send(client: Client, entries: list[dict]) -> tuple[float, dict]:
    csrf = client.get("/it/offline/sync/").json()["csrf"]
    body = json.dumps({"entries": entries})
    began = time.perf_counter()
    response = client.post(
        "/it/offline/sync/", body, content_type="application/json", headers={"X-CSRFToken": csrf}
    )
    elapsed = time.perf_counter() - began
    assert response.status_code == 200, response.content[:500]
    return elapsed, response.json()


def worker_fetches() -> None:
    """The service worker's fetches, at install and when the rulebook is kept."""
    client = Client()
    for name, urls in (("at install", worker.precached()), ("rulebook kept", worker.rulebook())):
        pages = [u for u in urls if not u.startswith("/static/")]
        for url in pages:
            client.get(url)  # warm: templates and a worker's kept parts
        cpu, raw, packed = 0.0, 0, 0
        for url in urls:
            began = time.thread_time()
            response = client.get(url)
            if not url.startswith("/static/"):
                cpu += time.thread_time() - began
            assert response.status_code == 200, (url, response.status_code)
            body = b"".join(response.streaming_content) if response.streaming else response.content
            raw, packed = raw + len(body), packed + len(gzip.compress(body))
        print(
            f"service worker, {name}: {len(urls)} addresses ({len(pages)} pages), "
            f"{raw / 1024:.0f} KB ({packed / 1024:.0f} KB gzipped), the pages {cpu * 1000:.0f} ms "
            f"of the server's CPU; x 1,000 phones: {packed * 1000 / 1024**2:.0f} MB, "
            f"{cpu * 1000:.0f} s"
        )


def main() -> None:
    call_command("migrate", verbosity=0)
    call_command("content", "load", verbosity=0, stdout=io.StringIO())
    print(f"database: {DB}; {Scenario.objects.live().count()} live scenarios")
    print(f"{'rule':>5} {'variants':>9} {'JSON KB':>8} {'gzip KB':>8} {'made in s':>10}")
    for rule in Rule.objects.values_list("number", flat=True):
        began = time.perf_counter()
        _row, body = packs.build(Person(visitor="bench"), packs.PackScope("rule", str(rule)))
        made = time.perf_counter() - began
        raw = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()
        print(
            f"{rule:>5} {body['count']:>9} {len(raw) / 1024:>8.0f} "
            f"{len(gzip.compress(raw)) / 1024:>8.0f} {made:>10.2f}"
        )
    times, again = [], []
    for run in range(RUNS):
        user = get_user_model().objects.create_user(f"bench-offline-{run}")
        entries = outbox(user.pk)
        client = Client()
        client.force_login(user)
        elapsed, result = send(client, entries)
        assert result["recorded"] == ANSWERS, result["recorded"]
        times.append(elapsed)
        elapsed_again, result_again = send(client, entries)
        assert result_again["recorded"] == 0
        again.append(elapsed_again)
        assert Attempt.objects.filter(user=user).values("seed").distinct().count() <= ANSWERS
    print(
        f"sync of {ANSWERS} answers in one request: median {statistics.median(times):.2f} s "
        f"(runs: {', '.join(f'{t:.2f}' for t in times)}; goal <= 2 s)"
    )
    print(f"the same outbox again (all already recorded): median {statistics.median(again):.2f} s")
    worker_fetches()


if __name__ == "__main__":
    main()
