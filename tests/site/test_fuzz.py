"""No malformed input gives a server error, on any URL of any app (tests/site/fuzzing.py):
the first third of the routes; and the walk and the crawl themselves."""

import pytest

from tests.site import fuzzing
from tests.site.fuzzing import Route, Site

site = fuzzing.site  # the crawl, once for the module


@pytest.mark.django_db
@pytest.mark.parametrize("route", fuzzing.part(0), ids=[r.name for r in fuzzing.part(0)])
def test_malformed_input_never_gives_a_server_error(route: Route, site: Site):
    fuzzing.check(route, site)


def test_every_app_is_fuzzed():
    """The walk finds the patterns of every app, and the query parameters views read."""
    names = {r.name.split(":")[0] for r in fuzzing.ROUTES if ":" in r.name}
    assert {"scenarios", "umpires", "practice"} <= names
    question = next(r for r in fuzzing.ROUTES if r.name == "practice:question")
    assert {"rule", "section", "mode"} <= set(question.query_keys)
    assert [p for p, _ in question.params] == ["slug", "seed"]


@pytest.mark.django_db
def test_the_crawl_finds_the_forms_that_reach_deep(site: Site):
    """The answer form carries its token; log-in, sign-up and the password forms are found."""
    answer = site.forms["practice:answer"][0]
    assert "token" in answer.fields and any(f.startswith("q-") for f in answer.fields)
    for name, field in [
        ("umpires:login", "password"),
        ("umpires:signup", "email"),
        ("umpires:password_change", "old_password"),
        ("umpires:delete_account", "password"),
        ("set_language", "language"),
    ]:
        assert any(field in f.fields for f in site.forms[name]), name
    assert {"umpires:dashboard", "umpires:history_csv", "umpires:profile"} <= site.personal
