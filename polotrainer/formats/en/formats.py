"""English formats: day first and 24-hour, as on the Italian pages, and no month number in a
short date ("26 Nov 2026"): 04/12/2026 reads as two different days on either side of the
Atlantic."""

DATE_FORMAT = "j F Y"
DATETIME_FORMAT = "j F Y, H:i"
MONTH_DAY_FORMAT = "j F"
TIME_FORMAT = "H:i"
SHORT_DATE_FORMAT = "j M Y"
SHORT_DATETIME_FORMAT = "j M Y, H:i"
