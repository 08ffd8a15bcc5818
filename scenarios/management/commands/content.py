"""`manage.py content check` validates the content files; `content load` loads them."""

from collections import defaultdict
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scenarios.content import (
    CHECKS,
    CONTENT_DIR,
    SAMPLE_SEEDS,
    WARNINGS,
    Content,
    ContentError,
    Problem,
    read_content,
)
from scenarios.loading import load


class Command(BaseCommand):
    help = "Check or load the rulebook, scenarios and glossary from scenarios/content/."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("action", choices=["check", "load"])
        parser.add_argument("--dir", type=Path, default=CONTENT_DIR, help="content folder")
        parser.add_argument(
            "--seeds",
            type=int,
            default=len(SAMPLE_SEEDS),
            help=f"how many seeds of each scenario to check (default {len(SAMPLE_SEEDS)})",
        )

    def handle(self, *args: Any, action: str, dir: Path, seeds: int, **options: Any) -> None:
        if seeds < 1:
            raise CommandError("--seeds must be at least 1")
        try:
            content = read_content(dir, sample=range(seeds))
        except ContentError as exc:
            raise CommandError(str(exc)) from None
        for name, count in content.counts().items():
            self.stdout.write(f"{name:>30}: {count}")
        self._report(content)
        if content.problems:
            count = len(content.problems)
            found = f"{count} fairness problem{'' if count == 1 else 's'} (listed above)"
            raise CommandError(f"{found}: nothing was loaded" if action == "load" else found)
        if action == "load":
            try:
                report = load(content)
            except ContentError as exc:
                raise CommandError(f"{exc}: nothing was loaded") from None
            self.stdout.write(
                self.style.SUCCESS(
                    f"loaded: {report.created} new, {report.updated} updated, "
                    f"{report.retired} retired scenarios"
                )
            )
        else:
            self.stdout.write(self.style.SUCCESS("content is valid and fair"))

    def _report(self, content: Content) -> None:
        """The count of each check, then each problem; one line for a problem many seeds share."""
        self.stdout.write("checks (looked at / failed):")
        for name, (checked, failed) in content.check_counts().items():
            self.stdout.write(f"{name:>30}: {checked} / {failed}  ({CHECKS[name]})")
        self.stdout.write("warnings (looked at / reported, not failures):")
        for name, (checked, found) in content.warning_counts().items():
            self.stdout.write(f"{name:>30}: {checked} / {found}  ({WARNINGS[name]})")
        self._list(content.warnings, "warning ")
        self._list(content.problems, "")

    def _list(self, problems: list[Problem], prefix: str) -> None:
        seeds: dict[tuple[str, str, str, str, str], list[str]] = defaultdict(list)
        for p in problems:
            key = (p.check, p.file, p.scenario, p.field, p.message)
            seeds[key].append("every seed" if p.seed is None else str(p.seed))
        for (check, file, scenario, field, message), where in seeds.items():
            label = where[0] if where == ["every seed"] else f"seed {', '.join(where)}"
            self.stderr.write(
                f"[{prefix}{check}] {file}: scenario {scenario}: {label}: {field}: {message}"
            )
