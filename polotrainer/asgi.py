"""ASGI entry point."""

import os
import sys

from django.core.exceptions import ImproperlyConfigured

from polotrainer.catalogs import require_compiled

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "polotrainer.settings")
# Under ASGI every request's sync code runs in a thread of its own, so persistent connections
# would pile up one per thread, never closed: Django's advice is CONN_MAX_AGE=0 (or a pool).
os.environ.setdefault("CONN_MAX_AGE", "0")

try:
    from django.core.asgi import get_asgi_application

    application = get_asgi_application()
    require_compiled()
except ImproperlyConfigured as exc:
    sys.exit(f"polotrainer: {exc}")
