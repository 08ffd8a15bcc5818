"""The people in a story and the settings every test shares."""

from collections.abc import Iterator
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.test import override_settings

PASSWORD = "correct-horse-battery-staple-42"

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


def _make_user(username: str, **extra):
    user = get_user_model().objects.create_user(
        username=username, email=f"{username}@example.org", password=PASSWORD, **extra
    )
    return user


@pytest.fixture
def trainee(db):
    """Alice, an umpire in training."""
    return _make_user("alice")


@pytest.fixture
def other_trainee(db):
    """Bob, another trainee, who must never see Alice's data."""
    return _make_user("bob")


@pytest.fixture
def instructor(db):
    """Charlie, who runs a certification course."""
    return _make_user("charlie", is_staff=True)


@pytest.fixture
def alice_client(client, trainee):
    client.force_login(trainee)
    return client
