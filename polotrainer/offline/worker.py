"""What the service worker keeps: from the start, the app shell (the offline practice page in
every language and the static files it uses, hashed names); once the person prepares for no
signal (a pack downloaded on the offline page), the rulebook reader in every language.

The rulebook waits for that on purpose: every page of the site registers the worker, so a room
of phones joining a clinic would each have fetched 88 pages (330 KB gzipped, ~0.8 s of the
server's CPU) from the club's laptop at install, for a reader none of them asked for.

Its version is a hash of all that (and of the templates of the shell), so a deploy that
changes any of them installs a new worker, which fetches the shell again and drops the old
copy; the rulebook is fetched again at the next pack downloaded after such a deploy.
"""

import functools
import hashlib
import json
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.signals import setting_changed
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import get_script_prefix, reverse
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
    """Every address the worker fetches when it installs: the shell, nothing of the rulebook."""
    urls = [static(name) for name in STATIC]
    for lang, _name in settings.LANGUAGES:
        with translation.override(lang):
            urls.append(reverse("offline:page"))
    return urls


def rulebook() -> list[str]:
    """The rulebook reader's pages in every language, which the worker keeps when the offline
    page asks (a pack downloaded): the rules, the glossary, each rule and each section."""
    return _rulebook(*_contents())


def script() -> str:
    """The worker's script. Every phone's first visit asks for it, so it is kept per process
    for the rulebook it lists (two small queries a request instead of ~90 URLs reversed, a
    template and three files read and hashed: 4.81 -> 1.06 ms in process)."""
    return _script(*_contents(), get_script_prefix())


def _contents() -> tuple[tuple[str, ...], tuple[int, ...]]:
    refs = tuple(Section.objects.values_list("ref", flat=True))
    numbers = tuple(Rule.objects.values_list("number", flat=True))
    return refs, numbers


@functools.lru_cache(maxsize=8)
def _script(refs: tuple[str, ...], numbers: tuple[int, ...], _prefix: str) -> str:
    urls, pages = precached(), _rulebook(refs, numbers)
    return render_to_string(
        "offline/sw.js",
        {
            "version": version(urls + pages),
            "precache": json.dumps(urls),
            "rulebook": json.dumps(pages),
            "languages": json.dumps([code for code, _name in settings.LANGUAGES]),
        },
    )


def _forget(**_kwargs: Any) -> None:
    """A setting changed (tests override them): the static names and languages may have."""
    _script.cache_clear()


setting_changed.connect(_forget, dispatch_uid="polotrainer.offline.worker.forget")


def _rulebook(refs: tuple[str, ...], numbers: tuple[int, ...]) -> list[str]:
    urls: list[str] = []
    for lang, _name in settings.LANGUAGES:
        with translation.override(lang):
            urls += [reverse("scenarios:rules"), reverse("scenarios:glossary")]
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
