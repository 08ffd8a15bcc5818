"""ASGI entry point."""

import os
import sys

from django.core.exceptions import ImproperlyConfigured

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "polotrainer.settings")

try:
    from django.core.asgi import get_asgi_application

    application = get_asgi_application()
except ImproperlyConfigured as exc:
    sys.exit(f"polotrainer: {exc}")
