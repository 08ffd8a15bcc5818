"""The translation catalogs: compiled from .po to .mo with polib, so GNU gettext is not needed.

Compiled .mo files are build output (git-ignored): `manage.py compilemessages` (this project's
own, see management/commands) writes them, and the WSGI/ASGI entry points refuse to start
without them, since a site without them silently serves English at /it/.
"""

from pathlib import Path

import polib
from django.core.exceptions import ImproperlyConfigured

LOCALE = Path(__file__).resolve().parent / "locale"


def stale(locale: Path = LOCALE) -> list[Path]:
    """The catalogs whose .mo is missing or older than the .po."""
    return [
        po
        for po in sorted(locale.glob("*/LC_MESSAGES/django.po"))
        if not po.with_suffix(".mo").exists()
        or po.with_suffix(".mo").stat().st_mtime < po.stat().st_mtime
    ]


def compile_catalogs(locale: Path = LOCALE) -> list[Path]:
    """Compile every stale catalog; return the .mo files written."""
    written = []
    for po in stale(locale):
        mo = po.with_suffix(".mo")
        polib.pofile(str(po)).save_as_mofile(str(mo))
        written.append(mo)
    return written


def require_compiled(locale: Path = LOCALE) -> None:
    """Refuse to serve with a missing or stale catalog (the entry points call this)."""
    if missing := stale(locale):
        names = ", ".join(str(po.relative_to(locale)) for po in missing)
        raise ImproperlyConfigured(
            f"translations are not compiled ({names}): run `manage.py compilemessages`"
        )
