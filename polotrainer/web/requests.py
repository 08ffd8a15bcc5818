"""Request types for views: what middleware adds, as the type checker should see it."""

from django.contrib.auth.models import User
from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class Request(HttpRequest):
    """Any request: django-htmx's middleware adds `htmx` (falsy when not an htmx request)."""

    htmx: HtmxDetails


class UserRequest(Request):
    """A request behind @login_required: `user` is an account."""

    user: User
