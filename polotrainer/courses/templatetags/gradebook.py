"""A gradebook row's repeated cells: {% score_cells row.cells %} and
{% progress_cells row.progress status %}.

A cohort's gradebook has a mastery cell per trainee and section (60 trainees x 45 columns is
2,700 cells) and a progress cell per trainee and assignment: written as template variables and
tags they took most of the page's time. Here each row's cells are made in one go, as Django's
admin makes its change list's cells (`items_for_result`): a mastery cell is one of 101
percentages, each made once; a progress cell says its count in the words the template would.
"""

from collections.abc import Iterable, Mapping
from functools import cache

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import npgettext

from polotrainer.courses.assignments import Progress
from polotrainer.courses.gradebook import Cell

register = template.Library()


@register.simple_tag
def score_cells(cells: Iterable[Cell]) -> SafeString:
    """The cells as `<td>`s, in order."""
    cells_html = "".join(_cell(c.band, c.percent) for c in cells)
    return mark_safe(cells_html)  # noqa: S308 - each cell is format_html's


@cache
def _cell(band: str, percent: int) -> SafeString:
    return format_html('<td class="score band-{}">{}%</td>', band, percent)


@register.simple_tag
def progress_cells(progress: Iterable[Progress], status: Mapping[str, str]) -> SafeString:
    """A trainee's progress on each assignment as `<td>`s: answered of the target, right, and
    the status in words (`status`: the view's words by status)."""
    cells_html = "".join(
        format_html(
            '<td class="progress-cell status-{}">{}/{} <small>{}</small><br><small>{}</small></td>',
            p.status,
            p.answered,
            p.target,
            _right(p.right),
            status[p.status],
        )
        for p in progress
    )
    return mark_safe(cells_html)  # noqa: S308 - each cell is format_html's


def _right(count: int) -> SafeString:
    """ "3 right", as {% blocktranslate count ... context "answers" %} writes it: the
    translation as it stands, the number in it."""
    words = npgettext("answers", "%(counter)s right", "%(counter)s right", count)
    return mark_safe(words % {"counter": count})  # noqa: S308 - the catalogue's text and a number
