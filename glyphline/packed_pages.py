"""Analysed pages packed into bytes, to go from the process or browser worker that analysed them
to the one that runs the document-wide passes (extract.finish_document).

A page is sent as columns, not as records: every word's text in one list, every x0 in another,
and so on, the same for lines and blocks, with counts saying which words belong to which line.
marshal writes such plain lists in C, and the words are made again in C (tuple.__new__ over
zip of the columns), so a page costs a few Python calls instead of two per word as pickle's
record-by-record path does. A warning that is more than a plain string (one carrying its code)
and a column of block or page fields that marshal cannot write (a tagged PDF's structure
elements, an OCR report) travel pickled inside the columns; a page holding such things anywhere
else is pickled whole. Every field of the records is carried, in field order, so a field added
later is never lost.
"""
from __future__ import annotations

import marshal
import pickle
from dataclasses import fields
from functools import partial
from typing import Iterator

from .layout.model import Block, Line, PageLayout, Word

Analysed = tuple[PageLayout, list[str], int]   # a page's layout, its warnings, its /Rotate

_COLUMNS = "c"   # a page packed as columns (marshal)
_PICKLED = "p"   # a page marshal cannot hold, pickled whole
_LINE_FIELDS = tuple(f.name for f in fields(Line) if f.name != "words")
_BLOCK_FIELDS = tuple(f.name for f in fields(Block) if f.name not in ("lines", "cells"))
_LAYOUT_FIELDS = tuple(f.name for f in fields(PageLayout) if f.name != "blocks")
_new_word = partial(tuple.__new__, Word)


def pack_pages(analysed: list[Analysed]) -> bytes:
    """The pages as one bytes object (unpack_pages gives back equal records, in order)."""
    return marshal.dumps([_pack_page(page) for page in analysed])


def unpack_pages(packed: bytes) -> list[Analysed]:
    return list(iter_unpacked(packed))


def iter_unpacked(packed: bytes) -> Iterator[Analysed]:
    """The pages one at a time, in order: each whole layout made only when asked for."""
    for kind, body in marshal.loads(packed):
        yield _unpack_columns(body) if kind == _COLUMNS else pickle.loads(body)


def _pack_page(page: Analysed) -> tuple[str, object]:
    layout, warnings, rotation = page
    words: list[Word] = []
    line_words: list[int] = []      # words per line, lines in block order
    block_lines: list[int] = []     # lines per block
    block_cells: list[list[int]] = []   # words per table cell of each block (their words follow its lines' words)
    lines: list[Line] = []
    for block in layout.blocks:
        block_lines.append(len(block.lines))
        for line in block.lines:
            line_words.append(len(line.words))
            words += line.words
            lines.append(line)
        block_cells.append([len(cell) for cell in block.cells])
        for cell in block.cells:
            words += cell
    columns = (
        _marshallable([_texts(value) if name == "warnings" else value
                       for name, value in ((name, getattr(layout, name)) for name in _LAYOUT_FIELDS)]),
        _texts(warnings), rotation,
        [_marshallable([getattr(block, name) for block in layout.blocks]) for name in _BLOCK_FIELDS],
        block_lines, block_cells,
        [[getattr(line, name) for line in lines] for name in _LINE_FIELDS], line_words,
        list(zip(*words)), len(words),
    )
    try:
        return _COLUMNS, marshal.dumps(columns)
    except ValueError:   # an object marshal does not know (a structure Tag, an OCR report)
        return _PICKLED, pickle.dumps(page, protocol=pickle.HIGHEST_PROTOCOL)


def _unpack_columns(body: bytes) -> Analysed:
    (layout_values, warnings, rotation, block_columns, block_lines, block_cells,
     line_columns, line_words, word_columns, word_count) = marshal.loads(body)
    warnings = _from_texts(warnings)
    layout_values = _unmarshallable(layout_values)
    block_columns = [_unmarshallable(column) for column in block_columns]
    words = list(map(_new_word, zip(*word_columns))) if word_count else []
    line_values = list(zip(*line_columns)) if line_columns else [()] * len(line_words)
    block_values = list(zip(*block_columns)) if block_columns else [()] * len(block_lines)
    blocks = []
    next_word = next_line = 0
    for b, line_count in enumerate(block_lines):
        block_lines_made = []
        for values in line_values[next_line:next_line + line_count]:
            count = line_words[next_line]
            block_lines_made.append(Line(words[next_word:next_word + count], **dict(zip(_LINE_FIELDS, values))))
            next_word += count
            next_line += 1
        cells = []
        for count in block_cells[b]:
            cells.append(words[next_word:next_word + count])
            next_word += count
        blocks.append(Block(block_lines_made, cells=cells, **dict(zip(_BLOCK_FIELDS, block_values[b]))))
    layout = PageLayout(blocks=blocks, **dict(zip(_LAYOUT_FIELDS, layout_values)))
    layout.warnings = _from_texts(layout.warnings)
    return layout, warnings, rotation


def _texts(warnings: list[str]) -> list[str | bytes]:
    """Warnings for marshal: a plain string as it is, a richer one (a str subclass) pickled."""
    return [w if type(w) is str else pickle.dumps(w, protocol=pickle.HIGHEST_PROTOCOL) for w in warnings]


def _from_texts(packed: list[str | bytes]) -> list[str]:
    return [pickle.loads(w) if isinstance(w, bytes) else w for w in packed]


def _marshallable(values: list) -> list | bytes:
    """A column as it is when marshal can write it, else pickled (structure tags, an OCR report):
    a column is a list, so bytes in its place say which it is."""
    try:
        marshal.dumps(values)
        return values
    except ValueError:
        return pickle.dumps(values, protocol=pickle.HIGHEST_PROTOCOL)


def _unmarshallable(column: list | bytes) -> list:
    return pickle.loads(column) if isinstance(column, bytes) else column
