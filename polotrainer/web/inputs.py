"""Form inputs as a browser fills and sends them, whatever the language of the page.

A date input takes and sends its value as 2026-11-26, a datetime-local one as 2026-11-26T09:30,
a time one as 09:30, in every locale; a value in another format it shows as empty and sends as
"". Django's date widgets write the active language's format (26/11/2026 in Italian), so a form
saved unchanged in Italian lost its dates. Every date, date-and-time and time field of the site is
one of these, and reads back only what a browser sends.

A datetime-local input has no time zone: the field says which one its wall clock is in (a
course's, for an exam), for showing and for reading alike.

A textarea's line breaks come back from a browser as CR LF; stored as LF, a text sent back
unchanged is the same text, and its length counts a line break once, as the browser's maxlength
does.
"""

from contextlib import AbstractContextManager, nullcontext
from datetime import datetime, tzinfo
from typing import Any

from django import forms
from django.utils import timezone

DATE = "%Y-%m-%d"
DATETIME = "%Y-%m-%dT%H:%M"
TIME = "%H:%M"


class DateInput(forms.DateInput):
    input_type = "date"

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        super().__init__(attrs, format=DATE)


class DateTimeInput(forms.DateTimeInput):
    input_type = "datetime-local"

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        super().__init__(attrs, format=DATETIME)


class TimeInput(forms.TimeInput):
    input_type = "time"

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        super().__init__(attrs, format=TIME)


class DateField(forms.DateField):
    widget = DateInput
    input_formats = [DATE]


class TimeField(forms.TimeField):
    widget = TimeInput
    input_formats = [TIME, "%H:%M:%S", "%H:%M:%S.%f"]


class DateTimeField(forms.DateTimeField):
    """A wall-clock time in `zone` (the active time zone when None)."""

    widget = DateTimeInput
    input_formats = [DATETIME, "%Y-%m-%dT%H:%M:%S", "%Y-%m-%dT%H:%M:%S.%f"]

    def __init__(self, *, zone: tzinfo | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.zone = zone

    def _in_zone(self) -> AbstractContextManager[None]:
        return timezone.override(self.zone) if self.zone is not None else nullcontext()

    def prepare_value(self, value: Any) -> Any:
        with self._in_zone():
            return super().prepare_value(value)

    def to_python(self, value: Any) -> datetime | None:
        # Django's own reading, with its message for a time the zone skips or repeats.
        with self._in_zone():
            return super().to_python(value)


class Textarea(forms.Textarea):
    def value_from_datadict(self, data: Any, files: Any, name: str) -> Any:
        value = super().value_from_datadict(data, files, name)
        if isinstance(value, str):
            return value.replace("\r\n", "\n").replace("\r", "\n")
        return value
