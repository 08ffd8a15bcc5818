"""The audience of an authored situation: the trainees of its course's cohorts, and the
course's instructors. Registered with scenarios.audience when the app starts."""

from django.db.models import Q, QuerySet

from polotrainer.authoring.models import Version


def authored_for(user_id: int | None) -> QuerySet[Version, int]:
    """The pks of the authored scenarios this person may meet."""
    if user_id is None:
        return Version.objects.none().values_list("scenario_id", flat=True)
    return Version.objects.filter(
        Q(situation__course__cohorts__memberships__user_id=user_id)
        | Q(situation__course__instructors__id=user_id)
    ).values_list("scenario_id", flat=True)
