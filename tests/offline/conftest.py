"""The offline tests play the small rulebook of the scenario tests: one scenario per kind."""

from tests.scenarios.conftest import rulebook, scenarios  # noqa: F401 - fixtures
