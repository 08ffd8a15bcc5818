"""The picture of the real incident shown beside a scenario, if it has one.

Only an authored scenario has one (its instructor uploads it: polotrainer.authoring.photos). This
app knows nothing of that app (tests/site/test_layers.py): it registers a resolver here when it
starts, as it does for scenarios.audience. Whoever may meet the scenario may see its picture;
an exam page leaves out a picture its instructor marked as giving the answer away.
"""

from collections.abc import Callable, Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Photo:
    url: str
    alt: Mapping[str, str]  # language -> the picture described, for those who cannot see it
    gives_away: bool  # the picture shows the answer: never on an exam page

    def alt_in(self, lang: str) -> str:
        return self.alt.get(lang) or self.alt.get("en") or self.alt.get("it") or ""


#: scenario pk -> its picture, or None.
Resolver = Callable[[int], Photo | None]
_RESOLVERS: list[Resolver] = []


def register(resolver: Resolver) -> None:
    if resolver not in _RESOLVERS:
        _RESOLVERS.append(resolver)


def photo_of(scenario_id: int, *, exam: bool = False) -> Photo | None:
    """The scenario's picture, or None (on an exam page, None for one that gives the answer)."""
    for resolver in _RESOLVERS:
        photo = resolver(scenario_id)
        if photo is not None:
            return None if exam and photo.gives_away else photo
    return None
