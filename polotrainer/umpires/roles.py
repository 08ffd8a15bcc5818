"""Who may teach: the instructor role, and the view decorators that ask for it (or for staff).

Site-wide, beside the people it is about: courses, exams, certificates, clinics and the home
page import it from here. The role is a row granted by staff (`umpires.models.InstructorRole`;
courses 0004 and umpires 0008 moved its table here with its rows); `is_instructor` reads it once
per request and keeps the answer on the user object.
"""

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar, cast

from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.http.response import HttpResponseBase

from polotrainer.umpires.models import InstructorRole

View = TypeVar("View", bound=Callable[..., HttpResponseBase])
_CACHE = "_polotrainer_is_instructor"


def is_instructor(user: User | AnonymousUser) -> bool:
    """True when the user holds the instructor role (staff do not, unless granted it)."""
    if not user.is_authenticated or not user.is_active:
        return False
    cached = getattr(user, _CACHE, None)
    if cached is None:
        cached = InstructorRole.objects.filter(user_id=user.pk).exists()
        setattr(user, _CACHE, cached)
    return bool(cached)


def grant(user: User, by: User | None = None) -> bool:
    """Give the role; False when the user already had it."""
    try:
        with transaction.atomic():
            InstructorRole.objects.create(user=user, granted_by=by)
    except IntegrityError:
        return False
    setattr(user, _CACHE, True)
    return True


def revoke(user: User) -> bool:
    """Take the role away (their courses stay, unreachable until it is granted again)."""
    deleted, _rows = InstructorRole.objects.filter(user_id=user.pk).delete()
    setattr(user, _CACHE, False)
    return bool(deleted)


def _requiring(check: Callable[[Any], bool]) -> Callable[[View], View]:
    def decorator(view: View) -> View:
        @wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            if not check(request.user):
                raise PermissionDenied
            return view(request, *args, **kwargs)

        return cast(View, login_required(wrapped))

    return decorator


#: Logged in (else the login page, coming back after) and an instructor (else 403).
instructor_required = _requiring(is_instructor)
#: Logged in and staff (else 403): the page that grants the instructor role.
staff_required = _requiring(lambda user: user.is_active and user.is_staff)
