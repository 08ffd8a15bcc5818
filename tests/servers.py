"""The app served as README says (scripts/serve.py: uvicorn, the LAN profile, DEBUG off) in
processes of its own, on a database of its own: a SQLite file, or a PostgreSQL database when
the tests run on PostgreSQL. Several servers can share one database (the cross-process test).

Django's test client and live_server speak WSGI, which reads an async event stream to its end:
only a real ASGI server shows what phones get.
"""

import atexit
import json
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

from django.conf import settings

ROOT = Path(__file__).resolve().parents[1]
PYTHON = sys.executable
CSRF = "clinictestcsrftokenclinictestcsr"  # 32 characters: Django's unmasked secret length


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def postgres() -> bool:
    return settings.DATABASES["default"]["ENGINE"].endswith("postgresql")


class Database:
    """A database for the servers: made, migrated and loaded with the bundled content.

    Migrating and loading take two subprocesses and ~10 s; they run once per test process, into
    a template (a SQLite file, a PostgreSQL template database), and each database is a copy of
    it (milliseconds): the same tables and content, as `migrate` and `content load` wrote them.
    """

    def __init__(self, tmp: Path) -> None:
        if postgres():
            self.name = f"served_{uuid.uuid4().hex[:10]}"
            self.url = _postgres_url(self.name)
            _admin(f'CREATE DATABASE "{self.name}" TEMPLATE "{_template()}"')
        else:
            self.name = ""
            self.url = f"sqlite:///{tmp}/served.sqlite3"
            copy_sqlite(_template(), tmp / "served.sqlite3")
        self.env = _environment(self.url)

    def manage(self, *args: str) -> str:
        return _manage(self.env, *args)

    def query(self, code: str) -> Any:
        """Run `code` (which sets `result`) in the site's Django; its result, through JSON."""
        out = self.manage("shell", "-c", code + "\nimport json; print(json.dumps(result))")
        return json.loads(out.strip().splitlines()[-1])

    def drop(self) -> None:
        if self.name:
            _admin(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')


def _postgres_url(name: str) -> str:
    db = settings.DATABASES["default"]
    host, port = db.get("HOST") or "127.0.0.1", db.get("PORT") or 5432
    user = db.get("USER") or "postgres"
    return f"postgres://{user}@{host}:{port}/{name}"


def _environment(url: str) -> dict[str, str]:
    return {
        **os.environ,
        "DEBUG": "0",
        "DEPLOY_PROFILE": "lan",
        "SECRET_KEY": "served-test-only-not-a-secret",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DATABASE_URL": url,
        "STATIC_MANIFEST": "0",
        "DJANGO_SETTINGS_MODULE": "polotrainer.settings",
        "PYTHONPATH": str(ROOT),
        "LOG_LEVEL": "ERROR",
    }


def _manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [PYTHON, str(ROOT / "manage.py"), *args],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


def _admin(statement: str) -> None:
    import psycopg

    db = settings.DATABASES["default"]
    dsn = (
        f"host={db.get('HOST') or '127.0.0.1'} port={db.get('PORT') or 5432} "
        f"user={db.get('USER') or 'postgres'} dbname=postgres"
    )
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(statement)


_TEMPLATE: dict[str, str] = {}


def _folder() -> str:
    """A folder of this process's, gone when it ends."""
    if "folder" not in _TEMPLATE:
        _TEMPLATE["folder"] = tempfile.mkdtemp(prefix="polotrainer-templates-")
        atexit.register(shutil.rmtree, _TEMPLATE["folder"], ignore_errors=True)
    return _TEMPLATE["folder"]


def copy_sqlite(source: str | Path, target: str | Path) -> None:
    """A SQLite database copied whole (SQLite's backup API: what its log holds too)."""
    with closing(sqlite3.connect(source)) as original, closing(sqlite3.connect(target)) as copy:
        original.backup(copy)


def migrated_sqlite(target: str | Path) -> None:
    """A SQLite file at `target` with every migration applied, as `manage.py migrate` leaves a
    new database: a copy of this process's first one (migrating takes seconds, a copy
    milliseconds)."""
    if "migrated" not in _TEMPLATE:
        made = f"{_folder()}/migrated.sqlite3"
        _manage(_environment(f"sqlite:///{made}"), "migrate", "-v0")
        _TEMPLATE["migrated"] = made
    copy_sqlite(_TEMPLATE["migrated"], target)


def _template() -> str:
    """This process's migrated and loaded database to copy: a SQLite file's path or a
    PostgreSQL database's name; made on first use, gone when the process ends."""
    if "loaded" not in _TEMPLATE:
        if postgres():
            made = f"served_template_{uuid.uuid4().hex[:10]}"
            _admin(f'CREATE DATABASE "{made}"')
            atexit.register(_admin, f'DROP DATABASE IF EXISTS "{made}" WITH (FORCE)')
            env = _environment(_postgres_url(made))
            _manage(env, "migrate", "-v0")
        else:
            made = f"{_folder()}/loaded.sqlite3"
            migrated_sqlite(made)
            env = _environment(f"sqlite:///{made}")
        _manage(env, "content", "load")
        _TEMPLATE["loaded"] = made
    return _TEMPLATE["loaded"]


class Server:
    """One server process (scripts/serve.py, README's production command) on a database; what
    it writes (its log, LOG_LEVEL WARNING) goes to a file, read by `log()`."""

    def __init__(
        self, database: Database, workers: int = 1, env: dict[str, str] | None = None
    ) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        env = {
            **database.env,
            "BIND": f"127.0.0.1:{self.port}",
            "WEB_CONCURRENCY": str(workers),
            "LOG_LEVEL": "WARNING",
            **(env or {}),
        }
        # Closed by stop(), when the server is done writing to it.
        self.output = tempfile.NamedTemporaryFile(prefix="polotrainer-server-", suffix=".log")  # noqa: SIM115
        self.process = subprocess.Popen(
            [PYTHON, str(ROOT / "scripts" / "serve.py")],
            env=env,
            cwd=ROOT,
            stdout=self.output,
            stderr=subprocess.STDOUT,
        )
        for _ in range(200):
            try:
                urllib.request.urlopen(self.base + "/healthz", timeout=1).read()
                return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"the server did not start:\n{self.log()}")

    def log(self) -> str:
        """Everything the server has written so far."""
        return Path(self.output.name).read_text(errors="replace")

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.output.close()


@contextmanager
def served(prefix: str) -> Iterator[tuple[Database, Server]]:
    """A database of its own and one server on it (for a test module's fixture), both gone
    afterwards."""
    with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
        database = Database(Path(tmp))
        running = Server(database)
        try:
            yield database, running
        finally:
            running.stop()
            database.drop()


#: Makes an instructor with a logged-in session and a clinic of SLUGS (with DRILLS, its
#: situations a scene plays are drill rounds); gives the ids, PIN and cookie.
SETUP = """
from django.contrib.auth import (
    BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model,
)
from django.contrib.sessions.backends.db import SessionStore
from polotrainer.umpires import roles
from polotrainer.clinics import sessions
from scenarios.models import Scenario
user, _ = get_user_model().objects.get_or_create(
    username="ines", defaults={"email": "i@example.org"}
)
roles.grant(user)
store = SessionStore()
store[SESSION_KEY] = str(user.pk)
store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
store[HASH_SESSION_KEY] = user.get_session_auth_hash()
store.create()
chosen = list(Scenario.objects.filter(slug__in=SLUGS))
clinic = sessions.create(
    user, TITLE, sessions.Source("scenarios", scenarios=chosen), rounds=len(SLUGS), drills=DRILLS
)
if SPOTTED:
    # Each drill round on a seed whose ruling places the ball (a Safety's spot): the replay
    # then ends on a spot (a seed ruled "no Safety" has none to draw).
    from polotrainer.clinics import drill
    from scenarios import drillable, quiz
    for round_ in clinic.rounds.select_related("scenario"):
        for _ in range(200):
            seed, stop = drill.prepare(round_.scenario)
            posed = quiz.pose(round_.scenario, seed, "en")
            if stop is not None and drillable.scene_of(posed).reveal:
                round_.seed, round_.stop_ms = seed, stop
                round_.save(update_fields=["seed", "stop_ms"])
                break
        else:
            raise AssertionError(f"no seed of {round_.scenario.slug} in 200 has a ruled spot")
result = {"id": clinic.pk, "pin": clinic.pin, "session": store.session_key}
"""

#: Makes N participants of a clinic; gives their rejoin cookies.
PARTICIPANTS = """
from django.core import signing
from polotrainer.clinics.models import ClinicSession, Participant
import secrets
clinic = ClinicSession.objects.get(pk=CLINIC)
made = Participant.objects.bulk_create(
    Participant(
        session=clinic, nickname=f"p{n}", nickname_key=f"p{n}", secret=secrets.token_urlsafe(18)
    )
    for n in range(N)
)
made = Participant.objects.filter(session=clinic).order_by("pk")
result = [
    signing.dumps([clinic.pk, p.pk, p.secret], salt="polotrainer.clinics.participant")
    for p in made
]
"""

#: The answer form of the round on screen (all right), as the phone page would send it.
FORM = """
from polotrainer.clinics.models import ClinicSession
from tests.clinics.support import answer_form
result = answer_form(ClinicSession.objects.get(pk=CLINIC))
"""


#: An open exam drawing every scenario of SLUGS (or, with SLUGS None, COUNT of the scenarios
#: asking two questions or more), N trainees in its cohort with a logged-in session and an open
#: attempt each; per attempt its slots, and per slot each question's own form answering it
#: rightly, as the attempt page's forms send it.
EXAM = """
from datetime import timedelta
from django.contrib.auth import (
    BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model,
)
from django.contrib.sessions.backends.db import SessionStore
from django.utils import timezone
from polotrainer.courses import codes
from polotrainer.courses.exams import attempts
from polotrainer.courses.models import Cohort, Course, Membership
from polotrainer.courses.exams.models import Exam, Review
from scenarios.models import Scenario
from tests.courses.test_exam_flow import right_form
now = timezone.now()
if SLUGS is None:
    chosen = [s for s in Scenario.objects.live().order_by("slug") if len(s.data["question"]) >= 2]
    chosen = chosen[:COUNT]
else:
    chosen = list(Scenario.objects.filter(slug__in=SLUGS))
course = Course.objects.create(title_it="Corso", title_en="Course", track="outdoor", year=2026)
cohort = Cohort(course=course, name=PREFIX)
codes.give_new_code(cohort)
exam = Exam.objects.create(
    cohort=cohort, title_it="Esame", title_en="Exam", pass_percent=95, time_limit_minutes=60,
    opens_at=now - timedelta(hours=1), closes_at=now + timedelta(days=1), attempts_allowed=1,
    review_after_submit=Review.MARKS, review_after_close=Review.ANSWERS,
    blueprint=[{"title_it": "Tutto", "title_en": "All", "count": len(chosen),
                "scenarios": [s.pk for s in chosen]}],
)
result = []
for n in range(N):
    user = get_user_model().objects.create_user(f"{PREFIX}{n}")
    Membership.objects.create(cohort=cohort, user=user)
    store = SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    attempt = attempts.start(exam, user, now)
    slots = []
    for slot in attempt.slots.select_related("scenario").order_by("position"):
        form = right_form(slot)
        questions = [
            {name: form.get(name, []) for name in q.fields} | {"question": q.id}
            for q in attempts.posed(slot, "en").questions
        ]
        slots.append({"position": slot.position, "questions": questions})
    result.append({"session": store.session_key, "attempt": attempt.pk, "slots": slots})
"""


def exam(
    database: Database, prefix: str, n: int, slugs: list[str] | None = None, count: int = 1
) -> list[dict[str, Any]]:
    return database.query(
        f"PREFIX = {prefix!r}\nN = {n}\nSLUGS = {slugs!r}\nCOUNT = {count}\n" + EXAM
    )


#: Every round's answer forms (all right, all wrong), by position, with the round's scenario.
FORMS = """
from polotrainer.clinics.models import Round
from scenarios import quiz
from tests.clinics.support import round_form
result = {}
for r in Round.objects.filter(session_id=CLINIC).select_related("scenario"):
    posed = quiz.pose(r.scenario, r.seed, "en")
    result[r.position] = {
        "slug": r.scenario.slug,
        "right": round_form(posed, r.pk, right=True),
        "wrong": round_form(posed, r.pk, right=False),
    }
"""


def setup(
    database: Database,
    slugs: list[str],
    *,
    drills: bool = False,
    spotted: bool = False,
    title: str = "Stream clinic",
) -> dict[str, Any]:
    """A clinic of `slugs`' rounds run by Ines; with `spotted`, each drill round's seed is one
    whose replay ends on a ruled spot."""
    head = f"SLUGS = {slugs!r}\nDRILLS = {drills!r}\nSPOTTED = {spotted!r}\nTITLE = {title!r}\n"
    return database.query(head + SETUP)


def participants(database: Database, clinic: int, n: int) -> list[str]:
    return database.query(f"CLINIC = {clinic}\nN = {n}\n" + PARTICIPANTS)


def form(database: Database, clinic: int) -> dict[str, Any]:
    return database.query(f"CLINIC = {clinic}\n" + FORM)


def forms(database: Database, clinic: int) -> dict[int, dict[str, Any]]:
    return {int(k): v for k, v in database.query(f"CLINIC = {clinic}\n" + FORMS).items()}
