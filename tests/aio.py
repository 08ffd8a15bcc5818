"""Run a coroutine from a test, whatever the test thread already runs."""

import asyncio
import concurrent.futures
from collections.abc import Coroutine
from typing import Any


def run(coroutine: Coroutine[Any, Any, Any]) -> Any:
    """Run the coroutine to its end in a thread of its own.

    The browser tests share one Playwright (sync API) for the whole session, and it keeps an
    event loop running in the main thread; asyncio.run() refuses to start inside one. A fresh
    thread has no loop, so what the test runs does not depend on which tests ran before it.
    """
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()
