"""Practice packs: variants posed and ruled on the server, to be answered with no signal.

A pack holds, for each variant and in both languages, what the practice page shows and what it
needs to grade and explain an answer without the server: the question's form (the same
template practice uses), the right answer as form values with the place tolerance, and the
feedback as fragments rendered here by the quiz core and the page's own partials: per option
for a choice, "right" and "wrong" with a slot for the answer given for the other kinds, the
verdict per count of right answers, the reasons, the cited rule text once per section. The
page's script only compares form values and picks fragments; it knows no rule and no template.

Each variant carries a signed token (pack, index, slug, seed, content version): the sync
endpoint (offline.sync) takes answers only for variants of a pack this person was given, and
grades them again from the server's own copy (Pack.variants), never from what the phone says.
Exam seeds never appear: the seeds are drawn from the practice range, and only live scenarios.
"""

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.core import signing
from django.template.defaultfilters import linebreaks_filter
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy

from polotrainer.offline.models import Pack
from polotrainer.umpires import review
from polotrainer.umpires.models import Mode, ScenarioProgress
from polotrainer.umpires.progress import Person
from scenarios import diagram, quiz, texts
from scenarios.models import Scenario, Section
from scenarios.spec import Param, Texts
from scenarios.variants import Variant, fresh_seed

SALT = "polotrainer.offline.entry"
#: "My due reviews + FRESH fresh ones".
FRESH = 50
#: At most this many variants in one pack (a rule has fewer scenarios than this).
MAX_VARIANTS = 200
#: Tries for a seed that makes a valid variant of a scenario.
SEED_TRIES = 20
FEEDBACK = "practice/practice.html"
#: Marks where the answer given goes in a "right"/"wrong" fragment (the page fills it in).
GIVEN = "\u2063given\u2063"
GIVEN_SLOT = '<span class="given" data-given></span>'


class PackScopeError(ValueError):
    """The scope asked for is not a rule, a section or "due"."""


@dataclass(frozen=True)
class PackScope:
    """What a pack covers: one rule, one section, or the person's due reviews and fresh ones."""

    kind: str  # "rule", "section" or "due"
    value: str = ""

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.value}" if self.value else self.kind

    @classmethod
    def parse(cls, rule: str = "", section: str = "", due: str = "") -> "PackScope":
        if rule:
            if not (rule.isascii() and rule.isdigit() and len(rule) <= 3):
                raise PackScopeError("rule")
            return cls("rule", rule)
        if section:
            if not (len(section) <= 40 and section.isascii() and section.isprintable()):
                raise PackScopeError("section")
            return cls("section", section)
        if due:
            return cls("due")
        raise PackScopeError("none")


def chosen(person: Person, scope: PackScope, now: datetime) -> list[tuple[Scenario, Mode]]:
    """The scenarios of the pack, each with the mode its answers count in."""
    live = Scenario.objects.live().select_related("section")
    if scope.kind == "rule":
        return [(s, Mode.PRACTICE) for s in live.filter(rule_id=int(scope.value))[:MAX_VARIANTS]]
    if scope.kind == "section":
        return [(s, Mode.PRACTICE) for s in live.filter(section__ref=scope.value)[:MAX_VARIANTS]]
    due: list[tuple[Scenario, Mode]] = []
    if person.user_id is not None:
        rows = (
            ScenarioProgress.objects.filter(user_id=person.user_id, scenario__retired=False)
            .filter(review.is_due(now))
            .select_related("scenario__section")
            .order_by("due")[: MAX_VARIANTS - FRESH]
        )
        due = [(row.scenario, Mode.REVIEW) for row in rows]
    taken = {s.pk for s, _mode in due}
    fresh = list(live.exclude(pk__in=taken).order_by("?")[:FRESH])
    return due + [(s, Mode.PRACTICE) for s in fresh]


def build(
    person: Person, scope: PackScope, now: datetime | None = None
) -> tuple[Pack, dict[str, Any]]:
    """Make a pack for this person: the row the server keeps and the JSON the page stores."""
    now = now or timezone.now()
    picked = chosen(person, scope, now)
    posed_all = []
    for scenario, mode in picked:
        variant = _variant(scenario)
        if variant is not None:
            posed_all.append((scenario, mode, variant))
    pack = Pack.objects.create(
        user_id=person.user_id,
        visitor=person.visitor,
        made_at=now,
        scope=scope.key,
        variants=[],
    )
    kept, shown = [], []
    sections: dict[str, dict[str, str]] = {lang: {} for lang, _name in settings.LANGUAGES}
    for index, (scenario, mode, variant) in enumerate(posed_all):
        per_lang = {}
        right: dict[str, list[str]] = {}
        key: list[dict[str, Any]] = []
        for lang, _name in settings.LANGUAGES:
            with translation.override(lang):  # the glossary links of the situation
                posed = quiz.pose(scenario, variant.seed, lang)
            per_lang[lang] = _shown(posed, scenario, sections[lang])
            if not key:
                key = [_key(posed, q) for q in posed.questions]
                right = {k["id"]: k["right"] for k in key}
        kept.append(
            {
                "scenario": scenario.pk,
                "slug": scenario.slug,
                "seed": variant.seed,
                "version": scenario.version,
                "mode": str(mode),
                "values": dict(variant.values),
                "facts": dict(variant.facts),
                "ruling": dict(variant.ruling),
                "labels": {k: dict(v) for k, v in variant.labels.items()},
                "right": right,
            }
        )
        shown.append(
            {
                "token": sign(pack.pk, index, scenario.slug, variant.seed, scenario.version),
                "slug": scenario.slug,
                "seed": variant.seed,
                "version": scenario.version,
                "rule": scenario.rule_id,
                "section": scenario.section.ref,
                "review": mode == Mode.REVIEW,
                "key": key,
                "lang": per_lang,
            }
        )
    pack.variants = kept
    pack.save(update_fields=["variants"])
    body = {
        "id": pack.pk,
        "made_at": int(now.timestamp() * 1000),
        "scope": scope.key,
        "title": {lang: title(scope, lang) for lang, _name in settings.LANGUAGES},
        "count": len(shown),
        "messages": {lang: _messages(lang) for lang, _name in settings.LANGUAGES},
        "sections": sections,
        "variants": shown,
    }
    return pack, body


def _variant(scenario: Scenario) -> Variant | None:
    for _try in range(SEED_TRIES):
        try:
            return quiz.variant_of(scenario, fresh_seed())
        except quiz.VariantError:
            continue
    return None


def sign(pack_id: int, index: int, slug: str, seed: int, version: str) -> str:
    return signing.dumps([pack_id, index, slug, seed, version], salt=SALT)


def unsign(token: str) -> tuple[int, int, str, int, str] | None:
    """The (pack, index, slug, seed, version) of an entry's token; None if not ours."""
    try:
        data = signing.loads(token, salt=SALT)
    except signing.BadSignature:
        return None
    if not (isinstance(data, list) and len(data) == 5):
        return None
    pack_id, index, slug, seed, version = data
    if not (isinstance(pack_id, int) and isinstance(index, int) and isinstance(seed, int)):
        return None
    return pack_id, index, str(slug), seed, str(version)


def title(scope: PackScope, lang: str) -> str:
    """The pack's name in the list of stored packs."""
    with translation.override(lang):
        if scope.kind == "rule":
            return str(gettext_lazy("Rule %(number)s") % {"number": scope.value})
        if scope.kind == "section":
            found = Section.objects.filter(ref=scope.value).first()
            name = found.label if found is not None else scope.value
            return str(gettext_lazy("Section %(section)s") % {"section": name})
        return str(gettext_lazy("My due reviews and fresh questions"))


def _messages(lang: str) -> dict[str, str]:
    with translation.override(lang):
        # The quiz core's own words for an answer the page cannot take, as practice says them.
        return {code.value: str(text) for code, text in quiz.ANSWER_MESSAGES.items()}


# --- what the page shows and grades ------------------------------------------------------------


def _key(posed: quiz.Posed, q: quiz.PosedQuestion) -> dict[str, Any]:
    """What the page compares an answer with: the right answer as the form's values."""
    right = q.source.right_answer(posed.variant.ruling)
    out: dict[str, Any] = {
        "id": q.id,
        "name": q.name,
        "type": str(q.type),
        "fields": list(q.fields),
        "options": [o.value for o in q.options],
        "right": list(quiz.form_values(posed, q, right)),
        "tolerance": q.tolerance,
    }
    if q.place is not None:
        out["bounds"] = [q.place.length, q.place.half_width]
    return out


def _shown(posed: quiz.Posed, scenario: Scenario, sections: dict[str, str]) -> dict[str, Any]:
    """One variant in one language: the question, and every fragment of its feedback."""
    lang = posed.lang
    with translation.override(lang):
        section = posed.spec.section
        crumbs = {
            "rule": scenario.rule_id,
            "section": section,
            "title": texts.section_titles(posed.stamp).get(section, Texts()).pick(lang),
        }
        drawn = posed.diagram
        question_field = (
            diagram.render(drawn, lang, interactive=posed.has_place) if drawn is not None else ""
        )
        question = render_to_string(
            "offline/variant.html",
            {
                "posed": posed,
                "crumbs": crumbs,
                "situation": linebreaks_filter(posed.situation),
                "question_field": question_field,
                "items": [quiz.Marked(q, ()) for q in posed.questions],
                "lang": lang,
            },
        )
        total = len(posed.questions)
        verdicts = {
            str(n): _render("verdict", {"checked": {"right_count": n, "total": total}})
            for n in range(total + 1)
        }
        ruling = posed.variant.ruling
        refs = quiz.cited_refs(posed)
        for cited in texts.section_texts(refs, lang, posed.stamp):
            if cited.ref not in sections:
                sections[cited.ref] = _render("cited", {"c": cited, "lang": lang})
        why = _render(
            "why",
            {
                "checked": quiz.Check(
                    posed,
                    (),
                    reasons=quiz.reasons(ruling, lang),
                    explanation=posed.spec.explanation.pick(lang),
                )
            },
        )
        return {
            "title": posed.title,
            "question": question,
            "verdict": verdicts,
            "items": {q.id: _item_fragments(posed, q) for q in posed.questions},
            "why": why,
            "cites": [ref for ref in refs if ref in sections],
            "field": _feedback_field(posed),
            "given": _given_words(posed),
            "whatif": _what_if(posed),
        }


def _render(partial: str, context: Mapping[str, Any]) -> str:
    return render_to_string(f"{FEEDBACK}#{partial}", dict(context)).strip()


def _item_fragments(posed: quiz.Posed, q: quiz.PosedQuestion) -> dict[str, Any]:
    """One question's result line: per option (a choice, yes/no), else right and wrong with a
    slot for the answer given."""
    right = q.source.right_answer(posed.variant.ruling)
    right_text = quiz.answer_text(posed, q, right)
    if q.type in (quiz.QuestionType.CHOICE, quiz.QuestionType.BOOL):
        options = {}
        for o in q.options:
            given = quiz.engine_answer(q.source.parse([o.value]))
            correct = q.source.is_correct(given, right)
            item = quiz.Marked(
                q,
                (o.value,),
                given=given,
                right=right,
                correct=correct,
                given_text=quiz.answer_text(posed, q, given),
                right_text=right_text,
                why_not=None if correct else quiz.why_not(posed, q, given),
            )
            options[o.value] = _render("result", {"item": item})
        return {"options": options}
    out = {}
    for verdict, correct in (("right", True), ("wrong", False)):
        item = quiz.Marked(
            q, (), given=None, right=right, correct=correct, given_text=GIVEN, right_text=right_text
        )
        out[verdict] = _render("result", {"item": item}).replace(GIVEN, GIVEN_SLOT)
    return out


#: The other values of each fact a pack holds the what-if of: an integer's neighbours and its
#: ends, a choice's first others. Online any value can be tried; a pack carries a few.
WHATIF_VALUES = 4


def what_if_values(param: Param, current: Any) -> list[Any]:
    """The values other than `current` whose what-if a pack holds, in the fact's order."""
    if param.type == "int":
        step = param.step or 1
        near = (current - step, current + step, param.min, param.max)
        ints = sorted({v for v in near if param.min <= v <= param.max and v != current})
        return ints[:WHATIF_VALUES]
    return [v for v in param.values if v != current][:WHATIF_VALUES]


def _what_if(posed: quiz.Posed) -> dict[str, Any]:
    """The what-if box and its results, ruled here by the engine: per fact, per value the
    practice page's own result fragment (or its refusal, a value the rules do not allow)."""
    with translation.override(posed.lang):
        controls, results = [], {}
        for control in quiz.what_if_controls(posed):
            name = control.param.name
            values = what_if_values(control.param, control.value)
            if not values:
                continue
            held = {}
            for value in values:
                try:
                    context: dict[str, Any] = {"result": quiz.what_if(posed, name, str(value))}
                except quiz.VariantError:
                    context = {"whatif_error": quiz.WHAT_IF_REFUSED}
                held[str(value)] = _render("whatif", context)
            results[name] = held
            param, current = control.param, control.value
            held_values = (
                sorted([current, *values])
                if param.type == "int"
                else [v for v in param.values if v == current or v in values]
            )
            options = [(str(v), param.label_of(v, posed.lang), v == current) for v in held_values]
            controls.append({"name": name, "label": control.label, "options": options})
        if not controls:
            return {}
        box = render_to_string("offline/whatif.html", {"controls": controls})
        return {"box": box.strip(), "results": results}


def _given_words(posed: quiz.Posed) -> dict[str, Any]:
    """What the page needs to say an answer given in words: the options' labels, "none"."""
    with translation.override(posed.lang):
        return {
            "labels": {q.id: {o.value: o.label for o in q.options} for q in posed.questions},
            "none": str(gettext_lazy("none")),
        }


def _feedback_field(posed: quiz.Posed) -> str:
    """The close-up of the right spots of the place questions (the trainee's own spot is the
    marker on the question's field above)."""
    drawn = posed.diagram
    if drawn is None:
        return ""
    answers = [
        diagram.Answer((right["x"], right["y"]), q.tolerance, None)
        for q in posed.questions
        if q.type == quiz.QuestionType.PLACE
        and isinstance(right := q.source.right_answer(posed.variant.ruling), Mapping)
    ]
    if not answers:
        return ""
    close_up = diagram.around(drawn, [a.right for a in answers])
    field = diagram.render(
        drawn, posed.lang, view=close_up, zoom=close_up, answers=answers, uid="feedback-field"
    )
    return _render("feedbackfield", {"feedback_field": field})


# --- the server's copy -------------------------------------------------------------------------


def frozen(record: Mapping[str, Any]) -> Variant:
    """A pack's variant exactly as it was ruled when the pack was made."""
    return Variant(
        slug=record["slug"],
        seed=record["seed"],
        values=record["values"],
        facts=record["facts"],
        ruling=record["ruling"],
        labels=record["labels"],
    )


def size(body: Mapping[str, Any]) -> int:
    """The pack's size as stored on the phone, in bytes of JSON."""
    return len(json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode())


def digest(right: Mapping[str, Sequence[str]]) -> str:
    return hashlib.sha256(json.dumps(right, sort_keys=True).encode()).hexdigest()[:16]


def scenarios_of(pack: Pack) -> Iterable[int]:
    return {v["scenario"] for v in pack.variants}
