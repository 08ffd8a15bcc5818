"""`Message`: the type of a lazily translated text (gettext_lazy), as the message tables hold it.

django-stubs names it `_StrPromise` (a str-like promise), which Django itself does not define;
at run time it is Django's Promise.
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from django.utils.functional import _StrPromise as Message
else:
    from django.utils.functional import Promise as Message

__all__ = ["Message"]
