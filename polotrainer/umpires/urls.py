from django.contrib.auth import views as auth_views
from django.urls import path

from polotrainer.umpires import views
from polotrainer.umpires.views import RESET

app_name = "umpires"

urlpatterns = [
    path("account/signup/", views.signup, name="signup"),
    path("account/login/", views.login, name="login"),
    path("account/logout/", views.logout, name="logout"),
    path("account/", views.profile, name="profile"),
    path("account/password/", views.password_change, name="password_change"),
    path("account/delete/", views.delete_account, name="delete_account"),
    path("account/password/reset/", views.password_reset, name="password_reset"),
    path(
        "account/password/reset/sent/",
        auth_views.PasswordResetDoneView.as_view(
            template_name=RESET, extra_context={"step": "sent"}
        ),
        name="password_reset_done",
    ),
    path(
        "account/password/reset/<uidb64>/<token>/",
        views.password_reset_confirm,
        name="password_reset_confirm",
    ),
    path(
        "account/password/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(
            template_name=RESET, extra_context={"step": "complete"}
        ),
        name="password_reset_complete",
    ),
    path("me/", views.dashboard, name="dashboard"),
    path("me/history.csv", views.history_csv, name="history_csv"),
]
