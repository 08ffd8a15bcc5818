"""A logged-in umpire reads every page in the language of their profile."""

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import translate_url
from django.utils import translation

from polotrainer.umpires.models import Profile


class PreferredLanguageMiddleware:
    """Send a logged-in umpire's GET of a page in the other language to the same page in theirs.

    The switcher (polotrainer.views.set_language) writes the profile first, so switching still
    works; a link shared in the other language opens in the reader's own. Runs after
    AuthenticationMiddleware; POSTs are never redirected, so no answer is lost.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method in ("GET", "HEAD") and request.user.is_authenticated:
            in_path = translation.get_language_from_path(request.path_info)
            if in_path:
                profile = Profile.objects.filter(user=request.user).first()
                if profile is not None:
                    # Cached on the user: templates reading user.profile cost no query.
                    request.user.profile = profile
                if profile is not None and profile.language != in_path:
                    target = translate_url(request.get_full_path(), profile.language)
                    if target != request.get_full_path():
                        return HttpResponseRedirect(target)
        return self.get_response(request)
