"""Page rows: a page's left-to-right lines grouped into rows across the whole page, the way a
character grid draws them (output.grid, the layout mode), with the word spaces inside a line
told apart from the wider gaps between columns.

Lines that do not run left to right (vertical CJK, rotated labels, watermarks) cannot share a
row; they stand apart, in reading order.
"""
from __future__ import annotations

from dataclasses import dataclass

from .model import Line, PageLayout, Word

HORIZONTAL_MIN_DX = 0.99      # cos 8°: a line tilted more than this is not drawn in rows
ROW_JOIN_HEIGHTS = 0.5        # two lines share a row when their centres are closer than half a line height
WORD_SPACE_MAX_EM = 1.5       # in one line, a gap under 1.5 em is a word space (justified: up to ~1 em), wider a column


@dataclass(frozen=True, slots=True)
class RowWord:
    word: Word
    spaced: bool              # an ordinary word space after the row's previous word (same line, gap < WORD_SPACE_MAX_EM)


@dataclass(frozen=True, slots=True)
class Row:
    words: list[RowWord]      # left to right
    top: float                # the highest line top and the lowest line bottom of the row
    bottom: float


@dataclass(frozen=True, slots=True)
class PageRows:
    lines: list[Line]         # the lines in rows (left to right, with words)
    rows: list[Row]           # top to bottom
    apart: list[Line]         # the lines that run otherwise, in reading order


def page_rows(layout: PageLayout) -> PageRows:
    flat, apart = _split_lines(layout)
    return PageRows(flat, [_row(lines) for lines in _group_rows(flat)], apart)


def _split_lines(layout: PageLayout) -> tuple[list[Line], list[Line]]:
    flat: list[Line] = []
    apart: list[Line] = []
    for block in layout.blocks:
        for line in block.lines:
            if not line.words:
                continue
            (flat if line.dx >= HORIZONTAL_MIN_DX else apart).append(line)
    return flat, apart


def _group_rows(lines: list[Line]) -> list[list[Line]]:
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


def _row(lines: list[Line]) -> Row:
    placed = sorted(((w, i) for i, line in enumerate(lines) for w in line.words), key=lambda item: item[0].x0)
    words: list[RowWord] = []
    previous: tuple[Word, int] | None = None
    for word, line_index in placed:
        spaced = False
        if previous is not None:
            before, before_line = previous
            spaced = before_line == line_index and word.x0 - before.x1 < WORD_SPACE_MAX_EM * before.size
        words.append(RowWord(word, spaced))
        previous = (word, line_index)
    return Row(words, min(line.y0 for line in lines), max(line.y1 for line in lines))
