"""Calendar downloads and feeds; invitations' landing page; mail preferences and one-click
unsubscribing."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from polotrainer.notify import calendar, unsubscribe
from polotrainer.notify.ics import Event
from polotrainer.notify.ics import calendar as ics_calendar
from polotrainer.notify.links import absolute
from polotrainer.notify.models import FeedToken, Kind
from polotrainer.web.requests import UserRequest


def _ics(events: list[Event], name: str, filename: str) -> HttpResponse:
    body = ics_calendar(events, name, timezone.now())
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _base(request: HttpRequest) -> str:
    return request.build_absolute_uri("/")


@login_required
@require_GET
def exam_ics(request: UserRequest, exam_id: int) -> HttpResponse:
    """One exam's window as an .ics file (404 unless the person is in or teaches its cohort)."""
    exam = get_object_or_404(calendar.exams_of(request.user), pk=exam_id)
    lang = translation.get_language() or "it"
    event = calendar.exam_event(exam, lang, _base(request))
    return _ics([event], event.summary, f"exam-{exam.pk}.ics")


@login_required
@require_GET
def assignment_ics(request: UserRequest, assignment_id: int) -> HttpResponse:
    """One assignment's due date as an .ics file (404 unless it is the person's)."""
    assignment = get_object_or_404(calendar.assignments_of(request.user), pk=assignment_id)
    lang = translation.get_language() or "it"
    event = calendar.assignment_event(assignment, lang, _base(request))
    return _ics([event], event.summary, f"assignment-{assignment.pk}.ics")


@never_cache
@require_GET
def feed(request: HttpRequest, token: str) -> HttpResponse:
    """A person's calendar feed, by its secret address: in the person's language."""
    found = FeedToken.objects.select_related("user__profile").filter(token=token[:64]).first()
    if found is None or not found.user.is_active:
        return _feed_error(
            request,
            _("No calendar feed has this address"),
            _(
                "Check that the whole address was copied. A feed address is made on your "
                "account's calendar page."
            ),
            404,
        )
    lang = calendar.language_of(found.user)
    with translation.override(lang):
        if found.revoked_at is not None:
            return _feed_error(
                request,
                _("This calendar feed was stopped"),
                _(
                    "Its owner stopped this address or made a new one. Subscribe to the new "
                    "address shown on the account's calendar page."
                ),
                410,
            )
        events = calendar.events_of(found.user, _base(request))
        response = _ics(events, _("polotrainer: my exams and due dates"), "polotrainer.ics")
    response["Content-Disposition"] = 'inline; filename="polotrainer.ics"'
    return response


def _feed_error(request: HttpRequest, title: str, message: str, status: int) -> HttpResponse:
    context = {"title": title, "message": message, "minimal": True}
    return render(request, "error.html", context, status=status)


@login_required
@require_GET
def calendar_page(request: UserRequest) -> HttpResponse:
    """The person's calendar feed address, to make, renew or stop."""
    live = calendar.live_feed(request.user)
    address = ""
    if live is not None:
        address = request.build_absolute_uri(
            absolute("notify:feed", calendar.language_of(request.user), live.token, base="")
        )
    return render(request, "notify/calendar.html", {"feed": live, "address": address})


@login_required
@require_POST
def calendar_new(request: UserRequest) -> HttpResponse:
    """A new feed address; the old one stops working."""
    had = calendar.live_feed(request.user) is not None
    calendar.new_feed(request.user)
    if had:
        messages.success(request, _("A new address was made: the old one no longer works."))
    else:
        messages.success(request, _("Your feed address is ready: add it to your calendar."))
    return redirect("notify:calendar")


@login_required
@require_POST
def calendar_stop(request: UserRequest) -> HttpResponse:
    """Stop the feed: its address answers that it was stopped."""
    if calendar.revoke_feed(request.user):
        messages.success(request, _("The feed was stopped: its address no longer works."))
    else:
        messages.info(request, _("You had no calendar feed to stop."))
    return redirect("notify:calendar")


@csrf_exempt
@never_cache
@require_http_methods(["GET", "POST"])
def stop(request: HttpRequest, token: str) -> HttpResponse:
    """Stop one kind of mail. GET asks (a link checker must not stop anything); POST stops it,
    from the page's button or a mail program's one-click request (RFC 8058): the signed token
    is the proof, so no CSRF token is needed or possible."""
    try:
        user_id, kind = unsubscribe.read(token)
    except unsubscribe.BadToken:
        context = {
            "title": _("This link does not work"),
            "message": _(
                "The link to stop these mails is incomplete or was changed: nothing was "
                "stopped. Use the link of the mail itself, whole."
            ),
            "minimal": True,
        }
        return render(request, "error.html", context, status=400)
    label = Kind(kind).label
    if request.method == "POST":
        unsubscribe.stop(user_id, kind)
        return render(request, "notify/stop.html", {"label": label, "stopped": True})
    return render(request, "notify/stop.html", {"label": label, "stopped": False})
