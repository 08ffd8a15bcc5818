"""Certificates: signing and verifying speed, the size of what the QR code carries, and the
verify page's queries and time.

    .venv/bin/python benchmarks/certificates.py

Runs on a throwaway SQLite file with a fresh key (CERTIFICATE_SIGNING_KEY). Prints: Ed25519
signatures and verifications per second (one core), issue-and-sign per second through the
database, the payload, token and verify-URL lengths and the QR version for a typical
certificate and for one with every field at its maximum length, and the verify page (by signed
URL, by code, tampered) as queries and the median of 50 requests.
"""

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
TMP = tempfile.mkdtemp(prefix="polotrainer-bench-")
os.environ["DATABASE_URL"] = f"sqlite:///{TMP}/bench.sqlite3"
os.environ.setdefault("SECRET_KEY", "benchmark-only")
os.environ.setdefault("DEPLOY_PROFILE", "lan")
os.environ.setdefault("STATIC_MANIFEST", "0")  # no collectstatic for a benchmark
os.environ.setdefault("ALLOWED_HOSTS", "testserver")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "polotrainer.settings")

import base64  # noqa: E402
import secrets  # noqa: E402

os.environ["CERTIFICATE_SIGNING_KEY"] = base64.urlsafe_b64encode(secrets.token_bytes(32)).decode()

import django  # noqa: E402

django.setup()

import segno  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402

from polotrainer.certificates import issuing, signing  # noqa: E402
from polotrainer.certificates.models import Kind  # noqa: E402
from polotrainer.courses import codes  # noqa: E402
from polotrainer.courses.models import Cohort, Course, Membership  # noqa: E402


class Counter:
    def __init__(self) -> None:
        self.count = 0

    def __call__(self, execute, sql, params, many, context):  # type: ignore[no-untyped-def]
        self.count += 1
        return execute(sql, params, many, context)


def rate(fn, seconds: float = 1.0) -> float:
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        fn()
        count += 1
    return count / (time.perf_counter() - start)


def sizes(label: str, certificate) -> None:
    token = issuing.token(certificate)
    url = f"https://trainer.example.org/certificates/verify/?c={token}"
    qr = segno.make(url, error="l", boost_error=True, micro=False)
    print(
        f"  {label}: payload {len(signing.b64d(certificate.payload))} bytes, token {len(token)},"
        f" URL {len(url)} characters, QR version {qr.version} ({qr.error}),"
        f" {qr.symbol_size(scale=1, border=0)[0]} modules a side"
    )


def main() -> None:
    call_command("migrate", verbosity=0)
    key = signing.signing_key()
    assert key is not None
    public = key.public_key()
    payload = b"x" * 350
    signature = key.sign(payload)
    print("Ed25519 (cryptography), one core:")
    print(f"  sign   {rate(lambda: key.sign(payload)):8.0f} /s")
    print(f"  verify {rate(lambda: public.verify(signature, payload)):8.0f} /s")

    users = get_user_model().objects
    alice = users.create_user("alice", "alice@example.org", "x")
    bea = users.create_user("bea", "bea@example.org", "x")
    issuing.set_name(alice, "Alice Maria Rossi")
    issuing.set_name(bea, ("Beatrice Maria " * 9)[:119].strip())
    course = Course.objects.create(
        title_it="Corso arbitri outdoor 2026",
        title_en="Outdoor umpire course 2026",
        track="outdoor",
        year=2026,
    )
    cohort = Cohort(course=course, name="Spring")
    codes.give_new_code(cohort)
    Membership.objects.create(cohort=cohort, user=alice)
    long_course = Course.objects.create(
        title_it=("Corso avanzato per arbitri di polo outdoor " * 5)[:200],
        title_en=("Advanced outdoor umpire course " * 7)[:200],
        track="arena",
        year=2026,
    )
    long_cohort = Cohort(course=long_course, name="Autumn")
    codes.give_new_code(long_cohort)

    def one() -> None:
        issuing.issue(user=alice, cohort=cohort, kind=Kind.COMPLETION)

    print(f"issue and sign, SQLite: {rate(one, 2.0):.0f} certificates/s")
    typical = issuing.issue(
        user=alice,
        cohort=cohort,
        kind=Kind.EXAM,
        exam_titles=("Esame finale", "Final exam"),
        score_percent=96.5,
    )
    longest = issuing.issue(
        user=bea,
        cohort=long_cohort,
        kind=Kind.EXAM,
        exam_titles=(("Esame finale, Regola 37 " * 9)[:200], ("Final exam, Rule 37 " * 10)[:200]),
        score_percent=100,
    )
    print("What the QR code carries:")
    sizes("typical", typical)
    sizes("longest", longest)

    client = Client()
    token = issuing.token(typical)
    cases = {
        "signed URL": {"c": token},
        "code": {"code": typical.grouped_code},
        "tampered": {"c": token[:30] + ("A" if token[30] != "A" else "B") + token[31:]},
    }
    print("Verify page (in process, median of 50):")
    words = {"signed URL": b"Valid", "code": b"Valid", "tampered": b"Not valid"}
    for name, params in cases.items():
        response = client.get("/en/certificates/verify/", params)
        assert response.status_code == 200 and words[name] in response.content, name
        # Counted by a wrapper: each request's start empties the debug query log.
        queries = Counter()
        with connection.execute_wrapper(queries):
            client.get("/en/certificates/verify/", params)
        times = []
        for _ in range(50):
            start = time.perf_counter()
            client.get("/en/certificates/verify/", params)
            times.append(time.perf_counter() - start)
        median = statistics.median(times) * 1000
        print(f"  {name:10}: {queries.count} queries, {median:.1f} ms")


if __name__ == "__main__":
    main()
