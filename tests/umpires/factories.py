"""Build a small rulebook and record answers directly, for umpires' unit and browser tests."""

import itertools
from datetime import timedelta

from django.utils import timezone

from polotrainer.umpires.models import Mode
from polotrainer.umpires.progress import Answer, Answers, Context, Person, record_answers
from scenarios.models import Rule, Scenario, Section

_nonces = itertools.count(1)


def make_rule(number: int) -> Rule:
    return Rule.objects.create(
        number=number,
        slug=f"rule-{number}",
        title_it=f"Regola {number}",
        title_en=f"Rule title {number}",
        summary_it="",
        summary_en="",
        notice_it="",
        notice_en="",
    )


def make_section(rule: Rule, ref: str, position: int) -> Section:
    return Section.objects.create(
        ref=ref, rule=rule, position=position, title_it=f"Sezione {ref}", title_en=f"Section {ref}"
    )


def make_scenario(section: Section, slug: str) -> Scenario:
    return Scenario.objects.create(
        slug=slug,
        rule=section.rule,
        section=section,
        kind="test",
        title_it=f"Situazione {slug}",
        title_en=f"Situation {slug}",
        data={},
        source_file="tests",
    )


def answer(
    user,
    scenario,
    *,
    correct=True,
    seed=7,
    when=None,
    mode=Mode.PRACTICE,
    visitor="",
    question="ruling",
):
    """Record one answer through record_answers, at a chosen time."""
    person = Person(visitor=visitor) if user is None else Person(user_id=user.pk)
    (attempt,) = record_answers(
        person,
        Context(Mode(mode)),
        Answers(
            scenario_id=scenario.pk,
            seed=seed,
            content_version="test",
            items=[
                Answer(
                    question,
                    {"choice": "penalty-2"},
                    {"choice": "penalty-2" if correct else "penalty-3"},
                    correct,
                    f"n{next(_nonces)}",
                )
            ],
            time_taken_ms=4200,
            at=when,
        ),
    ).attempts
    return attempt


def days_ago(n: int, hour: int = 12):
    now = timezone.localtime()
    return (now - timedelta(days=n)).replace(hour=hour, minute=0, second=0, microsecond=0)


def small_rulebook() -> dict[str, Scenario]:
    """Rule 3 with sections 3.a (two situations) and 3.b (one); Rule 21 with 21.a (one)."""
    r3, r21 = make_rule(3), make_rule(21)
    s3a, s3b = make_section(r3, "3.a", 1), make_section(r3, "3.b", 2)
    s21a = make_section(r21, "21.a", 1)
    return {
        "3a-one": make_scenario(s3a, "sub-one"),
        "3a-two": make_scenario(s3a, "sub-two"),
        "3b": make_scenario(s3b, "sub-three"),
        "21a": make_scenario(s21a, "stop-one"),
    }
