"""ASGI entry point (scripts/serve.py runs it with uvicorn).

Django runs each request's synchronous code (every view here but the clinics' event streams) in
a thread of its own under ASGI, with a database connection of its own: nothing bounds them, so
300 phones answering at once would open 300 connections (PostgreSQL's default limit is 100).
`Bounded` lets ASGI_CONCURRENCY such requests run at once per worker process; the others wait
their turn in the event loop, costing nothing. The event streams are not counted: they hold no
thread while they wait.
"""

import asyncio
import concurrent.futures
import os
import sys
from typing import Any

from django.core.exceptions import ImproperlyConfigured

from polotrainer.catalogs import require_compiled

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "polotrainer.settings")
# Under ASGI every request's sync code runs in a thread of its own, so persistent connections
# would pile up one per thread, never closed: Django's advice is CONN_MAX_AGE=0 (or a pool).
os.environ.setdefault("CONN_MAX_AGE", "0")


class Bounded:
    """At most `limit` requests of this process in Django's synchronous code at once."""

    def __init__(self, app: Any, limit: int) -> None:
        self.app = app
        self.limit = limit
        self.slots: asyncio.Semaphore | None = None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["path"].endswith("/events/"):
            await self.app(scope, receive, send)
            return
        if self.slots is None:
            self.slots = asyncio.Semaphore(self.limit)
        async with self.slots:
            await self.app(scope, receive, send)


try:
    from django.conf import settings
    from django.core.asgi import get_asgi_application

    application = Bounded(get_asgi_application(), settings.ASGI_CONCURRENCY)
    require_compiled()
    # After the app registry is ready: a database holding the demo is never served. In a thread
    # of its own: uvicorn imports this module inside its event loop, where Django refuses a
    # query; its connection is closed before the thread ends.
    from django.db import connections

    from polotrainer.demo import refuse_to_serve

    def _refuse_demo() -> None:
        try:
            refuse_to_serve()
        finally:
            connections.close_all()

    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(_refuse_demo).result()
except ImproperlyConfigured as exc:
    sys.exit(f"polotrainer: {exc}")
