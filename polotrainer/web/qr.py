"""QR codes, drawn in one place: inline SVG scaled by CSS (class "qr"), black on white, with the
text alternative as its accessible name. segno writes no style attributes (CSP-safe) and its
SVG holds only numbers; the label is escaped, so the markup is safe to include as it is.

- `link(url, label)`: a join link on a screen (error correction M).
- `printed(url, label)`: a link on paper (a certificate): the smallest symbol at correction L,
  then the highest correction that fits in it; also its version, for how large to print it.
- `wifi(ssid, password, label)`: joining a Wi-Fi network (WPA, or open without a password).
"""

from typing import TYPE_CHECKING

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

if TYPE_CHECKING:
    import segno

# segno is imported where a code is drawn (a projector, a certificate), not in every server
# process at its start: a room of phones never draws one.


def _inline(qr: "segno.QRCode", label: str) -> SafeString:
    svg = qr.svg_inline(scale=1, omitsize=True, svgclass="qr", dark="#000", light="#fff")
    labelled = svg.replace("<svg ", f'<svg role="img" aria-label="{escape(label)}" ', 1)
    return mark_safe(labelled)  # noqa: S308 - segno's SVG holds only numbers; the label is escaped


def link(url: str, label: str) -> SafeString:
    import segno

    return _inline(segno.make(url, error="m"), label)


def printed(url: str, label: str) -> tuple[SafeString, int]:
    import segno

    qr = segno.make(url, error="l", boost_error=True, micro=False)
    version = qr.version if isinstance(qr.version, int) else 0
    return _inline(qr, label), version


def wifi(ssid: str, password: str, label: str) -> SafeString:
    import segno.helpers

    qr = segno.helpers.make_wifi(
        ssid=ssid, password=password or None, security="WPA" if password else "nopass"
    )
    return _inline(qr, label)
