"""The gradebook of a cohort of 60 trainees with 2,000 answers each: queries, time, CSV.

    .venv/bin/python benchmarks/gradebook.py
    BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_gradebook \
        .venv/bin/python benchmarks/gradebook.py

Runs on a throwaway SQLite file (WAL, as in production) unless BENCH_DATABASE_URL names a
database to fill (it is flushed first: never point it at real data). The bundled content is
loaded; each trainee's answers are spread over the last year across every scenario, and their
aggregates rebuilt as recording would have kept them. Six assignments (a rule, sections, chosen
situations; set from a year to a week ago), one observation per trainee; ten trainees joined a
month ago, the rest a year and a half ago. Prints the query count with 200 and with 2,000
answers per trainee (it must not grow), the median of 20 renders, and the CSV: time to its first
line and to its end, and whether it streams.
"""

import io
import os
import random
import statistics
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
TMP = tempfile.mkdtemp(prefix="polotrainer-bench-")
os.environ["DATABASE_URL"] = (
    os.environ.get("BENCH_DATABASE_URL") or f"sqlite:///{TMP}/bench.sqlite3"
)
os.environ.setdefault("SECRET_KEY", "benchmark-only")
os.environ.setdefault("DEPLOY_PROFILE", "lan")  # plain HTTP: the test client asks for http://
os.environ.setdefault("ALLOWED_HOSTS", "testserver")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "polotrainer.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.utils import timezone  # noqa: E402

from polotrainer.courses import assignments, codes  # noqa: E402
from polotrainer.courses.models import Cohort, Course, Membership, Observation  # noqa: E402
from polotrainer.umpires import roles  # noqa: E402
from polotrainer.umpires.models import Attempt, Profile  # noqa: E402
from polotrainer.umpires.progress import rebuild  # noqa: E402
from scenarios.models import Scenario, Section  # noqa: E402

RUNS = 20
TRAINEES = 60
GOAL_MS = 150  # issue 23: the gradebook of 60 trainees x 2,000 answers


def cohort_of(name: str, answers: int, scenarios: list[Scenario]) -> tuple[Client, Cohort]:
    users = get_user_model().objects
    teacher = users.create_user(f"{name}-teacher", f"{name}-teacher@example.org", "x")
    Profile.objects.create(user=teacher, language="en")
    roles.grant(teacher)
    course = Course.objects.create(title_it="Corso", title_en="Course", track="outdoor", year=2026)
    course.instructors.add(teacher)
    cohort = Cohort(course=course, name=name)
    codes.give_new_code(cohort)
    now = timezone.now()
    rng = random.Random(name)
    for t in range(TRAINEES):
        user = users.create_user(f"{name}-{t}", f"{name}-{t}@example.org", "x")
        Profile.objects.create(user=user, display_name=f"Trainee {t}", language="en")
        joined = now - timedelta(days=30 if t < 10 else 540)
        Membership.objects.create(cohort=cohort, user=user, joined_at=joined)
        moments = [now - timedelta(minutes=rng.randint(1, 365 * 24 * 60)) for _ in range(answers)]
        Attempt.objects.bulk_create(
            (
                Attempt(
                    user=user,
                    scenario=rng.choice(scenarios),
                    seed=rng.randint(1, 99999),
                    question="ruling",
                    answer={"choice": "x"},
                    correct=rng.random() < 0.75,
                    nonce=f"{name}-{t}-{i}",
                    created_at=moment,
                    day=timezone.localdate(moment),
                )
                for i, moment in enumerate(moments)
            ),
            batch_size=2000,
        )
        rebuild(user.pk)
        Observation.objects.create(
            cohort=cohort,
            trainee=user,
            observer=teacher,
            observed_on=timezone.localdate(),
            game="Red v Blue",
            outcome="satisfactory",
        )
    sections = list(Section.objects.filter(scenarios__retired=False).distinct())
    setups = [
        dict(scope="rule", rule=scenarios[0].rule),
        dict(scope="rule", rule=scenarios[-1].rule),
        dict(scope="sections", sections=sections[:3]),
        dict(scope="sections", sections=sections[3:8]),
        dict(scope="scenarios", scenarios=scenarios[:12]),
        dict(scope="scenarios", scenarios=scenarios[-20:]),
    ]
    for days_ago, setup in zip((365, 200, 90, 30, 14, 7), setups, strict=True):
        made = assignments.create(
            cohort, questions=20, due_on=timezone.localdate() + timedelta(days=7), **setup
        )
        made.created_at = now - timedelta(days=days_ago)
        made.save(update_fields=["created_at"])
    if connection.vendor == "postgresql":
        # What autovacuum does soon after a bulk load: statistics for the planner and the
        # visibility map for index-only scans.
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")
    client = Client()
    client.force_login(teacher)
    return client, cohort


def measure(client: Client, cohort: Cohort) -> tuple[float, float, int]:
    """Median wall-clock and CPU milliseconds of RUNS renders, and the query count.

    SQLite runs inside this process, so the CPU time counts the database's work too; on a
    shared machine it is the steadier figure (the wall clock includes waiting for a core).
    """
    url = f"/en/courses/cohort/{cohort.pk}/gradebook/"
    client.get(url)  # warm the template cache
    times, cpu = [], []
    for _ in range(RUNS):
        start, start_cpu = time.perf_counter(), time.process_time()
        response = client.get(url)
        times.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
        assert response.status_code == 200
        assert response.content.count(b'<th scope="row"') == TRAINEES
    with CaptureQueriesContext(connection) as queries:
        client.get(url)
    if os.environ.get("BENCH_VERBOSE"):
        for q in queries.captured_queries:
            print(f"  {q['time']} s  {' '.join(q['sql'].split())[:100]}")
    return statistics.median(times), statistics.median(cpu), len(queries)


def measure_csv(client: Client, cohort: Cohort) -> tuple[float, float, bool, int]:
    start = time.perf_counter()
    response = client.get(f"/en/courses/cohort/{cohort.pk}/gradebook.csv")
    chunks = iter(response.streaming_content)
    first = next(chunks)
    first_at = (time.perf_counter() - start) * 1000
    size = len(first) + sum(len(c) for c in chunks)
    return first_at, (time.perf_counter() - start) * 1000, response.streaming, size


def main() -> None:
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    # Making 120 accounts is not what is measured: a fast hasher fills the cohort quicker.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    call_command("migrate", verbosity=0)
    if os.environ.get("BENCH_DATABASE_URL"):
        call_command("flush", interactive=False, verbosity=0)
    call_command("content", "load", verbosity=0, stdout=io.StringIO())
    scenarios = list(Scenario.objects.live().order_by("rule", "section__position", "slug"))
    engine = connection.vendor
    load = os.getloadavg()[0]
    print(
        f"gradebook of {TRAINEES} trainees, {len(scenarios)} scenarios, {engine}, "
        f"load average {load:.1f} on {os.cpu_count()} cores"
    )
    for answers in (200, 2000):
        start = time.perf_counter()
        client, cohort = cohort_of(f"c{answers}", answers, scenarios)
        filled = time.perf_counter() - start
        ms, cpu, queries = measure(client, cohort)
        print(
            f"{answers:>5} answers each ({TRAINEES * answers:,} in all, filled in {filled:.0f} s):"
            f" {queries} queries, median of {RUNS} renders {ms:.1f} ms ({cpu:.1f} ms CPU)"
            + (f"; goal <= {GOAL_MS} ms: {ms / GOAL_MS:.2f}x of it" if answers == 2000 else "")
        )
    first, total, streaming, size = measure_csv(client, cohort)
    print(
        f"CSV: first line after {first:.1f} ms, all {size:,} bytes after {total:.1f} ms, "
        f"streamed: {streaming}"
    )


if __name__ == "__main__":
    main()
