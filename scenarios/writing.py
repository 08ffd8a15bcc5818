"""Writing a scenario entry as the content files hold it: the TOML `read_content` reads back.

The standard library reads TOML (`tomllib`) but does not write it, and the entries hold only
strings, numbers, booleans, lists and tables, so this small writer is enough: it lays an entry
out as scenarios/content/scenarios/*.toml do (the texts as `title.it = ...`, then
`[scenario.facts]`, one `[scenario.params.<name>]` per parameter, `[scenario.derived]` and one
`[[scenario.question]]` per question), and `tomllib.loads` gives the entry back, equal.

>>> import tomllib
>>> entry = {"slug": "s", "title": {"it": "Un \\"fallo\\"", "en": "A foul"}, "facts": {"n": 2}}
>>> print(scenario_toml(entry))
[[scenario]]
slug = "s"
title.it = "Un \\"fallo\\""
title.en = "A foul"
<BLANKLINE>
[scenario.facts]
n = 2
<BLANKLINE>
>>> tomllib.loads(scenario_toml(entry))["scenario"] == [entry]
True
"""

import json
import math
import re
from collections.abc import Iterator, Mapping
from typing import Any

from scenarios.content import SCENARIO_KEYS

#: The order of an entry's keys in the files (any other key follows, in its own order).
ORDER = ("slug", "section", "case", "kind", "cites", "title", "constraints", "situation",
         "explanation", "facts", "params", "derived", "question")  # fmt: skip
_BARE = re.compile(r"^[A-Za-z0-9_-]+$")
assert set(ORDER) == SCENARIO_KEYS


def scenario_toml(entry: Mapping[str, Any], comment: str = "") -> str:
    """One `[[scenario]]` entry, with `comment` (any lines) above it as `#` comments."""
    lines = [f"# {line}".rstrip() for line in comment.splitlines()]
    lines.append("[[scenario]]")
    keys = sorted(entry, key=lambda k: ORDER.index(k) if k in ORDER else len(ORDER))
    tables: list[str] = []
    for key in keys:
        value = entry[key]
        if key in {"facts", "derived"} and isinstance(value, Mapping) and value:
            tables += ["", f"[scenario.{_key(key)}]", *_body(value)]
        elif key == "params" and _all(value, Mapping) and value:
            for name, param in value.items():
                tables += ["", f"[scenario.params.{_key(name)}]", *_body(param)]
        elif key == "question" and isinstance(value, list) and value and _all(value, Mapping):
            for question in value:
                tables += ["", "[[scenario.question]]", *_body(question)]
        else:
            lines += _body({key: value})
    return "\n".join([*lines, *tables, ""])


def _body(table: Mapping[str, Any]) -> Iterator[str]:
    """A table's keys: a table of texts (or of tables) as dotted keys, anything else inline."""
    for key, value in table.items():
        if isinstance(value, Mapping) and value and _all(value, (str, Mapping)):
            for sub, item in value.items():
                yield f"{_key(key)}.{_key(sub)} = {_value(item)}"
        else:
            yield f"{_key(key)} = {_value(value)}"


def _all(value: Any, kind: Any) -> bool:
    items = value.values() if isinstance(value, Mapping) else value
    return isinstance(value, Mapping | list) and all(isinstance(v, kind) for v in items)


def _key(key: str) -> str:
    return key if _BARE.match(key) else _string(key)


def _string(text: str) -> str:
    # JSON's escapes are TOML's; TOML also wants DEL escaped.
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        return repr(value) if math.isfinite(value) else ("inf" if value > 0 else "-inf")
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, Mapping):
        if not value:
            return "{}"
        return "{ " + ", ".join(f"{_key(k)} = {_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"TOML has no value for {value!r}")
