"""The demo: an instructor, a few trainees with weeks of history, a course they share.

`manage.py demo` (development only) fills a database so that a first look at the site shows
every user's journey: the trainees' dashboards and due reviews, the instructor's gradebook with
assignments and observations. Nothing is typed by hand: every answer is a real variant posed by
the quiz core (scenarios.quiz) from the bundled content, answered right or wrong by a seeded
random draw from the trainee's skill, checked by the engine and recorded by
`umpires.progress.record_answers` at a moment in the past weeks, oldest first, so the aggregates
and the review schedule are exactly what the trainee would have if they had clicked it all.

The demo's accounts open with a published password (`PASSWORD`, in the README and the
command's output), so a database holding them must never be served to a room: `holds_demo()`
is what the entry points ask (the `demo.E001` system check, gunicorn.conf.py's `on_starting`,
wsgi.py and asgi.py), and they refuse to start with DEBUG off.

The demo is made in parts (`PARTS`), each a function of the `Demo` being built that does its
own share once (a second run finds it done and adds nothing):

    people   the instructor (role granted) and the trainees, with profiles
    course   a course, its cohort, the trainees enrolled weeks ago, two assignments (one past,
             one due in a few days), observations
    history  each trainee's answers over the past weeks, assignments included
    certificates  the trainees' full names, and Anna's course completion issued by hand
    exams    an exam that has closed, sat by the four trainees through the exams app (Anna
             passes: the exam_passed signal brings her certificate, signed since her name is
             known; the others fail), and an exam open now
    clinics  a clinic for the instructor in the lobby, its PIN printed

Each part may `demo.say(...)` a line for the command's output. Deleting the demo's accounts and
their courses (`remove()`) takes their rows with them by cascade (exams with the course, clinics
with the instructor); certificates, which outlive an account by design, are deleted by holder.
"""

import hashlib
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.hashers import check_password
from django.contrib.auth.models import User
from django.core.checks import CheckMessage, Error, Tags, register
from django.core.exceptions import ImproperlyConfigured
from django.db import DatabaseError, transaction
from django.urls import reverse
from django.utils import timezone

from polotrainer.certificates.issuing import issue, set_name
from polotrainer.certificates.models import Certificate, HolderName, Kind
from polotrainer.clinics import sessions
from polotrainer.clinics.models import ClinicSession, Phase
from polotrainer.courses import assignments, codes, enrolment
from polotrainer.courses.exams import attempts
from polotrainer.courses.exams.models import Exam, ExamAttempt
from polotrainer.courses.models import (
    Assignment,
    Cohort,
    Course,
    Membership,
    Observation,
    Outcome,
    Track,
)
from polotrainer.umpires import review, roles
from polotrainer.umpires.models import Attempt, Profile, ScenarioProgress
from polotrainer.umpires.progress import (
    PRACTICE,
    REVIEW,
    Answer,
    Answers,
    Context,
    Person,
    record_answers,
)
from scenarios import quiz
from scenarios.models import Rule, Scenario
from scenarios.scope import Scope, titles
from scenarios.variants import MAX_SEED

#: Every demo account opens with this password: it is published, on purpose.
PASSWORD = "polo-demo-2026"  # noqa: S105 - published in the README, never a real account's


@dataclass(frozen=True)
class Account:
    """A demo person; `skill` is the chance of a right answer, `weak` lowers it on rules."""

    username: str
    name: str
    language: str
    role: str = "trainee"
    skill: float = 0.7
    weak: Mapping[int, float] = field(default_factory=dict)
    days_practised: float = 0.5  # share of days with a session
    reviews: int = 4  # at most this many due reviews at the start of a session
    joined_days_ago: int = 30
    started_days_ago: int = 35
    # How each assignment ("past", "current") is done: (when work starts, questions answered).
    # "set": from the day it is set; "late": only after it fell due.
    plan: Mapping[str, tuple[str, int]] = field(default_factory=dict)
    story: str = ""


INSTRUCTOR = Account(
    "demo-instructor",
    "Giulia Ferri",
    "it",
    role="instructor",
    story="teaches the demo course: gradebook, assignments, observations, an exam with its "
    "results and item analysis, a clinic ready to start",
)
TRAINEES = (
    Account(
        "demo-anna",
        "Anna Rossi",
        "it",
        skill=0.88,
        days_practised=0.75,
        reviews=10,
        joined_days_ago=34,
        started_days_ago=40,
        plan={"past": ("set", 12), "current": ("set", 14)},
        story="strong and steady: both assignments done on time; passed the exam, certified",
    ),
    Account(
        "demo-marco",
        "Marco Bianchi",
        "it",
        skill=0.74,
        weak={37: -0.12},
        days_practised=0.5,
        reviews=10,
        joined_days_ago=33,
        started_days_ago=33,
        plan={"past": ("late", 12), "current": ("set", 6)},
        story="the past assignment done late, the current one half done; failed the exam",
    ),
    Account(
        "demo-sophie",
        "Sophie Turner",
        "en",
        skill=0.66,
        weak={21: -0.1},
        days_practised=0.45,
        reviews=12,
        joined_days_ago=30,
        started_days_ago=30,
        plan={"past": ("set", 12)},
        story="reads in English; the current assignment not started; failed the exam",
    ),
    Account(
        "demo-luca",
        "Luca Conti",
        "it",
        skill=0.5,
        weak={3: -0.1, 37: -0.1},
        days_practised=0.3,
        reviews=1,
        joined_days_ago=21,
        started_days_ago=21,
        plan={"current": ("set", 2)},
        story="struggling: the past assignment missed, many reviews due; failed the exam",
    ),
)
ACCOUNTS = (INSTRUCTOR, *TRAINEES)
USERNAMES = tuple(a.username for a in ACCOUNTS)

COURSE_TITLE = {"it": "Demo: corso arbitri", "en": "Demo: umpire course"}
COHORT_NAME = "Demo"
#: The assignments: rule, questions, days since set, days until due (negative: past due).
ASSIGNMENTS = {
    "past": (3, 12, 16, -5),
    "current": (37, 14, 4, 3),
}
#: The local hour an assignment was set at, on the day it was set.
ASSIGNMENT_SET_HOUR = 19
OBSERVATIONS = (
    # trainee, days ago, game, outcome, rating, notes (in the trainee's language)
    (
        "demo-anna",
        9,
        "Coppa di Primavera, 8 goal, semifinale",
        Outcome.RECOMMENDED,
        "C1",
        "Posizione sempre corretta; rigori eseguiti con decisione.",
    ),
    (
        "demo-marco",
        9,
        "Coppa di Primavera, 8 goal, primo turno",
        Outcome.SATISFACTORY,
        "CU",
        "Buon controllo del gioco; rivedere le posizioni sul Rigore 2.",
    ),
    (
        "demo-sophie",
        6,
        "Club chukkers, 4 goal",
        Outcome.SATISFACTORY,
        "",
        "Clear signals. Call the throw-in a little sooner.",
    ),
    (
        "demo-luca",
        6,
        "Partita d'allenamento, 0 goal",
        Outcome.NEEDS_WORK,
        "",
        "Fischia troppo tardi; ripassare la Regola 21.",
    ),
)


@dataclass
class Demo:
    """What the parts made so far, for the parts after them, and what to tell the user."""

    now: datetime
    instructor: User | None = None
    trainees: dict[str, User] = field(default_factory=dict)
    course: Course | None = None
    cohort: Cohort | None = None
    assignments: dict[str, Assignment] = field(default_factory=dict)
    exam: Exam | None = None
    lines: list[str] = field(default_factory=list)

    def say(self, line: str) -> None:
        self.lines.append(line)


# --- the parts ---------------------------------------------------------------------------------


def people(demo: Demo) -> None:
    """The instructor (with the role) and the trainees, each with a profile and the password."""
    for account in ACCOUNTS:
        user = User.objects.filter(username=account.username).first()
        if user is None:
            user = User.objects.create_user(
                account.username, f"{account.username}@example.org", PASSWORD
            )
            user.date_joined = demo.now - timedelta(days=account.started_days_ago + 1)
            user.save(update_fields=["date_joined"])
        Profile.objects.get_or_create(
            user=user, defaults={"display_name": account.name, "language": account.language}
        )
        if account.role == "instructor":
            roles.grant(user)
            demo.instructor = user
        else:
            demo.trainees[account.username] = user


def course(demo: Demo) -> None:
    """The course, its cohort with the trainees, the assignments and the observations."""
    instructor = demo.instructor
    if instructor is None:
        raise DemoError("the course part needs the people part first")
    found = Course.objects.filter(created_by=instructor, title_en=COURSE_TITLE["en"]).first()
    if found is None:
        found = Course.objects.create(
            title_it=COURSE_TITLE["it"],
            title_en=COURSE_TITLE["en"],
            track=Track.OUTDOOR,
            year=timezone.localdate(demo.now).year,
            time_zone=settings.TIME_ZONE,
            created_by=instructor,
            created_at=demo.now - timedelta(days=42),
        )
        found.instructors.add(instructor)
    demo.course = found
    cohort = found.cohorts.filter(name=COHORT_NAME).first()
    if cohort is None:
        cohort = Cohort(course=found, name=COHORT_NAME, created_at=demo.now - timedelta(days=40))
        codes.give_new_code(cohort)
    demo.cohort = cohort
    for account in TRAINEES:
        user = demo.trainees[account.username]
        if not Membership.objects.filter(cohort=cohort, user=user).exists():
            membership = enrolment.join(user, cohort)
            membership.joined_at = demo.now - timedelta(days=account.joined_days_ago)
            membership.save(update_fields=["joined_at"])
    _assignments(demo, cohort, instructor)
    if not Observation.objects.filter(cohort=cohort).exists():
        for username, days, game, outcome, rating, notes in OBSERVATIONS:
            Observation.objects.create(
                cohort=cohort,
                trainee=demo.trainees[username],
                observer=instructor,
                observed_on=timezone.localdate(demo.now) - timedelta(days=days),
                game=game,
                outcome=outcome,
                rating=rating,
                notes=notes,
            )


def _assignments(demo: Demo, cohort: Cohort, instructor: User) -> None:
    """The past and the current assignment, set through the courses app as on the day they
    were set: made due today, then moved to the dates they had (the app refuses a past date)."""
    existing = list(cohort.assignments.order_by("created_at", "pk"))
    if existing:
        demo.assignments = dict(zip(ASSIGNMENTS, existing, strict=False))
        return
    course_ = cohort.course
    today = assignments.today_in(course_)
    for key, (rule_number, questions, set_ago, due_in) in ASSIGNMENTS.items():
        made = assignments.create(
            cohort,
            scope=Scope.RULE,
            rule=Rule.objects.get(number=rule_number),
            questions=questions,
            due_on=today,
            by=instructor,
        )
        made.due_on = today + timedelta(days=due_in)
        made.due_at = assignments.end_of(made.due_on, course_)
        # Set in the evening (local), after that day's exam sittings: a sitting never counts
        # into an assignment whatever the hour the demo is made at.
        made.created_at = min(_local(demo, -set_ago, ASSIGNMENT_SET_HOUR), demo.now)
        made.save(update_fields=["due_on", "due_at", "created_at"])
        demo.assignments[key] = made


def history(demo: Demo) -> None:
    """Each trainee's answers over the past weeks, made by the engine, oldest first."""
    live = list(Scenario.objects.live().order_by("pk"))
    if not live:
        raise DemoError("no scenarios: run `manage.py content load` first")
    for account in TRAINEES:
        user = demo.trainees[account.username]
        if Attempt.objects.filter(user=user).exists():
            continue
        with transaction.atomic():
            Trainee(account, user, demo, live).practise()


def certificates(demo: Demo) -> None:
    """Every trainee's full name for certificates, and one certificate the instructor issued by
    hand: Anna's course completion (an exam's certificate comes from passing it)."""
    for account in TRAINEES:
        user = demo.trainees[account.username]
        if not HolderName.objects.filter(user=user).exists():
            set_name(user, account.name)
    cohort, instructor = demo.cohort, demo.instructor
    if cohort is None or instructor is None:
        raise DemoError("the certificates part needs the course part first")
    anna = demo.trainees["demo-anna"]
    made = Certificate.objects.filter(user=anna, kind=Kind.COMPLETION).first() or issue(
        user=anna,
        cohort=cohort,
        kind=Kind.COMPLETION,
        by=instructor,
        on=timezone.localdate(demo.now) - timedelta(days=2),
    )
    demo.say(f"  a certificate to verify: code {made.code} (Anna Rossi, course completion)")


#: The exam that has closed, and the one open now (no attempt yet): titles, and its days from
#: now (negative: past) of opening and closing, at `EXAM_HOURS` local time.
EXAM_CLOSED = {"it": "Demo: esame di fine corso", "en": "Demo: end-of-course exam"}
EXAM_OPEN = {"it": "Demo: esame di recupero", "en": "Demo: resit exam"}
EXAM_DAYS = {"closed": (-9, -2), "open": (-1, 6)}
EXAM_HOURS = (8, 22)
#: Situations drawn per rule (fewer if the content has fewer), and the time limit.
EXAM_RULES = {3: 3, 21: 5, 37: 4}
EXAM_MINUTES = 30
#: Who sat the closed exam: days ago, local start (hour, minute), chance of a right answer, and
#: whether they pass (their answers are drawn again until the outcome is this one).
SITTINGS = (
    ("demo-anna", 6, (10, 5), 0.97, True),
    ("demo-marco", 5, (15, 20), 0.8, False),
    ("demo-sophie", 4, (10, 40), 0.75, False),
    ("demo-luca", 3, (15, 10), 0.55, False),
)
SITTING_DRAWS = 200
CLINIC_TITLE = "Demo: clinic sulla Regola 37"
CLINIC_ROUNDS = 8


def exams_part(demo: Demo) -> None:
    """The closed exam with four finished attempts (Anna passes, and the courses app's
    exam_passed signal brings her certificate; the others fail), and an exam open now."""
    cohort, instructor = demo.cohort, demo.instructor
    if cohort is None or instructor is None:
        raise DemoError("the exams part needs the course part first")
    closed = cohort.exams.filter(title_en=EXAM_CLOSED["en"]).first()
    if closed is None:
        closed = _exam(demo, cohort, instructor, EXAM_CLOSED, *EXAM_DAYS["closed"])
        for username, days_ago, (hour, minute), chance, passes in SITTINGS:
            start = _local(demo, -days_ago, hour, minute)
            _sit(closed, demo.trainees[username], start, chance, passes)
        # The close has passed: the answers it held back count into each trainee's progress.
        attempts.release_if_due(closed, demo.now)
        _exam(demo, cohort, instructor, EXAM_OPEN, *EXAM_DAYS["open"])
    demo.exam = closed
    passed = closed.attempts.filter(passed=True).values_list("pk", flat=True).first()
    certificate = Certificate.objects.filter(attempt_id=passed).first() if passed else None
    if certificate is not None:
        demo.say(
            f"  an exam with results: {EXAM_CLOSED['en']} (Anna Rossi passed: certificate "
            f"code {certificate.code}; Luca Conti failed); {EXAM_OPEN['en']} is open now"
        )


def _local(demo: Demo, days: int, hour: int, minute: int = 0) -> datetime:
    """That hour of the day `days` from now, in the site's time zone."""
    day = timezone.localtime(demo.now) + timedelta(days=days)
    return day.replace(hour=hour, minute=minute, second=0, microsecond=0)


def _exam(
    demo: Demo,
    cohort: Cohort,
    instructor: User,
    title: Mapping[str, str],
    opens_in: int,
    closes_in: int,
) -> Exam:
    """An exam set as the instructor's form sets one: a situation count per rule over the
    bundled content, the course track's pass mark, a time limit, its dates."""
    live = [s for s in Scenario.objects.live().order_by("pk") if not _ticks(s)]
    parts = []
    for rule in Rule.objects.filter(number__in=EXAM_RULES).order_by("number"):
        ids = tuple(s.pk for s in live if s.rule_id == rule.pk)
        if ids:
            named = titles(Scope.RULE, rule, [], len(ids))
            count = min(EXAM_RULES[rule.number], len(ids))
            parts.append(attempts.Part(named["it"], named["en"], count, ids))
    try:
        attempts.check_blueprint(parts)
    except attempts.ExamError as exc:
        raise DemoError(f"no exam from this content ({exc.code})") from None
    opens_at = _local(demo, opens_in, EXAM_HOURS[0])
    return Exam.objects.create(
        cohort=cohort,
        title_it=title["it"],
        title_en=title["en"],
        blueprint=[p.as_json() for p in parts],
        pass_percent=attempts.default_pass_mark(cohort.course),
        time_limit_minutes=EXAM_MINUTES,
        opens_at=opens_at,
        closes_at=_local(demo, closes_in, EXAM_HOURS[1]),
        created_by=instructor,
        created_at=opens_at - timedelta(days=2),
    )


def _ticks(scenario: Scenario) -> bool:
    """Whether the scenario asks a "tick all that apply" question. The demo's exams leave
    those out: an exam saves a question with no box ticked as unanswered, so where the right
    answer is "none of them" no attempt can be all right, and Anna could miss the pass mark
    through no answer of hers."""
    posed = _posed(scenario, random.Random(scenario.pk), "en")
    return any(
        q.type in {quiz.QuestionType.MULTI, quiz.QuestionType.PLAYERS} for q in posed.questions
    )


def _sit(exam: Exam, user: User, start: datetime, chance: float, passes: bool) -> ExamAttempt:
    """One trainee's attempt, from Start to Submit through the exams app at moments from
    `start`: each situation answered with `answers_for` on the attempt's frozen variant and
    saved as its form would send it, a little later each."""
    rng = random.Random(f"polotrainer-demo:exam:{user.username}")
    language = Profile.objects.get(user=user).language
    attempt = attempts.start(exam, user, start)
    slots = list(attempt.slots.select_related("scenario").order_by("position"))
    shown = [attempts.posed(slot, language) for slot in slots]
    for _draw in range(SITTING_DRAWS):
        # As stored: an answer with nothing to send (no box ticked) is no answer in an exam.
        answers = [_sendable(posed, answers_for(posed, rng, chance)) for posed in shown]
        marked = [
            m for posed, given in zip(shown, answers, strict=True) for m in quiz.grade(posed, given)
        ]
        right = quiz.count_right(m.correct for m in marked)
        if (right * 100 >= exam.pass_percent * len(marked)) == passes:
            break
    at = start
    for slot, posed, given in zip(slots, shown, answers, strict=True):
        at += timedelta(seconds=sum(rng.randint(20, 45) for _ in posed.questions))
        attempts.save(
            attempt, slot, form_for(posed, given), min(at, attempt.deadline - timedelta(seconds=30))
        )
    return attempts.submit(
        attempt, min(at + timedelta(seconds=rng.randint(20, 90)), attempt.deadline)
    )


def clinics(demo: Demo) -> None:
    """A clinic for the instructor, in the lobby: the current assignment's situations."""
    instructor = demo.instructor
    if instructor is None:
        raise DemoError("the clinics part needs the people part first")
    found = (
        ClinicSession.objects.filter(instructor=instructor, title=CLINIC_TITLE)
        .exclude(phase=Phase.ENDED)
        .first()
    )
    if found is None:
        found = sessions.create(
            instructor,
            CLINIC_TITLE,
            sessions.Source(scope="assignment", assignment=demo.assignments.get("current")),
            rounds=CLINIC_ROUNDS,
            time_limit=45,
            speed_bonus=True,
        )
    demo.say(
        f"  a clinic ready to start: PIN {found.pin}; as demo-instructor open "
        f"{reverse('clinics:projector', args=[found.pk])} on the projector (My clinics on the "
        f"home page); phones join at {reverse('clinics:enter')} with the PIN"
    )


#: The parts in the order they run (certificates before exams: a holder's name is known when
#: a pass issues the certificate, so it is signed at once).
PARTS: tuple[Callable[[Demo], None], ...] = (
    people,
    course,
    history,
    certificates,
    exams_part,
    clinics,
)


# --- a trainee's weeks -------------------------------------------------------------------------


class DemoError(Exception):
    """The demo cannot be made (no content loaded, DEBUG off)."""


@dataclass
class Trainee:
    """One trainee living through their weeks: sessions on some evenings, reviews first, then
    the assignment they are working on or free practice, each answer drawn from their skill."""

    account: Account
    user: User
    demo: Demo
    live: Sequence[Scenario]
    seen: dict[int, int] = field(default_factory=dict)
    owed: dict[str, int] = field(default_factory=dict)
    counted: dict[str, int] = field(default_factory=dict)
    count: int = 0

    def __post_init__(self) -> None:
        self.rng = random.Random(f"polotrainer-demo:{self.account.username}")
        self.person = Person(user_id=self.user.pk)
        self.owed = {key: goal for key, (_start, goal) in self.account.plan.items()}
        self.asks = {
            key: set(a.scenario_links.values_list("scenario_id", flat=True))
            for key, a in self.demo.assignments.items()
        }

    def practise(self) -> None:
        for start in self.sessions():
            at = start
            for _ in range(self.account.reviews):  # reviews due first, as the home page asks
                scenario = self.most_overdue(at)
                if scenario is None:
                    break
                at = self.answer(scenario, at, REVIEW)
            planned = self.rng.randint(4, 11)
            # An assignment begun is done in one sitting, as far as the plan goes.
            while planned > 0 or any(self.working_on(k, at) for k in self.demo.assignments):
                at = self.answer(self.pick(at), at, PRACTICE)
                planned -= 1

    def most_overdue(self, at: datetime) -> Scenario | None:
        """The review the review page would serve at `at` (review.is_due, most overdue first),
        leaving out the assignments the trainee leaves alone then."""
        found = (
            ScenarioProgress.objects.filter(user=self.user, due__isnull=False)
            .filter(review.is_due(at))
            .exclude(scenario_id__in=self.avoided(at))
            .order_by("due")
            .values_list("scenario_id", flat=True)
            .first()
        )
        return next((s for s in self.live if s.pk == found), None)

    def sessions(self) -> Iterator[datetime]:
        """A session's start on the days practised, in the evening or at lunch, never later
        than an hour ago; always one on the first day, and the day after each assignment's
        work is due to begin."""
        now = timezone.localtime(self.demo.now)
        first = timezone.localdate(now) - timedelta(days=self.account.started_days_ago)
        begins = {first} | {
            timezone.localdate(self.begins(key)) + timedelta(days=1)
            for key in self.account.plan
            if key in self.demo.assignments
        }
        for days_ago in range(self.account.started_days_ago, -1, -1):
            day = (now - timedelta(days=days_ago)).replace(second=0, microsecond=0)
            drawn = self.rng.random() <= self.account.days_practised
            hour = self.rng.choice([7, 13, 18, 20, 21, 21, 22])
            start = day.replace(hour=hour, minute=self.rng.randrange(60))
            if (drawn or day.date() in begins) and start < now - timedelta(hours=1):
                yield start

    def begins(self, key: str) -> datetime:
        """When the trainee starts on assignment `key`: when it is set, or once it is late."""
        assignment = self.demo.assignments[key]
        late = self.account.plan.get(key, ("", 0))[0] == "late"
        return assignment.due_at if late else assignment.created_at

    def working_on(self, key: str, at: datetime) -> bool:
        """Whether the trainee is doing assignment `key` at `at`, by their plan."""
        return self.owed.get(key, 0) > 0 and at >= self.begins(key)

    def pick(self, at: datetime) -> Scenario:
        """A scenario of the assignment being worked on, if any (one not asked yet, if left);
        else any scenario but those of assignments set and not being worked on, unless done."""
        for key in self.demo.assignments:
            if self.working_on(key, at):
                chosen = [s for s in self.live if s.pk in self.asks[key]]
                fresh = [s for s in chosen if s.pk not in self.seen] or chosen
                return self.rng.choice(fresh)
        avoided = self.avoided(at)
        return self.rng.choice([s for s in self.live if s.pk not in avoided] or self.live)

    def avoided(self, at: datetime) -> set[int]:
        """The scenarios the trainee leaves alone at `at`, so that each assignment ends as the
        plan says: those of assignments set, unfinished and not being worked on."""
        out: set[int] = set()
        for key, assignment in self.demo.assignments.items():
            unfinished = self.counted.get(key, 0) < assignment.questions
            if at >= assignment.created_at and unfinished and not self.working_on(key, at):
                out |= self.asks[key]
        return out

    def answer(self, scenario: Scenario, at: datetime, context: Context) -> datetime:
        """Pose a fresh variant, answer it, record it at `at`; the time after answering."""
        posed = _posed(scenario, self.rng, self.account.language)
        chance = self.account.skill + self.account.weak.get(scenario.rule_id, 0.0)
        chance += 0.04 * self.seen.get(scenario.pk, 0)  # practice helps
        given = answers_for(posed, self.rng, min(0.97, max(0.05, chance)))
        items = quiz.grade(posed, given)
        seconds = sum(self.rng.randint(12, 50) for _ in items)
        record_answers(
            self.person,
            context,
            Answers(
                scenario_id=posed.scenario_id,
                seed=posed.seed,
                content_version=posed.version,
                items=[Answer(m.id, m.given, m.right, m.correct, self.nonce(m.id)) for m in items],
                time_taken_ms=seconds * 1000,
                at=at,
            ),
        )
        self.seen[scenario.pk] = self.seen.get(scenario.pk, 0) + 1
        for key, assignment in self.demo.assignments.items():
            if at >= assignment.created_at and scenario.pk in self.asks[key]:
                self.owed[key] = self.owed.get(key, 0) - len(items)
                self.counted[key] = self.counted.get(key, 0) + len(items)
        return at + timedelta(seconds=seconds + self.rng.randint(5, 40))

    def nonce(self, question: str) -> str:
        """The same on every run, so a replayed demo could never record an answer twice."""
        self.count += 1
        key = f"demo:{self.account.username}:{self.count}:{question}"
        return hashlib.sha256(key.encode()).hexdigest()[:32]


def _posed(scenario: Scenario, rng: random.Random, lang: str) -> quiz.Posed:
    """A fresh variant of the scenario, its seed drawn from the trainee's generator."""
    while True:
        try:
            return quiz.pose(scenario, rng.randint(1, MAX_SEED), lang)
        except quiz.VariantError:
            continue


def answers_for(posed: quiz.Posed, rng: random.Random, chance: float) -> dict[str, Any]:
    """An answer to each question of a posed variant: the engine's right answer with
    probability `chance`, else a plausible wrong one of the question's kind, read back through
    the quiz core exactly as a form sending it would be. For the demo's exams too."""
    given: dict[str, Any] = {}
    for question in posed.questions:
        right = question.source.right_answer(posed.variant.ruling)
        tries = [] if rng.random() < chance else _wrong(question, right, rng)
        for value in [*tries, right]:
            try:
                given[question.id] = quiz.read_one(posed, question, _fields(posed, question, value))
                break
            except quiz.AnswerError:
                continue  # not a possible answer (a spot off the field): try the next
    return given


def form_for(posed: quiz.Posed, given: Mapping[str, Any]) -> dict[str, list[str]]:
    """The form a trainee sends for these answers (what `quiz.read` reads back to them)."""
    submitted: dict[str, list[str]] = {}
    for question in posed.questions:
        if question.id in given:
            submitted |= _fields(posed, question, given[question.id])
    return submitted


def _sendable(posed: quiz.Posed, given: Mapping[str, Any]) -> dict[str, Any]:
    """The answers a form can send: those with a value to send."""
    return {
        q.id: given[q.id]
        for q in posed.questions
        if q.id in given and quiz.form_values(posed, q, given[q.id])
    }


def _fields(posed: quiz.Posed, question: quiz.PosedQuestion, value: Any) -> dict[str, list[str]]:
    values = quiz.form_values(posed, question, value)
    if question.type in {quiz.QuestionType.MULTI, quiz.QuestionType.PLAYERS}:
        return {question.name: list(values)}
    return {name: [v] for name, v in zip(question.fields, values, strict=True)}


def _wrong(question: quiz.PosedQuestion, right: Any, rng: random.Random) -> list[Any]:
    """Wrong answers a trainee might give, most likely first."""
    values = [o.value for o in question.options]
    match question.type:
        case quiz.QuestionType.CHOICE:
            others = [v for v in values if v != right]
            rng.shuffle(others)
            return others
        case quiz.QuestionType.BOOL:
            return [not right]
        case quiz.QuestionType.MULTI | quiz.QuestionType.PLAYERS:
            toggled = []
            for v in rng.sample(values, len(values)):
                toggled.append(sorted(set(right) ^ {v}))
            return toggled
        case quiz.QuestionType.ORDER:
            if len(right) < 2:
                return []
            i = rng.randrange(len(right) - 1)
            swapped = list(right)
            swapped[i], swapped[i + 1] = swapped[i + 1], swapped[i]
            return [swapped]
        case quiz.QuestionType.NUMBER:
            step = max(1, question.tolerance * 2 + 1)
            near = [right + k * step for k in rng.sample([-2, -1, 1, 2], 4)]
            return [v for v in near if v >= 0]
        case quiz.QuestionType.PLACE:
            out = []
            for _ in range(6):
                dx, dy = rng.uniform(-15, 15), rng.uniform(-15, 15)
                if abs(dx) + abs(dy) > question.tolerance * 2:
                    out.append({"x": round(right["x"] + dx), "y": round(right["y"] + dy)})
            return out
    return []


# --- the whole demo ----------------------------------------------------------------------------


def make(now: datetime | None = None) -> Demo:
    """Make whatever of the demo is missing (everything, the first time)."""
    if not settings.DEBUG:
        raise DemoError("the demo is for development only: DEBUG is off")
    demo = Demo(now=now or timezone.now())
    for part in PARTS:
        part(demo)
    return demo


def remove() -> int:
    """Delete the demo's accounts and every course created by the demo's instructor (their
    cohorts, assignments, observations, exams and answers go with them, the clinics with the
    instructor) and the certificates of the demo's trainees; how many accounts."""
    if not settings.DEBUG:
        raise DemoError("the demo is for development only: DEBUG is off")
    with transaction.atomic():
        # Certificates outlive their holder's account by design; the demo's go with the demo.
        Certificate.objects.filter(user__username__in=USERNAMES).delete()
        Course.objects.filter(created_by__username__in=USERNAMES).delete()
        accounts = User.objects.filter(username__in=USERNAMES)
        count = accounts.count()
        accounts.delete()
    return count


def present() -> bool:
    """Whether any of the demo's usernames exists (one query, no hashing: for pages)."""
    return User.objects.filter(username__in=USERNAMES).exists()


def holds_demo() -> list[str]:
    """The demo accounts in this database that still open with the published password.

    A username alone is not enough: someone who signs up as "demo-anna" with a password of their
    own is a real person and cannot stop the site. Without such usernames (production) this is
    one query and no password hashing.
    """
    found = (
        User.objects.filter(username__in=USERNAMES)
        .order_by("username")
        .values_list("username", "password")
    )
    return [name for name, encoded in found if check_password(PASSWORD, encoded)]


def refusal() -> str:
    """Why a server must not start on this database, or "" when it may; never raises."""
    if settings.DEBUG:
        return ""
    try:
        found = holds_demo()
    except DatabaseError:
        return ""  # no database yet, or not reachable: /healthz says so
    if not found:
        return ""
    return (
        f"this database holds the demo's accounts ({', '.join(found)}), whose password is "
        "published: serve another database, or delete them with `DEBUG=1 manage.py demo "
        "--remove`"
    )


def refuse_to_serve() -> None:
    """ImproperlyConfigured when a server must not start on this database (wsgi.py, asgi.py)."""
    if reason := refusal():
        raise ImproperlyConfigured(reason)


@register(Tags.database)
def check_no_demo(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    """demo.E001 with DEBUG off on a database holding the demo (run by migrate and `check
    --database default`)."""
    reason = refusal()
    return [Error(reason, id="demo.E001")] if reason else []
