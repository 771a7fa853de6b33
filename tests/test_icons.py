"""tools/icons.py: the app's PNG icons drawn from static/icon.svg by the site build."""
from __future__ import annotations

import struct
import sys
import zlib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tools"))
import icons  # noqa: E402

ICON = REPO / "static" / "icon.svg"


def _pixels(png: bytes) -> tuple[int, list[bytes]]:
    """Width and RGBA rows of a PNG as tools/icons.py writes it (one IDAT, filter 0)."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height, depth, colour = struct.unpack(">IIBB", png[16:26])
    assert (depth, colour) == (8, 6)
    start = png.index(b"IDAT") + 4
    length = struct.unpack(">I", png[start - 8:start - 4])[0]
    raw = zlib.decompress(png[start:start + length])
    stride = 1 + 4 * width
    return width, [raw[row * stride + 1:(row + 1) * stride] for row in range(height)]


def _pixel(rows: list[bytes], x: int, y: int) -> tuple[int, ...]:
    return tuple(rows[y][4 * x:4 * x + 4])


def test_the_icon_is_drawn_at_the_asked_size_with_the_svg_colours():
    width, rows = _pixels(icons.render(ICON, 64))
    assert width == 64 and len(rows) == 64
    assert _pixel(rows, 1, 1)[3] == 0                 # outside the page: transparent
    assert _pixel(rows, 20, 50) == (31, 95, 191, 255)  # the page's blue (#1f5fbf)
    assert _pixel(rows, 30, 28) == (255, 255, 255, 255)  # on the first white line


def test_a_maskable_icon_fills_its_background_and_keeps_the_drawing_in_the_safe_zone():
    width, rows = _pixels(icons.render(ICON, 100, background=(246, 247, 249)))
    assert _pixel(rows, 0, 0) == (246, 247, 249, 255)   # opaque corners: nothing for a mask to show through
    inset = round(100 * (1 - icons.MASKABLE_SAFE_ZONE) / 2)
    scale = (100 - 2 * inset) / 64
    assert _pixel(rows, round(inset + 20 * scale), round(inset + 50 * scale)) == (31, 95, 191, 255)
