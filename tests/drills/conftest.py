"""The drills play four bundled scenarios, one or two per scene family, read from the content
files themselves (the scenes are made for their facts): tests/content.py DRILL_SLUGS."""

import pytest
from django.test import Client

from scenarios.models import Scenario
from tests.content import create_drill_content


@pytest.fixture
def drill_content(db) -> dict[str, Scenario]:
    return create_drill_content()


@pytest.fixture
def bob_client(other_trainee) -> Client:
    client = Client()
    client.force_login(other_trainee)
    return client
