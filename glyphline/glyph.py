"""The glyph record: the only thing the layout stages see of a PDF.

Coordinates are in *viewer space*: points (1/72 in), origin at the top-left corner of the
visible box (CropBox ∩ MediaBox) with /Rotate applied, x growing to the right and y growing
DOWN the page, exactly as a viewer shows it. A horizontal left-to-right glyph has
direction (1, 0); text rotated 90° counter-clockwise on the page has direction (0, -1).
"""
from __future__ import annotations

from typing import NamedTuple

# flag bits
INVISIBLE = 1       # text render mode 3 or 7 (OCR layers): real text, not painted
VERTICAL = 2        # font in vertical writing mode (WMode 1)
ACTUAL_TEXT = 4     # text replaced by a marked-content /ActualText span
IN_FORM = 8         # drawn inside a Form XObject
TEXT_RISE = 16      # shown with a text rise (Ts ≠ 0): raised or lowered off its line's baseline
ANNOTATION = 32     # drawn by an annotation's appearance (form field, FreeText, stamp), not the page content
OCR = 64            # read by OCR off a scanned image (glyphline.content.ocr), not drawn as text


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
