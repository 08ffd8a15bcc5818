from django.contrib.auth import views as auth_views
from django.urls import path, reverse_lazy

from polotrainer.umpires import views

app_name = "umpires"

# Password reset: Django's own views, for their token handling; one template for all steps.
RESET = "umpires/password_reset.html"

urlpatterns = [
    path("account/signup/", views.signup, name="signup"),
    path("account/login/", views.login, name="login"),
    path("account/logout/", views.logout, name="logout"),
    path("account/", views.profile, name="profile"),
    path("account/password/", views.password_change, name="password_change"),
    path("account/delete/", views.delete_account, name="delete_account"),
    path(
        "account/password/reset/",
        auth_views.PasswordResetView.as_view(
            template_name=RESET,
            email_template_name="umpires/password_reset_email.txt",
            subject_template_name="umpires/password_reset_subject.txt",
            success_url=reverse_lazy("umpires:password_reset_done"),
            extra_context={"step": "request"},
        ),
        name="password_reset",
    ),
    path(
        "account/password/reset/sent/",
        auth_views.PasswordResetDoneView.as_view(
            template_name=RESET, extra_context={"step": "sent"}
        ),
        name="password_reset_done",
    ),
    path(
        "account/password/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(
            template_name=RESET,
            success_url=reverse_lazy("umpires:password_reset_complete"),
            extra_context={"step": "confirm"},
        ),
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
