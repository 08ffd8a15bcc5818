"""Accounts, the dashboard, the history download and review sessions.

Every view here reads or writes only request.user's own rows: no URL carries another person's
id, so there is nothing of someone else's to ask for.
"""

import logging
import smtplib

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, update_session_auth_hash
from django.contrib.auth import login as auth_login
from django.contrib.auth import logout as auth_logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.mail import send_mail
from django.core.paginator import Page, Paginator
from django.http import HttpResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import redirect, render, resolve_url
from django.template.loader import render_to_string
from django.urls import reverse, reverse_lazy, translate_url
from django.utils import timezone, translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_protect
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from polotrainer.throttle import devices, rates
from polotrainer.throttle.addresses import client_ip
from polotrainer.umpires import activity, decisions, history, review
from polotrainer.umpires.forms import (
    DeleteAccountForm,
    ForgivingSetPasswordForm,
    LoginForm,
    ProfileForm,
    SignupForm,
    ThrottledPasswordChangeForm,
)
from polotrainer.umpires.mastery import LAST_N, mastery
from polotrainer.umpires.models import Attempt, Profile
from polotrainer.umpires.people import VISITOR_KEY
from polotrainer.umpires.progress import adopt_visitor_attempts
from polotrainer.web import language as language_choice
from polotrainer.web.downloads import csv_response
from polotrainer.web.htmx import render_fragment
from polotrainer.web.requests import Request, UserRequest
from scenarios.localize import current_language

HISTORY_PAGE = 25
MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"
SIGNUPS = "signup"
log = logging.getLogger(__name__)


def _profile(user: User) -> Profile:
    # Accounts made outside the sign-up form (createsuperuser) get their profile on first use,
    # in the language they are using.
    profile, _created = Profile.objects.get_or_create(
        user=user, defaults={"language": translation.get_language()[:2]}
    )
    return profile


def _enter(request: Request, user: User, response_to: str) -> HttpResponse:
    """Log the user in, carry the visitor's answers over, and go on in their language."""
    # login() rotates the session key: read the visitor id first.
    visitor = request.session.get(VISITOR_KEY)
    auth_login(request, user, backend=MODEL_BACKEND)
    moved = adopt_visitor_attempts(user.pk, visitor)
    request.session.pop(VISITOR_KEY, None)
    language = _profile(user).language
    target = response_to
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        target = resolve_url(settings.LOGIN_REDIRECT_URL)
    # Resolved in the page's language, reversed in the profile's.
    target = translate_url(target, language)
    translation.activate(language)
    if moved:
        messages.info(
            request,
            translation.ngettext(
                "Your %(count)d answer from before is now in your history.",
                "Your %(count)d answers from before are now in your history.",
                moved,
            )
            % {"count": moved},
        )
    response = language_choice.remember(redirect(target), language)
    # This browser is now one this person logged in from: others' guessing cannot lock them
    # out of it (polotrainer.throttle.devices).
    devices.remember(request, response, user.get_username())
    return response


@sensitive_post_parameters("password")
@csrf_protect
@never_cache
@require_http_methods(["GET", "POST"])
def login(request: Request) -> HttpResponse:
    """Log in; what was answered before logging in moves into the account."""
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    form = LoginForm(request, data=request.POST or None)
    if request.method == "POST" and form.is_valid():
        return _enter(request, form.get_user(), next_url)
    return render(request, "umpires/login.html", {"form": form, "next": next_url})


@sensitive_post_parameters("password1", "password2")
@csrf_protect
@never_cache
@require_http_methods(["GET", "POST"])
def signup(request: Request) -> HttpResponse:
    """Create an account; what was answered before moves into it. A `next` (a course's join
    link, say) is where the new umpire goes on to, as after logging in.

    Whether the email address is already registered is never shown: the account is created
    either way, and with mail configured the address gets a mail saying what happened.
    """
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    form = SignupForm(request.POST or None)
    if request.method == "POST":
        address = client_ip(request) or "unknown"
        if not rates.allowed(SIGNUPS, address, settings.SIGNUP_LIMIT, rates.HOUR):
            form.is_valid()
            form.add_error(
                None,
                _(
                    "Too many accounts were created from this network in the last hour. "
                    "Please try again later."
                ),
            )
            return render(
                request, "umpires/signup.html", {"form": form, "next": next_url}, status=429
            )
        if form.is_valid():
            user = form.save()
            rates.record(SIGNUPS, address, rates.HOUR)
            Profile.objects.create(
                user=user,
                display_name=form.cleaned_data["display_name"],
                language=translation.get_language()[:2],
            )
            _mail_new_account(request, user)
            messages.success(request, _("Welcome! Your account is ready."))
            return _enter(request, user, next_url or resolve_url(settings.LOGIN_REDIRECT_URL))
    return render(request, "umpires/signup.html", {"form": form, "next": next_url})


def _mail_new_account(request: Request, user: User) -> None:
    """Tell the address's owner about the new account, and about the ones it already had."""
    if not settings.MAIL_ENABLED:
        return
    others = list(
        get_user_model()
        .objects.filter(email__iexact=user.email)
        .exclude(pk=user.pk)
        .order_by("username")
        .values_list("username", flat=True)
    )
    context = {"username": user.get_username(), "others": others, "site": request.get_host()}
    subject = render_to_string("umpires/signup_subject.txt", context).strip()
    body = render_to_string("umpires/signup_email.txt", context)
    try:
        send_mail(subject, body, None, [user.email])
    except (OSError, smtplib.SMTPException):
        # The account exists either way; a mail server that is down must not lose it.
        log.exception("sign-up mail to the new account %s not sent", user.pk)


@require_POST
def logout(request: Request) -> HttpResponse:
    """Log out (POST only, so a link or an image cannot log anyone out)."""
    auth_logout(request)
    return redirect("home")


@login_required
@require_http_methods(["GET", "POST"])
def profile(request: UserRequest) -> HttpResponse:
    """Display name and preferred language, with the links to the rest of the account."""
    current = _profile(request.user)
    form = ProfileForm(request.POST or None, instance=current)
    if request.method == "POST" and form.is_valid():
        form.save()
        translation.activate(current.language)
        messages.success(request, _("Your profile is saved."))
        # The profile's language is the one to read the site in from now on: go there.
        target = translate_url(reverse("umpires:profile"), current.language)
        return language_choice.remember(redirect(target), current.language)
    return render(request, "umpires/profile.html", {"form": form, "profile": current})


@sensitive_post_parameters("old_password", "new_password1", "new_password2")
@login_required
@require_http_methods(["GET", "POST"])
def password_change(request: UserRequest) -> HttpResponse:
    """Change the password, staying logged in."""
    form = ThrottledPasswordChangeForm(request, request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        update_session_auth_hash(request, user)
        messages.success(request, _("Your password is changed."))
        return redirect("umpires:profile")
    return render(request, "umpires/password_change.html", {"form": form})


@sensitive_post_parameters("password")
@login_required
@require_http_methods(["GET", "POST"])
def delete_account(request: UserRequest) -> HttpResponse:
    """Delete the account and everything in it, once the password is confirmed."""
    form = DeleteAccountForm(request, request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = request.user
        auth_logout(request)
        user.delete()  # profile, attempts and review cards go with it (CASCADE)
        messages.success(request, _("Your account and all its data are deleted."))
        return redirect("home")
    return render(request, "umpires/delete_account.html", {"form": form})


@login_required
@require_safe
def dashboard(request: UserRequest) -> HttpResponse:
    """Mastery, activity, streak, due reviews and the history, each from a fixed few queries."""
    page = _history_page(request)
    rows = history.readable(page, current_language())
    if request.htmx and request.htmx.target == "history":
        # The fragment's view builds only what the fragment shows.
        return render_fragment(
            request,
            "umpires/dashboard.html",
            {"history": page, "rows": rows},
            fragments=("history",),
        )
    today = timezone.localdate()
    days = activity.daily(request.user)
    sections, rules = mastery(request.user)
    due = review.due_now(request.user)
    context = {
        "history": page,
        "rows": rows,
        "sections": sections,
        "rules": rules,
        "last_n": LAST_N,
        "charts": [activity.chart(days, today, 30), activity.chart(days, today, 90)],
        "streak": activity.streak(set(days), today),
        "total": sum(d.answers for d in days.values()),
        "total_right": sum(d.right for d in days.values()),
        "due_count": due.count,
        # With nothing due now, when the next review falls due (the same rule as the review page).
        "next_due": None if due.count else due.earliest,
        "decisions": decisions.per_section(request.user),
        "fast_seconds": decisions.FAST_MS // 1000,
    }
    return render_fragment(request, "umpires/dashboard.html", context, fragments=())


def _history_page(request: UserRequest) -> Page[Attempt]:
    attempts = (
        Attempt.objects.filter(user=request.user)
        .select_related("scenario")
        .only(
            "scenario__slug",
            "scenario__title_it",
            "scenario__title_en",
            "scenario__data",  # the words of the title and the question, in either language
            "scenario__kind",
            "scenario__version",
            *HISTORY_FIELDS,
        )
        .order_by("-created_at", "-pk")
    )
    return Paginator(attempts, HISTORY_PAGE).get_page(request.GET.get("page"))


HISTORY_FIELDS = (
    "seed",
    "question",
    "answer",
    "right_answer",
    "correct",
    "time_taken_ms",
    "mode",
    "context_label",
    "created_at",
    "result_hidden_until",
    "right_hidden_until",
)


@login_required
@require_safe
def history_csv(request: UserRequest) -> StreamingHttpResponse:
    """The umpire's own history as CSV in their language: words a person reads, then the codes
    (never anyone else's: there is no id to ask with). Streamed, oldest first."""
    lines = history.csv_lines(request.user.pk, current_language())
    return csv_response(lines, "polotrainer-history.csv")


# Password reset: Django's own views, for their token handling; one template for all steps.
RESET = "umpires/password_reset.html"


_password_reset = auth_views.PasswordResetView.as_view(
    template_name=RESET,
    email_template_name="umpires/password_reset_email.txt",
    subject_template_name="umpires/password_reset_subject.txt",
    success_url=reverse_lazy("umpires:password_reset_done"),
    extra_context={"step": "request"},
)


@require_http_methods(["GET", "HEAD", "POST"])
def password_reset(request: Request) -> HttpResponseBase:
    """Ask for a reset link, where the site sends mail; otherwise say whom to ask instead."""
    if not settings.MAIL_ENABLED:
        return render(request, RESET, {"step": "unavailable"})
    return _password_reset(request)


password_reset_confirm = auth_views.PasswordResetConfirmView.as_view(
    template_name=RESET,
    form_class=ForgivingSetPasswordForm,
    success_url=reverse_lazy("umpires:password_reset_complete"),
    extra_context={"step": "confirm"},
)
