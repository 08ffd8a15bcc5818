"""`manage.py content check` validates the content files; `content load` loads them."""

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scenarios.content import CONTENT_DIR, ContentError, read_content
from scenarios.loading import load


class Command(BaseCommand):
    help = "Check or load the rulebook, scenarios and glossary from scenarios/content/."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("action", choices=["check", "load"])
        parser.add_argument("--dir", type=Path, default=CONTENT_DIR, help="content folder")

    def handle(self, *args: Any, action: str, dir: Path, **options: Any) -> None:
        try:
            content = read_content(dir)
        except ContentError as exc:
            raise CommandError(str(exc)) from None
        for name, count in content.counts().items():
            self.stdout.write(f"{name:>30}: {count}")
        if action == "load":
            report = load(content)
            self.stdout.write(
                self.style.SUCCESS(
                    f"loaded: {report.created} new, {report.updated} updated, "
                    f"{report.retired} retired scenarios"
                )
            )
        else:
            self.stdout.write(self.style.SUCCESS("content is valid"))
