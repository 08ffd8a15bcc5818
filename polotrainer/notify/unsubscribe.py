"""The signed token of a "stop this kind of mail" link: who and which kind, nothing to guess.

Signed with the site's SECRET_KEY (django.core.signing, its own salt) and never expiring: a
mail read a year later still stops what it names. A token changed in any character is refused.
"""

from django.contrib.auth.models import User
from django.core import signing

from polotrainer.notify.models import Kind, OptOut

SALT = "polotrainer.notify.unsubscribe"


def token(user: User, kind: str) -> str:
    return signing.dumps([user.pk, kind], salt=SALT, compress=False)


class BadToken(ValueError):
    """Not a token this site signed, or one naming no kind of mail."""


def read(text: str) -> tuple[int, str]:
    try:
        value = signing.loads(text[:300], salt=SALT)
    except signing.BadSignature:
        raise BadToken from None
    if (
        not isinstance(value, list)
        or len(value) != 2
        or type(value[0]) is not int
        or value[1] not in Kind.values
    ):
        raise BadToken
    return value[0], value[1]


def stop(user_id: int, kind: str) -> bool:
    """Stop the kind for the person; False when it was stopped already."""
    _row, created = OptOut.objects.get_or_create(user_id=user_id, kind=kind)
    return created
