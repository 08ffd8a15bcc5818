from django.urls import path

from polotrainer.offline import views

app_name = "offline"

urlpatterns = [
    path("offline/", views.page, name="page"),
    path("offline/pack/", views.pack, name="pack"),
    path("offline/sync/", views.sync_view, name="sync"),
    path("manifest.webmanifest", views.manifest, name="manifest"),
]
