"""The role x URL matrix of the authoring URLs: GET and POST by the six roles of tests/courses;
who may not gets 404 (a visitor the log-in page), sees none of side A's words, changes nothing."""

import pytest
from django.urls import get_resolver, reverse
from django.utils import translation

from polotrainer.authoring.models import Situation, Version
from scenarios.models import Scenario
from tests.authoring.access import CASES, ROLES, SECRETS, VISITOR_404
from tests.authoring.conftest import good_entry, publish_unchecked, with_photo

pytestmark = pytest.mark.django_db


@pytest.fixture
def secret_world(authoring):
    world = authoring
    entry = good_entry()
    entry["title"] = {"it": "Situazione segreta A", "en": "Secret situation A"}
    world.situation_a = with_photo(Situation.objects.create(course=world.course_a, entry=entry))
    world.situation_b = Situation.objects.create(course=world.course_b, entry=good_entry())
    world.published_a = with_photo(Situation.objects.create(course=world.course_a, entry=entry))
    publish_unchecked(world.published_a)
    return world


def snapshot():
    return (
        list(Situation.objects.values_list("pk", "course_id", "entry")),
        list(Version.objects.values_list("pk", "scenario_id")),
        list(
            Scenario.objects.values_list(
                "pk", "slug", "retired", "version", "authored", "source_file"
            )
        ),
    )


#: The methods each view takes: another is refused (405) before anything is looked up.
VIEW_METHODS = {
    "situations": {"GET"},
    "new": {"POST"},
    "edit": {"GET", "POST"},
    "preview": {"GET"},
    "export": {"GET"},
    "every": {"GET"},
    "promote": {"GET", "POST"},
    "photo": {"GET"},
}

MATRIX = [
    pytest.param(case, role, method, id=f"{case.id}-{role}-{method}")
    for case in CASES
    for role in ROLES
    for method in case.methods
    if not (method == "POST" and role in case.allowed and case.name != "photo")
]


@pytest.mark.parametrize(("case", "role", "method"), MATRIX)
def test_access_matrix(client, secret_world, case, role, method):
    world = secret_world
    user = None if role == "anonymous" else getattr(world, role)
    if user is not None:
        client.force_login(user)
    with translation.override("it"):
        url = reverse(f"authoring:{case.name}", args=case.args(world))
    before = snapshot()
    response = client.get(url) if method == "GET" else client.post(url, case.extra)
    if role in case.allowed and method in VIEW_METHODS[case.name]:
        assert response.status_code == case.ok
        return
    if role == "anonymous" and case.name not in VISITOR_404:
        assert response.status_code == 302
        assert response["Location"].startswith("/it/account/login/?next=")
    elif method not in VIEW_METHODS[case.name]:
        assert response.status_code in {404, 405}
    else:
        assert response.status_code == 404
    for secret in SECRETS:
        assert secret not in response.content.decode()
    assert snapshot() == before


def test_every_authoring_url_is_in_the_matrix():
    _prefix, urls = get_resolver().namespace_dict["authoring"]
    found = {name for name in urls.reverse_dict if isinstance(name, str)}
    assert found == {case.name for case in CASES}


def test_the_allowed_pages_do_show_the_secret(client, secret_world):
    """The denials mean something only if the allowed page holds what SECRETS names."""
    client.force_login(secret_world.instructor_a)
    page = client.get(reverse("authoring:edit", args=[secret_world.situation_a.pk]))
    assert "Secret situation A" in page.content.decode()
