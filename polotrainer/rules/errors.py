"""Errors raised for impossible or malformed facts.

Every error is a :class:`ValueError` carrying ``field`` (the dotted path of the fact, as written
in the JSON facts, e.g. ``"players[2].handicap"``) and ``code`` (a stable machine code).
"""

from __future__ import annotations

from typing import ClassVar


class FactError(ValueError):
    """A fact of a situation is missing, malformed or impossible."""

    code: ClassVar[str] = "invalid"

    def __init__(self, field: str, expected: str) -> None:
        super().__init__(f"{field}: {expected}")
        self.field = field
        self.expected = expected

    def within(self, prefix: str) -> FactError:
        """Return the same error with ``prefix`` put in front of its field path."""
        return type(self)(f"{prefix}.{self.field}", self.expected)


class UnknownKind(FactError):
    """The kind of ruling asked for does not exist."""

    code = "unknown_kind"


class UnknownFact(FactError):
    """The facts name a field the situation does not have."""

    code = "unknown_fact"


class MissingFact(FactError):
    """A fact the ruling needs was not given."""

    code = "missing"


class WrongType(FactError):
    """A fact has the wrong JSON type."""

    code = "wrong_type"


class InvalidChoice(FactError):
    """A fact is not one of the allowed enum values."""

    code = "invalid_choice"


class UnknownPenalty(FactError):
    """The penalty is not one this kind of ruling applies to."""

    code = "unknown_penalty"


class OutOfRange(FactError):
    """A number lies outside its allowed range."""

    code = "out_of_range"


class OffField(FactError):
    """A point that must lie on the field lies outside it."""

    code = "off_field"


class TooManyPlayers(FactError):
    """A side would have more players than the rules allow."""

    code = "too_many_players"


class TooFewPlayers(FactError):
    """A side has fewer players than the situation needs."""

    code = "too_few_players"


class NotOnField(FactError):
    """A player named by id is not among the players on the field."""

    code = "not_on_field"


class DuplicateId(FactError):
    """Two players share the same id."""

    code = "duplicate_id"


class OverUpperLimit(FactError):
    """A team starts above the event's upper handicap limit: it could not have played."""

    code = "over_upper_limit"


class Inconsistent(FactError):
    """Facts contradict each other or the rules' premises."""

    code = "inconsistent"
