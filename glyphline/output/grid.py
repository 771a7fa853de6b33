"""Layout output: the page drawn on a character grid, like `pdftotext -layout`.

Horizontal lines are placed on rows by their vertical position and their words on columns by
x / (the page's median character width), so table columns and indents stay aligned in a
monospaced view. A word never overlaps the previous one on its row: when its column is
already taken it moves right, keeping one space. Lines that do not run left to right
(vertical CJK, rotated labels, watermarks) cannot sit on the grid; they follow it as plain
lines in reading order.
"""
from __future__ import annotations

from statistics import median

from ..layout.model import Line, PageLayout, Word

HORIZONTAL_MIN_DX = 0.99      # cos 8°: a line tilted more than this is not drawn on the grid
ROW_JOIN_HEIGHTS = 0.5        # two lines share a row when their centres are closer than half a line height
BLANK_ROW_HEIGHTS = 1.0       # each full line height of empty space between rows is one blank line (leading is less)
MAX_BLANK_ROWS = 2            # taller gaps (figures, page bottom) still show as at most two blank lines
WORD_GAP_EM = 1.5             # in one line, a gap under 1.5 em is a word space (justified: up to ~1 em), wider a column
MAX_COLUMNS = 2000            # a hostile page with an absurd coordinate cannot allocate a giant row
MIN_CHAR_WIDTH = 0.5          # points: a degenerate word box cannot make the grid explode


def grid_page(layout: PageLayout, context: object = None) -> str:
    """The layout mode's page renderer (the grid needs nothing but the layout)."""
    return render_grid(layout)


def render_grid(layout: PageLayout) -> str:
    """The page as monospaced text rows; '' for a page without words."""
    flat, other = _split_lines(layout)
    if not flat:
        return "\n".join(line.text for line in other)
    char_width = _median_char_width(flat)
    left = min(line.x0 for line in flat)
    rows = _rows(flat)
    out: list[str] = []
    line_height = median(line.y1 - line.y0 for line in flat)
    previous_bottom = None
    for row in rows:
        top = min(line.y0 for line in row)
        if previous_bottom is not None and line_height > 0:
            gap = top - previous_bottom
            blank = min(MAX_BLANK_ROWS, int(gap / (line_height * BLANK_ROW_HEIGHTS)))
            out.extend([""] * max(0, blank))
        out.append(_draw_row(row, left, char_width))
        previous_bottom = max(line.y1 for line in row)
    out.extend(line.text for line in other)
    return "\n".join(out)


def _split_lines(layout: PageLayout) -> tuple[list[Line], list[Line]]:
    flat: list[Line] = []
    other: list[Line] = []
    for block in layout.blocks:
        for line in block.lines:
            if not line.words:
                continue
            (flat if line.dx >= HORIZONTAL_MIN_DX else other).append(line)
    return flat, other


def _median_char_width(lines: list[Line]) -> float:
    widths = [(w.x1 - w.x0) / len(w.text) for line in lines for w in line.words if w.text and w.x1 > w.x0]
    return max(MIN_CHAR_WIDTH, median(widths)) if widths else MIN_CHAR_WIDTH * 10


def _rows(lines: list[Line]) -> list[list[Line]]:
    """Lines grouped into rows top to bottom; a row's lines share (roughly) one centre line."""
    ordered = sorted(lines, key=lambda line: ((line.y0 + line.y1) / 2, line.x0))
    rows: list[list[Line]] = []
    row_centre = 0.0
    row_height = 0.0
    for line in ordered:
        centre = (line.y0 + line.y1) / 2
        height = line.y1 - line.y0
        if rows and abs(centre - row_centre) <= ROW_JOIN_HEIGHTS * max(height, row_height):
            rows[-1].append(line)
            continue
        rows.append([line])
        row_centre, row_height = centre, height
    for row in rows:
        row.sort(key=lambda line: line.x0)
    return rows


def _draw_row(row: list[Line], left: float, char_width: float) -> str:
    placed: list[tuple[Word, int]] = sorted(((w, i) for i, line in enumerate(row) for w in line.words),
                                            key=lambda item: item[0].x0)
    text = ""
    previous: tuple[Word, int] | None = None
    for word, line_index in placed:
        column = min(MAX_COLUMNS, max(0, round((word.x0 - left) / char_width)))
        if previous is not None:
            before, before_line = previous
            if before_line == line_index and word.x0 - before.x1 < WORD_GAP_EM * before.size:
                column = len(text) + 1  # an ordinary (or justified) word space: one space, not a stretch
            column = max(column, len(text) + 1)  # one space at least between two words
        text += " " * (column - len(text)) + word.text
        previous = (word, line_index)
    return text.rstrip()
