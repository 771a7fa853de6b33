"""The glyph record: the only thing the layout stages see of a PDF.

Coordinates are in *viewer space*: points (1/72 in), origin at the top-left corner of the
visible box (CropBox ∩ MediaBox) with /Rotate applied, x growing to the right and y growing
DOWN the page, exactly as a viewer shows it. A horizontal left-to-right glyph has
direction (1, 0); text rotated 90° counter-clockwise on the page has direction (0, -1).
"""
# no `from __future__ import annotations`: typing.NamedTuple compiles each string annotation (Glyph's 14, every process)
from collections.abc import Iterable
from typing import NamedTuple

# flag bits
INVISIBLE = 1       # text render mode 3 or 7 (OCR layers): real text, not painted
VERTICAL = 2        # font in vertical writing mode (WMode 1)
ACTUAL_TEXT = 4     # text replaced by a marked-content /ActualText span
IN_FORM = 8         # drawn inside a Form XObject
TEXT_RISE = 16      # shown with a text rise (Ts ≠ 0): raised or lowered off its line's baseline
ANNOTATION = 32     # drawn by an annotation's appearance (form field, FreeText, stamp), not the page content
OCR = 64            # read by OCR off a scanned image (glyphline.content.ocr), not drawn as text

# share of a glyph box below the baseline when the font gives no usable descent (a typical Latin face)
FALLBACK_DESCENT_SHARE = 0.2


class Glyph(NamedTuple):
    """Immutable; a NamedTuple because the interpreter makes one per character (5× cheaper than a frozen dataclass)."""

    text: str            # decoded Unicode; several characters for a ligature or an ActualText span
    x: float             # origin (pen position on the baseline) in viewer space
    y: float
    end_x: float         # origin + the font's own advance, without Tc/Tw (ISO 32000-1 §9.4.4)
    end_y: float
    advance: float       # length of the full pen movement: font advance + Tc + Tw (+ Tz)
    dx: float            # unit vector of the writing direction in viewer space
    dy: float
    height: float        # glyph box height (ascent - descent) in viewer space units
    descent: float       # part of `height` below the baseline (>= 0), along the normal
    size: float          # effective font size: 1 em of text space measured in viewer space
    font: str            # font name (BaseFont without subset prefix, or the resource name)
    flags: int = 0       # INVISIBLE | VERTICAL | ACTUAL_TEXT | IN_FORM | TEXT_RISE | ANNOTATION | OCR
    mcid: int = -1       # marked-content id of the enclosing tagged span, -1 when none

    @property
    def invisible(self) -> bool:
        return bool(self.flags & INVISIBLE)

    @property
    def vertical(self) -> bool:
        return bool(self.flags & VERTICAL)

    @property
    def from_actual_text(self) -> bool:
        return bool(self.flags & ACTUAL_TEXT)

    @property
    def in_form(self) -> bool:
        return bool(self.flags & IN_FORM)

    @property
    def from_annotation(self) -> bool:
        return bool(self.flags & ANNOTATION)

    @property
    def from_ocr(self) -> bool:
        return bool(self.flags & OCR)


# Why a glyph drawn on the page is not in the text (the layout inspector shows them).
OUTSIDE_CROP = "outside_crop"   # its box centre lies outside the visible box (CropBox ∩ MediaBox)
DUPLICATE = "duplicate"         # a fake-bold or shadow copy of the glyph before it (layout.cleanup)
HIDDEN_LAYER = "hidden_layer"   # in an optional content layer hidden when the document opens


class DroppedGlyph(NamedTuple):
    glyph: Glyph
    reason: str          # OUTSIDE_CROP | DUPLICATE | HIDDEN_LAYER


class DropLog:
    """The glyphs a page leaves out of its text, and why: kept only when asked (the layout
    inspector), at most `limit` of them; `omitted` counts the ones past it."""

    __slots__ = ("glyphs", "limit", "omitted")

    def __init__(self, limit: int):
        self.glyphs: list[DroppedGlyph] = []
        self.limit = limit
        self.omitted = 0

    def add(self, glyphs: Iterable[Glyph], reason: str) -> None:
        items = list(glyphs)
        room = max(0, self.limit - len(self.glyphs))
        self.glyphs.extend(DroppedGlyph(g, reason) for g in items[:room])
        self.omitted += max(0, len(items) - room)

    def copy(self) -> "DropLog":
        """A log to go on from (a page laid out again must not list its duplicates twice)."""
        other = DropLog(self.limit)
        other.glyphs = list(self.glyphs)
        other.omitted = self.omitted
        return other


def glyph_box(g: Glyph) -> tuple[float, float, float, float]:
    """The axis-aligned box (x0, y0, x1, y1) of a glyph in viewer space: from its origin along
    its advance, from its descent below the baseline to its height above it."""
    height = g.height if g.height > 0.0 else g.size
    descent = g.descent if 0.0 <= g.descent <= height else FALLBACK_DESCENT_SHARE * height
    up_x, up_y = g.dy, -g.dx     # y grows down: "up" from the baseline is the direction turned left
    end_x, end_y = g.end_x, g.end_y
    if end_x == g.x and end_y == g.y:   # no advance: a point; give it half an em along the line
        end_x, end_y = g.x + 0.5 * g.size * g.dx, g.y + 0.5 * g.size * g.dy
    xs, ys = [], []
    for px, py in ((g.x, g.y), (end_x, end_y)):
        xs += [px + up_x * (height - descent), px - up_x * descent]
        ys += [py + up_y * (height - descent), py - up_y * descent]
    return min(xs), min(ys), max(xs), max(ys)
