"""CSV downloads: the one place a CSV is written and streamed (gradebook, item analysis,
certificates, clinic results, an umpire's history).

`csv_lines(rows)` turns rows into CSV text: the UTF-8 byte order mark first (spreadsheets then
read accents right), the first row at once, then the rest in chunks of `chunk` rows, so a long
file leaves in pieces (not a write per row) and memory stays flat. `csv_response(lines, name)`
streams it as an attachment.
"""

import csv
from collections.abc import Iterable, Iterator, Sequence

from django.http import StreamingHttpResponse

BOM = "\ufeff"
CHUNK = 1000  # rows per piece of a streamed file


class _Lines:
    """A file for csv.writer that gathers what it writes until it is taken."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def write(self, value: str) -> None:
        self.lines.append(value)

    def take(self) -> str:
        text, self.lines = "".join(self.lines), []
        return text


def csv_lines(rows: Iterable[Sequence[object]], chunk: int = CHUNK) -> Iterator[str]:
    """The rows as CSV lines, in pieces of `chunk` rows after the first:

    >>> list(csv_lines([["a", "b,c"], [1, 2], [3, 4]], chunk=2))
    ['\\ufeffa,"b,c"\\r\\n', '1,2\\r\\n3,4\\r\\n']
    """
    out = _Lines()
    writer = csv.writer(out)
    rows = iter(rows)
    for first in rows:
        writer.writerow(first)
        break
    yield BOM + out.take()
    for n, row in enumerate(rows, start=1):
        writer.writerow(row)
        if n % chunk == 0:
            yield out.take()
    if rest := out.take():
        yield rest


def csv_response(lines: Iterable[str], filename: str) -> StreamingHttpResponse:
    """The lines streamed as a CSV attachment named `filename`."""
    response = StreamingHttpResponse(lines, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
