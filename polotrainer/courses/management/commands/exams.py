"""`manage.py exams finish`: submit every exam attempt whose deadline has passed, with the
deadline as its finish time, and count the answers of closed exams (hidden until the close)
into the trainees' progress. Pages do both too when anyone reads such an attempt or exam; run
this from cron (every few minutes) so results, passes and certificates wait for no reader."""

from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.utils import timezone

from polotrainer.courses.exams import attempts


class Command(BaseCommand):
    help = "Submit the exam attempts whose deadline has passed (for cron)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("action", choices=["finish"])

    def handle(self, *args: Any, action: str, **options: Any) -> None:
        now = timezone.now()
        done = attempts.finish_overdue(now)
        released = attempts.release_due(now)
        self.stdout.write(f"{done} attempt(s) submitted at their deadline")
        self.stdout.write(f"{released} closed exam(s) counted into the trainees' progress")
