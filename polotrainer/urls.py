"""URLs: every page under a language prefix (/it/..., /en/...); health and i18n outside."""

from django.conf.urls.i18n import i18n_patterns
from django.urls import URLPattern, URLResolver, include, path

from polotrainer import views
from polotrainer.web import converters

converters.register()

urlpatterns: list[URLPattern | URLResolver] = [
    path("healthz", views.healthz, name="healthz"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("i18n/setlang/", views.set_language, name="set_language"),
]

urlpatterns += i18n_patterns(
    path("", views.home, name="home"),
    path("", include("scenarios.urls")),
    path("", include("polotrainer.umpires.urls")),
    path("", include("polotrainer.practice.urls")),
    path("", include("polotrainer.courses.urls")),
    path("", include("polotrainer.certificates.urls")),
    path("", include("polotrainer.clinics.urls")),
    prefix_default_language=True,
)

handler400 = "polotrainer.views.bad_request"
handler403 = "polotrainer.views.forbidden"
handler404 = "polotrainer.views.not_found"
handler500 = "polotrainer.views.server_error"
