"""WSGI entry point (gunicorn polotrainer.wsgi)."""

import os
import sys

from django.core.exceptions import ImproperlyConfigured

from polotrainer.catalogs import require_compiled

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "polotrainer.settings")

try:
    from django.core.wsgi import get_wsgi_application

    application = get_wsgi_application()
    require_compiled()
    # After the app registry is ready: a database holding the demo is never served.
    from polotrainer.demo import refuse_to_serve

    refuse_to_serve()
except ImproperlyConfigured as exc:
    sys.exit(f"polotrainer: {exc}")
