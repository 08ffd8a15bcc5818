"""Site-wide middleware: a header every response carries, and input no page can take."""

from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import BadRequest
from django.http import HttpRequest, HttpResponse
from django.utils.cache import has_vary_header, patch_cache_control


class PermissionsPolicyMiddleware:
    """Send settings.PERMISSIONS_POLICY on every response (Django has no setting for it)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.policy = settings.PERMISSIONS_POLICY

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.headers.setdefault("Permissions-Policy", self.policy)
        return response


class RejectNulMiddleware:
    """Answer 400 to a NUL character anywhere in the address, the query or a form field.

    No text this site stores or looks up can hold one (PostgreSQL refuses it in text), so it is
    refused once here, for every app, instead of in each view that reads a parameter. Runs after
    LocaleMiddleware (the 400 page is in the page's language) and before anything reads the
    session or the user.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if _has_nul(request):
            raise BadRequest("NUL character in the request")
        return self.get_response(request)


def _has_nul(request: HttpRequest) -> bool:
    if "\x00" in request.path_info:
        return True
    for data in (request.GET, request.POST if request.method == "POST" else None):
        if data is None:
            continue
        for key, values in data.lists():
            if "\x00" in key or any("\x00" in value for value in values):
                return True
    return False


class PrivateCacheMiddleware:
    """Mark every answer that depends on who asks as `Cache-Control: private, no-store`.

    A page that read the session or the CSRF cookie (a personal page, an export, any page with a
    form) varies on Cookie; no shared cache may keep it and no browser should store it on disk.
    Answers that set their own Cache-Control (static files, never_cache views) keep it. Sits
    above SessionMiddleware and CsrfViewMiddleware, so it sees the Vary they add.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if has_vary_header(response, "Cookie"):
            if response.has_header("Cache-Control"):
                patch_cache_control(response, private=True, no_store=True)
            else:
                response["Cache-Control"] = "private, no-store"
        return response
