"""Assignments: which scenarios they ask, when they are due, and each trainee's progress.

Progress counts a trainee's answers (one per question, as recorded by umpires.progress, in any
mode: they are ordinary answers) to the assignment's scenarios given after it was set and after
the trainee joined: answered, right, and answered before the due time. One SQL aggregate reads
it for every assignment and trainee of a cohort, however many answers there are.
"""

import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from enum import StrEnum
from zoneinfo import ZoneInfo

from django.contrib.auth.models import User
from django.db import connection, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from polotrainer.courses.models import (
    FAMILIES,
    Assignment,
    AssignmentScenario,
    Cohort,
    Course,
    Kind,
    Membership,
)
from polotrainer.umpires import decisions
from polotrainer.umpires.models import Attempt
from scenarios import drillable, scenes
from scenarios.models import Rule, Scenario, Section
from scenarios.scope import Scope, resolve, titles


class AssignmentCode(StrEnum):
    """Why an assignment was refused."""

    PAST_DUE = "past_due"
    NO_SCENARIOS = "no_scenarios"
    NO_DRILLS = "no_drills"  # a drill set whose scope has no situation a scene plays


class AssignmentError(Exception):
    """An assignment refused: `code` is no_scenarios, no_drills or past_due."""

    def __init__(self, code: AssignmentCode) -> None:
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
    kind: str = Kind.QUESTIONS,
    families: Sequence[str] = (),
    by: User | None = None,
) -> Assignment:
    """Set an assignment, all of it or nothing: refused with no scenarios or a past due date.

    A drill set (`kind` drills, `questions` its number of plays) is drawn from scene
    `families` (scope "families") or sections; refused when no situation of it is drillable."""
    course = cohort.course
    if due_on < today_in(course):
        raise AssignmentError(AssignmentCode.PAST_DUE)
    if kind == Kind.DRILLS:
        chosen = _drillable(scope, families, sections)
        if not chosen:
            raise AssignmentError(AssignmentCode.NO_DRILLS)
        named = drill_titles(scope, families, sections)
    else:
        chosen = resolve(scope, rule, sections, scenarios, audience=by.pk if by else None)
        if not chosen:
            raise AssignmentError(AssignmentCode.NO_SCENARIOS)
        named = titles(scope, rule, sections, len(chosen))
    with transaction.atomic():
        assignment = Assignment.objects.create(
            cohort=cohort,
            kind=kind,
            title_it=named["it"],
            title_en=named["en"],
            scope=scope,
            rule=rule if scope == Scope.RULE else None,
            families=sorted(families) if scope == FAMILIES else [],
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


def _drillable(scope: str, families: Sequence[str], sections: Sequence[Section]) -> list[int]:
    """The live bundled scenarios a scene family plays, of the chosen families or sections."""
    if scope == FAMILIES:
        wanted = set(families)
        live = Scenario.objects.live()
    elif scope == Scope.SECTIONS:
        wanted = {f.value for f in scenes.Family}
        live = Scenario.objects.live().filter(section__in=list(sections))
    else:
        return []
    found = drillable.by_family(live.select_related("section"))
    return sorted(s.pk for family, group in found.items() if family in wanted for s in group)


def drill_titles(
    scope: str, families: Sequence[str], sections: Sequence[Section]
) -> dict[str, str]:
    """A drill set's name in each language: its families, or its sections."""
    out = titles(Scope.SECTIONS, None, sections, 0) if scope == Scope.SECTIONS else {}
    for lang in ("it", "en"):
        with translation.override(lang):
            if scope == FAMILIES:
                named = ", ".join(
                    str(label) for f, label in drillable.FAMILY_LABELS.items() if f in families
                )
            else:
                named = out[lang]
            out[lang] = (_("Drill set: %(what)s") % {"what": named})[:200]
    return out


def change(assignment: Assignment, *, questions: int, due_on: date, note: str) -> None:
    """A new due date, number of questions or note; what it asks stays as it was set.

    The due time is computed in the course's time zone as read under the course's row lock,
    which a change of the zone holds while it moves the due times: never from a zone read
    before another instructor changed it."""
    with transaction.atomic():
        course = _locked(assignment.cohort.course)
        if due_on != assignment.due_on and due_on < today_in(course):
            raise AssignmentError(AssignmentCode.PAST_DUE)
        assignment.questions = questions
        assignment.due_on = due_on
        assignment.due_at = end_of(due_on, course)
        assignment.note = note
        assignment.save(update_fields=["questions", "due_on", "due_at", "note"])


def move_due_times(course: Course) -> None:
    """After the course's time zone changes: every due date ends at midnight in the new one
    (the due dates read under the course's row lock, so a due date changed meanwhile is read
    here or waits, then ends in the new zone)."""
    with transaction.atomic():
        locked = _locked(course)
        changed = []
        for assignment in Assignment.objects.filter(cohort__course=course).only("due_on", "due_at"):
            assignment.due_at = end_of(assignment.due_on, locked)
            changed.append(assignment)
        Assignment.objects.bulk_update(changed, ["due_at"])


def _locked(course: Course) -> Course:
    """The course's time zone, read under its row lock (FOR NO KEY UPDATE: rows that only refer
    to the course do not wait for it)."""
    return Course.objects.select_for_update(no_key=True).only("time_zone").get(pk=course.pk)


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
    drills = {a.pk: a for a in assignments if a.is_drill}
    for key, made in drill_calls(list(drills.values()), user_ids).items():
        a = drills[key[0]]
        out[key] = Progress(
            a.questions,
            answered=len(made),
            right=sum(c.right for c in made),
            on_time=sum(c.at < a.due_at for c in made),
            overdue=a.due_at <= now,
        )
    assignments = [a for a in assignments if not a.is_drill]
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


def drill_calls(
    assignments: Sequence[Assignment], user_ids: Sequence[int]
) -> dict[tuple[int, int], list[decisions.Call]]:
    """Each (drill set, member)'s calls: drill answers to its scenarios given after it was set
    and after the member joined, one call per play (umpires.decisions). Three queries, none
    without drill sets. A play answered after the set's day counts, as late."""
    drills = [a for a in assignments if a.is_drill]
    if not drills or not user_ids:
        return {}
    links: dict[int, set[int]] = {}
    for assignment_id, scenario_id in AssignmentScenario.objects.filter(
        assignment__in=drills
    ).values_list("assignment_id", "scenario_id"):
        links.setdefault(scenario_id, set()).add(assignment_id)
    joined = {
        (cohort_id, user_id): at
        for cohort_id, user_id, at in Membership.objects.filter(
            cohort_id__in={a.cohort_id for a in drills}, user_id__in=list(user_ids)
        ).values_list("cohort_id", "user_id", "joined_at")
    }
    since = min(a.created_at for a in drills)
    rows: dict[tuple[int, int], list[decisions.Row]] = {}
    for user_id, scenario_id, *row in decisions.drill_rows(
        user_id__in=list(user_ids), scenario_id__in=list(links), created_at__gte=since
    ).values_list(
        "user_id",
        "scenario_id",
        "scenario__section_id",
        "context_id",
        "correct",
        "decision_ms",
        "answer",
        "created_at",
    ):
        at = row[-1]
        for a in drills:
            start = joined.get((a.cohort_id, user_id))
            if start is None or a.pk not in links[scenario_id] or at < max(a.created_at, start):
                continue
            rows.setdefault((a.pk, user_id), []).append(tuple(row))
    return {key: decisions.calls(found) for key, found in rows.items()}


def next_scenario(assignment: Assignment, membership: Membership) -> Scenario | None:
    """A live scenario of the assignment to ask next: one not answered since it was set (and
    since the trainee joined) if any is left, else any of them; None when none is live."""
    # Only what this trainee may meet: a course's own situation, to its cohorts alone.
    live = dict(
        Scenario.objects.live_for(membership.user_id)
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
