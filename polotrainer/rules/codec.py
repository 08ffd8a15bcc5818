"""JSON facts in, JSON rulings out: the one place that knows the wire format.

Facts are parsed field by field from the situation dataclass's own annotations, so the JSON of a
kind is its dataclass: enums by value, points as ``{"x": .., "y": ..}``, tuples as lists.

>>> from .field import Field
>>> parse(Field, {"width": 200, "boarded": False})
Field(length=300.0, width=200.0, boarded=False)
>>> to_json(Field())
{'length': 300.0, 'width': 160.0, 'boarded': True}
"""

from __future__ import annotations

import dataclasses
import math
import types
import typing
from collections.abc import Mapping
from enum import Enum
from functools import cache
from typing import Any

from .errors import (
    FactError,
    InvalidChoice,
    MissingFact,
    OutOfRange,
    UnknownFact,
    UnknownPenalty,
    WrongType,
)
from .field import Point
from .penalties import SpotPenalty
from .vocabulary import Reason, Step

_MISSING = dataclasses.MISSING


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


@cache
def fields_of(cls: type) -> tuple[tuple[str, Any, object], ...]:
    """Each field of a dataclass: name, type, and default (``dataclasses.MISSING`` if none).

    Kept per class: every ruling parses its facts and writes its ruling field by field, and
    asking the dataclass for its fields each time was a third of the work."""
    hints = _hints(cls)
    return tuple((f.name, hints[f.name], f.default) for f in dataclasses.fields(cls))


@cache
def _names(cls: type) -> frozenset[str]:
    return frozenset(name for name, _, _ in fields_of(cls))


@cache
def _field_names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls))


def parse[T](cls: type[T], raw: object, path: str = "") -> T:
    """Build dataclass ``cls`` from JSON-like ``raw``, validating every field."""
    if not isinstance(raw, Mapping):
        raise WrongType(path or "facts", "expected an object")
    shape: type = cls  # a class, so a key of the caches
    known = _names(shape)
    for name in raw:
        if name not in known:
            raise UnknownFact(
                _join(path, str(name) or '""'), f"expected one of: {', '.join(sorted(known))}"
            )
    values: dict[str, object] = {}
    for name, tp, default in fields_of(shape):
        where = _join(path, name)
        if name in raw:
            values[name] = _value(where, tp, raw[name])
        elif default is _MISSING:
            raise MissingFact(where, f"expected {_expected(tp)}")
    try:
        return cls(**values)
    except FactError as error:
        if path:
            raise error.within(path) from None
        raise


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def _value(path: str, tp: Any, raw: object) -> object:
    if isinstance(tp, types.UnionType):
        if raw is None:
            return None
        (tp,) = (arg for arg in typing.get_args(tp) if arg is not type(None))
    if typing.get_origin(tp) is tuple:
        if not isinstance(raw, list):
            raise WrongType(path, f"expected a list of {_expected(typing.get_args(tp)[0])}")
        item = typing.get_args(tp)[0]
        return tuple(_value(f"{path}[{i}]", item, v) for i, v in enumerate(raw))
    if tp is bool:
        if not isinstance(raw, bool):
            raise WrongType(path, "expected true or false")
        return raw
    if tp is int:
        if isinstance(raw, bool) or not isinstance(raw, int):
            raise WrongType(path, "expected a whole number")
        return raw
    if tp is float:
        if isinstance(raw, bool) or not isinstance(raw, int | float):
            raise WrongType(path, "expected a number")
        if not math.isfinite(raw):
            raise OutOfRange(path, "expected a finite number")
        return float(raw)
    if tp is str:
        if not isinstance(raw, str) or not raw:
            raise WrongType(path, "expected a non-empty string")
        return raw
    if issubclass(tp, Enum):
        try:
            return tp(raw)
        except ValueError:
            error = UnknownPenalty if tp is SpotPenalty else InvalidChoice
            raise error(path, f"expected {_expected(tp)}") from None
    return parse(tp, raw, path)


def _expected(tp: Any) -> str:
    if isinstance(tp, type) and issubclass(tp, Enum):
        return "one of " + ", ".join(repr(m.value) for m in tp)
    return f"a {describe_type(tp)['type']}"


def describe_type(tp: Any) -> dict[str, object]:
    """The schema entry of a field type: {"type": T, "choices": [...]?}."""
    if isinstance(tp, types.UnionType):
        (tp,) = (arg for arg in typing.get_args(tp) if arg is not type(None))
    if typing.get_origin(tp) is tuple:
        item = typing.get_args(tp)[0]
        if item is str:
            return {"type": "ids"}
        if item is Reason:
            return {"type": "reasons"}
        if issubclass(item, Step):
            return {"type": "sequence", "choices": [m.value for m in item]}
        if issubclass(item, Enum):
            return {"type": "enums", "choices": [m.value for m in item]}
        if "id" in {f.name for f in dataclasses.fields(item)}:
            return {"type": "players", "fields": describe_fields(item)}
        return {"type": "object", "fields": describe_fields(item)}
    simple = {bool: "bool", int: "int", float: "number", str: "id", Point: "point"}
    if tp in simple:
        return {"type": simple[tp]}
    if issubclass(tp, Enum):
        return {"type": "enum", "choices": [m.value for m in tp]}
    return {"type": "object", "fields": describe_fields(tp)}


def describe_fields(cls: type) -> dict[str, dict[str, object]]:
    """The schema of every field of a dataclass, with defaults and whether it is required."""
    schema: dict[str, dict[str, object]] = {}
    for name, tp, default in fields_of(cls):
        entry = describe_type(tp)
        if default is not _MISSING:
            entry["default"] = to_json(default)
        entry["required"] = default is _MISSING
        schema[name] = entry
    return schema


def to_json(value: object) -> Any:
    """The JSON-compatible form of a ruling (or any engine value)."""
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple):
        return [to_json(v) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {name: to_json(getattr(value, name)) for name in _field_names(type(value))}
    return value
