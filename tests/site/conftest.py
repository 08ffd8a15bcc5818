"""The bundled content, loaded once per module for the tests that walk every URL."""

from collections.abc import Iterator

import pytest
from django.core.management import call_command


@pytest.fixture(scope="module")
def bundled_content(django_db_setup, django_db_blocker) -> Iterator[None]:
    """The rulebook, scenarios and glossary as shipped, outside the tests' transactions.

    Loaded once per module (a second or two) rather than per test; the database is flushed
    afterwards, so the tests of other modules start from an empty one as usual.
    """
    from scenarios.content import read_content
    from scenarios.loading import load

    with django_db_blocker.unblock():
        load(read_content(sample=range(1)))
    try:
        yield
    finally:
        with django_db_blocker.unblock():
            call_command("flush", interactive=False, verbosity=0)
