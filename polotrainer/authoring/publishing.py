"""Drafts, previews and publishing: a checked draft becomes a scenarios.Scenario for the course.

A draft is published as a Scenario with `authored` set and the slug `own-<situation>-v<n>`.
Publishing again after an edit updates that scenario while nobody has answered it; once a
trainee has, it makes version n+1 (a new scenario) and retires the old one, whose row keeps the
texts and facts those answers were given to ("answers keep theirs"): history, exports and the
replay links of old answers read it, new questions draw the new one.

Shared upward (docs/content.md, "Shared upward"): any version exports as a content-file entry,
and staff may promote the current one to the whole site. The promoted scenario is the same row,
its `authored` cleared (so everyone meets it, as any bundled one) and its `source_file` marked
PROMOTED (so `content load` keeps it until a file holds it): no answer, review card or exam slot
moves. The situation's own copy is retired: it publishes no more versions.
"""

from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from polotrainer.authoring import checking
from polotrainer.authoring.models import Situation, Version
from polotrainer.umpires.models import Attempt, ScenarioProgress
from scenarios.models import PROMOTED, Scenario, Section, content_version
from scenarios.writing import scenario_toml

#: What a copy of a bundled scenario keeps: everything but where it came from.
COPIED = {"section", "kind", "cites", "title", "situation", "explanation", "facts", "params",
          "derived", "constraints", "question"}  # fmt: skip


class NotPublished(Exception):
    def __init__(self, report: checking.Report) -> None:
        super().__init__("the draft fails a check")
        self.report = report


class ShareCode(StrEnum):
    UNPUBLISHED = "unpublished"
    PROMOTED = "promoted"


class ShareError(Exception):
    """The situation cannot be promoted (or, once promoted, published again)."""

    def __init__(self, code: ShareCode) -> None:
        super().__init__(code)
        self.code = code


def copy_of(scenario: Scenario) -> dict[str, Any]:
    """A bundled scenario's entry, to start a draft from."""
    return {k: v for k, v in scenario.data.items() if k in COPIED}


def slug_for(situation: Situation, number: int) -> str:
    return f"own-{situation.pk}-v{number}"


def draft_slug(situation: Situation) -> str:
    current = situation.current
    return current.scenario.slug if current else slug_for(situation, 1)


def unsaved(situation: Situation, entry: Mapping[str, Any], slug: str) -> Scenario:
    """The draft as a Scenario that is not stored: the quiz core poses it for the preview
    exactly as it will pose the published one."""
    section = Section.objects.get(ref=entry["section"])
    data = {**entry, "slug": slug}
    scenario = Scenario(
        slug=slug,
        rule_id=section.rule_id,
        section=section,
        kind=entry["kind"],
        title_it=entry["title"]["it"],
        title_en=entry["title"]["en"],
        data=data,
        source_file=f"course {situation.course_id}",
        authored=True,
    )
    scenario.version = content_version(scenario.kind, data)
    return scenario


@transaction.atomic
def publish(situation: Situation, by: User) -> Version:
    """Check the draft and publish it to the course's cohorts; NotPublished if a check fails."""
    situation = Situation.objects.select_for_update().get(pk=situation.pk)
    current = situation.current
    if current is not None and not current.scenario.authored:
        raise ShareError(ShareCode.PROMOTED)
    answered = current is not None and Attempt.objects.filter(scenario=current.scenario).exists()
    number = 1 if current is None else current.number + (1 if answered else 0)
    slug = slug_for(situation, number)
    report = checking.check(situation.entry, slug)
    if not report.passed:
        raise NotPublished(report)
    fresh = unsaved(situation, situation.entry, slug)
    if current is not None and not answered:
        scenario = current.scenario
        for name in ("rule_id", "section", "kind", "title_it", "title_en", "data"):
            setattr(scenario, name, getattr(fresh, name))
        scenario.retired = False
        scenario.save()
        current.published_by, current.published_at = by, timezone.now()
        current.save(update_fields=["published_by", "published_at"])
        return current
    fresh.save()
    if current is not None:
        Scenario.objects.filter(pk=current.scenario_id).update(retired=True)
        _carry_reviews(current.scenario_id, fresh)
    return Version.objects.create(
        situation=situation, number=number, scenario=fresh, published_by=by
    )


def _carry_reviews(old_id: int, new: Scenario) -> None:
    """The trainees' review schedule goes on with the new version: each card and due time is
    copied to it (the old version, retired, leaves review). Answers and scores stay with the
    version they were given to."""
    ScenarioProgress.objects.bulk_create(
        ScenarioProgress(user_id=row.user_id, scenario=new, card=row.card, due=row.due)
        for row in ScenarioProgress.objects.filter(scenario_id=old_id, card__isnull=False)
    )


def is_published(situation: Situation) -> bool:
    """Whether the course's trainees see the draft as it stands."""
    current = situation.current
    if current is None or current.scenario.retired:
        return False
    return bool(current.scenario.data == {**situation.entry, "slug": current.scenario.slug})


def is_promoted(situation: Situation) -> bool:
    """Whether staff promoted it: its scenario is the site's now (in a file yet or not)."""
    current = situation.current
    return current is not None and not current.scenario.authored


@transaction.atomic
def promote(situation: Situation) -> Scenario:
    """Make the current version site content: the same scenario row, for everyone.

    ShareError when there is no published version, or it was promoted already."""
    situation = Situation.objects.select_for_update().get(pk=situation.pk)
    current = situation.current
    if current is None:
        raise ShareError(ShareCode.UNPUBLISHED)
    scenario = Scenario.objects.select_for_update().get(pk=current.scenario_id)
    if not scenario.authored:
        raise ShareError(ShareCode.PROMOTED)
    scenario.authored = False
    scenario.retired = False
    scenario.source_file = f"{PROMOTED}course {situation.course_id}"
    # updated_at too: Scenario.objects.current() keys its cached row on it.
    scenario.save(update_fields=["authored", "retired", "source_file", "updated_at"])
    return scenario


def exported(situation: Situation) -> tuple[str, str]:
    """The situation as a content-file entry (its current version's, else the draft's), and
    the slug it carries: `content load` takes it, and poses it with the same variants."""
    current = situation.current
    if current is not None:
        data, state = current.scenario.data, f"version {current.number}"
        if not current.scenario.authored:
            state += ", promoted to the whole site"
    else:
        data, state = {**situation.entry, "slug": draft_slug(situation)}, "a draft, never published"
    course = " ".join(situation.course.title_en.split())
    comment = (
        f'Written in the browser by the course "{course}" (situation {situation.pk}, {state}).\n'
        "To bundle it, add this entry to a file of scenarios/content/scenarios/ and list the\n"
        "decision it asks in decisions.toml; keep the slug, which draws its variants (and, once\n"
        "staff promoted it, names the same scenario, so its answers stay with it)."
    )
    return scenario_toml(data, comment), str(data["slug"])
