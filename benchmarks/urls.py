"""The app's URLs and /bench/floor/: the least any logged-in page does (session and user)."""

from django.http import HttpRequest, HttpResponse
from django.urls import path

from polotrainer.urls import handler400, handler403, handler404, handler500  # noqa: F401
from polotrainer.urls import urlpatterns as app


def floor(request: HttpRequest) -> HttpResponse:
    assert request.user.is_authenticated
    return HttpResponse(f"hello {request.user.pk}\n", content_type="text/plain")


urlpatterns = [path("bench/floor/", floor), *app]
