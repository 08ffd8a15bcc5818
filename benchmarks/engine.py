"""Rulings per second for each kind (direct calls on prebuilt situations, one core, CPU time),
and the time to import the engine in a fresh interpreter.

Run: .venv/bin/python benchmarks/engine.py
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from polotrainer.rules import KINDS
from polotrainer.rules.codec import parse

ROOT = Path(__file__).resolve().parents[1]
TARGET = 50_000
#: The engine's own data-driven cases (tests/rules): a kind found there is timed on its first.
CASES = [
    ROOT / "tests" / "rules" / "worked_examples.json",
    ROOT / "tests" / "rules" / "rule_text_cases.json",
]

#: For the kinds no case file covers.
FACTS: dict[str, dict[str, object]] = {
    "penalty_spot": {"penalty": "6", "crossing_y": 75},
    "penalty_positions": {
        "penalty": "5a",
        "ball": {"x": 0, "y": 10},
        "players": [
            {
                "id": f"{'B' if side == 'fouling' else 'R'}{n}",
                "team": side,
                "position": {"x": -10.0 * n, "y": n},
            }
            for side in ("fouling", "fouled")
            for n in range(1, 5)
        ],
    },
    "penalty_interference": {"penalty": "3", "fouling_entered_improperly": True},
    "recognise_penalty": {
        "dangerous": True,
        "deliberate": True,
        "in_vicinity_of_goal": False,
        "to_save_a_goal": True,
        "awarded_if_not_penalty_1": "5a",
        "ball": {"x": 20, "y": 78},
        "player_disabled": True,
    },
    "penalty_3_defended": {
        "event_upper": 10,
        "elected_by_committee": True,
        "communicated_before_event": True,
        "two_professional_umpires": False,
        "umpires_llc_approved": True,
    },
    "penalty_8": {"violation": "rule_6a", "cured": True},
    "penalty_9": {"violations": ["blue", "red"]},
    "penalty_10": {"deliberate": True, "dangerous": True, "prejudicial_conduct": False},
}


def facts_of_every_kind() -> dict[str, dict[str, object]]:
    """One situation's facts per kind: the first case of each in the engine's case files, else
    FACTS. Fails, naming them, when a kind has neither (a new kind must be timed too)."""
    found: dict[str, dict[str, object]] = {}
    for path in CASES:
        for case in json.loads(path.read_text("utf-8")):
            found.setdefault(case["kind"], case["facts"])
    chosen = {kind: found.get(kind, FACTS.get(kind)) for kind in KINDS}
    missing = sorted(kind for kind, facts in chosen.items() if facts is None)
    assert not missing, f"no facts to time these kinds on: {missing}"
    return {kind: facts for kind, facts in chosen.items() if facts is not None}


def rate(kind: str, facts: dict[str, object], rounds: int = 7, calls: int = 5_000) -> float:
    """Best of ``rounds`` CPU-timed runs of ``calls`` rulings (the machine may be shared)."""
    k = KINDS[kind]
    situation = parse(k.situation, facts)
    decide = k.decide
    best = float("inf")
    for _ in range(rounds):
        start = time.process_time()
        for _ in range(calls):
            decide(situation)
        best = min(best, time.process_time() - start)
    return calls / best


IMPORT = (
    "import time; t = time.process_time(); import polotrainer.rules; print(time.process_time() - t)"
)


def import_time() -> float:
    """Best of five CPU times of ``import polotrainer.rules`` in a fresh interpreter."""
    runs = (
        subprocess.run(
            [sys.executable, "-c", IMPORT], cwd=ROOT, check=True, capture_output=True, text=True
        )
        for _ in range(5)
    )
    return min(float(run.stdout) for run in runs)


def main() -> int:
    facts = facts_of_every_kind()
    slow = 0
    print(f"{'kind':<26}{'rulings/s':>14}")
    for kind in KINDS:
        per_second = rate(kind, facts[kind])
        slow += per_second < TARGET
        flag = "" if per_second >= TARGET else f"  (below {TARGET:,})"
        print(f"{kind:<26}{per_second:>14,.0f}{flag}")
    print(f"import polotrainer.rules: {import_time() * 1000:.1f} ms (fresh interpreter, CPU time)")
    return 1 if slow else 0


if __name__ == "__main__":
    sys.exit(main())
