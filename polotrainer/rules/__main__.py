"""Command line: ``python -m polotrainer.rules KIND`` reads JSON facts on stdin, prints the ruling.

``--list`` prints every kind and its fields; ``--list --json`` prints {kind: describe(kind)}.
Invalid input exits 2 with one line on stderr naming the field and what was expected.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from .errors import FactError
from .kinds import KINDS, describe, rule_json

USAGE = "usage: python -m polotrainer.rules KIND < facts.json | --list [--json]"


def main(argv: Sequence[str], stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    """Run the command line; return the exit status."""
    args = list(argv)
    if args in (["--list"], ["--list", "--json"], ["--json", "--list"]):
        if "--json" in args:
            json.dump({name: describe(name) for name in KINDS}, stdout, indent=2)
            stdout.write("\n")
        else:
            stdout.write(_listing())
        return 0
    if len(args) != 1 or args[0].startswith("-"):
        stderr.write(USAGE + "\n")
        return 2
    try:
        facts = json.loads(stdin.read())
    except json.JSONDecodeError as error:
        stderr.write(
            f"facts: expected one JSON object on stdin ({error.msg}, line {error.lineno})\n"
        )
        return 2
    except (UnicodeDecodeError, RecursionError):
        stderr.write("facts: expected one JSON object on stdin (UTF-8, not nested too deeply)\n")
        return 2
    try:
        ruling = rule_json(args[0], facts)
    except FactError as error:
        stderr.write(f"{error.field}: {error.expected} [{error.code}]\n")
        return 2
    json.dump(ruling, stdout, indent=2)
    stdout.write("\n")
    return 0


def _listing() -> str:
    lines: list[str] = []
    for name in KINDS:
        schema = describe(name)
        lines.append(f"{name}: {schema['summary']}")
        for title in ("facts", "ruling"):
            lines.append(f"  {title}:")
            for field, entry in schema[title].items():
                lines.append(f"    {field}: {_entry(entry)}")
    return "\n".join(lines) + "\n"


def _entry(entry: dict[str, Any]) -> str:
    text = str(entry["type"])
    if "choices" in entry:
        text += " (" + " | ".join(entry["choices"]) + ")"
    if entry.get("required") is False:
        text += f" = {json.dumps(entry.get('default'))}"
    return text


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:], sys.stdin, sys.stdout, sys.stderr))
