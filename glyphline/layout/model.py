"""Records the layout stages hand to the outputs: page → blocks → lines → words.

All boxes are axis-aligned in viewer space (see glyphline.glyph): x0 < x1, y0 < y1, y down.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from operator import attrgetter
from typing import Any

from ..structure import Tag


@dataclass(slots=True)
class Word:
    text: str
    x0: float
    y0: float
    x1: float
    y1: float
    size: float          # font size of the word's first glyph
    font: str
    flags: int = 0       # union of the glyph flags (glyphline.glyph)
    bold: bool = False   # the font's style (glyphline.fonts.style), for emphasis and heading ranks
    italic: bool = False
    link: str = ""       # the URI of a Link annotation over the word
    note: str = ""       # the word ends in this footnote's reference mark (set by layout.structure)
    confidence: float = -1.0   # OCR words: the engine's confidence (0–100); -1 for drawn text


@dataclass(slots=True)
class Line:
    words: list[Word]
    x0: float
    y0: float
    x1: float
    y1: float
    dx: float = 1.0      # writing direction of the line
    dy: float = 0.0
    space_after: bool = False   # ends in a whitespace glyph: its writer put a word space at the break

    @property
    def text(self) -> str:
        return " ".join(w.text for w in self.words)


@dataclass(slots=True)
class Block:
    """A paragraph, heading, list item, table row, caption, header or footer."""

    lines: list[Line]
    x0: float
    y0: float
    x1: float
    y1: float
    role: str = "body"   # body | header | footer | sidebar | rotated
    tag: Tag | None = None   # the author's structure element (tagged PDF) most of its text belongs to
    tagged: float = 0.0      # share of its characters that the structure tree names (0 when untagged)
    tag_orders: tuple[int, int] = (-1, -1)   # first and last of its spans in the tree's reading order
    table: int = -1      # a table row: the rows of one table share this number (unique on the page)
    cells: list[list[Word]] = field(default_factory=list)  # a table row's words, column by column
    # set by layout.structure for the structured outputs (Markdown):
    kind: str = "paragraph"   # paragraph | heading | list_item | table_row | footnote | running (header, footer, page number)
    level: int = 0       # heading level 1–6; a list item's nesting depth from 0
    marker: str = ""     # a list item's bullet or number, a footnote's number, as printed (taken off its first word)



def _pickled_by_fields(cls: type) -> None:
    """Pickle as (class, every field in order): page-parallel extraction (glyphline.parallel) ships
    10⁵ words, and a slotted record's default pickling is far slower; a new field is never lost."""
    values = attrgetter(*(f.name for f in fields(cls)))
    cls.__reduce__ = lambda self: (cls, values(self))


for _record in (Word, Line, Block):
    _pickled_by_fields(_record)


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
    hidden_glyphs: int = 0       # glyphs left out because their optional content layer is hidden
    order: str = "geometry"      # how the blocks were ordered: "geometry" or "tags" (the structure tree)
    figures: list[Tag] = field(default_factory=list)  # tagged figures with /Alt text on the page, in tree order
    ocr: Any = None              # the OCR report (glyphline.content.ocr.OcrReport) when the page was recognised
    # baseline steps between consecutive same-size lines, by size bucket (for DocStats)
    line_pitches: dict[int, list[float]] = field(default_factory=dict)
