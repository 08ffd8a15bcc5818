"""Exams live in their own package (polotrainer/courses/exams/) and nothing outside it moved:
the same URLs under the same names (bookmarks, QR codes and printed certificates point at them),
the same tables in the same app (no migration)."""

import pytest
from django.apps import apps
from django.urls import resolve, reverse
from django.utils import translation

from polotrainer.courses.exams import views as exam_views
from polotrainer.courses.exams.models import Accommodation, Exam, ExamAttempt, ExamSlot

#: Every exam URL as it was before the move: name, arguments, path.
EXAM_URLS = [
    ("exam", {"exam_id": 7}, "/en/courses/exam/7/"),
    ("exam_start", {"exam_id": 7}, "/en/courses/exam/7/start/"),
    ("exam_attempt", {"attempt_id": 9}, "/en/courses/exam/attempt/9/"),
    ("exam_save", {"attempt_id": 9, "position": 2}, "/en/courses/exam/attempt/9/q/2/"),
    ("exam_submit", {"attempt_id": 9}, "/en/courses/exam/attempt/9/submit/"),
    ("exam_result", {"attempt_id": 9}, "/en/courses/exam/attempt/9/result/"),
    ("exam_new", {"cohort_id": 3}, "/en/courses/cohort/3/exams/new/"),
    ("exam_edit", {"exam_id": 7}, "/en/courses/exam/7/edit/"),
    ("exam_results", {"exam_id": 7}, "/en/courses/exam/7/results/"),
    ("exam_accommodation", {"exam_id": 7}, "/en/courses/exam/7/accommodation/"),
    ("exam_preview", {"exam_id": 7}, "/en/courses/exam/7/preview/"),
    ("exam_regrade", {"exam_id": 7}, "/en/courses/exam/7/regrade/"),
    ("exam_items", {"exam_id": 7}, "/en/courses/exam/7/items/"),
    ("exam_items_csv", {"exam_id": 7}, "/en/courses/exam/7/items.csv"),
    ("exam_question", {"exam_id": 7}, "/en/courses/exam/7/question/"),
]


@pytest.mark.parametrize(("name", "kwargs", "path"), EXAM_URLS, ids=[u[0] for u in EXAM_URLS])
def test_the_old_names_reverse_to_the_old_paths_and_reach_the_exam_views(name, kwargs, path):
    with translation.override("en"):
        assert reverse(f"courses:{name}", kwargs=kwargs) == path
        match = resolve(path)
    assert match.namespace == "courses" and match.url_name == name
    assert match.func.__module__ == exam_views.__name__


def test_every_exam_url_is_listed_above():
    from polotrainer.courses import urls

    exam_names = {p.name for p in urls.urlpatterns if p.callback.__module__ == exam_views.__name__}
    assert exam_names == {name for name, _kwargs, _path in EXAM_URLS}


@pytest.mark.parametrize(
    ("model", "table"),
    [
        (Exam, "courses_exam"),
        (Accommodation, "courses_accommodation"),
        (ExamAttempt, "courses_examattempt"),
        (ExamSlot, "courses_examslot"),
    ],
)
def test_the_exam_rows_keep_their_app_and_table(model, table):
    assert model._meta.app_label == "courses"
    assert model._meta.db_table == table
    assert apps.get_model("courses", model.__name__) is model
