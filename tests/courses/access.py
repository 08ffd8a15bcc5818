"""Who may reach each course URL: the table the access tests play (and the site-wide role x URL
harness can import). Every object in the table belongs to side A of the world in conftest.py:
Ines's course A, cohort A, trainee Alice, her assignment and observation.
"""

from collections.abc import Callable
from dataclasses import dataclass, field

ROLES = ("anonymous", "trainee_a", "trainee_b", "instructor_a", "instructor_b", "staff")
LOGGED_IN = frozenset(ROLES) - {"anonymous"}
EVERYONE = frozenset(ROLES)


@dataclass(frozen=True)
class Case:
    """One URL: its name in the courses namespace, its arguments taken from the world, who may
    open it (GET) and which methods to try on it."""

    name: str
    args: Callable[[object], list[object]]
    allowed: frozenset[str]
    methods: tuple[str, ...] = ("GET", "POST")
    # GET by an allowed role answers this status (a redirect for "go to the next question").
    ok: int = 200
    label: str = ""
    extra: dict[str, str] = field(default_factory=dict)

    @property
    def id(self) -> str:
        return self.label or self.name


def _a(w):
    return w


CASES = [
    # The trainee's side.
    Case("mine", lambda w: [], LOGGED_IN),
    Case("join", lambda w: [], EVERYONE, methods=("GET",)),
    # Whoever has the code may open the link: the code is the secret (joining is tested apart).
    Case("join_code", lambda w: [w.cohort_a.join_code], EVERYONE, methods=("GET",)),
    Case("my_report", lambda w: [w.cohort_a.pk], frozenset({"trainee_a"})),
    Case("leave", lambda w: [w.cohort_a.pk], frozenset({"trainee_a"})),
    Case("assignment", lambda w: [w.assignment_a.pk], frozenset({"trainee_a"})),
    Case("assignment_next", lambda w: [w.assignment_a.pk], frozenset({"trainee_a"}), ok=302),
    # The instructor's side.
    Case("course_new", lambda w: [], frozenset({"instructor_a", "instructor_b"})),
    Case("course", lambda w: [w.course_a.pk], frozenset({"instructor_a"})),
    Case("course_edit", lambda w: [w.course_a.pk], frozenset({"instructor_a"})),
    Case(
        "course_instructor_add",
        lambda w: [w.course_a.pk],
        frozenset({"instructor_a"}),
        methods=("POST",),
        extra={"person": "ivan"},
    ),
    Case(
        "course_instructor_remove",
        lambda w: [w.course_a.pk, w.instructor_a.pk],
        frozenset({"instructor_a"}),
        ok=302,  # the last instructor cannot be removed: it says so and goes back
    ),
    Case("cohort_new", lambda w: [w.course_a.pk], frozenset({"instructor_a"})),
    Case("cohort", lambda w: [w.cohort_a.pk], frozenset({"instructor_a"})),
    Case("cohort_edit", lambda w: [w.cohort_a.pk], frozenset({"instructor_a"})),
    Case(
        "cohort_code",
        lambda w: [w.cohort_a.pk],
        frozenset({"instructor_a"}),
        methods=("POST",),
        extra={"action": "reset"},
    ),
    Case("cohort_code_show", lambda w: [w.cohort_a.pk], frozenset({"instructor_a"})),
    Case("gradebook", lambda w: [w.cohort_a.pk], frozenset({"instructor_a"})),
    Case("gradebook_csv", lambda w: [w.cohort_a.pk], frozenset({"instructor_a"})),
    Case("assignment_new", lambda w: [w.cohort_a.pk], frozenset({"instructor_a"})),
    Case("assignment_edit", lambda w: [w.assignment_a.pk], frozenset({"instructor_a"})),
    Case("assignment_delete", lambda w: [w.assignment_a.pk], frozenset({"instructor_a"})),
    Case("trainee", lambda w: [w.cohort_a.pk, w.trainee_a.pk], frozenset({"instructor_a"})),
    Case("trainee_remove", lambda w: [w.cohort_a.pk, w.trainee_a.pk], frozenset({"instructor_a"})),
    Case("observation_new", lambda w: [w.cohort_a.pk, w.trainee_a.pk], frozenset({"instructor_a"})),
    Case("observation_edit", lambda w: [w.observation_a.pk], frozenset({"instructor_a"})),
    Case("observation_delete", lambda w: [w.observation_a.pk], frozenset({"instructor_a"})),
    # Mixed-up ids: someone else's trainee in my cohort, my trainee under someone else's cohort.
    Case(
        "trainee",
        lambda w: [w.cohort_a.pk, w.trainee_b.pk],
        frozenset(),
        label="trainee-of-another-cohort",
    ),
    Case(
        "trainee",
        lambda w: [w.cohort_b.pk, w.trainee_a.pk],
        frozenset(),
        label="trainee-under-a-foreign-cohort",
    ),
    Case(
        "observation_new",
        lambda w: [w.cohort_a.pk, w.trainee_b.pk],
        frozenset(),
        label="observation-of-another-cohorts-trainee",
    ),
    # Exams (the world gets exam A with Alice's open attempt, and exam B, from exam_world).
    Case("exam", lambda w: [w.exam_a.pk], frozenset({"trainee_a"})),
    Case("exam_start", lambda w: [w.exam_a.pk], frozenset({"trainee_a"}), methods=("POST",)),
    Case("exam_attempt", lambda w: [w.attempt_a.pk], frozenset({"trainee_a"})),
    Case(
        "exam_save",
        lambda w: [w.attempt_a.pk, 1],
        frozenset({"trainee_a"}),
        methods=("POST",),
        extra={"q-goal": "yes"},
    ),
    Case("exam_submit", lambda w: [w.attempt_a.pk], frozenset({"trainee_a"})),
    # An open attempt's result page sends its owner back to the attempt.
    Case("exam_result", lambda w: [w.attempt_a.pk], frozenset({"trainee_a"}), ok=302),
    Case("exam_new", lambda w: [w.cohort_a.pk], frozenset({"instructor_a"})),
    Case("exam_edit", lambda w: [w.exam_a.pk], frozenset({"instructor_a"})),
    Case("exam_results", lambda w: [w.exam_a.pk], frozenset({"instructor_a"})),
    Case(
        "exam_accommodation",
        lambda w: [w.exam_a.pk],
        frozenset({"instructor_a"}),
        methods=("POST",),
        extra={"trainee": "1", "extra_minutes": "10", "extra_attempts": "1"},
    ),
    Case("exam_preview", lambda w: [w.exam_a.pk], frozenset({"instructor_a"}), methods=("POST",)),
    Case("exam_regrade", lambda w: [w.exam_a.pk], frozenset({"instructor_a"})),
    Case("exam_items", lambda w: [w.exam_a.pk], frozenset({"instructor_a"})),
    Case("exam_items_csv", lambda w: [w.exam_a.pk], frozenset({"instructor_a"})),
    # Without a reference it goes back to the results page.
    Case("exam_question", lambda w: [w.exam_a.pk], frozenset({"instructor_a"}), ok=302),
    # Bob's attempt: a save by anyone but Bob is a 404 and changes nothing.
    Case(
        "exam_save",
        lambda w: [w.attempt_b.pk, 1],
        frozenset({"trainee_b"}),
        methods=("POST",),
        label="exam-save-of-another-attempt",
        extra={"q-goal": "yes"},
    ),
    # Staff.
    Case("instructors", lambda w: [], frozenset({"staff"})),
    Case("instructor_revoke", lambda w: [w.instructor_a.pk], frozenset({"staff"})),
]

#: What must never reach anyone who may not open a page of side A.
SECRETS = ("Cohort A", "Alice Allieva", "Secret note about Alice", "Red v Blue", "Secret exam A")
