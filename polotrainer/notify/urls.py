from django.urls import path

from polotrainer.notify import invitation_views, views

app_name = "notify"

urlpatterns = [
    path(
        "courses/cohort/<id:cohort_id>/invitations/",
        invitation_views.cohort_invitations,
        name="cohort_invitations",
    ),
    path(
        "invitations/<id:invitation_id>/resend/",
        invitation_views.invitation_resend,
        name="invitation_resend",
    ),
    path(
        "invitations/<id:invitation_id>/withdraw/",
        invitation_views.invitation_withdraw,
        name="invitation_withdraw",
    ),
    path("invitations/<str:token>/", invitation_views.invitation, name="invitation"),
    path("mail/stop/<str:token>/", views.stop, name="stop"),
    path("calendar/", views.calendar_page, name="calendar"),
    path("calendar/new/", views.calendar_new, name="calendar_new"),
    path("calendar/stop/", views.calendar_stop, name="calendar_stop"),
    path("calendar/feed/<str:token>.ics", views.feed, name="feed"),
    path("calendar/exam/<id:exam_id>.ics", views.exam_ics, name="exam_ics"),
    path(
        "calendar/assignment/<id:assignment_id>.ics",
        views.assignment_ics,
        name="assignment_ics",
    ),
]
