from django.urls import path

from polotrainer.practice import views

app_name = "practice"

urlpatterns = [
    path("practice/", views.start, name="start"),
    path("practice/next/", views.next_question, name="next"),
    path("practice/set/<str:token>/", views.practice_set, name="set"),
    path("practice/set/<str:token>/<int:position>/", views.practice_set, name="set_at"),
    path("practice/<slug:slug>/<int:seed>/", views.question, name="question"),
    path("practice/<slug:slug>/<int:seed>/answer/", views.answer, name="answer"),
    path("practice/<slug:slug>/<int:seed>/what-if/", views.whatif, name="whatif"),
    path("review/", views.review_next, name="review"),
]
