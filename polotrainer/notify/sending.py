"""One way to send this app's mail: a text and an HTML part rendered from one template pair in
the recipient's language, from DEFAULT_FROM_EMAIL, with the unsubscribe headers when the mail
is one a person can stop (RFC 2369 List-Unsubscribe, RFC 8058 one-click POST)."""

import logging
import smtplib
from typing import Any

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.utils import translation

log = logging.getLogger(__name__)


def compose(
    to: str,
    template: str,
    context: dict[str, Any],
    lang: str,
    unsubscribe: str = "",
) -> EmailMultiAlternatives:
    """The mail `notify/mail/<template>` writes: its _subject.txt, .txt and .html, in `lang`."""
    with translation.override(lang):
        context = {**context, "lang": lang, "unsubscribe": unsubscribe}
        subject = " ".join(render_to_string(f"notify/mail/{template}_subject.txt", context).split())
        text = render_to_string(f"notify/mail/{template}.txt", context)
        html = render_to_string(f"notify/mail/{template}.html", context)
    headers = {}
    if unsubscribe:
        headers["List-Unsubscribe"] = f"<{unsubscribe}>"
        headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    message = EmailMultiAlternatives(
        subject, text, settings.DEFAULT_FROM_EMAIL, [to], headers=headers
    )
    message.attach_alternative(html, "text/html")
    return message


def send(message: EmailMultiAlternatives) -> str:
    """Hand the mail to the mail server: "" when it took it, else what it said."""
    try:
        message.send()
    except smtplib.SMTPRecipientsRefused as exc:
        refused = next(iter(exc.recipients.values()), (0, b""))
        return _said(refused[1]) or "refused"
    except smtplib.SMTPResponseException as exc:
        return _said(exc.smtp_error) or str(exc.smtp_code)
    except (OSError, smtplib.SMTPException) as exc:
        log.warning("mail not sent: %s", exc)
        return str(exc)[:300] or exc.__class__.__name__
    return ""


def _said(text: bytes | str) -> str:
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    return text[:300]
