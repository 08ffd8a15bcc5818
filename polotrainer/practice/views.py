"""Self-study: start, next question, one question, its answer, what-if, and review.

The views only ask: the question and its check come from the quiz core (scenarios.quiz), the
recording from umpires.progress. The page carries a signed token (practice.tokens), never the
answer key. While an exam holds the account closed-book (umpires.closedbook), every screen that
poses or rules a question says so instead, and records nothing.
"""

import functools
import random
from collections.abc import Callable, Mapping
from typing import Any, Concatenate
from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import add_never_cache_headers
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_safe

from polotrainer.practice import sets, tokens
from polotrainer.umpires import closedbook, review
from polotrainer.umpires.models import Attempt, Mode
from polotrainer.umpires.people import VISITOR_KEY, person_of
from polotrainer.umpires.progress import Answer, Answers, Context, Person, record_answers
from polotrainer.web.htmx import render_fragment
from polotrainer.web.messages import Message
from polotrainer.web.requests import Request, UserRequest
from scenarios import audience, diagram, quiz, texts
from scenarios.localize import current_language
from scenarios.models import Scenario
from scenarios.questions import point
from scenarios.spec import Texts
from scenarios.variants import MAX_SEED, fresh_seed

#: How many of the person's latest answers count as "answered recently" when picking the next.
RECENT = 30
TEMPLATE = "practice/practice.html"
FRAGMENTS = ("quiz", "feedback", "whatif")

TOKEN_ERRORS: dict[tokens.TokenCode, Message] = {
    tokens.TokenCode.EXPIRED: gettext_lazy(
        "This question was opened too long ago to be answered. Here is a fresh one to try."
    ),
    tokens.TokenCode.TAMPERED: gettext_lazy(
        "This answer does not belong to the question on this page, so it was not recorded."
    ),
}


# --- the filter that "next" keeps ---------------------------------------------------------------


def practice_filter(request: Request) -> dict[str, str]:
    """?rule=, ?section=, ?mode=review and ?then=, kept from question to question; junk is
    dropped.

    `then` is a path on this site to go to for the next question instead of practice's own
    pick: a course's assignment, an exam-preparation list. Practice knows nothing of them; it
    only follows a local path back.
    """
    out: dict[str, str] = {}
    rule = request.GET.get("rule", "")
    if rule.isascii() and rule.isdigit() and len(rule) <= 3:
        out["rule"] = rule
    section = request.GET.get("section", "")
    if section and len(section) <= 40 and section.isascii() and section.isprintable():
        out["section"] = section
    if request.GET.get("mode") == Mode.REVIEW:
        out["mode"] = Mode.REVIEW
    then = request.GET.get("then", "")
    if (
        then.startswith("/")
        and len(then) <= 200
        and then.isascii()
        and then.isprintable()
        and url_has_allowed_host_and_scheme(then, allowed_hosts=None)
    ):
        out["then"] = then
    return out


def _with_query(url: str, query: Mapping[str, str]) -> str:
    return f"{url}?{urlencode(query)}" if query else url


# --- closed book -------------------------------------------------------------------------------


def open_book[Rq: Request, **P](
    view: Callable[Concatenate[Rq, P], HttpResponse],
) -> Callable[Concatenate[Rq, P], HttpResponse]:
    """The view, unless an exam holds the account closed-book: then the page saying so and
    when practice reopens (403), with nothing posed, ruled or recorded. An htmx request (an
    answer, a what-if) reloads the page, which then says so."""

    def checked(request: Rq, /, *args: P.args, **kwargs: P.kwargs) -> HttpResponse:
        held = (
            closedbook.closed_book(Person(user_id=request.user.pk), timezone.now())
            if request.user.is_authenticated
            else None
        )
        if held is None:
            return view(request, *args, **kwargs)
        if request.htmx:
            response = HttpResponse(status=200)
            response["HX-Refresh"] = "true"
        else:
            response = render(request, closedbook.TEMPLATE, closedbook.notice(held), status=403)
        add_never_cache_headers(response)
        return response

    functools.update_wrapper(checked, view)
    return checked


@require_safe
def start(request: Request) -> HttpResponse:
    """Start practising at once: everything mixed, one rule or one section."""
    return redirect(_with_query(reverse("practice:next"), practice_filter(request)))


@require_safe
@open_book
def next_question(request: Request) -> HttpResponse:
    """Pick a live scenario (one not answered lately, if any) and a fresh seed, and go there."""
    chosen = practice_filter(request)
    if chosen.get("mode") == Mode.REVIEW and request.user.is_authenticated:
        return redirect("practice:review")
    live = Scenario.objects.live_for(_user_id(request))
    if "rule" in chosen:
        live = live.filter(rule_id=int(chosen["rule"]))
    if "section" in chosen:
        live = live.filter(section__ref=chosen["section"])
    candidates = dict(live.values_list("id", "slug"))
    if not candidates:
        return render(request, TEMPLATE, {"empty": True, "chosen": chosen})
    recent = set(_recent_scenarios(request))
    fresh = [pk for pk in candidates if pk not in recent]
    slug = candidates[random.choice(fresh or list(candidates))]
    return redirect(_with_query(reverse("practice:question", args=[slug, fresh_seed()]), chosen))


@never_cache
@require_safe
@open_book
def practice_set(request: Request, token: str, position: int = 1) -> HttpResponse:
    """A chosen list of situations in turn (practice.sets): the `position`-th one the person
    may meet, with a fresh variant, and this address's next position as its "next"; after
    the last, a page saying the set is done. A token this site did not sign: 404."""
    try:
        ids = sets.read(token)
    except sets.BadSet:
        return render(request, "practice/set_done.html", {"invalid": True}, status=404)
    slugs = dict(
        Scenario.objects.live_for(_user_id(request)).filter(pk__in=ids).values_list("pk", "slug")
    )
    serving = [slugs[pk] for pk in ids if pk in slugs]
    if position < 1:
        return redirect("practice:set", token)
    if position > len(serving):
        return render(
            request,
            "practice/set_done.html",
            {"count": len(serving), "again": reverse("practice:set", args=[token])},
        )
    then = reverse("practice:set_at", args=[token, position + 1])
    url = reverse("practice:question", args=[serving[position - 1], fresh_seed()])
    return redirect(_with_query(url, {"then": then}))


def _recent_scenarios(request: Request) -> list[int]:
    attempts = Attempt.objects.order_by("-created_at")
    if request.user.is_authenticated:
        attempts = attempts.filter(user=request.user)
    elif visitor := request.session.get(VISITOR_KEY):
        attempts = attempts.filter(user=None, visitor=visitor)
    else:
        return []
    return list(attempts.values_list("scenario_id", flat=True)[:RECENT])


@login_required
@require_safe
@open_book
def review_next(request: UserRequest) -> HttpResponse:
    """Go to a fresh variant of the most overdue scenario, or say when the next one is due."""
    upcoming = review.next_review(request.user)
    if upcoming.slug is None:
        return render(request, "practice/review.html", {"next_due": upcoming.next_due})
    # A fresh seed each time: the numbers change, so remembering them does not help.
    url = reverse("practice:question", args=[upcoming.slug, fresh_seed()])
    return redirect(f"{url}?mode=review")


# --- one question ------------------------------------------------------------------------------


def _scenario(request: Request, slug: str, seed: int) -> Scenario:
    """The scenario of a question's URL; 404 for one the person may not meet (a course's own
    situation, to anyone outside its audience: scenarios.audience), as for one that is not."""
    if seed > MAX_SEED:
        raise Http404(_("There is no such question."))
    try:
        scenario = Scenario.objects.current(slug)
    except Scenario.DoesNotExist:
        raise Http404(_("There is no such question.")) from None
    if not audience.sees(_user_id(request), scenario):
        raise Http404(_("There is no such question."))
    return scenario


def _user_id(request: Request) -> int | None:
    return request.user.pk if request.user.is_authenticated else None


def _pose(scenario: Scenario, seed: int) -> quiz.Posed:
    try:
        return quiz.pose(scenario, seed, current_language())
    except quiz.VariantError:
        raise Http404(_("There is no such question.")) from None


def _page(
    request: Request,
    scenario: Scenario,
    posed: quiz.Posed,
    chosen: Mapping[str, str],
    **extra: Any,
) -> dict[str, Any]:
    """The page's context; `chosen` is the request's filter (`practice_filter`, parsed once)."""
    slug, seed = posed.slug, posed.seed
    items: list[quiz.Marked] = list(extra.get("items", ()))
    section = posed.spec.section
    context = {
        "crumbs": {
            "rule": scenario.rule_id,
            "section": section,
            "title": texts.section_titles(posed.stamp).get(section, Texts()).pick(posed.lang),
        },
        **_fields(posed, items),
        "scenario": scenario,
        "posed": posed,
        "chosen": chosen,
        "query": urlencode(chosen),
        "replay_url": reverse("practice:question", args=[slug, seed]),
        "answer_url": _with_query(reverse("practice:answer", args=[slug, seed]), chosen),
        "next_url": chosen.get("then") or _with_query(reverse("practice:next"), chosen),
        "whatif_url": reverse("practice:whatif", args=[slug, seed]),
        "lang": posed.lang,
        "reviewing": chosen.get("mode") == Mode.REVIEW,
        "review_round": review.todays_round(request.user)
        if chosen.get("mode") == Mode.REVIEW and request.user.is_authenticated
        else None,
    }
    context.update(extra)
    return context


@never_cache
@require_safe
@open_book
def question(request: Request, slug: str, seed: int) -> HttpResponse:
    """One variant's questions; its URL replays exactly that variant."""
    scenario = _scenario(request, slug, seed)
    posed = _pose(scenario, seed)
    # A visitor's id is made before answering, so that answering never has to write the session.
    person_of(request)
    chosen = practice_filter(request)
    again = _shown_again(request, scenario, posed, chosen)
    if again is not None:
        return render(request, TEMPLATE, again)
    mode = chosen.get("mode", Mode.PRACTICE)
    token = tokens.issue(slug, seed, [q.id for q in posed.questions], mode)
    return render(
        request, TEMPLATE, _page(request, scenario, posed, chosen, token=token, items=_blank(posed))
    )


def _fields(posed: quiz.Posed, items: list[quiz.Marked]) -> dict[str, Any]:
    """The field diagrams of the page: the question's (the input of a place question, drawn
    when shown) and, after answering a place question, the close-up of the right spots beside
    the trainee's."""
    drawn = posed.diagram
    if drawn is None:
        return {"question_field": "", "feedback_field": ""}
    answers = []
    for item in items:
        right, given = point(item.right), point(item.given)
        if item.question.type == quiz.QuestionType.PLACE and right is not None:
            answers.append(
                diagram.Answer(
                    (right["x"], right["y"]),
                    item.question.tolerance,
                    (given["x"], given["y"]) if given else None,
                )
            )
    shown = [p for a in answers for p in (a.right, a.mine) if p is not None]
    close_up = diagram.around(drawn, shown) if shown else None
    marker = quiz.marker(items)
    return {
        # Drawn only if the template shows it (the whole page, never the feedback fragment):
        # a template calls a callable it is given.
        "question_field": lambda: diagram.render(
            drawn, posed.lang, interactive=posed.has_place, marker=marker
        ),
        "feedback_field": diagram.render(
            drawn, posed.lang, view=close_up, zoom=close_up, answers=answers, uid="feedback-field"
        )
        if answers
        else "",
    }


def _blank(posed: quiz.Posed) -> list[quiz.Marked]:
    return [quiz.Marked(q, ()) for q in posed.questions]


# --- the answer --------------------------------------------------------------------------------


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
@open_book
def answer(request: Request, slug: str, seed: int) -> HttpResponse:
    """Check every answer of the page against the engine, record them, show the feedback.

    A GET of this address (a reload, a restored tab, a language switch after answering without
    JavaScript) goes back to the question.
    """
    if request.method != "POST":
        return redirect(
            _with_query(reverse("practice:question", args=[slug, seed]), practice_filter(request))
        )
    scenario = _scenario(request, slug, seed)
    posed = _pose(scenario, seed)
    chosen = practice_filter(request)
    submitted = {key: request.POST.getlist(key) for key in request.POST}
    token = request.POST.get("token", "")
    try:
        state = tokens.read(token, slug, seed)
        if state.questions != tuple(q.id for q in posed.questions):
            raise tokens.TokenError(tokens.TokenCode.TAMPERED)
    except tokens.TokenError as exc:
        fresh = reverse(
            "practice:question", args=[slug, fresh_seed() if exc.code == "expired" else seed]
        )
        context = _page(
            request,
            scenario,
            posed,
            chosen,
            token=token,
            items=quiz.read(posed, submitted),
            token_error=TOKEN_ERRORS[exc.code],
            fresh_url=_with_query(fresh, chosen),
        )
        return render_fragment(
            request, TEMPLATE, context, fragments=FRAGMENTS, fragment="feedback", status=400
        )

    checked = quiz.check(posed, submitted)
    if checked.refused:
        items = [
            quiz.Marked(m.question, m.values, quiz.answer_message(m.error)) if m.error else m
            for m in checked.items
        ]
        context = _page(request, scenario, posed, chosen, token=token, items=items, has_errors=True)
        response = render_fragment(
            request, TEMPLATE, context, fragments=FRAGMENTS, fragment="quiz", status=400
        )
        if request.htmx:
            response["HX-Retarget"] = "#quiz"
            response["HX-Reswap"] = "outerHTML"
        return response

    recorded = record_answers(
        person_of(request),
        Context(Mode(state.mode)),
        Answers(
            scenario_id=posed.scenario_id,
            seed=seed,
            content_version=posed.version,
            items=[
                Answer(m.id, m.given, m.right, m.correct, state.nonce_for(m.id))
                for m in checked.items
            ],
            time_taken_ms=min(state.elapsed_ms(), 2**31 - 1),
        ),
    )
    nonces = [state.nonce_for(m.id) for m in checked.items]
    context = _answered(
        request, scenario, posed, chosen, checked, tokens.answered(slug, seed, nonces)
    )
    context.update(token=token, duplicate=recorded.duplicate)
    response = render_fragment(request, TEMPLATE, context, fragments=FRAGMENTS, fragment="feedback")
    if request.htmx:
        # The address says the question is answered: a reload or a language switch shows the
        # feedback again instead of a fresh question.
        response["HX-Push-Url"] = context["lang_next"]
    return response


def _answered(
    request: Request,
    scenario: Scenario,
    posed: quiz.Posed,
    chosen: Mapping[str, str],
    checked: quiz.Check,
    proof: str,
) -> dict[str, Any]:
    """The page's context once answered: the feedback, what-if, and the answered address."""
    query = {**chosen, "answered": proof}
    return _page(
        request,
        scenario,
        posed,
        chosen,
        items=list(checked.items),
        checked=checked,
        answered=True,
        whatif=quiz.what_if_controls(posed),
        proof=proof,
        lang_next=_with_query(reverse("practice:question", args=[posed.slug, posed.seed]), query),
        variant_url=_with_query(
            reverse("practice:question", args=[posed.slug, fresh_seed()]), chosen
        ),
    )


def _shown_again(
    request: Request, scenario: Scenario, posed: quiz.Posed, chosen: Mapping[str, str]
) -> dict[str, Any] | None:
    """The feedback of this variant as this person answered it, from ?answered= (a reload, a
    restored tab, a language switch); None when the proof or the answers are not theirs."""
    proof = request.GET.get("answered", "")
    nonces = tokens.read_answered(proof, posed.slug, posed.seed) if proof else None
    if not nonces:
        return None
    attempts = Attempt.objects.filter(nonce__in=nonces, scenario_id=posed.scenario_id)
    if request.user.is_authenticated:
        attempts = attempts.filter(user=request.user)
    else:
        attempts = attempts.filter(user=None, visitor=request.session.get(VISITOR_KEY) or "-")
    given = dict(attempts.values_list("question", "answer"))
    if not given:
        return None
    return _answered(request, scenario, posed, chosen, quiz.checked(posed, given), proof)


# --- what if -----------------------------------------------------------------------------------


@require_safe
@open_book
def whatif(request: Request, slug: str, seed: int) -> HttpResponse:
    """After answering: change one fact and show how the ruling changes, beside the original."""
    scenario = _scenario(request, slug, seed)
    posed = _pose(scenario, seed)
    proof = request.GET.get("proof", "")
    base = _page(
        request,
        scenario,
        posed,
        practice_filter(request),
        items=_blank(posed),
        whatif_shown=True,
        whatif=quiz.what_if_controls(posed),
        proof=proof,
    )
    if not tokens.was_answered(proof, slug, seed):
        context = {**base, "whatif_error": _("Answer the question first.")}
        return render_fragment(
            request, TEMPLATE, context, fragments=FRAGMENTS, fragment="whatif", status=400
        )
    try:
        result = quiz.what_if(posed, request.GET.get("param", ""), request.GET.get("value", ""))
    except quiz.VariantError:
        context = {
            **base,
            "whatif_error": quiz.WHAT_IF_REFUSED,
        }
        return render_fragment(
            request, TEMPLATE, context, fragments=FRAGMENTS, fragment="whatif", status=400
        )
    context = {**base, "result": result}
    return render_fragment(request, TEMPLATE, context, fragments=FRAGMENTS, fragment="whatif")
