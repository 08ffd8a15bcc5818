"""URL converters for every app.

`<id:...>` is a database id: 1 to 18 digits, so that a number no database column can hold
(the fuzz test sends them) is a 404 from the resolver, never a server error from the database.
"""

from django.urls import register_converter


class IdConverter:
    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


def register() -> None:
    register_converter(IdConverter, "id")
