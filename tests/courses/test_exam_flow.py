"""Taking an exam end to end: start, save, resume, submit, the result as the policy allows."""


import pytest
from django.urls import reverse

from polotrainer.courses import exams
from polotrainer.courses.models import ExamAttempt, ExamSlot
from tests.courses.conftest import exam_scenarios, make_exam


@pytest.fixture
def exam_setup(world):
    scenarios = exam_scenarios()
    return make_exam(world.cohort_a, scenarios)


def right_form(slot: ExamSlot) -> dict[str, list[str]]:
    """The form values that answer every question of the slot rightly (from the frozen ruling)."""
    from scenarios import quiz

    posed = exams.posed(slot, "en")
    out = {}
    for q in posed.questions:
        right = q.source.right_answer(posed.variant.ruling)
        for name, value in zip(q.fields, quiz.form_values(posed, q, right), strict=False):
            out.setdefault(name, []).append(value)
        if q.type in (quiz.QuestionType.MULTI, quiz.QuestionType.PLAYERS):
            out[q.name] = list(quiz.form_values(posed, q, right))
    return out


def test_a_trainee_takes_the_exam(world, exam_setup, as_user):
    client = as_user(world.trainee_a)
    exam = exam_setup
    response = client.get(reverse("courses:exam", args=[exam.pk]))
    assert response.status_code == 200
    response = client.post(reverse("courses:exam_start", args=[exam.pk]))
    assert response.status_code == 302
    attempt = ExamAttempt.objects.get(exam=exam, user=world.trainee_a)
    page = client.get(reverse("courses:exam_attempt", args=[attempt.pk]))
    assert page.status_code == 200
    for slot in attempt.slots.select_related("scenario"):
        r = client.post(
            reverse("courses:exam_save", args=[attempt.pk, slot.position]),
            right_form(slot),
            headers={"HX-Request": "true"},
        )
        assert r.status_code == 200, r.content.decode()
    r = client.post(reverse("courses:exam_submit", args=[attempt.pk]))
    assert r.status_code == 302
    attempt.refresh_from_db()
    assert attempt.right == attempt.total
    assert attempt.passed
    r = client.get(reverse("courses:exam_result", args=[attempt.pk]))
    assert r.status_code == 200
