"""The rules tests need no Django: neutralise the project's autouse Django fixtures here."""

import pytest


@pytest.fixture(autouse=True)
def _plain_static_storage() -> None:
    """Override tests/conftest.py's fixture of the same name, which needs Django settings."""
