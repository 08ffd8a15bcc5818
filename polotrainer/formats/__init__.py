"""The site's date and time formats, one module per language (settings.FORMAT_MODULE_PATH).

Only the formats people read are set; Django's own module answers the rest (the input formats
among them). One day-first, 24-hour style in both languages, as the moment filter writes:
"7 dicembre 2026", "7 December 2026", "14:30" (Django's own give "07 dicembre 2026" and
"Dec. 7, 2026, 2:30 p.m.").
"""
