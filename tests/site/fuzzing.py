"""No malformed input gives a server error, on any URL of any app, anonymous or logged in.

The URL patterns are discovered by walking the resolver (tests/site/urlmap.py), so a new URL is
fuzzed without being listed. For each one, malformed values go, one slot at a time, into:
- every path parameter (GET and POST),
- every query parameter its view's module reads (`request.GET.get("...")`),
- every field of every form on the site that posts to it (found by crawling every page as a
  visitor and as a logged-in umpire; the other fields keep the values the page filled in, so
  the fuzzed one reaches deep), sent once as one value and once as a list of two,
- a JSON body.
The values: each of MALFORMED (empty, 1 MB, NUL, non-ASCII digits, other scripts, negative and
huge numbers, JSON and other wrong types...) always, plus hypothesis-drawn text and numbers.
A personal page is fuzzed logged in; a public one as a visitor, and the drawn examples also as
a logged-in umpire (FUZZ_VALUES=database: only DATABASE_VALUES always). The draws are capped
by the "fuzz" settings profile below (FUZZ_EXAMPLES, default 4 per slot); CI runs this on
SQLite and PostgreSQL.

The routes are fuzzed in PARTS modules (tests/site/test_fuzz*.py), a third each, so that the
suite's parallel workers, which take whole files, share the fuzzing (one file took ~45 of the
suite's 55 minutes on one worker); each module crawls the site once.
"""

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode, urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.test import Client
from django.urls import Resolver404, resolve
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.site.urlmap import Form, Route, forms_on, routes

PASSWORD = "correct-horse-battery-staple-42"
NEW_PASSWORD = "a-long-unusual-passphrase-91"

MALFORMED = [
    "",
    "x" * 1_000_000,
    "\x00",
    "a\x00b",
    "²",
    "٣",
    "\uff11\uff12",  # fullwidth digits
    "Ⅻ",
    "Ωμέγα",
    "中文",
    "עברית",
    "🏇",
    "-1",
    "0",
    "-99999999999999999999",
    "9" * 40,
    "1e309",
    "NaN",
    "1.5",
    "0x1F",
    "[]",
    "{}",
    '{"a": [1, {"b": null}]}',
    "null",
    "true",
    "' OR 1=1 --",
    "<script>alert(1)</script>",
    "../../etc/passwd",
    "%",
    " ",
    "\r\nSet-Cookie: x=1",
]

#: The malformed values a database may take differently from another (text it refuses or cuts:
#: NUL, 1 MB, other scripts; numbers out of its range; digits that are not ASCII). With
#: FUZZ_VALUES=database only these are always sent (with the hypothesis draws and LISTED):
#: CI's PostgreSQL pass, after the SQLite pass has sent every value (.ci/run). The rest of
#: MALFORMED is about parsing, which is the same code on either database.
DATABASE_VALUES = [
    "",
    "x" * 1_000_000,
    "\x00",
    "a\x00b",
    "²",
    "٣",
    "中文",
    "🏇",
    "-99999999999999999999",
    "9" * 40,
    "1e309",
]
SENT = DATABASE_VALUES if os.environ.get("FUZZ_VALUES") == "database" else MALFORMED

#: Sent as a list of two where the form has one value.
LISTED = ["", "\x00", "²", "9" * 40, "{}"]

settings.register_profile(
    "fuzz",
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", "4")),
    deadline=None,
    suppress_health_check=list(HealthCheck),
    print_blob=True,
)
FUZZ = settings.get_profile("fuzz")
DRAWN = st.one_of(
    st.text(max_size=30),
    st.integers().map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(str),
    st.sampled_from(MALFORMED),
)
USERS = st.sampled_from(["visitor", "umpire"])


@dataclass(frozen=True)
class Slot:
    """One place a value goes: a path parameter, a query parameter, a form field or the body."""

    kind: str  # "path", "query", "form", "json"
    name: str
    method: str


@dataclass
class Site:
    """The bundled content, an umpire with history, and every form found on every page."""

    baseline: dict[str, str]
    personal: set[str]  # route names that send a visitor to log in
    forms: dict[str, list[Form]]  # route name of the action -> forms posting there


ROUTES = routes()


@pytest.fixture(scope="module")
def site(bundled_content, django_db_blocker) -> Iterator[Site]:
    """The umpire and the crawl, made once for the module outside the tests' transactions."""
    from scenarios.models import Scenario

    with django_db_blocker.unblock():
        umpire = get_user_model().objects.create_user(
            "umpire", email="umpire@example.org", password=PASSWORD
        )
        slug = Scenario.objects.live().order_by("slug").values_list("slug", flat=True).first()
        baseline = {
            "number": "3",
            "ref": "3.a",
            "slug": str(slug),
            "seed": "7",
            "uidb64": urlsafe_base64_encode(force_bytes(umpire.pk)),
            "token": default_token_generator.make_token(umpire),
        }
        personal = set()
        forms: dict[str, list[Form]] = {}
        for route in ROUTES:
            url = route.url(**_baseline(route, baseline))
            if _sends_to_login(Client().get(url)):
                personal.add(route.name)
            for user in ("visitor", "umpire"):
                response = _client(user, umpire).get(url, follow=True)
                if "html" in response.get("Content-Type", ""):
                    for form in forms_on(response.content.decode(), url):
                        if form.method == "post" and (name := _route_name(form.action)):
                            forms.setdefault(name, []).append(form)
    # A pack of 3 fresh situations instead of 50: what a malformed value does to the request
    # does not depend on the pack's size, and 31 packs of 50 took 65 s of one route's 75.
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("polotrainer.offline.packs.FRESH", 3)
        yield Site(baseline, personal, forms)  # bundled_content flushes the database afterwards


def _baseline(route: Route, baseline: dict[str, str]) -> dict[str, str]:
    # Parameters of apps added later fall back to a plausible value of their converter.
    return {
        name: baseline.get(name, "1" if converter == "int" else "x")
        for name, converter in route.params
    }


def _sends_to_login(response: Any) -> bool:
    return response.status_code == 302 and "/account/login/" in response["Location"]


def _route_name(action: str) -> str | None:
    try:
        match = resolve(urlsplit(action).path)
    except Resolver404:
        return None
    return f"{match.namespace}:{match.url_name}" if match.namespace else match.url_name


def _client(user: str, umpire: Any = None) -> Client:
    client = Client()
    if user == "umpire":
        if umpire is None:
            # A fuzzed request may have deleted the account (a valid password beside a fuzzed
            # field): the next one gets it back.
            umpire, created = get_user_model().objects.get_or_create(
                username="umpire", defaults={"email": "umpire@example.org"}
            )
            if created:
                umpire.set_password(PASSWORD)
                umpire.save(update_fields=["password"])
        client.force_login(umpire)
    return client


def _filled(form: Form) -> dict[str, list[str]]:
    """The form as a user would send it: the page's values, plausible text where empty."""
    data = {}
    for name, values in form.fields.items():
        kind, auto = form.types.get(name, "text"), form.autocomplete.get(name, "")
        if kind == "password":
            values = [PASSWORD if auto == "current-password" else NEW_PASSWORD]
        elif not any(values):
            values = ["fuzz@example.org" if kind == "email" else "fuzzer"]
        data[name] = values
    return data


def _slots(route: Route, site: Site) -> list[tuple[Slot, Form | None]]:
    slots: list[tuple[Slot, Form | None]] = []
    for name, _converter in route.params:
        slots += [(Slot("path", name, "get"), None), (Slot("path", name, "post"), None)]
    slots += [(Slot("query", key, "get"), None) for key in route.query_keys]
    seen = set()
    for form in site.forms.get(route.name, []):
        for field in form.fields:
            # The CSRF token is Django's to check (the test client does not enforce it).
            if field not in seen and field != "csrfmiddlewaretoken":
                seen.add(field)
                slots.append((Slot("form", field, "post"), form))
    slots.append((Slot("json", "", "post"), None))
    return slots


def _send(route: Route, site: Site, slot: Slot, form: Form | None, value: Any, user: str) -> Any:
    params = _baseline(route, site.baseline)
    query: dict[str, Any] = {}
    if slot.kind == "path":
        params[slot.name] = value
    elif slot.kind == "query":
        query[slot.name] = value
    url = route.url(**params)
    client = _client(user)
    if slot.kind == "form" and form is not None:
        data = _filled(form)
        data[slot.name] = value if isinstance(value, list) else [value]
        return client.post(form.action, data)
    if slot.kind == "json":
        return client.post(url, json.dumps(value), content_type="application/json")
    if query:
        url = f"{url}?{urlencode(query, doseq=True)}"
    return client.post(url) if slot.method == "post" else client.get(url)


def _user(route: Route, site: Site) -> str:
    return "umpire" if route.name in site.personal else "visitor"


def _fuzz(route: Route, site: Site, slot: Slot, form: Form | None) -> None:
    main_user = _user(route, site)
    values: Any = st.one_of(DRAWN, st.lists(DRAWN, min_size=2, max_size=2))
    if slot.kind == "json":
        values = st.one_of(
            DRAWN,
            st.recursive(DRAWN, lambda c: st.lists(c) | st.dictionaries(DRAWN, c), max_leaves=5),
        )
    users = st.just(main_user) if main_user == "umpire" else USERS

    @FUZZ
    @given(value=values, user=users)
    def run(value: Any, user: str) -> None:
        response = _send(route, site, slot, form, value, user)
        assert response.status_code < 500, (slot, value[:200] if isinstance(value, str) else value)

    for value in SENT:
        run.hypothesis.inner_test(value, main_user)  # every malformed value, always
    if slot.kind == "form":
        for value in LISTED:
            run.hypothesis.inner_test([value, "1"], main_user)  # a list where one value is due
    run()


#: How many modules share the routes (test_fuzz.py, test_fuzz_1.py, test_fuzz_2.py).
PARTS = 3


def part(n: int) -> list[Route]:
    """The routes the n-th fuzz module takes: every PARTS-th, from the n-th."""
    return ROUTES[n::PARTS]


def check(route: Route, site: Site) -> None:
    """No malformed value in any slot of the route gives a server error."""
    for slot, form in _slots(route, site):
        _fuzz(route, site, slot, form)
