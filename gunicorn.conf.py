"""gunicorn's settings: it reads ./gunicorn.conf.py when started from the project folder.

BIND: where to listen (internet profile: 127.0.0.1:8000 behind the proxy; club LAN:
0.0.0.0:8000 so that phones reach it). WEB_CONCURRENCY: worker processes (gunicorn's own
variable). Each worker is stateless: sessions and throttling live in the database.
"""

import os

bind = [os.environ.get("BIND") or "127.0.0.1:8000"]
workers = int(os.environ.get("WEB_CONCURRENCY") or 3)
accesslog = "-"
