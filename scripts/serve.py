#!/usr/bin/env python3
"""Serve polotrainer: README's production command, `make lan` (scripts/serve_lan.py) and, with
--reload, `make run`.

uvicorn with httptools and, where the platform has it, uvloop, serving polotrainer.asgi: the
clinics' live event streams on Django's ASGI handler, every other request on Django's WSGI
handler in a pool of ASGI_CONCURRENCY threads per worker (polotrainer/serving.py). One port,
one process tree, pages at WSGI's speed (README, Decisions; measured in
benchmarks/servers.py).

BIND (default 127.0.0.1:8000) and WEB_CONCURRENCY (worker processes, default 2) are read as
gunicorn.conf.py reads them. The client's address and scheme are read by the app itself
through TRUSTED_PROXY_COUNT and PROXY_SSL_HEADER, so uvicorn's own proxy-header rewriting is
off. Open event streams are cut after a few seconds at shutdown; browsers reconnect by
themselves.

    scripts/serve.py            # production: WEB_CONCURRENCY workers, the log at LOG_LEVEL
    scripts/serve.py --reload   # development: one process, restarted when a file changes
"""

import os
import sys
from collections.abc import Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def command(env: Mapping[str, str] = os.environ, reload: bool = False) -> list[str]:
    """The uvicorn command line for the environment `env`."""
    host, _, port = (env.get("BIND") or "127.0.0.1:8000").rpartition(":")
    if reload:
        # Development: one process that restarts on a change, and each request in the log.
        mode = ["--reload", "--timeout-graceful-shutdown", "1"]
        level = env.get("LOG_LEVEL", "INFO")
    else:
        workers = env.get("WEB_CONCURRENCY") or "2"
        mode = ["--workers", workers, "--timeout-graceful-shutdown", "3"]
        level = env.get("LOG_LEVEL", "WARNING")
    return [
        sys.executable,
        "-m",
        "uvicorn",
        "polotrainer.asgi:application",
        "--host",
        host.strip("[]") or "127.0.0.1",
        "--port",
        port,
        *mode,
        # httptools parses HTTP in C (h11, uvicorn's pure-Python default, halves /healthz's
        # rate); the loop is uvloop where it is installed (requirements.txt), asyncio elsewhere.
        "--http",
        "httptools",
        "--loop",
        "auto",
        "--no-proxy-headers",
        # A phone answers, then is idle until the next round: keep its connection a while.
        "--timeout-keep-alive",
        "20",
        "--log-level",
        level.lower(),
    ]


if __name__ == "__main__":
    os.chdir(ROOT)
    args = command(reload="--reload" in sys.argv[1:])
    os.execv(args[0], args)  # noqa: S606 - our own command line, no shell
