"""Site-wide middleware: a header every response carries, and input no page can take.

Each runs in the mode of the handler it is in (`Middleware`): in the request's thread under
WSGI, in the event loop under ASGI (the clinics' event streams, polotrainer/serving.py), where
a synchronous middleware would make Django run it in a thread of its own and hop back to the
loop for the rest of the chain. That hop is not only slow: a client that goes away mid-request
left asgiref's `RuntimeError: CurrentThreadExecutor already quit or is broken` in the log.
None of these waits for anything (no database, no file), so the loop may run them.
"""

from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction, sync_to_async
from django.conf import settings
from django.core.exceptions import BadRequest
from django.http import HttpRequest, HttpResponse
from django.utils.cache import has_vary_header, patch_cache_control
from whitenoise.middleware import WhiteNoiseMiddleware


class Middleware:
    """A middleware of both modes: `before` the view, `after` it, called from either."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], Any]) -> None:
        self.get_response = get_response
        self.async_mode = iscoroutinefunction(get_response)
        if self.async_mode:
            markcoroutinefunction(self)  # Django then awaits it, in the loop

    def __call__(self, request: HttpRequest) -> Any:
        if self.async_mode:
            return self._acall(request)
        self.before(request)
        return self.after(request, self.get_response(request))

    async def _acall(self, request: HttpRequest) -> HttpResponse:
        self.before(request)
        view: Callable[[HttpRequest], Awaitable[HttpResponse]] = self.get_response
        return self.after(request, await view(request))

    def before(self, request: HttpRequest) -> None:
        """Before the view: raise to refuse the request."""

    def after(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        return response


class PermissionsPolicyMiddleware(Middleware):
    """Send settings.PERMISSIONS_POLICY on every response (Django has no setting for it)."""

    def after(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        response.headers.setdefault("Permissions-Policy", settings.PERMISSIONS_POLICY)
        return response


class RejectNulMiddleware(Middleware):
    """Answer 400 to a NUL character anywhere in the address, the query or a form field.

    No text this site stores or looks up can hold one (PostgreSQL refuses it in text), so it is
    refused once here, for every app, instead of in each view that reads a parameter. Runs after
    LocaleMiddleware (the 400 page is in the page's language) and before anything reads the
    session or the user.
    """

    def before(self, request: HttpRequest) -> None:
        if _has_nul(request):
            raise BadRequest("NUL character in the request")


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


class PrivateCacheMiddleware(Middleware):
    """Mark every answer that depends on who asks as `Cache-Control: private, no-store`.

    A page that read the session or the CSRF cookie (a personal page, an export, any page with a
    form) varies on Cookie; no shared cache may keep it and no browser should store it on disk.
    Answers that set their own Cache-Control (static files, never_cache views) keep it. Sits
    above SessionMiddleware and CsrfViewMiddleware, so it sees the Vary they add.
    """

    def after(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        if has_vary_header(response, "Cookie"):
            if response.has_header("Cache-Control"):
                patch_cache_control(response, private=True, no_store=True)
            else:
                response["Cache-Control"] = "private, no-store"
        return response


class StaticFilesMiddleware(WhiteNoiseMiddleware):  # type: ignore[misc]  # whitenoise has no types
    """WhiteNoise's static files (hashed, compressed, cached for good), in both modes.

    WhiteNoise's own middleware is synchronous only. Under ASGI only the event streams come
    here (polotrainer/serving.py), never a static file: the loop looks the path up in
    WhiteNoise's table and goes on; in development (DEBUG, files found on each request) the
    look-up reads the disk, so it runs in a thread.
    """

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], Any]) -> None:
        super().__init__(get_response)
        self.async_mode = iscoroutinefunction(get_response)
        if self.async_mode:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> Any:
        if self.async_mode:
            return self._acall(request)
        return super().__call__(request)

    async def _acall(self, request: HttpRequest) -> HttpResponse:
        path = request.path_info
        if self.autorefresh:
            static_file = await sync_to_async(self.find_file, thread_sensitive=False)(path)
        else:
            static_file = self.files.get(path)
        if static_file is not None:
            served: HttpResponse = self.serve(static_file, request)
            return served
        view: Callable[[HttpRequest], Awaitable[HttpResponse]] = self.get_response
        return await view(request)
