"""The fixtures and settings every app's tests share.

The people and their courses are made by tests/people.py, the rulebook material by
tests/content.py; here they become fixtures (`world`, `trainee`, `rulebook`, `scenarios`,
`bundled_content`...). An app's conftest holds only what is its own, and imports no other
conftest (tests/site/test_one_home.py).
"""

from collections.abc import Iterator
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import transaction
from django.test import override_settings

from scenarios.models import Scenario
from tests.content import ALL, create_rulebook, load_shipped, make_scenario
from tests.people import PASSWORD, World, make_world, person

#: Every password of the suite is hashed with MD5: the real hasher (PBKDF2, a million rounds
#: by design) costs a quarter of a second per log-in form and per user made, and hashing
#: strength is Django's concern, not these tests'. Production keeps Django's default hashers
#: (polotrainer/settings.py sets none).
FAST_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


#: The longest files of the suite (minutes each on this 2-core machine, from `--durations`), run
#: first: the parallel workers take whole files in the suite's order (`make test` passes
#: --no-loadscope-reorder; xdist would otherwise start with the files of most tests), so the
#: long ones start at once and the short ones fill in around them.
SLOWEST_FIRST = [
    "tests/site/test_fuzz_2.py",
    "tests/site/test_fuzz.py",
    "tests/site/test_fuzz_1.py",
    "tests/browser/test_every_page.py",
    "tests/browser/test_bundled_scenarios.py",
    "tests/browser/test_projector_fit.py",
    "tests/browser/test_clinics.py",
    "tests/scenarios/test_bundled_content.py",
]
_ROOT = Path(__file__).resolve().parent.parent


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    rank = {name: n for n, name in enumerate(SLOWEST_FIRST)}

    def first(item: pytest.Item) -> int:
        path = Path(item.fspath).resolve()
        return rank.get(
            path.relative_to(_ROOT).as_posix() if _ROOT in path.parents else "", len(rank)
        )

    items.sort(key=first)  # stable: each file keeps its own order


@pytest.fixture(scope="session", autouse=True)
def _fast_password_hasher() -> Iterator[None]:
    """For the whole session, module-scoped fixtures included (they run before any test's
    `settings` fixture); override_settings clears Django's cached hasher list."""
    with override_settings(PASSWORD_HASHERS=FAST_HASHERS):
        yield


@pytest.fixture
def password() -> str:
    return PASSWORD


@pytest.fixture
def trainee(db):
    """Alice, an umpire in training (no profile yet, as after signing up)."""
    return person("alice", profile=False)


@pytest.fixture
def other_trainee(db):
    """Bob, another trainee, who must never see Alice's data."""
    return person("bob", profile=False)


@pytest.fixture
def instructor(db):
    """Charlie, staff."""
    return person("charlie", staff=True, profile=False)


@pytest.fixture
def alice_client(client, trainee):
    client.force_login(trainee)
    return client


@pytest.fixture
def as_user(client):
    """Log the client in as someone (or out, with None) and return it."""

    def login(user):
        client.logout()
        if user is not None:
            client.force_login(user)
        return client

    return login


@pytest.fixture
def world(db) -> World:
    return make_world()


@pytest.fixture
def rulebook(db):
    """The sections of tests/content.py SECTIONS (Rules 21 and 37); umpires' and authoring's
    tests have their own."""
    create_rulebook()


@pytest.fixture
def scenarios(rulebook) -> dict[str, Scenario]:
    """One scenario per question kind (tests/content.py ALL)."""
    return {data["slug"]: make_scenario(data) for data in ALL}


@pytest.fixture(scope="module")
def bundled_content(django_db_setup, django_db_blocker) -> Iterator[None]:
    """The rulebook, scenarios and glossary as shipped, outside the tests' transactions.

    Loaded once per module (a second or two) rather than per test; the database is flushed
    afterwards, so the tests of other modules start from an empty one as usual.
    """
    with django_db_blocker.unblock():
        load_shipped()
    try:
        yield
    finally:
        with django_db_blocker.unblock():
            call_command("flush", interactive=False, verbosity=0)


@pytest.fixture(scope="module")
def module_db(django_db_setup, django_db_blocker) -> Iterator[None]:
    """A transaction around the whole module, rolled back at its end: what a module-scoped
    fixture writes inside it is there for each test, whose own transaction is a savepoint
    within it. Not for transactional tests (their flush would empty it)."""
    atomic = transaction.atomic()
    with django_db_blocker.unblock():
        atomic.__enter__()
    try:
        yield
    finally:
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)
