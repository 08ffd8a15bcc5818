"""Password guessing: django-axes' per-username-and-address limit, plus two slower ones.

1. Username and address (axes itself): AXES_FAILURE_LIMIT wrong passwords pause that pair for
   AXES_COOLOFF_MINUTES. Only the guesser's own address is paused.
2. Username, from everywhere else: LOGIN_USERNAME_LIMIT wrong passwords within a day stop the
   account's password being checked from addresses it has not logged in from in the last
   FAMILIAR_DAYS. An attacker with many addresses gets that many guesses a day; the umpire, at
   an address they have logged in from before, is not stopped by it.
3. One address, many usernames (password spraying): wrong passwords for LOGIN_SPRAY_LIMIT
   distinct usernames within an hour stop that address for usernames that have not logged in
   from it. A club's members who log in there as usual are not stopped.

Every password check goes through `authenticate` (also on the forms that ask for the password
again), so all of them count the same way. A completed password reset proves the mailbox and
forgives the account's failures.

None of the three applies to a browser where this username logged in before (its device
cookie, polotrainer.throttle.devices): that browser's own wrong passwords are limited instead,
so a guesser anywhere, at the same address included, cannot lock the person out of it.
"""

from datetime import timedelta
from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username, get_failure_limit
from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.conf import settings
from django.contrib.auth import authenticate
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from polotrainer.throttle import devices

FAMILIAR_DAYS = 90
USERNAME_WINDOW = timedelta(days=1)
SPRAY_WINDOW = timedelta(hours=1)

#: Why a client is paused, for the page that says so (request.guessing_pause).
ADDRESS, ACCOUNT, NETWORK = "address", "account", "network"


class GuessingHandler(AxesDatabaseHandler):  # type: ignore[misc]  # axes has no types
    """Axes' database handler with the per-username and per-address limits on top."""

    def is_locked(self, request: HttpRequest, credentials: dict[str, Any] | None = None) -> bool:
        username = get_client_username(request, credentials)
        if username and devices.trusted(request, username):
            return False
        if super().is_locked(request, credentials):
            request.guessing_pause = ADDRESS  # type: ignore[attr-defined]
            return True
        address = getattr(request, "axes_ip_address", None)
        pause = _slower_limits(username, address)
        if pause:
            request.guessing_pause = pause  # type: ignore[attr-defined]
        return bool(pause)

    def user_login_failed(
        self,
        sender: Any,
        credentials: dict[str, Any],
        request: HttpRequest | None = None,
        **kwargs: Any,
    ) -> None:
        """Record the failure as axes does (every limit sees it); a trusted browser's failure
        also counts against its own device cookie, and only that decides its pause."""
        super().user_login_failed(sender, credentials, request, **kwargs)
        if request is None:
            return
        username = get_client_username(request, credentials)
        if username and devices.count_failure(request, username):
            request.axes_locked_out = False  # type: ignore[attr-defined]


def _slower_limits(username: str | None, address: str | None) -> str:
    if not username or _familiar(username, address):
        return ""
    now = timezone.now()
    failures = AccessFailureLog.objects.all()
    recent = failures.filter(username=username, attempt_time__gte=now - USERNAME_WINDOW)
    if recent.count() >= settings.LOGIN_USERNAME_LIMIT:
        return ACCOUNT
    if address:
        spray = failures.filter(ip_address=address, attempt_time__gte=now - SPRAY_WINDOW)
        if spray.values("username").distinct().count() >= settings.LOGIN_SPRAY_LIMIT:
            return NETWORK
    return ""


def _familiar(username: str, address: str | None) -> bool:
    """Whether this username has logged in from this address lately."""
    if not address:
        return False
    since = timezone.now() - timedelta(days=FAMILIAR_DAYS)
    return bool(
        AccessLog.objects.filter(
            username=username, ip_address=address, attempt_time__gte=since
        ).exists()
    )


def password_matches(request: HttpRequest, user: Any, password: str) -> bool:
    """Check a logged-in user's password again, counted and paused like a log-in.

    When the client is paused, axes marks the request and its middleware answers with the
    lockout page instead of the form.
    """
    found = authenticate(request, username=user.get_username(), password=password)
    return found is not None and found.pk == user.pk


def forgive(username: str) -> None:
    """Forget an account's wrong passwords (after a reset that proved the mailbox)."""
    AccessAttempt.objects.filter(username=username).delete()
    AccessFailureLog.objects.filter(username=username).delete()


def lockout_response(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: dict[str, Any] | None = None,
) -> HttpResponse:
    """The page a paused client gets instead of the form (429), saying which pause and why."""
    pause = getattr(request, "guessing_pause", ADDRESS)
    context = {
        "pause": pause,
        "failure_limit": get_failure_limit(request, credentials),
        "cooloff_minutes": round(settings.AXES_COOLOFF_TIME * 60),
        # A reset forgives the account's failures: it ends the first two pauses, not the third.
        "offer_reset": settings.MAIL_ENABLED and pause != NETWORK,
    }
    return render(request, settings.AXES_LOCKOUT_TEMPLATE, context, status=429)
