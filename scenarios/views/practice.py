"""The practice quiz: start, next question, one question, its answer, and what-if.

The views only ask: the variant's ruling comes from the engine (scenarios.variants), the
questions and their checks from scenarios.questions, the recording from umpires.progress.
The page carries a signed token (scenarios.tokens), never the answer key.
"""

import copy
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST, require_safe
from django_htmx.http import reswap, retarget

from polotrainer.rules import Point
from polotrainer.rules.vocabulary import REFS
from polotrainer.umpires.models import Attempt, Mode
from polotrainer.umpires.progress import VISITOR_KEY, Answer, record_answers, visitor_id
from scenarios import diagram, tokens
from scenarios.glossary_links import link_terms
from scenarios.localize import current_language, other_language, pick
from scenarios.models import GlossaryTerm, Scenario, Section
from scenarios.questions import AnswerError, Question, build_questions
from scenarios.variants import MAX_SEED, Variant, VariantError, fresh_seed, make_variant
from scenarios.vocabulary import reason_text

#: How many of the visitor's latest answers count as "answered recently" when picking the next.
RECENT = 30

ANSWER_ERRORS = {
    "missing": gettext_lazy("Please answer this question."),
    "unknown_option": gettext_lazy("That choice is not one of this question's options."),
    "unknown_player": gettext_lazy("That player is not in this situation."),
    "not_a_number": gettext_lazy("Please enter a number, for example 3."),
    "off_field": gettext_lazy("That point is off the field: place the ball on the field."),
}
TOKEN_ERRORS = {
    "expired": gettext_lazy(
        "This question was opened too long ago to be answered. Here is a fresh one to try."
    ),
    "tampered": gettext_lazy(
        "This answer does not belong to the question on this page, so it was not recorded."
    ),
}


# --- the filter that "next" keeps ---------------------------------------------------------------


def _practice_filter(request: HttpRequest) -> dict[str, str]:
    """?rule=, ?section= and ?mode=review, kept from question to question; junk is dropped."""
    out: dict[str, str] = {}
    rule = request.GET.get("rule", "")
    if rule.isascii() and rule.isdigit() and len(rule) <= 3:  # "²".isdigit(), but int("²") fails
        out["rule"] = rule
    section = request.GET.get("section", "")
    if section and len(section) <= 40:
        out["section"] = section
    if request.GET.get("mode") == Mode.REVIEW:
        out["mode"] = Mode.REVIEW
    return out


def _with_query(url: str, query: Mapping[str, str]) -> str:
    return f"{url}?{urlencode(query)}" if query else url


@require_safe
def start(request: HttpRequest) -> HttpResponse:
    """Start practising at once: everything mixed, one rule or one section."""
    return redirect(_with_query(reverse("scenarios:next"), _practice_filter(request)))


@require_safe
def next_question(request: HttpRequest) -> HttpResponse:
    """Pick a live scenario (one not answered lately, if any) and a fresh seed, and go there."""
    chosen = _practice_filter(request)
    if chosen.get("mode") == Mode.REVIEW and request.user.is_authenticated:
        # Reviewing follows the schedule, not chance: the umpires app knows what is due.
        return redirect("umpires:review")
    live = Scenario.objects.live()
    if "rule" in chosen:
        live = live.filter(rule_id=int(chosen["rule"]))
    if "section" in chosen:
        live = live.filter(section__ref=chosen["section"])
    candidates = dict(live.values_list("id", "slug"))
    if not candidates:
        return render(request, "scenarios/practice.html", {"empty": True, "chosen": chosen})
    recent = set(_recent_scenarios(request))
    fresh = [pk for pk in candidates if pk not in recent]
    slug = candidates[random.choice(fresh or list(candidates))]
    url = reverse("scenarios:question", args=[slug, fresh_seed()])
    return redirect(_with_query(url, chosen))


def _recent_scenarios(request: HttpRequest) -> list[int]:
    attempts = Attempt.objects.order_by("-created_at")
    if request.user.is_authenticated:
        attempts = attempts.filter(user=request.user)
    elif visitor := request.session.get(VISITOR_KEY):
        attempts = attempts.filter(user=None, visitor=visitor)
    else:
        return []
    return list(attempts.values_list("scenario_id", flat=True)[:RECENT])


# --- one question ------------------------------------------------------------------------------


@dataclass
class Shown:
    """One question as the page shows it: its controls, the trainee's values, an error."""

    question: Question
    prompt: str
    options: list[dict[str, Any]]
    values: list[str] = field(default_factory=list)
    error: str = ""
    answer: Any = None
    right: Any = None
    correct: bool | None = None
    answer_text: str = ""
    right_text: str = ""
    place: dict[str, Any] | None = None

    @property
    def id(self) -> str:
        return self.question.id

    @property
    def type(self) -> str:
        return self.question.type

    @property
    def name(self) -> str:
        return f"q-{self.question.id}"


@dataclass
class Play:
    """Everything one page of one variant needs."""

    scenario: Scenario
    variant: Variant
    questions: list[Question]
    lang: str
    chosen: dict[str, str]

    @property
    def bounds(self) -> tuple[float, float]:
        return diagram.bounds(self.variant.facts)


def _load(request: HttpRequest, slug: str, seed: int) -> Play:
    if seed > MAX_SEED:
        raise Http404(_("There is no such question."))
    try:
        # The section's and rule's long texts are not needed here (the cited text is cached).
        scenario = (
            Scenario.objects.select_related("section", "rule")
            .defer(
                "section__paragraphs",
                "section__cases",
                "section__spots",
                "rule__summary_it",
                "rule__summary_en",
                "rule__notice_it",
                "rule__notice_en",
            )
            .get(slug=slug)
        )
    except Scenario.DoesNotExist:
        raise Http404(_("There is no such question.")) from None
    try:
        variant = make_variant(scenario.slug, scenario.data, seed)
    except VariantError:
        raise Http404(_("There is no such question.")) from None
    questions = build_questions(scenario.kind, scenario.data, variant.facts)
    return Play(scenario, variant, questions, current_language(), _practice_filter(request))


def _shown(play: Play, posted: Mapping[str, Sequence[str]] | None = None) -> list[Shown]:
    half_length, half_width = play.bounds
    out = []
    for q in play.questions:
        shown = Shown(
            question=q,
            prompt=pick(q.prompt, play.lang),
            options=[
                {"value": o.value, "label": pick(o.label, play.lang), "id": f"q-{q.id}-{i}"}
                for i, o in enumerate(q.options)
            ],
        )
        if posted is not None:
            if q.type == "place":
                shown.values = [
                    posted.get(f"q-{q.id}-along", [""])[0],
                    posted.get(f"q-{q.id}-across", [""])[0],
                ]
            else:
                shown.values = list(posted.get(f"q-{q.id}", []))
        if q.type == "place":
            shown.place = {
                "length": f"{half_length * 2:g}",
                "half_width": f"{half_width:g}",
                "tolerance": f"{q.tolerance:g}",
                "marker": _marker(shown.values, half_length),
            }
        out.append(shown)
    return out


def _marker(values: Sequence[str], half_length: float) -> dict[str, float] | None:
    """Where to draw the trainee's marker from the inputs (engine frame), if they are numbers."""
    try:
        along, across = (float(v.replace(",", ".")) for v in values)
    except (TypeError, ValueError):
        return None
    return {"x": along - half_length, "sy": -across}


def _page(play: Play, shown: list[Shown], **extra: Any) -> dict[str, Any]:
    v = play.variant
    data = play.scenario.data
    qtypes = [q.type for q in play.questions]
    drawn = (
        diagram.diagram_for(v.facts) if diagram.wants_diagram(play.scenario.kind, qtypes) else None
    )
    context = {
        "scenario": play.scenario,
        "variant": v,
        "seed": v.seed,
        "situation": link_terms(
            v.render(data.get("situation", {}), play.lang), play.lang, _terms(play.scenario)
        ),
        "title": pick(data.get("title", {}), play.lang) or play.scenario.title,
        "shown": shown,
        "diagram": drawn,
        "ground": mark_safe(  # noqa: S308 - built from numbers and escaped labels
            drawn.ground(_("Fouling team's goal"), _("boards") if drawn.boarded else _("side line"))
        )
        if drawn
        else "",
        "chosen": play.chosen,
        "query": urlencode(play.chosen),
        "replay_url": reverse("scenarios:question", args=[play.scenario.slug, v.seed]),
        "answer_url": _with_query(
            reverse("scenarios:answer", args=[play.scenario.slug, v.seed]), play.chosen
        ),
        "next_url": _with_query(reverse("scenarios:next"), play.chosen),
        "variant_url": _with_query(
            reverse("scenarios:question", args=[play.scenario.slug, fresh_seed()]), play.chosen
        ),
        "has_place": "place" in qtypes,
        "place_marker": next((s.place["marker"] for s in shown if s.place), None),
        "whatif_url": reverse("scenarios:whatif", args=[play.scenario.slug, v.seed]),
        "lang": play.lang,
    }
    context.update(extra)
    return context


@never_cache
@require_safe
def question(request: HttpRequest, slug: str, seed: int) -> HttpResponse:
    """One variant's questions; its URL replays exactly that variant."""
    play = _load(request, slug, seed)
    if not request.user.is_authenticated:
        # Known from the first question on, so that answering never has to write the session.
        visitor_id(request)
    token = tokens.issue(
        slug, seed, [q.id for q in play.questions], play.chosen.get("mode", Mode.PRACTICE)
    )
    return render(request, "scenarios/practice.html", _page(play, _shown(play), token=token))


# --- the answer --------------------------------------------------------------------------------


@never_cache
@require_POST
def answer(request: HttpRequest, slug: str, seed: int) -> HttpResponse:
    """Check every answer of the page against the engine, record them, show the feedback."""
    play = _load(request, slug, seed)
    posted = {key: request.POST.getlist(key) for key in request.POST}
    shown = _shown(play, posted)
    token = request.POST.get("token", "")
    try:
        state = tokens.read(token, slug, seed)
        if state.questions != tuple(q.id for q in play.questions):
            raise tokens.TokenError("tampered")
    except tokens.TokenError as exc:
        fresh = _with_query(
            reverse(
                "scenarios:question", args=[slug, fresh_seed() if exc.code == "expired" else seed]
            ),
            play.chosen,
        )
        context = _page(
            play, shown, token=token, token_error=TOKEN_ERRORS[exc.code], fresh_url=fresh
        )
        return _respond(request, context, "feedback", status=400)

    errors = False
    for item in shown:
        try:
            item.answer = _parse(item, play)
        except AnswerError as exc:
            item.error = str(ANSWER_ERRORS.get(exc.code, ANSWER_ERRORS["missing"]))
            errors = True
    if errors:
        context = _page(play, shown, token=token, has_errors=True)
        response = _respond(request, context, "quiz", status=400)
        if request.htmx:
            retarget(response, "#quiz")
            reswap(response, "outerHTML")
        return response

    ruling = play.variant.ruling
    elapsed = state.elapsed_ms()
    for item in shown:
        item.right = item.question.right_answer(ruling)
        item.correct = item.question.is_correct(item.answer, item.right)
        item.answer_text = _answer_text(item, item.answer, play)
        item.right_text = _answer_text(item, item.right, play)
    attempts = record_answers(
        request,
        scenario_id=play.scenario.pk,
        seed=seed,
        answers=[
            Answer(item.id, item.answer, item.correct, state.nonce_for(item.id)) for item in shown
        ],
        time_taken_ms=min(elapsed, 2**31 - 1),
        mode=state.mode,
    )
    duplicate = any(attempt is None for attempt in attempts)
    context = _page(play, shown, token=token, **_feedback(play, shown), duplicate=duplicate)
    return _respond(request, context, "feedback")


def _respond(
    request: HttpRequest, context: dict[str, Any], partial: str, status: int = 200
) -> HttpResponse:
    template = f"scenarios/practice.html#{partial}" if request.htmx else "scenarios/practice.html"
    return render(request, template, context, status=status)


def _parse(item: Shown, play: Play) -> Any:
    q = item.question
    if q.type != "place":
        return q.parse(item.values)
    # The form asks for yards from the fouling team's goal line and across from the centre
    # line, the way an umpire measures; the engine's frame has its origin at the centre.
    field = diagram.field_of(play.variant.facts)
    typed = q.parse(item.values)
    spot = Point(typed["x"] - field.length / 2, typed["y"])
    if not field.contains(spot):
        raise AnswerError("off_field")
    return {"x": spot.x, "y": spot.y}


def _answer_text(item: Shown, value: Any, play: Play) -> str:
    q = item.question
    labels = {o.value: pick(o.label, play.lang) for o in q.options}
    if q.type in {"choice"}:
        return labels.get(value, str(value))
    if q.type == "bool":
        return labels["true" if value else "false"]
    if q.type in {"multi", "players"}:
        return ", ".join(labels.get(v, str(v)) for v in value) or _("none")
    if q.type == "place":
        half_length = play.bounds[0]
        return _("%(along)s yards from the fouling team's goal line, %(across)s across") % {
            "along": f"{value['x'] + half_length:g}",
            "across": f"{value['y']:+g}" if value["y"] else "0",
        }
    return f"{value:g}" if isinstance(value, float) else str(value)


def _feedback(play: Play, shown: list[Shown]) -> dict[str, Any]:
    """Why, from the engine's reasons; the cited rule text; the what-if controls."""
    lang = play.lang
    ruling = play.variant.ruling
    right = sum(1 for s in shown if s.correct)
    cites = play.scenario.data.get("cites") or [play.scenario.section.ref]
    cited = _cited(play.scenario, cites, lang)
    marks = [
        {
            "mine": {"x": s.answer["x"], "sy": -s.answer["y"]},
            "right": {"x": s.right["x"], "sy": -s.right["y"]},
            "tolerance": f"{s.question.tolerance:g}",
        }
        for s in shown
        if s.type == "place"
    ]
    return {
        "answered": True,
        "right_count": right,
        "total": len(shown),
        "reasons": _reasons(ruling, lang),
        "explanation": pick(play.scenario.data.get("explanation", {}), lang),
        "cited": cited,
        "other_lang": other_language(lang),
        "marks": marks,
        "whatif": _whatif_controls(play),
        "proof": tokens.answered(play.scenario.slug, play.variant.seed),
    }


def _cited(scenario: Scenario, cites: Sequence[str], lang: str) -> list[dict[str, Any]]:
    """The cited sections' text, cached until the content is loaded again.

    `content load` rewrites every scenario (and so its updated_at) in the transaction that
    writes the sections, so the key changes whenever the text may have.
    """
    key = f"practice:cited:{scenario.pk}:{scenario.updated_at.timestamp()}:{lang}"
    cited = cache.get(key)
    if cited is None:
        sections = {s.ref: s for s in Section.objects.filter(ref__in=cites)}
        other = other_language(lang)
        terms = _terms(scenario)
        # Stored as plain str (linked and escaped by link_terms), marked safe when shown.
        cited = [
            {
                "ref": ref,
                "title": pick({"it": sections[ref].title_it, "en": sections[ref].title_en}, lang),
                "paragraphs": [
                    str(link_terms(pick(p, lang), lang, terms, REFS))
                    for p in sections[ref].paragraphs
                ],
                "originals": [
                    str(link_terms(p.get(other, ""), other, terms, REFS))
                    for p in sections[ref].paragraphs
                ],
            }
            for ref in cites
            if ref in sections
        ]
        cache.set(key, cited, 60 * 60)
    return [
        {
            **c,
            "paragraphs": [mark_safe(p) for p in c["paragraphs"]],  # noqa: S308 - link_terms escaped them
            "originals": [mark_safe(p) for p in c["originals"]],  # noqa: S308
        }
        for c in cited
    ]


@dataclass(frozen=True)
class _GlossaryForms:
    slug: str
    match_it: list[str]
    match_en: list[str]


def _terms(scenario: Scenario) -> list[_GlossaryForms]:
    """The glossary's word forms, cached like the cited text until the content is reloaded."""
    key = f"practice:terms:{scenario.updated_at.timestamp()}"
    terms = cache.get(key)
    if terms is None:
        terms = [
            _GlossaryForms(t.slug, list(t.match_it), list(t.match_en))
            for t in GlossaryTerm.objects.all()
        ]
        cache.set(key, terms, 60 * 60)
    return terms


def _reasons(ruling: Mapping[str, Any], lang: str) -> list[dict[str, str]]:
    out = []
    for reason in ruling.get("reasons", []):
        try:
            text = pick(reason_text(reason["key"]), lang)
        except KeyError:
            text = reason["key"].replace("_", " ")
        out.append({"text": text, "ref": reason["ref"]})
    return out


# --- what if -----------------------------------------------------------------------------------


def _whatif_controls(play: Play) -> list[dict[str, Any]]:
    """One small form per parameter: change its value, see the ruling change."""
    out = []
    for name, spec in play.scenario.data.get("params", {}).items():
        label = pick(spec.get("label", {}), play.lang) or name.replace("_", " ")
        current = play.variant.values[name]
        entry: dict[str, Any] = {"name": name, "label": label, "type": spec.get("type")}
        if spec.get("type") == "int":
            entry.update(value=current, min=spec["min"], max=spec["max"], step=spec.get("step", 1))
        else:
            entry["choices"] = [
                {
                    "value": str(v),
                    "label": pick(spec.get("labels", {}).get(str(v), {}), play.lang) or str(v),
                    "selected": v == current,
                }
                for v in spec.get("values", [])
            ]
        out.append(entry)
    return out


def _changed_variant(play: Play, name: str, raw: str) -> Variant:
    """The same variant with one parameter changed (seed 0 of a copy whose defaults are it)."""
    params = play.scenario.data.get("params", {})
    spec = params.get(name)
    if spec is None:
        raise VariantError("unknown parameter")
    if spec.get("type") == "int":
        try:
            value: Any = int(raw)
        except ValueError:
            raise VariantError("not a number") from None
        if not spec["min"] <= value <= spec["max"]:
            raise VariantError("out of range")
    else:
        matches = [v for v in spec.get("values", []) if str(v) == raw]
        if not matches:
            raise VariantError("unknown value")
        value = matches[0]
    data = copy.deepcopy(play.scenario.data)
    for pname, pspec in data.get("params", {}).items():
        pspec["default"] = play.variant.values[pname]
    data["params"][name]["default"] = value
    data.pop("constraints", None)  # a what-if may leave the drawn range; the engine still rules
    return make_variant(play.scenario.slug, data, 0)


@require_safe
def whatif(request: HttpRequest, slug: str, seed: int) -> HttpResponse:
    """After answering: change one fact and show how the ruling changes, beside the original."""
    play = _load(request, slug, seed)
    if not tokens.was_answered(request.GET.get("proof", ""), slug, seed):
        return _respond(
            request,
            _page(
                play, _shown(play), whatif_error=_("Answer the question first."), whatif_shown=True
            ),
            "whatif",
            status=400,
        )
    name = request.GET.get("param", "")
    try:
        changed = _changed_variant(play, name, request.GET.get("value", ""))
    except (VariantError, KeyError):
        return _respond(
            request,
            _page(
                play,
                _shown(play),
                whatif_error=_(
                    "That change makes a situation the rules do not allow. Try another value."
                ),
                whatif_shown=True,
            ),
            "whatif",
            status=400,
        )
    shown = _shown(play)
    rows = []
    for item in shown:
        original = item.question.right_answer(play.variant.ruling)
        after = item.question.right_answer(changed.ruling)
        rows.append(
            {
                "prompt": item.prompt,
                "original": _answer_text(item, original, play),
                "changed": _answer_text(item, after, play),
                "differs": original != after,
            }
        )
    context = _page(
        play,
        shown,
        whatif_shown=True,
        whatif=_whatif_controls(play),
        proof=request.GET.get("proof", ""),
        whatif_param=name,
        whatif_rows=rows,
        whatif_situation=changed.render(play.scenario.data.get("situation", {}), play.lang),
        whatif_reasons=_reasons(changed.ruling, play.lang),
    )
    return _respond(request, context, "whatif")
