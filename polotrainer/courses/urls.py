from django.urls import path

from polotrainer.courses import views

app_name = "courses"

urlpatterns = [
    # The trainee's side.
    path("courses/", views.mine, name="mine"),
    path("courses/join/", views.join, name="join"),
    path("courses/join/<str:code>/", views.join_code, name="join_code"),
    path("courses/cohort/<id:cohort_id>/me/", views.my_report, name="my_report"),
    path("courses/cohort/<id:cohort_id>/leave/", views.leave, name="leave"),
    path("courses/assignment/<id:assignment_id>/", views.assignment, name="assignment"),
    path(
        "courses/assignment/<id:assignment_id>/next/",
        views.assignment_next,
        name="assignment_next",
    ),
    # The instructor's side.
    path("courses/new/", views.course_new, name="course_new"),
    path("courses/<id:course_id>/", views.course, name="course"),
    path("courses/<id:course_id>/edit/", views.course_edit, name="course_edit"),
    path(
        "courses/<id:course_id>/instructors/",
        views.course_instructor_add,
        name="course_instructor_add",
    ),
    path(
        "courses/<id:course_id>/instructors/<id:user_id>/remove/",
        views.course_instructor_remove,
        name="course_instructor_remove",
    ),
    path("courses/<id:course_id>/cohorts/new/", views.cohort_new, name="cohort_new"),
    path("courses/cohort/<id:cohort_id>/", views.cohort, name="cohort"),
    path("courses/cohort/<id:cohort_id>/edit/", views.cohort_edit, name="cohort_edit"),
    path("courses/cohort/<id:cohort_id>/code/", views.cohort_code, name="cohort_code"),
    path(
        "courses/cohort/<id:cohort_id>/code/show/",
        views.cohort_code_show,
        name="cohort_code_show",
    ),
    path(
        "courses/cohort/<id:cohort_id>/gradebook/",
        views.cohort_gradebook,
        name="gradebook",
    ),
    path(
        "courses/cohort/<id:cohort_id>/gradebook.csv",
        views.cohort_gradebook_csv,
        name="gradebook_csv",
    ),
    path(
        "courses/cohort/<id:cohort_id>/assignments/new/",
        views.assignment_new,
        name="assignment_new",
    ),
    path(
        "courses/assignment/<id:assignment_id>/edit/",
        views.assignment_edit,
        name="assignment_edit",
    ),
    path(
        "courses/assignment/<id:assignment_id>/delete/",
        views.assignment_delete,
        name="assignment_delete",
    ),
    path(
        "courses/cohort/<id:cohort_id>/trainees/<id:user_id>/",
        views.trainee,
        name="trainee",
    ),
    path(
        "courses/cohort/<id:cohort_id>/trainees/<id:user_id>/remove/",
        views.trainee_remove,
        name="trainee_remove",
    ),
    path(
        "courses/cohort/<id:cohort_id>/trainees/<id:user_id>/observations/new/",
        views.observation_new,
        name="observation_new",
    ),
    path(
        "courses/observation/<id:observation_id>/edit/",
        views.observation_edit,
        name="observation_edit",
    ),
    path(
        "courses/observation/<id:observation_id>/delete/",
        views.observation_delete,
        name="observation_delete",
    ),
    # Staff.
    path("courses/staff/instructors/", views.instructors, name="instructors"),
    path(
        "courses/staff/instructors/<id:user_id>/revoke/",
        views.instructor_revoke,
        name="instructor_revoke",
    ),
]
