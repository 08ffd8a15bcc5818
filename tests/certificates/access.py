"""Who may reach each certificate URL: the table test_access.py plays with the six roles of the
courses' table (anonymous, trainee A and B, instructor A and B, staff) over the world of
conftest.py: Ines's course A, cohort A, trainee Alice and her certificate; the same for B."""

from tests.courses.access import EVERYONE, LOGGED_IN, ROLES, Case

__all__ = ["CASES", "ROLES", "SECRETS"]

CASES = [
    Case("mine", lambda w: [], LOGGED_IN),
    Case("name", lambda w: [], LOGGED_IN),
    # Public: anyone verifies, by the QR code's signed text or by a code (POST: 405).
    Case("verify", lambda w: [], EVERYONE, methods=("GET",)),
    Case("certificate", lambda w: [w.certificate_a.pk], frozenset({"trainee_a", "instructor_a"})),
    Case(
        "certificate",
        lambda w: [w.certificate_b.pk],
        frozenset({"trainee_b", "instructor_b"}),
        label="certificate-of-side-b",
    ),
    Case("revoke", lambda w: [w.certificate_a.pk], frozenset({"instructor_a"})),
    Case("cohort", lambda w: [w.cohort_a.pk], frozenset({"instructor_a"})),
    Case("cohort_csv", lambda w: [w.cohort_a.pk], frozenset({"instructor_a"})),
    Case("course_setting", lambda w: [w.course_a.pk], frozenset({"instructor_a"})),
    # Staff: the site's key, trusted issuers, revocation lists in and out.
    Case("keys", lambda w: [], frozenset({"staff"})),
    Case("revocation_list", lambda w: [], frozenset({"staff"})),
    # Staff set the issuing body's place and logo; a logo, by its signed digest, is public.
    Case("issuer", lambda w: [], frozenset({"staff"})),
    Case("logo", lambda w: [_logo()], EVERYONE, methods=("GET",)),
]


def _logo() -> str:
    import io

    from PIL import Image

    from polotrainer.certificates import logos

    out = io.BytesIO()
    Image.new("RGB", (8, 8)).save(out, format="PNG")
    return logos.store(out.getvalue()).digest


#: What must never reach anyone who may not open a page of side A.
SECRETS = ("Alice Allieva Rossi", "Exam A", "Cohort A")
