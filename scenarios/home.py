"""What the home page shows of the material: the rules and how many situations each has."""

from django.db.models import Count, Q
from django.http import HttpRequest

from scenarios.models import Rule


def practice_summary(request: HttpRequest) -> dict[str, object]:
    rules = Rule.objects.annotate(
        scenario_count=Count("scenarios", filter=Q(scenarios__retired=False))
    )
    return {"rules": list(rules), "due_count": 0}
