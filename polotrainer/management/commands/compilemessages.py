"""`manage.py compilemessages`: this project's catalogs, compiled with polib (no msgfmt needed).

It takes the place of Django's command of the same name, which needs GNU gettext's msgfmt on
the server; the deploy steps in the README run it.
"""

from typing import Any

from django.core.management.base import BaseCommand

from polotrainer.catalogs import LOCALE, compile_catalogs


class Command(BaseCommand):
    help = "Compile polotrainer/locale/*/LC_MESSAGES/django.po into .mo files (with polib)."

    def handle(self, *args: Any, **options: Any) -> None:
        written = compile_catalogs()
        for mo in written:
            self.stdout.write(f"compiled {mo.relative_to(LOCALE.parent.parent)}")
        if not written:
            self.stdout.write("catalogs up to date")
