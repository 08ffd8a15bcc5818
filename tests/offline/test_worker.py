"""Installable: the manifest in the user's language, the worker at the root, what it keeps."""

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from polotrainer.umpires import closedbook

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("lang", ["it", "en"])
def test_the_manifest_starts_in_its_language(client, lang):
    response = client.get(f"/{lang}/manifest.webmanifest")
    assert response["Content-Type"] == "application/manifest+json"
    manifest = response.json()
    assert manifest["start_url"] == f"/{lang}/" and manifest["lang"] == lang
    assert manifest["scope"] == "/" and manifest["display"] == "standalone"
    assert {i["sizes"] for i in manifest["icons"]} == {"192x192", "512x512"}
    assert any(i.get("purpose") == "maskable" for i in manifest["icons"])


def test_every_page_links_the_manifest_and_the_outbox_script(client, scenarios):
    page = client.get("/en/rules/").content.decode()
    assert 'rel="manifest" href="/en/manifest.webmanifest"' in page
    assert "js/offline.js" in page and "data-outbox-badge" in page


def test_the_worker_is_served_at_the_root_and_keeps_the_offline_page_and_the_rulebook(
    client, scenarios
):
    response = client.get("/sw.js")
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Cache-Control"] == "no-cache"
    script = response.content.decode()
    line = next(ln for ln in script.splitlines() if ln.startswith("const PRECACHE = "))
    kept = json.loads(line.removeprefix("const PRECACHE = ").removesuffix(";"))
    for lang in ("it", "en"):
        assert f"/{lang}/offline/" in kept and f"/{lang}/rules/" in kept
        assert f"/{lang}/rules/section/37.6/" in kept
    assert any(url.endswith("offline-practice.js") for url in kept)


def test_the_closed_book_notice_tells_the_device_to_stop_grading(alice_client, scenarios, trainee):
    until = timezone.now() + timedelta(hours=1)
    closedbook.hold(trainee.pk, 7, until, titles={"it": "E", "en": "E"}, time_zone="Europe/Rome")
    response = alice_client.get("/en/practice/next/")
    assert response.status_code == 403
    assert f'name="offline-hold" content="{int(until.timestamp())}000"' in response.content.decode()
