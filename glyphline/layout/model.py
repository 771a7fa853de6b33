"""Records the layout stages hand to the outputs: page → blocks → lines → words.

Word, Line and Block are immutable once made (a stage that changes one makes a new record), so a
renderer or a document-level pass cannot edit what another reads.

All boxes are axis-aligned in viewer space (see glyphline.glyph): x0 < x1, y0 < y1, y down.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple


class Word(NamedTuple):
    """A NamedTuple like Glyph: a book makes ~250 per page, and a frozen dataclass's __init__
    costs ~4 µs more per record (15 % of a whole extraction). Change one with _replace()."""

    text: str
    x0: float
    y0: float
    x1: float
    y1: float
    size: float          # font size of the word's first glyph
    font: str
    flags: int = 0       # union of the glyph flags (glyphline.glyph)


@dataclass(frozen=True, slots=True)
class Line:
    words: list[Word]
    x0: float
    y0: float
    x1: float
    y1: float
    dx: float = 1.0      # writing direction of the line
    dy: float = 0.0

    @property
    def text(self) -> str:
        return " ".join(w.text for w in self.words)


@dataclass(frozen=True, slots=True)
class Block:
    """A paragraph, heading, list item, table row, caption, header or footer."""

    lines: list[Line]
    x0: float
    y0: float
    x1: float
    y1: float
    role: str = "body"   # body | header | footer | sidebar | rotated


@dataclass
class PageLayout:
    number: int          # 1-based
    width: float
    height: float
    blocks: list[Block] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    char_count: int = 0  # characters of text on the page (for scan detection)
    image_coverage: float = 0.0  # share of the page painted with images (for scan detection)
    unmapped_glyphs: int = 0     # glyphs left out because their font has no Unicode for them
    # baseline steps between consecutive same-size lines, by size bucket (for DocStats)
    line_pitches: dict[int, list[float]] = field(default_factory=dict)
