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


def _listed(script: str, name: str) -> list[str]:
    line = next(ln for ln in script.splitlines() if ln.startswith(f"const {name} = "))
    return json.loads(line.removeprefix(f"const {name} = ").removesuffix(";"))


def test_the_worker_is_served_at_the_root_and_keeps_the_shell_then_the_rulebook(client, scenarios):
    """At install the offline page and the static files only: every page registers the worker,
    and a room of phones joining a clinic must not each fetch the rulebook. The rulebook's
    pages, both languages, are listed for when the offline page asks."""
    response = client.get("/sw.js")
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Cache-Control"] == "no-cache"
    script = response.content.decode()
    installed, rulebook = _listed(script, "PRECACHE"), _listed(script, "RULEBOOK")
    for lang in ("it", "en"):
        assert f"/{lang}/offline/" in installed
        assert f"/{lang}/rules/" in rulebook and f"/{lang}/glossary/" in rulebook
        assert f"/{lang}/rules/section/37.6/" in rulebook
    assert any(url.endswith("offline-practice.js") for url in installed)
    assert not [url for url in installed if "/rules/" in url or "/glossary/" in url]
    assert len(installed) < 20


def test_the_worker_changes_when_the_rulebook_it_keeps_changes(client, scenarios):
    """A new section is a new worker (browsers compare its bytes), whose version makes the
    offline page's next download fetch the rulebook again."""
    from scenarios.models import Rule, Section

    before = client.get("/sw.js").content.decode()
    rule = Rule.objects.get(number=37)
    Section.objects.create(rule=rule, ref="37.99", position=99)
    after = client.get("/sw.js").content.decode()
    assert "/en/rules/section/37.99/" in _listed(after, "RULEBOOK")
    version = next(ln for ln in before.splitlines() if ln.startswith("const VERSION"))
    assert version not in after


def test_the_closed_book_notice_tells_the_device_to_stop_grading(alice_client, scenarios, trainee):
    until = timezone.now() + timedelta(hours=1)
    closedbook.hold(trainee.pk, 7, until, titles={"it": "E", "en": "E"}, time_zone="Europe/Rome")
    response = alice_client.get("/en/practice/next/")
    assert response.status_code == 403
    assert f'name="offline-hold" content="{int(until.timestamp())}000"' in response.content.decode()
