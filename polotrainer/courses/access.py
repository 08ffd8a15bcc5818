"""Who may reach a course's rows: each helper returns the row, or 404 for anybody else's.

One home for the queries every app's views ask (courses, exams, certificates, invitations):
a row of a course I teach, a row of a cohort I am in. Someone else's row is a 404, never a 403,
so an id says nothing of what exists (as healthchecks' `_get_check_for_user`).
"""

from django.contrib.auth.models import User
from django.db.models import Model, QuerySet
from django.shortcuts import get_object_or_404

from polotrainer.courses.models import Cohort, Course


def taught[M: Model](
    user: User, rows: QuerySet[M], pk: int, *, course: str = "cohort__course"
) -> M:
    """Row `pk` of `rows` if `user` teaches its course (`course`: the path from a row to it)."""
    found = rows.select_related(course).filter(**{f"{course}__instructors": user})
    return get_object_or_404(found, pk=pk)


def joined[M: Model](user: User, rows: QuerySet[M], pk: int) -> M:
    """Row `pk` of `rows` (an exam, an assignment: something set for a cohort) if `user` is in
    its cohort."""
    found = rows.select_related("cohort__course").filter(cohort__memberships__user=user)
    return get_object_or_404(found, pk=pk)


def taught_course(user: User, course_id: int) -> Course:
    """A course I teach."""
    return get_object_or_404(Course.objects.filter(instructors=user), pk=course_id)


def taught_cohort(user: User, cohort_id: int) -> Cohort:
    """A cohort of a course I teach."""
    return taught(user, Cohort.objects.all(), cohort_id, course="course")
