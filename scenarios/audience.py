"""Who may meet a scenario: everyone meets the bundled ones, only its audience an authored one.

A scenario written in the browser (`Scenario.authored`) belongs to a course and is shown to that
course's people only. This app knows nothing of courses (tests/site/test_layers.py): the app that
keeps the ownership (polotrainer.authoring) registers a resolver here when it starts, a function
from a person's user id to the authored scenarios they may meet. Every listing asks through
`visible()` (or `Scenario.objects.live_for`), every page that opens a scenario by its slug
through `sees()`; with no resolver registered nobody meets an authored scenario.
"""

from collections.abc import Callable
from typing import Any

from django.db.models import Q

#: user id (None for a visitor) -> a queryset of the pks of the authored scenarios they meet.
Resolver = Callable[[int | None], Any]
_RESOLVERS: list[Resolver] = []


def register(resolver: Resolver) -> None:
    if resolver not in _RESOLVERS:
        _RESOLVERS.append(resolver)


def visible(user_id: int | None, prefix: str = "") -> Q:
    """The scenarios the person may meet, as a filter (`prefix`: the path to the scenario, as
    "scenario__" from a row pointing at one)."""
    q = Q(**{f"{prefix}authored": False})
    if user_id is None:
        return q
    for resolver in _RESOLVERS:
        q |= Q(**{f"{prefix}pk__in": resolver(user_id)})
    return q


def sees(user_id: int | None, scenario: Any) -> bool:
    """Whether the person may meet this one scenario (a page opened by its slug)."""
    if not scenario.authored:
        return True
    if user_id is None:
        return False
    return bool(type(scenario).objects.filter(visible(user_id), pk=scenario.pk).exists())
