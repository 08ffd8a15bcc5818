"""vocabulary.toml names, in it and en, every enum value and reason key the engine can produce."""

import dataclasses
import tomllib
import types
import typing
from enum import Enum
from pathlib import Path

from polotrainer.rules import KINDS, ReasonKey

VOCABULARY = Path(__file__).resolve().parents[2] / "scenarios" / "content" / "vocabulary.toml"


def _enums(tp: object, found: set[type[Enum]]) -> None:
    if isinstance(tp, types.UnionType) or typing.get_origin(tp) is tuple:
        for arg in typing.get_args(tp):
            _enums(arg, found)
    elif isinstance(tp, type) and issubclass(tp, Enum):
        found.add(tp)
    elif isinstance(tp, type) and dataclasses.is_dataclass(tp):
        for hint in typing.get_type_hints(tp).values():
            _enums(hint, found)


def enums_of(attribute: str) -> set[type[Enum]]:
    found: set[type[Enum]] = set()
    for kind in KINDS.values():
        _enums(getattr(kind, attribute), found)
    found.discard(ReasonKey)
    return found


def labels() -> dict[str, dict[str, dict[str, str]]]:
    with VOCABULARY.open("rb") as handle:
        return tomllib.load(handle)


def test_every_ruling_enum_value_has_italian_and_english() -> None:
    enum_labels = labels()["enum"]
    for enum in enums_of("ruling"):
        for member in enum:
            entry = enum_labels.get(enum.__name__, {}).get(member.value, {})
            assert entry.get("it", "").strip(), f"{enum.__name__}.{member.value}: no it"
            assert entry.get("en", "").strip(), f"{enum.__name__}.{member.value}: no en"


def test_every_reason_key_has_a_whole_sentence_in_italian_and_english() -> None:
    reasons = labels()["reason"]
    assert set(reasons) == {key.value for key in ReasonKey}
    for key, entry in reasons.items():
        assert set(entry) == {"it", "en"}, key
        for lang in ("it", "en"):
            text = entry[lang].strip()
            assert text[:1].isupper() and text.endswith("."), f"{key}.{lang}: {text!r}"


def test_the_file_has_no_keys_the_engine_does_not_know() -> None:
    known = {e.__name__: {m.value for m in e} for e in enums_of("ruling") | enums_of("situation")}
    for name, values in labels()["enum"].items():
        assert name in known, f"unknown enum {name}"
        assert set(values) <= known[name], f"{name}: {set(values) - known[name]}"
        for value, entry in values.items():
            assert set(entry) == {"it", "en"}, f"{name}.{value}"
            assert entry["it"].strip() and entry["en"].strip(), f"{name}.{value}"
    assert set(labels()) == {"enum", "reason", "overlap", "spelling"}


def test_overlapping_options_name_values_of_one_ruling_enum() -> None:
    """[overlap] pairs (options right together, for `content check`) are real enum values."""
    known = {e.__name__: {m.value for m in e} for e in enums_of("ruling")}
    for name, pairs in labels()["overlap"].items():
        assert name in known, f"unknown enum {name}"
        for pair in pairs:
            assert len(pair) == 2 and pair[0] != pair[1], f"{name}: {pair}"
            assert set(pair) <= known[name], f"{name}: {set(pair) - known[name]}"


def test_the_reasons_and_the_glossary_spell_every_word_one_way() -> None:
    """[spelling] holds for the texts content check does not render: every reason, every
    glossary term and definition."""
    from scenarios.content import misspellings

    glossary = tomllib.loads((VOCABULARY.parent / "glossary.toml").read_text("utf-8"))
    texts = [
        (key, lang, entry[lang]) for key, entry in labels()["reason"].items() for lang in entry
    ]
    for term in glossary["term"]:
        for lang in ("it", "en"):
            texts += [
                (term["slug"], lang, term[lang]),
                (term["slug"], lang, term["definition"][lang]),
            ]
    found = [(key, lang, m) for key, lang, text in texts for m in misspellings(text, lang)]
    assert found == []


def test_a_capitalised_spelling_is_looked_for_only_inside_a_sentence() -> None:
    from scenarios.content import misspellings

    assert list(misspellings("Prima dell'Evento.", "it")) == ['"Evento": write "evento"']
    assert list(misspellings("Evento da 8 gol. Evento chiuso.", "it")) == []
    assert list(misspellings("a time-out", "en")) == ['"time-out": write "time out"']
    assert list(misspellings("time-outs", "en")) == ['"time-outs": write "time outs"']
