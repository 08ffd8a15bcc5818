from django.urls import path

from polotrainer.courses import views
from polotrainer.courses.exams import views as exam_views

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

urlpatterns += [
    # Exams, the trainee's side.
    path("courses/exam/<id:exam_id>/", exam_views.exam, name="exam"),
    path("courses/exam/<id:exam_id>/start/", exam_views.exam_start, name="exam_start"),
    path("courses/exam/attempt/<id:attempt_id>/", exam_views.exam_attempt, name="exam_attempt"),
    path(
        "courses/exam/attempt/<id:attempt_id>/q/<id:position>/",
        exam_views.exam_save,
        name="exam_save",
    ),
    path(
        "courses/exam/attempt/<id:attempt_id>/submit/",
        exam_views.exam_submit,
        name="exam_submit",
    ),
    path(
        "courses/exam/attempt/<id:attempt_id>/result/",
        exam_views.exam_result,
        name="exam_result",
    ),
    # Exams, the instructor's side.
    path("courses/cohort/<id:cohort_id>/exams/new/", exam_views.exam_new, name="exam_new"),
    path("courses/exam/<id:exam_id>/edit/", exam_views.exam_edit, name="exam_edit"),
    path("courses/exam/<id:exam_id>/results/", exam_views.exam_results, name="exam_results"),
    path(
        "courses/exam/<id:exam_id>/accommodation/",
        exam_views.exam_accommodation,
        name="exam_accommodation",
    ),
    path("courses/exam/<id:exam_id>/preview/", exam_views.exam_preview, name="exam_preview"),
    path("courses/exam/<id:exam_id>/regrade/", exam_views.exam_regrade, name="exam_regrade"),
    path("courses/exam/<id:exam_id>/items/", exam_views.exam_items, name="exam_items"),
    path("courses/exam/<id:exam_id>/items.csv", exam_views.exam_items_csv, name="exam_items_csv"),
    path("courses/exam/<id:exam_id>/question/", exam_views.exam_question, name="exam_question"),
]
