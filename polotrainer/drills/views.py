"""Drill screens: the start, one play (scene, countdown, answer, reveal), the set's summary.

The play's page carries the field and the questions; the scene itself comes with the start
(a POST, which fixes the server's start time), and from then until the answer the page needs
no network. The answer's POST returns the reveal. Someone else's set or play is a 404 that
says so; a refused answer says why and records nothing.
"""

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST, require_safe

from polotrainer.courses import assignments as homework
from polotrainer.courses.models import Assignment, Kind, Membership
from polotrainer.drills import plays, screen, words
from polotrainer.drills.models import DrillItem, DrillSet
from polotrainer.umpires import closedbook
from polotrainer.umpires.decisions import FAST_MS
from polotrainer.umpires.people import person_of
from polotrainer.umpires.progress import Person
from polotrainer.web.requests import Request, UserRequest
from scenarios import drillable, quiz
from scenarios.localize import current_language
from scenarios.models import Scenario

TEMPLATE = "drills/play.html"

REFUSALS = {
    plays.Refusal.TAMPERED: gettext_lazy(
        "This answer does not belong to the play on this page, so it was not recorded."
    ),
    plays.Refusal.NOT_STARTED: gettext_lazy(
        "This play has not started yet: press Play first. Nothing was recorded."
    ),
    plays.Refusal.EARLY: gettext_lazy(
        "The play had not stopped yet by the server's clock, so this answer was not recorded."
    ),
    plays.Refusal.BAD_ANSWER: gettext_lazy(
        "One of the answers is not one this question offers, so nothing was recorded."
    ),
}
OUTCOMES = {
    plays.Outcome.LATE: gettext_lazy(
        "Your answer arrived after the countdown by the server's clock: it counts as a time-out."
    ),
    plays.Outcome.TIMED_OUT: gettext_lazy("Time is up: a time-out counts as a wrong call."),
    plays.Outcome.ALREADY: gettext_lazy(
        "You had already answered this play: your first answer is the one recorded."
    ),
}
NOT_YOURS = gettext_lazy("This drill belongs to someone else, or does not exist.")
ASSIGNMENT_NOT_YOURS = gettext_lazy(
    "This drill set is not one of your cohorts' assignments, or does not exist."
)


def _closed(request: Request) -> HttpResponse | None:
    """The closed-book page (403) while an exam holds the account, else None."""
    if not request.user.is_authenticated:
        return None
    held = closedbook.closed_book(Person(user_id=request.user.pk), timezone.now())
    if held is None:
        return None
    return render(request, closedbook.TEMPLATE, closedbook.notice(held), status=403)


def _not_yours(request: Request, message: Any = NOT_YOURS) -> HttpResponse:
    context = {"title": _("Not your drill"), "message": message}
    return render(request, "error.html", context, status=404)


def _item(request: Request, item_id: int) -> DrillItem | None:
    """The play if it is the person's own (None otherwise: the caller answers 404)."""
    item = (
        DrillItem.objects.select_related("drill", "scenario", "scenario__section")
        .filter(pk=item_id)
        .first()
    )
    if item is None or not plays.owns(person_of(request), item.drill):
        return None
    return item


@never_cache
@require_safe
def home(request: Request) -> HttpResponse:
    """What a drill is, and the button that starts a set."""
    if (closed := _closed(request)) is not None:
        return closed
    return render(
        request,
        "drills/home.html",
        {
            "size": plays.SET_SIZE,
            "seconds": plays.countdown_ms(person_of(request)) // 1000,
            "fast_seconds": FAST_MS // 1000,
        },
    )


@require_POST
def new(request: Request) -> HttpResponse:
    """A fresh set of plays, then its first play."""
    if (closed := _closed(request)) is not None:
        return closed
    drill = plays.new_set(person_of(request), timezone.now())
    if not drill.items.exists():
        raise Http404(_("There are no plays to drill yet."))
    return redirect("drills:play", drill.pk, 1)


@require_POST
@login_required
def assigned(request: UserRequest, assignment_id: int) -> HttpResponse:
    """A course's drill set, for a trainee of its cohort: go on with the set begun from it, or
    a fresh set of the plays still to do, from its situations; its summary leads back."""
    if (closed := _closed(request)) is not None:
        return closed
    work = (
        Assignment.objects.filter(
            pk=assignment_id, kind=Kind.DRILLS, cohort__memberships__user=request.user
        )
        .select_related("cohort__course")
        .first()
    )
    if work is None:
        return _not_yours(request, ASSIGNMENT_NOT_YOURS)
    back = reverse("courses:assignment", args=[work.pk])
    with transaction.atomic():
        # One Start at a time per trainee (a double tap, two tabs): the set begun is read after
        # the lock, so a second Start goes on with the first's set instead of making another.
        Membership.objects.select_for_update().filter(
            cohort_id=work.cohort_id, user=request.user
        ).first()
        return _start_assigned(request, work, back)


def _start_assigned(request: UserRequest, work: Assignment, back: str) -> HttpResponse:
    """The set begun from this assignment, or a fresh one (the caller holds the lock)."""
    begun = (
        DrillItem.objects.filter(
            drill__assignment=work, drill__user=request.user, answered_at__isnull=True
        )
        .order_by("-drill_id", "position")
        .first()
    )
    if begun is not None:
        return redirect("drills:play", begun.drill_id, begun.position)
    done = homework.progress([work], [request.user.pk])[(work.pk, request.user.pk)]
    if done.done:
        messages.info(request, _("This drill set is done: every play it asks has been called."))
        return redirect(back)
    pool = drillable.by_family(
        Scenario.objects.live_for(request.user.pk)
        .filter(assignment_links__assignment=work)
        .select_related("section")
    )
    if not pool:
        messages.error(request, _("This drill set has no situation left that a drill can play."))
        return redirect(back)
    drill = plays.new_set(
        person_of(request), timezone.now(), done.target - done.answered, pool=pool, assignment=work
    )
    return redirect("drills:play", drill.pk, 1)


@never_cache
@require_safe
def play(request: Request, set_id: int, position: int) -> HttpResponse:
    """One play of a set: the field, the situation, Play; the questions after the stop."""
    if (closed := _closed(request)) is not None:
        return closed
    item = (
        DrillItem.objects.select_related("drill", "scenario", "scenario__section")
        .filter(drill_id=set_id, position=position)
        .first()
    )
    if item is None or not plays.owns(person_of(request), item.drill):
        return _not_yours(request)
    lang = current_language()
    the_play = plays.play_of(item, lang)
    context = _page(request, the_play, lang)
    if item.answered_at is not None:
        context.update(_reveal(the_play, plays.recorded_check(the_play, item), item, None))
    return render(request, TEMPLATE, context)


def _page(request: Request, the_play: plays.Play, lang: str) -> dict[str, Any]:
    item, posed, scene = the_play.item, the_play.posed, the_play.scene
    total = item.drill.items.count()
    return {
        "item": item,
        "posed": posed,
        "total": total,
        "items": [quiz.Marked(q, ()) for q in posed.questions],
        "ground": screen.ground(scene),
        "view_box": screen.view_box(scene),
        "goal_line_x": -scene.field.length / 2,
        "start_url": reverse("drills:start", args=[item.pk]),
        "answer_url": reverse("drills:answer", args=[item.pk]),
        "replay_url": reverse("drills:replay", args=[item.pk]),
        "next_url": reverse("drills:play", args=[item.drill_id, item.position + 1])
        if item.position < total
        else reverse("drills:summary", args=[item.drill_id]),
        "lang": lang,
    }


@require_POST
def start(request: Request, item_id: int) -> HttpResponse:
    """Start the play (once): the scene, its signed start and stop, the time left. A play whose
    window has closed since its first start (a reload much later) is a time-out: the reveal."""
    item = _item(request, item_id)
    if item is None:
        return JsonResponse({"error": str(NOT_YOURS)}, status=404)
    if _closed(request) is not None:
        return JsonResponse({"reload": True}, status=403)
    lang = current_language()
    the_play = plays.play_of(item, lang)
    now = timezone.now()
    first = item.started_at is None
    item = plays.start(item, the_play.scene, now, steps=request.POST.get("steps") == "1")
    the_play = plays.Play(item, the_play.posed, the_play.scene)
    if item.answered_at is None and plays.started_long_ago(item, now):
        result = plays.answer(
            person_of(request),
            item,
            the_play,
            {},
            token=plays.token_for(item),
            reported_ms=None,
            timed_out=True,
            now=now,
        )
        return JsonResponse({"reveal": _reveal_html(request, the_play, result)})
    return JsonResponse(
        {
            "token": plays.token_for(item),
            "scene": the_play.scene.as_json(),
            "steps": item.stop_ms != plays.stop_offset_ms(the_play.scene, False),
            "again": not first,
            "elapsed_ms": max(0, plays.epoch_ms(now) - plays.epoch_ms(item.started_at)),  # type: ignore[arg-type]
            "stop_ms": item.stop_ms,
            "window_ms": item.window_ms,
            "description": words.describe(the_play.scene, lang),
        }
    )


@require_POST
def answer(request: Request, item_id: int) -> HttpResponse:
    """The answer (or the page's time-out): recorded once, and the reveal."""
    item = _item(request, item_id)
    if item is None:
        return _not_yours(request)
    if (closed := _closed(request)) is not None:
        return closed
    lang = current_language()
    the_play = plays.play_of(item, lang)
    reported = request.POST.get("reported_ms", "")
    try:
        result = plays.answer(
            person_of(request),
            item,
            the_play,
            {key: request.POST.getlist(key) for key in request.POST},
            token=request.POST.get("token", ""),
            reported_ms=int(reported) if reported.isascii() and reported.isdigit() else None,
            timed_out=request.POST.get("timeout") == "1",
            now=timezone.now(),
        )
    except plays.DrillError as exc:
        html = render_to_string(
            "drills/play.html#refused",
            {"refusal": REFUSALS[exc.code], "code": exc.code.value},
            request=request,
        )
        if request.headers.get("X-Drill") == "1":
            return HttpResponse(html, status=400)
        context = _page(request, the_play, lang)
        context.update({"refusal": REFUSALS[exc.code], "code": exc.code.value})
        return render(request, TEMPLATE, context, status=400)
    if request.headers.get("X-Drill") == "1":
        return HttpResponse(_reveal_html(request, the_play, result))
    context = _page(request, the_play, lang)
    context.update(_reveal(the_play, result.check, result.item, result.outcome))
    return render(request, TEMPLATE, context)


def _reveal(
    the_play: plays.Play, check: Any, item: DrillItem, outcome: plays.Outcome | None
) -> dict[str, Any]:
    decision = item.decision_ms or 0
    right = bool(item.correct)
    return {
        "answered": True,
        "checked": check,
        "outcome": outcome,
        "outcome_note": OUTCOMES.get(outcome) if outcome else None,
        "timed_out": item.timed_out,
        "right": right,
        "fast": right and decision <= FAST_MS,
        "decision_seconds": decision / 1000,
        "replay_scene": screen.replay_json(the_play.scene),
        "item": item,
    }


def _reveal_html(request: Request, the_play: plays.Play, result: plays.Result) -> str:
    lang = current_language()
    context = _page(request, the_play, lang)
    context.update(_reveal(the_play, result.check, result.item, result.outcome))
    return render_to_string("drills/play.html#reveal", context, request=request)


@require_POST
def replay(request: Request, item_id: int) -> HttpResponse:
    """Count a replay (after answering only)."""
    item = _item(request, item_id)
    if item is None:
        return JsonResponse({"error": str(NOT_YOURS)}, status=404)
    try:
        item = plays.count_replay(item, slow=request.POST.get("slow") == "1")
    except plays.DrillError:
        return JsonResponse({"error": str(REFUSALS[plays.Refusal.NOT_STARTED])}, status=400)
    return JsonResponse({"replays": item.replays, "slow_replays": item.slow_replays})


@never_cache
@require_safe
def summary(request: Request, set_id: int) -> HttpResponse:
    """The set's calls: fast and right, slow and right, wrong, time-outs; the mean time."""
    drill = get_object_or_404(DrillSet, pk=set_id)
    if not plays.owns(person_of(request), drill):
        return _not_yours(request)
    items = list(drill.items.select_related("scenario", "scenario__section"))
    done = [i for i in items if i.answered_at is not None]
    right = [i for i in done if i.correct]
    fast = [i for i in right if (i.decision_ms or 0) <= FAST_MS]
    times = [i.decision_ms or 0 for i in done if not i.timed_out]
    return render(
        request,
        "drills/summary.html",
        {
            "drill": drill,
            "back_url": reverse("courses:assignment", args=[drill.assignment_id])
            if drill.assignment_id
            else None,
            "items": items,
            "done": len(done),
            "total": len(items),
            "fast_right": len(fast),
            "slow_right": len(right) - len(fast),
            "wrong": sum(1 for i in done if not i.correct and not i.timed_out),
            "timed_out": sum(1 for i in done if i.timed_out),
            "mean_seconds": (sum(times) / len(times) / 1000) if times else None,
        },
    )
