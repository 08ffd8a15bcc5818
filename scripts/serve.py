#!/usr/bin/env python3
"""Serve polotrainer with uvicorn (ASGI): pages, answers and the clinics' live event streams,
all from one server (README, Decisions: measured in benchmarks/clinic.py).

BIND (default 127.0.0.1:8000) and WEB_CONCURRENCY (worker processes, default 2) are read as
gunicorn.conf.py reads them. The client's address and scheme are read by the app itself
through TRUSTED_PROXY_COUNT and PROXY_SSL_HEADER, so uvicorn's own proxy-header rewriting is
off. Open event streams are cut after a few seconds at shutdown; browsers reconnect by
themselves.
"""

import os
import sys
from collections.abc import Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def command(env: Mapping[str, str] = os.environ) -> list[str]:
    """The uvicorn command line for the environment `env`."""
    host, _, port = (env.get("BIND") or "127.0.0.1:8000").rpartition(":")
    workers = env.get("WEB_CONCURRENCY") or "2"
    return [
        sys.executable,
        "-m",
        "uvicorn",
        "polotrainer.asgi:application",
        "--host",
        host.strip("[]") or "127.0.0.1",
        "--port",
        port,
        "--workers",
        workers,
        "--no-proxy-headers",
        "--timeout-graceful-shutdown",
        "3",
        # A phone answers, then is idle until the next round: keep its connection a while.
        "--timeout-keep-alive",
        "20",
        "--log-level",
        env.get("LOG_LEVEL", "WARNING").lower(),
    ]


if __name__ == "__main__":
    os.chdir(ROOT)
    args = command()
    os.execv(args[0], args)  # noqa: S606 - our own command line, no shell
