"""`manage.py exams finish`: submit every exam attempt whose deadline has passed, with the
deadline as its finish time. Pages do it too when anyone reads such an attempt; run this from
cron (every few minutes) so results, passes and certificates do not wait for a reader."""

from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.utils import timezone

from polotrainer.courses import exams


class Command(BaseCommand):
    help = "Submit the exam attempts whose deadline has passed (for cron)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("action", choices=["finish"])

    def handle(self, *args: Any, action: str, **options: Any) -> None:
        done = exams.finish_overdue(timezone.now())
        self.stdout.write(f"{done} attempt(s) submitted at their deadline")
