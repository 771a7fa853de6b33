"""Layout: from a page's glyph records to blocks of lines of words, in reading order.

    glyphs ─► cleanup ─► lines (segments) ─► blocks (XY-cut reading order) ─► words ─► paragraphs

`analyze_page` is a pure function of the glyphs and the page size (plus optional document
statistics for pages with too few lines of their own). What the pages say together (the
dehyphenation vocabulary, words hyphenated across a page break) is across_pages' document-level
pass; the reflow output joins a block's lines by the rules of layout.hyphenation.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from ..glyph import VERTICAL, Glyph
from .blocks import Flow, TextLine, reading_order
from .cleanup import clean_glyph_text
from .lines import HORIZONTAL, Segment, build_segments
from .model import Block, Line, PageLayout, Word
from .paragraphs import (INDENT_EM, MIN_PAGE_PITCHES, SIZE_CHANGE_RATIO, PitchTable, continues_below, line_pitch,
                         line_pitches, split_paragraphs)

__all__ = ["analyze_page", "fallback_layout", "needs_document_stats", "collect_doc_stats", "DocStats", "PageLayout", "Block", "Line", "Word"]

# Running headers sit in the top, footers and page numbers in the bottom share of the page.
HEADER_ZONE = 0.1
FOOTER_ZONE = 0.12

# A running header or footer is short: at most this many words on one line.
RUNNING_MAX_WORDS = 12

# ... and set apart from the text by more white space than this many of its font sizes (the
# text's own lines and a heading over its paragraph are closer).
RUNNING_GAP_EM = 1.0


# A footnote whose number is set flush against its text, in the footnote's own size ("1The
# letters are…"): a number of at most three digits glued to a capitalised word, on a line in
# smaller type than the page's body text and below all of it. Such a line opens a footnote.
FLUSH_FOOTNOTE = re.compile(r"^(\d{1,3})(?=[A-Z](?:[a-z]|$))")

# The fallback for a page whose analysis failed (fallback_layout): the word gap of the words
# stage, and half a line for a new line (the line stage's baseline tolerance).
FALLBACK_WORD_GAP_EM = 0.14
FALLBACK_LINE_JUMP_EM = 0.5

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
    steps: dict[int, list[float]] = {}
    size_weight: dict[float, int] = {}
    for page in pages:
        if isinstance(page, PageLayout):
            layout = page
        else:
            layout = analyze_page(list(page), 0.0, 0.0, 0)
        for key, values in layout.line_pitches.items():
            steps.setdefault(key, []).extend(values)
        for block in layout.blocks:
            for line in block.lines:
                for w in line.words:
                    size_weight[round(w.size, 1)] = size_weight.get(round(w.size, 1), 0) + len(w.text)
    body = max(size_weight, key=size_weight.get) if size_weight else 0.0
    return DocStats({k: line_pitch(v) for k, v in steps.items() if v}, body)


def needs_document_stats(layout: PageLayout) -> bool:
    """A page with several lines but too few line pitches of its own to judge paragraph gaps:
    it is laid out again with DocStats from the other pages."""
    lines = sum(len(block.lines) for block in layout.blocks)
    return lines >= 2 and sum(len(steps) for steps in layout.line_pitches.values()) < MIN_PAGE_PITCHES


def analyze_page(glyphs: list[Glyph], width: float, height: float, number: int,
                 doc_stats: DocStats | None = None, *, image_coverage: float = 0.0,
                 unmapped_glyphs: int = 0) -> PageLayout:
    """Lay out one page: blocks (paragraphs, headings, rows, headers/footers) in reading order.
    `image_coverage` (the share of the page painted with images) and `unmapped_glyphs` (glyphs
    the fonts could not decode) are carried for the scan and no-mapping reports."""
    layout = PageLayout(number=number, width=width, height=height, image_coverage=image_coverage,
                        unmapped_glyphs=unmapped_glyphs)
    texts = [g.text for g in glyphs]
    cleaned = clean_glyph_text(glyphs, texts)
    if cleaned is not glyphs:
        texts = [g.text for g in cleaned]
    text = "".join(texts)
    layout.char_count = len(text) - sum(text.count(ch) for ch in WHITESPACE)
    if not cleaned:
        return layout
    by_direction: dict[int, list[Segment]] = {}
    for seg in build_segments(cleaned, text):
        if _blank(seg):
            continue  # a lone space glyph carries no text, but it would fake a column edge
        by_direction.setdefault(seg.direction, []).append(seg)
    if not by_direction:
        return layout  # only whitespace glyphs: a blank page (an empty Word page draws its paragraph marks)
    main = max(by_direction, key=lambda k: (sum(len(s.glyphs) for s in by_direction[k]), k == HORIZONTAL))
    main_flows = reading_order(by_direction[main], text)
    other_flows = [reading_order(by_direction[k], text) for k in sorted(by_direction) if k != main]

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

    body = _blocks([f for f in main_flows if f.role == "body"], pitches, "body")
    sidebars = _blocks([f for f in main_flows if f.role != "body"], pitches, "sidebar")
    rotated = [b for flows in other_flows for b in _blocks(flows, pitches, "rotated")]
    if main == HORIZONTAL and height > 0:
        _mark_running(body, height)
    footers: list[Block] = []
    while body and body[-1].role == "footer":
        footers.insert(0, body.pop())
    layout.blocks = body + sidebars + rotated + footers
    return layout


def fallback_layout(glyphs: list[Glyph], width: float, height: float, number: int, *,
                    image_coverage: float = 0.0, unmapped_glyphs: int = 0) -> PageLayout:
    """The page's words in drawing order, for a page whose analysis failed: a pen step forward
    of more than FALLBACK_WORD_GAP_EM starts a word; a step back, or off the baseline by more
    than FALLBACK_LINE_JUMP_EM, starts a line. Plain arithmetic only: nothing here can raise."""
    layout = PageLayout(number=number, width=width, height=height, image_coverage=image_coverage,
                        unmapped_glyphs=unmapped_glyphs)
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


def _blocks(flows: list[Flow], pitches: PitchTable, role: str) -> list[Block]:
    paragraphs: list[list[TextLine]] = []
    after_row = True   # no paragraph before the first flow to run on from
    for flow in flows:
        paras = split_paragraphs(flow.lines, pitches)
        if paragraphs and paras and not (after_row or flow.table_row) and (
                _continues(paragraphs[-1], paras[0], flow.lines)
                or continues_below(paragraphs[-1], paras[0], pitches)):
            paragraphs[-1] = paragraphs[-1] + paras[0]
            paras = paras[1:]
        paragraphs.extend(paras)
        after_row = flow.table_row
    blocks: list[Block] = []
    for para in paragraphs:
        model_lines = [_model_line(t) for t in para if t.words]
        if model_lines:
            blocks.append(Block(
                lines=model_lines,
                x0=min([m.x0 for m in model_lines]), y0=min([m.y0 for m in model_lines]),
                x1=max([m.x1 for m in model_lines]), y1=max([m.y1 for m in model_lines]),
                role=role,
            ))
    return blocks


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


def _model_line(t: TextLine) -> Line:
    words = t.words
    first = t.glyphs[0]
    return Line(
        words=words,
        x0=min([w.x0 for w in words]), y0=min([w.y0 for w in words]),
        x1=max([w.x1 for w in words]), y1=max([w.y1 for w in words]),
        dx=first.dx, dy=first.dy,
    )


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


def _size(block: Block) -> float:
    return block.lines[0].words[0].size if block.lines[0].words else block.y1 - block.y0


def _space_below(block: Block, blocks: list[Block]) -> float:
    """White space between the block and the nearest block starting below it."""
    tops = [b.y0 for b in blocks if b is not block and b.y0 >= block.y1]
    return min(tops) - block.y1 if tops else float("inf")


def _space_above(block: Block, blocks: list[Block]) -> float:
    bottoms = [b.y1 for b in blocks if b is not block and b.y1 <= block.y0]
    return block.y0 - max(bottoms) if bottoms else float("inf")


def _short(block: Block) -> bool:
    return len(block.lines) == 1 and len(block.lines[0].words) <= RUNNING_MAX_WORDS
