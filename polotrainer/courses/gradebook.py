"""The gradebook of a cohort, and one trainee as the instructors see them.

Built on the aggregates kept as answers are recorded (umpires' ScenarioProgress and DayActivity,
the dashboard's own): mastery per section for the whole cohort in one query, assignment progress
in one aggregate, the last answer per trainee in one more. Each trainee is counted from the moment
they joined, never before: that is what they are told when joining.
"""

from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from statistics import median

from django.db.models import Max
from django.utils import timezone

from polotrainer.courses.assignments import Progress, drill_calls, progress
from polotrainer.courses.exams.models import Exam, ExamAttempt
from polotrainer.courses.models import (
    Assignment,
    AssignmentScenario,
    Cohort,
    Membership,
    Observation,
)
from polotrainer.umpires import activity
from polotrainer.umpires.decisions import Call
from polotrainer.umpires.mastery import (
    Mastery,
    Situation,
    catalogue,
    grouped,
    scores_by_user,
    summarise,
)
from polotrainer.umpires.models import Attempt, ScenarioProgress
from scenarios.localize import pick
from scenarios.models import citation, heading

DEFAULT_SORT = "weakest"


@dataclass(frozen=True)
class Column:
    """A rule or a section of the rulebook, in rulebook order."""

    key: str  # "r-37" or "s-37.6": the sort key
    ref: str
    title: str
    is_rule: bool

    @property
    def citation(self) -> str:
        """The section as the rulebook numbers it ("37.7" for 37.7.applying)."""
        return citation(self.ref)

    @property
    def heading(self) -> str:
        """A section's column heading: its number, and the title of a part the rulebook does
        not number on its own ("3 Summary" for 3.summary, whose number is the rule's)."""
        return heading(self.ref, self.title)


@dataclass(frozen=True)
class Cell:
    """A mastery figure as the table shows it: a percentage and its colour band."""

    percent: int

    @property
    def band(self) -> str:
        """low, mid, good or high: the table's colours (with the figure always written)."""
        if self.percent < 40:
            return "low"
        if self.percent < 70:
            return "mid"
        return "good" if self.percent < 90 else "high"


@dataclass(frozen=True)
class ExamCell:
    """A trainee in one exam: submitted attempts, the best score and whether any passed."""

    attempts: int = 0
    best: float | None = None
    passed: bool = False


@dataclass(frozen=True)
class DrillColumn:
    """One section of one drill set: the gradebook gives each trainee's calls in it."""

    assignment: Assignment
    section_id: int
    ref: str
    title: str

    @property
    def heading(self) -> str:
        return heading(self.ref, self.title)


@dataclass(frozen=True)
class DrillCell:
    """A trainee's calls in one section of a drill set: how many, how right, how fast."""

    calls: int = 0
    right: int = 0
    median_ms: int | None = None

    @property
    def accuracy(self) -> int | None:
        """Right calls in percent (None before any call)."""
        return round(100 * self.right / self.calls) if self.calls else None

    @property
    def median_seconds(self) -> float | None:
        return None if self.median_ms is None else self.median_ms / 1000


@dataclass
class Row:
    membership: Membership
    overall: float
    mastery: dict[str, Mastery]  # by column key
    cells: list[Cell]  # rules then sections, in rulebook order
    progress: list[Progress]  # one per assignment, in the gradebook's order
    last_active: datetime | None
    observations: list[Observation] = field(default_factory=list)
    exams: list[ExamCell] = field(default_factory=list)  # one per exam, in the book's order
    drills: list[DrillCell] = field(default_factory=list)  # one per drill column

    @property
    def user_id(self) -> int:
        return self.membership.user_id

    @property
    def name(self) -> str:
        return display_name(self.membership)

    @property
    def overall_cell(self) -> Cell:
        return Cell(round(self.overall * 100))


@dataclass
class Gradebook:
    cohort: Cohort
    rules: list[Column]
    sections: list[Column]
    assignments: list[Assignment]
    rows: list[Row]
    sort: str
    exams: list[Exam] = field(default_factory=list)
    drill_columns: list[DrillColumn] = field(default_factory=list)

    @property
    def columns(self) -> list[Column]:
        return self.rules + self.sections

    @property
    def assignment_columns(self) -> list[tuple[str, Assignment]]:
        return [(f"a-{a.pk}", a) for a in self.assignments]


def display_name(membership: Membership) -> str:
    user = membership.user
    profile = getattr(user, "profile", None)
    return (profile.display_name if profile else "") or user.get_username()


def columns(situations: Sequence[Situation]) -> tuple[list[Column], list[Column]]:
    """The rules and the sections that have live scenarios, in rulebook order."""
    rules: dict[int, Column] = {}
    sections: dict[str, tuple[int, int, Column]] = {}
    for s in situations:
        rules.setdefault(s.rule, Column(f"r-{s.rule}", str(s.rule), pick(s.rule_title), True))
        sections.setdefault(
            s.section,
            (
                s.rule,
                s.section_position,
                Column(f"s-{s.section}", s.section, pick(s.section_title), False),
            ),
        )
    return (
        [rules[n] for n in sorted(rules)],
        [c for _r, _p, c in sorted(sections.values(), key=lambda t: (t[0], t[1]))],
    )


def members(cohort: Cohort) -> list[Membership]:
    return list(
        Membership.objects.filter(cohort=cohort)
        .select_related("user__profile")
        .order_by("joined_at", "pk")
    )


def build(cohort: Cohort, sort: str = DEFAULT_SORT) -> Gradebook:
    """The whole gradebook in a fixed few queries, whatever the number of answers."""
    people = members(cohort)
    ids = [m.user_id for m in people]
    since = {m.user_id: m.joined_at for m in people}
    situations = catalogue()
    rules, sections = columns(situations)
    scores = scores_by_user(ids, since=since)
    assignments = list(cohort.assignments.order_by("due_at", "pk"))
    done = progress(assignments, ids)
    last = last_answers(ids)
    seen: dict[int, list[Observation]] = defaultdict(list)
    for o in Observation.objects.filter(cohort=cohort, trainee_id__in=ids):
        seen[o.trainee_id].append(o)
    tests = list(Exam.objects.filter(cohort=cohort).order_by("opens_at", "pk"))
    results = exam_results(tests, ids)
    drill_columns = drill_sections(assignments)
    drilled = drill_cells(assignments, drill_columns, ids)
    live = len(situations) or 1
    groups = grouped(situations)
    rows = []
    for m in people:
        mine = scores.get(m.user_id, {})
        by_section, by_rule = summarise(mine, groups)
        at = last.get(m.user_id)
        mastery = {f"s-{x.ref}": x for x in by_section} | {f"r-{x.ref}": x for x in by_rule}
        rows.append(
            Row(
                membership=m,
                overall=sum(mine.get(s.id, 0.0) for s in situations) / live,
                mastery=mastery,
                cells=[Cell(mastery[c.key].percent) for c in rules + sections],
                progress=[done[(a.pk, m.user_id)] for a in assignments],
                last_active=at if at is not None and at >= m.joined_at else None,
                observations=seen[m.user_id],
                exams=[results.get((e.pk, m.user_id), ExamCell()) for e in tests],
                drills=[
                    drilled.get((c.assignment.pk, c.section_id, m.user_id), DrillCell())
                    for c in drill_columns
                ],
            )
        )
    book = Gradebook(cohort, rules, sections, assignments, rows, DEFAULT_SORT, tests, drill_columns)
    return sorted_by(book, sort)


def drill_sections(assignments: Sequence[Assignment]) -> list[DrillColumn]:
    """The sections of each drill set's situations, in the book's order then rulebook order.
    One query (none without drill sets)."""
    drills = {a.pk: a for a in assignments if a.is_drill}
    if not drills:
        return []
    found = (
        AssignmentScenario.objects.filter(assignment_id__in=list(drills))
        .values_list(
            "assignment_id",
            "scenario__section_id",
            "scenario__section__ref",
            "scenario__section__title_it",
            "scenario__section__title_en",
            "scenario__section__rule_id",
            "scenario__section__position",
        )
        .distinct()
    )
    order = {pk: i for i, pk in enumerate(drills)}
    columns = sorted(set(found), key=lambda r: (order[r[0]], r[5], r[6]))
    return [
        DrillColumn(
            drills[a],
            section_id,
            ref,
            pick({"it": it, "en": en}),
        )
        for a, section_id, ref, it, en, _rule, _position in columns
    ]


def drill_cells(
    assignments: Sequence[Assignment], columns: Sequence[DrillColumn], user_ids: Sequence[int]
) -> dict[tuple[int, int, int], DrillCell]:
    """Per (drill set, section, trainee): calls, right calls and the median decision time."""
    if not columns:
        return {}
    by_cell: dict[tuple[int, int, int], list[Call]] = defaultdict(list)
    for (assignment_id, user_id), made in drill_calls(assignments, user_ids).items():
        for call in made:
            by_cell[(assignment_id, call.section_id, user_id)].append(call)
    return {
        key: DrillCell(
            calls=len(made),
            right=sum(c.right for c in made),
            median_ms=round(median(c.ms for c in made)),
        )
        for key, made in by_cell.items()
    }


def exam_results(tests: Sequence[Exam], user_ids: Sequence[int]) -> dict[tuple[int, int], ExamCell]:
    """Per (exam, trainee): submitted attempts, best score, passed; previews left out. One query
    (none without exams)."""
    if not tests:
        return {}
    found: dict[tuple[int, int], list[tuple[int, int, bool]]] = defaultdict(list)
    rows = ExamAttempt.objects.filter(
        exam__in=list(tests), user_id__in=list(user_ids), preview=False, finished_at__isnull=False
    ).values_list("exam_id", "user_id", "right", "total", "passed")
    for exam_id, user_id, right, total, passed in rows:
        found[(exam_id, user_id)].append((right or 0, total or 0, bool(passed)))
    return {
        key: ExamCell(
            attempts=len(marks),
            best=max((100 * r / t for r, t, _p in marks if t), default=None),
            passed=any(p for _r, _t, p in marks),
        )
        for key, marks in found.items()
    }


def last_answers(user_ids: Sequence[int]) -> dict[int, datetime]:
    """Each umpire's latest answer, from the progress rows (one per scenario answered)."""
    rows = (
        ScenarioProgress.objects.filter(user_id__in=list(user_ids))
        .values("user_id")
        .annotate(last=Max("last_answered_at"))
        .values_list("user_id", "last")
    )
    return {uid: last for uid, last in rows if last is not None}


def sort_keys(book: Gradebook) -> set[str]:
    return (
        {"weakest", "name", "last"}
        | {c.key for c in book.columns}
        | {f"a-{a.pk}" for a in book.assignments}
    )


def sorted_by(book: Gradebook, sort: str) -> Gradebook:
    """Rows ordered by the chosen column, weakest (or least recent) first; unknown: weakest."""
    if sort not in sort_keys(book):
        sort = DEFAULT_SORT
    epoch = datetime.min.replace(tzinfo=UTC)
    position = {f"a-{a.pk}": i for i, a in enumerate(book.assignments)}

    def key(row: Row) -> tuple[object, ...]:
        if sort == "name":
            return (row.name.casefold(),)
        if sort == "last":
            return (row.last_active or epoch, row.name.casefold())
        if sort in position:
            p = row.progress[position[sort]]
            return (p.percent, p.right, row.name.casefold())
        if sort != "weakest":
            m = row.mastery.get(sort)
            return (m.score if m else 0.0, row.overall, row.name.casefold())
        return (row.overall, row.name.casefold())

    book.rows.sort(key=key)
    book.sort = sort
    return book


# --- one trainee -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Report:
    """One trainee as the instructors see them: from joining on, nothing before."""

    membership: Membership
    sections: list[Mastery]
    rules: list[Mastery]
    chart: activity.Chart
    answers: int
    right: int
    active_days: int
    assignments: list[tuple[Assignment, Progress]]
    observations: list[Observation]


def report(membership: Membership) -> Report:
    user = membership.user
    joined = membership.joined_at
    situations = catalogue()
    scores = scores_by_user([user.pk], since={user.pk: joined}).get(user.pk, {})
    sections, rules = summarise(scores, situations)
    days = since_joining(membership)
    today = timezone.localdate()
    assignments = list(membership.cohort.assignments.order_by("due_at", "pk"))
    done = progress(assignments, [user.pk])
    return Report(
        membership=membership,
        sections=sections,
        rules=rules,
        chart=activity.chart(days, today, 30),
        answers=sum(d.answers for d in days.values()),
        right=sum(d.right for d in days.values()),
        active_days=len(days),
        assignments=[(a, done[(a.pk, user.pk)]) for a in assignments],
        observations=list(
            Observation.objects.filter(cohort=membership.cohort, trainee=user).select_related(
                "observer__profile"
            )
        ),
    )


def since_joining(membership: Membership) -> dict[date, activity.Day]:
    """Answers per local day since the trainee joined, to the minute.

    The per-day rows cover whole days; the joining day is counted from the answers themselves,
    so what was answered that morning, before joining, is not shown.
    """
    joined_day = timezone.localdate(membership.joined_at)
    days = activity.daily(membership.user, since=joined_day + timedelta(days=1))
    first = Attempt.objects.filter(
        user_id=membership.user_id, day=joined_day, created_at__gte=membership.joined_at
    ).values_list("correct", flat=True)
    answers = list(first)
    if answers:
        days[joined_day] = activity.Day(joined_day, len(answers), sum(answers))
    return days


# --- the CSV -----------------------------------------------------------------------------------


def csv_rows(book: Gradebook, words: dict[str, str]) -> Iterator[list[str]]:
    """The gradebook as rows of readable cells; `words` gives the header and status words in the
    instructor's language (the view translates them)."""
    header = [words["trainee"], words["username"], words["joined"], words["last"], words["overall"]]
    header += [f"{words['rule']} {c.ref}: {c.title} (%)" for c in book.rules]
    header += [f"{c.ref} {c.title} (%)" for c in book.sections]
    for a in book.assignments:
        label = words[f"assignment-{a.pk}"]
        header += [
            f"{label}: {words['answered']} ({a.questions})",
            f"{label}: {words['right']}",
            f"{label}: {words['status']}",
        ]
    for e in book.exams:
        header += [
            f"{words[f'exam-{e.pk}']}: {words['best']} (%)",
            f"{words[f'exam-{e.pk}']}: {words['passed']}",
        ]
    for c in book.drill_columns:
        label = f"{words[f'assignment-{c.assignment.pk}']}, {c.heading}"
        header += [
            f"{label}: {words['calls']}",
            f"{label}: {words['accuracy']} (%)",
            f"{label}: {words['median_time']} (s)",
        ]
    header += [words["observations"], words["latest_observation"]]
    yield header
    for row in book.rows:
        m = row.membership
        cells = [
            row.name,
            m.user.get_username(),
            timezone.localtime(m.joined_at).date().isoformat(),
            timezone.localtime(row.last_active).date().isoformat() if row.last_active else "",
            str(row.overall_cell.percent),
        ]
        cells += [str(c.percent) for c in row.cells]
        for p in row.progress:
            cells += [str(p.answered), str(p.right), words[p.status]]
        for x in row.exams:
            cells += [
                "" if x.best is None else f"{x.best:.0f}",
                (words["yes"] if x.passed else words["no"]) if x.attempts else "",
            ]
        for d in row.drills:
            cells += [
                str(d.calls),
                "" if d.accuracy is None else str(d.accuracy),
                "" if d.median_seconds is None else f"{d.median_seconds:.1f}",
            ]
        latest = row.observations[0] if row.observations else None
        cells += [
            str(len(row.observations)),
            f"{latest.observed_on.isoformat()} {latest.get_outcome_display()}" if latest else "",
        ]
        yield cells
