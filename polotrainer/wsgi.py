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
except ImproperlyConfigured as exc:
    sys.exit(f"polotrainer: {exc}")
