"""A chosen list of situations to practise in turn, carried by a signed token in its address.

The token names the scenarios (their ids, in order) and nothing else: signed with the site's
SECRET_KEY under its own salt, it never expires (a follow-up mail read a week later still
works) and a token changed in any character is refused. It grants nothing: each scenario is
served by practice as any other, to whoever may meet it (scenarios.audience).
"""

from collections.abc import Sequence

from django.core import signing

SALT = "polotrainer.practice.set"
#: Most situations one set carries (a clinic has at most 30 rounds).
MAX_SIZE = 30


class BadSet(ValueError):
    """Not a set token this site signed."""


def token(scenario_ids: Sequence[int]) -> str:
    """The token of the scenarios, in order (duplicates dropped, at most MAX_SIZE)."""
    ids = list(dict.fromkeys(int(pk) for pk in scenario_ids))[:MAX_SIZE]
    return signing.dumps(ids, salt=SALT, compress=True)


def read(text: str) -> list[int]:
    """The scenario ids a token names; BadSet for anything this site did not sign."""
    try:
        value = signing.loads(text[:400], salt=SALT)
    except signing.BadSignature:
        raise BadSet from None
    if (
        not isinstance(value, list)
        or not value
        or len(value) > MAX_SIZE
        or any(type(pk) is not int for pk in value)
    ):
        raise BadSet
    return value
