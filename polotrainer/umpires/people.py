"""Who is answering: the logged-in umpire, or a visitor known by a random id in the session."""

import secrets

from django.http import HttpRequest

from polotrainer.umpires.progress import Person

VISITOR_KEY = "visitor"


def visitor_id(request: HttpRequest) -> str:
    """The random id of this browser's visitor, created on first use and kept in the session."""
    visitor = request.session.get(VISITOR_KEY)
    if not visitor:
        visitor = secrets.token_hex(16)
        request.session[VISITOR_KEY] = visitor
    return str(visitor)


def person_of(request: HttpRequest) -> Person:
    """The person behind a request: the account when logged in, else the session's visitor."""
    if request.user.is_authenticated:
        return Person(user_id=request.user.pk)
    return Person(visitor=visitor_id(request))
