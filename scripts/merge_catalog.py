"""After merging branches: take Italian translations missing here from other catalogs.

    .venv/bin/python scripts/merge_catalog.py other.po [more.po ...]

Run after `make makemessages`: every entry of ours that is untranslated or fuzzy gets the
translation another catalog has for the same msgid (and context), if it has one. Prints what
is still missing.
"""

import sys
from pathlib import Path

import polib

CATALOG = Path(__file__).resolve().parent.parent / "polotrainer/locale/it/LC_MESSAGES/django.po"


def main() -> None:
    ours = polib.pofile(str(CATALOG))
    known = {}
    for path in sys.argv[1:]:
        for entry in polib.pofile(path):
            if entry.translated() and "fuzzy" not in entry.flags:
                known[(entry.msgctxt, entry.msgid)] = entry
    for entry in ours.untranslated_entries() + ours.fuzzy_entries():
        other = known.get((entry.msgctxt, entry.msgid))
        if other is None or other.msgid_plural != entry.msgid_plural:
            continue
        entry.msgstr, entry.msgstr_plural = other.msgstr, dict(other.msgstr_plural)
        if "fuzzy" in entry.flags:
            entry.flags.remove("fuzzy")
            entry.previous_msgid = entry.previous_msgid_plural = entry.previous_msgctxt = None
    ours.save()
    for entry in ours.untranslated_entries() + ours.fuzzy_entries():
        print("missing:", entry.msgctxt or "", repr(entry.msgid))


if __name__ == "__main__":
    main()
