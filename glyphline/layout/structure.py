"""Structure for the structured outputs (Markdown): headings with levels, list items with nesting,
table rows, running headers and footers. Layout decides; the renderer only writes what these marks say.

Headings. The body style is the font size that sets most of the document's characters. A
short block (HEADING_MAX_LINES, HEADING_MAX_WORDS) set almost wholly in one style is a heading
when that style is larger than the body by HEADING_SIZE_RATIO, or is bold at body size on one
short line of its own while the body is not bold. The document's distinct heading styles,
ranked by size and then weight, give the levels (largest = 1, at most 6): every rule relative
to the document's own type, none in points. A document set in one size without bold lines
has no headings.

Running headers and footers. Layout marks the short lines at the top and bottom of a page as
header or footer by their place; here such a line, or any one-line block in those zones, is
running (left out of Markdown) when its text recurs there on another page, or when it is a
page number (as is a lone number opening or closing the page's text). Lines layout marked,
in less than a heading's size, may differ in their digits ("Page 3", "Page 4"); the others
must recur exactly (section headings at the tops of pages may differ only in their numbers).
Otherwise (a title at the top of a one-page document) a line is text like any other.

Footnotes (FOOTNOTE_NUMBER, FOOTNOTE_REF; tagged Note and FENote elements) are paired with
their reference mark on the same page; an unpaired one stays a paragraph.

Lists. A block whose first word is a bullet (•, –, ◦, ▪, …, or any single character in a
symbol font) or a number or letter with a period or parenthesis is a list item; a lettered
or Roman item needs a neighbouring item (a lone "A." opens a sentence as often as a list).
A bullet that layout set apart as a block of its own (Writer sets it in another font, a tab
away) is its next block's marker when that block's first line starts right of it, at most
BULLET_GAP_EM away, with the bullet's centre within the line's height.
Nesting: within a run of consecutive items, each distinct indent of the markers is one level
deeper (markers less than ALIGN_EM right of the previous one share its indent).

Tagged pages. Where the words carry the author's structure, layout.tagged_structure regroups
them by element first and the tree's roles decide headings, list items, tables and figures;
the rules above then apply to untagged blocks, and to tagged paragraphs only for the kinds the
document's tree never uses (a tree without a single H1–H6 did not tag its headings; one that
has them called this block a paragraph).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Iterable

from . import FOOTER_ZONE, HEADER_ZONE
from .blocks import SYMBOL_FONT
from .drawn import (BULLET_GAP_EM, GRID_CELL_MAX_LINES, RuledGrid, cells_by_column_rules, ruled_end, ruled_grids, ruled_header,
                    split_at_drawn_bullets)
from .model import Block, Line, PageLayout, Word
from .paragraphs import ALIGN_EM, SIZE_CHANGE_RATIO
from ..structure import BLOCK_ROLES
from .tagged_structure import DRAWN_BULLET, HEADING_ROLES, LIST_ROLES, has_tagged_words, regroup_by_tags, tree_roles

# A heading is at most this many lines and words (a title may wrap; a paragraph is longer).
HEADING_MAX_LINES = 3
HEADING_MAX_WORDS = 24
# ... and this share of its characters are in its one style (a bold lead-in is not a heading).
HEADING_STYLE_SHARE = 0.8
# Larger than the body by this ratio: a heading size (body 10 pt, \subsection 12 pt; Word body
# 11 pt, Heading 2 13 pt); closer sizes are the body's own jitter.
HEADING_SIZE_RATIO = 1.08
# A bold heading at body size stands on one line of at most this many words, not ending like a
# clause or a label (",", ";", ":" lead into what follows).
BOLD_HEADING_MAX_WORDS = 12
BOLD_HEADING_BAD_ENDS = frozenset(",;:")
# Markdown has six heading levels; further styles share the sixth.
MAX_HEADING_LEVEL = 6

BULLETS = frozenset("•◦▪▫‣⁃∙·●○■□►▶➢➤✓✔❖◆◇–—-*\uf0b7\uf0a7\uf076\uf0d8\uf0fc\uf06e\uf0a8")
NUMBERED = re.compile(r"^\(?(?:\d{1,3}|[a-zA-Z]|[ivxlcdm]{1,6}|[IVXLCDM]{1,6})[.)]$")
DIGIT_NUMBERED = re.compile(r"^\(?\d{1,3}[.)]$")


# Footnotes: a block in smaller type than the body, below all of the page's body text (or one
# the structure tree calls a Note or FENote, wherever it stands), opening with a mark (a number,
# or *, †, ‡, §, ¶ up to three times); it is paired with the first word of the page's text
# ending in that mark after a letter or a closing mark ("scheme1", "form,3", "postcard†:"), as
# a raised mark sits, or with the mark standing alone in smaller type than the word before it
# (a superscript set apart: "scheme ¹"). Notes set without a gap between them are one block:
# a line of one opening with the next number starts the next note.
FOOTNOTE_MARK = r"(?:\d{1,3}|[*†‡§¶]{1,3})"
FOOTNOTE_NUMBER = re.compile(r"^" + FOOTNOTE_MARK + r"$")
FOOTNOTE_REF = re.compile(r"^(.*[^\W\d_]|.*[^\d\s*†‡§¶][.,;:!?)\]”’\"'])(" + FOOTNOTE_MARK + r")([.,;:!?)]*)$")
NOTE_ROLES = frozenset({"Note", "FENote"})

# A page number on its own: "7", "- 7 -", "Page 7", "7 of 20", "vii", "Seite 7".
ROMAN = r"(?=[ivxlcdm])m{0,3}(?:cm|cd|d?c{0,3})(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3})"
PAGE_NUMBER = re.compile(r"^[-–—\s]*(?:(?:page|seite|p\.)\s*)?(?:\d{1,5}|" + ROMAN + r")(?:\s*(?:of|/|von)\s*\d{1,5})?[-–—\s]*$",
                         re.IGNORECASE)
# A running header or footer recurs on at least this many pages (digits aside: "Page 3", "Page 4").
RUNNING_MIN_PAGES = 2
_DIGITS = re.compile(r"\d+")
_PAGE_WORD = re.compile(r"^(?:\d{1,5}|" + ROMAN + r"|[-–—|·•])$")


@dataclass(frozen=True)
class HeadingStyles:
    """The document's body size and its heading styles, best first: (size, bold) → level index + 1;
    and the texts of its running headers and footers (digits replaced by '#')."""

    body_size: float = 0.0
    body_bold: bool = False
    styles: tuple[tuple[float, bool], ...] = ()
    running: frozenset[str] = frozenset()
    tree_roles: frozenset[str] = frozenset()   # the structure roles the document's tagged words sit in

    def is_running(self, block: Block, page_height: float) -> bool:
        """Is this a running header or footer (see the module doc)?"""
        if not _in_margin(block, page_height):
            return False
        text = " ".join(line.text for line in block.lines)
        if PAGE_NUMBER.match(text):
            return True
        small = _block_size(block) < HEADING_SIZE_RATIO * self.body_size
        # an unmarked line may repeat a marked header (set closer to the text on this page)
        return (small and _running_key(text, True) in self.running) or \
            _running_key(text, small and _marked(block)) in self.running

    def level(self, size: float, bold: bool) -> int:
        """The heading level of a style, 0 when it is no heading style."""
        for index, (style_size, style_bold) in enumerate(self.styles):
            if style_bold == bold and _same_size(size, style_size):
                return min(index + 1, MAX_HEADING_LEVEL)
        return 0


def heading_styles(layouts: Iterable[PageLayout]) -> HeadingStyles:
    """Rank the heading styles of the document (or of the pages given)."""
    layouts = list(layouts)
    sizes: dict[float, int] = {}   # a first census, running lines included (they are few characters)
    for layout in layouts:
        for block in layout.blocks:
            if block.table < 0 and block.role != "rotated":
                for line in block.lines:
                    for word in line.words:
                        sizes[round(word.size, 1)] = sizes.get(round(word.size, 1), 0) + len(word.text)
    text_size = max(sizes, key=sizes.get) if sizes else 0.0
    pages_of: dict[str, set[int]] = {}
    for layout in layouts:
        for block in layout.blocks:
            if _in_margin(block, layout.height):
                small = _block_size(block) < HEADING_SIZE_RATIO * text_size
                key = _running_key(" ".join(line.text for line in block.lines), small and _marked(block))
                pages_of.setdefault(key, set()).add(layout.number)
    running = frozenset(key for key, pages in pages_of.items() if len(pages) >= RUNNING_MIN_PAGES)
    layouts_blocks = [[b for b in _text_blocks(layout, running, text_size)] for layout in layouts]
    by_size: dict[float, int] = {}
    bold_chars: dict[float, int] = {}
    for blocks in layouts_blocks:
        for block in blocks:
            for line in block.lines:
                for word in line.words:
                    key = round(word.size, 1)
                    by_size[key] = by_size.get(key, 0) + len(word.text)
                    if word.bold:
                        bold_chars[key] = bold_chars.get(key, 0) + len(word.text)
    if not by_size:
        return HeadingStyles(running=running, tree_roles=frozenset(role for layout in layouts
                                                                    for role in tree_roles(layout.blocks)))
    body_size = max(by_size, key=by_size.get)
    body_bold = 2 * sum(n for size, n in bold_chars.items() if _same_size(size, body_size)) > \
        sum(n for size, n in by_size.items() if _same_size(size, body_size))
    styles: list[tuple[float, bool]] = []
    for blocks in layouts_blocks:
        for block in blocks:
            style = _heading_style(block, body_size, body_bold)
            if style is not None and not any(s[1] == style[1] and _same_size(s[0], style[0]) for s in styles):
                styles.append(style)
    styles.sort(key=lambda s: (-s[0], not s[1]))
    roles = frozenset(role for layout in layouts for role in tree_roles(layout.blocks))
    return HeadingStyles(body_size, body_bold, tuple(styles), running, roles)


@dataclass(slots=True)
class _Marks:
    """What mark_structure decides for one block; the block is remade with it at the end."""
    kind: str = "paragraph"
    level: int = 0
    marker: str = ""
    notes: dict[tuple[int, int], str] = field(default_factory=dict)   # (line, word) → its footnote's mark
    from_tags: bool = False   # the structure tree decided kind, level and marker (the marker is not in the text)
    drawn: bool = False       # the marker is a bullet drawn before the text (layout.drawn), not in it

    @property
    def marker_in_text(self) -> bool:
        return bool(self.marker) and not self.from_tags and not self.drawn


def mark_structure(layout: PageLayout, headings: HeadingStyles) -> None:
    """Remake each block with its kind, level and marker (see the module doc); the marker is
    taken off the text."""
    if has_tagged_words(layout.blocks):
        layout.blocks = regroup_by_tags(layout.blocks, layout.figures, "Table" in headings.tree_roles)
    if layout.drawing is not None:
        layout.blocks = _tables_by_rules(layout.blocks, layout.drawing)
        layout.blocks = _tables_by_grids(layout.blocks, layout.drawing)
    layout.blocks = _join_hanging_bullets(layout.blocks)
    layout.blocks, drawn_bullets = split_at_drawn_bullets(layout.blocks, layout.drawing)
    blocks = layout.blocks
    marks = [_Marks() for _ in blocks]
    candidates: list[tuple[int, str]] = []
    tree_headings = not headings.tree_roles.isdisjoint(HEADING_ROLES)
    tree_lists = not headings.tree_roles.isdisjoint(LIST_ROLES)
    for i, block in enumerate(blocks):
        mark = marks[i]
        if block.kind != "paragraph":   # the structure tree's decision (layout.tagged_structure)
            if block.kind == "list_item" and not block.marker:
                block = blocks[i] = _with_marker_from_text(block)
            mark.kind, mark.level, mark.marker, mark.from_tags = block.kind, block.level, block.marker, True
            continue
        tagged = block.tag is not None and block.tag.role in BLOCK_ROLES   # the tree named this block (a P …)
        if block.table >= 0 and block.cells:
            mark.kind = "table_row"
            continue
        if block.role != "rotated" and (headings.is_running(block, layout.height) or _page_number(block, layout)):
            mark.kind = "running"
            continue
        if block.role == "rotated":
            continue
        if drawn_bullets[i] and not (tagged and tree_lists):
            mark.kind, mark.drawn = "list_item", True
            candidates.append((i, DRAWN_BULLET))
            continue
        style = _heading_style(block, headings.body_size, headings.body_bold)
        if style is not None and headings.level(*style) and not (tagged and tree_headings):
            mark.kind, mark.level = "heading", headings.level(*style)
            continue
        marker = _marker(block)
        if marker and not (tagged and tree_lists):
            mark.kind = "list_item"
            candidates.append((i, marker))
    items = {i for i, _ in candidates}
    for i, marker in candidates:
        neighbour = i - 1 in items or i + 1 in items
        if not (neighbour or DIGIT_NUMBERED.match(marker) or marker in BULLETS or _symbol_bullet(blocks[i])):
            marks[i].kind = "paragraph"   # a lone "A." or "iv." opens a sentence as often as a list
            continue
        marks[i].marker = marker
    _nest_lists(blocks, marks)
    _split_note_runs(blocks, marks, headings.body_size)
    _mark_ruled_headers(blocks, marks, layout.drawing)
    _pair_footnotes(blocks, marks, headings.body_size)
    layout.blocks = [_remade(block, mark) for block, mark in zip(blocks, marks)]


def _remade(block: Block, mark: _Marks) -> Block:
    lines = block.lines
    if mark.from_tags and not mark.notes:
        return block
    if mark.notes:
        lines = [replace(line, words=[word._replace(note=mark.notes[(li, wi)]) if (li, wi) in mark.notes else word
                                      for wi, word in enumerate(line.words)])
                 if any(key[0] == li for key in mark.notes) else line
                 for li, line in enumerate(lines)]
    if mark.marker_in_text:
        lines = [replace(lines[0], words=_without_marker(lines[0].words, mark.marker))] + list(lines[1:])
    return replace(block, lines=lines, kind=mark.kind, level=mark.level, marker=mark.marker)


def _pair_footnotes(blocks: list[Block], marks: list[_Marks], body_size: float) -> None:
    """Footnotes (see the module doc) and the first reference to each in the page's text."""
    small = (1 - SIZE_CHANGE_RATIO) * body_size
    body_bottom = max((b.y1 for b, m in zip(blocks, marks) if m.kind != "running" and _block_size(b) >= small),
                      default=None)
    notes: dict[str, int] = {}
    for i, block in enumerate(blocks):
        if not block.lines:
            continue   # a figure: its alt text only
        words = block.lines[0].words
        if (marks[i].kind == "paragraph" and block.role in ("body", "footer") and len(words) > 1
                and FOOTNOTE_NUMBER.match(words[0].text)
                and (_tagged_note(block) or _block_size(block) < small
                     and (body_bottom is None or block.y0 >= body_bottom))):
            notes.setdefault(words[0].text, i)
    if not notes:
        return
    for i, block in enumerate(blocks):
        if marks[i].kind not in ("paragraph", "list_item", "heading") or _block_size(block) < small \
                or notes.get(block.lines[0].words[0].text if block.lines and block.lines[0].words else "") == i:
            continue
        previous: Word | None = None
        for li, line in enumerate(block.lines):
            words = line.words
            if li == 0 and marks[i].marker_in_text:   # a list item's words once its marker is off
                words = _without_marker(words, marks[i].marker)
                offset = len(line.words) - len(words)
            else:
                offset = 0
            for wi, word in enumerate(words):
                mark = _reference_mark(word, previous)
                previous = word
                if mark is None or mark not in notes or marks[notes[mark]].kind == "footnote":
                    continue
                note = marks[notes[mark]]
                note.kind, note.marker = "footnote", mark
                marks[i].notes[(li, wi + offset)] = note.marker


def _reference_mark(word: Word, previous: Word | None) -> str | None:
    """The footnote mark a word of the text ends in (see FOOTNOTE_REF), or is (a superscript set apart)."""
    match = FOOTNOTE_REF.match(word.text)
    if match is not None:
        return match.group(2)
    if previous is not None and FOOTNOTE_NUMBER.match(word.text) and word.size < (1 - SIZE_CHANGE_RATIO) * previous.size:
        return word.text
    return None


def _tagged_note(block: Block) -> bool:
    """Does the structure tree put most of the block's words in a Note or FENote element?"""
    words = [w for line in block.lines for w in line.words]
    in_note = sum(1 for w in words if w.tag is not None and not NOTE_ROLES.isdisjoint(w.tag.path))
    return 2 * in_note > len(words)


def _split_note_runs(blocks: list[Block], marks: list[_Marks], body_size: float) -> None:
    """Footnotes set one under the other without a gap are one block: split it where a line opens
    with the number after the previous note's ("1 …", "2 …"), so each note can be paired."""
    small = (1 - SIZE_CHANGE_RATIO) * body_size
    i = 0
    while i < len(blocks):
        block = blocks[i]
        first = block.lines[0].words if block.lines else []
        if (marks[i].kind != "paragraph" or len(block.lines) < 2 or not first or not first[0].text.isdigit()
                or len(first[0].text) > 3 or not (_tagged_note(block) or _block_size(block) < small)):
            i += 1
            continue
        parts: list[list[Line]] = [[block.lines[0]]]
        number = int(first[0].text)
        for line in block.lines[1:]:
            if len(line.words) > 1 and line.words[0].text == str(number + 1):
                number += 1
                parts.append([line])
            else:
                parts[-1].append(line)
        if len(parts) > 1:
            blocks[i:i + 1] = [replace(block, lines=lines, x0=min(l.x0 for l in lines), y0=min(l.y0 for l in lines),
                                       x1=max(l.x1 for l in lines), y1=max(l.y1 for l in lines)) for lines in parts]
            marks[i:i + 1] = [_Marks() for _ in parts]
        i += len(parts)
def _tables_by_rules(blocks: list[Block], drawing) -> list[Block]:
    """Table rows below their table's last rule made text blocks again, and the cells of the rows
    within it those its vertical rules draw (layout.drawn)."""
    blocks = list(blocks)
    tables: dict[int, list[int]] = {}
    for i, block in enumerate(blocks):
        if block.table >= 0 and block.cells and block.kind == "paragraph":
            tables.setdefault(block.table, []).append(i)
    outside: set[int] = set()
    for rows in tables.values():
        rows.sort(key=lambda i: blocks[i].y0)
        end = ruled_end([blocks[i] for i in rows], drawing)
        outside.update(rows[end:])
        cells = cells_by_column_rules([blocks[i] for i in rows[:end]], drawing)
        for i, row_cells in zip(rows[:end], cells or ()):
            blocks[i] = replace(blocks[i], cells=row_cells)
    return [replace(block, table=-1, cells=[]) if i in outside else block for i, block in enumerate(blocks)]


def _join_hanging_bullets(blocks: list[Block]) -> list[Block]:
    """Each bullet standing alone as a block joined to the front of the block it marks (see the module doc)."""
    out: list[Block] = []
    i = 0
    while i < len(blocks):
        block = blocks[i]
        following = blocks[i + 1] if i + 1 < len(blocks) else None
        if following is not None and _hanging_bullet(block, following):
            bullet = block.lines[0].words[0]
            first = following.lines[0]
            first = replace(first, words=[bullet] + list(first.words), x0=min(first.x0, bullet.x0))
            out.append(replace(following, lines=[first] + list(following.lines[1:]), x0=min(following.x0, block.x0),
                               y0=min(following.y0, block.y0)))
            i += 2
            continue
        out.append(block)
        i += 1
    return out


def _hanging_bullet(block: Block, following: Block) -> bool:
    if (block.kind != "paragraph" or following.kind != "paragraph" or block.table >= 0 or following.table >= 0
            or len(block.lines) != 1 or len(block.lines[0].words) != 1 or not following.lines
            or not following.lines[0].words or block.role != following.role):
        return False
    bullet = block.lines[0].words[0]
    if not (bullet.text in BULLETS or (len(bullet.text) == 1 and SYMBOL_FONT.search(bullet.font))):
        return False
    line = following.lines[0]
    gap = line.x0 - bullet.x1
    return 0.0 <= gap <= BULLET_GAP_EM * line.words[0].size and line.y0 <= (bullet.y0 + bullet.y1) * 0.5 <= line.y1


def _tables_by_grids(blocks: list[Block], drawing) -> list[Block]:
    """Tables layout did not find by their columns but the page's rules draw as a grid
    (layout.drawn): the lines inside each grid taken out of their blocks as its rows."""
    sizes = sorted(w.size for block in blocks for line in block.lines for w in line.words)
    grids = ruled_grids(drawing, sizes[len(sizes) // 2]) if sizes else []
    for grid in grids:
        blocks = _grid_table(blocks, grid, sizes[len(sizes) // 2])
    return blocks


def _grid_table(blocks: list[Block], grid: RuledGrid, em: float) -> list[Block]:
    """The blocks with the lines inside the grid made its rows, or as they were when the grid is no
    table (see layout.drawn)."""
    inside: dict[int, list[int]] = {}   # block → the indexes of its lines inside the grid
    for b, block in enumerate(blocks):
        for li, line in enumerate(block.lines):
            centres = [((w.x0 + w.x1) * 0.5, (w.y0 + w.y1) * 0.5) for w in line.words]
            within = [grid.x0 < x < grid.x1 and grid.y0 < y < grid.y1 for x, y in centres]
            if not any(within):
                continue
            if not all(within) or block.kind != "paragraph" or block.table >= 0 or block.role == "rotated":
                return blocks   # a line across its border, or text layout or the tags already made a table
            inside.setdefault(b, []).append(li)
    bands: list[list[Line]] = [[] for _ in grid.rows[1:]]
    for b, indexes in inside.items():
        for li in indexes:
            line = blocks[b].lines[li]
            middle = (line.y0 + line.y1) * 0.5
            for k, (top, bottom) in enumerate(zip(grid.rows, grid.rows[1:])):
                if top <= middle < bottom:
                    bands[k].append(line)
                    break
            else:
                return blocks   # text above the first rule or below the last: not a grid of cells
    rows: list[list[list[Word]]] = []
    used_columns: set[int] = set()
    for lines in bands:
        if not lines:
            continue
        lines.sort(key=lambda line: (line.y0, line.x0))
        edges = grid.edges_across((lines[0].y0 + lines[-1].y1) * 0.5, em)
        cells: list[list[Word]] = [[] for _ in range(len(edges) + 1)]
        cell_lines: list[set[float]] = [set() for _ in cells]
        for line in lines:
            for word in line.words:
                column = sum(1 for x in edges if x < (word.x0 + word.x1) * 0.5)
                cells[column].append(word)
                cell_lines[column].add(round(line.y0, 1))
        if max(len(ys) for ys in cell_lines) > GRID_CELL_MAX_LINES:
            return blocks   # a boxed column of prose
        used_columns.update(c for c, cell in enumerate(cells) if cell)
        rows.append(cells)
    if len(rows) < 2 or len(used_columns) < 2:
        return blocks
    table = 1 + max((block.table for block in blocks), default=-1)
    made = []
    for lines, cells in zip([band for band in bands if band], rows):
        first = blocks[min(inside)]
        made.append(replace(first, lines=lines, x0=min(l.x0 for l in lines), y0=min(l.y0 for l in lines),
                            x1=max(l.x1 for l in lines), y1=max(l.y1 for l in lines), table=table, cells=cells))
    out: list[Block] = []
    for b, block in enumerate(blocks):
        if b not in inside:
            out.append(block)
            continue
        taken = set(inside[b])
        before = [line for li, line in enumerate(block.lines) if li < min(taken)]
        after = [line for li, line in enumerate(block.lines) if li > min(taken) and li not in taken]
        if before:
            out.append(_with_lines(block, before))
        if b == min(inside):
            out.extend(made)
        if after:
            out.append(_with_lines(block, after))
    return out


def _with_lines(block: Block, lines: list[Line]) -> Block:
    return replace(block, lines=lines, x0=min(l.x0 for l in lines), y0=min(l.y0 for l in lines),
                   x1=max(l.x1 for l in lines), y1=max(l.y1 for l in lines))


def _mark_ruled_headers(blocks: list[Block], marks: list[_Marks], drawing) -> None:
    """A table's first row is its header when the rules drawn between its rows say so (layout.drawn)."""
    tables: dict[int, list[int]] = {}
    for i, block in enumerate(blocks):
        if marks[i].kind == "table_row" and not marks[i].from_tags:
            tables.setdefault(block.table, []).append(i)
    for rows in tables.values():
        rows.sort(key=lambda i: blocks[i].y0)
        if ruled_header([blocks[i] for i in rows], drawing):
            marks[rows[0]].kind = "table_header"


def _block_size(block: Block) -> float:
    sizes = sorted(w.size for line in block.lines for w in line.words)
    return sizes[len(sizes) // 2] if sizes else 0.0


def _text_blocks(layout: PageLayout, running: frozenset[str], text_size: float) -> Iterable[Block]:
    """The page's blocks of running text: no table rows, rotated lines or running headers."""
    census = HeadingStyles(body_size=text_size, running=running)
    for block in layout.blocks:
        if (block.table >= 0 or block.role == "rotated" or census.is_running(block, layout.height)
                or _page_number(block, layout)):
            continue
        yield block


def _page_number(block: Block, layout: PageLayout) -> bool:
    """A lone number opening or closing the page's text, wherever the zones are (LaTeX sets its
    page numbers higher than a footer zone)."""
    body = [b for b in layout.blocks if b.role == "body"]
    return bool(body) and (block is body[0] or block is body[-1]) and len(block.lines) == 1 \
        and bool(PAGE_NUMBER.match(block.lines[0].text))


def _in_margin(block: Block, page_height: float) -> bool:
    """A header or footer by layout's marks; or a line in its top or bottom zones that layout kept in
    the text (set closer to the text on this page than on the others, or drawn in a form)."""
    if block.role in ("header", "footer"):
        return True
    return block.role == "body" and len(block.lines) == 1 and (
        block.y1 <= HEADER_ZONE * page_height or block.y0 >= (1 - FOOTER_ZONE) * page_height)


def _marked(block: Block) -> bool:
    return block.role in ("header", "footer")


def _running_key(text: str, loose: bool) -> str:
    """What must recur: a marked header's or footer's text in small type with its digits aside
    ("Page 3", "Page 4"); anything else exactly (section headings at the tops of pages may differ
    only in their numbers)."""
    if loose:   # the page number may stand first on even pages and last on odd ones
        words = text.lower().split()
        while words and _PAGE_WORD.match(words[0]):
            del words[0]
        while words and _PAGE_WORD.match(words[-1]):
            del words[-1]
        return _DIGITS.sub("#", " ".join(words))
    return "=" + " ".join(text.split())


def _same_size(a: float, b: float) -> bool:
    return abs(a - b) <= SIZE_CHANGE_RATIO / 2 * max(a, b)   # half the style-change ratio: one size, rounded


def _heading_style(block: Block, body_size: float, body_bold: bool) -> tuple[float, bool] | None:
    """(size, bold) of a block that looks like a heading against the body, else None."""
    words = [w for line in block.lines for w in line.words]
    if not words or body_size <= 0 or len(block.lines) > HEADING_MAX_LINES or len(words) > HEADING_MAX_WORDS:
        return None
    text = " ".join(w.text for w in words)
    if sum(ch.isalpha() for ch in text) < 2:
        return None   # a page number, a big figure digit, a drop cap
    chars: dict[tuple[float, bool], int] = {}
    for word in words:
        key = (round(word.size, 1), word.bold)
        chars[key] = chars.get(key, 0) + len(word.text)
    (size, bold), count = max(chars.items(), key=lambda item: item[1])
    if count < HEADING_STYLE_SHARE * sum(chars.values()):
        return None
    if size >= HEADING_SIZE_RATIO * body_size:
        return size, bold
    if (bold and not body_bold and _same_size(size, body_size) and len(block.lines) == 1
            and len(words) <= BOLD_HEADING_MAX_WORDS and text[-1] not in BOLD_HEADING_BAD_ENDS
            and _marker(block) == ""):
        return size, bold
    return None


def _marker(block: Block) -> str:
    """The list marker opening the block ('' when none): a bullet or number word, or a bullet glued on."""
    first_line = block.lines[0]
    if not first_line.words:
        return ""
    first = first_line.words[0]
    text = first.text
    if len(first_line.words) < 2 and len(block.lines) < 2 and not (len(text) > 1 and text[0] in BULLETS):
        return ""   # a marker needs an item after it
    if text in BULLETS or NUMBERED.match(text):
        return text
    if len(text) == 1 and SYMBOL_FONT.search(first.font):
        return text
    if len(text) > 1 and text[0] in BULLETS and text[0] not in "-–—*" and text[1].isalnum():
        return text[0]   # "•Item": the bullet set flush against its text
    return ""


def _with_marker_from_text(block: Block) -> Block:
    """A tagged list item without a label: its text's own bullet or number is the marker (taken
    off the text); else a bullet (drawn as a picture, as browsers do)."""
    marker = _marker(block)
    if not marker:
        return replace(block, marker=DRAWN_BULLET)
    return replace(block, marker=marker, lines=[replace(block.lines[0], words=_without_marker(block.lines[0].words, marker))]
                   + list(block.lines[1:]))


def _symbol_bullet(block: Block) -> bool:
    first = block.lines[0].words[0]
    return len(first.text) == 1 and bool(SYMBOL_FONT.search(first.font))


def _without_marker(words: list[Word], marker: str) -> list[Word]:
    """A first line's words with the item's (or footnote's) marker taken off its first word."""
    if not words:
        return words
    if words[0].text == marker:
        return words[1:]
    return [words[0]._replace(text=words[0].text[len(marker):])] + words[1:]


def _nest_lists(blocks: list[Block], marks: list[_Marks]) -> None:
    """Depth of each list item: its marker's indent among the distinct indents of its run of items."""
    run: list[int] = []
    for i in range(len(blocks) + 1):
        if i < len(blocks) and marks[i].kind == "list_item" and not marks[i].from_tags:
            run.append(i)
            continue
        if run:
            _nest_run([blocks[j] for j in run], [marks[j] for j in run])
            run = []


def _nest_run(run: list[Block], marks: list[_Marks]) -> None:
    # markers within ALIGN_EM of the previous one share an indent (right-aligned "(i)", "(ii)", "(iii)" step left)
    indents: list[float] = []
    previous = None
    for block in sorted(run, key=_marker_x):
        x = _marker_x(block)
        if previous is None or x - previous > ALIGN_EM * _em(block):
            indents.append(x)
        previous = x
    for block, mark in zip(run, marks):
        x = _marker_x(block)
        mark.level = max(i for i, indent in enumerate(indents) if x >= indent)


def _marker_x(block: Block) -> float:
    """Where the item's marker stands: its first line's start (the line box keeps the marker's place)."""
    return block.lines[0].x0


def _em(block: Block) -> float:
    words: list[Word] = [w for line in block.lines for w in line.words]
    return words[0].size if words and words[0].size > 0 else 1.0
