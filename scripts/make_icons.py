"""Draw the web app's icons (static/icons/*.png) with the standard library alone.

A white polo ball on the app's green; the maskable one keeps the ball inside the safe zone (the
middle 80 %). Run once after changing the drawing: `python scripts/make_icons.py`.
"""

import struct
import zlib
from pathlib import Path

GREEN = (0x1F, 0x6F, 0x43)
WHITE = (0xFF, 0xFF, 0xFF)
LINE = (0xD8, 0xE8, 0xDD)
OUT = Path(__file__).resolve().parents[1] / "static" / "icons"


def png(size: int, ball: float, rounded: bool) -> bytes:
    rows = []
    c = (size - 1) / 2
    r = size * ball / 2
    corner = size * 0.18 if rounded else 0
    for y in range(size):
        row = bytearray([0])
        for x in range(size):
            dx, dy = x - c, y - c
            inside = True
            if corner:
                qx, qy = max(abs(dx) - (c - corner), 0), max(abs(dy) - (c - corner), 0)
                inside = qx * qx + qy * qy <= corner * corner
            d2 = dx * dx + dy * dy
            if not inside:
                row += bytes((0, 0, 0, 0))
            elif d2 <= r * r:
                # a seam across the ball, as on a polo ball
                seam = abs(dy + 0.25 * dx) < size * 0.012 and d2 >= (r * 0.2) ** 2
                row += bytes((*(LINE if seam else WHITE), 255))
            else:
                row += bytes((*GREEN, 255))
        rows.append(bytes(row))
    raw = zlib.compress(b"".join(rows), 9)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", raw) + chunk(b"IEND", b"")


def main() -> None:
    OUT.mkdir(exist_ok=True)
    (OUT / "icon-192.png").write_bytes(png(192, 0.56, rounded=True))
    (OUT / "icon-512.png").write_bytes(png(512, 0.56, rounded=True))
    (OUT / "icon-maskable-512.png").write_bytes(png(512, 0.44, rounded=False))


if __name__ == "__main__":
    main()
