"""The role x URL matrix of the certificates: 0 leaks, nothing changed by who may not.

Every certificate URL is opened (GET and POST) by the six roles; who may not gets the login
page, 403, 404 or 405, sees none of side A's names, and changes nothing.
"""

import pytest
from django.urls import get_resolver, reverse

from polotrainer.certificates.models import Certificate, CourseSetting, HolderName, TrustedIssuer
from tests.certificates.access import CASES, ROLES, SECRETS

pytestmark = pytest.mark.django_db


def snapshot():
    return (
        list(
            Certificate.objects.order_by("pk").values_list(
                "pk", "holder_name", "signature", "revoked_at", "revoked_reason"
            )
        ),
        list(HolderName.objects.order_by("pk").values_list("user_id", "full_name")),
        list(CourseSetting.objects.values_list("course_id", "validity_years")),
        list(TrustedIssuer.objects.values_list("key_id")),
    )


MATRIX = [
    pytest.param(case, role, method, id=f"{case.id}-{role}-{method}")
    for case in CASES
    for role in ROLES
    for method in case.methods
    if not (method == "POST" and role in case.allowed)
]


@pytest.mark.parametrize(("case", "role", "method"), MATRIX)
def test_access_matrix(client, world, case, role, method):
    user = None if role == "anonymous" else getattr(world, role)
    if user is not None:
        client.force_login(user)
    url = reverse(f"certificates:{case.name}", args=case.args(world))
    before = snapshot()
    response = client.get(url) if method == "GET" else client.post(url, {"reason": "x"})
    if role in case.allowed:
        assert response.status_code == case.ok
        return
    text = (
        b"".join(response.streaming_content) if response.streaming else response.content
    ).decode()
    if role == "anonymous" and case.name != "verify":
        assert response.status_code == 302
        assert "/account/login/?next=" in response["Location"]
    else:
        assert response.status_code in {403, 404, 405}
    for secret in SECRETS:
        assert secret not in text
    assert snapshot() == before


def test_side_a_is_on_side_as_pages_so_the_leak_check_means_something(client, world):
    client.force_login(world.instructor_a)
    page = client.get(reverse("certificates:cohort", args=[world.cohort_a.pk])).content.decode()
    assert all(secret in page for secret in SECRETS)


def test_every_certificate_url_is_in_the_matrix():
    """A new certificate URL fails here until the table says who may open it."""
    _prefix, resolver = get_resolver().namespace_dict["certificates"]
    found = {name for name in resolver.reverse_dict if isinstance(name, str)}
    assert found == {case.name for case in CASES}
