from django.urls import URLPattern, path

from polotrainer.clinics import stream, views

app_name = "clinics"

urlpatterns: list[URLPattern] = [
    # The instructor's side.
    path("clinics/", views.index, name="index"),
    path("clinics/new/", views.new, name="new"),
    path("clinics/import/", views.import_file, name="import"),
    path("clinics/<id:session_id>/", views.projector, name="projector"),
    path("clinics/<id:session_id>/state/", views.projector_state, name="projector_state"),
    path("clinics/<id:session_id>/events/", stream.projector_events, name="projector_events"),
    path("clinics/<id:session_id>/control/", views.act, name="control"),
    path("clinics/<id:session_id>/wifi/", views.wifi, name="wifi"),
    path("clinics/<id:session_id>/save-set/", views.save_set, name="save_set"),
    path("clinics/<id:session_id>/results.csv", views.results_csv, name="results_csv"),
    path("clinics/<id:session_id>/export.json", views.export, name="export"),
    # The phone's side: a short address to type, and the one in the QR code.
    path("play/", views.enter, name="enter"),
    path("play/<str:pin>/", views.play, name="play"),
    path("play/<str:pin>/state/", views.phone_state, name="phone_state"),
    path("play/<str:pin>/events/", stream.phone_events, name="phone_events"),
    path("play/<str:pin>/answer/", views.answer, name="answer"),
]

#: A phone's first address, whose path carries no language (polotrainer/urls.py serves these
#: outside the language prefixes): the address typed and the projector's QR code's link, served
#: at once in the phone's language, without LocaleMiddleware's redirect. Outside the app's
#: namespace: every address the site makes itself carries a language.
without_language: list[URLPattern] = [
    path("play/", views.enter, name="play_entry"),
    path("play/<str:pin>/", views.join_link, name="play_link"),
]
