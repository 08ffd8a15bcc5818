"""The people in a story and the settings every test shares."""

import pytest
from django.contrib.auth import get_user_model

PASSWORD = "correct-horse-battery-staple-42"


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
