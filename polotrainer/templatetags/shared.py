"""`{% shared %}`: a part of a page that is the same for everyone who shares a few values,
rendered once per process and kept.

    {% load shared %}
    {% shared "nav" user.is_authenticated request.resolver_match.url_name %}...{% endshared %}

What is inside may depend only on the values named after the part's name, on the active
language, the site's mount point (the script prefix every URL starts with) and autoescaping,
which are always part of the key. The one exception is the CSRF token: `{% csrf_token %}` and
`{{ csrf_token }}` inside are kept as a hole and filled in with the request's own token each
time, so a form may be shared. Nothing inside may set a variable used after it (`{% ... as x %}`
is not run again when the part is kept). The values are the key as they are, so they must be
hashable: strings, numbers, None, tuples, frozen dataclasses.

Kept per process in a plain dictionary, not Django's cache (which would pickle and unpickle
every part on each read), bounded, and emptied when a setting changes (tests override them).
A key holds what its part shows (a question, the values in its form), never who asked.
"""

import secrets
from collections.abc import Hashable
from typing import Any

from django import template
from django.core.signals import setting_changed
from django.template.base import FilterExpression, NodeList, Parser, Token
from django.template.context import Context
from django.template.defaulttags import CsrfTokenNode
from django.template.loader_tags import BlockNode
from django.urls import get_script_prefix
from django.utils.html import conditional_escape
from django.utils.translation import get_language

register = template.Library()

#: How many parts a process keeps; all are let go when it fills up (a new content version's
#: parts then fill it again).
KEPT_MAX = 2048
_KEPT: dict[tuple[Hashable, ...], tuple[str, bool]] = {}

#: Stands for the request's CSRF token in a kept part (random per process, so no page holds it).
_HOLE = f"csrf{secrets.token_hex(16)}"
_HOLE_INPUT = CsrfTokenNode().render(Context({"csrf_token": _HOLE}))


def forget(**_kwargs: Any) -> None:
    """Let every kept part go (a setting changed: a URL, a language, a static file's address)."""
    _KEPT.clear()


setting_changed.connect(forget, dispatch_uid="polotrainer.templatetags.shared.forget")


class SharedNode(template.Node):
    # Not searched for blocks: a part that is the same on every page holds none (`shared`
    # refuses one), and `{% extends %}` searches its parent's every node for blocks on each
    # render, which the parts' contents would make longer.
    child_nodelists = ()

    def __init__(self, name: str, vary: list[FilterExpression], nodelist: NodeList) -> None:
        self.name = name
        self.vary = vary
        self.nodelist = nodelist

    def render(self, context: Context) -> str:
        key = (
            self.name,
            get_language(),
            get_script_prefix(),
            context.autoescape,
            *(value.resolve(context, ignore_failures=True) for value in self.vary),
        )
        kept = _KEPT.get(key)
        if kept is None:
            with context.push(csrf_token=_HOLE):
                html: str = self.nodelist.render(context)
            if len(_KEPT) >= KEPT_MAX:
                _KEPT.clear()
            kept = _KEPT[key] = (html, _HOLE in html)
        html, holed = kept
        return _filled(html, context) if holed else html


def _filled(html: str, context: Context) -> str:
    """The kept part with this request's CSRF token where the hole is."""
    token = context.get("csrf_token")
    if token and token != "NOTPROVIDED":  # noqa: S105 - Django's word for "no token here"
        # What `{% csrf_token %}` and `{{ csrf_token }}` both write: the token, escaped.
        return html.replace(_HOLE, conditional_escape(token))
    # No token: the tag writes nothing (Django's own tag warns in DEBUG when it is missing),
    # the variable what it holds.
    tag = "" if token else CsrfTokenNode().render(context)
    return html.replace(_HOLE_INPUT, tag).replace(_HOLE, "" if token is None else str(token))


@register.tag
def shared(parser: Parser, token: Token) -> SharedNode:
    """`{% shared "name" value ... %}...{% endshared %}`: see the module's docstring."""
    bits = token.split_contents()
    if len(bits) < 2 or bits[1][0] not in "\"'" or bits[1][-1] != bits[1][0]:
        raise template.TemplateSyntaxError(f"{bits[0]} takes a quoted name, then values")
    nodelist = parser.parse(("endshared",))
    parser.delete_first_token()
    if nodelist.get_nodes_by_type(BlockNode):
        raise template.TemplateSyntaxError(f"{bits[0]} cannot hold a block: blocks differ per page")
    return SharedNode(bits[1][1:-1], [parser.compile_filter(bit) for bit in bits[2:]], nodelist)
