"""Layout output: the page drawn on a character grid, like `pdftotext -layout`.

Layout's page rows (layout.rows) are drawn top to bottom and their words on columns by
x / (the page's median character width), so table columns and indents stay aligned in a
monospaced view. A word never overlaps the previous one on its row: when its column is
already taken it moves right, keeping one space; a word space inside a line is one space.
The lines that stand apart from the rows (vertical CJK, rotated labels, watermarks) follow
as plain lines in reading order.
"""
from __future__ import annotations

from statistics import median

from ..layout.model import Line, PageLayout
from ..layout.rows import Row, page_rows

BLANK_ROW_HEIGHTS = 1.0       # each full line height of empty space between rows is one blank line (leading is less)
MAX_BLANK_ROWS = 2            # taller gaps (figures, page bottom) still show as at most two blank lines
MAX_COLUMNS = 2000            # a hostile page with an absurd coordinate cannot allocate a giant row
MIN_CHAR_WIDTH = 0.5          # points: a degenerate word box cannot make the grid explode


def grid_page(layout: PageLayout, context: object = None) -> str:
    """The layout mode's page renderer (the grid needs nothing but the layout)."""
    return render_grid(layout)


def render_grid(layout: PageLayout) -> str:
    """The page as monospaced text rows; '' for a page without words."""
    page = page_rows(layout)
    if not page.lines:
        return "\n".join(line.text for line in page.apart)
    char_width = _median_char_width(page.lines)
    left = min(line.x0 for line in page.lines)
    out: list[str] = []
    line_height = median(line.y1 - line.y0 for line in page.lines)
    previous_bottom = None
    for row in page.rows:
        if previous_bottom is not None and line_height > 0:
            gap = row.top - previous_bottom
            # clamped before int(): a subnormal line height makes the ratio infinite
            blank = int(max(0.0, min(MAX_BLANK_ROWS, gap / (line_height * BLANK_ROW_HEIGHTS))))
            out.extend([""] * blank)
        out.append(_draw_row(row, left, char_width))
        previous_bottom = row.bottom
    out.extend(line.text for line in page.apart)
    return "\n".join(out)


def _median_char_width(lines: list[Line]) -> float:
    widths = [(w.x1 - w.x0) / len(w.text) for line in lines for w in line.words if w.text and w.x1 > w.x0]
    return max(MIN_CHAR_WIDTH, median(widths)) if widths else MIN_CHAR_WIDTH * 10


def _draw_row(row: Row, left: float, char_width: float) -> str:
    text = ""
    for i, placed in enumerate(row.words):
        word = placed.word
        column = min(MAX_COLUMNS, max(0, round((word.x0 - left) / char_width)))
        if i:
            if placed.spaced:
                column = len(text) + 1  # an ordinary (or justified) word space: one space, not a stretch
            column = max(column, len(text) + 1)  # one space at least between two words
        text += " " * (column - len(text)) + word.text
    return text.rstrip()
