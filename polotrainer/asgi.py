"""ASGI entry point (scripts/serve.py serves it).

One application for the whole site (polotrainer/serving.py): the clinics' event streams on
Django's ASGI handler, every other request on Django's WSGI handler in a pool of
ASGI_CONCURRENCY threads per process, each with its own database connection, kept for
CONN_MAX_AGE seconds as under WSGI. So a process holds at most ASGI_CONCURRENCY connections
for pages, plus the few of the shared executor where the streams read (README, Decisions). On
SQLite one request that may write runs at a time per process (serving.py).
"""

import os
import sys

from django.core.exceptions import ImproperlyConfigured

from polotrainer.catalogs import require_compiled

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "polotrainer.settings")

try:
    from django.conf import settings
    from django.core.asgi import get_asgi_application
    from django.core.wsgi import get_wsgi_application

    from polotrainer.serving import Dispatch

    application = Dispatch(
        streams=get_asgi_application(),
        pages=get_wsgi_application(),
        threads=settings.ASGI_CONCURRENCY,
        one_writer=settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"),
    )
    require_compiled()
    # After the app registry is ready: a database holding the demo is never served. In a pool
    # thread: a server may import this module inside its event loop, where Django refuses a
    # query; the thread keeps its connection for the pages it serves next.
    from polotrainer.demo import refuse_to_serve

    application.pool.submit(refuse_to_serve).result()
except ImproperlyConfigured as exc:
    sys.exit(f"polotrainer: {exc}")
