"""A small rulebook to practise on, and answers given by the people in a story."""

import pytest

from tests.content import small_rulebook


@pytest.fixture(autouse=True)
def _mail_configured(settings):
    # These tests follow a site that sends mail; the one without is tested on its own.
    settings.MAIL_ENABLED = True


@pytest.fixture
def rulebook(db):
    """Rule 3 with sections 3.a (two situations) and 3.b (one); Rule 21 with 21.a (one)."""
    return small_rulebook()
