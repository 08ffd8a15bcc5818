from django.urls import path

from polotrainer.umpires import views

app_name = "umpires"

urlpatterns = [
    path("account/login/", views.login, name="login"),
    path("me/", views.dashboard, name="dashboard"),
    path("review/", views.review, name="review"),
]
