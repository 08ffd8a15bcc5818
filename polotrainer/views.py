"""Site-wide pages: home, health check, error pages."""

import sys
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.db import DatabaseError, InterfaceError, OperationalError, connection
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template import loader
from django.templatetags.static import static
from django.urls import NoReverseMatch, is_valid_path, reverse
from django.utils import timezone, translation
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext_lazy as _
from django.views import i18n
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST, require_safe

from polotrainer import demo
from polotrainer.clinics.models import ClinicSession, Phase
from polotrainer.courses.assignments import OVERDUE_SHOWN, due_for, progress
from polotrainer.courses.exams import attempts
from polotrainer.courses.exams.models import Exam
from polotrainer.courses.models import Assignment, Cohort, Membership
from polotrainer.umpires.models import Profile
from polotrainer.umpires.review import due_now
from polotrainer.umpires.roles import is_instructor
from polotrainer.web.messages import Message
from scenarios import audience
from scenarios.models import Rule


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    """Signed out: where each kind of user starts. Signed in: what is due, then the starts; an
    instructor's teaching (cohorts, exams, clinics) before their own practice."""
    rules = Rule.objects.annotate(
        scenario_count=Count(
            "scenarios",
            filter=Q(scenarios__retired=False)
            & audience.visible(
                request.user.pk if request.user.is_authenticated else None, "scenarios__"
            ),
        )
    )
    context: dict[str, Any] = {
        "rules": rules,
        "clinic_join_url": _url_if_served("clinics:enter"),
        "demo_accounts": demo.ACCOUNTS if settings.DEBUG and demo.present() else (),
        "demo_password": demo.PASSWORD,
    }
    if request.user.is_authenticated:
        context |= {
            "reviews": due_now(request.user),
            # The umpires app knows nothing of courses: the site puts the two side by side.
            "assignments_due": due_for(request.user),
            "exams_open": attempts.open_for(request.user, timezone.now()),
            "instructor": is_instructor(request.user),
            "teaching": _teaching(request.user),
            "exams_taught": _exams_taught(request.user, timezone.now()),
            "clinics": _clinics(request.user),
        }
    return render(request, "home.html", context)


@login_required
@require_safe
def start(request: HttpRequest) -> HttpResponse:
    """Where signing in lands: an instructor on the home page, with their cohorts, exams and
    clinics; anyone else on their own progress."""
    return redirect("home" if is_instructor(request.user) else "umpires:dashboard")


def _url_if_served(name: str) -> str:
    """The path of a named URL, or "" while no app serves it (a start not offered yet)."""
    try:
        return reverse(name)
    except NoReverseMatch:
        return ""


@dataclass(frozen=True)
class Teaching:
    """A cohort an instructor teaches, with its assignments falling due around now and how
    many of its trainees have done each."""

    cohort: Cohort
    trainees: int
    due: list[tuple[Assignment, int, bool]]  # the assignment, trainees done, past due


def _teaching(user: User) -> list[Teaching]:
    """The cohorts an instructor teaches, newest first (a few: My courses lists them all)."""
    if not is_instructor(user):
        return []
    cohorts = list(
        Cohort.objects.filter(course__instructors=user)
        .select_related("course")
        .annotate(trainees=Count("memberships"))
        .order_by("-course__year", "-created_at", "pk")[:TEACHING_SHOWN]
    )
    now = timezone.now()
    due = list(
        Assignment.objects.filter(
            cohort__in=cohorts, due_at__gt=now - OVERDUE_SHOWN, due_at__lt=now + DUE_SOON
        ).order_by("due_at", "pk")
    )
    members = Membership.objects.filter(cohort__in=cohorts).values_list("cohort_id", "user_id")
    done = progress(due, sorted({user for _cohort, user in members}))
    out = []
    for cohort in cohorts:
        theirs = [user for c, user in members if c == cohort.pk]
        listed = [
            (a, sum(done[(a.pk, user)].done for user in theirs), a.due_at <= now)
            for a in due
            if a.cohort_id == cohort.pk
        ]
        out.append(Teaching(cohort, cohort.trainees, listed))
    return out


@dataclass(frozen=True)
class ExamTaught:
    """An exam of a cohort an instructor teaches, around now: open, coming or just closed."""

    exam: Exam
    state: str  # "open", "coming" or "closed"
    submitted: int  # trainees who submitted an attempt
    trainees: int


def _exams_taught(user: User, now: datetime) -> list[ExamTaught]:
    """Open first (closing soonest), then coming (opening soonest), then the last closed."""
    if not is_instructor(user):
        return []
    submitted = Count(
        "attempts__user",
        filter=Q(attempts__finished_at__isnull=False, attempts__preview=False),
        distinct=True,
    )
    exams = list(
        Exam.objects.filter(
            cohort__course__instructors=user,
            opens_at__lt=now + DUE_SOON,
            closes_at__gt=now - EXAMS_CLOSED_SHOWN,
        )
        .select_related("cohort__course")
        .annotate(submitted=submitted, trainees=Count("cohort__memberships", distinct=True))
    )

    def taught(exam: Any) -> ExamTaught:
        state = "coming" if exam.opens_at > now else "open" if exam.closes_at > now else "closed"
        return ExamTaught(exam, state, exam.submitted, exam.trainees)

    def order(t: ExamTaught) -> tuple[int, float]:
        if t.state == "open":
            return 0, t.exam.closes_at.timestamp()  # closing soonest first
        if t.state == "coming":
            return 1, t.exam.opens_at.timestamp()  # opening soonest first
        return 2, -t.exam.closes_at.timestamp()  # the last closed first

    out = sorted((taught(e) for e in exams), key=order)
    return out[:EXAMS_SHOWN]


def _clinics(user: User) -> list[ClinicSession]:
    """An instructor's clinics not ended yet, newest first: the projector is one click away."""
    if not is_instructor(user):
        return []
    running = ClinicSession.objects.filter(instructor=user).exclude(phase=Phase.ENDED)
    return list(running[:CLINICS_SHOWN])


#: How many cohorts the home page lists for an instructor.
TEACHING_SHOWN = 6
#: How many exams, and how long after closing an exam stays there.
EXAMS_SHOWN = 6
EXAMS_CLOSED_SHOWN = timedelta(days=14)
#: How many clinics still to run or running.
CLINICS_SHOWN = 4
#: Assignments shown to their instructors from this long before they fall due.
DUE_SOON = timedelta(days=14)


@require_safe
def favicon(request: HttpRequest) -> HttpResponse:
    """/favicon.ico, which browsers and tools ask for on their own: the SVG icon in static."""
    # Looked up per request: with hashed names in production, the name follows the file.
    response = redirect(static("favicon.svg"))
    patch_cache_control(response, max_age=24 * 3600, public=True)
    return response


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


#: What each error page says: its heading and what happened, in the user's language.
class ErrorPage(StrEnum):
    """Which error page: each has its heading and its words in ERRORS."""

    BAD_REQUEST = "bad_request"
    FORBIDDEN = "forbidden"
    CSRF = "csrf"
    NOT_FOUND = "not_found"
    SERVER_ERROR = "server_error"
    DATABASE_DOWN = "database_down"
    DATABASE_DOWN_POST = "database_down_post"


ERRORS: dict[ErrorPage, tuple[Message, Message]] = {
    ErrorPage.BAD_REQUEST: (
        _("This request could not be understood"),
        _(
            "Something in the address or the form was not what this page expects. "
            "Nothing was recorded."
        ),
    ),
    ErrorPage.FORBIDDEN: (_("Not allowed"), _("You do not have access to this page.")),
    ErrorPage.CSRF: (
        _("The form has expired"),
        _(
            "This form was sent from a page that is too old, or your browser is blocking cookies "
            "for this site. Nothing was recorded. Go back, reload the page and send it again."
        ),
    ),
    ErrorPage.NOT_FOUND: (
        _("Page not found"),
        _("There is no page at this address. It may have moved, or the link may be mistyped."),
    ),
    ErrorPage.SERVER_ERROR: (
        _("Something went wrong"),
        _(
            "The server could not finish your request. If you were sending an answer or a form, "
            "check whether it was recorded before sending it again."
        ),
    ),
    ErrorPage.DATABASE_DOWN: (
        _("The site is not available right now"),
        _("The site cannot reach its database. Please try again in a few minutes."),
    ),
    ErrorPage.DATABASE_DOWN_POST: (
        _("Not recorded: the site is not available right now"),
        _(
            "The site cannot reach its database, so what you just sent (an answer or a form) "
            "was not recorded. Go back and send it again in a few minutes."
        ),
    ),
}


def _error(request: HttpRequest, which: ErrorPage, status: int) -> HttpResponse:
    title, message = ERRORS[which]
    # The 500 page must not touch the database: no user menu, no messages (they read the session).
    context = {"title": title, "message": message, "minimal": status >= 500}
    template = loader.get_template("error.html")
    return HttpResponse(template.render(context, request), status=status)


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """The translated 404 page; none for an address without its language that LocaleMiddleware
    sends on to the language's (a QR code's link, the home page's PIN box): the page would be
    rendered only to be thrown away, on each of a room's phones."""
    if _sent_on_with_language(request):
        return HttpResponse(status=404)
    return _error(request, ErrorPage.NOT_FOUND, 404)


def _sent_on_with_language(request: HttpRequest) -> bool:
    """Whether LocaleMiddleware will turn this 404 into a redirect (its own test, Django 6.1)."""
    if translation.get_language_from_path(request.path_info):
        return False
    urlconf = getattr(request, "urlconf", None)
    path = f"/{translation.get_language()}{request.path_info}"
    return bool(
        is_valid_path(path, urlconf)
        or (settings.APPEND_SLASH and not path.endswith("/") and is_valid_path(f"{path}/", urlconf))
    )


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """The translated 400 page."""
    return _error(request, ErrorPage.BAD_REQUEST, 400)


def forbidden(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """The translated 403 page."""
    return _error(request, ErrorPage.FORBIDDEN, 403)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A form sent without its security token (an old page, cookies off): say what to do."""
    return _error(request, ErrorPage.CSRF, 403)


def server_error(request: HttpRequest) -> HttpResponse:
    """The translated 500 page, or 503 when the database is out of reach; no database used.

    Django calls this inside its `except` for any uncaught exception, from a view or from a
    middleware (the session, the user), so one check here covers every page of every app.
    """
    if isinstance(sys.exc_info()[1], OperationalError | InterfaceError):
        down = ErrorPage.DATABASE_DOWN
        which = ErrorPage.DATABASE_DOWN_POST if request.method == "POST" else down
        response = _error(request, which, 503)
        response["Retry-After"] = "60"
        return response
    return _error(request, ErrorPage.SERVER_ERROR, 500)


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
        Profile.objects.update_or_create(user=request.user, defaults={"language": language})
    return response
