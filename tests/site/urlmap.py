"""Every URL pattern of the site, found by walking the resolver, and what each one reads.

The fuzz test and the access matrix start from here, so a URL added to any app is fuzzed and
must have a row in the matrix without anyone listing it.
"""

import inspect
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import quote, urljoin, urlsplit

from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.resolvers import LocalePrefixPattern

ROOT = Path(__file__).resolve().parents[2]
PARAM = re.compile(r"<(?:(?P<converter>[^>:]+):)?(?P<name>[^>]+)>")
QUERY_READ = re.compile(r"""\bGET\s*(?:\.get|\.getlist|\[)\(?\s*["']([\w-]+)["']""")


@dataclass(frozen=True)
class Route:
    """One URL pattern: its namespaced name, its route text and the view behind it."""

    name: str
    route: str  # e.g. "{lang}/practice/<slug:slug>/<int:seed>/"
    callback: Callable[..., Any]

    @property
    def params(self) -> list[tuple[str, str]]:
        """(name, converter) of each path parameter, in order."""
        return [(m["name"], m["converter"] or "str") for m in PARAM.finditer(self.route)]

    def url(self, lang: str = "en", **values: str) -> str:
        """The path with each parameter's raw value percent-encoded into it."""

        def value(match: re.Match[str]) -> str:
            return quote(str(values[match["name"]]), safe="")

        return "/" + PARAM.sub(value, self.route.replace("{lang}", lang))

    @property
    def module_source(self) -> str:
        """The source of the module of the view, if it is this project's own (else "")."""
        view = inspect.unwrap(getattr(self.callback, "view_class", self.callback))
        path = Path(inspect.getsourcefile(view) or "")
        return path.read_text() if ROOT in path.parents and ".venv" not in path.parts else ""

    @property
    def query_keys(self) -> list[str]:
        """The query parameters the view's module reads (request.GET.get("...") and kin)."""
        return sorted(set(QUERY_READ.findall(self.module_source)))


def routes() -> list[Route]:
    return list(_walk(get_resolver().url_patterns, "", ""))


def _walk(patterns: list[Any], prefix: str, namespace: str) -> Iterator[Route]:
    for entry in patterns:
        if isinstance(entry, URLResolver):
            part = (
                "{lang}/" if isinstance(entry.pattern, LocalePrefixPattern) else str(entry.pattern)
            )
            ns = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            yield from _walk(entry.url_patterns, prefix + part, ns)
        elif isinstance(entry, URLPattern):
            yield Route(f"{namespace}{entry.name}", prefix + str(entry.pattern), entry.callback)


# --- the forms on a page --------------------------------------------------------------------------


@dataclass
class Form:
    action: str
    method: str
    fields: dict[str, list[str]]  # name -> values as the page fills them in
    types: dict[str, str]
    autocomplete: dict[str, str]


class _FormParser(HTMLParser):
    def __init__(self, page_url: str) -> None:
        super().__init__()
        self.page_url = page_url
        self.forms: list[Form] = []
        self._select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            action = urljoin(self.page_url, a.get("action") or self.page_url)
            self.forms.append(Form(action, a.get("method", "get").lower(), {}, {}, {}))
        elif not self.forms or "name" not in a:
            if tag == "option" and self._select and self.forms:
                values = self.forms[-1].fields[self._select]
                if not values:
                    values.append(a.get("value", ""))
            return
        elif tag in {"input", "textarea", "button"}:
            form, name, kind = self.forms[-1], a["name"], a.get("type", "text")
            if kind in {"radio", "checkbox"} and name in form.fields and form.fields[name]:
                return
            if tag == "button" and name in form.fields:
                return
            form.fields.setdefault(name, []).append(a.get("value", ""))
            form.types[name] = kind if tag == "input" else tag
            form.autocomplete[name] = a.get("autocomplete", "")
        elif tag == "select":
            self._select = a["name"]
            self.forms[-1].fields[a["name"]] = []
            self.forms[-1].types[a["name"]] = "select"

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None


def forms_on(html: str, page_url: str) -> list[Form]:
    """The forms of a page that post to this site, with their fields as the page fills them."""
    parser = _FormParser(page_url)
    parser.feed(html)
    return [f for f in parser.forms if not urlsplit(f.action).netloc]
