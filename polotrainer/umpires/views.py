"""Accounts, dashboard and review (filled in by the progress issue)."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect


def login(request: HttpRequest) -> HttpResponse:
    """Log in."""
    return redirect("home")


def dashboard(request: HttpRequest) -> HttpResponse:
    """The umpire's dashboard."""
    return redirect("home")


def review(request: HttpRequest) -> HttpResponse:
    """Review what is due."""
    return redirect("home")
