"""Records the layout stages hand to the outputs: page → blocks → lines → words.

Word, Line and Block are immutable once made (a stage that changes one makes a new record), so a
renderer or a document-level pass cannot edit what another reads.

All boxes are axis-aligned in viewer space (see glyphline.glyph): x0 < x1, y0 < y1, y down.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace
from operator import attrgetter, itemgetter
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:   # a tagged PDF's structure is read only when the document has one
    from ..structure import Tag


@dataclass(frozen=True, slots=True)
class AnalysisNeeds:
    """What the outputs will read of a page's analysis, so the layout does only that work. Made
    once per extraction from the options and the mode (extract.analysis_needs)."""

    order: str = "geometry"   # reading order: auto | geometry | tags (layout.tagged; not geometry: the tree is read)
    styled: bool = False      # the words take bold, italic and link URIs (Markdown, kept layouts)
    word_tags: bool = False   # each word names its structure element (Markdown regroups a tagged page by them)
    drawing: bool = False     # the page's rules and drawn marks (content.paths): tables' header rules, drawn bullets
    # (the layout inspector's needs come with the page: the document opened with inspect=True logs its drops)


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
    bold: bool = False   # the font's style (glyphline.fonts.style), for emphasis and heading ranks
    italic: bool = False
    link: str = ""       # the URI of a Link annotation over the word
    note: str = ""       # the word ends in this footnote's reference mark (set by layout.structure)
    confidence: float = -1.0   # OCR words: the engine's confidence (0–100); -1 for drawn text
    tag: Tag | None = None     # tagged PDF, structured outputs: the structure element most of its glyphs belong to
    link_outside: tuple[int, int] = (0, 0)   # characters at its start and end outside its link's area ("example.org.")


WORD_TEXT = itemgetter(0)   # Word.text by index: map(WORD_TEXT, words) reads a line's texts in C
WORD_SIZE = itemgetter(5)   # Word.size by index
WORD_X0, WORD_Y0, WORD_X1, WORD_Y1 = (itemgetter(i) for i in (1, 2, 3, 4))   # a line's box: min(map(WORD_X0, words))
assert Word._fields[:6] == ("text", "x0", "y0", "x1", "y1", "size")

# The layout's hot loops make a Word as new_word(Word, (text, x0, y0, x1, y1, size, font, flags)
# + WORD_DEFAULTS): the NamedTuple's own __new__ is a Python call per word (~30,000 a book).
new_word = tuple.__new__
WORD_DEFAULTS = tuple(Word._field_defaults[name] for name in Word._fields[Word._fields.index("flags") + 1:])


def words_box(words: list[Word]) -> tuple[float, float, float, float]:
    """The box (x0, y0, x1, y1) around words: a line's or a cell's."""
    return (min(map(WORD_X0, words)), min(map(WORD_Y0, words)), max(map(WORD_X1, words)), max(map(WORD_Y1, words)))


@dataclass(frozen=True, slots=True)
class Line:
    words: list[Word]
    x0: float
    y0: float
    x1: float
    y1: float
    dx: float = 1.0      # writing direction of the line
    dy: float = 0.0
    space_after: bool = False   # ends in a whitespace glyph: its writer put a word space at the break

    @classmethod
    def of_words(cls, words: list[Word], **extras: Any) -> Line:
        """A line around its words (extras: direction, space_after)."""
        return cls(words, *words_box(words), **extras)

    @property
    def text(self) -> str:
        return " ".join([w.text for w in self.words])   # (a list joins faster than a generator)


class ReflowLine(NamedTuple):
    """A line cut to what the reflow renderer reads (layout.across_pages.reflow_text_only): ~100
    bytes instead of ~400 for a Line with a Word, kept per line of a long document until its
    dehyphenation vocabulary is complete."""

    text: str
    space_after: bool = False


class ReflowBlock(NamedTuple):
    """A block cut to what the reflow renderer reads (reflow_text_only): its runs and role, ~70
    bytes instead of ~200 for a Block and its empty cells."""

    lines: list[ReflowLine]
    role: str = "body"


class EndWord(NamedTuple):
    """A word of a line a page break may join, cut to its text (reflow_text_only): ~50 bytes
    instead of ~160 for a Word."""

    text: str


@dataclass(frozen=True, slots=True)
class Block:
    """A paragraph, heading, list item, table row, caption, header or footer."""

    lines: list[Line]    # ReflowLine only in a page cut by reflow_text_only
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
    # paragraph | heading | list_item | table_row | table_header (a tagged or ruled header row) | footnote
    # | figure (tagged, with alt text; no lines) | running (header, footer, page number)
    kind: str = "paragraph"
    level: int = 0       # heading level 1–6; a list item's nesting depth from 0
    marker: str = ""     # a list item's bullet or number, a footnote's number, as printed (taken off its first word); a figure's alt



def with_words(blocks: list[Block], change: Callable[[Word], Word]) -> list[Block]:
    """The blocks with every word (in its lines and table cells) passed through `change`; a line
    or block none of whose words changed is kept as it is (records are immutable: new ones are made)."""
    out = []
    for block in blocks:
        lines = []
        for line in block.lines:
            words = [change(word) for word in line.words]
            changed = any(new is not old for new, old in zip(words, line.words))
            lines.append(replace(line, words=words) if changed else line)
        cells = [[change(word) for word in cell] for cell in block.cells]
        if any(new is not old for new, old in zip(lines, block.lines)) or block.cells:
            block = replace(block, lines=lines, cells=cells)
        out.append(block)
    return out


def _pickled_by_fields(cls: type) -> None:
    """Pickle as (class, every field in order): page-parallel extraction (glyphline.parallel) ships
    10⁵ words, and a slotted record's default pickling is far slower; a new field is never lost."""
    values = attrgetter(*(f.name for f in fields(cls)))
    cls.__reduce__ = lambda self: (cls, values(self))


for _record in (Line, Block):   # Word is a NamedTuple, pickled as one
    _pickled_by_fields(_record)


class Column(NamedTuple):
    """A flow of the page's reading order (a column, a sidebar, a table): what the inspector outlines."""

    x0: float
    y0: float
    x1: float
    y1: float
    role: str            # body | sidebar | table | rotated


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
    drawing: Any = None          # the rules and marks its paths drew (glyphline.content.paths.PageDrawing): structured outputs, inspector
    ocr: Any = None              # the OCR report (glyphline.content.ocr.OcrReport) when the page was recognised
    # asked for by the layout inspector only (analyze_page's `dropped`); else None and empty:
    dropped: Any = None          # the glyphs left out and why (glyphline.glyph.DropLog)
    columns: list[Column] = field(default_factory=list)   # the flows in reading order
    # baseline steps between consecutive same-size lines, by size bucket (for DocStats)
    line_pitches: dict[int, list[float]] = field(default_factory=dict)
