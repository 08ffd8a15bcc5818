"""Answers under real concurrency: a server in its own processes, 40 clients at once.

The app runs as in production (scripts/serve.py: two worker processes, DEBUG off) on
its own database: a SQLite file (an in-memory database fails at once under concurrency) or a
PostgreSQL database of its own. 40 client threads send 200 answers together: from distinct
umpires, from one umpire, the same form twice, and while `content load` rewrites every
scenario; and an exam's situation gets two of its questions saved at the same moment, 100
times. Nothing may be lost, nothing doubled, and no request may fail.
"""

import http.cookiejar
import re
import subprocess
import sys
import tempfile
import threading
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests import servers
from tests.servers import Database, Server

ROOT = Path(__file__).resolve().parents[2]
PYTHON = sys.executable
CLIENTS = 40
ANSWERS = 200
EXAM_ROUNDS = 100
SLUG = "r21-ex1-safety-on-the-field"  # any bundled scenario; chosen below if it is gone


class Site:
    """The app served as in production (scripts/serve.py, 2 worker processes, each running
    pages in its pool of threads) on a database of its own."""

    def __init__(self, tmp: Path) -> None:
        self.database = Database(tmp)
        self.env = self.database.env
        self.query = self.database.query
        self.server = Server(self.database, workers=2)
        self.base = self.server.base

    def close(self) -> None:
        self.server.stop()
        self.database.drop()


@pytest.fixture(scope="module")
def site():
    with tempfile.TemporaryDirectory(prefix="polotrainer-concurrency-") as tmp:
        running = Site(Path(tmp))
        try:
            yield running
        finally:
            running.close()


class Browser:
    """One client: its own cookies."""

    def __init__(self, base: str, session: str = "") -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.session = session

    def _headers(self) -> dict[str, str]:
        return {"Cookie": f"sessionid={self.session}"} if self.session else {}

    def get(self, path: str) -> str:
        request = urllib.request.Request(self.base + path, headers=self._headers())
        with self.opener.open(request, timeout=60) as response:
            return response.read().decode()

    def post(self, path: str, form: dict[str, str] | dict[str, list[str]]) -> tuple[int, str]:
        csrf = next(c.value for c in self.jar if c.name == "csrftoken")
        headers = {**self._headers(), "X-CSRFToken": csrf, "HX-Request": "true"}
        headers["HX-Target"] = "feedback"
        if self.session:
            headers["Cookie"] += f"; csrftoken={csrf}"
        data = urllib.parse.urlencode(form, doseq=True).encode()
        request = urllib.request.Request(self.base + path, data=data, headers=headers)
        try:
            with self.opener.open(request, timeout=60) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode()

    def question(self, slug: str, seed: int) -> tuple[str, dict[str, str]]:
        """Open a question; the form that answers it (the first option of each question)."""
        page = self.get(f"/en/practice/{slug}/{seed}/")
        form = {"token": re.search(r'name="token" value="([^"]+)"', page).group(1)}
        for name in dict.fromkeys(re.findall(r'type="radio" id="[^"]+" name="(q-[\w-]+)"', page)):
            value = re.search(rf'name="{name}" value="([^"]*)"', page).group(1)
            form[name] = value
        return f"/en/practice/{slug}/{seed}/answer/", form


def _one_question_slugs(site: Site) -> list[str]:
    return site.query(
        "from scenarios.models import Scenario\n"
        "result = sorted(s.slug for s in Scenario.objects.live()\n"
        "    if len(s.data['question']) == 1 and s.kind in ('stoppage', 'substitution'))[:50]"
    )


def _users(site: Site, n: int, prefix: str) -> list[str]:
    """n umpires with a logged-in session each; their session keys."""
    return site.query(
        "from django.contrib.auth import get_user_model, HASH_SESSION_KEY, SESSION_KEY,"
        " BACKEND_SESSION_KEY\n"
        "from django.contrib.sessions.backends.db import SessionStore\n"
        "result = []\n"
        f"for n in range({n}):\n"
        f"    u = get_user_model().objects.create_user('{prefix}%d' % n)\n"
        "    s = SessionStore()\n"
        "    s[SESSION_KEY] = str(u.pk)\n"
        "    s[BACKEND_SESSION_KEY] = 'django.contrib.auth.backends.ModelBackend'\n"
        "    s[HASH_SESSION_KEY] = u.get_session_auth_hash()\n"
        "    s.create()\n"
        "    result.append(s.session_key)\n"
    )


def _count(site: Site, prefix: str) -> dict[str, int]:
    return site.query(
        "from polotrainer.umpires.models import Attempt, DayActivity, ScenarioProgress\n"
        "from django.db.models import Sum\n"
        f"a = Attempt.objects.filter(user__username__startswith='{prefix}')\n"
        "result = {'attempts': a.count(),\n"
        "  'distinct': a.values('nonce').distinct().count(),\n"
        f"  'day': DayActivity.objects.filter(user__username__startswith='{prefix}')"
        ".aggregate(n=Sum('answers'))['n'] or 0,\n"
        f"  'progress': ScenarioProgress.objects.filter(user__username__startswith='{prefix}')"
        ".aggregate(n=Sum('answers'))['n'] or 0}"
    )


def _fire(jobs) -> list:
    with ThreadPoolExecutor(CLIENTS) as pool:
        return list(pool.map(lambda job: job(), jobs))


def _prepared(site: Site, sessions: list[str], slugs: list[str], per_user: int):
    """Open every question first (tokens in hand), so the answers can all go at once."""
    prepared = []
    seed = 1
    for session in sessions:
        browser = Browser(site.base, session)
        for i in range(per_user):
            seed += 1
            prepared.append((browser, *browser.question(slugs[i % len(slugs)], seed)))
    return prepared


def test_distinct_umpires_answering_together_lose_nothing(site):
    slugs = _one_question_slugs(site)
    sessions = _users(site, CLIENTS, "many")
    prepared = _prepared(site, sessions, slugs, ANSWERS // CLIENTS)
    results = _fire([lambda p=p: p[0].post(p[1], p[2]) for p in prepared])
    assert [status for status, _ in results] == [200] * ANSWERS
    assert _count(site, "many") == {
        "attempts": ANSWERS,
        "distinct": ANSWERS,
        "day": ANSWERS,
        "progress": ANSWERS,
    }


def test_one_umpire_answering_from_forty_tabs_loses_nothing(site):
    slugs = _one_question_slugs(site)[:5]  # few scenarios: many first answers collide
    (session,) = _users(site, 1, "tabs")
    prepared = _prepared(site, [session], slugs, ANSWERS)
    results = _fire([lambda p=p: p[0].post(p[1], p[2]) for p in prepared])
    assert [status for status, _ in results] == [200] * ANSWERS
    assert all("already answered" not in body for _, body in results)
    assert _count(site, "tabs") == {
        "attempts": ANSWERS,
        "distinct": ANSWERS,
        "day": ANSWERS,
        "progress": ANSWERS,
    }


def test_the_same_form_sent_twice_at_once_is_recorded_once(site):
    slugs = _one_question_slugs(site)
    sessions = _users(site, CLIENTS, "twice")
    prepared = _prepared(site, sessions, slugs, 2)
    doubled = [p for p in prepared for _ in range(2)]
    results = _fire([lambda p=p: p[0].post(p[1], p[2]) for p in doubled])
    assert [status for status, _ in results] == [200] * len(doubled)
    duplicates = sum("already answered" in body for _, body in results)
    assert duplicates == len(prepared)
    assert _count(site, "twice")["attempts"] == len(prepared)


def test_answers_while_the_content_is_loaded_again_are_all_recorded(site):
    slugs = _one_question_slugs(site)
    sessions = _users(site, CLIENTS, "loading")
    prepared = _prepared(site, sessions, slugs, ANSWERS // CLIENTS)
    loads: list[int] = []

    def load_again() -> None:
        while not done.is_set():
            loads.append(
                subprocess.run(
                    [PYTHON, str(ROOT / "manage.py"), "content", "load"],
                    env=site.env,
                    cwd=ROOT,
                    capture_output=True,
                ).returncode
            )

    done = threading.Event()
    loader = threading.Thread(target=load_again)
    loader.start()
    try:
        results = _fire([lambda p=p: p[0].post(p[1], p[2]) for p in prepared])
    finally:
        done.set()
        loader.join()
    assert loads and set(loads) == {0}
    assert [status for status, _ in results] == [200] * ANSWERS
    assert _count(site, "loading")["attempts"] == ANSWERS


def test_two_questions_of_one_exam_situation_saved_at_once_are_both_kept(site):
    """What static/js/exam.js does when a phone comes back online and sends its pending answers
    (and what two tabs do): each question's own form, at the same moment. 100 trainees, each
    with a situation of two questions or more: both saves answered "Saved", both answers kept."""
    rounds = servers.exam(site.database, "exam", EXAM_ROUNDS)
    statuses = []
    for sitting in rounds:
        (slot,) = sitting["slots"]
        page = f"/en/courses/exam/attempt/{sitting['attempt']}/"
        browser = Browser(site.base, sitting["session"])
        browser.get(page)  # its CSRF cookie
        barrier = threading.Barrier(2)

        def send(form, browser=browser, url=f"{page}q/{slot['position']}/", barrier=barrier):
            barrier.wait()
            return browser.post(url, form)

        with ThreadPoolExecutor(2) as pool:
            statuses += pool.map(send, slot["questions"][:2])
    assert [status for status, _ in statuses] == [200] * 2 * EXAM_ROUNDS
    assert all("Saved at" in body for _, body in statuses)
    lost = site.query(
        "from polotrainer.courses.exams.models import ExamSlot\n"
        "from polotrainer.courses.exams import attempts\n"
        "result = 0\n"
        "for slot in ExamSlot.objects.filter(attempt__user__username__startswith='exam')"
        ".select_related('scenario'):\n"
        "    asked = [q.id for q in attempts.posed(slot, 'en').questions][:2]\n"
        "    result += len(set(asked) - set(slot.given))\n"
    )
    assert lost == 0, f"{lost} of {2 * EXAM_ROUNDS} answers lost"
