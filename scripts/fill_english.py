"""Tidy both catalogs after makemessages: English entries get their msgid as msgstr (the code's
strings are English), headers lose the template's fuzzy flag and name their language."""

from pathlib import Path

import polib

LOCALE = Path(__file__).resolve().parent.parent / "polotrainer" / "locale"

for lang in ("it", "en"):
    po_path = LOCALE / lang / "LC_MESSAGES" / "django.po"
    catalog = polib.pofile(str(po_path))
    catalog.metadata.update(
        {
            "Project-Id-Version": "polotrainer",
            "Language": lang,
            "Plural-Forms": "nplurals=2; plural=(n != 1);",
        }
    )
    catalog.metadata_is_fuzzy = False
    if lang == "en":
        for entry in catalog:
            if entry.msgid_plural:
                entry.msgstr_plural = {0: entry.msgid, 1: entry.msgid_plural}
            else:
                entry.msgstr = entry.msgid
            if "fuzzy" in entry.flags:
                entry.flags.remove("fuzzy")
            # The "#|" previous msgid is a hint for a fuzzy translation; there is none here.
            entry.previous_msgid = entry.previous_msgid_plural = entry.previous_msgctxt = None
    catalog.save()
