"""Moments (dates and times) as people read them in each language, and as machines read them.

Django's own formats give "Nov. 30, 2026, 2:06 p.m." in English (its full stop doubles up at the
end of a sentence) and "Lunedì 30 Novembre" in Italian, which writes the names of days and
months in lower case. These filters give one day-first, 24-hour style in both languages.
"""

from datetime import date, datetime

from django import template
from django.utils import formats, timezone
from django.utils.translation import get_language

register = template.Library()

FORMATS = {
    "long": "l j F Y, H:i",  # lunedì 30 novembre 2026, 14:06 · Monday 30 November 2026, 14:06
    "date": "j F Y",  # 30 novembre 2026 · 30 November 2026
    "short": "j M Y, H:i",  # 30 nov 2026, 14:06 · 30 Nov 2026, 14:06
    "day": "j M",  # 30 nov · 30 Nov
}
# Django's Italian names are capitalised, as at the start of a sentence; inside one they are not.
LOWER_CASE_NAMES = frozenset({"it"})


def _local(value: date) -> date:
    if isinstance(value, datetime) and timezone.is_aware(value):
        return timezone.localtime(value)
    return value


@register.filter
def moment(value: date | None, style: str = "long") -> str:
    """A date or time in the page's language: {{ card.due|moment }}, {{ day|moment:"day" }}."""
    if value is None:
        return ""
    text = formats.date_format(_local(value), FORMATS[style])
    return text.lower() if (get_language() or "")[:2] in LOWER_CASE_NAMES else text


@register.filter
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
