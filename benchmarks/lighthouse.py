"""Lighthouse's four scores, on a phone (its mobile defaults), for the pages people open most:
home, a practice question, an exam being sat, a clinic's projector and phone, and the verify
page, in Italian and in English.

    .venv/bin/python benchmarks/lighthouse.py [--lang it|en|both] [--runs 1]

The site is served as README says for a club (tests/servers.py: scripts/serve.py, uvicorn, the
LAN profile, DEBUG off, hashed and compressed static files) on a SQLite database of its own,
with the bundled content, an instructor, a trainee sitting an exam, a clinic in its first round
with a phone in the room, and a signed certificate. Lighthouse (benchmarks/lighthouse/, pinned
in its package-lock.json; `npm ci` there on the first run) drives Debian's chromium
(CHROME_PATH, default /usr/bin/chromium), signed in through a cookie header where the page
needs it.

Accessibility, best practices and SEO must be 95 or more (SEO is lower where a page says
`noindex` on purpose: the exam, the projector, the phone, a certificate's verify page); the
script exits 1 when one is not. Performance is timing on a shared 2-core machine: reported,
never a pass mark.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIGHTHOUSE = ROOT / "benchmarks" / "lighthouse"
CLI = LIGHTHOUSE / "node_modules" / "lighthouse" / "cli" / "index.js"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
MUST = 95
#: Pages that ask search engines to stay away (a person's own sitting, a room, a holder's name).
NOINDEX = frozenset({"exam", "projector", "phone", "verify"})

SETUP = """
from datetime import timedelta
from django.contrib.auth import (
    BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model,
)
from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions.backends.db import SessionStore
from django.core import signing
from django.utils import timezone
import secrets
from polotrainer.certificates import issuing
from polotrainer.clinics import control, room, sessions
from polotrainer.clinics.models import Participant
from polotrainer.courses import codes
from polotrainer.umpires import roles
from polotrainer.courses.exams import attempts
from polotrainer.courses.models import Cohort, Course, Membership
from polotrainer.courses.exams.models import Exam
from polotrainer.umpires.models import Profile
from scenarios.models import Rule, Scenario

def person(username, name, language):
    user = get_user_model().objects.create_user(username, f"{username}@example.org")
    Profile.objects.create(user=user, display_name=name, language=language)
    store = SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    return user, store.session_key

ines, ines_session = person("ines", "Ines Istruttrice", "it")
roles.grant(ines)
alice, alice_session = person("alice", "Alice Allieva", "it")
course = Course.objects.create(
    title_it="Corso arbitri", title_en="Umpire course", track="outdoor", year=2026
)
course.instructors.add(ines)
cohort = Cohort(course=course, name="Primavera")
codes.give_new_code(cohort)
Membership.objects.create(cohort=cohort, user=alice)
now = timezone.now()
rule37 = list(Scenario.objects.live().filter(section__rule__number=37).values_list("pk", flat=True))
exam = Exam.objects.create(
    cohort=cohort, title_it="Esame finale", title_en="Final exam", pass_percent=95,
    time_limit_minutes=30, opens_at=now - timedelta(hours=1), closes_at=now + timedelta(days=1),
    blueprint=[{"title_it": "Regola 37", "title_en": "Rule 37", "count": 10, "scenarios": rule37}],
)
attempt = attempts.start(exam, alice, now)
clinic = sessions.create(
    ines, "Clinic sulla Regola 37", sessions.Source("rule", rule=Rule.objects.get(number=37)),
    rounds=5,
)
control.act(clinic.pk, "show")
player = room.join(clinic, "Chiara", AnonymousUser(), "it")
rejoin = signing.dumps(
    [clinic.pk, player.pk, player.secret], salt="polotrainer.clinics.participant"
)
issuing.set_name(alice, "Alice Allieva Rossi")
certificate = issuing.issue(user=alice, cohort=cohort, kind="completion", by=ines)
result = {
    "trainee": alice_session, "instructor": ines_session, "attempt": attempt.pk,
    "clinic": clinic.pk, "pin": clinic.pin, "rejoin": [room.cookie_name(clinic), rejoin],
    "code": certificate.code,
}
"""


def pages(made: dict, lang: str) -> dict[str, tuple[str, str]]:
    """Each page: its path, and the Cookie header it is opened with."""
    trainee, instructor = f"sessionid={made['trainee']}", f"sessionid={made['instructor']}"
    name, value = made["rejoin"]
    return {
        "home": (f"/{lang}/", ""),
        "practice": (f"/{lang}/practice/", ""),
        "exam": (f"/{lang}/courses/exam/attempt/{made['attempt']}/", trainee),
        "projector": (f"/{lang}/clinics/{made['clinic']}/", instructor),
        "phone": (f"/{lang}/play/{made['pin']}/", f"{name}={value}"),
        "verify": (f"/{lang}/certificates/verify/?code={made['code']}", ""),
    }


def lighthouse(url: str, cookie: str, out: Path) -> dict[str, int]:
    """The four category scores (0-100) of one Lighthouse run on a phone."""
    env = {**os.environ, "CHROME_PATH": os.environ.get("CHROME_PATH", "/usr/bin/chromium")}
    args = [
        "node",
        str(CLI),
        url,
        "--quiet",
        "--output=json",
        f"--output-path={out}",
        f"--only-categories={','.join(CATEGORIES)}",
        "--chrome-flags=--headless=new --no-sandbox --disable-gpu --no-first-run",
        "--disable-full-page-screenshot",
    ]
    if cookie:
        args.append(f"--extra-headers={json.dumps({'Cookie': cookie})}")
    subprocess.run(args, env=env, check=True, timeout=300)
    report = json.loads(out.read_text())
    return {c: round((report["categories"][c]["score"] or 0) * 100) for c in CATEGORIES}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lang", choices=["it", "en", "both"], default="both")
    parser.add_argument("--runs", type=int, default=1, help="runs per page (the median is shown)")
    options = parser.parse_args()
    if shutil.which("node") is None:
        print("Lighthouse needs Node.js (npm) on the PATH.")
        return 2
    if not CLI.exists():
        install = ["npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund"]
        subprocess.run(install, cwd=LIGHTHOUSE, check=True)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "polotrainer.settings")
    os.environ["DEBUG"] = "1"  # this process only makes the key; the server runs with DEBUG off
    os.environ.pop("DATABASE_URL", None)  # a SQLite file of its own, whatever the shell says
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from polotrainer.certificates import signing
    from tests import servers

    failed = []
    with tempfile.TemporaryDirectory(prefix="polotrainer-lighthouse-") as tmp:
        os.environ["CERTIFICATE_SIGNING_KEY"] = signing.b64e(signing.generate().private_bytes_raw())
        database = servers.Database(Path(tmp))
        database.manage("collectstatic", "--noinput", "-v0")
        made = database.query(SETUP)
        server = servers.Server(database, workers=1)
        try:
            langs = ("it", "en") if options.lang == "both" else (options.lang,)
            print(f"Lighthouse on a phone (mobile defaults), {server.base}, runs: {options.runs}")
            print(f"{'page':<16}" + "".join(f"{c:>16}" for c in CATEGORIES))
            for lang in langs:
                for name, (path, cookie) in pages(made, lang).items():
                    runs = [
                        lighthouse(server.base + path, cookie, Path(tmp) / f"{name}-{n}.json")
                        for n in range(options.runs)
                    ]
                    scores = {c: sorted(r[c] for r in runs)[len(runs) // 2] for c in CATEGORIES}
                    row = f"{lang} {name:<13}" + "".join(f"{scores[c]:>16}" for c in CATEGORIES)
                    print(row, flush=True)
                    for c in CATEGORIES[1:]:
                        if scores[c] < MUST and not (c == "seo" and name in NOINDEX):
                            failed.append(f"{lang} {name}: {c} {scores[c]} < {MUST}")
        finally:
            server.stop()
            database.drop()
    for line in failed:
        print("below the mark:", line)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
