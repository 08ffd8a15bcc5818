"""What the home page shows of the material: the rules, their situations, what is due."""

from django.db.models import Count, Q
from django.http import HttpRequest

from polotrainer.umpires.review import due_count
from scenarios.models import Rule


def practice_summary(request: HttpRequest) -> dict[str, object]:
    rules = Rule.objects.annotate(
        scenario_count=Count("scenarios", filter=Q(scenarios__retired=False))
    )
    return {"rules": list(rules), "due_count": due_count(request.user)}
