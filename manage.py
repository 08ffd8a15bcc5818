#!/usr/bin/env python
"""Django's command-line utility for polotrainer."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "polotrainer.settings")
    from django.core.exceptions import ImproperlyConfigured
    from django.core.management import execute_from_command_line

    try:
        execute_from_command_line(sys.argv)
    except ImproperlyConfigured as exc:
        # A configuration mistake gets one line naming the variable, not a traceback.
        sys.exit(f"polotrainer: {exc}")


if __name__ == "__main__":
    main()
