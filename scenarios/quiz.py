"""The quiz core: pose a scenario's variant as questions, and check the answers given to it.

Practice, exams and clinics call the same functions and know nothing of each other:

    posed = pose(scenario, seed, "it")          # what the page shows: texts, diagram, questions
    checked = check(posed, {"q-spot-along": ["30"], ...})   # per question: given, right, why

`check` first reads the submitted values (`read`); when any is not an answer of its question's
kind, nothing is graded and every question carries its error code. Exams save answers one by
one with `read_one` and grade them later with `grade`. Nothing here knows HTTP: the submitted
values are a mapping of field name to list of strings, as a form sends them.

No answer key exists: the right answer is whatever the engine rules for the variant, and a
variant frozen elsewhere (an exam attempt) can be posed again exactly as it was ruled then.
"""

import json
import random
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.utils import translation
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from polotrainer.rules import Field
from polotrainer.web.messages import Message
from scenarios import diagram
from scenarios.glossary_links import link_terms
from scenarios.localize import pick
from scenarios.questions import (
    QUESTION_TYPES,
    Answer,
    AnswerCode,
    AnswerError,
    Question,
    QuestionType,
    Read,
    build_questions,
    point,
    ruling_enum,
    ruling_schema,
    strings,
)
from scenarios.spec import Param, ScenarioSpec, spec_of
from scenarios.spots import EnginePoint, FieldSpot
from scenarios.texts import SectionText, glossary_terms, section_texts
from scenarios.variants import Variant, VariantError, make_variant, ruled_with, variant_with
from scenarios.vocabulary import enum_label, player_label, reason_text

if TYPE_CHECKING:  # the model module needs the app registry; the quiz core does not
    from scenarios.models import Scenario

__all__ = [
    "ANSWER_MESSAGES",
    "Answer",
    "AnswerCode",
    "AnswerError",
    "Check",
    "FieldSpot",
    "Marked",
    "Option",
    "PlaceInput",
    "Posed",
    "PosedQuestion",
    "QuestionType",
    "Reason",
    "VariantError",
    "WhatIf",
    "answer_message",
    "check",
    "engine_answer",
    "grade",
    "marker",
    "pose",
    "read",
    "read_one",
    "variant_of",
    "what_if",
    "what_if_controls",
]


#: What a trainee reads when an answer is not of its question's kind: one table for practice,
#: exams and clinics, a message for every code (tests/site/test_error_codes.py holds it).
ANSWER_MESSAGES: dict[AnswerCode, Message] = {
    AnswerCode.MISSING: gettext_lazy("Please answer this question."),
    AnswerCode.UNKNOWN_OPTION: gettext_lazy("That choice is not one of this question's options."),
    AnswerCode.UNKNOWN_PLAYER: gettext_lazy("That player is not in this situation."),
    AnswerCode.NOT_A_NUMBER: gettext_lazy("Please enter a number, for example 3."),
    AnswerCode.OFF_FIELD: gettext_lazy("That point is off the field: place the ball on the field."),
    AnswerCode.NOT_AN_ORDER: gettext_lazy(
        "Give each step a different place: 1 for the first, and so on."
    ),
    AnswerCode.UNKNOWN_QUESTION: gettext_lazy("This is not an answer to this question."),
}


def answer_message(code: str) -> str:
    """The words for an AnswerError's code (a Marked item's `error`), in the active language."""
    return str(ANSWER_MESSAGES[AnswerCode(code)])


# --- posing ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Option:
    """One choice of a choice, multi, yes/no or pick-the-players question."""

    value: str
    label: str
    id: str


@dataclass(frozen=True)
class PlaceInput:
    """What a place question's inputs need: the variant's field (the spot typed is measured
    on it) and the tolerance, in yards."""

    field: Field
    tolerance: float

    @property
    def length(self) -> float:
        return self.field.length

    @property
    def half_width(self) -> float:
        return self.field.half_width


@dataclass(frozen=True)
class PosedQuestion:
    """One question as a form shows it."""

    id: str
    type: QuestionType
    prompt: str
    options: tuple[Option, ...]
    tolerance: float
    place: PlaceInput | None
    # Left out of comparing and hashing: what the form shows is the fields above, which a part
    # of a page kept for them ({% shared %}, templates/scenarios/question_fields.html) is keyed by.
    source: Question = field(repr=False, compare=False)

    @property
    def places(self) -> range:
        """The places an order question's steps can take: 1 to the number of steps."""
        return range(1, len(self.options) + 1)

    @property
    def name(self) -> str:
        """The form field's name (a place question has `-along` and `-across` after it)."""
        return f"q-{self.id}"

    @property
    def fields(self) -> tuple[str, ...]:
        if self.type == QuestionType.PLACE:
            return (f"{self.name}-along", f"{self.name}-across")
        if self.type == QuestionType.ORDER:
            return tuple(f"{self.name}-{o.value}" for o in self.options)
        return (self.name,)


@dataclass(frozen=True)
class Posed:
    """One variant of one scenario, posed in one language."""

    scenario_id: int
    slug: str
    seed: int
    lang: str
    version: str
    stamp: str
    spec: ScenarioSpec = field(repr=False)
    variant: Variant = field(repr=False)
    title: str
    situation: SafeString
    diagram: diagram.Diagram | None
    questions: tuple[PosedQuestion, ...]
    # Written by a course's instructors (Scenario.authored): only those may have a picture.
    authored: bool = False

    @property
    def kind(self) -> str:
        return self.spec.kind

    @property
    def has_place(self) -> bool:
        return any(q.type == QuestionType.PLACE for q in self.questions)


_VARIANTS: "OrderedDict[tuple[str, str, int], Variant]" = OrderedDict()
_POSED: "OrderedDict[tuple[str, str, int, str, str], Posed]" = OrderedDict()
_CACHE_SIZE = 1024


def _remember[V](store: "OrderedDict[Any, Any]", key: Any, value: V) -> V:
    store[key] = value
    if len(store) > _CACHE_SIZE:
        store.popitem(last=False)
    return value


def variant_of(scenario: "Scenario", seed: int) -> Variant:
    """The variant `seed` of a Scenario row, ruled by the engine (cached per content version).

    VariantError when the seed is out of range or no valid variant exists for it.
    """
    key = (scenario.slug, scenario.version, seed)
    found = _VARIANTS.get(key)
    if found is not None:
        _VARIANTS.move_to_end(key)
        return found
    return _remember(_VARIANTS, key, make_variant(scenario.slug, scenario.data, seed))


def pose(
    scenario: "Scenario",
    seed: int,
    lang: str,
    frozen: Variant | None = None,
    *,
    texts: bool = True,
) -> Posed:
    """Pose variant `seed` of `scenario` in `lang`; `frozen` poses a variant ruled earlier.

    `texts=False` poses the questions alone, for grading answers given elsewhere (an offline
    outbox): no title, situation or diagram, which cost more than the ruling; never cached.
    VariantError when no variant can be made for the seed.
    """
    stamp = f"{scenario.updated_at.timestamp():.6f}" if scenario.updated_at else ""
    key = (scenario.slug, scenario.version, seed, lang, stamp)
    if frozen is None and texts and (found := _POSED.get(key)) is not None:
        return found
    spec = spec_of(scenario)
    variant = frozen or variant_of(scenario, seed)
    questions = build_questions(spec.kind, spec.data, variant.facts, variant.ruling)
    ground = diagram.field_of(variant.facts)
    posed_questions = tuple(
        PosedQuestion(
            id=q.id,
            type=q.type,
            prompt=pick(q.prompt, lang),
            options=tuple(
                Option(o.value, pick(o.label, lang), f"q-{q.id}-{i}")
                for i, o in enumerate(_offered(q, scenario.slug, seed))
            ),
            tolerance=q.tolerance,
            place=PlaceInput(ground, q.tolerance) if q.type == QuestionType.PLACE else None,
            source=q,
        )
        for q in questions
    )
    drawn = (
        diagram.diagram_for(variant.facts)
        if texts and diagram.wants_diagram(spec.kind, [q.type for q in questions])
        else None
    )
    posed = Posed(
        scenario_id=scenario.pk,
        slug=scenario.slug,
        seed=seed,
        lang=lang,
        version=scenario.version,
        stamp=stamp,
        spec=spec,
        variant=variant,
        title=(variant.render(spec.title.as_dict(), lang) or scenario.title) if texts else "",
        situation=link_terms(
            variant.render(spec.situation.as_dict(), lang), lang, glossary_terms(stamp)
        )
        if texts
        else SafeString(""),
        diagram=drawn,
        questions=posed_questions,
        authored=scenario.authored,
    )
    return posed if frozen is not None or not texts else _remember(_POSED, key, posed)


def _offered(q: Question, slug: str, seed: int) -> list[Any]:
    """The options as shown: an order question's steps shuffled (the same way for a variant,
    and never already in the right order); every other question's as authored."""
    options = list(q.options)
    if q.type != QuestionType.ORDER or len(options) < 2:
        return options
    shuffled = options[:]
    random.Random(f"{slug}:{seed}:{q.id}").shuffle(shuffled)
    if shuffled == options:
        shuffled = shuffled[1:] + shuffled[:1]
    return shuffled


# --- reading and checking ----------------------------------------------------------------------


@dataclass(frozen=True)
class WhyNot:
    """Why a wrong answer is wrong, from the engine: one fact that, changed, would make it right.

    `changes` lists (the fact's label, its value here, the value that would make the answer
    right); empty when no single change of the scenario's facts makes it right, and then the
    engine's reasons above are what rules it out.
    """

    changes: tuple[tuple[str, str, str], ...] = ()


@dataclass(frozen=True)
class Marked:
    """One question after reading (and, unless refused, grading) the trainee's answer."""

    question: PosedQuestion
    values: tuple[str, ...]
    error: str = ""
    given: Answer | None = None
    right: Answer | None = None
    correct: bool = False
    given_text: str = ""
    right_text: str = ""
    why_not: WhyNot | None = None

    @property
    def id(self) -> str:
        return self.question.id

    @property
    def placed(self) -> FieldSpot | None:
        """Where a place question's typed values put the ball, if they are numbers (the marker
        a form shows again), whether or not the spot is on the field."""
        if self.question.type != QuestionType.PLACE:
            return None
        try:
            spot = self.question.source.parse(list(self.values))
        except AnswerError:
            return None
        return spot if isinstance(spot, FieldSpot) else None

    def steps(self) -> list[tuple[Option, str]]:
        """An order question's steps with the place given to each (for the form)."""
        values = list(self.values) + [""] * (len(self.question.options) - len(self.values))
        return list(zip(self.question.options, values, strict=False))


@dataclass(frozen=True)
class Reason:
    """One of the engine's reasons, as a sentence, with the section that decided it."""

    text: str
    ref: str


@dataclass(frozen=True)
class Check:
    """The answers to a posed variant, checked: per question, and why."""

    posed: Posed
    items: tuple[Marked, ...]
    reasons: tuple[Reason, ...] = ()
    cited: tuple[SectionText, ...] = ()
    explanation: str = ""

    @property
    def refused(self) -> bool:
        """Some answer was not an answer of its question's kind: nothing was graded."""
        return any(item.error for item in self.items)

    @property
    def right_count(self) -> int:
        return count_right(item.correct for item in self.items)

    @property
    def total(self) -> int:
        return len(self.items)


def count_right(marks: Iterable[bool | None]) -> int:
    """How many of these marks are right: the one count of a score, for every app.

    >>> count_right([True, False, True, None])
    2
    """
    return sum(1 for ok in marks if ok)


def read_one(
    posed: Posed, question: PosedQuestion, submitted: Mapping[str, Sequence[str]]
) -> Answer:
    """One question's answer from the submitted values; AnswerError (with `.code`) if none."""
    if question.type == QuestionType.ORDER:
        return engine_answer(question.source.parse(_order(question, submitted)))
    if question.type == QuestionType.PLACE and question.place is not None:
        # The form asks for yards from the fouling team's goal line and across from the centre,
        # the way an umpire measures; the answer is recorded as the engine's point.
        values = [next(iter(submitted.get(name, ())), "") for name in question.fields]
        typed = question.source.parse(values)
        if not isinstance(typed, FieldSpot):  # pragma: no cover - parse gives a place's spot
            raise AnswerError(AnswerCode.MISSING)
        spot = typed.to_engine(question.place.field)
        if not question.place.field.contains(spot):
            raise AnswerError(AnswerCode.OFF_FIELD)
        return EnginePoint(x=spot.x, y=spot.y)
    return engine_answer(question.source.parse(list(submitted.get(question.name, ()))))


def engine_answer(read: Read) -> Answer:
    """A read answer that is already the engine's: every kind but a place question's typed
    spot, which read_one places on the variant's field."""
    if isinstance(read, FieldSpot):  # pragma: no cover - only a place question reads a spot
        raise AnswerError(AnswerCode.MISSING)
    return read


def _order(question: PosedQuestion, submitted: Mapping[str, Sequence[str]]) -> list[str]:
    """The steps sorted by the place given to each (1, 2, ...); AnswerError if not an order."""
    places = []
    for option in question.options:
        raw = next(iter(submitted.get(f"{question.name}-{option.value}", ())), "").strip()
        if not raw:
            raise AnswerError(AnswerCode.MISSING)
        if not (raw.isascii() and raw.isdigit()):
            raise AnswerError(AnswerCode.NOT_AN_ORDER)
        places.append((int(raw), option.value))
    if sorted(p for p, _ in places) != list(range(1, len(places) + 1)):
        raise AnswerError(AnswerCode.NOT_AN_ORDER)
    return [value for _place, value in sorted(places)]


def _values(question: PosedQuestion, submitted: Mapping[str, Sequence[str]]) -> tuple[str, ...]:
    if question.type == QuestionType.ORDER:
        return tuple(
            next(iter(submitted.get(f"{question.name}-{o.value}", ())), "")
            for o in question.options
        )
    if question.type == QuestionType.PLACE:
        return tuple(next(iter(submitted.get(name, ())), "") for name in question.fields)
    return tuple(submitted.get(question.name, ()))


def read(posed: Posed, submitted: Mapping[str, Sequence[str]]) -> tuple[Marked, ...]:
    """Every question's answer read from the submitted values, or its error code; no grading."""
    items = []
    for q in posed.questions:
        values = _values(q, submitted)
        try:
            items.append(Marked(q, values, given=read_one(posed, q, submitted)))
        except AnswerError as exc:
            items.append(Marked(q, values, error=exc.code))
    return tuple(items)


def marker(items: Sequence[Marked]) -> FieldSpot | None:
    """Where the diagram draws the trainee's ball: the first place question's typed spot."""
    return next((spot for item in items if (spot := item.placed) is not None), None)


def grade(posed: Posed, given: Mapping[str, Answer | None]) -> tuple[Marked, ...]:
    """Every question marked against the engine's ruling, from answers already read."""
    ruling = posed.variant.ruling
    items = []
    for q in posed.questions:
        right = q.source.right_answer(ruling)
        answer = given.get(q.id)
        items.append(
            Marked(
                q,
                (),
                given=answer,
                right=right,
                correct=answer is not None and q.source.is_correct(answer, right),
                given_text=answer_text(posed, q, answer) if answer is not None else "",
                right_text=answer_text(posed, q, right),
            )
        )
    return tuple(items)


def check(posed: Posed, submitted: Mapping[str, Sequence[str]]) -> Check:
    """Read and grade every answer, with the engine's reasons and the cited rule text.

    When any answer is refused, the check carries only the reading (with error codes) and no
    right answer, so a refused form gives nothing away.
    """
    items = read(posed, submitted)
    if any(item.error for item in items):
        return Check(posed, items)
    return checked(posed, {item.id: item.given for item in items}, items)


def checked(
    posed: Posed, given: Mapping[str, Answer | None], read_items: Sequence[Marked] | None = None
) -> Check:
    """The check of answers already read (or recorded earlier): graded, with the engine's
    reasons, why a wrong answer is wrong, the cited rule text and the explanation."""
    graded = grade(posed, given)
    items = (
        tuple(read_items)
        if read_items is not None
        else tuple(Marked(g.question, form_values(posed, g.question, g.given)) for g in graded)
    )
    marked = tuple(
        Marked(
            g.question,
            r.values,
            "",
            g.given,
            g.right,
            g.correct,
            g.given_text,
            g.right_text,
            None if g.correct else why_not(posed, g.question, g.given),
        )
        for g, r in zip(graded, items, strict=True)
    )
    return Check(
        posed,
        marked,
        reasons=reasons(posed.variant.ruling, posed.lang),
        cited=tuple(section_texts(cited_refs(posed), posed.lang, posed.stamp)),
        explanation=posed.spec.explanation.pick(posed.lang),
    )


def form_values(posed: Posed, question: PosedQuestion, given: Answer | None) -> tuple[str, ...]:
    """The form's values that give `given` (to show a recorded answer in its form again)."""
    if given is None:
        return ()
    match question.type:
        case QuestionType.PLACE if question.place is not None:
            spot = point(given)
            return (
                ()
                if spot is None
                else FieldSpot.from_engine(spot, question.place.field).form_values()
            )
        case QuestionType.BOOL:
            return ("true" if given else "false",)
        case QuestionType.MULTI | QuestionType.PLAYERS:
            return tuple(strings(given))
        case QuestionType.ORDER:
            place = {step: n for n, step in enumerate(strings(given), start=1)}
            return tuple(str(place.get(o.value, "")) for o in question.options)
    return (str(given),)


#: The question types whose wrong answers are explained by a change of facts.
EXPLAINED = frozenset({QuestionType.CHOICE, QuestionType.BOOL, QuestionType.NUMBER})
#: At most this many values of an integer parameter are tried, spread over its range.
TRIED_PER_PARAM = 9
_WHY_NOT: "OrderedDict[tuple[Any, ...], WhyNot]" = OrderedDict()


def why_not(posed: Posed, question: PosedQuestion, given: Answer | None) -> WhyNot | None:
    """What single change of the scenario's facts would make `given` the engine's answer.

    Derived from the engine, never typed per option: each parameter of the scenario is tried
    at other values (within the scenario's own constraints, so the change is a situation the
    scenario could pose) and the ones whose ruling gives `given` are reported, nearest first.
    None for the kinds of question this does not explain.
    """
    if question.type not in EXPLAINED or given is None:
        return None
    key = (posed.slug, posed.version, posed.seed, posed.lang, question.id, repr(given))
    if (found := _WHY_NOT.get(key)) is not None:
        return found
    changes = []
    ask = question.source.ask
    for param in posed.spec.params.values():
        current = posed.variant.values[param.name]
        for value in _alternatives(param, current):
            # Only the ruling's answer to this question: the rest of the ruling and the
            # variant around it are not written out for each value tried.
            try:
                ruled = ruled_with(
                    posed.spec.data, {**posed.variant.values, param.name: value}, ask
                )
            except VariantError:
                continue
            if question.source.is_correct(given, question.source.right_answer({ask: ruled})):
                label = param.label.pick(posed.lang) or param.name.replace("_", " ")
                changes.append(
                    (
                        _distance(param, current, value),
                        (
                            label,
                            param.label_of(current, posed.lang),
                            param.label_of(value, posed.lang),
                        ),
                    )
                )
                break  # the nearest value of this parameter is enough
    changes.sort(key=lambda c: c[0])
    return _remember(_WHY_NOT, key, WhyNot(tuple(c for _d, c in changes[:3])))


def _alternatives(param: Param, current: Any) -> list[Any]:
    """Other values of a parameter to try, nearest to the current one first."""
    if param.type == "choice":
        return [v for v in param.values if v != current]
    values = list(range(param.min, param.max + 1, param.step or 1))
    if len(values) > TRIED_PER_PARAM:
        stride = len(values) / TRIED_PER_PARAM
        values = sorted({values[int(i * stride)] for i in range(TRIED_PER_PARAM)} | {values[-1]})
    return sorted((v for v in values if v != current), key=lambda v: abs(v - current))


def _distance(param: Param, current: Any, value: Any) -> float:
    if param.type == "int" and param.max > param.min:
        return float(abs(value - current) / (param.max - param.min))
    return 0.5


def reasons(ruling: Mapping[str, Any], lang: str) -> tuple[Reason, ...]:
    """The engine's reasons as sentences in `lang`, each with the section that decided it."""
    out = []
    for reason in ruling.get("reasons", []):
        try:
            text = pick(reason_text(reason["key"]), lang)
        except KeyError:
            text = reason["key"].replace("_", " ")
        out.append(Reason(text, reason["ref"]))
    return tuple(out)


def cited_refs(posed: Posed) -> list[str]:
    """The sections the feedback shows: those the engine's reasons cite, then the scenario's."""
    refs = [r["ref"] for r in posed.variant.ruling.get("reasons", [])]
    return list(dict.fromkeys([*refs, *posed.spec.cites]))


def answer_text(posed: Posed, question: PosedQuestion, value: Answer) -> str:
    """An answer (the trainee's or the engine's) in words, in the posed language."""
    labels = {o.value: o.label for o in question.options}
    with translation.override(posed.lang):
        match question.type:
            case QuestionType.CHOICE:
                return labels.get(str(value), str(value))
            case QuestionType.BOOL:
                return labels["true" if value else "false"]
            case QuestionType.MULTI | QuestionType.PLAYERS:
                return ", ".join(labels.get(v, v) for v in strings(value)) or _("none")
            case QuestionType.ORDER:
                return " → ".join(
                    f"{n}. {labels.get(v, v)}" for n, v in enumerate(strings(value), start=1)
                )
            case QuestionType.PLACE if question.place is not None and (spot := point(value)):
                return FieldSpot.from_engine(spot, question.place.field).words()
        return f"{value:g}" if isinstance(value, float) else str(value)


def recorded_text(
    spec: ScenarioSpec, question: str, value: Any, lang: str, field: Field | None = None
) -> str:
    """A recorded answer (the trainee's or the engine's, as stored) in words, without ruling
    the variant again: for the history, its export and statistics, which never re-rule.

    A spot is stored in the engine's frame, so it reads only on its variant's field: `field`,
    which the caller passes when `needs_field` says so (else the field the content fixes).
    """
    entry = next((q for q in spec.questions if q.id == question), None)
    if entry is None or value is None:
        return "" if value is None else json.dumps(value, ensure_ascii=False)
    try:
        qtype = QUESTION_TYPES[ruling_schema(spec.kind)[entry.ask]["type"]]
    except (KeyError, ValueError):  # a kind or a field the engine no longer has
        return json.dumps(value, ensure_ascii=False)
    try:
        return _recorded_text(spec, entry.ask, qtype, value, lang, field or _content_field(spec))
    except (KeyError, TypeError, ValueError, AttributeError):
        # A stored answer whose shape the content no longer has: show it as stored.
        return json.dumps(value, ensure_ascii=False)


def needs_field(spec: ScenarioSpec, question: str) -> bool:
    """Whether a recorded answer to `question` reads only on its own variant's field: a spot,
    in a scenario whose parameters set the field's size."""
    entry = next((q for q in spec.questions if q.id == question), None)
    try:
        asks = ruling_schema(spec.kind)[entry.ask]["type"] if entry is not None else None
    except (KeyError, ValueError):  # a kind or a field the engine no longer has
        return False
    spot = QUESTION_TYPES.get(str(asks)) == QuestionType.PLACE
    return spot and _content_field(spec) is None


def _content_field(spec: ScenarioSpec) -> Field | None:
    """The field every variant of the scenario is played on, if its content fixes it (None
    when a parameter sets it, "{length}")."""
    try:
        return diagram.field_of(spec.data.get("facts", {}))
    except (TypeError, ValueError):
        return None


def _recorded_text(
    spec: ScenarioSpec, ask: str, qtype: QuestionType, value: Any, lang: str, field: Field | None
) -> str:
    with translation.override(lang):
        if qtype in {QuestionType.CHOICE, QuestionType.MULTI, QuestionType.ORDER}:
            enum = ruling_enum(spec.kind, ask)

            def label(v: Any) -> str:
                try:
                    return pick(enum_label(enum, str(v)), lang)
                except KeyError:
                    return str(v)

            if qtype == QuestionType.CHOICE:
                return label(value)
            if qtype == QuestionType.ORDER:
                return " → ".join(f"{n}. {label(v)}" for n, v in enumerate(value, start=1))
            return ", ".join(label(v) for v in value) or _("none")
        if qtype == QuestionType.BOOL:
            return _("Yes") if value else _("No")
        if qtype == QuestionType.PLAYERS:
            return ", ".join(pick(player_label({"id": v}), lang) for v in value) or _("none")
        if qtype == QuestionType.PLACE and isinstance(value, Mapping):
            if field is None:  # its variant can no longer be made: as stored, never a guess
                return json.dumps(value, ensure_ascii=False)
            return FieldSpot.from_engine(value, field).words()
    return f"{value:g}" if isinstance(value, float) else str(value)


# --- what if -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Control:
    """One what-if control: a parameter of the variant, with its current value."""

    param: Param
    label: str
    value: Any
    choices: tuple[tuple[str, str, bool], ...] = ()  # (value, label, selected)


@dataclass(frozen=True)
class WhatIfRow:
    prompt: str
    original: str
    changed: str

    @property
    def differs(self) -> bool:
        return self.original != self.changed


@dataclass(frozen=True)
class WhatIf:
    """The ruling of the same variant with one fact changed, beside the original."""

    param: str
    situation: str
    rows: tuple[WhatIfRow, ...]
    reasons: tuple[Reason, ...]


def what_if_controls(posed: Posed) -> tuple[Control, ...]:
    """One control per parameter: change its value, see the ruling change."""
    out = []
    for param in posed.spec.params.values():
        current = posed.variant.values[param.name]
        label = param.label.pick(posed.lang) or param.name.replace("_", " ")
        choices = tuple((str(v), param.label_of(v, posed.lang), v == current) for v in param.values)
        out.append(Control(param, label, current, choices))
    return tuple(out)


def _changed(posed: Posed, name: str, value: Any, *, keep_constraints: bool) -> Variant:
    """The variant with one parameter set to `value`, the others as they are. VariantError
    when that is not a situation (or breaks the constraints)."""
    values = {**posed.variant.values, name: value}
    return variant_with(posed.slug, posed.spec.data, values, constraints=keep_constraints)


#: What a what-if says of a change that makes no situation (online and in an offline pack).
WHAT_IF_REFUSED = gettext_lazy(
    "That change makes a situation the rules do not allow. Try another value."
)


def what_if(posed: Posed, name: str, raw: str) -> WhatIf:
    """The variant with parameter `name` set to `raw`, ruled; VariantError if not a situation."""
    param = posed.spec.params.get(name)
    if param is None:
        raise VariantError("unknown parameter")
    value: Any
    if param.type == "int":
        try:
            value = int(raw)
        except ValueError:
            raise VariantError("not a number") from None
        if not param.min <= value <= param.max:
            raise VariantError("out of range")
    else:
        matches = [v for v in param.values if str(v) == raw]
        if not matches:
            raise VariantError("unknown value")
        value = matches[0]
    # A what-if may leave the drawn range (constraints); the engine still rules.
    changed = _changed(posed, name, value, keep_constraints=False)
    rows = tuple(
        WhatIfRow(
            prompt=q.prompt,
            original=answer_text(posed, q, q.source.right_answer(posed.variant.ruling)),
            changed=answer_text(posed, q, q.source.right_answer(changed.ruling)),
        )
        for q in posed.questions
    )
    return WhatIf(
        param=name,
        situation=changed.render(posed.spec.situation.as_dict(), posed.lang),
        rows=rows,
        reasons=reasons(changed.ruling, posed.lang),
    )
