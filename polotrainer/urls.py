"""URLs: every page under a language prefix (/it/..., /en/...); health and i18n outside."""

from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.urls import URLPattern, URLResolver, include, path

from polotrainer import views
from polotrainer.offline import views as offline_views
from polotrainer.web import converters

converters.register()

# After the converters: the clinics' patterns use them.
from polotrainer.clinics import urls as clinic_urls  # noqa: E402

urlpatterns: list[URLPattern | URLResolver] = [
    path("healthz", views.healthz, name="healthz"),
    path("favicon.ico", views.favicon, name="favicon"),
    # At the root, so that the service worker's scope is the whole site.
    path("sw.js", offline_views.worker, name="service_worker"),
    path("i18n/setlang/", views.set_language, name="set_language"),
    # A room of phones: /play/ and the QR code's link, each phone in its own language.
    *clinic_urls.without_language,
]

urlpatterns += i18n_patterns(
    path("", views.home, name="home"),
    path("start/", views.start, name="start"),
    # First: a room of phones resolves its clinic's URLs without trying every other app's
    # patterns (Django lists each pattern tried, on every request). No other app has clinics/
    # or play/ paths.
    path("", include("polotrainer.clinics.urls")),
    path("", include("scenarios.urls")),
    path("", include("polotrainer.umpires.urls")),
    path("", include("polotrainer.practice.urls")),
    path("", include("polotrainer.offline.urls")),
    path("", include("polotrainer.courses.urls")),
    path("", include("polotrainer.certificates.urls")),
    path("", include("polotrainer.drills.urls")),
    path("", include("polotrainer.authoring.urls")),
    path("", include("polotrainer.notify.urls")),
    # Staff look-up (polotrainer/lookup): staff only, Django's admin in the page's language.
    path("staff/lookup/", admin.site.urls),
    prefix_default_language=True,
)

handler400 = "polotrainer.views.bad_request"
handler403 = "polotrainer.views.forbidden"
handler404 = "polotrainer.views.not_found"
handler500 = "polotrainer.views.server_error"
