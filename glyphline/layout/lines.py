"""Lines: glyphs that share a baseline and sit close together along it become a segment.

Every glyph is measured in the frame of its own writing direction: `u` along the line, `v`
across it (growing in reading order of the lines: down for horizontal text, leftwards for
vertical CJK columns). A glyph continues a line while its origin moves across by at most
half the larger of the two glyph box heights (so superscripts and subscripts stay on their
line; a glyph the producer raised or lowered with a text rise may sit up to SCRIPT_RISE_EM
off) and the gap along the line stays below a column gutter.

Two linear passes, never pairwise over the page:
1. runs in content-stream order (producers draw most lines in one go);
2. runs are merged by geometry (grouped by baseline, then swept along the line), so lines
   drawn in pieces, out of order or twice (fake bold) come together, but two runs that
   overlap along the line on different baselines (a title and the small line tucked under
   it) stay two lines. Each segment's glyphs are then sorted by position along the line and
   duplicates dropped.

Pages of upright horizontal text only (most pages) take _upright.upright_segments when the
switch _upright.FAST_PATHS is on: the same rules, evaluated over the page's columns of numbers
(x, y, ends, units) in whole-list operations.

A segment never crosses a gap wider than SEGMENT_GAP_EM: two columns or two table cells on one
baseline stay apart here; the block stage joins segments that belong to one line of one column.
"""
from __future__ import annotations

import math
import re
from bisect import bisect_right
from itertools import accumulate
from operator import attrgetter, itemgetter, le
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..glyph import FALLBACK_DESCENT_SHARE, TEXT_RISE, VERTICAL, DropLog, Glyph
from .cleanup import SPACING_ACCENTS, accent_mark, drop_duplicates, duplicate_limit, on_letter, with_mark
from .scripts import FIRST_SPACELESS_CJK, is_spaceless_cjk

if TYPE_CHECKING:
    from ._upright import UprightColumns

# Half the larger glyph box height: the normal-distance rule of HotPDF and pdf.js; raised or
# lowered text (about 0.3–0.4 em) stays on its line, the next line (>= 1 em away) does not.
LINE_TOLERANCE_HEIGHTS = 0.5

# A glyph shown with a text rise (Ts), or the glyph after it, continues its stream neighbour's
# line while their baselines are at most this many font sizes (the larger) apart: the producer
# said it is a superscript or subscript of that line, and Ts superscripts sit up to about one
# em above the baseline (pdf.js text_rise_eol_bug: 12 pt over 12 pt text), a line pitch beyond.
SCRIPT_RISE_EM = 1.1

# A glyph in a smaller type (at most SUPERSCRIPT_SIZE_RATIO of its stream neighbour's size)
# raised above the neighbour's baseline by at most SUPERSCRIPT_RISE_EM of the larger size
# continues the neighbour's line (and the glyph after it, back on the baseline, continues its
# line, unless the raised glyph is not beside the glyph before it): a footnote mark or exponent placed with its own text matrix
# instead of Ts (Word, LiveCycle) sits 0.33–0.5 em up, which can exceed half the line's box.
SUPERSCRIPT_SIZE_RATIO = 0.8
SUPERSCRIPT_RISE_EM = 0.6
# ... and it stands beside the neighbour, overlapping it by at most this much of the smaller
# size (kerning): a mark drawn over its letter (a vector arrow over "u") is no superscript.
SUPERSCRIPT_MAX_OVERLAP_EM = 0.1

# A gap along the line wider than this (in font sizes) separates segments. Column gutters are
# at least about 1 em (LaTeX \columnsep 10 pt at 10 pt); justified word gaps rarely reach it.
# Between two glyphs or runs in different sizes the smaller size measures it, and between runs
# from the ink (a trailing space glyph is none: tagged LaTeX ends each line with one): a
# column's 10 pt line and the 14 pt heading across the gutter (10 pt, 0.7 em of the heading)
# are two segments.
SEGMENT_GAP_EM = 0.8

# A move backwards along the line by more than this (in font sizes) starts a new stream run:
# fake-bold copies and kerning step back a little; a return to the line start steps back a lot.
MAX_BACKTRACK_EM = 1.0

# Two runs on one baseline group that overlap along the line by more than this (in the
# smaller font size) are two lines, unless their baselines lie within SAME_BASELINE_EM of
# it: a fake-bold copy or a line drawn twice overlaps on its own baseline, a superscript
# beside its word or stacked over a subscript overlaps by one small glyph (under 1 em).
INTERLEAVED_OVERLAP_EM = 1.0
SAME_BASELINE_EM = 0.15

# A glyph drawn back over the glyphs before it by more than this many font sizes (kerning stays
# under about 0.15 em; poppler also breaks words at a half-em overlap, its minCharSpacing), unless
# it repeats one of them (a fake-bold copy), draws another text over
# them: text typed into a box already filled ("text90" with "text91" over its end, a notice
# printed over a form's header). Its run stays a line of its own wherever it overlaps another by
# that much with at least OVERDRAW_MIN_GLYPHS glyphs (one accent kerned back over its letter is
# no text), so the two texts never interleave letter by letter; each reads whole, in drawing order.
OVERDRAW_EM = 0.5
OVERDRAW_MIN_GLYPHS = 2
# ... looking back past at most this many whitespace glyphs for the glyph with ink it is drawn over
OVERDRAW_LOOKBACK = 4
# ... and counting at most this many glyphs under one glyph (a budget: a glyph covers two or three)
OVERDRAW_MAX_UNDER = 8

# A run whose glyph boxes lie wholly below another run's baseline is a line of its own even
# when its baseline is within half that run's box: a small label tucked under a large line.
# (Box top = baseline - (1 - FALLBACK_DESCENT_SHARE) of the run's text unit.)

# Directions closer than this many degrees are one writing direction (transform rounding).
DIRECTION_STEP_DEGREES = 1.0

# A glyph box height outside [MIN, MAX] × font size is a font-metrics error; use the size then.
MIN_BOX_HEIGHT_EM = 0.4
MAX_BOX_HEIGHT_EM = 3.0

# The box height used as the text's unit is capped at this many font sizes: fonts with very
# tall boxes (a FontBBox of 1.7 em, Noto Naskh Arabic, some CJK fonts) would otherwise let
# half a box swallow the next line of display type, and hide word gaps (words.py).
MAX_UNIT_EM = 1.25

_SPACING_ACCENT = re.compile("[" + "".join(map(re.escape, SPACING_ACCENTS)) + "]")   # one scan of a page's text
_BASELINE = attrgetter("v")        # sort key of runs and segments across their line
_BY_U_THEN_ORDER = itemgetter(0, 3)   # sort key of _finish's items: along the line, then stream order
_ITEM_U, _ITEM_END, _ITEM_ORDER = itemgetter(0), itemgetter(1), itemgetter(3)   # fields of _finish's items
# The punctuation late_marks moves to the end of the word it was drawn into.
_LATE_MARKS = frozenset(".,;:!?")

HORIZONTAL = 0  # direction key of ordinary left-to-right horizontal text (angle 0°)

# Some producers (Chromium) draw vertical CJK as upright horizontal glyphs stacked one below
# the other. At least this many CJK glyphs (scripts.is_spaceless_cjk) drawn in a row, each
# straight below the previous one (x within STACK_ALIGN_EM, y stepping by STACK_STEP_EM of a
# size), form a vertical line.
STACK_MIN_GLYPHS = 3
# On a page that has such columns, a column's last two glyphs (a short final column) count too.
STACK_SHORT_GLYPHS = 2
STACK_ALIGN_EM = 0.1
STACK_STEP_EM = (0.6, 1.6)


@dataclass(slots=True)
class Segment:
    """Glyphs on one baseline, sorted along the writing direction, with no gutter inside."""

    glyphs: list[Glyph]
    starts: list[float]   # u of each glyph's origin
    ends: list[float]     # u of each glyph's advance end (font advance, not the pen)
    direction: int        # direction key: angle in whole DIRECTION_STEP_DEGREES
    cos: float            # unit vector of the direction key
    sin: float
    u0: float             # extent along the line
    u1: float
    v: float              # baseline, across the line
    top: float            # box extent across the line (top < bottom in reading order)
    bottom: float
    size: float           # largest font size on the segment
    height: float         # largest text unit (capped glyph box height) on the segment
    order: int            # content-stream index of its first-drawn glyph
    vertical: bool = False
    # the columns of a segment the fast path (_upright) cut from one stream run in one font, in
    # order along the line: the word stage reads these, not the glyphs
    upright: UprightColumns | None = field(default=None, compare=False, repr=False)

    @property
    def text(self) -> str:
        return "".join(g.text for g in self.glyphs)


def box_height(g: Glyph) -> float:
    """The glyph box height, or the font size when the font's metrics are implausible."""
    return box_height_of(g.height, g.size)


def box_height_of(h: float, s: float) -> float:
    if MIN_BOX_HEIGHT_EM * s <= h <= MAX_BOX_HEIGHT_EM * s:
        return h
    return s if s > 0 else max(h, 1e-3)


def box_descent(descent: float, h: float) -> float:
    """The part of a box of height `h` below the baseline: the glyph's descent when it lies
    within the box, else the typical share."""
    return descent if 0.0 <= descent <= h else FALLBACK_DESCENT_SHARE * h


def text_unit(g: Glyph) -> float:
    """The glyph's size unit for line and word tolerances: its box height (as box_height),
    capped at MAX_UNIT_EM font sizes."""
    return text_unit_of(g.height, g.size)


def text_unit_of(h: float, s: float) -> float:
    if s > 0:
        if h < MIN_BOX_HEIGHT_EM * s or h > MAX_BOX_HEIGHT_EM * s:
            return s
        cap = MAX_UNIT_EM * s
        return cap if h > cap else h
    return h if h > 1e-3 else 1e-3


def direction_key(g: Glyph) -> int:
    if g.dy == 0.0 and g.dx > 0.0:
        return HORIZONTAL
    angle = math.degrees(math.atan2(g.dy, g.dx))
    return int(round(angle / DIRECTION_STEP_DEGREES)) % int(360 / DIRECTION_STEP_DEGREES)


def key_vector(key: int) -> tuple[float, float]:
    if key == HORIZONTAL:
        return 1.0, 0.0
    a = math.radians(key * DIRECTION_STEP_DEGREES)
    c, s = math.cos(a), math.sin(a)
    # keep exact axis vectors exact, so vertical columns compare cleanly
    return round(c, 12), round(s, 12)


class _Run:
    # items: (u, end, glyph, stream index) per glyph
    __slots__ = ("items", "key", "v", "height", "size", "u0", "u1", "order", "parts")

    def __init__(self, key, item, v, height, size, u0, u1, order):
        self.parts = None   # (u0, u1, v, size) of its pieces once it holds two baselines (_absorb)
        self.items = [item]
        self.key = key
        self.v = v
        self.height = height
        self.size = size
        self.u0 = u0
        self.u1 = u1
        self.order = order

    def places(self) -> list[tuple[float, float, str, float, float]]:
        """(u, v, text, advance width, size) of each glyph (see overdrawn)."""
        return [(u, _across(g, self.key), g.text, end - u, g.size) for u, end, g, _ in self.items]

    def ink_end(self) -> float:
        """Where its last glyph with ink ends: trailing space glyphs are no text (SEGMENT_GAP_EM)."""
        items = self.items
        k = len(items) - 1
        if not items[k][2].text.isspace():
            return self.u1
        while k >= 0 and items[k][2].text.isspace():
            k -= 1
        if k < 0:
            return self.u1   # only spaces
        end = items[k][1]
        return end if end < self.u1 else self.u1


def build_segments(glyphs: list[Glyph], text: str | None = None, dropped: DropLog | None = None,
                   columns: list[tuple] | None = None) -> list[Segment]:
    """Group cleaned glyphs (content-stream order) into baseline segments.

    `text` is the glyphs' texts joined, when the caller has it: page-wide checks on it
    spare per-glyph passes (no CJK, no spacing accents on most pages). The duplicates left
    out are listed in `dropped` when given. `columns`: the glyphs transposed (zip(*glyphs)),
    when the caller has them."""
    if text is None:
        text = "".join([g.text for g in glyphs])
    # no CJK below it: no vertical runs to restack (an ASCII text, a flag of the string, has none)
    if text and not text.isascii() and max(text) >= FIRST_SPACELESS_CJK:
        restacked = restack_vertical(glyphs)
        if restacked is not glyphs:
            glyphs, columns = restacked, None
    accents = (_SPACING_ACCENT.search(text) is not None
               and not SPACING_ACCENTS.keys().isdisjoint([g.text for g in glyphs]))
    if not accents and _upright.FAST_PATHS:   # the switch (see _upright)
        segments = _upright.upright_segments(glyphs, dropped, columns)
        if segments is not None:
            return segments
    runs = _stream_runs(glyphs)
    by_key: dict[int, list[_Run]] = {}
    for run in runs:
        by_key.setdefault(run.key, []).append(run)
    segments: list[Segment] = []
    for key, group in by_key.items():
        for merged in _merge_runs(group):
            segments.extend(_finish(key, merged, accents, dropped))
    return segments


def restack_vertical(glyphs: list[Glyph]) -> list[Glyph]:
    """Turn runs of upright CJK glyphs stacked top to bottom into vertical-writing glyphs."""
    n = len(glyphs)
    if not any(g.text >= FIRST_SPACELESS_CJK for g in glyphs):
        return glyphs   # no CJK on the page
    runs: list[tuple[int, int]] = []   # [i, j] inclusive, at least STACK_SHORT_GLYPHS long
    i = 0
    lo, hi = STACK_STEP_EM
    while i < n - 1:
        j = i
        while j < n - 1:
            a, b = glyphs[j], glyphs[j + 1]
            size = a.size
            if not (a.dy == 0.0 and b.dy == 0.0 and abs(b.x - a.x) <= STACK_ALIGN_EM * size
                    and lo * size <= b.y - a.y <= hi * size
                    and len(a.text) == 1 and len(b.text) == 1
                    and is_spaceless_cjk(a.text) and is_spaceless_cjk(b.text)):
                break
            j += 1
        if j + 1 - i >= STACK_SHORT_GLYPHS:
            runs.append((i, j))
        i = j + 1
    if not any(j + 1 - i >= STACK_MIN_GLYPHS for i, j in runs):
        return glyphs
    out = list(glyphs)
    for i, j in runs:
        for k in range(i, j + 1):
            out[k] = _upright_to_vertical(glyphs[k])
    return out


def _upright_to_vertical(g: Glyph) -> Glyph:
    """The same glyph as part of a top-to-bottom line: origin at its top centre."""
    h = box_height(g)
    cx = g.x + (g.end_x - g.x) / 2
    top = g.y - (h - box_descent(g.descent, h))
    step = g.advance if g.advance > 0 else g.size
    return Glyph(g.text, cx, top, cx, top + step, step, 0.0, 1.0, h, g.descent, g.size,
                 g.font, g.flags | VERTICAL, g.mcid)


def _stream_runs(glyphs: list[Glyph]) -> list[_Run]:
    runs: list[_Run] = []
    cur: _Run | None = None
    prev_v = prev_end = prev_h = 0.0
    cos = 1.0
    sin = 0.0
    cur_key = -1
    last_height = last_size = math.nan   # never equal: the first glyph computes its unit
    h = size = prev_size = 0.0
    prev_flags = 0
    prev_opened = True   # the previous glyph opened its run (then it is no superscript of the run)
    for index, g in enumerate(glyphs):
        if g.dy == 0.0 and g.dx > 0.0:     # upright horizontal text: u, v are x, y
            key = HORIZONTAL
            u = g.x
            v = g.y
            end = g.end_x
        else:
            key = direction_key(g)
            cos, sin = key_vector(key)
            x, y = g.x, g.y
            u = x * cos + y * sin
            v = y * cos - x * sin
            end = g.end_x * cos + g.end_y * sin
        if end < u:  # a zero or negative advance: treat the glyph as a point
            end = u
        if g.height != last_height or g.size != last_size:   # runs of one font repeat it
            last_height, last_size = g.height, g.size
            h = text_unit(g)
            size = g.size if g.size > 0 else h
            overdraw_step = -OVERDRAW_EM * size   # a step back this far may draw over (overdraws)
        item = (u, end, g, index)
        flags = g.flags
        if (cur is not None and key == cur_key
                and (abs(v - prev_v) <= LINE_TOLERANCE_HEIGHTS * (h if h > prev_h else prev_h)
                     or ((flags | prev_flags) & TEXT_RISE
                         and abs(v - prev_v) <= SCRIPT_RISE_EM * (size if size > prev_size else prev_size))
                     or (raised_script(v, size, prev_v, prev_size, u - prev_end)
                         and not (prev_opened and prev_size < size)))
                and -MAX_BACKTRACK_EM * size <= (step := u - prev_end)
                <= SEGMENT_GAP_EM * (size if size < prev_size else prev_size)
                and not (step < overdraw_step and overdraws(glyphs, index, u, v, key, size))):
            cur.items.append(item)
            prev_opened = False
            if v != prev_v:
                cur.parts = ()   # baselines differ inside the run: its pieces are found below
            if end > cur.u1:
                cur.u1 = end
            if u < cur.u0:
                cur.u0 = u
            if h > cur.height:
                cur.height = h
                cur.v = v
            if size > cur.size:
                cur.size = size
        else:
            cur = _Run(key, item, v, h, size, u, end, index)
            prev_opened = True
            runs.append(cur)
            cur_key = key
        prev_v, prev_end, prev_h, prev_size, prev_flags = v, end, h, size, flags
    for run in runs:
        if run.parts is not None:
            items = run.items
            run.parts = baseline_pieces([it[0] for it in items], [it[1] for it in items],
                                        [_across(it[2], run.key) for it in items],
                                        [it[2].size if it[2].size > 0 else text_unit(it[2]) for it in items])
    return runs


def overdraws(glyphs: list[Glyph], index: int, u: float, v: float, key: int, size: float) -> bool:
    """OVERDRAW_EM: does glyphs[index] (at u, v in the frame of direction `key`, font size `size`)
    start before the origin of the last glyph with ink before it and that far inside its advance
    (spaces are no ink: a space that runs under the next character's cell is no text drawn
    over), and repeat neither of the two glyphs before it?"""
    j = index - 1
    stop = index - 1 - OVERDRAW_LOOKBACK
    while j >= 0 and j > stop and glyphs[j].text.isspace():
        j -= 1
    if j < 0 or j <= stop:
        return False
    p = glyphs[j]
    cos, sin = key_vector(key)
    start = p.x * cos + p.y * sin
    end = p.end_x * cos + p.end_y * sin
    # the pen went back past that glyph's origin (a font whose widths overstate its glyphs steps
    # forward from each origin, however far its advances reach)
    if u >= start or u - (end if end > start else start) >= -OVERDRAW_EM * size:
        return False
    return not _repeats(glyphs, index, u, v, key)


def _repeats(glyphs: list[Glyph], index: int, u: float, v: float, key: int) -> bool:
    """Is glyphs[index] (at u, v in the frame of direction `key`) the glyph one or two before
    it in the stream drawn again at (almost) its place (cleanup.duplicate_limit)?"""
    g = glyphs[index]
    cos, sin = key_vector(key)
    for step in (1, 2):
        if index >= step and glyphs[index - step].text == g.text:
            p = glyphs[index - step]
            pu = p.x * cos + p.y * sin
            pend = p.end_x * cos + p.end_y * sin
            limit = duplicate_limit(g.size, pend - pu if pend > pu else 0.0)
            if abs(pu - u) <= limit and abs(p.y * cos - p.x * sin - v) <= limit:
                return True
    return False


def _across(g: Glyph, key: int) -> float:
    """v of a glyph in the frame of direction `key` (as _stream_runs measures it)."""
    if key == HORIZONTAL:
        return g.y
    cos, sin = key_vector(key)
    return g.y * cos - g.x * sin


def baseline_pieces(us, ends, vs, sizes) -> list | None:
    """The pieces (u0, u1, v, size) of a stream run whose glyphs (in stream order) do not all
    share one baseline: a new piece where the baseline moves by more than SAME_BASELINE_EM of
    the smaller size. None when the run is one piece."""
    pieces = []
    u0, u1, pv, psize = us[0], ends[0], vs[0], sizes[0]
    for u, end, v, size in zip(us, ends, vs, sizes):
        if abs(v - pv) > SAME_BASELINE_EM * (size if size < psize else psize):
            pieces.append((u0, u1, pv, psize))
            u0, u1, pv, psize = u, end, v, size
            continue
        if u < u0:
            u0 = u
        if end > u1:
            u1 = end
        if size > psize:
            psize = size
    if not pieces:
        return None
    pieces.append((u0, u1, pv, psize))
    return pieces


def raised_script(v: float, size: float, other_v: float, other_size: float, gap: float) -> bool:
    """Is one of two stream neighbours (baseline v, font size; `gap` from the first one's end to
    the second one's start) a superscript of the other set without a text rise: in a smaller
    type, raised by at most SUPERSCRIPT_RISE_EM, beside it (SUPERSCRIPT_MAX_OVERLAP_EM)?"""
    if gap < -SUPERSCRIPT_MAX_OVERLAP_EM * (size if size < other_size else other_size):
        return False
    if size < other_size:
        return size <= SUPERSCRIPT_SIZE_RATIO * other_size and 0.0 < other_v - v <= SUPERSCRIPT_RISE_EM * other_size
    return other_size <= SUPERSCRIPT_SIZE_RATIO * size and 0.0 < v - other_v <= SUPERSCRIPT_RISE_EM * size


def group_by_baseline(items: list, apart=None) -> list[list]:
    """Runs or segments grouped by shared baseline, top to bottom: an item joins the last group
    when its baseline lies within LINE_TOLERANCE_HEIGHTS of the group's first item (its reference, so
    groups never chain) and, given `apart`, apart(group, item) is false. Sorts `items` by v."""
    items.sort(key=_BASELINE)
    groups: list[list] = []
    ref = None
    for item in items:
        if (ref is not None and abs(item.v - ref.v) <= LINE_TOLERANCE_HEIGHTS * max(item.height, ref.height)
                and (apart is None or not apart(groups[-1], item))):
            groups[-1].append(item)
        else:
            groups.append([item])
            ref = item
    return groups


def _merge_runs(runs: list[_Run]) -> list[_Run]:
    """Merge runs that share a baseline and touch along it.

    Runs are grouped by baseline (sorted across the line; a group's first run is its
    reference, so groups never chain), then each group is swept along the line, joining
    runs that overlap or lie within a segment gap of each other, whatever their stream order.
    """
    if len(runs) == 1:
        return runs
    merged: list[_Run] = []
    for group in group_by_baseline(runs):
        if len(group) > 1:
            group.sort(key=lambda r: r.u0)
        current = group[0]
        lines = None   # the group's open lines, once two of them overlap along the line (rare)
        for run in group[1:]:
            if lines is None:
                gap_limit = SEGMENT_GAP_EM * (current.size if current.size < run.size else run.size)
                if run.u0 - current.ink_end() > gap_limit:
                    merged.append(current)
                    current = run
                    continue
                if not interleaved(current, run):
                    _absorb(current, run)
                    continue
                lines = [current]
            # the run joins the open line of the nearest baseline that it neither interleaves
            # with nor lies a gutter away from, or opens a line; lines a gutter behind it close
            still_open = []
            best = None
            for line in lines:
                if run.u0 - line.ink_end() > SEGMENT_GAP_EM * (line.size if line.size < run.size else run.size):
                    merged.append(line)   # later runs start further along: it stays closed
                    continue
                still_open.append(line)
                if not interleaved(line, run) and (best is None or abs(run.v - line.v) < abs(run.v - best.v)):
                    best = line
            if best is None:
                still_open.append(run)
            else:
                _absorb(best, run)
            lines = still_open
        if lines is None:
            merged.append(current)
        else:
            merged.extend(lines)
    return merged


def _absorb(line: _Run, run: _Run) -> None:
    """Merge `run` into `line` (runs of one baseline group, in order along the line)."""
    if line.parts is not None or run.parts is not None or not on_one_baseline(line, run):
        # a line on two baselines (a small line drawn beside a large number) keeps its pieces,
        # so a later run is checked against the piece it overlaps (interleaved)
        line.parts = ((line.parts or [(line.u0, line.u1, line.v, line.size)])
                      + (run.parts or [(run.u0, run.u1, run.v, run.size)]))
    line.items.extend(run.items)
    if run.u1 > line.u1:
        line.u1 = run.u1
    if run.order < line.order:
        line.order = run.order
    if run.size > line.size:
        line.size = run.size
    if run.height > line.height:
        line.height = run.height
        line.v = run.v


def interleaved(line, run) -> bool:
    """Do two runs (or segments) of one baseline group overlap along the line as two lines
    would (a 20 pt title and the 8 pt line tucked under it), not as a line and its fake-bold
    copy or a superscript beside its word?"""
    if _interleaved(line.u0, line.u1, line.v, line.size, run.u0, run.u1, run.v, run.size) \
            or below_baseline(run, line) or below_baseline(line, run):
        return True
    parts = getattr(line, "parts", None)   # a merged run on two baselines: each of its pieces
    if parts is not None and any(_interleaved(u0, u1, v, size, run.u0, run.u1, run.v, run.size)
                                 for u0, u1, v, size in parts):
        return True
    return overdrawn(line, run)


def overdrawn(a, b) -> bool:
    """Does one of two runs (or segments) of one baseline group draw another text over the other:
    both have OVERDRAW_MIN_GLYPHS glyphs with ink at least, as many of the later one's glyphs on
    the other's baseline cover the other's glyphs, by more than OVERDRAW_EM in all, and the first
    of them does not repeat the glyph under it (a fake-bold copy, a shadow, a word painted over
    in another colour)? Spaces are no ink."""
    earlier, later = (a, b) if a.u0 <= b.u0 else (b, a)
    small = a.size if a.size < b.size else b.size
    if earlier.u1 - later.u0 <= OVERDRAW_EM * small:
        return False
    ink = sorted(p for p in _places(earlier) if not p[2].isspace() and p[3] > 0.0)
    if len(ink) < OVERDRAW_MIN_GLYPHS:   # one mark (a check box's tick) is no text
        return False
    starts = [p[0] for p in ink]
    # a glyph's ink ends where the next one starts, if sooner than its advance, and the last
    # one's advance shrinks by the run's typical step / advance (a font whose widths overstate
    # its glyphs: pdfjs issue7074, every advance 1 em, letters 0.55 em apart)
    shares = sorted(min(1.0, (b[0] - a[0]) / a[3]) for a, b in zip(ink, ink[1:]) if b[0] > a[0])
    share = shares[len(shares) // 2] if shares else 1.0
    last = len(ink) - 1
    ink = [(p[0], p[1], p[2], min(p[3], starts[k + 1] - p[0]) if k < last and starts[k + 1] > p[0]
            else p[3] * share, p[4])
           for k, p in enumerate(ink)]
    ends = list(accumulate((p[0] + p[3] for p in ink), max))   # furthest end so far
    level = SAME_BASELINE_EM * small
    covering = []   # the later run's glyphs drawn over ink, with the length they cover
    for p in _places(later):
        u, v, text, width = p[0], p[1], p[2], p[3]
        if width <= 0.0 or text.isspace() or abs(v - earlier.v) > level:
            continue
        k = bisect_right(starts, u + width)   # ink glyphs starting before this glyph ends
        covered = 0.0
        j = k - 1
        stop = k - 1 - OVERDRAW_MAX_UNDER
        while j >= 0 and j > stop and ends[j] > u:   # walk back while some ink still reaches into it
            q0, q1 = ink[j][0], ink[j][0] + ink[j][3]
            covered += max(0.0, min(q1, u + width) - max(q0, u))
            j -= 1
        if covered > 0.0:
            covering.append((u, v, text, covered))
    if len(covering) < OVERDRAW_MIN_GLYPHS or sum(c[3] for c in covering) <= OVERDRAW_EM * small:
        return False
    u, v, text, _ = min(covering)
    for pu, pv, ptext, width, size in ink:
        if ptext == text:
            limit = duplicate_limit(size, width)
            if abs(pu - u) <= limit and abs(pv - v) <= limit:
                return False
    return True


def _places(item) -> list[tuple[float, float, str, float, float]]:
    """(u, v, text, advance width, size) of the glyphs of a run or a segment."""
    if isinstance(item, Segment):
        key = item.direction
        return [(u, _across(g, key), g.text, end - u, g.size)
                for u, end, g in zip(item.starts, item.ends, item.glyphs)]
    return item.places()


def _interleaved(u0: float, u1: float, v: float, size: float,
                 run_u0: float, run_u1: float, run_v: float, run_size: float) -> bool:
    small = size if size < run_size else run_size
    overlap = (u1 if u1 < run_u1 else run_u1) - (u0 if u0 > run_u0 else run_u0)
    return overlap > INTERLEAVED_OVERLAP_EM * small and abs(run_v - v) > SAME_BASELINE_EM * small


def on_one_baseline(line, run) -> bool:
    """Are the baselines of two runs within SAME_BASELINE_EM of the smaller size?"""
    small = line.size if line.size < run.size else run.size
    return abs(run.v - line.v) <= SAME_BASELINE_EM * small


def below_baseline(lower, upper) -> bool:
    """Do the glyph boxes of run `lower` lie wholly below the baseline of run `upper`?"""
    return lower.v - (1.0 - FALLBACK_DESCENT_SHARE) * lower.height >= upper.v


def _finish(key: int, run: _Run, accents: bool = False, dropped: DropLog | None = None) -> list[Segment]:
    """Sort a merged run along the line, drop duplicates, and split it at gutter-wide gaps."""
    items = run.items
    if len(items) > 1:
        items.sort(key=_BY_U_THEN_ORDER)
        items = late_marks(items, _ITEM_ORDER, _ITEM_U, _ITEM_END, _item_text)
    glyphs = drop_duplicates([it[2] for it in items], dropped)
    if len(glyphs) != len(items):
        keep = {id(g) for g in glyphs}
        items = [it for it in items if id(it[2]) in keep]
    if accents:
        items = _attach_accents(items)
    cos, sin = key_vector(key)
    out: list[Segment] = []
    start = 0
    n = len(items)
    for i in range(1, n + 1):
        if i < n:
            prev_end = items[i - 1][1]
            size = items[i][2].size or box_height(items[i][2])
            if items[i][0] - prev_end <= SEGMENT_GAP_EM * size:
                continue
        out.append(_segment(key, cos, sin, items[start:i]))
        start = i
    return out


def _item_text(item) -> str:
    """The text of one of _finish's items (its glyph's), for late_marks."""
    return item[2].text


def late_marks(order: list, index, u, end, text) -> list:
    """A punctuation mark drawn after the letters that follow it, lying within the letter before
    it, is read after the word it was drawn into, with the spaces drawn right after it: an edited
    word ("foyer" typed over a shorter one, TouchUp) is wider than the text it replaced, and the
    sentence's ". " still stands where the old word ended, inside it ("foy. er"). `order`: the
    line's keys sorted along the line; index/u/end/text: a key's stream position, start, end and
    text. A mark drawn before the letters after it (an accent kerned back, a TJ's kerning) is
    in stream order and keeps its place."""
    n = len(order)
    if n < 3:
        return order
    ends = list(map(end, order))
    if not any(map(le, ends[1:n - 1], ends[:n - 2])):   # no glyph ends within the one before it (the usual line)
        return order
    k = 1
    while k < n - 1:
        mark = order[k]
        before = order[k - 1]
        if end(mark) <= end(before):   # wholly within the glyph before it: rare, only then look closer
            t = text(mark)
            if (len(t) == 1 and t in _LATE_MARKS and end(mark) > u(mark) and index(mark) > index(before)
                    and u(before) <= u(mark) and text(before).isalpha()):
                j = k + 1   # the spaces drawn with the mark go with it
                while j < n and text(order[j]).isspace() and index(order[j]) > index(mark):
                    j += 1
                m = j
                while m < n and text(order[m]).isalpha() and index(order[m]) < index(mark):
                    m += 1
                if m > j:   # letters of the word drawn before the mark follow it: move it after them
                    order = order[:k] + order[j:m] + order[k:j] + order[m:]
                    k = m - (j - k)
        k += 1
    return order


def _attach_accents(items: list) -> list:
    """Fold each spacing accent drawn over a neighbouring letter into that letter (one pass)."""
    out: list = []
    pending = None   # (mark, accent item) waiting to land on the next item
    n = len(items)
    for i, item in enumerate(items):
        u, end, g, index = item
        if pending is not None:
            mark, accent = pending
            pending = None
            if on_letter(accent[2], g, (accent[0], accent[1]), (u, end)):
                item = (u, end, with_mark(g, mark), index)
                u, end, g, index = item
            else:
                out.append(accent)
        mark = accent_mark(g.text)
        if mark:
            if out and on_letter(g, out[-1][2], (u, end), (out[-1][0], out[-1][1])):
                bu, bend, base, bindex = out[-1]
                out[-1] = (bu, bend, with_mark(base, mark), bindex)
                continue
            if i + 1 < n:
                pending = (mark, item)
                continue
        out.append(item)
    if pending is not None:
        out.append(pending[1])
    return out


def _segment(key: int, cos: float, sin: float, items: list) -> Segment:
    glyphs = [it[2] for it in items]
    starts = [it[0] for it in items]
    ends = [it[1] for it in items]
    vertical = bool(glyphs[0].flags & VERTICAL)
    base_v = 0.0
    best_h = -1.0
    top = math.inf
    bottom = -math.inf
    size = 0.0
    metrics = None   # (height, size, descent) of the previous glyph: runs of one font repeat it
    for g in glyphs:
        v = g.y * cos - g.x * sin
        if metrics != (g.height, g.size, g.descent):
            metrics = (g.height, g.size, g.descent)
            h = box_height(g)
            unit = text_unit(g)
            if vertical:
                up = down = h / 2
            else:
                down = box_descent(g.descent, h)
                up = h - down
        if unit > best_h:
            best_h, base_v = unit, v
        t, b = v - up, v + down
        if t < top:
            top = t
        if b > bottom:
            bottom = b
        if g.size > size:
            size = g.size
    return Segment(
        glyphs=glyphs, starts=starts, ends=ends, direction=key, cos=cos, sin=sin,
        u0=starts[0], u1=max(ends), v=base_v, top=top, bottom=bottom,
        size=size if size > 0 else best_h, height=best_h, order=min(it[3] for it in items),
        vertical=vertical,
    )


from . import _upright   # noqa: E402  the switch's fast module builds on this one: imported last
