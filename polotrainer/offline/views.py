"""Practice with no signal: the page, the packs, the sync, the web app manifest and the worker."""

import json
from typing import Any

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_safe

from polotrainer.offline import packs, sync
from polotrainer.offline import worker as service_worker
from polotrainer.umpires import closedbook
from polotrainer.umpires.models import ClosedBook
from polotrainer.umpires.people import person_of
from polotrainer.umpires.progress import Person
from polotrainer.web.requests import Request
from scenarios.models import Rule, Section

THEME = "#1f6f43"
#: Largest sync request body (500 answers are ~300 KB).
MAX_BODY = 4 * 1024 * 1024


def _held(request: Request) -> ClosedBook | None:
    if not request.user.is_authenticated:
        return None
    return closedbook.closed_book(Person(user_id=request.user.pk), timezone.now())


@require_safe
def page(request: Request) -> HttpResponse:
    """The offline practice page: download packs, see what is stored, answer with no signal.

    The same for everyone (the service worker keeps one copy per language): whatever depends on
    the person (signed in, due reviews, a closed-book exam) the page asks the sync endpoint.

    Every phone's service worker fetches it in both languages when it installs, so the page is
    a part kept per process (`{% shared %}`) for its choices: the rules and sections as pairs
    (only the columns they need, not the sections' texts), and the chosen ones only if they
    are among them."""
    rules = tuple((r.number, r.title) for r in Rule.objects.only("number", "title_it", "title_en"))
    sections = tuple(
        (s.ref, s.label) for s in Section.objects.offered().only("ref", "title_it", "title_en")
    )
    rule, section = request.GET.get("rule", ""), request.GET.get("section", "")
    return render(
        request,
        "offline/offline.html",
        {
            "rules": rules,
            "sections": sections,
            "chosen_rule": rule if rule in {str(number) for number, _title in rules} else "",
            "chosen_section": section if section in {ref for ref, _label in sections} else "",
        },
    )


@never_cache
@require_safe
def pack(request: Request) -> HttpResponse:
    """A new pack for this person (JSON), or why not: a closed-book exam, a bad scope."""
    held = (
        closedbook.pack_hold(Person(user_id=request.user.pk), timezone.now())
        if request.user.is_authenticated
        else None
    )
    if held is not None:
        if held.pk is None:  # an exam open, not yet sat: no attempt holds the account yet
            message = _(
                "A closed-book exam is open to you: no practice pack until you have sat it "
                "or it closes (%(time)s)."
            )
        else:
            message = _(
                "A closed-book exam holds your account: no practice pack until it ends "
                "(at the latest %(time)s)."
            )
        return JsonResponse(
            {
                "error": "closed_book",
                "message": message % {"time": closedbook.reopens(held)},
                "until": int(held.until.timestamp() * 1000),
            },
            status=403,
        )
    try:
        scope = packs.PackScope.parse(
            rule=request.GET.get("rule", ""),
            section=request.GET.get("section", ""),
            due=request.GET.get("due", ""),
        )
    except packs.PackScopeError:
        return JsonResponse(
            {"error": "scope", "message": _("Choose a rule, a section or your due reviews.")},
            status=400,
        )
    _pack, body = packs.build(person_of(request), scope)
    if not body["count"]:
        return JsonResponse(
            {"error": "empty", "message": _("There is nothing to practise here yet.")}, status=404
        )
    body["size"] = packs.size(body)
    return JsonResponse(body, json_dumps_params={"ensure_ascii": False, "separators": (",", ":")})


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def sync_view(request: Request) -> HttpResponse:
    """GET: what the page needs before it sends (a fresh CSRF token, who is signed in, whether
    a closed-book exam holds the account). POST: the outbox, graded and recorded."""
    held = _held(request)
    if request.method != "POST":
        return JsonResponse(
            {
                "csrf": get_token(request),
                "signed_in": request.user.is_authenticated,
                "held_until": int(held.until.timestamp() * 1000) if held else None,
            }
        )
    return _sync_post(request, held)


def _sync_post(request: Request, held: ClosedBook | None) -> HttpResponse:
    if held is not None:
        # Kept on the phone: recorded once the exam is over, never while it runs.
        return JsonResponse(
            {
                "error": "closed_book",
                "message": _(
                    "A closed-book exam holds your account: your answers wait on this device "
                    "until it ends."
                ),
                "until": int(held.until.timestamp() * 1000),
            },
            status=423,
        )
    if request.content_type != "application/json":
        return JsonResponse(
            {"error": "malformed", "message": _("This could not be read: nothing was recorded.")},
            status=400,
        )
    if len(request.body) > MAX_BODY:
        return JsonResponse(
            {"error": "too_big", "message": _("Too many answers at once.")}, status=413
        )
    try:
        data = json.loads(request.body)
        entries = data["entries"]
        if not isinstance(entries, list):
            raise TypeError
    except (ValueError, KeyError, TypeError):
        return JsonResponse(
            {"error": "malformed", "message": _("This could not be read: nothing was recorded.")},
            status=400,
        )
    outcomes = sync.sync(person_of(request), entries)
    recorded = sum(1 for o in outcomes if o.recorded)
    return JsonResponse(
        {"recorded": recorded, "results": [o.as_json() for o in outcomes]},
        json_dumps_params={"ensure_ascii": False},
    )


@require_safe
def manifest(request: Request) -> HttpResponse:
    """The web app manifest, in the language of its address (its start URL too)."""
    lang = translation.get_language() or settings.LANGUAGE_CODE
    body: dict[str, Any] = {
        "name": _("Polo umpire trainer"),
        "short_name": "polotrainer",
        "description": _(
            "Practise the USPA rulings of Rules 3, 21 and 37 in Italian and English, checked by "
            "a rules engine."
        ),
        "lang": lang,
        "id": "/",
        "start_url": reverse("home"),
        "scope": "/",
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": THEME,
        "icons": [
            {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {
                "src": static("icons/icon-maskable-512.png"),
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
        ],
        "shortcuts": [
            {"name": _("Practice with no signal"), "url": reverse("offline:page")},
        ],
    }
    return JsonResponse(
        body,
        content_type="application/manifest+json",
        json_dumps_params={"ensure_ascii": False},
    )


@require_safe
def worker(request: Request) -> HttpResponse:
    """The service worker, at the root so that its scope is the whole site.

    Never cached by HTTP: the browser compares it byte for byte to decide on an update, and
    its version changes with the static files and pages it keeps."""
    response = HttpResponse(service_worker.script(), content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response
