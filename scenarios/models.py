"""The rulebook and the scenarios, as loaded from the content files in scenarios/content/.

The files are the source of truth; `manage.py content load` upserts them here by slug/ref so that
attempts can refer to scenarios. Texts carry both languages side by side (`*_it`, `*_en`).
"""

import hashlib
import json
import re
from typing import Any

from django.db import connection, models

from scenarios import audience
from scenarios.localize import localize

# Parts of the rulebook that it does not number get a name in their ref (3.summary,
# 21.discussion, 37.7.applying): a reader cites them by what the rulebook does number.
_NAMED_PART = re.compile(r"\.[a-z]{3,}$")


def citation(ref: str) -> str:
    """A section's ref as the rulebook numbers it, for people to read.

    >>> [citation(r) for r in ("3.a", "21.f(1)", "37.5b", "37.7.applying", "3.summary")]
    ['3.a', '21.f(1)', '37.5b', '37.7', '3']
    """
    return _NAMED_PART.sub("", ref)


def heading(ref: str, title: str) -> str:
    """A section named in a list or a column: its number, and the title of a part the rulebook
    does not number on its own (whose number is its rule's or its section's).

    >>> [heading(r, t) for r, t in (("3.a", "Between periods"), ("3.summary", "Summary"))]
    ['3.a', '3 Summary']
    """
    number = citation(ref)
    return number if number == ref else f"{number} {title}"


class Rule(models.Model):
    number = models.PositiveSmallIntegerField(primary_key=True)
    slug = models.SlugField(unique=True)
    title_it = models.CharField(max_length=200)
    title_en = models.CharField(max_length=200)
    summary_it = models.TextField()
    summary_en = models.TextField()
    notice_it = models.TextField()
    notice_en = models.TextField()

    class Meta:
        ordering = ["number"]

    def __str__(self) -> str:
        return f"Rule {self.number}"

    @property
    def title(self) -> str:
        return localize(self, "title")

    @property
    def summary(self) -> str:
        return localize(self, "summary")


class SectionQuerySet(models.QuerySet["Section"]):
    def offered(self) -> "SectionQuerySet":
        """The sections with a situation not retired: the ones a scope or a pack can draw from."""
        return self.filter(scenarios__retired=False).distinct()


class Section(models.Model):
    ref = models.CharField(max_length=40, unique=True)
    rule = models.ForeignKey(Rule, on_delete=models.CASCADE, related_name="sections")
    position = models.PositiveSmallIntegerField()
    title_it = models.CharField(max_length=200)
    title_en = models.CharField(max_length=200)
    # [{"it": ..., "en": ...}], the worked-example cases [{"id", "title": {it, en}, "it", "en"}]
    # and, for 37.2, the penalty-spot list: all exactly as in the content file.
    paragraphs = models.JSONField(default=list)
    cases = models.JSONField(default=list)
    spots = models.JSONField(default=dict, blank=True)

    objects = SectionQuerySet.as_manager()

    class Meta:
        ordering = ["rule", "position"]

    def __str__(self) -> str:
        return self.ref

    @property
    def title(self) -> str:
        return localize(self, "title")

    @property
    def citation(self) -> str:
        return citation(self.ref)

    @property
    def label(self) -> str:
        """How a person names the section: "3.a Between periods", "3 Summary"."""
        return f"{self.citation} {self.title}"


class ScenarioQuerySet(models.QuerySet["Scenario"]):
    def live(self) -> "ScenarioQuerySet":
        """The bundled scenarios not retired: what everyone may meet. An authored scenario is
        never among them: a listing that may show one says for whom (`live_for`)."""
        return self.filter(retired=False, authored=False)

    def live_for(self, user_id: int | None) -> "ScenarioQuerySet":
        """The scenarios not retired that this person may meet: the bundled ones, and the
        authored ones of their courses (scenarios.audience)."""
        return self.filter(audience.visible(user_id), retired=False)

    def current(self, slug: str) -> "Scenario":
        """The scenario `slug` as stored now; DoesNotExist if there is none.

        Every question and answer loads its scenario, whose content (a large JSON) rarely
        changes: the process keeps the row, and each call checks it with one indexed lookup of
        the version and update time, so a changed or retired scenario is read again at once.
        """
        table = connection.ops.quote_name(Scenario._meta.db_table)
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT version, updated_at, retired FROM {table} WHERE slug = %s",  # noqa: S608 - our table
                [slug],
            )
            found = cursor.fetchone()
        if found is None:
            raise Scenario.DoesNotExist(slug)
        key = (slug, *(str(v) for v in found))
        cached = _ROWS.get(slug)
        if cached is None or cached[0] != key:
            if len(_ROWS) > 4096:
                _ROWS.clear()
            cached = _ROWS[slug] = (key, self.get(slug=slug))
        return cached[1]


#: How the `source_file` of a promoted scenario starts (docs/content.md, "Shared upward"):
#: `content load` does not retire it for being in no file, and updates it (the same row, its
#: answers kept) once a file holds its slug.
PROMOTED = "promoted from "


_ROWS: dict[str, tuple[tuple[str, ...], "Scenario"]] = {}


class Scenario(models.Model):
    """A situation to rule on. No answer key: the engine computes it from `facts`."""

    slug = models.SlugField(max_length=100, unique=True)
    rule = models.ForeignKey(Rule, on_delete=models.PROTECT, related_name="scenarios")
    section = models.ForeignKey(Section, on_delete=models.PROTECT, related_name="scenarios")
    case_id = models.CharField(max_length=40, blank=True, db_index=True)
    kind = models.CharField(max_length=40)
    title_it = models.CharField(max_length=200)
    title_en = models.CharField(max_length=200)
    # Everything else of the content file's entry (situation texts, facts, params, questions,
    # explanation, citations), kept as authored so variants render exactly what the file says.
    data = models.JSONField()
    source_file = models.CharField(max_length=200)
    # A short hash of `data` (and the kind): what every answer records as its content version,
    # and the key of the caches of parsed specs and variants, so a changed file is never read
    # from a stale cache.
    version = models.CharField(max_length=16, default="", editable=False)
    retired = models.BooleanField(default=False, db_index=True)
    # Written in the browser by a course's instructors (polotrainer.authoring), not loaded from
    # the files: only its audience meets it (scenarios.audience), `content load` never touches it.
    authored = models.BooleanField(default=False, db_index=True)
    # A scenario staff promoted from a course to the whole site has `authored` cleared and its
    # `source_file` starts with PROMOTED: bundled in every way, though no file holds it (yet).
    updated_at = models.DateTimeField(auto_now=True)

    objects = ScenarioQuerySet.as_manager()

    class Meta:
        ordering = ["rule", "section__position", "slug"]

    def __str__(self) -> str:
        return self.slug

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.version = content_version(self.kind, self.data)
        if kwargs.get("update_fields") is not None and "data" in kwargs["update_fields"]:
            kwargs["update_fields"] = {*kwargs["update_fields"], "version"}
        super().save(*args, **kwargs)

    @property
    def title(self) -> str:
        return localize(self, "title")

    @property
    def promoted(self) -> bool:
        """Written by a course, then promoted by staff to the whole site (and in no file yet)."""
        return not self.authored and self.source_file.startswith(PROMOTED)


def content_version(kind: str, data: Any) -> str:
    """A short, stable hash of a scenario's content (key order does not matter)."""
    canonical = json.dumps([kind, data], sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()[:16]


class GlossaryTerm(models.Model):
    slug = models.SlugField(unique=True)
    term_it = models.CharField(max_length=120)
    term_en = models.CharField(max_length=120)
    definition_it = models.TextField()
    definition_en = models.TextField()
    match_it = models.JSONField(default=list)
    match_en = models.JSONField(default=list)
    section_refs = models.JSONField(default=list)

    class Meta:
        ordering = ["term_en"]

    def __str__(self) -> str:
        return self.slug

    @property
    def term(self) -> str:
        return localize(self, "term")

    @property
    def definition(self) -> str:
        return localize(self, "definition")
