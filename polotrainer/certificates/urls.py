from django.urls import path

from polotrainer.certificates import issuer_views, views

app_name = "certificates"

urlpatterns = [
    path("certificates/", views.mine, name="mine"),
    path("certificates/name/", views.name, name="name"),
    path("certificates/verify/", views.verify, name="verify"),
    path("certificates/staff/keys/", views.keys, name="keys"),
    path("certificates/staff/issuer/", issuer_views.issuer, name="issuer"),
    path("certificates/logo/<str:digest>.png", issuer_views.logo, name="logo"),
    path("certificates/staff/revocations.txt", views.revocation_list, name="revocation_list"),
    path("certificates/<id:certificate_id>/", views.certificate, name="certificate"),
    path("certificates/<id:certificate_id>/revoke/", views.revoke, name="revoke"),
    path("certificates/cohort/<id:cohort_id>/", views.cohort, name="cohort"),
    path(
        "certificates/cohort/<id:cohort_id>/certificates.csv", views.cohort_csv, name="cohort_csv"
    ),
    path("certificates/course/<id:course_id>/", views.course_setting, name="course_setting"),
]
