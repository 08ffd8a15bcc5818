"""Answering htmx requests with the fragment they asked for, and plain requests with the page.

One template per screen; the pieces htmx swaps are `{% partialdef name inline %}` blocks in it.
An htmx request names the element it will swap (`HX-Target`); when that is one of the screen's
fragments, only the fragment is rendered.
"""

from collections.abc import Collection, Mapping
from typing import Any

from django.http import HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_vary_headers

from polotrainer.web.requests import Request


def render_fragment(
    request: Request,
    template: str,
    context: Mapping[str, Any],
    *,
    fragments: Collection[str],
    fragment: str | None = None,
    status: int = 200,
) -> HttpResponse:
    """The page, or for htmx the fragment named by HX-Target (or `fragment`) when it is one of
    `fragments`; an unknown target gets the whole page, never an error."""
    name = fragment or (request.htmx.target if request.htmx else None)
    if request.htmx and name in fragments:
        template = f"{template}#{name}"
    response = render(request, template, context, status=status)
    # The same URL answers a fragment or the page: caches must tell them apart.
    patch_vary_headers(response, ("HX-Request", "HX-Target"))
    return response
