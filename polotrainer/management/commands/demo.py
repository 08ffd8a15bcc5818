"""`manage.py demo`: load the demo (development only), `--reset` to start over, `--remove`."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db.models import Count, Q

from polotrainer import demo
from polotrainer.umpires.models import Attempt


class Command(BaseCommand):
    help = (
        "Load the demo (an instructor, trainees with weeks of answers, a course): development "
        "only. Run again, it adds nothing; --reset starts over; --remove deletes it."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--reset", action="store_true", help="delete the demo, then load it")
        parser.add_argument("--remove", action="store_true", help="delete the demo only")
        parser.add_argument(
            "--address", default="http://127.0.0.1:8000/", help="the site's address, printed"
        )

    def handle(self, *args: Any, reset: bool, remove: bool, address: str, **options: Any) -> None:
        try:
            if reset or remove:
                removed = demo.remove()
                self.stdout.write(f"demo removed ({removed} account{'' if removed == 1 else 's'})")
                if remove:
                    return
            before = Attempt.objects.filter(user__username__in=demo.USERNAMES).count()
            made = demo.make()
        except demo.DemoError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(self.summary(made, before, address))

    def summary(self, made: demo.Demo, before: int, address: str) -> str:
        trainees = made.trainees.values()
        counts = Attempt.objects.filter(user__in=trainees).aggregate(
            answers=Count("pk"), right=Count("pk", filter=Q(correct=True))
        )
        added = counts["answers"] - before
        state = (
            f"demo loaded: {counts['answers']} answers by {len(made.trainees)} trainees, "
            f"{counts['right']} right"
            if added
            else "demo already loaded (nothing added; --reset starts over)"
        )
        width = max(len(a.username) for a in demo.ACCOUNTS)
        lines = [
            self.style.SUCCESS(state),
            f"Open {address} and log in as one of these (password for all: {demo.PASSWORD}):",
            *(f"  {a.username:<{width}}  {a.name}: {a.story}" for a in demo.ACCOUNTS),
            *made.lines,
        ]
        return "\n".join(lines)
