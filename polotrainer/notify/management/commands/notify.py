"""`manage.py notify`: send the reminders and news due now, each once (README, cron)."""

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from polotrainer.notify import links, reminders


class Command(BaseCommand):
    help = (
        "Send the reminders and news due now (assignments, exams, results, certificates, "
        "instructors' weekly digest), each once per person: run it from cron, e.g. hourly."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.MAIL_ENABLED:
            self.stdout.write("Mail is not configured (EMAIL_HOST): nothing sent.")
            return
        try:
            base = links.site_url()
        except Exception as exc:
            raise CommandError(str(exc)) from None
        report = reminders.run(timezone.now(), base)
        total = sum(report.sent.values())
        kinds = ", ".join(f"{kind} {count}" for kind, count in sorted(report.sent.items()))
        self.stdout.write(f"{total} sent" + (f" ({kinds})" if kinds else ""))
        if report.failed:
            self.stdout.write(f"{report.failed} refused by the mail server: tried again next run")
