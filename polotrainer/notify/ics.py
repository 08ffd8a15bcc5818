"""iCalendar (RFC 5545) text for exam windows and due dates, written by hand.

Why not the `icalendar` library: it is not among the pinned dependencies, and what is written
here is a handful of properties of one component type, about sixty lines with the three rules
that matter (times in UTC, text escaped, lines folded at 75 octets with CRLF); a dependency for
that would be more to audit than to read.

>>> escape("Rule 37; penalty, 2\\nnext")
'Rule 37\\\\; penalty\\\\, 2\\\\nnext'
>>> fold("X" * 80) == "X" * 75 + "\\r\\n " + "X" * 5
True
"""

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime

PRODUCT = "-//polotrainer//calendar//EN"


@dataclass(frozen=True)
class Event:
    uid: str  # stable: the same exam is the same event in every download and feed
    start: datetime
    end: datetime
    summary: str
    description: str = ""
    url: str = ""


def escape(text: str) -> str:
    """TEXT as RFC 5545 §3.3.11 writes it: backslash, semicolon, comma and newline escaped."""
    return (
        text.replace("\\", "\\\\")
        .replace(";", "\\;")
        .replace(",", "\\,")
        .replace("\r\n", "\\n")
        .replace("\n", "\\n")
        .replace("\r", "\\n")
    )


def fold(line: str) -> str:
    """One content line folded into lines of at most 75 octets (§3.1), never inside a UTF-8
    character; each continuation starts with a space, which counts towards its 75."""
    out: list[str] = []
    current, size, limit = "", 0, 75
    for char in line:
        width = len(char.encode("utf-8"))
        if size + width > limit:
            out.append(current)
            current, size, limit = " ", 1, 75
        current += char
        size += width
    out.append(current)
    return "\r\n".join(out)


def stamp(moment: datetime) -> str:
    """A DATE-TIME in UTC (form 2, with Z): no time zone definitions needed."""
    return moment.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


def calendar(events: Iterable[Event], name: str, now: datetime) -> str:
    """A VCALENDAR with the events, every line ending in CRLF."""
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        f"PRODID:{PRODUCT}",
        "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH",
        f"X-WR-CALNAME:{escape(name)}",
    ]
    for event in events:
        lines += [
            "BEGIN:VEVENT",
            f"UID:{event.uid}",
            f"DTSTAMP:{stamp(now)}",
            f"DTSTART:{stamp(event.start)}",
            f"DTEND:{stamp(event.end)}",
            f"SUMMARY:{escape(event.summary)}",
        ]
        if event.description:
            lines.append(f"DESCRIPTION:{escape(event.description)}")
        if event.url:
            lines.append(f"URL:{event.url}")
        lines.append("END:VEVENT")
    lines.append("END:VCALENDAR")
    return "".join(fold(line) + "\r\n" for line in lines)
