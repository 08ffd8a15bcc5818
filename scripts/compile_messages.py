"""Compile polotrainer/locale/*/LC_MESSAGES/django.po into .mo files, without GNU gettext.

`manage.py compilemessages` needs msgfmt, which a fresh macOS lacks; polib is pure Python.
Only catalogs newer than their .mo are compiled, so a second run costs nothing.
"""

from pathlib import Path

import polib

LOCALE = Path(__file__).resolve().parent.parent / "polotrainer" / "locale"

for po_path in sorted(LOCALE.glob("*/LC_MESSAGES/django.po")):
    mo_path = po_path.with_suffix(".mo")
    if mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime:
        continue
    polib.pofile(str(po_path)).save_as_mofile(str(mo_path))
    print(f"compiled {mo_path.relative_to(LOCALE.parent.parent)}")
