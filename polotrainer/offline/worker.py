"""What the service worker keeps from the start: the app shell, the offline practice page and
the rulebook reader in every language, and the static files they use (hashed names).

Its version is a hash of all that (and of the templates of the shell), so a deploy that
changes any of them installs a new worker, which fetches them again and drops the old copies.
"""

import hashlib
from pathlib import Path

from django.conf import settings
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation

from scenarios.models import Rule, Section

STATIC = (
    "vendor/pico-2.1.1.jade.min.css",
    "css/app.css",
    "css/field.css",
    "css/practice.css",
    "css/rulebook.css",
    "css/offline.css",
    "vendor/htmx-2.0.11.min.js",
    "js/field.js",
    "js/offline.js",
    "js/offline-practice.js",
    "favicon.svg",
    "icons/icon-192.png",
)
#: Templates whose change changes what the worker keeps (the pages above are made from them).
TEMPLATES = ("base.html", "offline/offline.html", "offline/sw.js")


def precached() -> list[str]:
    """Every address the worker fetches when it installs."""
    urls = [static(name) for name in STATIC]
    refs = list(Section.objects.values_list("ref", flat=True))
    numbers = list(Rule.objects.values_list("number", flat=True))
    for lang, _name in settings.LANGUAGES:
        with translation.override(lang):
            urls += [
                reverse("offline:page"),
                reverse("scenarios:rules"),
                reverse("scenarios:glossary"),
            ]
            urls += [reverse("scenarios:rule", args=[n]) for n in numbers]
            urls += [reverse("scenarios:section", args=[ref]) for ref in refs]
    return urls


def version(urls: list[str]) -> str:
    digest = hashlib.sha256("\n".join(urls).encode())
    root = Path(settings.BASE_DIR) / "templates"
    for name in TEMPLATES:
        path = root / name
        if path.exists():
            digest.update(path.read_bytes())
    return digest.hexdigest()[:12]
