"""Site-wide pages: home, health check, error pages."""

from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template import loader
from django.utils import translation
from django.views import i18n
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """What the app is, for whom, and where to start."""
    return render(request, "home.html", home_context(request))


def home_context(request: HttpRequest) -> dict[str, object]:
    # Filled in by the apps that have something to say on the home page (counts, due reviews).
    from scenarios.home import practice_summary

    return practice_summary(request)


@never_cache
def healthz(request: HttpRequest) -> HttpResponse:
    """200 when the database answers, 503 otherwise."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        return HttpResponse("database unavailable\n", status=503, content_type="text/plain")
    return HttpResponse("ok\n", content_type="text/plain")


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """The translated 404 page."""
    return render(request, "404.html", status=404)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """The translated 400 page."""
    return render(request, "400.html", status=400)


def forbidden(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """The translated 403 page."""
    return render(request, "403.html", status=403)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A form sent without its security token (an old page, cookies off): say what to do."""
    return render(request, "403_csrf.html", status=403)


def server_error(request: HttpRequest) -> HttpResponse:
    """The translated 500 page, rendered without touching the database."""
    template = loader.get_template("500.html")
    return HttpResponse(template.render({}, request), status=500)


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """Switch language, stay on the same page, and remember the choice."""
    # Django translates `next` by resolving it in the active language, which is the browser's,
    # not the page's: resolve it in the language of its own prefix instead.
    next_language = translation.get_language_from_path(request.POST.get("next", ""))
    if next_language:
        translation.activate(next_language)
    response = i18n.set_language(request)
    language = request.POST.get("language", "")
    if request.user.is_authenticated and translation.check_for_language(language):
        from polotrainer.umpires.models import Profile

        Profile.objects.update_or_create(user=request.user, defaults={"language": language})
    return response
