"""Every page a user can reach, with the demo's data, passes axe-core (critical, serious and
moderate) at 360 px and 1280 px in both languages, and its HTML passes the Nu Html Checker.

The pages are found, not listed: from the home page, as each of the demo's people (signed out,
Anna, Sophie who reads English, the instructor, and a staff member), the crawl follows the
site's own links in each language. A URL name is one screen, so it is looked at on a few
instances (INSTANCES), except the pages that are each person's own (PERSONAL), looked at for
every person. Then the pages behind a POST: a practice question answered, an exam sat to its
result, a clinic's projector in each phase and a phone in the room.

Each page's HTML as served (the response's body; after a swap, the page's DOM) is saved under
artifacts/html/, and one run of vnu.jar (the vnu-jar npm package and Debian's headless JRE,
both installed by .ci/run) checks the folder, bar the htmx and SSE attributes it does not know.
One browser, one live server; the phone and the desktop look at each page side by side.
"""

import asyncio
import json
import os
import re
import shutil
import subprocess
import time
from collections import Counter, deque
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import Resolver404, resolve
from django.utils import translation

from polotrainer import demo
from polotrainer.clinics.models import ClinicSession
from polotrainer.courses.exams.models import Exam
from tests import aio
from tests.browser.conftest import CHROMIUM, DESKTOP, PHONE
from tests.browser.support import ANSWER_SOMETHING, AXE

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]
HTML = ROOT / "artifacts" / "html"
VNU = ROOT / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"
LANGS = ("it", "en")
STAFF = "demo-staff"
PEOPLE = (None, "demo-anna", "demo-sophie", demo.INSTRUCTOR.username, STAFF)
#: axe-core's impacts that fail the test; "minor" ones are left to judgement.
FAILING = frozenset({"critical", "serious", "moderate"})
#: How many instances of one URL name (one screen) are looked at, in each language.
INSTANCES = 2
#: Screens whose content is the person's own: looked at once for every person.
PERSONAL = frozenset({"home", "umpires:dashboard", "courses:mine", "certificates:mine"})
#: A crawl that finds more than this many pages for one person is going round in circles.
MOST = 150
#: The clinic's live event streams and the polling that stands in for them: the WSGI test
#: server cannot hold a stream open, and shares one SQLite connection between its threads, so
#: no request may run beside another. What they would update is checked by loading the page.
STREAMS = re.compile(r"/(events|state)/$")
LINKS = """() => [...document.querySelectorAll('a[href]')]
  .filter(a => !a.hasAttribute('download')).map(a => a.href)"""
RUN_AXE = """() => axe.run(document, {resultTypes: ['violations']}).then(r => r.violations.map(
  v => ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map(n => n.target)})
))"""


@dataclass
class Findings:
    """What the crawl saw and what failed, for one report at the end."""

    pages: Counter[str] = field(default_factory=Counter)  # URL name -> pages looked at
    seconds: Counter[str] = field(default_factory=Counter)  # URL name -> time spent on them
    problems: list[str] = field(default_factory=list)
    files: int = 0

    def axe(self, where: str, width: int, violations: list[dict]) -> None:
        for v in violations:
            if v["impact"] in FAILING:
                self.problems.append(
                    f"{where} @{width}px: {v['id']} ({v['impact']}) {v['help']} {v['nodes']}"
                )

    def save(self, html: str, person: str | None, path: str) -> None:
        name = re.sub(r"[^A-Za-z0-9.-]+", "_", f"{person or 'visitor'}{path}").strip("_")[:150]
        (HTML / f"{self.files:03d}-{name}.html").write_text(html, "utf-8")
        self.files += 1


def url_name(path: str) -> str | None:
    """The URL name a path resolves to, in the language of its prefix (None: not ours)."""
    lang = path.split("/")[1]
    if lang not in LANGS:
        return None
    try:
        with translation.override(lang):
            return resolve(urlsplit(path).path).view_name
    except Resolver404:
        return None


class Crawl:
    """One browser; for each person a phone and a desktop context, each page on both at once."""

    def __init__(self, browser, base: str, findings: Findings) -> None:
        self.browser, self.base, self.findings = browser, base, findings
        self.seen: Counter[tuple[str, str]] = Counter()  # (lang, URL name) -> instances

    async def person(self, who: str | None, cookies: list[dict]) -> "Person":
        made = []
        for viewport in (PHONE, DESKTOP):
            mobile = viewport is PHONE
            context = await self.browser.new_context(
                viewport=viewport, base_url=self.base, is_mobile=mobile, has_touch=mobile
            )
            await context.add_init_script(AXE)
            await context.route(STREAMS, lambda route: route.abort())
            if cookies:
                await context.add_cookies(cookies)
            made.append(await context.new_page())
        return Person(self, who, *made)

    def wanted(self, who: str | None, lang: str, name: str) -> bool:
        key = (lang, name if name not in PERSONAL else f"{name} {who}")
        if self.seen[key] >= (1 if name in PERSONAL else INSTANCES):
            return False
        self.seen[key] += 1
        return True


@dataclass
class Person:
    site: Crawl
    who: str | None
    phone: object
    desktop: object

    async def look(self, path: str) -> list[str]:
        """Open the page on both, check it with axe, save its HTML; its links (the phone's)."""
        started = time.monotonic()
        # One request at a time: the test server shares one SQLite connection between its
        # threads. The two axe runs, in the browser, go side by side.
        opened = [await self._open(page, path) for page in (self.phone, self.desktop)]
        if any(status is None for status, _body in opened):
            return []  # a download: not a page
        findings = self.site.findings
        where = f"{self.who or 'visitor'} {path}"
        checks = await asyncio.gather(*(p.evaluate(RUN_AXE) for p in (self.phone, self.desktop)))
        for (status, _body), violations, width in zip(opened, checks, (360, 1280), strict=True):
            if status != 200:
                findings.problems.append(f"{where} @{width}px: HTTP {status}")
            findings.axe(where, width, violations)
        findings.pages[url_name(path) or path] += 1
        findings.seconds[url_name(path) or path] += time.monotonic() - started
        findings.save(opened[0][1], self.who, path)
        return await self.phone.evaluate(LINKS)

    async def check_here(self, label: str) -> None:
        """Check what both pages show now (after a form, a swap), saving the phone's DOM."""
        findings = self.site.findings
        checks = await asyncio.gather(*(p.evaluate(RUN_AXE) for p in (self.phone, self.desktop)))
        for violations, width in zip(checks, (360, 1280), strict=True):
            findings.axe(f"{self.who or 'visitor'} {label}", width, violations)
        findings.pages[label] += 1
        findings.save(await self.phone.content(), self.who, f"/{label}")

    async def _open(self, page, path: str) -> tuple[int | None, str]:
        """The page's status and served HTML; no status for a download or a file."""
        try:
            response = await page.goto(path)
        except Exception as exc:  # Playwright says a download in words only
            if "Download is starting" in str(exc):
                return None, ""
            raise
        if "html" not in response.headers.get("content-type", ""):
            return None, ""
        return response.status, await response.text()

    async def crawl(self, lang: str) -> None:
        """Every page reachable from the home page by the site's links, in one language."""
        queue, done = deque([f"/{lang}/"]), set()
        while queue and len(done) < MOST:
            path = queue.popleft()
            name = url_name(path)
            if path in done or name is None or not self.site.wanted(self.who, lang, name):
                continue
            done.add(path)
            for href in await self.look(path):
                parts = urlsplit(href)
                if f"{parts.scheme}://{parts.netloc}" != self.site.base:
                    continue
                if parts.path.startswith(f"/{lang}/"):
                    queue.append(urlunsplit(("", "", parts.path, parts.query, "")))
        assert len(done) < MOST, f"{self.who}: more than {MOST} pages in /{lang}/"

    async def close(self) -> None:
        for page in (self.phone, self.desktop):
            await page.context.close()


def _cookies(username: str | None, base: str) -> list[dict]:
    if username is None:
        return []
    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    return [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": base}]


async def _practice(person: Person, lang: str) -> None:
    """A practice question answered: the feedback swapped in, then what it links to."""
    for page in (person.phone, person.desktop):
        await page.goto(f"/{lang}/practice/")
        await page.evaluate(ANSWER_SOMETHING)
        await page.locator("#quiz button[type=submit]").click()
        await page.locator("#feedback-heading").wait_for()
    await person.check_here(f"{lang}/practice-answered")
    for href in await person.phone.evaluate(LINKS):
        path = urlsplit(href).path + (f"?{urlsplit(href).query}" if urlsplit(href).query else "")
        if url_name(path) == "practice:whatif":
            await person.look(path)
            break


async def _exam(person: Person, exam_id: int) -> None:
    """The open exam sat through on the phone: started, answered, submitted; each step on both."""
    phone = person.phone
    await phone.goto(f"/en/courses/exam/{exam_id}/")
    await phone.locator("main form button[type=submit]").click()
    await phone.wait_for_url("**/courses/exam/attempt/**")
    attempt = urlsplit(phone.url).path.split("/")[-2]
    for lang in LANGS:
        await person.look(f"/{lang}/courses/exam/attempt/{attempt}/")
        await person.look(f"/{lang}/courses/exam/{exam_id}/")
    await phone.goto(f"/en/courses/exam/attempt/{attempt}/")
    forms = phone.locator("form.exam-form:has(input[type=radio])")
    await forms.first.locator("input[type=radio]").first.check()
    await forms.first.locator(".saved-mark.saved").wait_for()
    for lang in LANGS:
        await person.look(f"/{lang}/courses/exam/attempt/{attempt}/submit/")
    await phone.goto(f"/en/courses/exam/attempt/{attempt}/submit/")
    await phone.locator("main form button[type=submit]").click()
    await phone.wait_for_url("**/result/")
    for lang in LANGS:
        await person.look(f"/{lang}/courses/exam/attempt/{attempt}/result/")


async def _clinic(instructor: Person, player: Person, clinic: ClinicSession) -> None:
    """The projector in each phase, and a phone in the room, from the PIN to the reveal."""
    projector, phone = instructor.desktop, player.phone
    for lang in LANGS:
        await player.look(f"/{lang}/play/")
    await phone.goto("/en/play/")
    await phone.locator("#id_pin").fill(clinic.pin)
    await phone.locator("form.pin-entry button").click()
    await phone.locator("#id_nickname").fill("Checker")
    await phone.locator("main form button[type=submit]").click()
    await phone.wait_for_url(f"**/play/{clinic.pin}/")

    async def both(phase: str) -> None:
        for lang in LANGS:
            await instructor.look(f"/{lang}/clinics/{clinic.pk}/")
            if phase != "ended":  # then the PIN is free again: the room's phones hold the end
                await player.look(f"/{lang}/play/{clinic.pin}/")

    await both("lobby")
    for action, phase in (
        ("show", "open"),
        ("close", "closed"),
        ("reveal", "revealed"),
        ("leaderboard", "leaderboard"),
        ("end", "ended"),
    ):
        await projector.goto(f"/en/clinics/{clinic.pk}/")
        await projector.locator(f"button[data-action={action}]").click()
        await projector.locator(f"[data-phase={phase}]").wait_for()
        if phase == "open":
            await phone.goto(f"/en/play/{clinic.pin}/")
            await phone.evaluate(ANSWER_SOMETHING)
            await phone.locator("#quiz button[type=submit]").click()
            await phone.wait_for_selector(".received, [role=alert]")
            await player.check_here("play-answered")
        await both(phase)


async def _run(base: str, findings: Findings, exam_id: int, clinic: ClinicSession) -> None:
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        browser = await pw.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu", "--no-first-run"]
        )
        crawl = Crawl(browser, base, findings)
        people = {}
        for who in PEOPLE:
            people[who] = person = await crawl.person(who, _cookies(who, base))
            for lang in LANGS:
                await person.crawl(lang)
        for lang in LANGS:
            await _practice(people[None], lang)
            await _practice(people["demo-anna"], lang)
        await _exam(people["demo-sophie"], exam_id)
        await _clinic(people[demo.INSTRUCTOR.username], people[None], clinic)
        for person in people.values():
            await person.close()
        await browser.close()


def _nu_errors() -> list[str]:
    """The Nu Html Checker's errors on every saved page, in one run."""
    java = shutil.which("java")
    if not (java and VNU.exists()):
        if os.environ.get("CI"):
            pytest.fail(
                "vnu.jar or java missing: .ci/run installs them (npm ci, default-jre-headless)"
            )
        pytest.skip(
            "no Nu Html Checker here: `npm ci` and a JRE (apt-get install default-jre-headless)"
        )
    run = subprocess.run(
        [java, "-jar", str(VNU), "--errors-only", "--exit-zero-always", "--format", "json",
         "--filterpattern", ".*(hx-|sse-).*", str(HTML)],
        capture_output=True, text=True, timeout=600, check=True,
    )  # fmt: skip
    messages = json.loads(run.stderr or run.stdout)["messages"]
    return [
        f"{Path(m.get('url', '')).name}:{m.get('lastLine', '?')}: {m['message']}"
        f" — {m.get('extract', '').strip()[:100]!r}"
        for m in messages
    ]


# ~5 minutes on a quiet machine; beside the fuzzing on CI's other core it ran past 10.
@pytest.mark.timeout(1200)
def test_every_page_passes_axe_and_the_nu_checker_in_both_languages_at_both_widths(
    demo_site, live_server
):
    get_user_model().objects.create_user(STAFF, "staff@example.org", demo.PASSWORD, is_staff=True)
    shutil.rmtree(HTML, ignore_errors=True)
    HTML.mkdir(parents=True)
    exam = Exam.objects.get(title_en=demo.EXAM_OPEN["en"])
    clinic = ClinicSession.objects.get(title=demo.CLINIC_TITLE)
    findings = Findings()
    aio.run(_run(live_server.url, findings, exam.pk, clinic))
    slowest = findings.seconds.most_common(8)
    print(
        f"{sum(findings.pages.values())} pages, {len(findings.pages)} screens; slowest:",
        ", ".join(f"{name} {s:.0f}s/{findings.pages[name]}" for name, s in slowest),
    )
    # Enough was seen: every app's screens, as each kind of person meets them.
    assert {
        "home",
        "scenarios:section",
        "practice:question",
        "umpires:dashboard",
        "courses:gradebook",
        "courses:exam_results",
        "courses:exam_attempt",
        "certificates:certificate",
        "certificates:keys",
        "courses:instructors",
        "clinics:projector",
        "clinics:play",
    } <= set(findings.pages), sorted(findings.pages)
    assert not findings.problems, f"{len(findings.problems)} problems:\n" + "\n".join(
        findings.problems
    )
    errors = _nu_errors()
    assert not errors, f"Nu Html Checker, {len(errors)} errors:\n" + "\n".join(errors)
