"""CSV downloads: the one place a CSV is written and streamed (gradebook, item analysis,
certificates, clinic results, an umpire's history).

`csv_lines(rows)` turns rows into CSV text: the UTF-8 byte order mark first (spreadsheets then
read accents right), the first row at once, then the rest in chunks of `chunk` rows, so a long
file leaves in pieces (not a write per row) and memory stays flat. `csv_response(lines, name)`
streams it as an attachment.

A long export whose rows repeat most of their cells (an umpire's history: the same situation,
question and answer again and again) may write those cells once, with `cells`, and hand over
each row as a line of such pieces (a str): the same bytes as the row written cell by cell.
"""

import csv
from collections.abc import Iterable, Iterator, Sequence

from django.http import StreamingHttpResponse

BOM = "\ufeff"
CHUNK = 1000  # rows per piece of a streamed file
LINE_END = "\r\n"  # the CSV writer's (its default dialect, "excel")


class _Lines:
    """A file for csv.writer that gathers what it writes until it is taken."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def write(self, value: str) -> None:
        self.lines.append(value)

    def take(self) -> str:
        text, self.lines = "".join(self.lines), []
        return text


def cells(values: Sequence[object]) -> str:
    """Some consecutive cells of a row as CSV, to be joined with others by commas into a line
    (and LINE_END): each cell is quoted (or not) as the CSV writer quotes it in a whole row.

    >>> cells(["a", "b,c", 'x"y'])
    'a,"b,c","x""y"'
    >>> ",".join([cells(["x"]), cells([""]), cells([3])]) + LINE_END
    'x,,3\\r\\n'
    """
    if not values:
        return ""
    # Written as a row with a last cell of our own: a row of one empty cell is written '""', a
    # cell among others ''.
    line = "".join(csv_lines([[*values, "."]])).removeprefix(BOM)
    return line[: -len(",." + LINE_END)]


def csv_lines(rows: Iterable[Sequence[object] | str], chunk: int = CHUNK) -> Iterator[str]:
    """The rows (each a sequence of cells, or a str: a line already written, see `cells`) as
    CSV lines, in pieces of `chunk` rows after the first:

    >>> list(csv_lines([["a", "b,c"], [1, 2], "3,4\\r\\n"], chunk=2))
    ['\\ufeffa,"b,c"\\r\\n', '1,2\\r\\n3,4\\r\\n']
    """
    out = _Lines()
    write_row = csv.writer(out).writerow
    rows = iter(rows)
    for first in rows:
        if isinstance(first, str):
            out.write(first)
        else:
            write_row(first)
        break
    yield BOM + out.take()
    for n, row in enumerate(rows, start=1):
        if type(row) is str:
            out.lines.append(row)
        else:
            write_row(row)
        if n % chunk == 0:
            yield out.take()
    if rest := out.take():
        yield rest


def csv_response(lines: Iterable[str], filename: str) -> StreamingHttpResponse:
    """The lines streamed as a CSV attachment named `filename`."""
    response = StreamingHttpResponse(lines, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
