"""Every URL of the staff look-up x every role x GET and POST: only staff get in, and nobody's
data shows to anyone else (the look-up's rows of the site's access matrix, tests/site)."""

import re

import pytest

from tests.site.urlmap import Route, routes

pytestmark = pytest.mark.django_db

ADMIN = [route for route in routes() if route.name.startswith("admin:")]
NAMES = {route.name for route in ADMIN}
VALUES = {"object_id": "1", "content_type_id": "1", "id": "1", "url": "nothing/"}
REGEX_PARAM = re.compile(r"\^\(\?P<app_label>[^)]*\)/\$")
OUTSIDERS = ["anonymous", "trainee_a", "instructor_a"]


def _url(route: Route, lang: str = "en") -> str:
    route_text = REGEX_PARAM.sub("courses/", route.route)
    route_text = route_text.replace("(?P<url>.*)$", "nothing/")
    return Route(route.name, route_text, route.callback).url(lang, **VALUES)


CELLS = [(route, method) for route in ADMIN for method in ("get", "post")]


@pytest.mark.parametrize(("route", "method"), CELLS, ids=[f"{r.route}-{m}" for r, m in CELLS])
def test_only_staff_get_in(world, as_user, route, method):
    url = _url(route)
    marks = ["alice@example.org", "Alice Allieva", world.cohort_a.join_code]
    for who in OUTSIDERS:
        client = as_user(None if who == "anonymous" else getattr(world, who))
        response = getattr(client, method)(url)
        body = response.content.decode(errors="replace")
        assert not [m for m in marks if m in body], (who, url)
        if route.name == "admin:login":
            assert response.status_code in {200, 302}, (who, url)
        else:
            assert response.status_code in {302, 405}, (who, url, response.status_code)
            if response.status_code == 302:
                where = response["Location"]
                # Logging out sends to the index, which sends an outsider to log in.
                home = route.name == "admin:logout" and where == "/en/staff/lookup/"
                assert "/staff/lookup/login/" in where or home, (who, url)
    response = getattr(as_user(world.staff), method)(url)
    assert response.status_code in {200, 302, 403, 404, 405}, (url, response.status_code)


def test_the_site_matrix_delegates_every_admin_url_here():
    from tests.site.test_access import delegated

    assert delegated() >= NAMES
