"""Layout: from a page's glyph records to blocks of lines of words, in reading order.

    glyphs ─► cleanup ─► lines (segments) ─► blocks (XY-cut reading order) ─► words ─► paragraphs

`analyze_page` is a pure function of the glyphs and the page size (plus optional document
statistics for pages with too few lines of their own). What the pages say together (the
dehyphenation vocabulary, words hyphenated across a page break) is across_pages' document-level
pass; the reflow output joins a block's lines by the rules of layout.hyphenation.
"""
from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from ..fonts.style import FontStyle, name_style
from ..glyph import VERTICAL, DropLog, Glyph
from .blocks import Flow, TextLine, reading_order
from .cleanup import clean_glyph_text, drop_stray_spaces
from .lines import HORIZONTAL, Segment, build_segments
from .model import WORD_SIZE, WORD_TEXT, AnalysisNeeds, Block, Column, Line, PageLayout, Word, with_words
from .paragraphs import (INDENT_EM, MIN_PAGE_PITCHES, SIZE_CHANGE_RATIO, PitchTable, continues_below, counted_line_pitch,
                         line_pitches, split_paragraphs)

if TYPE_CHECKING:
    from ..structure import Tag
    from ..content.links import LinkArea
    from ..content.paths import PageDrawing

__all__ = ["analyze_page", "fallback_layout", "needs_document_stats", "collect_doc_stats", "DocStats", "PageLayout", "Block", "Line", "Word"]

# Running headers sit in the top, footers and page numbers in the bottom share of the page.
HEADER_ZONE = 0.1
FOOTER_ZONE = 0.12

# A running header or footer is short: at most this many words on one line.
RUNNING_MAX_WORDS = 12

# ... and set apart from the text by more white space than this many of its font sizes (the
# text's own lines and a heading over its paragraph are closer).
RUNNING_GAP_EM = 1.0
# ... or, for a line the column order reads before other text, by this much when it lies below
# all of the page's text: no column's text follows it down the page, so it is the page's foot
# (an IRS page number 0.8 em under three columns), where a paragraph's last line never is.
RUNNING_FOOT_GAP_EM = 0.5
# ... and, for a piece of a running head the column order reads after a column, the columns
# read before it start within this many of its sizes of the text under it (a head stands over
# all the columns; a column that starts lower, under a figure, leaves a heading of its own)
RUNNING_HEAD_COLUMNS_EM = 2.0
# ... and a page's foot has a few pieces: more short lines in the footer zone are a form or a
# table's last rows, not a foot (and each candidate is checked against every block).
RUNNING_MAX_FEET = 6


# A footnote whose number is set flush against its text, in the footnote's own size ("1The
# letters are…"): a number of at most three digits glued to a capitalised word, on a line in
# smaller type than the page's body text and below all of it. Such a line opens a footnote.
FLUSH_FOOTNOTE = re.compile(r"^(\d{1,3})(?=[A-Z](?:[a-z]|$))")

# The fallback for a page whose analysis failed (fallback_layout): the word gap of the words
# stage, and half a line for a new line (the line stage's baseline tolerance).
FALLBACK_WORD_GAP_EM = 0.14
FALLBACK_LINE_JUMP_EM = 0.5

# Inside a table, white space this many font sizes wide that is free in every row also divides
# columns (a gutter needs 0.75 em; word spaces inside a cell are about 0.25 em).
TABLE_CELL_GAP_EM = 0.6

# A cell of several lines (a header `Accumulated / other / compre- / hensive`, a label that wraps)
# sets its lines closer than the table sets its rows: consecutive rows of one table whose
# baselines step by under CELL_LINE_STEP_SHARE of the table's median row step, and by at most
# CELL_LINE_MAX_EM of the larger text size (a line of text, not a row), are the lines of one row,
# read cell by cell, when one of the two leaves empty a cell the other fills and in some column
# the lower one goes on from the upper one (a word broken at its hyphen, or a word starting with
# two lowercase letters, CELL_GOES_ON). Tables whose rows wrap set their one-line rows closer than
# the median step too, but two such rows fill the same cells, and each starts a label of its own
# (a capital, a figure); a table whose rows are set as tight as lines shows no difference at all.
CELL_LINE_STEP_SHARE = 0.75
CELL_LINE_MAX_EM = 1.5
CELL_GOES_ON = re.compile(r"^[^\W\d_]{2}")   # two letters (and the caller checks they are lowercase)
CELL_MIN_ROWS = 4   # rows a table needs before its median row step means anything

# A link's /Rect is drawn around the glyph boxes, sometimes a little short of them: a word whose
# centre is this many of its font sizes outside still lies under it.
LINK_SLACK_EM = 0.2
# A word passing its link's area by more than this on one side has its punctuation there outside
# the link (a full stop or comma is ~0.25 em wide; a rectangle's own rounding is far less).
LINK_EDGE_EM = 0.1
LINK_OPENING_PUNCTUATION = "([{“‘\"'«‹¿¡"
LINK_CLOSING_PUNCTUATION = ".,;:!?)]}”’\"'»›…"

# Characters that do not count as text on the page (scan detection counts the others).
WHITESPACE = " \t\n\r\x0b\x0c\u00a0\u2002\u2003\u2009\u3000"

# A line ending in one of these closes its paragraph; anything else may run on to the next column.
SENTENCE_END = frozenset(".!?:;…\"”»)]")


@dataclass
class DocStats:
    """Document-wide statistics that help pages with too few lines of their own."""

    pitch_by_size: dict[int, float] = field(default_factory=dict)   # size bucket → median pitch
    body_size: float = 0.0                                          # most common font size


def collect_doc_stats(pages: list) -> DocStats:
    """Build DocStats from analysed pages (PageLayout) or raw glyph lists (list[Glyph])."""
    return doc_stats_from(stats_evidence(page if isinstance(page, PageLayout) else analyze_page(list(page), 0.0, 0.0, 0))
                          for page in pages)


def stats_evidence(layout: PageLayout) -> tuple[dict[int, list[float]], dict[float, int]]:
    """All DocStats reads of a page, small enough to keep for every page of a long document:
    its line pitches by size bucket, and its characters by font size (in the order met)."""
    by_size: dict[float, int] = {}   # exact sizes first: a page has a few, its words thousands
    for block in layout.blocks:
        for line in block.lines:
            words = line.words
            if not words:
                continue
            sizes = list(map(WORD_SIZE, words))
            size = sizes[0]
            if sizes.count(size) == len(sizes):   # the usual line, one size: counted in C
                by_size[size] = by_size.get(size, 0) + sum(map(len, map(WORD_TEXT, words)))
            else:
                for size, text in zip(sizes, map(WORD_TEXT, words)):
                    by_size[size] = by_size.get(size, 0) + len(text)
    size_weight: dict[float, int] = {}
    for size, chars in by_size.items():   # in the order met, so a rounded size keeps its first place
        size_weight[round(size, 1)] = size_weight.get(round(size, 1), 0) + chars
    return layout.line_pitches, size_weight


def doc_stats_from(evidence: Iterable[tuple[dict[int, Iterable[float]], dict[float, int]]]) -> DocStats:
    """DocStats from the pages' stats_evidence, in document order (ties go to the size met first);
    an evidence's pitches may also be counted already (add_evidence: step → times met)."""
    steps: dict[int, dict[float, int]] = {}
    size_weight: dict[float, int] = {}
    for page_evidence in evidence:
        add_evidence((steps, size_weight), page_evidence)
    body = max(size_weight, key=size_weight.get) if size_weight else 0.0
    return DocStats({k: counted_line_pitch(v) for k, v in steps.items() if v}, body)


def _count_steps(counts: dict[float, int], values: Iterable[float]) -> None:
    """Adds a page's steps (a list) or steps already counted (a dict: step → times met) to `counts`."""
    if isinstance(values, dict):
        for step, times in values.items():
            counts[step] = counts.get(step, 0) + times
    else:
        for step in values:
            counts[step] = counts.get(step, 0) + 1


def add_evidence(total: tuple[dict, dict[float, int]], evidence: tuple[dict[int, list[float]], dict[float, int]]) -> None:
    """Fold one page's stats_evidence into `total` (pages in document order): doc_stats_from([total])
    is doc_stats_from of all the pages, and a long document keeps each distinct line pitch once with
    how many times it was met (a pitch is an order statistic: the counts give the same float) instead
    of every step (18,211 steps of 3 values over 800 pages of pdflatex)."""
    steps, size_weight = total
    pitches, weights = evidence
    for key, values in pitches.items():
        _count_steps(steps.setdefault(key, {}), values)
    for size, chars in weights.items():
        size_weight[size] = size_weight.get(size, 0) + chars


def needs_document_stats(layout: PageLayout) -> bool:
    """A page with several lines but too few line pitches of its own to judge paragraph gaps:
    it is laid out again with DocStats from the other pages."""
    lines = sum(len(block.lines) for block in layout.blocks)
    return lines >= 2 and sum(len(steps) for steps in layout.line_pitches.values()) < MIN_PAGE_PITCHES


def analyze_page(glyphs: list[Glyph], width: float, height: float, number: int,
                 doc_stats: DocStats | None = None, *, image_coverage: float = 0.0,
                 unmapped_glyphs: int = 0, hidden_glyphs: int = 0, tags: Mapping[int, Tag] | None = None,
                 needs: AnalysisNeeds = AnalysisNeeds(), font_styles: dict[str, FontStyle] | None = None,
                 links: list[LinkArea] | None = None, dropped: DropLog | None = None,
                 drawing: "PageDrawing | None" = None, figures: Sequence[Tag] = ()) -> PageLayout:
    """Lay out one page: blocks (paragraphs, headings, rows, headers/footers) in reading order.
    `image_coverage` (the share of the page painted with images) and `unmapped_glyphs` (glyphs
    the fonts could not decode) are carried for the scan and no-mapping reports. `tags` (MCID →
    Tag, from glyphline.structure) name each block's element; `needs` (what the outputs read)
    says whether they also order the blocks and name each word's element; the words take bold
    and italic from `font_styles` (font name → style) and a URI from the `links` over them when
    `needs.styled`. With `dropped`
    (the layout inspector) the duplicates left out are added to it and the flows are kept as columns.
    `drawing` (the rules and marks the page's paths drew, read when `needs.drawing`) and `figures` (the
    tagged figures with alt text) are carried for layout.structure."""
    layout = PageLayout(number=number, width=width, height=height, image_coverage=image_coverage,
                        unmapped_glyphs=unmapped_glyphs, hidden_glyphs=hidden_glyphs, dropped=dropped,
                        figures=list(figures), drawing=drawing)
    # the glyphs transposed once: their texts here, and every column for the fast path
    # (lines.build_segments) while the cleanup leaves the glyphs as they are
    columns: list[tuple] | None = list(zip(*glyphs))
    texts = columns[0] if columns else []
    cleaned = clean_glyph_text(glyphs, texts)
    if cleaned is not glyphs:
        texts = [g.text for g in cleaned]
        columns = None
    text = "".join(texts)
    layout.char_count = len(text) - sum(text.count(ch) for ch in WHITESPACE)
    if not cleaned:
        return layout
    kept = drop_stray_spaces(cleaned, text, texts)
    if kept is not cleaned:
        cleaned = kept
        text = "".join([g.text for g in cleaned])
        columns = None
    by_direction: dict[int, list[Segment]] = {}
    for seg in build_segments(cleaned, text, dropped, columns):
        if _blank(seg):
            continue  # a lone space glyph carries no text, but it would fake a column edge
        by_direction.setdefault(seg.direction, []).append(seg)
    if not by_direction:
        return layout  # only whitespace glyphs: a blank page (an empty Word page draws its paragraph marks)
    main = max(by_direction, key=lambda k: (sum(len(s.glyphs) for s in by_direction[k]), k == HORIZONTAL))
    main_flows = reading_order(by_direction[main], text)
    other_flows = [reading_order(by_direction[k], text) for k in sorted(by_direction) if k != main]
    if dropped is not None:
        layout.columns = flow_columns(main_flows) + [c for flows in other_flows for c in flow_columns(flows, "rotated")]

    if main == HORIZONTAL:
        _split_flush_footnote_numbers(main_flows)
    page_steps = line_pitches([f.lines for f in main_flows])
    for flows in other_flows:
        for key, values in line_pitches([f.lines for f in flows]).items():
            page_steps.setdefault(key, []).extend(values)
    layout.line_pitches = page_steps
    # vertical CJK sets its columns 1.5–2.5 em apart: a step that repeats there is the pitch
    vertical: dict[int, list[float]] = {}
    for flows in [main_flows] + other_flows:
        if flows and flows[0].lines and flows[0].lines[0].glyphs[0].flags & VERTICAL:
            for key, values in line_pitches([f.lines for f in flows]).items():
                vertical.setdefault(key, []).extend(values)
    pitches = PitchTable(page_steps, doc_stats.pitch_by_size if doc_stats else None, vertical)

    word_tags = needs.word_tags
    body = _blocks([f for f in main_flows if f.role == "body"], pitches, "body", tags, word_tags)
    sidebars = _blocks([f for f in main_flows if f.role != "body"], pitches, "sidebar", tags, word_tags)
    rotated = [b for flows in other_flows for b in _blocks(flows, pitches, "rotated", tags, word_tags)]
    if main == HORIZONTAL and height > 0:
        _mark_running(body, height)
    footers = [b for b in body if b.role == "footer"]
    if footers:
        body = [b for b in body if b.role != "footer"]
    headers = [b for b in body if b.role == "header"]
    if headers and body[len(headers) - 1].role != "header":   # a head's piece the order read later
        body = headers + [b for b in body if b.role != "header"]
    layout.blocks = body + sidebars + rotated + footers
    if tags:
        from .tagged import order_blocks   # here, as in _blocks: only a tagged PDF's pages need it

        layout.blocks, by_tags = order_blocks(layout.blocks, needs.order)
        layout.order = "tags" if by_tags else "geometry"
    if needs.styled and font_styles is not None:   # plain text never reads the styles
        layout.blocks = _style_words(layout.blocks, font_styles)
    if needs.styled and links:
        layout.blocks = _link_words(layout.blocks, links)
    return layout


def flow_columns(flows: list[Flow], role: str = "") -> list[Column]:
    """The box of each flow in reading order (a table's rows make one box): the columns the
    inspector draws. `role` overrides the flows' own (body, sidebar)."""
    columns: list[Column] = []
    tables: dict[int, int] = {}   # table number → its column's index
    for flow in flows:
        words = [w for line in flow.lines for w in line.words]
        if not words:
            continue
        box = (min(w.x0 for w in words), min(w.y0 for w in words), max(w.x1 for w in words), max(w.y1 for w in words))
        if flow.table_row and flow.table in tables:
            at = tables[flow.table]
            old = columns[at]
            columns[at] = Column(min(old.x0, box[0]), min(old.y0, box[1]), max(old.x1, box[2]), max(old.y1, box[3]),
                                 old.role)
            continue
        if flow.table_row:
            tables[flow.table] = len(columns)
        columns.append(Column(*box, role or ("table" if flow.table_row else flow.role)))
    return columns


def _style_words(blocks: list[Block], font_styles: dict[str, FontStyle]) -> list[Block]:
    """Bold and italic of each word from its font (the name alone when the page did not load it)."""
    known: dict[str, tuple[bool, bool]] = {name: tuple(style) for name, style in font_styles.items()}

    def styled(word: Word) -> Word:
        style = known.get(word.font)
        if style is None:
            style = known[word.font] = name_style(word.font)
        return word if (word.bold, word.italic) == style else word._replace(bold=style[0], italic=style[1])
    return with_words(blocks, styled)


def _link_words(blocks: list[Block], links: list[LinkArea]) -> list[Block]:
    """A word whose centre lies in a link's area (grown by LINK_SLACK_EM) carries the link's URI;
    punctuation it opens or ends with stays outside the link when the word passes the area's
    edge there (see _outside_link)."""
    def linked(word: Word) -> Word:
        x = (word.x0 + word.x1) / 2
        y = (word.y0 + word.y1) / 2
        slack = LINK_SLACK_EM * word.size
        for area in links:
            if area.x0 - slack <= x <= area.x1 + slack and area.y0 - slack <= y <= area.y1 + slack:
                return word._replace(link=area.uri, link_outside=_outside_link(word, area))
        return word
    return with_words(blocks, linked)


def _outside_link(word: Word, area: "LinkArea") -> tuple[int, int]:
    """How many of the word's leading and trailing punctuation characters lie outside the link's
    area: all of a run of them, when the word passes the area's edge on that side by more than
    LINK_EDGE_EM (a link's rectangle is drawn around its own text: "example.org" in "see example.org.")."""
    text, edge = word.text, LINK_EDGE_EM * word.size
    lead = len(text) - len(text.lstrip(LINK_OPENING_PUNCTUATION)) if word.x0 < area.x0 - edge else 0
    trail = len(text) - len(text.rstrip(LINK_CLOSING_PUNCTUATION)) if word.x1 > area.x1 + edge else 0
    if lead + trail >= len(text):
        return (0, 0)   # punctuation only: nothing left to link
    return (lead, trail)


def fallback_layout(glyphs: list[Glyph], width: float, height: float, number: int, *,
                    image_coverage: float = 0.0, unmapped_glyphs: int = 0, hidden_glyphs: int = 0) -> PageLayout:
    """The page's words in drawing order, for a page whose analysis failed: a pen step forward
    of more than FALLBACK_WORD_GAP_EM starts a word; a step back, or off the baseline by more
    than FALLBACK_LINE_JUMP_EM, starts a line. Plain arithmetic only: nothing here can raise."""
    layout = PageLayout(number=number, width=width, height=height, image_coverage=image_coverage,
                        unmapped_glyphs=unmapped_glyphs, hidden_glyphs=hidden_glyphs)
    texts: list[str] = []
    current: list[str] = []
    last = None
    for g in glyphs:
        if last is not None:
            em = max(last.size, g.size, 1.0)
            along = (g.x - last.end_x) * last.dx + (g.y - last.end_y) * last.dy
            across = abs((g.y - last.end_y) * last.dx - (g.x - last.end_x) * last.dy)
            if across > FALLBACK_LINE_JUMP_EM * em or along < -FALLBACK_LINE_JUMP_EM * em:
                texts.append("".join(current))
                current = []
            elif along > FALLBACK_WORD_GAP_EM * em:
                current.append(" ")
        current.append(g.text)
        last = g
    texts.append("".join(current))
    lines = []
    for text in texts:
        words = [Word(w, 0.0, 0.0, 0.0, 0.0, 0.0, "", 0) for w in text.split()]
        if words:
            lines.append(Line(words=words, x0=0.0, y0=0.0, x1=0.0, y1=0.0))
    layout.char_count = sum(len(w.text) for line in lines for w in line.words)
    if lines:
        layout.blocks = [Block(lines=lines, x0=0.0, y0=0.0, x1=0.0, y1=0.0)]
    return layout


def _blank(seg: Segment) -> bool:
    """Only whitespace glyphs (an empty paragraph or a tab drawn as a space)."""
    for g in seg.glyphs:
        if not g.text.isspace():
            return False
    return True


def _split_flush_footnote_numbers(flows: list[Flow]) -> None:
    """Cut "1The" into "1" "The" on footnote lines at the page bottom (see FLUSH_FOOTNOTE)."""
    weight: dict[float, int] = {}
    for flow in flows:
        for line in flow.lines:
            weight[line.size] = weight.get(line.size, 0) + len(line.glyphs)
    if not weight:
        return
    body = max(weight, key=weight.get)
    small = (1 - SIZE_CHANGE_RATIO) * body
    body_bottom = max((line.v for flow in flows for line in flow.lines
                       if abs(line.size - body) <= SIZE_CHANGE_RATIO * body), default=None)
    if body_bottom is None:
        return
    for flow in flows:
        for line in flow.lines:
            if line.size >= small or line.v <= body_bottom or not line.words:
                continue
            first = line.words[0]
            match = FLUSH_FOOTNOTE.match(first.text)
            if match is None or line.glyphs[0].dy != 0.0:
                continue
            digits = len(match.group(1))
            cut = line.glyphs[digits].x if digits < len(line.glyphs) else first.x1
            number = Word(match.group(1), first.x0, first.y0, cut, first.y1, first.size,
                          first.font, first.flags)
            line.words[0:1] = [number, first._replace(text=first.text[digits:], x0=cut)]
            line.footnote_start = True


def _blocks(flows: list[Flow], pitches: PitchTable, role: str, tags: Mapping[int, Tag] | None = None,
            word_tags: bool = False) -> list[Block]:
    paragraphs: list[tuple[list[TextLine], Flow]] = []   # each with the flow it starts in
    after_row = True   # no paragraph before the first flow to run on from
    for flow in flows:
        paras = split_paragraphs(flow.lines, pitches)
        if paragraphs and paras and not (after_row or flow.table_row) and (
                _continues(paragraphs[-1][0], paras[0], flow.lines)
                or continues_below(paragraphs[-1][0], paras[0], pitches)):
            paragraphs[-1] = (paragraphs[-1][0] + paras[0], paragraphs[-1][1])
            paras = paras[1:]
        paragraphs.extend((para, flow) for para in paras)
        after_row = flow.table_row
    if tags:
        from .tagged import block_tag   # tagged PDFs only
    blocks: list[Block] = []
    rows_of: dict[int, tuple[tuple, list[Block]]] = {}   # table → (its gutters, its rows)
    baselines: dict[int, tuple[float, float]] = {}   # a table row's block → (its baseline, its size)
    for para, flow in paragraphs:
        model_lines = [_model_line(t, tags if word_tags else None) for t in para if t.words]
        if model_lines:
            tag, tagged, tag_orders = block_tag([t.glyphs for t in para], tags) if tags else (None, 0.0, (-1, -1))
            block = Block(
                lines=model_lines,
                x0=min([m.x0 for m in model_lines]), y0=min([m.y0 for m in model_lines]),
                x1=max([m.x1 for m in model_lines]), y1=max([m.y1 for m in model_lines]),
                role=role, tag=tag, tagged=tagged, tag_orders=tag_orders,
                table=flow.table if flow.table_row else -1,
            )
            if flow.table_row:
                rows_of.setdefault(flow.table, (flow.columns, []))[1].append(len(blocks))
                baselines[len(blocks)] = (para[0].v, max(t.size for t in para))
            blocks.append(block)
    merged: dict[int, int] = {}   # a row's block → the first row of the row it is a line of
    for columns, rows in rows_of.values():
        for at, row in zip(rows, _with_cells([blocks[at] for at in rows], columns)):
            blocks[at] = row
        _cell_lines(blocks, rows, baselines, merged)
    if not merged:
        return blocks
    groups: dict[int, list[Block]] = {}
    for at, first in merged.items():
        groups.setdefault(first, [blocks[first]]).append(blocks[at])
    return [_row_of_lines(groups[at]) if at in groups else block
            for at, block in enumerate(blocks) if at not in merged]


def _cell_lines(blocks: list[Block], rows: list[int], baselines: dict[int, tuple[float, float]],
                merged: dict[int, int]) -> None:
    """Mark the table rows that are further lines of the row above (CELL_LINE_STEP_SHARE):
    merged[row] = the first row of their group."""
    if len(rows) < CELL_MIN_ROWS:
        return
    steps = sorted(baselines[b][0] - baselines[a][0] for a, b in zip(rows, rows[1:]))
    median = steps[len(steps) // 2]
    for a, b in zip(rows, rows[1:]):
        (va, sa), (vb, sb) = baselines[a], baselines[b]
        step = vb - va
        if 0 < step < CELL_LINE_STEP_SHARE * median and step <= CELL_LINE_MAX_EM * max(sa, sb) \
                and _goes_on(blocks[a].cells, blocks[b].cells):
            merged[b] = merged.get(a, a)


def _goes_on(upper: list[list[Word]], lower: list[list[Word]]) -> bool:
    """Does the lower row's text go on from the upper's in some column (CELL_GOES_ON), while one
    of the two leaves empty some cell the other fills (the cells that wrap, beside cells that do
    not; two full rows are two rows)?"""
    filled_above = {c for c, cell in enumerate(upper) if cell}
    filled_below = {c for c, cell in enumerate(lower) if cell}
    if not (filled_above < filled_below or filled_below < filled_above):
        return False
    for above, below in zip(upper, lower):
        if above and below:
            last, first = above[-1].text, below[0].text
            if (len(last) > 1 and last[-1] == "-" and last[-2].isalpha()) or (
                    first[:2].islower() and CELL_GOES_ON.match(first)):
                return True
    return False


def _row_of_lines(rows: list[Block]) -> Block:
    """One table row from rows that are the lines of its cells: each cell's lines top to bottom,
    cell after cell along the row."""
    width = max(len(row.cells) for row in rows)
    cells: list[list[Word]] = []
    lines: list[Line] = []
    for c in range(width):
        cell: list[Word] = []
        for row in rows:
            words = row.cells[c] if c < len(row.cells) else []
            if words:
                cell.extend(words)
                lines.append(Line.of_words(list(words)))
        cells.append(cell)
    first = rows[0]
    return replace(first, lines=lines, cells=cells, x0=min(r.x0 for r in rows), y0=min(r.y0 for r in rows),
                   x1=max(r.x1 for r in rows), y1=max(r.y1 for r in rows))


def _with_cells(rows: list[Block], gutters: tuple) -> list[Block]:
    """Each table row's words by column. The band's gutters divide the columns, and so does white
    space narrower than a gutter (TABLE_CELL_GAP_EM) that is free in every row spreading over several
    columns (a caption or title row spanning the table does not count). Only horizontal tables:
    elsewhere the column boundaries are not x positions."""
    if any(line.dx != 1.0 or line.dy != 0.0 for row in rows for line in row.lines):
        return rows
    words = [[w for line in row.lines for w in line.words] for row in rows]
    every = [w for row in words for w in row]
    if not every:
        return rows
    em = sorted(w.size for w in every)[len(every) // 2]
    telling = [row for row in words
               if len({bisect.bisect_right(gutters, (w.x0 + w.x1) / 2) for w in row}) > 1 or not gutters]
    spans = sorted((w.x0, w.x1) for row in telling for w in row)
    boundaries = set(gutters)
    reach = spans[0][1] if spans else 0.0
    for x0, x1 in spans[1:]:
        if x0 - reach >= TABLE_CELL_GAP_EM * em:
            boundaries.add((reach + x0) / 2)
        reach = max(reach, x1)
    columns = sorted(boundaries)
    filled = []
    for row, row_words in zip(rows, words):
        cells: list[list[Word]] = [[] for _ in range(len(columns) + 1)]
        for word in row_words:
            cells[bisect.bisect_right(columns, (word.x0 + word.x1) / 2)].append(word)
        filled.append(replace(row, cells=cells))
    return filled


def _continues(before: list[TextLine], after: list[TextLine], flow: list[TextLine]) -> bool:
    """Does a paragraph run on from the bottom of one column to the top of the next?"""
    last, first = before[-1], after[0]
    if first.v >= last.v or not last.words or not first.words:
        return False  # the next flow is not higher up the page: not a column break
    if abs(last.size - first.size) > SIZE_CHANGE_RATIO * max(last.size, first.size):
        return False
    if not (last.fonts & first.fonts):
        return False
    if last.text[-1:] in SENTENCE_END:
        return False
    left = min(line.u0 for line in flow)
    return first.u0 - left <= INDENT_EM * first.size


def _model_line(t: TextLine, tags: Mapping[int, Tag] | None = None) -> Line:
    if tags:
        from .tagged import tag_words   # tagged PDFs only
        words = tag_words(t.words, t.glyphs, tags)
    else:
        words = t.words
    first = t.glyphs[0]
    return Line.of_words(words, dx=first.dx, dy=first.dy, space_after=t.glyphs[-1].text.isspace())


def _mark_running(blocks: list[Block], page_height: float) -> None:
    """Mark short one-line blocks in the top/bottom zones at the ends of the order, when
    white space sets them apart from the text (a heading at the top of the text is not one)."""
    for i, block in enumerate(blocks):
        if (block.y1 <= HEADER_ZONE * page_height and _short(block)
                and _space_below(block, blocks) > RUNNING_GAP_EM * _size(block)):
            blocks[i] = replace(block, role="header")
        else:
            break
    for i in range(len(blocks) - 1, -1, -1):
        block = blocks[i]
        if (block.y0 >= (1 - FOOTER_ZONE) * page_height and _short(block)
                and _space_above(block, blocks) > RUNNING_GAP_EM * _size(block)):
            blocks[i] = replace(block, role="footer")
        else:
            break
    _mark_split_head(blocks, page_height)
    # A page's foot under several columns: the column order reads each piece of it after the
    # column above it, between two columns ("… taxed on income | Instructions for Form 1040NR |
    # from all sources"). A short line in the footer zone that the order reads before other text
    # and that lies below all of the page's text (RUNNING_FOOT_GAP_EM) is a footer too.
    zone = (1 - FOOTER_ZONE) * page_height
    feet = {i for i, b in enumerate(blocks) if b.role == "body" and b.y0 >= zone and _short(b)}
    if not feet or len(feet) > RUNNING_MAX_FEET:
        return
    last_text = max((i for i, b in enumerate(blocks) if b.role == "body" and i not in feet), default=-1)
    text = [(j, b) for j, b in enumerate(blocks) if b.role == "body"]   # as it was before any is marked
    for i in sorted(feet):
        block = blocks[i]
        if i > last_text:
            continue
        # every other block of text ends above it, but the other pieces of its own line
        bottom = max((b.y1 for j, b in text
                      if j != i and (j not in feet or b.y1 <= block.y0 or b.y0 >= block.y1)),
                     default=float("-inf"))
        if block.y0 - bottom > RUNNING_FOOT_GAP_EM * _size(block):
            blocks[i] = replace(block, role="footer")


def _mark_split_head(blocks: list[Block], page_height: float) -> None:
    """The head counterpart of the split foot: a running head in pieces over several columns
    (a journal's name over the first column, the page number over the second) is read by the
    column order piece by piece, each before the column under it ("c0 … | -5- | c1 …"). A short
    line in the header zone that the order reads after other text and that lies above all of the
    page's text by RUNNING_FOOT_GAP_EM (no column's text rises beside it) is a header too; the
    caller reads the headers first."""
    zone = HEADER_ZONE * page_height
    heads = {i for i, b in enumerate(blocks) if b.role == "body" and b.y1 <= zone and _short(b)}
    if not heads or len(heads) > RUNNING_MAX_FEET:
        return
    first_text = min((i for i, b in enumerate(blocks) if b.role == "body" and i not in heads),
                     default=len(blocks))
    if max(heads) < first_text:
        return                  # every piece is read before the text already
    above = []
    for i in sorted(heads):
        block = blocks[i]
        # every other block of text starts below it, but the other pieces of its own line
        top = min((b.y0 for j, b in enumerate(blocks)
                   if j != i and b.role == "body" and (j not in heads or b.y1 <= block.y0 or b.y0 >= block.y1)),
                  default=float("inf"))
        # and the columns read before it start about as high as the text under it: a head
        # stands over all the columns (a heading over a column that starts beside a figure does not)
        first_top = min((b.y0 for j, b in enumerate(blocks[:i]) if b.role == "body" and j not in heads),
                        default=top)
        if (top - block.y1 > RUNNING_FOOT_GAP_EM * _size(block)
                and first_top - top <= RUNNING_HEAD_COLUMNS_EM * _size(block)):
            above.append(i)
    # a piece read late that is the page's number (a column's own heading over the second column
    # is read late too, and has the same white space under it): the pieces read first are the head too
    if any(i > first_text and _page_number(blocks[i]) for i in above):
        for i in above:
            blocks[i] = replace(blocks[i], role="header")


def _size(block: Block) -> float:
    return block.lines[0].words[0].size if block.lines[0].words else block.y1 - block.y0


def _space_below(block: Block, blocks: list[Block]) -> float:
    """White space between the block and the nearest block starting below it."""
    tops = [b.y0 for b in blocks if b is not block and b.y0 >= block.y1]
    return min(tops) - block.y1 if tops else float("inf")


def _space_above(block: Block, blocks: list[Block]) -> float:
    bottoms = [b.y1 for b in blocks if b is not block and b.y1 <= block.y0]
    return block.y0 - max(bottoms) if bottoms else float("inf")


# A page number as a running head prints it: "17", "-5-", "— xii —", "Page 5", "5 of 12", "p. 5".
_PAGE_NUMBER = re.compile(r"(?:page|p\.|seite|página|pagina)?\s*(?:\d{1,4}|[ivxl]{1,6})(?:\s*(?:of|/|von|de)\s*\d{1,4})?",
                          re.IGNORECASE)


def _page_number(block: Block) -> bool:
    """Is the block's one line a page number (with the dashes, brackets or word around it)?"""
    text = " ".join(w.text for w in block.lines[0].words).strip("-–—|[]()· \u00a0")
    return bool(text) and _PAGE_NUMBER.fullmatch(text) is not None


def _short(block: Block) -> bool:
    return len(block.lines) == 1 and len(block.lines[0].words) <= RUNNING_MAX_WORDS
