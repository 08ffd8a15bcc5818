"""Print the look-alike table of polotrainer/clinics/lookalikes.py from Unicode's data.

    .venv/bin/python scripts/confusables_table.py confusables.txt

`confusables.txt` is the data file of Unicode Technical Standard #39 (Security Mechanisms).
Kept: the characters of the scripts a phone keyboard offers beside Latin (Greek, Cyrillic,
Armenian, Cherokee, Coptic, Lisu, and Latin's own extensions) that the standard maps to a
single ASCII letter or digit and that NFKC leaves as they are (NFKC runs first, so full-width
and mathematical letters need no entry; a character NFKC changes is looked up in its new form).
A capital that the standard maps to "l" (its prototype for I-like strokes) is kept as "I": the
key is case-blind, and I and l must stay apart there (Ivan is not lvan).
"""

import sys
import unicodedata
from collections import defaultdict
from pathlib import Path

SCRIPTS = {"LATIN", "GREEK", "CYRILLIC", "ARMENIAN", "CHEROKEE", "COPTIC", "LISU"}


def table(path: Path) -> dict[str, str]:
    """{ASCII prototype: its look-alikes}, from the standard's data file."""
    found: dict[str, str] = {}
    for line in path.read_text("utf-8-sig").splitlines():
        data = line.split("#", 1)[0].strip()
        if not data:
            continue
        source, target = (field.strip() for field in data.split(";")[:2])
        char = chr(int(source, 16))
        prototype = "".join(chr(int(code, 16)) for code in target.split())
        if char.isascii() or len(prototype) != 1 or not prototype.isascii():
            continue
        if not prototype.isalnum() or unicodedata.normalize("NFKC", char) != char:
            continue
        if unicodedata.name(char, "").split(" ")[0] not in SCRIPTS:
            continue
        if prototype == "l" and unicodedata.category(char) == "Lu":
            prototype = "I"
        found[char] = prototype
    grouped: dict[str, str] = defaultdict(str)
    for char, prototype in sorted(found.items()):
        grouped[prototype] += char
    return dict(sorted(grouped.items()))


def _escape(char: str) -> str:
    return f"\\u{ord(char):04x}" if ord(char) < 0x10000 else f"\\U{ord(char):08x}"


def main() -> None:
    print("LOOK_ALIKES = {")
    for prototype, chars in table(Path(sys.argv[1])).items():
        escaped = "".join(
            f"\\u{ord(c):04x}" if ord(c) < 0x10000 else f"\\U{ord(c):08x}" for c in chars
        )
        print(f'    "{prototype}": "{escaped}",')
    print("}")


if __name__ == "__main__":
    main()
