"""`manage.py instructor grant USER`, `revoke USER`, `list`: the instructor role from a shell,
for a first install (afterwards staff use the instructors page)."""

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db.models import Q

from polotrainer.umpires import roles
from polotrainer.umpires.models import InstructorRole


class Command(BaseCommand):
    help = "Grant or revoke the instructor role (by username or e-mail), or list who holds it."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("action", choices=["grant", "revoke", "list"])
        parser.add_argument("person", nargs="?", help="username or e-mail")

    def handle(self, *args: Any, action: str, person: str | None, **options: Any) -> None:
        if action == "list":
            for role in InstructorRole.objects.select_related("user").order_by("user__username"):
                self.stdout.write(f"{role.user.get_username()}\t{role.user.email}")
            return
        if not person:
            raise CommandError(f"say whom to {action}: manage.py instructor {action} USERNAME")
        found = list(
            get_user_model().objects.filter(Q(username__iexact=person) | Q(email__iexact=person))[
                :2
            ]
        )
        if len(found) != 1:
            raise CommandError(f"no single account has the username or e-mail {person!r}")
        user = found[0]
        if action == "grant":
            done = roles.grant(user)
            verb = "is now an instructor" if done else "was already an instructor"
        else:
            done = roles.revoke(user)
            verb = "is no longer an instructor" if done else "was not an instructor"
        self.stdout.write(self.style.SUCCESS(f"{user.get_username()} {verb}"))
