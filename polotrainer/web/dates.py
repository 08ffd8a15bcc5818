"""Month and weekday names as Italian writes them, in lower case ("6 dicembre 2026, lunedì").

These msgids are Django's own (django.utils.dates, the `F` and `l` date formats); naming them
here puts them in our catalog, which Django reads before its own capitalised one.
"""

from django.utils.translation import gettext_noop

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
