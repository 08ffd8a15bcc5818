"""Dashboard render time with 10, 10,000 and 100,000 recorded answers, its query count, and the
time to stream the history CSV of 100,000 answers (goal: <= 2 s to the last byte, issue 23).

    .venv/bin/python benchmarks/dashboard.py [--db sqlite|postgres] [--csv-only]

The CSV is measured twice: on the dashboard's 100,000 answers (one question id the content
does not have, so no words to look up: the figure of earlier runs), and on 100,000 answers to
the bundled scenarios' real questions, each a fresh variant (its own seed), the answers given
as the engine ruled them, a third of them wrong: every column in words.

Runs on a throwaway database (a SQLite file in WAL as in production, or a PostgreSQL database
made for it) with the bundled content loaded: one umpire per size, answers spread over the last
year across every scenario, the aggregates built as recording builds them; prints the median of
20 renders.
"""

import io
import random
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.database import throwaway

DB = throwaway("bench_dashboard")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.utils import timezone  # noqa: E402

from polotrainer.umpires.models import Attempt, Profile  # noqa: E402
from polotrainer.umpires.progress import rebuild  # noqa: E402
from scenarios.models import Rule, Scenario, Section  # noqa: E402

RUNS = 20
CSV_GOAL_S = 2.0


def load() -> tuple[list[Scenario], str]:
    call_command("migrate", verbosity=0)
    try:
        call_command("content", "load", verbosity=0, stdout=io.StringIO())
        return list(Scenario.objects.live()), "bundled content"
    except Exception as exc:  # the content may be mid-edit: measure anyway
        return synthetic(), f"synthetic content (content load failed: {exc.__class__.__name__})"


def synthetic() -> list[Scenario]:
    """Three rules of six sections of five scenarios: the size of the bundled rulebook."""
    scenarios = []
    for number in (3, 21, 37):
        rule = Rule.objects.create(
            number=number,
            slug=f"r{number}",
            title_it="R",
            title_en="R",
            summary_it="",
            summary_en="",
            notice_it="",
            notice_en="",
        )
        for position in range(1, 7):
            section = Section.objects.create(
                ref=f"{number}.{position}",
                rule=rule,
                position=position,
                title_it="S",
                title_en="S",
            )
            for k in range(5):
                scenarios.append(
                    Scenario.objects.create(
                        slug=f"s{number}-{position}-{k}",
                        rule=rule,
                        section=section,
                        kind="x",
                        title_it="T",
                        title_en="T",
                        data={},
                        source_file="bench",
                    )
                )
    return scenarios


def umpire(name: str, answers: int, scenarios: list[Scenario]) -> Client:
    user = get_user_model().objects.create_user(name, f"{name}@example.org", "x")
    Profile.objects.create(user=user, language="en")
    rng = random.Random(name)
    now = timezone.now()
    moments = [now - timedelta(minutes=rng.randint(0, 365 * 24 * 60)) for _ in range(answers)]
    Attempt.objects.bulk_create(
        (
            Attempt(
                user=user,
                scenario=rng.choice(scenarios),
                seed=rng.randint(1, 99999),
                question="ruling",
                answer={"choice": "x"},
                correct=rng.random() < 0.7,
                time_taken_ms=rng.randint(2000, 30000),
                nonce=f"{name}-{i}",
                created_at=moment,
                day=timezone.localdate(moment),
            )
            for i, moment in enumerate(moments)
        ),
        batch_size=2000,
    )
    rebuild(user.pk)  # the aggregates, as recording each answer would have kept them
    client = Client()
    client.force_login(user)
    return client


def realistic(name: str, answers: int, scenarios: list[Scenario]) -> Client:
    """An umpire with `answers` answers to the scenarios' real questions, each to a variant of
    its own seed, as recorded (the ruled answer; a third of them given wrong)."""
    from scenarios import quiz
    from scenarios.variants import MAX_SEED

    user = get_user_model().objects.create_user(name, f"{name}@example.org", "x")
    Profile.objects.create(user=user, language="en")
    rng = random.Random(name)
    now = timezone.now()
    # The questions and answers of a few variants per scenario; each answer keeps its own seed.
    asked = []
    for scenario in scenarios:
        for seed in (1, 2, 3):
            posed = quiz.pose(scenario, seed, "en")
            for q in posed.questions:
                right = q.source.right_answer(posed.variant.ruling)
                asked.append((scenario, q.id, right, posed.version))
    rows = []
    for i in range(answers):
        scenario, question, right, version = rng.choice(asked)
        moment = now - timedelta(minutes=rng.randint(0, 365 * 24 * 60))
        correct = rng.random() < 0.67
        rows.append(
            Attempt(
                user=user,
                scenario=scenario,
                seed=rng.randint(1, MAX_SEED),
                question=question,
                answer=right if correct else {"wrong": i % 7},
                right_answer=right,
                correct=correct,
                content_version=version,
                time_taken_ms=rng.randint(2000, 30000),
                nonce=f"{name}-{i}",
                created_at=moment,
                day=timezone.localdate(moment),
            )
        )
    Attempt.objects.bulk_create(rows, batch_size=2000)
    client = Client()
    client.force_login(user)
    return client


def stream_csv(client: Client, what: str) -> None:
    start = time.perf_counter()
    response = client.get("/en/me/history.csv")
    first = None
    size = 0
    for chunk in response.streaming_content:
        if first is None:
            first = time.perf_counter() - start
        size += len(chunk)
    total = time.perf_counter() - start
    print(
        f"history CSV of 100,000 answers ({what}): first bytes after {first * 1000:.0f} ms, "
        f"all {size / 1e6:.1f} MB in {total:.2f} s (goal <= {CSV_GOAL_S:.0f} s: "
        f"{total / CSV_GOAL_S:.2f}x of it)"
    )


def measure(client: Client) -> tuple[float, int]:
    client.get("/en/me/")  # warm the template cache
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        response = client.get("/en/me/")
        times.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200
    with CaptureQueriesContext(connection) as queries:
        client.get("/en/me/")
    return statistics.median(times), len(queries)


def main() -> None:
    # Plain static storage: no collectstatic manifest is needed to render.
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    scenarios, source = load()
    print(f"dashboard /en/me/, {len(scenarios)} scenarios ({source}), median of {RUNS} renders")
    print(f"database: {connection.vendor}")
    csv_only = "--csv-only" in sys.argv
    for answers in (100_000,) if csv_only else (10, 10_000, 100_000):
        client = umpire(f"u{answers}", answers, scenarios)
        if not csv_only:
            ms, queries = measure(client)
            print(f"{answers:>7} answers: {ms:6.1f} ms, {queries} queries")
    stream_csv(client, "one question id the content does not have")
    stream_csv(realistic("real", 100_000, scenarios), "the bundled questions, in words")


if __name__ == "__main__":
    main()
