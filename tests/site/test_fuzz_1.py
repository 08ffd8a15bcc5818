"""No malformed input gives a server error, on any URL of any app (tests/site/fuzzing.py):
the second third of the routes; the first is tests/site/test_fuzz.py."""

import pytest

from tests.site import fuzzing
from tests.site.fuzzing import Route, Site

site = fuzzing.site  # the crawl, once for the module


@pytest.mark.django_db
@pytest.mark.parametrize("route", fuzzing.part(1), ids=[r.name for r in fuzzing.part(1)])
def test_malformed_input_never_gives_a_server_error(route: Route, site: Site):
    fuzzing.check(route, site)
