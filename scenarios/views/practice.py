"""The practice quiz: start, next question, one question, its answer."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET, require_POST

from scenarios.models import Rule


@require_GET
def start(request: HttpRequest) -> HttpResponse:
    """Choose what to practise."""
    return render(request, "scenarios/rules.html", {"rules": Rule.objects.all()})


@require_GET
def next_question(request: HttpRequest) -> HttpResponse:
    """Pick a scenario and a fresh seed, and go to that question."""
    return render(request, "scenarios/rules.html", {"rules": Rule.objects.all()})


@require_GET
def question(request: HttpRequest, slug: str, seed: int) -> HttpResponse:
    """One question of one variant; its URL replays exactly that variant."""
    return render(request, "scenarios/rules.html", {"rules": Rule.objects.all()})


@require_POST
def answer(request: HttpRequest, slug: str, seed: int) -> HttpResponse:
    """Check an answer against the engine and show the feedback."""
    return render(request, "scenarios/rules.html", {"rules": Rule.objects.all()})
