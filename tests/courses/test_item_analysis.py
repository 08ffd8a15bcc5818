"""Item analysis against a hand-computed example (Moodle's formulas), and over a real exam."""

import pytest
from django.urls import reverse

from polotrainer.courses.exams import itemanalysis
from polotrainer.courses.exams.itemanalysis import Mark

# Four attempts at three questions (A, B, C) of scenario 1, marks as below; totals 3, 2, 1, 1.
#   A: x = 1 1 1 0, rest Y = 2 1 0 1 -> Cov 0: index 0, efficiency 0, facility 75%
#   B: x = 1 1 0 0, rest Y = 2 1 1 1 -> Cov 1/6, Var x 1/3, Var Y 1/4: index 100 * (1/6) /
#      sqrt(1/12) = 57.735; sorted pairs give Cov_max 1/6: efficiency 100; facility 50%
#   C: x = 1 0 0 1, rest Y = 2 2 1 0 -> Cov -1/6, Var Y 11/12: index 100 * (-1/6) /
#      sqrt(11/36) = -30.151; Cov_max 1/2: efficiency -33.333; facility 50%
MARKS = [(1, 1, 1), (1, 1, 0), (1, 0, 0), (0, 0, 1)]


def attempts():
    out = []
    for n, row in enumerate(MARKS):
        out.append(
            [
                Mark(
                    1,
                    q,
                    mark,
                    given=None if mark else {"wrong": q},
                    values={"side": "left" if n % 2 else "right"},
                    seed=100 + n,
                )
                for q, mark in zip("ABC", row, strict=True)
            ]
        )
    return out


def test_the_figures_match_the_hand_computed_example():
    analysis = itemanalysis.analyse(attempts())
    by_question = {i.question: i for i in analysis.items}
    a, b, c = by_question["A"], by_question["B"], by_question["C"]
    assert a.facility == pytest.approx(0.75)
    assert a.discrimination == pytest.approx(0.0, abs=1e-9)
    assert a.efficiency == pytest.approx(0.0, abs=1e-9)
    assert b.facility == pytest.approx(0.5)
    assert b.discrimination == pytest.approx(57.735, abs=1e-3)
    assert b.efficiency == pytest.approx(100.0)
    assert c.facility == pytest.approx(0.5)
    assert c.discrimination == pytest.approx(-30.151, abs=1e-3)
    assert c.efficiency == pytest.approx(-33.333, abs=1e-3)


def test_negative_discrimination_comes_first():
    analysis = itemanalysis.analyse(attempts())
    assert [i.question for i in analysis.items] == ["C", "A", "B"]
    assert analysis.items[0].negative and not analysis.items[1].negative


def test_it_names_the_common_wrong_answer_and_the_parameter_that_goes_with_wrong_answers():
    (scenario,) = itemanalysis.analyse(attempts()).scenarios
    assert scenario.answers == 12 and scenario.wrong == 5
    assert scenario.common_wrong_question in {"A", "B", "C"}
    # The seed of a variant it was given to: a spot reads on that variant's own field.
    wrong = [
        n for n, row in enumerate(MARKS) if not row["ABC".index(scenario.common_wrong_question)]
    ]
    assert scenario.common_wrong_seed in {100 + n for n in wrong}
    # The second and fourth attempts are "left": 1 + 2 wrong of their 6 questions.
    left = next(p for p in scenario.params if p.value == "left")
    assert (left.wrong, left.total) == (3, 6)


def test_one_attempt_gives_no_correlation():
    (item,) = itemanalysis.analyse([[Mark(1, "A", 1)]]).items
    assert item.facility == 1 and item.discrimination is None and item.efficiency is None


def test_the_page_and_csv_over_a_real_exam(world, as_user):
    from tests.content import exam_scenarios
    from tests.courses.test_exam_flow import right_form, save, slots, start
    from tests.people import make_exam

    exam = make_exam(world.cohort_a, exam_scenarios())
    client = as_user(world.trainee_a)
    attempt = start(client, exam)
    for slot in slots(attempt)[:2]:
        save(client, attempt, slot, right_form(slot))
    client.post(reverse("courses:exam_submit", args=[attempt.pk]))
    attempt.refresh_from_db()
    teacher = as_user(world.instructor_a)
    page = teacher.get(reverse("courses:exam_items", args=[exam.pk]))
    assert page.context["analysis"].attempts == 1
    response = teacher.get(reverse("courses:exam_items_csv", args=[exam.pk]))
    lines = b"".join(response.streaming_content).decode().splitlines()
    assert len(lines) == 1 + attempt.total


def test_the_page_names_situations_questions_and_answers_in_the_readers_words(world, as_user):
    """No slug, question id or stored answer value on the page: the CSV keeps those for tools."""
    from django.utils import translation

    from polotrainer.courses.exams import attempts
    from scenarios import quiz
    from tests.content import exam_scenarios
    from tests.courses.test_exam_flow import right_form, save, slots, start
    from tests.people import make_exam

    exam = make_exam(world.cohort_a, exam_scenarios())
    client = as_user(world.trainee_a)
    attempt = start(client, exam)
    wrong = None
    for slot in slots(attempt):
        form = right_form(slot)
        posed = attempts.posed(slot, "it")
        choice = next((q for q in posed.questions if q.type == quiz.QuestionType.CHOICE), None)
        if choice is not None and wrong is None:
            given = next(o for o in choice.options if [o.value] != form[choice.name])
            form[choice.name] = [given.value]
            wrong = (slot.scenario, posed.title, choice, given)
        save(client, attempt, slot, form)
    client.post(reverse("courses:exam_submit", args=[attempt.pk]))
    assert wrong is not None
    scenario, title, question, given = wrong
    with translation.override("it"):
        url = reverse("courses:exam_items", args=[exam.pk])
    text = as_user(world.instructor_a).get(url).content.decode()
    assert title in text and question.prompt in text
    assert f"«{question.prompt}»: {given.label} (1\u00d7)" in text
    assert "1 sbagliata su 1" in text
    assert scenario.slug not in text and f">{question.id}<" not in text
    assert given.value not in text
