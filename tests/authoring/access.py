"""Who may reach each authoring URL: instructor A, on her course's situations (staff may also
export them, and only staff list every course's and promote one); everyone else 404 (a
visitor: the log-in page). The roles are tests/courses' six."""

from tests.courses.access import ROLES, Case

ONLY_A = frozenset({"instructor_a"})
STAFF = frozenset({"staff"})
#: The picture's audience once situation A is published: its instructor and cohort A's trainee.
AUDIENCE_A = frozenset({"instructor_a", "trainee_a"})
#: URLs that answer a visitor 404, not the log-in page (a picture is fetched by an <img>).
VISITOR_404 = {"photo"}


def _photo(situation):
    return situation.photo.name.rsplit("/", 1)[-1]


CASES = [
    Case("situations", lambda w: [w.course_a.pk], ONLY_A),
    Case(
        "new", lambda w: [w.course_a.pk], ONLY_A, methods=("POST",), extra={"copy": "t-safety-spot"}
    ),
    Case("edit", lambda w: [w.situation_a.pk], ONLY_A),
    Case("preview", lambda w: [w.situation_a.pk], ONLY_A, methods=("GET",)),
    # The picture: a draft's only for its instructors; a published one's for the cohorts too.
    Case("photo", lambda w: [w.situation_a.pk, _photo(w.situation_a)], ONLY_A, methods=("GET",)),
    Case(
        "photo",
        lambda w: [w.published_a.pk, _photo(w.published_a)],
        AUDIENCE_A,
        methods=("GET", "POST"),
        label="photo-published",
    ),
    # Instructor A's own course with instructor B's situation, and the other way round.
    Case("edit", lambda w: [w.situation_b.pk], frozenset({"instructor_b"}), label="edit-b"),
    Case(
        "preview",
        lambda w: [w.situation_b.pk],
        frozenset({"instructor_b"}),
        methods=("GET",),
        label="preview-b",
    ),
    # Shared upward: export (the course's instructors and staff), promote (staff only).
    Case("export", lambda w: [w.situation_a.pk], ONLY_A | STAFF),
    Case(
        "export",
        lambda w: [w.situation_b.pk],
        frozenset({"instructor_b"}) | STAFF,
        label="export-b",
    ),
    Case("every", lambda w: [], STAFF),
    Case("promote", lambda w: [w.situation_a.pk], STAFF),
]

#: What must never reach anyone who may not open a page of side A.
SECRETS = ("Secret situation A", "Situazione segreta A", "Alice Allieva")
__all__ = ["CASES", "ROLES", "SECRETS", "VISITOR_404"]
