"""Accounts, the dashboard, the history download and review sessions.

Every view here reads or writes only request.user's own rows: no URL carries another person's
id, so there is nothing of someone else's to ask for.
"""

import csv
import json
from collections.abc import Iterator

from django.contrib import messages
from django.contrib.auth import login as auth_login
from django.contrib.auth import logout as auth_logout
from django.contrib.auth import update_session_auth_hash
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm, PasswordChangeForm
from django.contrib.auth.models import User
from django.core.paginator import Page, Paginator
from django.http import HttpResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse, translate_url
from django.utils import timezone, translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_protect
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from polotrainer.umpires import activity, review
from polotrainer.umpires.forms import DeleteAccountForm, ProfileForm, SignupForm
from polotrainer.umpires.mastery import LAST_N, mastery
from polotrainer.umpires.models import Attempt, Profile
from polotrainer.umpires.people import VISITOR_KEY
from polotrainer.umpires.progress import adopt_visitor_attempts
from polotrainer.web import language as language_choice
from polotrainer.web.htmx import render_fragment
from polotrainer.web.requests import Request, UserRequest

HISTORY_PAGE = 25
MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


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
        target = reverse("umpires:dashboard")
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
    return language_choice.remember(redirect(target), language)


@sensitive_post_parameters("password")
@csrf_protect
@never_cache
@require_http_methods(["GET", "POST"])
def login(request: Request) -> HttpResponse:
    """Log in; what was answered before logging in moves into the account."""
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    form = AuthenticationForm(request, data=request.POST or None)
    if request.method == "POST" and form.is_valid():
        return _enter(request, form.get_user(), next_url)
    return render(request, "umpires/login.html", {"form": form, "next": next_url})


@sensitive_post_parameters("password1", "password2")
@csrf_protect
@never_cache
@require_http_methods(["GET", "POST"])
def signup(request: Request) -> HttpResponse:
    """Create an account; what was answered before moves into it. A `next` (a course's join
    link, say) is where the new umpire goes on to, as after logging in."""
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        Profile.objects.create(
            user=user,
            display_name=form.cleaned_data["display_name"],
            language=translation.get_language()[:2],
        )
        messages.success(request, _("Welcome! Your account is ready."))
        return _enter(request, user, next_url or reverse("umpires:dashboard"))
    return render(request, "umpires/signup.html", {"form": form, "next": next_url})


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
    form = PasswordChangeForm(request.user, request.POST or None)
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
    form = DeleteAccountForm(request.user, request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = request.user
        auth_logout(request)
        user.delete()  # profile, attempts and review cards go with it (CASCADE)
        messages.success(request, _("Your account and all its data are deleted."))
        return redirect("home")
    return render(request, "umpires/delete_account.html", {"form": form})


@login_required
@require_GET
def dashboard(request: UserRequest) -> HttpResponse:
    """Mastery, activity, streak, due reviews and the history, each from a fixed few queries."""
    history = _history_page(request)
    if request.htmx and request.htmx.target == "history":
        # The fragment's view builds only what the fragment shows.
        return render_fragment(
            request, "umpires/dashboard.html", {"history": history}, fragments=("history",)
        )
    today = timezone.localdate()
    days = activity.daily(request.user)
    sections, rules = mastery(request.user)
    context = {
        "history": history,
        "sections": sections,
        "rules": rules,
        "last_n": LAST_N,
        "charts": [activity.chart(days, today, 30), activity.chart(days, today, 90)],
        "streak": activity.streak(set(days), today),
        "total": sum(d.answers for d in days.values()),
        "total_right": sum(d.right for d in days.values()),
        "due_count": review.due_count(request.user),
    }
    return render_fragment(request, "umpires/dashboard.html", context, fragments=())


def _history_page(request: UserRequest) -> Page[Attempt]:
    attempts = (
        Attempt.objects.filter(user=request.user)
        .select_related("scenario")
        .only("scenario__slug", "scenario__title_it", "scenario__title_en", *HISTORY_FIELDS)
        .order_by("-created_at", "-pk")
    )
    return Paginator(attempts, HISTORY_PAGE).get_page(request.GET.get("page"))


HISTORY_FIELDS = ("seed", "question", "answer", "correct", "time_taken_ms", "mode", "created_at")


@login_required
@require_GET
def history_csv(request: UserRequest) -> StreamingHttpResponse:
    """The umpire's own history as CSV (never anyone else's: there is no id to ask with)."""
    rows = (
        Attempt.objects.filter(user=request.user)
        .order_by("created_at", "pk")
        .values_list("scenario__slug", *HISTORY_FIELDS)
    )

    class Echo:
        def write(self, value: str) -> str:
            return value

    writer = csv.writer(Echo())

    def lines() -> Iterator[str]:
        yield writer.writerow(["slug", *HISTORY_FIELDS])
        for slug, seed, question, answer, correct, ms, mode, created in rows.iterator(2000):
            yield writer.writerow(
                [
                    slug,
                    seed,
                    question,
                    json.dumps(answer, ensure_ascii=False),
                    "true" if correct else "false",
                    "" if ms is None else ms,
                    mode,
                    created.isoformat(),
                ]
            )

    response = StreamingHttpResponse(lines(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="polotrainer-history.csv"'
    return response
