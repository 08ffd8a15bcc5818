"""The drills play four bundled scenarios, one or two per scene family, read from the content
files themselves (the scenes are made for their facts)."""

import tomllib
from pathlib import Path

import pytest
from django.test import Client

from scenarios.content import CONTENT_DIR
from scenarios.models import Rule, Scenario, Section

SLUGS = {
    "r21-safety-off-an-opponent": "21.a",
    "p6-safety-spot": "37.6",
    "rp-penalty-1-or-2-where": "37.2",
    "r21-foul-dangerous-or-mechanics": "21.discussion",
}


def bundled(slug: str) -> dict:
    for path in sorted((CONTENT_DIR / "scenarios").glob("*.toml")):
        for entry in tomllib.loads(Path(path).read_text("utf-8"))["scenario"]:
            if entry["slug"] == slug:
                return entry
    raise LookupError(slug)


@pytest.fixture
def drill_content(db) -> dict[str, Scenario]:
    return create_drill_content()


def create_drill_content() -> dict[str, Scenario]:
    """The rules, the sections these scenarios cite, and the scenarios (also for a live
    server, from the browser tests)."""
    for number in (21, 37):
        Rule.objects.create(
            number=number,
            slug=f"rule-{number}",
            title_it=f"Regola {number}",
            title_en=f"Rule {number}",
            summary_it="",
            summary_en="",
            notice_it="",
            notice_en="",
        )
    refs = ["21.a", "21.b", "21.discussion", "37.1", "37.2", "37.5b", "37.6"]
    for position, ref in enumerate(refs):
        Section.objects.create(
            ref=ref,
            rule_id=int(ref.split(".")[0]),
            position=position,
            title_it=f"Sezione {ref}",
            title_en=f"Section {ref}",
            paragraphs=[{"it": f"Testo italiano di {ref}.", "en": f"English text of {ref}."}],
        )
    out = {}
    for slug, ref in SLUGS.items():
        data = bundled(slug)
        section = Section.objects.get(ref=ref)
        out[slug] = Scenario.objects.create(
            slug=slug,
            rule_id=section.rule_id,
            section=section,
            kind=data["kind"],
            title_it=data["title"]["it"],
            title_en=data["title"]["en"],
            data=data,
            source_file="tests",
        )
    return out


@pytest.fixture
def bob_client(other_trainee) -> Client:
    client = Client()
    client.force_login(other_trainee)
    return client
