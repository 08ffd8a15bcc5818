"""Writing checked content into the database: upsert by slug/ref in one transaction.

Scenarios that left the files are retired, never deleted: attempts refer to them. A scenario
written in the browser (`authored`) is neither: a file's slug that names one stops the load.
One that staff promoted to the whole site (`models.PROMOTED`) is in no file until a reviewer
adds its export: it is not retired meanwhile, and a file with its slug updates it.
"""

from dataclasses import dataclass

from django.db import transaction

from scenarios.content import Content, ContentError
from scenarios.models import PROMOTED, GlossaryTerm, Rule, Scenario, Section


@dataclass(frozen=True)
class LoadReport:
    created: int
    updated: int
    retired: int


@transaction.atomic
def load(content: Content) -> LoadReport:
    for data in content.rules:
        Rule.objects.update_or_create(
            number=data["number"],
            defaults={
                "slug": data["slug"],
                **_both("title", data["title"]),
                **_both("summary", data["summary"]),
                **_both("notice", data["notice"]),
            },
        )
    sections = {}
    for ref, data in content.sections.items():
        sections[ref], _ = Section.objects.update_or_create(
            ref=ref,
            defaults={
                "rule_id": data["rule"],
                "position": data["position"],
                **_both("title", data["title"]),
                "paragraphs": data.get("paragraph", []),
                "cases": data.get("case", []),
                "spots": data.get("spots", {}),
            },
        )
    created = updated = 0
    taken = set(
        Scenario.objects.filter(
            authored=True, slug__in=[s["slug"] for s in content.scenarios]
        ).values_list("slug", flat=True)
    )
    for data in content.scenarios:
        if data["slug"] in taken:
            raise ContentError(
                data["source_file"],
                f"scenario {data['slug']}",
                "slug",
                "a course's instructors wrote a scenario with this slug in the browser: "
                "choose another",
            )
        section = sections[data["section"]]
        _, was_created = Scenario.objects.update_or_create(
            slug=data["slug"],
            defaults={
                "rule_id": section.rule_id,
                "section": section,
                "case_id": data.get("case", ""),
                "kind": data["kind"],
                **_both("title", data["title"]),
                "data": {k: v for k, v in data.items() if k != "source_file"},
                "source_file": data["source_file"],
                "retired": False,
            },
        )
        created += was_created
        updated += not was_created
    slugs = [s["slug"] for s in content.scenarios]
    retired = (
        Scenario.objects.exclude(slug__in=slugs)
        .exclude(source_file__startswith=PROMOTED)
        .filter(retired=False, authored=False)
        .update(retired=True)
    )
    for data in content.glossary:
        GlossaryTerm.objects.update_or_create(
            slug=data["slug"],
            defaults={
                "term_it": data["it"],
                "term_en": data["en"],
                **_both("definition", data["definition"]),
                "match_it": data.get("match", {}).get("it", []),
                "match_en": data.get("match", {}).get("en", []),
                "section_refs": data.get("sections", []),
            },
        )
    GlossaryTerm.objects.exclude(slug__in=[t["slug"] for t in content.glossary]).delete()
    return LoadReport(created, updated, retired)


def _both(name: str, texts: dict[str, str]) -> dict[str, str]:
    return {f"{name}_it": texts["it"], f"{name}_en": texts["en"]}
