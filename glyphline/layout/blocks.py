"""Blocks and reading order: column bands found from whitespace that lines up, row by row.

Reading order across columns. The segments (lines.py) of one writing direction are grouped
into rows (shared baseline; baselines a fraction of a line apart, as in a displayed equation,
make one row), top to bottom, in that direction's own frame (u along the lines, v across
them). Each row leaves free strips between and beside its segments. A run of consecutive rows
whose free strips intersect in a strip at least MIN_GUTTER_EM wide, with text on both sides,
is a band with a gutter (a title or footnote that crosses the gutter ends the band). A band
stands only when each part spans several rows, its first part is not a column of list
bullets, and its gutters are not just the even word gaps of justified lines. It is read
column by column when its parts are prose or do not sit in aligned rows; otherwise it is a
table and reads row by row (a margin note of words beside a column is no table's column; a
gutter far wider than the table's others parts two regions side by side, each read alone). A
table's header row centred over wide cells leaves its words in
the gutters of the rows below: the band then takes the gutters of the rows below the first,
when each of those rows fills every column and the first row holds one piece over each. Columns are analysed again (a table or sub-columns inside a
column). Rows outside bands form one flow, in which segments sharing a baseline are one line
(a justified line split at a wide gap, the cells of one row).

Geometry decides, with two exceptions where geometry has no answer and the producer's drawing
order is the only evidence: rows a fraction of a line apart (an equation with its matrix rows
and limits, a raised footnote number) form one line read in drawing order, and a run of
short label lines (a figure's scattered labels) keeps its drawing order; a short list item
whose bullet is set apart from its text is no label.
"""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

from ..glyph import Glyph
from .lines import HORIZONTAL, LINE_TOLERANCE_HEIGHTS, Segment, group_by_baseline, interleaved, on_one_baseline
from .model import Word
from .scripts import FIRST_RTL, is_rtl
from .words import WORD_GAP_HEIGHTS, build_words, leading_mark

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

# Every part of a band (a column, a table column) spans at least this many rows: one line
# beside the others (a running title across from the page number) is not a column.
MIN_PART_ROWS = 2

# Parts of a band are prose columns when the longest piece of their median row carries at
# least this many glyphs (table cells and form labels are short; a justified line split at
# wide gaps still keeps a long piece).
MIN_PROSE_GLYPHS = 12

# Justified lines stretch all their word gaps alike, and in loose text those gaps may line up
# row after row like a gutter. A row whose gap at a gutter is just one of at least
# JUSTIFIED_MIN_GAPS gaps all within JUSTIFIED_GAP_SPREAD of each other, none wider than
# JUSTIFIED_MAX_GAP_EM, is such a line (table cells and columns stand further apart than the
# words inside them). A band most of whose telling rows are such lines is no band.
JUSTIFIED_MIN_GAPS = 2
JUSTIFIED_GAP_SPREAD = 1.5
JUSTIFIED_MAX_GAP_EM = 4.0

# A list item's number or bullet, alone or as the first word of a line.
LIST_MARKER = re.compile(
    r"^(?:\(?(?:\d{1,3}|[a-zA-Z]|[ivxlcdm]{1,6}|[IVXLCDM]{1,6})[.)]|[•◦▪▫‣⁃∙·*–—-])$"
)

# Fonts whose glyphs are pictures (Symbol, Wingdings, Zapf Dingbats): one of their characters
# alone at the start of a line is a bullet, whatever Unicode it maps to.
SYMBOL_FONT = re.compile(r"symbol|dingbat|wingding|webding|marlett", re.IGNORECASE)

# Parts are table rows when at least this share of the segments in one part has a baseline
# partner in the next part, in the same text size (a grid), unless both parts are prose.
ROW_ALIGNED_SHARE = 0.6
# ... and a margin note is no table's column: a short part of words beside a prose part, on under
# MARGIN_NOTE_ROW_SHARE of its rows, each line beside one line of running text or beside white
# space (a table's cells of words stand beside most of its rows, or beside rows of cells).
MARGIN_NOTE_ROW_SHARE = 0.5
# ... and it is one note: its lines follow each other at most this many sizes apart (side headings
# down the margin, one beside each paragraph, stand further apart and keep their rows)
MARGIN_NOTE_STEP_EM = 1.6

# A column narrower than this share of the band's longest line is a sidebar or margin note:
# it is read after the page's main text (the reader cannot place it inside the flow).
SIDEBAR_MAX_SHARE = 0.5
# ... or narrower than this share and set in another text size (a boxed float beside prose);
# real columns of one layout share their width and size.
SIDEBAR_STYLED_SHARE = 0.8
SIDEBAR_SIZE_RATIO = 0.1

# Two regions side by side that each hold a table or columns (two pages of a spread, two tables
# printed next to each other) leave a gutter far wider than their own: at least
# APART_GUTTER_RATIO times every other gutter of the band and APART_MIN_GUTTER_EM font sizes
# (a page's two margins; cells stand a few ems apart at most), with gutters of the band on both
# sides of it, and text on both sides of it in under APART_MAX_ROW_SHARE of the band's rows
# (a table's label and its figures share a row; independent regions meet on a baseline by chance).
# Such a band is cut there first, and each side is analysed on its own.
APART_GUTTER_RATIO = 3.0
APART_MIN_GUTTER_EM = 3.0
APART_MAX_ROW_SHARE = 0.5

# Two baseline rows closer than this many font sizes (of the smaller text) are not two lines:
# line pitches are at least about 1 em, while an equation's matrix rows, fractions and limits,
# or a footnote number raised above its text, sit a fraction of an em off the main baseline.
SUB_LINE_STEP_EM = 0.7

# A run of at least LABEL_MIN_LINES lines of at most LABEL_MAX_GLYPHS glyphs each (axis ticks,
# node names, a plot's legend) is a figure's labels: prose lines are longer, and three short
# lines in a row hardly occur in running text.
LABEL_MAX_GLYPHS = 16
LABEL_MIN_LINES = 3

# Recursion bound (each level strictly shrinks the region; this only guards hostile pages).
MAX_CUT_DEPTH = 64

_INF = float("inf")
_SIZE, _FONT = Glyph._fields.index("size"), Glyph._fields.index("font")   # columns of a line


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
    segs: list = field(default_factory=list)       # the segments the line was made of
    footnote_start: bool = False   # opens with a raised footnote number

    @property
    def text(self) -> str:
        return " ".join([w.text for w in self.words])   # (a list joins faster than a generator)


@dataclass(slots=True)
class Flow:
    """Lines read one after the other: a column (or part of one), a table row, a sidebar."""

    lines: list[TextLine]
    role: str = "body"     # body | sidebar
    table_row: bool = False   # one row of a table: a block of its own, never run on
    table: int = -1           # the rows of one table share this number (unique on the page)
    columns: tuple = ()       # a table row's column boundaries along the line (middles of the gutters)


def reading_order(segments: list[Segment], page_text: str | None = None) -> list[Flow]:
    """Cut a page's segments (one writing direction) into flows of lines, in reading order.

    `page_text`, the page's glyph texts joined, spares the right-to-left census on pages
    without a single character of a right-to-left script."""
    leaves: list[tuple[list[Segment], str, tuple | None]] = []   # (segments, role, (table, columns) of a row)
    # (an ASCII text, a flag of the string, has no right-to-left letter: its characters are not read)
    rtl = (page_text is None or (not page_text.isascii() and max(page_text) >= FIRST_RTL)) and _right_to_left(segments)
    _cut(segments, 0, leaves, "body", rtl)
    return [Flow(_leaf_lines(segs, rtl), role, grid is not None, *(grid or ()))
            for segs, role, grid in leaves if segs]


def _right_to_left(segments: list[Segment]) -> bool:
    """Is most of the text's lettering right-to-left (Hebrew, Arabic)? Such a page reads its
    columns from the right and its mixed lines with a right-to-left base direction."""
    rtl = other = 0
    for seg in segments:
        for g in seg.glyphs:
            ch = g.text[0]
            if ch >= FIRST_RTL and is_rtl(ch):
                rtl += 1
            elif ch.isalpha():
                other += 1
    return rtl > other


def _rows(segs: list[Segment]) -> list[list[Segment]]:
    """Segments grouped by shared baseline, top to bottom (the first segment is the reference);
    baselines a fraction of a line apart (an equation's rows) make one row."""
    rows = group_by_baseline(list(segs))
    if len(rows) < 2:
        return rows
    merged = [rows[0]]
    last = rows[0]
    for row in rows[1:]:
        if _sub_line_step(last, row):
            merged[-1].extend(row)
        else:
            merged.append(row)
        last = row
    return merged


def _free(row: list[Segment]) -> list[tuple[float, float]]:
    """The strips along the line that no segment's ink covers (open at both ends)."""
    if len(row) == 1:   # the usual row: one segment, the loop below unrolled
        seg = row[0]
        a, b = seg.u0, _ink_end(seg)
        free = [(-_INF, a)] if a > -_INF else []
        free.append((b if b > -_INF else -_INF, _INF))
        return free
    spans = sorted((s.u0, _ink_end(s)) for s in row)
    free = []
    reach = -_INF
    for a, b in spans:
        if a > reach:
            free.append((reach, a))
        if b > reach:
            reach = b
    free.append((reach, _INF))
    return free


def _ink_end(seg: Segment) -> float:
    """Where the segment's last glyph with ink ends: a trailing space glyph (tagged LaTeX ends
    every line with one) reaches into the gutter but is no text."""
    glyphs = seg.glyphs
    k = len(glyphs) - 1
    if not glyphs[k].text.isspace():
        return seg.u1
    while k >= 0 and glyphs[k].text.isspace():
        k -= 1
    return max(seg.ends[:k + 1]) if k >= 0 else seg.u1


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


def _cut(segs: list[Segment], depth: int, out: list, role: str, rtl: bool = False) -> None:
    rows = _rows(segs)
    if depth > MAX_CUT_DEPTH or len(rows) < 2:
        out.append((segs, role, None))
        return
    size = _median_size(segs)
    min_gutter = MIN_GUTTER_EM * size
    max_gap = BAND_MAX_GAP_EM * size
    pending: list[Segment] = []
    i = 0
    n = len(rows)
    frees = [_free(row) for row in rows]
    # rows with no gutter-wide strip inside them (the switch: _upright.FAST_PATHS; see _plain_pair)
    plain = [f[0][0] == -_INF and (len(f) == 2 or _no_inner_gutter(f, min_gutter)) for f in frees] \
        if _upright.FAST_PATHS else None
    while i < n:
        if plain is not None and i + 1 < n and plain[i] and plain[i + 1] \
                and _plain_pair(frees[i], frees[i + 1], min_gutter):
            pending.extend(rows[i])   # what the band search below ends with: no gutter opens here
            i += 1
            continue
        free = [f for f in frees[i] if f[1] - f[0] >= min_gutter]
        lo = min(s.u0 for s in rows[i])
        hi = max(s.u1 for s in rows[i])
        gutters: list[tuple[float, float]] = []
        j = i + 1
        while j < n and free:
            row = rows[j]
            if min(s.top for s in row) - max(s.bottom for s in rows[j - 1]) > max_gap:
                break
            nfree = _intersect(free, frees[j], min_gutter)
            nlo = min(lo, min(s.u0 for s in row))
            nhi = max(hi, max(s.u1 for s in row))
            inner = _interior(nfree, nlo, nhi)
            if not inner:
                break
            free, lo, hi, gutters = nfree, nlo, nhi, inner
            j += 1
        if gutters and _take_band(rows[i:j], gutters, depth, out, pending, role, rtl, min_gutter):
            pending = []
            i = j
        else:
            pending.extend(rows[i])
            i += 1
    if pending:
        out.append((pending, role, None))


def _plain_pair(upper: list[tuple[float, float]], lower: list[tuple[float, float]], min_gutter: float) -> bool:
    """Can no gutter open between two rows with no gutter-wide strip inside them (_no_inner_gutter),
    told from their free strips (_free)? So when neither ends a gutter's width before the other
    starts: their strips then meet wide enough only before both rows (open to the left) or after
    both (open to the right), never inside the band, and _cut's band search would stop at once.
    Comparisons with NaN are false: such rows take the search."""
    return upper[0][1] - lower[-1][0] < min_gutter and lower[0][1] - upper[-1][0] < min_gutter


def _no_inner_gutter(free: list[tuple[float, float]], min_gutter: float) -> bool:
    """Does the row's first free strip open to the left, and is every strip between its
    segments narrower than a gutter (what it shares with another row is narrower still)?"""
    if free[0][0] != -_INF:
        return False   # no strip open to the left (u0 = -inf): the search tells
    for a, b in free[1:-1]:
        if not b - a < min_gutter:
            return False
    return True


def _take_band(rows: list[list[Segment]], gutters, depth: int, out, pending, role,
               rtl: bool = False, min_gutter: float = 0.0) -> bool:
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
    if any(len(_rows(p)) < MIN_PART_ROWS for p in parts):
        header = _centred_header(rows, min_gutter)
        if header is None:
            return False
        gutters, parts = header
        edges = [g[0] for g in gutters]
    if _markers_only(parts[0]):
        return False  # hanging bullets or numbers: they belong to their lines, not a column
    if _justified_rows(rows, gutters):
        return False  # justified word gaps that happen to line up
    prose = [_is_prose(p) for p in parts]
    table = any(not (pl and pr) and _rows_aligned(left, right) and not _margin_note(left, right, pl, pr)
                for left, right, pl, pr in zip(parts, parts[1:], prose, prose[1:]))
    apart = _apart_gutters(rows, gutters, min_gutter / MIN_GUTTER_EM) if table else []
    if apart:
        if pending:
            out.append((pending, role, None))
        sides: list[list[Segment]] = [[] for _ in range(len(apart) + 1)]
        for row in rows:
            for s in row:
                sides[bisect.bisect_right(apart, (s.u0 + s.u1) / 2)].append(s)
        for side in (reversed(sides) if rtl else sides):
            _cut(side, depth + 1, out, role, rtl)
        return True
    if table:
        # a table's rows fill several cells; leading rows in one cell only are the text above
        # it (the short last line of a paragraph leaves the table's gutters free)
        lead = 0
        while len(rows) - lead > MIN_BAND_ROWS and _one_cell(rows[lead], edges):
            lead += 1
        pending = pending + [s for row in rows[:lead] for s in row]
        rows = rows[lead:]
    if pending:
        out.append((pending, role, None))
    if table:
        grid = (len(out), tuple((lo + hi) / 2 for lo, hi in gutters))
        for row in rows:
            out.append((list(row), role, grid))
        return True
    # a part is narrow against the band's longest line (not its widest part: one part may
    # hold two columns of its own when a title blocked their gutter)
    widths = [max(s.u1 for s in p) - min(s.u0 for s in p) for p in parts]
    longest = [max(s.u1 - s.u0 for s in p) for p in parts]
    widest = max(longest)
    main_size = _median_size(parts[longest.index(widest)])
    columns = list(zip(parts, widths))
    for part, width in (reversed(columns) if rtl else columns):   # right to left on RTL pages
        size = _median_size(part)
        narrow = width < SIDEBAR_MAX_SHARE * widest or (
            width < SIDEBAR_STYLED_SHARE * widest
            and abs(size - main_size) > SIDEBAR_SIZE_RATIO * main_size)
        _cut(part, depth + 1, out, "sidebar" if narrow else role, rtl)
    return True


def _apart_gutters(rows: list[list[Segment]], gutters, size: float) -> list[float]:
    """The starts of the band's gutters that part two independent regions (see
    APART_GUTTER_RATIO): far wider than the others, with gutters on both sides, and crossed by few
    rows."""
    widths = [hi - lo for lo, hi in gutters]
    apart = []
    for k in range(1, len(gutters) - 1):
        lo, hi = gutters[k]
        others = max(widths[:k] + widths[k + 1:])
        if widths[k] < APART_MIN_GUTTER_EM * size or widths[k] < APART_GUTTER_RATIO * others:
            continue
        both = sum(1 for row in rows if any(s.u1 <= lo for s in row) and any(s.u0 >= hi for s in row))
        if both < APART_MAX_ROW_SHARE * len(rows):
            apart.append(lo)
    return apart


def _centred_header(rows: list[list[Segment]], min_gutter: float):
    """A table whose first row is centred over its columns (a header in wide cells) leaves
    that row's words inside the gutters of the rows below: the gutters are then the body's
    alone. It is such a table only when every body row fills every column, and the first row
    holds one piece on one baseline over each column (its centre between the gutter middles),
    clear of the neighbouring columns' text: axis labels and displayed formulas are not.
    (gutters, parts), or None."""
    body, head = rows[1:], rows[0]
    if len(body) < MIN_PART_ROWS or len(head) < 2 or not all(on_one_baseline(head[0], s) for s in head[1:]):
        return None
    free = [f for f in _free(body[0]) if f[1] - f[0] >= min_gutter]
    for row in body[1:]:
        free = _intersect(free, _free(row), min_gutter)
    gutters = _interior(free, min(s.u0 for row in body for s in row), max(s.u1 for row in body for s in row))
    if len(gutters) != len(head) - 1:
        return None
    middles = [(lo + hi) / 2 for lo, hi in gutters]
    parts: list[list[Segment]] = [[] for _ in range(len(gutters) + 1)]
    for row in body:
        filled = set()
        for s in row:
            k = bisect.bisect_right(middles, (s.u0 + s.u1) / 2)
            parts[k].append(s)
            filled.add(k)
        if len(filled) != len(parts):
            return None   # a row with an empty cell: too little to tell a header from labels
    for k, s in enumerate(sorted(head, key=lambda s: s.u0)):
        if bisect.bisect_right(middles, (s.u0 + s.u1) / 2) != k:
            return None   # two pieces over one column
        if (k > 0 and s.u0 < gutters[k - 1][0]) or (k < len(gutters) and s.u1 > gutters[k][1]):
            return None   # it reaches into a neighbour's text: a title across the columns
        parts[k].append(s)
    return gutters, parts


def _one_cell(row: list[Segment], edges: list[float]) -> bool:
    """Does the whole row lie between two gutters (in one part of the band)?"""
    parts = {bisect.bisect_right(edges, (s.u0 + s.u1) / 2) for s in row}
    return len(parts) == 1


def _median_size(segs: list[Segment]) -> float:
    sizes = sorted(s.size for s in segs)
    return sizes[len(sizes) // 2]


def _is_prose(part: list[Segment]) -> bool:
    """Long lines, measured by the median row's longest piece: a row of table cells (a part
    that is itself a grid) has only short pieces, and a spanning heading is one row of many."""
    longest = sorted(max(len(s.glyphs) for s in row) for row in _rows(part))
    return longest[len(longest) // 2] >= MIN_PROSE_GLYPHS


def _markers_only(part: list[Segment]) -> bool:
    """Is every piece of the part a list bullet or number (hanging markers beside their text)?"""
    return all(LIST_MARKER.match(s.text.strip()) for s in part)


def _justified_rows(rows: list[list[Segment]], gutters) -> bool:
    """Are the gutters, in most rows that tell, just one more of the row's even word gaps?"""
    telling = justified = 0
    lows = [lo for lo, _ in gutters]   # gutters are disjoint and sorted along the line
    for row in rows:
        if len(row) < 2:
            continue
        gaps: list[float] = []
        ordered = sorted(row, key=lambda s: s.u0)
        for s in ordered:
            _word_gaps(s, gaps)
        at_gutter = False
        for a, b in zip(ordered, ordered[1:]):
            a_end = _ink_end(a)
            gaps.append(b.u0 - a_end)
            if not at_gutter:
                k = bisect.bisect_left(lows, a_end)   # the first gutter starting after a
                at_gutter = k < len(lows) and gutters[k][1] <= b.u0
        if not at_gutter or len(gaps) < JUSTIFIED_MIN_GAPS:
            continue
        telling += 1
        narrowest = min(gaps)
        widest = max(gaps)
        size = max(s.size for s in row)
        if narrowest > 0 and widest <= JUSTIFIED_GAP_SPREAD * narrowest \
                and widest <= JUSTIFIED_MAX_GAP_EM * size:
            justified += 1
    return telling > 0 and 2 * justified > telling


def _word_gaps(seg: Segment, out: list[float]) -> None:
    """Append the gaps between the words inside a segment."""
    prev_end = None
    spaced = False
    limit = WORD_GAP_HEIGHTS * seg.height
    for g, start, end in zip(seg.glyphs, seg.starts, seg.ends):
        if g.text.isspace():
            spaced = True
            continue
        if prev_end is not None:
            gap = start - prev_end
            if spaced or gap > limit:
                out.append(gap)
        prev_end = end
        spaced = False


def _margin_note(a: list[Segment], b: list[Segment], a_prose: bool, b_prose: bool) -> bool:
    """Is the part beside a prose part a margin note (MARGIN_NOTE_ROW_SHARE, MARGIN_NOTE_STEP_EM):
    one piece of words, on few of the prose part's rows, each of its lines beside one line of
    running text or beside white space? Such a band reads as columns, the note as a sidebar."""
    if a_prose == b_prose:
        return False
    text, note = (a, b) if a_prose else (b, a)
    glyphs = [g for s in note for g in s.glyphs]
    if 2 * sum(1 for g in glyphs if g.text.isalpha()) < len(glyphs):
        return False   # figures and marks: a table's amounts, an equation's number
    rows = _rows(text)
    note_rows = _rows(note)
    if len(note_rows) >= MARGIN_NOTE_ROW_SHARE * len(rows):
        return False
    for upper, lower in zip(note_rows, note_rows[1:]):
        if lower[0].v - upper[0].v > MARGIN_NOTE_STEP_EM * max(upper[0].size, lower[0].size):
            return False   # several pieces down the margin: side headings, each read with its paragraph
    lines = 0
    for row in note_rows:
        tol = LINE_TOLERANCE_HEIGHTS * row[0].height
        beside = [s for s in text if abs(s.v - row[0].v) <= tol]
        if len(beside) > 1 or (beside and len(beside[0].glyphs) < MIN_PROSE_GLYPHS):
            return False   # beside cells, or beside white space or one line of running text
        lines += len(beside)
    return lines > 0


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
        tol = LINE_TOLERANCE_HEIGHTS * s.height
        i = bisect.bisect_left(baselines, s.v - tol)
        if i < len(baselines) and baselines[i] <= s.v + tol:
            hits += 1
    return hits >= ROW_ALIGNED_SHARE * len(small)


def _interleaves(group: list[Segment], s: Segment) -> bool:
    return any(interleaved(t, s) for t in group)


def _leaf_lines(segs: list[Segment], rtl: bool = False) -> list[TextLine]:
    """Join a flow's segments that share a baseline into lines, top to bottom; rows closer
    than a line (display math, a raised footnote number) form one line in stream order.
    Segments that overlap along the line on different baselines (lines.interleaved) are two
    lines however close."""
    groups = group_by_baseline(list(segs), _interleaves)
    lines: list[TextLine] = []
    i = 0
    n = len(groups)
    while i < n:
        j = i + 1
        while j < n and _sub_line_step(groups[j - 1], groups[j]):
            j += 1
        if j - i > 1:
            lines.append(_make_cluster_line([s for g in groups[i:j] for s in g], rtl))
        else:
            lines.append(_make_line(groups[i], rtl))
        i = j
    if segs and segs[0].direction == HORIZONTAL and not segs[0].vertical:
        return _labels_in_stream_order(lines)
    return lines   # short vertical columns are text, read right to left by position


def _labels_in_stream_order(lines: list[TextLine]) -> list[TextLine]:
    """Runs of label lines (a figure's scattered short labels) keep their drawing order."""
    out: list[TextLine] = []
    i = 0
    n = len(lines)
    while i < n:
        j = i
        while j < n and len(lines[j].glyphs) <= LABEL_MAX_GLYPHS and not _set_apart_marker(lines[j]):
            j += 1
        if j - i >= LABEL_MIN_LINES:
            segs = sorted((s for t in lines[i:j] for s in t.segs), key=lambda s: s.order)
            out.extend(_make_line([s]) for s in segs)
            i = j
        else:
            out.append(lines[i])
            i += 1
    return out


def _set_apart_marker(line: TextLine) -> bool:
    """Does the line open with a list bullet or number set apart from its text (Writer's bullet
    in another font, a tab away)? Short list items are no figure labels: they keep their lines."""
    if len(line.segs) != 2:   # a marker and its text: a row of plotted marks (* * *) is a figure's
        return False
    first, rest = sorted(line.segs, key=lambda s: s.u0)
    text = first.text.strip()
    return (bool(LIST_MARKER.match(text)) or (len(text) == 1 and bool(SYMBOL_FONT.search(first.glyphs[0].font)))) \
        and any(ch.isalpha() for ch in rest.text)


def _sub_line_step(upper: list[Segment], lower: list[Segment]) -> bool:
    """Are two baseline groups closer than any two lines of text can be?"""
    up = upper[0].size if len(upper) == 1 else max(s.size for s in upper)
    low = lower[0].size if len(lower) == 1 else max(s.size for s in lower)
    return lower[0].v - upper[0].v < SUB_LINE_STEP_EM * (up if up < low else low)


def _text_size(sizes: tuple[float, ...], largest: float) -> float:
    """The size most of a line's glyphs are set in (one big word does not make a heading)."""
    if min(sizes) == largest:
        return largest
    counts: dict[float, int] = {}
    for size in sizes:
        counts[size] = counts.get(size, 0) + 1
    return max(counts, key=counts.get)


def _concatenated(group: list[Segment]) -> tuple[list[Glyph], list[float], list[float]]:
    """The glyphs, starts and ends of segments, one after the other in the group's order."""
    glyphs: list[Glyph] = []
    starts: list[float] = []
    ends: list[float] = []
    for s in group:
        glyphs.extend(s.glyphs)
        starts.extend(s.starts)
        ends.extend(s.ends)
    return glyphs, starts, ends


def _make_cluster_line(group: list[Segment], rtl: bool = False) -> TextLine:
    """Rows a fraction of a line apart: the producer drew them as one line (an equation with
    its matrix rows, fractions and limits); its drawing order is the reading order."""
    group.sort(key=lambda s: s.order)
    glyphs, starts, ends = _concatenated(group)
    words = [w for s in group for w in build_words(s.glyphs, s.starts, s.ends, base_rtl=rtl or None)]
    main = max(group, key=lambda s: (len(s.glyphs), s.height))
    line = TextLine(
        glyphs=glyphs, starts=starts, ends=ends,
        u0=min(s.u0 for s in group), u1=max(s.u1 for s in group), v=main.v,
        top=min(s.top for s in group), bottom=max(s.bottom for s in group),
        size=main.size, fonts=frozenset(g.font for g in glyphs),
        order=group[0].order,
    )
    line.words = words
    line.footnote_start = leading_mark(glyphs) > 0
    line.segs = list(group)
    return line


def _make_line(group: list[Segment], rtl: bool = False) -> TextLine:
    if _upright.FAST_PATHS and len(group) == 1 and group[0].upright is not None:   # the switch
        return _upright.make_line(group[0], rtl)
    if len(group) > 1:
        group.sort(key=lambda s: s.u0)
    glyphs, starts, ends = _concatenated(group)
    main = max(group, key=lambda s: s.height)
    columns = list(zip(*glyphs))   # one transposition for the line's sizes, fonts and words
    line = TextLine(
        glyphs=glyphs, starts=starts, ends=ends,
        u0=group[0].u0, u1=max(s.u1 for s in group), v=main.v,
        top=min(s.top for s in group), bottom=max(s.bottom for s in group),
        size=_text_size(columns[_SIZE], main.size), fonts=frozenset(columns[_FONT]),
        order=min(s.order for s in group),
    )
    line.words = build_words(glyphs, starts, ends, base_rtl=rtl or None, columns=columns)
    line.footnote_start = leading_mark(glyphs) > 0
    line.segs = list(group)
    return line


from . import _upright   # noqa: E402  the switch's fast module builds on this one: imported last
