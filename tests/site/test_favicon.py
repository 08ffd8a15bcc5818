"""The site's icon: linked from every page, and at /favicon.ico for whatever asks there."""

import pytest
from django.core.management import call_command

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("path", ["/it/", "/en/rules/", "/it/account/login/"])
def test_every_page_links_the_icon(client, path):
    html = client.get(path).content.decode()
    assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in html


def test_favicon_ico_leads_to_the_icon(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 302
    assert response["Location"] == "/static/favicon.svg"
    assert "max-age=86400" in response["Cache-Control"]


def test_favicon_ico_works_in_production_with_hashed_names(client, settings, tmp_path):
    """collectstatic with hashed, compressed names, served by WhiteNoise as in production."""
    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    }
    call_command("collectstatic", interactive=False, verbosity=0)
    location = client.get("/favicon.ico")["Location"]
    assert location.startswith("/static/favicon.") and location.endswith(".svg")
    assert location != "/static/favicon.svg"  # the hashed name, cacheable for ever
    icon = client.get(location)
    assert icon.status_code == 200
    assert icon["Content-Type"] == "image/svg+xml"
    assert b"<svg" in b"".join(icon.streaming_content)
