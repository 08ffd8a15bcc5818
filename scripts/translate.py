"""Fill Italian catalog entries from a JSON file of {msgid: msgstr or [singular, plural]}.

    .venv/bin/python scripts/translate.py translations.json

For the edit loop after `make makemessages`: every entry named in the file is set and its
fuzzy flag cleared; entries not named are left as they are. Prints what is still missing.
"""

import json
import sys
from pathlib import Path

import polib

CATALOG = Path(__file__).resolve().parent.parent / "polotrainer/locale/it/LC_MESSAGES/django.po"


def main() -> None:
    wanted = json.loads(Path(sys.argv[1]).read_text("utf-8")) if len(sys.argv) > 1 else {}
    po = polib.pofile(str(CATALOG))
    for entry in po:
        if entry.msgid not in wanted:
            continue
        text = wanted[entry.msgid]
        if entry.msgid_plural:
            singular, plural = text if isinstance(text, list) else (text, text)
            entry.msgstr_plural = {0: singular, 1: plural}
        else:
            entry.msgstr = text
        if "fuzzy" in entry.flags:
            entry.flags.remove("fuzzy")
            entry.previous_msgid = entry.previous_msgid_plural = entry.previous_msgctxt = None
    po.save()
    for entry in po.untranslated_entries() + po.fuzzy_entries():
        print("missing:", json.dumps(entry.msgid, ensure_ascii=False))


if __name__ == "__main__":
    main()
