"""Paragraphs: where a flow of lines (top to bottom) is cut into blocks.

A new block starts at a line when
- the baseline step from the previous line exceeds PARAGRAPH_GAP_RATIO × the median line
  pitch for that text size (page statistics, or the document's on pages with few lines),
  or that pitch plus PARAGRAPH_GAP_EXTRA_EM;
- the font size changes, or the two lines share no font (a bold heading over body text);
- the line is indented against the flow's left edge while the previous line is not, or the
  previous line was a paragraph's continuation and this one is outdented;
- the line starts a list item (a number, letter or roman numeral with '.' or ')', or a bullet)
  or a footnote (a raised number).
"""
from __future__ import annotations

import re

from .blocks import TextLine

# Baseline step above this multiple of the median pitch opens a paragraph (seed article 004).
PARAGRAPH_GAP_RATIO = 1.45

# ... or exceeds the pitch by this many font sizes: producers that add only a little space
# between paragraphs (CSS margins of 0.3–0.5 em) stay below 1.45 × pitch but above this.
PARAGRAPH_GAP_EXTRA_EM = 0.25

# Sizes differing by more than this share are different text styles (headings vs body).
SIZE_CHANGE_RATIO = 0.1

# Lines with more fonts than this (Type 3 producers that make one font per glyph) say
# nothing about a change of style by their font names.
MAX_STYLE_FONTS = 3

# A first-line indent is at least this many font sizes (LaTeX \parindent ≈ 1.5 em, Word 1.25 cm).
INDENT_EM = 0.8

# A start within this many font sizes of a reference position counts as aligned with it.
ALIGN_EM = 0.5

# Pitch statistics ignore steps larger than this many font sizes (paragraph and section gaps).
MAX_PITCH_EM = 2.5

# Fewer line pitches than this on a page: trust the document's statistics instead.
MIN_PAGE_PITCHES = 4

# Share of baseline steps below the typical line pitch (see line_pitch).
PITCH_QUANTILE = 0.3

# Default pitch when nothing is known: typical leading is 1.15–1.25 × the font size.
DEFAULT_PITCH_EM = 1.2

LIST_MARKER = re.compile(
    r"^(?:\(?(?:\d{1,3}|[a-zA-Z]|[ivxlcdm]{1,6}|[IVXLCDM]{1,6})[.)]|[•◦▪▫‣⁃∙·*–—-])$"
)


def size_key(size: float) -> int:
    """Bucket of similar sizes (2 % steps) for per-size pitch statistics."""
    return int(round(size * 50)) if size > 0 else 0


def line_pitches(flows: list[list[TextLine]]) -> dict[int, list[float]]:
    """Baseline steps between consecutive same-size lines of each flow, by size bucket."""
    steps: dict[int, list[float]] = {}
    for lines in flows:
        for a, b in zip(lines, lines[1:]):
            if abs(a.size - b.size) > SIZE_CHANGE_RATIO * max(a.size, b.size):
                continue
            step = b.v - a.v
            if 0 < step <= MAX_PITCH_EM * a.size:
                steps.setdefault(size_key(a.size), []).append(step)
    return steps


def median(values: list[float]) -> float:
    ordered = sorted(values)
    n = len(ordered)
    mid = n // 2
    return ordered[mid] if n % 2 else (ordered[mid - 1] + ordered[mid]) / 2


def line_pitch(steps: list[float]) -> float:
    """The typical line pitch among baseline steps: a low quantile, not the median, because
    on pages of short paragraphs nearly half the steps are paragraph gaps."""
    ordered = sorted(steps)
    return ordered[int(PITCH_QUANTILE * (len(ordered) - 1))]


class PitchTable:
    """The line pitch per text size: the page's own, else the document's, else a default."""

    def __init__(self, page: dict[int, list[float]], document: dict[int, float] | None = None):
        self.page = {k: line_pitch(v) for k, v in page.items() if len(v) >= MIN_PAGE_PITCHES}
        all_steps = [s for v in page.values() for s in v]
        self.page_any = line_pitch(all_steps) if len(all_steps) >= MIN_PAGE_PITCHES else None
        self.document = document or {}

    def pitch(self, size: float) -> float:
        key = size_key(size)
        if key in self.page:
            return self.page[key]
        if key in self.document:
            return self.document[key]
        for near in (key - 1, key + 1):
            if near in self.page:
                return self.page[near]
            if near in self.document:
                return self.document[near]
        if self.page_any is not None and self.page:
            # scale the page's pitch by the size ratio of its most common size
            ref_key = max(self.page, key=lambda k: k)
            return self.page[ref_key] * key / ref_key if ref_key else DEFAULT_PITCH_EM * size
        return DEFAULT_PITCH_EM * size


def split_paragraphs(lines: list[TextLine], pitches: PitchTable) -> list[list[TextLine]]:
    """Cut one flow into paragraphs (blocks)."""
    if not lines:
        return []
    left = min(line.u0 for line in lines)
    blocks: list[list[TextLine]] = [[lines[0]]]
    list_text_start: float | None = _list_text_start(lines[0])
    for prev, line in zip(lines, lines[1:]):
        current = blocks[-1]
        if _starts_paragraph(prev, line, current, left, pitches, list_text_start):
            blocks.append([line])
            list_text_start = _list_text_start(line)
        else:
            current.append(line)
    return blocks


def _starts_paragraph(prev: TextLine, line: TextLine, current: list[TextLine], left: float,
                      pitches: PitchTable, list_text_start: float | None) -> bool:
    size = max(prev.size, line.size)
    if abs(prev.size - line.size) > SIZE_CHANGE_RATIO * size:
        return True
    pitch = pitches.pitch(line.size)
    step = line.v - prev.v
    if step > PARAGRAPH_GAP_RATIO * pitch or step > pitch + PARAGRAPH_GAP_EXTRA_EM * line.size:
        return True
    if (not (prev.fonts & line.fonts) and len(prev.fonts) <= MAX_STYLE_FONTS
            and len(line.fonts) <= MAX_STYLE_FONTS):
        return True
    if _is_list_item(line) or line.footnote_start:
        return True
    em = line.size
    if list_text_start is not None and abs(line.u0 - list_text_start) <= ALIGN_EM * em:
        return False  # continuation of a hanging list item
    indented = line.u0 - left > INDENT_EM * em
    prev_indented = prev.u0 - left > INDENT_EM * em
    if indented and not prev_indented and line.u0 - prev.u0 > INDENT_EM * em:
        return True
    if len(current) > 1 and prev.u0 - line.u0 > INDENT_EM * em:
        return True  # outdent after continuation lines (hanging paragraphs)
    return False


def _is_list_item(line: TextLine) -> bool:
    return bool(line.words) and LIST_MARKER.match(line.words[0].text) is not None \
        and len(line.words) > 1


def _list_text_start(line: TextLine) -> float | None:
    """Where the text after a list marker starts (continuation lines align there)."""
    if not _is_list_item(line):
        return None
    marker = line.words[0]
    # the second word's start along the line: find the first glyph after the marker
    count = len(marker.text)
    if count < len(line.starts):
        return line.starts[count]
    return None
