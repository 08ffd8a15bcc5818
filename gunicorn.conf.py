"""gunicorn's settings: it reads ./gunicorn.conf.py when started from the project folder.

BIND: where to listen (internet profile: 127.0.0.1:8000 behind the proxy; club LAN:
0.0.0.0:8000 so that phones reach it). WEB_CONCURRENCY: worker processes (gunicorn's own
variable). Each worker is stateless: sessions and throttling live in the database.
"""

import os

bind = [os.environ.get("BIND") or "127.0.0.1:8000"]
workers = int(os.environ.get("WEB_CONCURRENCY") or 3)
accesslog = "-"


def on_starting(server: object) -> None:
    """Refuse to serve a database holding the demo's accounts, whose password is published.

    Runs once in the master before any worker starts. A configuration error is left to the
    workers, which name it (wsgi.py).
    """
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "polotrainer.settings")
    import django
    from django.core.exceptions import ImproperlyConfigured

    try:
        django.setup()
    except ImproperlyConfigured:
        return
    from django.db import connections

    from polotrainer.demo import refusal

    reason = refusal()
    connections.close_all()  # never hand an open connection to the forked workers
    if reason:
        raise SystemExit(f"polotrainer: {reason}")
