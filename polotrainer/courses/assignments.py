"""Assignments: which scenarios they ask, when they are due, and each trainee's progress.

Progress counts a trainee's answers (one per question, as recorded by umpires.progress, in any
mode: they are ordinary answers) to the assignment's scenarios given after it was set and after
the trainee joined: answered, right, and answered before the due time. One SQL aggregate reads
it for every assignment and trainee of a cohort, however many answers there are.
"""

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.contrib.auth.models import User
from django.db import connection, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from polotrainer.courses.models import (
    Assignment,
    AssignmentScenario,
    Cohort,
    Course,
    Membership,
    Scope,
)
from polotrainer.umpires.models import Attempt
from scenarios.models import Rule, Scenario, Section


class AssignmentError(Exception):
    """An assignment refused: `code` is no_scenarios or past_due."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def zone(course: Course) -> ZoneInfo:
    return ZoneInfo(course.time_zone)


def today_in(course: Course) -> date:
    """Today's date where the course is."""
    return timezone.localtime(timezone=zone(course)).date()


def end_of(day: date, course: Course) -> datetime:
    """The instant a day ends in the course's time zone (midnight after it)."""
    return datetime.combine(day + timedelta(days=1), time.min, tzinfo=zone(course))


def resolve(
    scope: str,
    rule: Rule | None = None,
    sections: Iterable[Section] = (),
    scenarios: Iterable[Scenario] = (),
) -> list[int]:
    """The live scenarios an assignment of this scope asks, in rulebook order."""
    live = Scenario.objects.live()
    if scope == Scope.RULE:
        live = live.filter(rule=rule) if rule is not None else live.none()
    elif scope == Scope.SECTIONS:
        live = live.filter(section__in=list(sections))
    else:
        live = live.filter(pk__in=[s.pk for s in scenarios])
    return list(live.values_list("pk", flat=True))


def titles(
    scope: str, rule: Rule | None, sections: Sequence[Section], count: int
) -> dict[str, str]:
    """What the assignment asks, in each language: the rule, the sections or a count."""
    out = {}
    for lang in ("it", "en"):
        with translation.override(lang):
            if scope == Scope.RULE and rule is not None:
                text = _("Rule %(number)s: %(title)s") % {
                    "number": rule.number,
                    "title": getattr(rule, f"title_{lang}"),
                }
            elif scope == Scope.SECTIONS:
                refs = ", ".join(
                    s.ref for s in sorted(sections, key=lambda s: (s.rule_id, s.position))
                )
                text = ngettext("Section %(refs)s", "Sections %(refs)s", len(sections)) % {
                    "refs": refs
                }
            else:
                text = ngettext(
                    "%(count)d chosen situation", "%(count)d chosen situations", count
                ) % {"count": count}
        out[lang] = text[:200]
    return out


def create(
    cohort: Cohort,
    *,
    scope: str,
    questions: int,
    due_on: date,
    note: str = "",
    rule: Rule | None = None,
    sections: Sequence[Section] = (),
    scenarios: Sequence[Scenario] = (),
    by: User | None = None,
) -> Assignment:
    """Set an assignment, all of it or nothing: refused with no scenarios or a past due date."""
    course = cohort.course
    if due_on < today_in(course):
        raise AssignmentError("past_due")
    chosen = resolve(scope, rule, sections, scenarios)
    if not chosen:
        raise AssignmentError("no_scenarios")
    named = titles(scope, rule, sections, len(chosen))
    with transaction.atomic():
        assignment = Assignment.objects.create(
            cohort=cohort,
            title_it=named["it"],
            title_en=named["en"],
            scope=scope,
            rule=rule if scope == Scope.RULE else None,
            questions=questions,
            due_on=due_on,
            due_at=end_of(due_on, course),
            note=note,
            set_by=by,
        )
        if scope == Scope.SECTIONS:
            assignment.sections.set(sections)
        AssignmentScenario.objects.bulk_create(
            AssignmentScenario(assignment=assignment, scenario_id=pk) for pk in chosen
        )
    return assignment


def change(assignment: Assignment, *, questions: int, due_on: date, note: str) -> None:
    """A new due date, number of questions or note; what it asks stays as it was set."""
    course = assignment.cohort.course
    if due_on != assignment.due_on and due_on < today_in(course):
        raise AssignmentError("past_due")
    assignment.questions = questions
    assignment.due_on = due_on
    assignment.due_at = end_of(due_on, course)
    assignment.note = note
    assignment.save(update_fields=["questions", "due_on", "due_at", "note"])


def move_due_times(course: Course) -> None:
    """After the course's time zone changes: every due date ends at midnight in the new one."""
    changed = []
    for assignment in Assignment.objects.filter(cohort__course=course).only("due_on", "due_at"):
        assignment.due_at = end_of(assignment.due_on, course)
        changed.append(assignment)
    Assignment.objects.bulk_update(changed, ["due_at"])


@dataclass(frozen=True)
class Progress:
    """One trainee on one assignment."""

    target: int
    answered: int = 0
    right: int = 0
    on_time: int = 0
    overdue: bool = False

    @property
    def done(self) -> bool:
        return self.answered >= self.target

    @property
    def late(self) -> bool:
        """Done, but not all of it before the due time."""
        return self.done and self.on_time < self.target

    @property
    def missed(self) -> bool:
        """Past due and not done."""
        return self.overdue and not self.done

    @property
    def percent(self) -> int:
        return min(100, round(100 * self.answered / self.target)) if self.target else 0

    @property
    def status(self) -> str:
        """done, late, overdue or open: a machine word (templates and the CSV say it in words)."""
        if self.done:
            return "late" if self.late else "done"
        return "overdue" if self.overdue else "open"


_PROGRESS_SQL = """
SELECT s.assignment_id, t.user_id,
       COUNT(*),
       SUM(CASE WHEN t.correct AND (t.result_hidden_until IS NULL
                                     OR t.result_hidden_until <= %s) THEN 1 ELSE 0 END),
       SUM(CASE WHEN t.created_at < a.due_at THEN 1 ELSE 0 END)
FROM {assignment} a
JOIN {link} s ON s.assignment_id = a.id
JOIN {membership} m ON m.cohort_id = a.cohort_id
CROSS JOIN {attempt} t
WHERE a.id IN ({assignments}) AND m.user_id IN ({users})
  AND t.user_id = m.user_id AND t.scenario_id = s.scenario_id
  AND t.created_at >= CASE WHEN a.created_at > m.joined_at THEN a.created_at ELSE m.joined_at END
GROUP BY s.assignment_id, t.user_id
"""
# An exam's answer whose result is still hidden (its review policy) counts as answered, not as
# right. Plain SQL that both databases run well from the index on (user, scenario, created_at,
# correct, result_hidden_until), never touching the table: CROSS JOIN keeps the answers in
# SQLite's innermost loop, so each (assignment scenario, trainee) pair is one range of that
# index; PostgreSQL reads the trainees' entries of the index once and joins them to the
# pairs. The threshold is one expression (set, or joined if later) so neither picks the
# (user, created_at) index instead.


def progress(
    assignments: Sequence[Assignment], user_ids: Sequence[int]
) -> dict[tuple[int, int], Progress]:
    """Progress of each (assignment id, user id), members only, in one query.

    A user counts for an assignment only through a membership of its cohort, and only from
    when they joined: a removed trainee has no progress, and nothing before joining shows.
    """
    now = timezone.now()
    out = {
        (a.pk, uid): Progress(a.questions, overdue=a.due_at <= now)
        for a in assignments
        for uid in user_ids
    }
    if not assignments or not user_ids:
        return out
    q = connection.ops.quote_name
    sql = _PROGRESS_SQL.format(
        assignment=q(Assignment._meta.db_table),
        link=q(AssignmentScenario._meta.db_table),
        membership=q(Membership._meta.db_table),
        attempt=q(Attempt._meta.db_table),
        assignments=", ".join(["%s"] * len(assignments)),
        users=", ".join(["%s"] * len(user_ids)),
    )
    by_id = {a.pk: a for a in assignments}
    with connection.cursor() as cursor:
        cursor.execute(sql, [now, *(a.pk for a in assignments), *user_ids])
        for assignment_id, user_id, answered, right, on_time in cursor.fetchall():
            a = by_id[assignment_id]
            out[(assignment_id, user_id)] = Progress(
                a.questions, int(answered), int(right or 0), int(on_time or 0), a.due_at <= now
            )
    return out


def next_scenario(assignment: Assignment, membership: Membership) -> Scenario | None:
    """A live scenario of the assignment to ask next: one not answered since it was set (and
    since the trainee joined) if any is left, else any of them; None when none is live."""
    live = dict(
        Scenario.objects.live()
        .filter(assignment_links__assignment=assignment)
        .values_list("pk", "slug")
    )
    if not live:
        return None
    since = max(assignment.created_at, membership.joined_at)
    answered = set(
        Attempt.objects.filter(
            user_id=membership.user_id, scenario_id__in=list(live), created_at__gte=since
        ).values_list("scenario_id", flat=True)
    )
    fresh = [pk for pk in live if pk not in answered] or list(live)
    chosen = random.choice(fresh)
    return Scenario(pk=chosen, slug=live[chosen])


#: How long an unfinished assignment stays on the trainee's home page after its due time.
OVERDUE_SHOWN = timedelta(days=7)


def due_for(user: User) -> list[tuple[Assignment, Progress]]:
    """What is due for a trainee: unfinished assignments of their cohorts, soonest first,
    including those overdue by less than OVERDUE_SHOWN. Two queries."""
    if not user.is_authenticated:
        return []
    recent = timezone.now() - OVERDUE_SHOWN
    pending = list(
        Assignment.objects.filter(cohort__memberships__user=user, due_at__gt=recent)
        .select_related("cohort__course")
        .order_by("due_at", "pk")
    )
    done = progress(pending, [user.pk])
    return [(a, p) for a in pending if not (p := done[(a.pk, user.pk)]).done]
