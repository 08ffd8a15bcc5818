from django.urls import path

from polotrainer.authoring import views

app_name = "authoring"

urlpatterns = [
    path("courses/<id:course_id>/situations/", views.situations, name="situations"),
    path("courses/<id:course_id>/situations/new/", views.new, name="new"),
    path("situations/<id:situation_id>/", views.edit, name="edit"),
    path("situations/<id:situation_id>/preview/", views.preview, name="preview"),
    path("situations/<id:situation_id>/export/", views.export, name="export"),
    path("situations/", views.every, name="every"),
    path("situations/<id:situation_id>/promote/", views.promote, name="promote"),
    path("situations/<id:situation_id>/photo/<str:name>", views.photo, name="photo"),
]
