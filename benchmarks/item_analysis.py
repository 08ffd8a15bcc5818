"""Item analysis of an exam with 300 first attempts x 50 questions: time to compute it.

    .venv/bin/python benchmarks/item_analysis.py
    BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_items \
        .venv/bin/python benchmarks/item_analysis.py

Runs on a throwaway SQLite file unless BENCH_DATABASE_URL names a database to fill (it is
flushed first: never point it at real data). 300 trainees each submit one attempt of 25
situations drawn from 40, two questions each (50 marks an attempt), marked at random with a
per-trainee ability, with three variant parameters. Prints the median of 10 runs of the
analysis alone (in memory) and of the page's whole path (two queries, then the analysis).
Goal: at most 1 s.
"""

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
os.environ.setdefault("ALLOWED_HOSTS", "testserver")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "polotrainer.settings")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.utils import timezone  # noqa: E402

from polotrainer.courses.exams import itemanalysis  # noqa: E402
from polotrainer.courses.exams.models import Exam, ExamAttempt, ExamSlot  # noqa: E402
from polotrainer.courses.models import Cohort, Course  # noqa: E402
from scenarios.models import Rule, Scenario, Section  # noqa: E402

TRAINEES, POOL, DRAWN, QUESTIONS = 300, 40, 25, 2


def build() -> Exam:
    call_command("migrate", verbosity=0)
    call_command("flush", interactive=False, verbosity=0)
    rng = random.Random(7)
    rule = Rule.objects.create(number=99, slug="bench", title_it="B", title_en="B")
    section = Section.objects.create(ref="99.a", rule=rule, position=1, title_it="B", title_en="B")
    scenarios = [
        Scenario.objects.create(
            slug=f"bench-{n}",
            rule=rule,
            section=section,
            kind="bench",
            title_it=f"S{n}",
            title_en=f"S{n}",
            data={},
            source_file="bench",
        )
        for n in range(POOL)
    ]
    course = Course.objects.create(title_it="B", title_en="B", track="outdoor", year=2026)
    cohort = Cohort.objects.create(course=course, name="B", join_code="BENCH1")
    now = timezone.now()
    exam = Exam.objects.create(
        cohort=cohort,
        title_it="B",
        title_en="B",
        blueprint=[],
        pass_percent=95,
        time_limit_minutes=60,
        opens_at=now - timedelta(days=2),
        closes_at=now,
    )
    users = get_user_model().objects.bulk_create(
        [get_user_model()(username=f"t{n}") for n in range(TRAINEES)]
    )
    attempts = ExamAttempt.objects.bulk_create(
        [
            ExamAttempt(
                exam=exam,
                user=u,
                started_at=now - timedelta(days=1),
                deadline=now - timedelta(hours=23),
                finished_at=now - timedelta(hours=23),
            )
            for u in users
        ]
    )
    slots = []
    for attempt in attempts:
        ability = rng.random()
        for position, scenario in enumerate(rng.sample(scenarios, DRAWN), start=1):
            values = {"side": rng.choice(["left", "right"]), "yards": rng.randrange(10, 70, 5)}
            marks = {f"q{i}": rng.random() < 0.3 + 0.6 * ability for i in range(QUESTIONS)}
            given = {q: ("a" if ok else rng.choice(["b", "c"])) for q, ok in marks.items()}
            slots.append(
                ExamSlot(
                    attempt=attempt,
                    position=position,
                    scenario=scenario,
                    seed=2**31 + position,
                    variant_values=values,
                    marks=marks,
                    given=given,
                )
            )
    ExamSlot.objects.bulk_create(slots, batch_size=2000)
    return exam


def median_of(runs: int, work) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    exam = build()
    attempts = itemanalysis.first_attempts(exam)
    rows = ExamSlot.objects.filter(attempt__in=attempts).values_list(
        "attempt_id", "scenario_id", "marks", "given", "variant_values"
    )
    marks: dict[int, list[itemanalysis.Mark]] = {}
    for attempt_id, scenario_id, got, given, values in rows:
        for q, ok in got.items():
            marks.setdefault(attempt_id, []).append(
                itemanalysis.Mark(scenario_id, q, int(ok), given.get(q), values)
            )
    data = list(marks.values())
    answers = sum(len(m) for m in data)
    print(f"{len(data)} attempts x {answers // len(data)} questions ({answers} marks)")
    memory = median_of(10, lambda: itemanalysis.analyse(data))
    print(f"analysis alone (in memory): median {memory * 1000:.0f} ms")
    whole = median_of(10, lambda: itemanalysis.for_exam(exam))
    analysis = itemanalysis.for_exam(exam)
    print(
        f"from the database ({os.environ['DATABASE_URL'].split(':')[0]}): "
        f"median {whole * 1000:.0f} ms; {len(analysis.items)} items, "
        f"{sum(i.negative for i in analysis.items)} with negative discrimination"
    )
    print("goal: <= 1000 ms:", "met" if whole <= 1 else "NOT met")


if __name__ == "__main__":
    main()
