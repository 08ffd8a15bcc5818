"""WSGI entry point (gunicorn polotrainer.wsgi)."""

import os
import sys

from django.core.exceptions import ImproperlyConfigured

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "polotrainer.settings")

try:
    from django.core.wsgi import get_wsgi_application

    application = get_wsgi_application()
except ImproperlyConfigured as exc:
    sys.exit(f"polotrainer: {exc}")
