#!/usr/bin/env python
"""Django's command-line utility for polotrainer."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "polotrainer.settings")
    if "DEBUG" not in os.environ and "SECRET_KEY" not in os.environ:
        # A checkout with no configuration at all is a developer's: manage.py then runs in
        # development mode. Production sets SECRET_KEY (or DEBUG=0), and the WSGI/ASGI entry
        # points never fall back.
        os.environ["DEBUG"] = "1"
    from django.core.exceptions import ImproperlyConfigured
    from django.core.management import execute_from_command_line

    try:
        execute_from_command_line(sys.argv)
    except ImproperlyConfigured as exc:
        # A configuration mistake gets one line naming the variable, not a traceback.
        sys.exit(f"polotrainer: {exc}")


if __name__ == "__main__":
    main()
