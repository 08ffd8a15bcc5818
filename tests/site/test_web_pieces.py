"""The shared pieces in polotrainer/web/: QR codes (web.qr) and CSV downloads (web.downloads)."""

import re

from polotrainer.web import downloads, qr


def test_every_qr_code_is_inline_svg_named_for_screen_readers_and_without_style():
    for svg in (
        qr.link("https://example.org/courses/join/ABC346/", 'a "label"'),
        qr.printed("https://example.org/certificates/verify/?c=x", 'a "label"')[0],
        qr.wifi("Club <Wi-Fi>", "secret", 'a "label"'),
        qr.wifi("Open", "", 'a "label"'),
    ):
        text = str(svg)
        assert text.startswith('<svg role="img" aria-label="a &quot;label&quot;" ')
        assert "style" not in text and "<script" not in text and "Club" not in text
        assert re.search(r'viewBox="0 0 \d+ \d+"', text) and 'class="qr"' in text


def test_a_longer_printed_link_takes_a_larger_symbol():
    _svg, short = qr.printed("https://example.org/v/?c=" + "A" * 20, "code")
    _svg, long = qr.printed("https://example.org/v/?c=" + "A" * 400, "code")
    assert 1 <= short < long


def test_a_long_csv_streams_in_chunks_and_reads_back_whole():
    rows = [["n", "text"], *([i, f"é, {i}"] for i in range(2500))]
    pieces = list(downloads.csv_lines(rows, chunk=1000))
    assert len(pieces) == 4  # the header at once, then 1000 + 1000 + 500 rows
    assert pieces[0] == "\ufeffn,text\r\n"
    text = "".join(pieces)
    assert text.count("\r\n") == 2501 and '2499,"é, 2499"\r\n' in text


def test_an_empty_csv_is_the_byte_order_mark_alone():
    assert list(downloads.csv_lines([])) == ["\ufeff"]


def test_the_response_is_a_streamed_utf8_attachment():
    response = downloads.csv_response(iter(["\ufeffa\r\n"]), "x.csv")
    assert response.streaming and response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="x.csv"'
    assert b"".join(response.streaming_content).decode() == "\ufeffa\r\n"


def test_a_row_written_in_pieces_is_the_row_written_whole():
    """An export may write the cells its rows share once (downloads.cells), join them with each
    row's own and hand over the line: the same bytes as the CSV writer's, whatever the cells."""
    odd = ["", None, "plain", "a,b", 'say "x"', "two\nlines", "cr\r", " pad ", "é ✓", 3, 2.5]
    for row in (odd, odd[::-1], ["", ""], [None, "x"]):
        whole = "".join(downloads.csv_lines([row])).removeprefix(downloads.BOM)
        for cut in range(1, len(row)):
            pieces = [downloads.cells(row[:cut]), downloads.cells(row[cut:])]
            assert ",".join(pieces) + downloads.LINE_END == whole
        by_line = "".join(downloads.csv_lines([["h"], whole, whole]))
        assert by_line == "".join(downloads.csv_lines([["h"], row, row]))
