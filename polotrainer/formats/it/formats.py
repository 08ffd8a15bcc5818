"""Italian formats: the day without a leading zero ("7 dicembre 2026", Django's is "07")."""

DATE_FORMAT = "j F Y"
DATETIME_FORMAT = "j F Y, H:i"
MONTH_DAY_FORMAT = "j F"
TIME_FORMAT = "H:i"
