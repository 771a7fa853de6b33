"""Blocks and reading order: column bands found from whitespace that lines up, row by row.

Reading order across columns. The segments (lines.py) of one writing direction are grouped
into rows (shared baseline), top to bottom, in that direction's own frame (u along the lines,
v across them). Each row leaves free strips between and beside its segments. A run of
consecutive rows whose free strips intersect in a strip at least MIN_GUTTER_EM wide, with
text on both sides, is a band with a gutter (justified word gaps do not line up row after
row; column gutters do; a title or footnote that crosses the gutter ends the band). A band
is read column by column when its parts are prose or do not sit in aligned rows; otherwise
it is a table and reads row by row. Columns are analysed again (a table or sub-columns
inside a column). Rows outside bands form one flow, in which segments sharing a baseline
are one line (a justified line split at a wide gap, the cells of one row).
Pure geometry: content-stream order never decides anything, and every step sorts and sweeps.
"""
from __future__ import annotations

import bisect
from dataclasses import dataclass, field

from ..glyph import Glyph
from .lines import LINE_TOLERANCE, Segment
from .model import Word
from .words import build_words, leading_mark

# A free strip at least this wide (in font sizes) shared by consecutive rows is a gutter.
# Column gutters are about 1 em or more (LaTeX \\columnsep is 10 pt, next to 10–12 pt text);
# justified word gaps that wide rarely line up row after row.
MIN_GUTTER_EM = 0.75

# A band needs this many rows, so two lines whose wide gaps happen to line up (two justified
# lines, a running header over a heading) are neither a table nor columns.
MIN_BAND_ROWS = 3

# A band ends at a vertical gap between rows wider than this many font sizes (the space
# between a running header and the text, or above a full-width section).
BAND_MAX_GAP_EM = 2.0

# Parts of a band are prose columns when their lines carry at least this many glyphs on
# average (table cells and form labels are short).
MIN_PROSE_GLYPHS = 12

# Parts are table rows when at least this share of the segments in one part has a baseline
# partner in the next part, in the same text size (a grid), unless both parts are prose.
ROW_ALIGNED_SHARE = 0.6

# A column narrower than this share of the band's widest column is a sidebar or margin note:
# it is read after the page's main text (the reader cannot place it inside the flow).
SIDEBAR_MAX_SHARE = 0.5
# ... or narrower than this share and set in another text size (a boxed float beside prose);
# real columns of one layout share their width and size.
SIDEBAR_STYLED_SHARE = 0.8
SIDEBAR_SIZE_RATIO = 0.1

# Recursion bound (each level strictly shrinks the region; this only guards hostile pages).
MAX_CUT_DEPTH = 64

_INF = float("inf")


@dataclass(slots=True)
class TextLine:
    """One line of one flow: segments sharing a baseline, joined in order along the line."""

    glyphs: list[Glyph]
    starts: list[float]
    ends: list[float]
    u0: float
    u1: float
    v: float
    top: float
    bottom: float
    size: float
    fonts: frozenset
    order: int
    words: list[Word] = field(default_factory=list)
    footnote_start: bool = False   # opens with a raised footnote number

    @property
    def text(self) -> str:
        return " ".join(w.text for w in self.words)


@dataclass(slots=True)
class Flow:
    """Lines read one after the other: a column (or part of one), a table row, a sidebar."""

    lines: list[TextLine]
    role: str = "body"     # body | sidebar


def reading_order(segments: list[Segment]) -> list[Flow]:
    """Cut a page's segments (one writing direction) into flows of lines, in reading order."""
    leaves: list[tuple[list[Segment], str]] = []
    _cut(segments, 0, leaves, "body")
    return [Flow(_leaf_lines(segs), role) for segs, role in leaves if segs]


def _rows(segs: list[Segment]) -> list[list[Segment]]:
    """Segments grouped by shared baseline, top to bottom (the first segment is the reference)."""
    rows: list[list[Segment]] = []
    ref = None
    for s in sorted(segs, key=lambda s: s.v):
        if ref is not None and abs(s.v - ref.v) <= LINE_TOLERANCE * max(s.height, ref.height):
            rows[-1].append(s)
        else:
            rows.append([s])
            ref = s
    return rows


def _free(row: list[Segment]) -> list[tuple[float, float]]:
    """The strips along the line that no segment of the row covers (open at both ends)."""
    spans = sorted((s.u0, s.u1) for s in row)
    free = []
    reach = -_INF
    for a, b in spans:
        if a > reach:
            free.append((reach, a))
        if b > reach:
            reach = b
    free.append((reach, _INF))
    return free


def _intersect(a: list[tuple[float, float]], b: list[tuple[float, float]], min_width: float):
    out = []
    i = j = 0
    while i < len(a) and j < len(b):
        lo = max(a[i][0], b[j][0])
        hi = min(a[i][1], b[j][1])
        if hi - lo >= min_width:
            out.append((lo, hi))
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return out


def _interior(free, lo: float, hi: float) -> list[tuple[float, float]]:
    return [(a, b) for a, b in free if a > lo and b < hi]


def _cut(segs: list[Segment], depth: int, out: list, role: str) -> None:
    rows = _rows(segs)
    if depth > MAX_CUT_DEPTH or len(rows) < 2:
        out.append((segs, role))
        return
    size = _median_size(segs)
    min_gutter = MIN_GUTTER_EM * size
    max_gap = BAND_MAX_GAP_EM * size
    pending: list[Segment] = []
    i = 0
    n = len(rows)
    while i < n:
        free = [f for f in _free(rows[i]) if f[1] - f[0] >= min_gutter]
        lo = min(s.u0 for s in rows[i])
        hi = max(s.u1 for s in rows[i])
        gutters: list[tuple[float, float]] = []
        j = i + 1
        while j < n and free:
            row = rows[j]
            if min(s.top for s in row) - max(s.bottom for s in rows[j - 1]) > max_gap:
                break
            nfree = _intersect(free, _free(row), min_gutter)
            nlo = min(lo, min(s.u0 for s in row))
            nhi = max(hi, max(s.u1 for s in row))
            inner = _interior(nfree, nlo, nhi)
            if not inner:
                break
            free, lo, hi, gutters = nfree, nlo, nhi, inner
            j += 1
        if gutters and _take_band(rows[i:j], gutters, depth, out, pending, role):
            pending = []
            i = j
        else:
            pending.extend(rows[i])
            i += 1
    if pending:
        out.append((pending, role))


def _take_band(rows: list[list[Segment]], gutters, depth: int, out, pending, role) -> bool:
    """Emit a band as columns or as table rows; False when it is neither (chance alignment)."""
    parts: list[list[Segment]] = [[] for _ in range(len(gutters) + 1)]
    edges = [g[0] for g in gutters]
    for row in rows:
        for s in row:
            parts[bisect.bisect_right(edges, (s.u0 + s.u1) / 2)].append(s)
    parts = [p for p in parts if p]
    if len(parts) < 2:
        return False
    if len(rows) < MIN_BAND_ROWS:
        return False
    prose = [_is_prose(p) for p in parts]
    table = any(not (pl and pr) and _rows_aligned(left, right)
                for left, right, pl, pr in zip(parts, parts[1:], prose, prose[1:]))
    if pending:
        out.append((pending, role))
    if table:
        for row in rows:
            out.append((list(row), role))
        return True
    widths = [max(s.u1 for s in p) - min(s.u0 for s in p) for p in parts]
    widest = max(widths)
    main_size = _median_size(parts[widths.index(widest)])
    for part, width in zip(parts, widths):
        size = _median_size(part)
        narrow = width < SIDEBAR_MAX_SHARE * widest or (
            width < SIDEBAR_STYLED_SHARE * widest
            and abs(size - main_size) > SIDEBAR_SIZE_RATIO * main_size)
        _cut(part, depth + 1, out, "sidebar" if narrow else role)
    return True


def _median_size(segs: list[Segment]) -> float:
    sizes = sorted(s.size for s in segs)
    return sizes[len(sizes) // 2]


def _is_prose(part: list[Segment]) -> bool:
    """Long lines on average (a justified line split at wide gaps still counts as one)."""
    return sum(len(s.glyphs) for s in part) >= MIN_PROSE_GLYPHS * len(_rows(part))


def _rows_aligned(a: list[Segment], b: list[Segment]) -> bool:
    """Do the parts share baselines in the same text size (a grid)?

    A sidebar beside prose may share baselines too, but it is set in another size.
    """
    small, big = (a, b) if len(a) <= len(b) else (b, a)
    if abs(_median_size(a) - _median_size(b)) > SIDEBAR_SIZE_RATIO * _median_size(big):
        return False
    baselines = sorted(s.v for s in big)
    hits = 0
    for s in small:
        tol = LINE_TOLERANCE * s.height
        i = bisect.bisect_left(baselines, s.v - tol)
        if i < len(baselines) and baselines[i] <= s.v + tol:
            hits += 1
    return hits >= ROW_ALIGNED_SHARE * len(small)


def _leaf_lines(segs: list[Segment]) -> list[TextLine]:
    """Join a flow's segments that share a baseline into lines, top to bottom."""
    by_v = sorted(segs, key=lambda s: s.v)
    groups: list[list[Segment]] = []
    for s in by_v:
        if groups:
            last = groups[-1]
            ref = last[0]
            if abs(s.v - ref.v) <= LINE_TOLERANCE * max(s.height, ref.height):
                last.append(s)
                continue
        groups.append([s])
    return [_make_line(g) for g in groups]


def _make_line(group: list[Segment]) -> TextLine:
    if len(group) > 1:
        group.sort(key=lambda s: s.u0)
    glyphs: list[Glyph] = []
    starts: list[float] = []
    ends: list[float] = []
    for s in group:
        glyphs.extend(s.glyphs)
        starts.extend(s.starts)
        ends.extend(s.ends)
    main = max(group, key=lambda s: s.height)
    line = TextLine(
        glyphs=glyphs, starts=starts, ends=ends,
        u0=group[0].u0, u1=max(s.u1 for s in group), v=main.v,
        top=min(s.top for s in group), bottom=max(s.bottom for s in group),
        size=main.size, fonts=frozenset(g.font for g in glyphs),
        order=min(s.order for s in group),
    )
    line.words = build_words(glyphs, starts, ends)
    line.footnote_start = leading_mark(glyphs) > 0
    return line
