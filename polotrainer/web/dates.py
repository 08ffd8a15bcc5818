"""Moments (dates and times) as people read them in each language, and as machines read them.

Django's own formats give "Nov. 30, 2026, 2:06 p.m." in English (its full stop doubles up at the
end of a sentence) and "30 Nov" in Italian, which writes the names of days and months in lower
case. `moment` gives one day-first, 24-hour style in both languages, as the site's own
DATE_FORMAT and TIME_FORMAT do (polotrainer/formats/); pages use it as a filter
(polotrainer/templatetags/moments.py), messages call it.

Month and weekday names as Italian writes them, in lower case ("6 dicembre 2026, lunedì"): the
msgids below are Django's own (django.utils.dates, the `F` and `l` date formats); naming them
here puts them in our catalog, which Django reads before its own capitalised one.
"""

from datetime import date, datetime

from django.utils import formats, timezone
from django.utils.translation import get_language, gettext_noop

MONTHS = (
    gettext_noop("January"),
    gettext_noop("February"),
    gettext_noop("March"),
    gettext_noop("April"),
    gettext_noop("May"),
    gettext_noop("June"),
    gettext_noop("July"),
    gettext_noop("August"),
    gettext_noop("September"),
    gettext_noop("October"),
    gettext_noop("November"),
    gettext_noop("December"),
)
WEEKDAYS = (
    gettext_noop("Monday"),
    gettext_noop("Tuesday"),
    gettext_noop("Wednesday"),
    gettext_noop("Thursday"),
    gettext_noop("Friday"),
    gettext_noop("Saturday"),
    gettext_noop("Sunday"),
)

FORMATS = {
    "long": "l j F Y, H:i",  # lunedì 30 novembre 2026, 14:06 · Monday 30 November 2026, 14:06
    "date": "j F Y",  # 30 novembre 2026 · 30 November 2026
    "short": "j M Y, H:i",  # 30 nov 2026, 14:06 · 30 Nov 2026, 14:06
    "day": "j M",  # 30 nov · 30 Nov
    "zoned": "j F Y, H:i T",  # 30 novembre 2026, 14:06 CET: a moment inside a sentence
    "short_zoned": "j M Y, H:i T",  # 30 nov 2026, 14:06 CET
    "time": "H:i",  # 14:06
    "time_zoned": "H:i T",  # 14:06 CET
}
# Django's month abbreviations (M) are capitalised, as at the start of a sentence; Italian writes
# them in lower case inside one (b). Full names (F, l) are lower case through the catalog (above).
LOWER_CASE_ABBREVIATIONS = frozenset({"it"})


def _local(value: date) -> date:
    if isinstance(value, datetime) and timezone.is_aware(value):
        return timezone.localtime(value)
    return value


def moment(value: date | None, style: str = "long") -> str:
    """A date or time in the active language: {{ card.due|moment }}, {{ day|moment:"day" }}.

    Aware times are shown in the current time zone (a `{% timezone %}` block's, a course's).
    """
    if value is None:
        return ""
    shape = FORMATS[style]
    if (get_language() or "")[:2] in LOWER_CASE_ABBREVIATIONS:
        shape = shape.replace("M", "b")
    return formats.date_format(_local(value), shape)


def machine(value: date | None) -> str:
    """A valid HTML `datetime` attribute: ISO 8601 to the second, with the zone offset.

    Django's "c" format carries microseconds, which HTML does not allow (at most 3 digits).
    """
    if value is None:
        return ""
    if isinstance(value, datetime):
        local = timezone.localtime(value) if timezone.is_aware(value) else value
        return local.isoformat(timespec="seconds")
    return value.isoformat()
