"""Who may reach what: every URL of every app x every role x GET and POST, and nothing leaks.

The URL patterns are discovered by walking the resolver (tests/site/urlmap.py): a URL without a
row in MATRIX fails `test_every_url_has_a_row`, so no new page escapes this harness. Each cell
sends one request as one role and asserts
- the status the row expects for that role (LOGIN: a redirect to the log-in page),
- that nobody else's data appears in the body or in a redirect's Location: every person in the
  world below carries marks (a display name, an e-mail, the seeds of their answers) that must
  never show up anywhere but on their own pages,
- that a personal answer is `Cache-Control: private, no-store`.

Adding to it, when the other apps land:
- A URL: one row. `public()` for pages anyone sees; `personal()` for pages of the logged-in
  person's own data (a visitor is sent to log in); `Row(get=Expect(...), post=Expect(...))`
  for anything else. `Expect(anonymous=..., member=..., roles={"instructor_a": 200})` gives
  the status per role: `member` is every logged-in role without an entry of its own.
- A URL that names an object (a course, a cohort, an exam, a certificate, a clinic): give the
  row `kwargs=lambda world, role: {...}` choosing the object to ask for, and `others=404`.
  Each role then asks for its own object (the row's Expect) and for someone else's (others),
  so "trainee B opens trainee A's exam" is a cell of its own.
- A role: one entry in ROLES (how to make the person and their objects, and their marks). An
  instructor A/B would own a course each with trainees in cohorts; a clinic participant would
  join a clinic; each role's marks are what must not leak to the others.
- An app with people of its own (courses: instructors A and B, trainees in cohorts) may keep its
  table with its tests (tests/courses/access.py, played by tests/courses/test_access.py with
  the same six roles); `delegated()` lists those URLs here, and the app's own test fails on a
  URL of its app without a row.
"""

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from polotrainer.umpires.models import Profile
from scenarios.models import Scenario
from tests.people import answer
from tests.site.urlmap import Route, routes

LOGIN = "login"  # expected: a redirect to the log-in page
Status = int | str | frozenset[int]


@dataclass(frozen=True)
class Expect:
    """The status each role gets: anonymous, any logged-in member, or a named role."""

    anonymous: Status
    member: Status
    roles: dict[str, Status] = field(default_factory=dict)

    def of(self, role: str) -> Status:
        if role in self.roles:
            return self.roles[role]
        return self.anonymous if role == "anonymous" else self.member


@dataclass(frozen=True)
class Row:
    get: Expect
    post: Expect
    kwargs: "Kwargs | None" = None  # the path parameters a role asks with (its own object)
    others: Status | None = None  # the status when a member asks for someone else's object


Kwargs = Callable[["World", str], dict[str, str]]


def public(get: Status = 200, post: Status = 405, kwargs: Kwargs | None = None) -> Row:
    return Row(Expect(get, get), Expect(post, post), kwargs)


def personal(get: Status = 200, post: Status = 405, kwargs: Kwargs | None = None) -> Row:
    return Row(Expect(LOGIN, get), Expect(LOGIN, post), kwargs)


#: Seeds of the answers each person gave, shown on their history and in their CSV.
SEEDS = {"trainee_a": 727272, "trainee_b": 838383, "staff": 949494}


@dataclass(frozen=True)
class Role:
    """A person in the story: how to make them (and what they own) and what marks them."""

    name: str
    username: str
    staff: bool = False

    @property
    def marks(self) -> set[str]:
        return {
            f"{self.username}@example.org",
            f"Marker-{self.username}",
            str(SEEDS[self.name]),
        }


ROLES = {
    "anonymous": None,
    "trainee_a": Role("trainee_a", "alice_tq"),
    "trainee_b": Role("trainee_b", "bob_rx"),
    "staff": Role("staff", "sam_kv", staff=True),
}


@dataclass
class World:
    """Everyone in ROLES with their own data: a profile, answers, a review schedule."""

    users: dict[str, Any]
    scenario: Scenario
    drills: dict[str, Any] = field(default_factory=dict)  # each role's drill set, made once

    def client(self, role: str) -> Client:
        client = Client()
        if role != "anonymous":
            client.force_login(self.users[role])
        return client


@pytest.fixture
def world(bundled_content, db) -> World:
    scenario = Scenario.objects.live().order_by("slug").first()
    users = {}
    for name, role in ROLES.items():
        if role is None:
            continue
        user = get_user_model().objects.create_user(
            role.username,
            email=f"{role.username}@example.org",
            password="correct-horse-battery-staple-42",
            is_staff=role.staff,
        )
        Profile.objects.create(user=user, display_name=f"Marker-{role.username}", language="en")
        answer(user, scenario, seed=SEEDS[name], correct=False)  # with its review schedule
        users[name] = user
    return World(users, scenario)


def _reset_link(world: World, role: str) -> dict[str, str]:
    from django.utils.encoding import force_bytes
    from django.utils.http import urlsafe_base64_encode

    # Always trainee A's account, with a token that is not valid: the page must say the link
    # is invalid to everyone, and name nobody.
    return {"uidb64": urlsafe_base64_encode(force_bytes(world.users["trainee_a"].pk)), "token": "x"}


def _question(world: World, role: str) -> dict[str, str]:
    return {"slug": world.scenario.slug, "seed": "7"}


def _practice_set(world: World, role: str) -> dict[str, str]:
    from polotrainer.practice import sets

    return {"token": sets.token([world.scenario.pk])}


def _practice_set_at(world: World, role: str) -> dict[str, str]:
    return {**_practice_set(world, role), "position": "2"}


def _drill(world: World, role: str) -> Any:
    """The role's own drill set (trainee A's for a visitor, who owns none), made once."""
    from django.utils import timezone

    from polotrainer.drills import plays
    from polotrainer.umpires.progress import Person

    owner = "trainee_a" if role == "anonymous" else role
    made = world.drills.get(owner)
    if made is None:
        made = plays.new_set(Person(user_id=world.users[owner].pk), timezone.now(), size=2)
        world.drills[owner] = made
    return made


def _drill_set(world: World, role: str) -> dict[str, str]:
    return {"set_id": str(_drill(world, role).pk), "position": "1"}


def _drill_summary(world: World, role: str) -> dict[str, str]:
    return {"set_id": str(_drill(world, role).pk)}


def _drill_item(world: World, role: str) -> dict[str, str]:
    return {"item_id": str(_drill(world, role).items.order_by("position").first().pk)}


def own_drill(kwargs: Kwargs, post: Status = 405, get: Status = 200) -> Row:
    """A drill page of the member's own set; a visitor or another member asking for it: 404."""
    return Row(
        Expect(404 if get != 405 else 405, get),
        Expect(404 if post != 405 else 405, post),
        kwargs,
        others=404,
    )


REDIRECT = 302
MATRIX: dict[str, Row] = {
    "healthz": public(get=200, post=200),
    "favicon": public(get=REDIRECT),
    "set_language": public(get=405, post=REDIRECT),
    # A phone's first addresses, with no language (clinics.urls.without_language): the PIN's
    # form in the phone's language; the QR code's link without its pass is sent on to the
    # language's address.
    "play_entry": public(get=200, post=400),
    "play_link": public(get=REDIRECT, post=405, kwargs=lambda world, role: {"pin": "123456"}),
    "home": public(),
    # Where signing in lands: an instructor's home, anyone else's progress.
    "start": personal(get=REDIRECT),
    "scenarios:rules": public(),
    "scenarios:rule": public(kwargs=lambda world, role: {"number": "3"}),
    "scenarios:section": public(kwargs=lambda world, role: {"ref": "3.a"}),
    "scenarios:glossary": public(),
    "practice:start": public(get=REDIRECT),
    "practice:next": public(get=REDIRECT),
    "practice:question": public(kwargs=_question),
    # GET goes back to the question; a POST without its token is refused with 400.
    "practice:answer": public(get=REDIRECT, post=400, kwargs=_question),
    # No proof of an answer: refused with 400.
    "practice:whatif": public(get=400, kwargs=_question),
    # A signed list of situations (a clinic's follow-up mail): its first one; past its last,
    # the page saying the set is done.
    "practice:set": public(get=REDIRECT, kwargs=_practice_set),
    "practice:set_at": public(kwargs=_practice_set_at),
    "umpires:signup": public(post=200),
    "umpires:login": public(post=200),
    "umpires:logout": public(get=405, post=REDIRECT),
    "umpires:profile": personal(post=200),
    "umpires:password_change": personal(post=200),
    "umpires:delete_account": personal(post=200),
    "umpires:password_reset": public(post=200),
    "umpires:password_reset_done": public(),
    "umpires:password_reset_confirm": public(post=200, kwargs=_reset_link),
    "umpires:password_reset_complete": public(),
    "umpires:dashboard": personal(),
    "umpires:history_csv": personal(),
    # Due reviews send the umpire to a question; none due shows when the next one is.
    "practice:review": personal(get=frozenset({200, 302})),
    # Decision drills: anyone may drill (a visitor's set lives in their session); a set, a
    # play and its answer are their owner's alone.
    "drills:home": public(),
    "drills:new": public(get=405, post=REDIRECT),
    "drills:play": own_drill(_drill_set),
    "drills:summary": own_drill(_drill_summary),
    # The start, the answer and a replay are POSTs of the page's script: an empty one is
    # refused (400) or, for the start, starts the play (200).
    "drills:start": own_drill(_drill_item, get=405, post=frozenset({200, 400})),
    "drills:answer": own_drill(_drill_item, get=405, post=frozenset({200, 400})),
    "drills:replay": own_drill(_drill_item, get=405, post=frozenset({200, 400})),
    # A course's drill set is started (POST) by a trainee of its cohort only: nobody here is in
    # one, so every member gets 404 (the cohort's own trainee: tests/drills/test_assigned.py).
    "drills:assigned": Row(
        Expect(405, 405),
        Expect(LOGIN, 404),
        kwargs=lambda world, role: {"assignment_id": "424242"},
    ),
    # Calendars (polotrainer/notify): the page and its two buttons are the person's own; a feed
    # address nobody was given is a 404; another's exam or assignment is a 404 (tests/notify).
    "notify:calendar": personal(),
    "notify:calendar_new": personal(get=405, post=REDIRECT),
    "notify:calendar_stop": personal(get=405, post=REDIRECT),
    "notify:feed": public(get=404, kwargs=lambda world, role: {"token": "not-a-feed"}),
    "notify:exam_ics": personal(get=404, kwargs=lambda world, role: {"exam_id": "1"}),
    "notify:assignment_ics": personal(get=404, kwargs=lambda world, role: {"assignment_id": "1"}),
    # Invitations: instructors only (tests/notify/test_invitations.py has the cohorts); a link
    # nobody was sent is a 404 to everyone.
    "notify:cohort_invitations": Row(
        Expect(LOGIN, 403), Expect(LOGIN, 403), kwargs=lambda world, role: {"cohort_id": "1"}
    ),
    "notify:invitation_resend": Row(
        Expect(LOGIN, 403), Expect(LOGIN, 403), kwargs=lambda world, role: {"invitation_id": "1"}
    ),
    "notify:invitation_withdraw": Row(
        Expect(LOGIN, 403), Expect(LOGIN, 403), kwargs=lambda world, role: {"invitation_id": "1"}
    ),
    "notify:invitation": public(get=404, post=404, kwargs=lambda world, role: {"token": "nope"}),
    # A stop link that is not signed: 400 to everyone, nothing stopped (tests/notify).
    "notify:stop": public(get=400, post=400, kwargs=lambda world, role: {"token": "x"}),
    # Offline practice: the page and the worker are the same for everyone; a pack needs a scope
    # (400 without one); the sync's GET is the page's state, its POST an outbox (400: none).
    "service_worker": public(),
    "offline:manifest": public(),
    "offline:page": public(),
    "offline:pack": public(get=400),
    "offline:sync": public(get=200, post=400),
}

ROUTES = {route.name: route for route in routes()}
CELLS = [
    (name, role, method)
    for name in ROUTES
    if name in MATRIX
    for role in ROLES
    for method in ("get", "post")
]


def delegated() -> set[str]:
    """URL names whose role x URL table lives with their app's tests, with that app's people
    (instructors, cohorts, exams, clinics): each of those tables fails on a URL of its app
    without a row, as this one does here."""
    from tests.authoring.access import CASES as AUTHORING
    from tests.certificates.access import CASES as CERTIFICATES
    from tests.clinics.access import CASES as CLINICS
    from tests.courses.access import CASES as COURSES

    return (
        {f"courses:{case.name}" for case in COURSES}
        | {f"certificates:{case.name}" for case in CERTIFICATES}
        | {f"clinics:{case.name}" for case in CLINICS}
        | {f"authoring:{case.name}" for case in AUTHORING}
        # The staff look-up (Django's admin): tests/lookup/test_access.py walks every one.
        | {route.name for route in routes() if route.name.startswith("admin:")}
    )


def test_every_url_has_a_row():
    covered = set(MATRIX) | delegated()
    assert set(ROUTES) - covered == set(), "URLs with no row in the access matrix"
    assert set(MATRIX) - set(ROUTES) == set(), "rows for URLs that no longer exist"


def _check(response: Any, expected: Status, role: str, world: World, where: str) -> None:
    status = response.status_code
    if expected == LOGIN:
        assert status == 302 and "/account/login/" in response["Location"], where
    elif isinstance(expected, frozenset):
        assert status in expected, (where, status)
    else:
        assert status == expected, (where, status)
    body = b"".join(response.streaming_content) if response.streaming else response.content
    seen = body.decode(errors="replace") + response.get("Location", "")
    others = [r for name, r in ROLES.items() if r is not None and name != role]
    leaks = {mark for other in others for mark in other.marks if mark in seen}
    assert not leaks, f"{where}: another person's data: {leaks}"
    if role != "anonymous" and status == 200:
        directives = {d.strip() for d in response.get("Cache-Control", "").split(",")}
        if "Cookie" in response.get("Vary", ""):
            assert {"private", "no-store"} <= directives, where


def _send(world: World, route: Route, row: Row, role: str, owner: str, method: str) -> Any:
    url = route.url(**(row.kwargs(world, owner) if row.kwargs else {}))
    client = world.client(role)
    return url, client.get(url) if method == "get" else client.post(url)


@pytest.mark.parametrize(("name", "role", "method"), CELLS, ids=["-".join(c) for c in CELLS])
def test_access(world: World, name: str, role: str, method: str):
    route, row = ROUTES[name], MATRIX[name]
    expect = row.get if method == "get" else row.post
    url, response = _send(world, route, row, role, role, method)
    _check(response, expect.of(role), role, world, f"{method.upper()} {url} as {role}")
    if row.others is not None and role != "anonymous" and expect.of(role) != 405:
        # The same URL naming another member's object: refused, and nothing of theirs shown
        # (a method the URL never takes is refused first, whoever's object it names).
        other = "trainee_b" if role == "trainee_a" else "trainee_a"
        url, response = _send(world, route, row, role, other, method)
        _check(response, row.others, role, world, f"{method.upper()} {url} as {role}")


def test_own_data_does_appear_so_the_leak_check_can_see_it(world: World):
    """The marks are really on the personal pages: a check for their absence means something."""
    client = world.client("trainee_a")
    mine = ROLES["trainee_a"]
    assert mine is not None
    dashboard = client.get("/en/me/").content.decode()
    csv = b"".join(client.get("/en/me/history.csv").streaming_content).decode()
    profile = client.get("/en/account/").content.decode()
    assert f"Marker-{mine.username}" in dashboard + profile
    assert str(SEEDS["trainee_a"]) in csv
