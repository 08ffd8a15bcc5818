"""The rulebook reader: rules, sections, the glossary."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from scenarios.models import GlossaryTerm, Rule


@require_GET
def rules(request: HttpRequest) -> HttpResponse:
    """The three rules and their sections."""
    return render(request, "scenarios/rules.html", {"rules": Rule.objects.all()})


@require_GET
def rule(request: HttpRequest, number: int) -> HttpResponse:
    """One rule, every section."""
    return render(request, "scenarios/rules.html", {"rules": Rule.objects.all()})


@require_GET
def section(request: HttpRequest, ref: str) -> HttpResponse:
    """One section."""
    return render(request, "scenarios/rules.html", {"rules": Rule.objects.all()})


@require_GET
def glossary(request: HttpRequest) -> HttpResponse:
    """The bilingual glossary."""
    return render(request, "scenarios/rules.html", {"terms": GlossaryTerm.objects.all()})
