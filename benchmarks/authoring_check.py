"""What the situation editor's Check costs: every bundled scenario as an instructor's copy
(through the editor's form and back), then content check's whole suite on it over 40 seeds
(the leak check over 60), as polotrainer.authoring.checking runs it. Wall time per Check:
median, 90th percentile, worst, on one core.

Run: .venv/bin/python benchmarks/authoring_check.py
"""

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("SECRET_KEY", "benchmark-only")
os.environ.setdefault("DEPLOY_PROFILE", "lan")
os.environ.setdefault("STATIC_MANIFEST", "0")
os.environ.setdefault("ALLOWED_HOSTS", "testserver")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "polotrainer.settings")

import django

django.setup()

from polotrainer.authoring import editor  # noqa: E402
from scenarios.content import CONTENT_DIR, SAMPLE_SEEDS, check_entry, read_content  # noqa: E402


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "rules").symlink_to(CONTENT_DIR / "rules")
        rules = read_content(Path(folder), complete=False)
    bundled = read_content(sample=range(1))
    times: list[tuple[float, str]] = []
    for scenario in bundled.scenarios:
        entry = {
            k: v
            for k, v in scenario.items()
            if k in editor.TEXTS or k not in ("slug", "source_file", "case")
        }
        start = time.perf_counter()
        back, errors = editor.from_data(entry["kind"], editor.to_data(entry))
        found = check_entry(
            {**back, "slug": "own-1-v1"}, rules.sections, rules.cases, sample=SAMPLE_SEEDS
        )
        times.append((time.perf_counter() - start, scenario["slug"]))
        assert not errors and not found.problems, (scenario["slug"], errors, found.problems[:2])
    seconds = sorted(t for t, _slug in times)
    worst = max(times)
    print(f"scenarios checked as copies: {len(times)} ({len(SAMPLE_SEEDS)} seeds each)")
    print(f"Check, median: {statistics.median(seconds) * 1000:.0f} ms")
    print(f"Check, 90th percentile: {seconds[int(len(seconds) * 0.9)] * 1000:.0f} ms")
    print(f"Check, worst: {worst[0] * 1000:.0f} ms ({worst[1]})")


if __name__ == "__main__":
    main()
