"""The layout's fast paths: the same rules as lines.py, words.py and blocks.py, evaluated
column-wise for the common case, behind one switch (FAST_PATHS).

Pages of upright horizontal text only (most pages) are cut into segments over the page's
columns of numbers (x, y, ends, units) in whole-list operations instead of glyph by glyph; a
segment cut from one stream run in one font, in order along the line, carries its columns
(UprightColumns) so the word stage reads them instead of the glyphs. Lines in one font whose
advance ends come in order along them get their word breaks and word boxes in whole-list
operations too.

Every function here gives exactly what the general path gives (tests/test_layout_fast_paths.py
compares the layout with the switch on and off); the general modules know this one only at
the switch: lines.build_segments, words.build_words and blocks._make_line.
"""
from __future__ import annotations

from bisect import bisect_right
from itertools import compress
from operator import eq, lt, ne, sub
from typing import NamedTuple

from ..glyph import TEXT_RISE, VERTICAL, DropLog, Glyph
from . import blocks   # (partly initialised when lines.py imports this module: read at call time)
from .cleanup import DUPLICATE_MAX_DISTANCE_EM, drop_duplicates, duplicate_limit, whitespace_indices
from .lines import (HORIZONTAL, LINE_TOLERANCE_HEIGHTS, MAX_BACKTRACK_EM, OVERDRAW_EM, SCRIPT_RISE_EM, late_marks,
                    SEGMENT_GAP_EM, Segment, _merge_runs, _Run, baseline_pieces, box_descent, box_height,
                    box_height_of, overdraws, raised_script, text_unit, text_unit_of)
from .model import WORD_DEFAULTS, Word, new_word
from .scripts import FIRST_COMBINING, FIRST_RTL, SOFT_HYPHEN
from .words import (LETTER_SPACED_MIN_GAPS, LETTER_SPACED_SHARE, SPACE_COVERED_SHARE, SPACE_PEN_EM,
                    SPACE_START_INSIDE_SHARE, TRACKING_MAX_EM, TRACKING_MIN_GAPS, WIDE_GAP_EM,
                    WORD_GAP_HEIGHTS, _WHITESPACE, _em, _letter_gap, _no_word_space, _overlong_word, _script_breaks, _settled,
                    _word_spaces, build_words, leading_mark, words_at_breaks)

# The switch: True takes the fast paths where they apply, False lays every page out by the
# general rules alone (the output is the same; tests turn it off to compare).
FAST_PATHS = True

# The greatest ASCII character: it bounds an ASCII line's characters from above, and lies below
# the first combining mark and the first right-to-left letter, the only limits max(line_text) is
# compared with here (str.isascii reads a flag of the string; max reads every character)
ASCII_TOP = "\x7f"
assert ASCII_TOP < FIRST_COMBINING and ASCII_TOP < FIRST_RTL

# A copy of a glyph lies within cleanup.duplicate_limit of it, at most DUPLICATE_MAX_DISTANCE_EM
# of its size: a glyph that steps further than this from the glyph before it repeats neither of
# the two before it, unless the one before it stepped at most half as far (_close_repeat)
REPEAT_STEP_EM = DUPLICATE_MAX_DISTANCE_EM


class UprightColumns(NamedTuple):
    """Segment.upright: the columns of a segment cut from one stream run in one font, in order
    along the line (glyph by glyph, as Glyph's fields of the same names)."""

    texts: tuple[str, ...]
    xs: tuple[float, ...]
    ys: tuple[float, ...]
    end_xs: tuple[float, ...]
    fonts: tuple[str, ...]
    flags: tuple[int, ...]
    gaps: list[float]       # each glyph's start less the advance end of the glyph before it (words)
    ends_ascending: bool    # do end_xs ascend (known from the segment's own test)?


class _RangeRun(_Run):
    """A stream run of upright_segments: its items are (start, stop) ranges of the page's glyph
    indices (merging concatenates them), and its extent along the line is computed when
    _merge_runs first asks for it (only runs that share a baseline with another run)."""

    __slots__ = ("_u0", "_u1", "_xs", "_ends", "_columns")

    def __init__(self, span, v, height, size, xs, ends, columns):
        self.parts = None
        self.items = [span]
        self.key = HORIZONTAL
        self.v = v
        self.height = height
        self.size = size
        self.order = span[0]
        self._u0 = self._u1 = None
        self._xs = xs
        self._ends = ends
        self._columns = columns   # the page's texts, ys and sizes (places)

    def places(self) -> list[tuple[float, float, str, float, float]]:
        """(u, v, text, advance width, size) of each glyph (lines.overdrawn)."""
        texts, ys, sizes = self._columns
        xs, ends = self._xs, self._ends
        return [(xs[i], ys[i], texts[i], ends[i] - xs[i], sizes[i])
                for a, b in self.items for i in range(a, b)]

    def ink_end(self) -> float:
        """Where its last glyph with ink ends (lines._Run.ink_end)."""
        texts = self._columns[0]
        if not texts[self.items[-1][1] - 1].isspace():
            return self.u1
        for a, b in reversed(self.items):   # the last glyph with ink, in stream order
            for i in range(b - 1, a - 1, -1):
                if not texts[i].isspace():
                    end = self._ends[i]
                    return end if end < self.u1 else self.u1
        return self.u1   # only spaces

    def _extent(self) -> None:
        a, b = self.items[0]
        self._u0, self._u1 = min(self._xs[a:b]), max(self._ends[a:b])

    @property
    def u0(self):
        if self._u0 is None:
            self._extent()
        return self._u0

    @u0.setter
    def u0(self, value):
        self._u0 = value

    @property
    def u1(self):
        if self._u0 is None:
            self._extent()
        return self._u1

    @u1.setter
    def u1(self, value):
        self._u1 = value


def upright_segments(glyphs: list[Glyph], dropped: DropLog | None = None,
                     columns: list[tuple] | None = None) -> list[Segment] | None:
    """build_segments for a page of upright horizontal text only (most pages), or None.

    The same rules as _stream_runs, _merge_runs, _finish and _segment, applied column-wise:
    u, v are x, y, so the per-glyph work is a few passes over plain lists of numbers (mostly
    inside the interpreter's C loops) instead of per-glyph Python statements. `columns`: the
    glyphs transposed (zip(*glyphs)), when the caller has them."""
    n = len(glyphs)
    if n == 0:
        return []
    texts, xs, ys, end_xs, _, _, dxs, dys, heights, descents, sizes, fonts, flags, _ = \
        zip(*glyphs) if columns is None else columns
    # most pages repeat one flags number, one dy and one dx object: counting them (identity
    # first) spares the set and the min, and is tried when the last glyph repeats the first's
    flag_set = {flags[0]} if flags[-1] == flags[0] and flags.count(flags[0]) == n else set(flags)
    zero = dys[0] if dys[0] == 0.0 else 0.0   # counts the same, by identity where it can
    if dys.count(zero) != n or any(f & VERTICAL for f in flag_set):
        return None
    if (dxs[0] if dxs[-1] is dxs[0] and dxs.count(dxs[0]) == n else min(dxs)) <= 0.0:
        return None
    # a zero or negative advance: the glyph is a point
    clamped = any(map(lt, end_xs, xs))
    ends = [u if end < u else end for end, u in zip(end_xs, xs)] if clamped else list(end_xs)
    # the gap before each glyph, once for the page: the run test below and the word breaks of
    # the lines cut from one stream run (UprightColumns.gaps) read it (gaps[i - 1]: glyph i's)
    gaps = list(map(sub, xs[1:], ends))
    # metrics per run of one font (where height, size or descent changes), not per glyph
    # (the last glyph's equal to the first's: else some differ, and counting is no use)
    if heights[-1] == heights[0] and sizes[-1] == sizes[0] and descents[-1] == descents[0] \
            and heights.count(heights[0]) == n and sizes.count(sizes[0]) == n and descents.count(descents[0]) == n:
        changes = []
    else:
        fonts_of = list(zip(heights, sizes, descents))
        changes = list(compress(range(1, n), map(ne, fonts_of[1:], fonts_of)))
    table: dict[tuple[float, float, float], tuple[float, float, float, float]] = {}
    metrics: list[tuple[float, float, float, float]] = []
    units: list[float] = []
    run_sizes: list[float] = []
    for a, b in zip([0] + changes, changes + [n]):
        key = (heights[a], sizes[a], descents[a])
        m = table.get(key)
        if m is None:
            m = table[key] = _upright_metrics(*key)
        metrics += [m] * (b - a)
        units += [m[0]] * (b - a)
        run_sizes += [m[1]] * (b - a)
    # run boundaries in stream order: the _stream_runs test, between each glyph and the previous,
    # and the glyphs drawn back by more than OVERDRAW_EM sizes (below), found in one pass: a
    # glyph failing the first test with the step back of the second (OVERDRAW_EM < MAX_BACKTRACK_EM,
    # so its limit is the tighter) may fail either, and only those are tested again for each
    tol, back, gap, draw_back = LINE_TOLERANCE_HEIGHTS, -MAX_BACKTRACK_EM, SEGMENT_GAP_EM, -OVERDRAW_EM
    # the same pass gathers the glyphs whose step from the glyph before them is within
    # REPEAT_STEP_EM of the page's largest size: only next to those can a glyph repeat one of the
    # two before it (see _close_repeat)
    largest = max([key[1] for key in table])
    near = REPEAT_STEP_EM * largest if largest > 0 else 0.0
    # one font along each run between changes of font (the whole page in one font: one run): the
    # same limits for its glyphs after its first; its first glyph against the font before it
    maybe = []
    for a, b in zip([0] + changes, changes + [n]):
        if a:
            v, pv, h, ph, size, ps = ys[a], ys[a - 1], units[a], units[a - 1], run_sizes[a], run_sizes[a - 1]
            if not ((v == pv or abs(v - pv) <= tol * (h if h > ph else ph))
                    and size * draw_back <= gaps[a - 1] <= gap * (size if size < ps else ps)
                    and xs[a] - xs[a - 1] > near):
                maybe.append(a)
        across, high = tol * units[a], gap * run_sizes[a]
        step_back = run_sizes[a] * draw_back
        maybe += [i for i, v, pv, step, u, pu in zip(range(a + 1, b), ys[a + 1:b], ys[a:b], gaps[a:b],
                                                       xs[a + 1:b], xs[a:b])
                  if not ((v == pv or abs(v - pv) <= across) and step_back <= step <= high and u - pu > near)]
    # the candidates tested again with the step back of _stream_runs (with one font every limit
    # here is the same product as across and high above, so one test serves every run)
    cuts = [i for i in maybe
            if not ((ys[i] == ys[i - 1] or abs(ys[i] - ys[i - 1]) <= tol * (units[i] if units[i] > units[i - 1]
                                                                             else units[i - 1]))
                    and back * run_sizes[i] <= xs[i] - ends[i - 1]
                    <= gap * (run_sizes[i] if run_sizes[i] < run_sizes[i - 1] else run_sizes[i - 1]))]
    # does some glyph repeat one of the two before it close by (fake bold)?
    repeats = _close_repeat(texts, xs, ys, ends, sizes, [i for i in maybe if xs[i] - xs[i - 1] <= near])
    # a glyph drawn back over the glyphs before it, repeating neither, starts a run (_stream_runs)
    over = [i for i in maybe if xs[i] - ends[i - 1] < run_sizes[i] * draw_back]
    if over:
        over = {i for i in over if overdraws(glyphs, i, xs[i], ys[i], HORIZONTAL, run_sizes[i])}
        if over:
            cuts = sorted(over.union(cuts))
    if cuts and any(f & TEXT_RISE for f in flag_set):
        # a raised or lowered glyph stays on the line of the glyph before or after it (_stream_runs)
        rise = SCRIPT_RISE_EM
        cuts = [i for i in cuts
                if i in over or not ((flags[i] | flags[i - 1]) & TEXT_RISE
                        and abs(ys[i] - ys[i - 1]) <= rise * max(run_sizes[i], run_sizes[i - 1])
                        and back * run_sizes[i] <= xs[i] - ends[i - 1]
                        <= gap * min(run_sizes[i], run_sizes[i - 1]))]
    if cuts and changes:
        # a glyph in a smaller type raised a little stays on its neighbour's line, and the glyph
        # after it too unless the raised one opened its own run (_stream_runs)
        kept: list[int] = []
        for i in cuts:
            if (i not in over
                    and raised_script(ys[i], run_sizes[i], ys[i - 1], run_sizes[i - 1], xs[i] - ends[i - 1])
                    and back * run_sizes[i] <= xs[i] - ends[i - 1] <= gap * min(run_sizes[i], run_sizes[i - 1])
                    and not ((i == 1 or (kept and kept[-1] == i - 1)) and run_sizes[i - 1] < run_sizes[i])):
                continue
            kept.append(i)
        cuts = kept
    runs: list[_Run] = []
    columns = (texts, ys, sizes)
    for a, b in zip([0] + cuts, cuts + [n]):
        if changes and _changes_inside(changes, a, b):
            run_units = units[a:b]
            height = max(run_units)
            v, size = ys[a + run_units.index(height)], max(run_sizes[a:b])
        else:   # one font along the run
            height, v, size = units[a], ys[a], run_sizes[a]
        run = _RangeRun((a, b), v, height, size, xs, ends, columns)
        if b - a > 1:
            run_ys = ys[a:b]
            # baselines differ inside the run (_stream_runs): most runs repeat one y object, so
            # count (identity first) rules that out before min and max read every value
            if run_ys.count(run_ys[0]) != b - a and min(run_ys) != max(run_ys):
                run.parts = baseline_pieces(xs[a:b], ends[a:b], run_ys, run_sizes[a:b])
        runs.append(run)
    segments: list[Segment] = []
    for run in _merge_runs(runs):
        segments.extend(_upright_finish(run.items, glyphs, texts, xs, ys, ends, sizes, metrics,
                                        repeats, (changes, end_xs, fonts, flags, gaps, maybe, clamped), dropped))
    return segments


def _changes_inside(changes: list[int], a: int, b: int) -> bool:
    """Does the font change between glyphs a and b - 1 (changes: sorted indices where it does)?
    (Or: is some glyph of a sorted list of indices inside the run from a to b?)"""
    i = bisect_right(changes, a)
    return i < len(changes) and changes[i] < b


def _close_repeat(texts, xs, ys, ends, sizes, steps: list[int]) -> bool:
    """Does some glyph have the text of the glyph one or two before it in stream order, within
    its duplicate_limit: the only places a line drawn in stream order can hold a duplicate (see
    _may_repeat)? `steps`: the glyphs whose step from the glyph before them is at most
    REPEAT_STEP_EM of the page's largest size (of 0 when no size is positive). A copy lies within
    duplicate_limit <= REPEAT_STEP_EM sizes of its original, so a glyph one step after its
    original is in `steps`, and of the two steps from a glyph two after its original, one is at
    most half that: the glyph or the one before it is in `steps`."""
    n = len(texts)
    for k in steps:
        for i, step in ((k, 1), (k, 2), (k + 1, 2)):
            if step <= i < n and texts[i] == texts[i - step]:
                limit = duplicate_limit(sizes[i], ends[i - step] - xs[i - step])
                if abs(xs[i - step] - xs[i]) <= limit and abs(ys[i - step] - ys[i]) <= limit:
                    return True
    return False


def _upright_metrics(height: float, size: float, descent: float) -> tuple[float, float, float, float]:
    """(text unit, run size, box extent above and below the baseline) of upright glyphs."""
    h = box_height_of(height, size)
    unit = text_unit_of(height, size)
    down = box_descent(descent, h)
    return unit, (size if size > 0 else unit), h - down, down


def _upright_finish(ranges: list[tuple[int, int]], glyphs, texts, xs, ys, ends, sizes,
                    metrics, repeats: bool, more_columns: tuple, dropped: DropLog | None = None) -> list[Segment]:
    """_finish for a merged run of upright glyphs given as index ranges of the page's columns.
    more_columns: the indices where the font (height, size, descent) changes, end_xs, fonts,
    flags, the gaps before the glyphs, the glyphs that may start a run (`maybe`: every other
    glyph starts more than a non-negative step after the glyph before it) and whether some
    advance end was clamped to its origin; repeats: does some glyph on the page repeat one of the two before it close by
    (_close_repeat)."""
    if len(ranges) == 1 and not repeats:
        # the usual line: one stream run in one font, in order along the line, with sizes (so
        # its gaps passed the gutter test in stream order): one segment, from slices
        a, b = ranges[0]
        changes, end_xs, fonts, flags, gaps, maybe, clamped = more_columns
        line_xs = xs[a:b]
        size = sizes[a]   # one font: every glyph's size
        if ((b - a == 1 or size > 0) and not (changes and _changes_inside(changes, a, b))
                # xs ascend unless a glyph of `maybe` lies inside the run
                and (not _changes_inside(maybe, a, b) or list(line_xs) == sorted(line_xs))):
            first = metrics[a]
            line_ys = ys[a:b]
            line_ends = ends[a:b]
            size = max(0.0, size)
            # one baseline (the usual line: its glyphs share one y object, so count is cheap): min = max
            low = high = line_ys[0]
            if line_ys.count(low) != b - a:
                low, high = min(line_ys), max(line_ys)
            # ends in order (the usual line): the last is the furthest, and the word stage need
            # not test them again (nor end_xs, the same numbers when none was clamped)
            ascending = line_ends == sorted(line_ends)   # (no NaN: finite coordinates)
            return [Segment(
                glyphs=glyphs[a:b], starts=list(line_xs), ends=line_ends, direction=HORIZONTAL,
                cos=1.0, sin=0.0, u0=line_xs[0], u1=line_ends[-1] if ascending else max(line_ends), v=line_ys[0],
                top=low - first[2], bottom=high + first[3],
                size=size if size > 0 else first[0], height=first[0], order=a,
                upright=UprightColumns(texts[a:b], line_xs, line_ys, end_xs[a:b], fonts[a:b], flags[a:b],
                                       gaps[a:b - 1], ascending and not clamped),
            )]
    order: range | list[int]
    in_stream_order = False   # one stream run, already in order along the line
    if len(ranges) == 1:
        order = range(*ranges[0])
        line_xs = xs[order.start:order.stop]
        in_stream_order = list(line_xs) == sorted(line_xs)   # (no NaN: finite coordinates)
        if not in_stream_order:
            order = late_marks(sorted(order, key=lambda i: (xs[i], i)), _same, xs.__getitem__,
                               ends.__getitem__, texts.__getitem__)
    else:
        order = late_marks(sorted((i for a, b in ranges for i in range(a, b)), key=lambda i: (xs[i], i)),
                           _same, xs.__getitem__, ends.__getitem__, texts.__getitem__)
    line = _pick(order, glyphs, texts, xs, ys, ends, sizes, metrics)
    # a fake-bold copy repeats the text of one of the two previous glyphs: only then look closer
    if ((repeats or not in_stream_order)
            and _may_repeat(line[1], line[2], line[3], line[4], line[5])):
        kept = drop_duplicates(line[0], dropped)
        if len(kept) != len(line[0]):
            keep = {id(g) for g in kept}
            order = [i for i, g in zip(order, line[0]) if id(g) in keep]
            line = _pick(order, glyphs, texts, xs, ys, ends, sizes, metrics)
            in_stream_order = False
    line_glyphs, _, starts, line_ys, line_ends, line_sizes, line_metrics = line
    n = len(order)
    pieces = [(0, n)]   # positions along the line of the segments it splits into
    # a stream run passed the gutter test glyph by glyph already (with the same sizes when
    # they are positive); a line put together otherwise is tested here
    if n > 1 and not (in_stream_order and min(line_sizes) > 0):
        widest = max(map(sub, starts[1:], line_ends))
        smallest = min(line_sizes)
        if not (smallest > 0 and widest <= SEGMENT_GAP_EM * smallest):
            pieces = []   # some gap may be a gutter: test each, as _finish does
            start = 0
            for k in range(1, n + 1):
                if k < n:
                    size = line_sizes[k] or box_height(line_glyphs[k])
                    if starts[k] - line_ends[k - 1] <= SEGMENT_GAP_EM * size:
                        continue
                pieces.append((start, k))
                start = k
    out: list[Segment] = []
    for p, q in pieces:
        whole = p == 0 and q == n
        keys = line_metrics if whole else line_metrics[p:q]
        piece_ys = line_ys if whole else line_ys[p:q]
        first = keys[0]
        if keys.count(first) == len(keys):
            # one font: the extremes of y give the box (rounding preserves order)
            best_h, v = first[0], piece_ys[0]
            top, bottom = min(piece_ys) - first[2], max(piece_ys) + first[3]
        else:
            piece_units = [m[0] for m in keys]
            best_h = max(piece_units)
            v = piece_ys[piece_units.index(best_h)]
            top = min([y - m[2] for y, m in zip(piece_ys, keys)])
            bottom = max([y + m[3] for y, m in zip(piece_ys, keys)])
        piece_ends = line_ends if whole else line_ends[p:q]
        size = max(0.0, max(line_sizes if whole else line_sizes[p:q]))
        out.append(Segment(
            glyphs=line_glyphs if whole else line_glyphs[p:q],
            starts=starts if whole else starts[p:q], ends=piece_ends,
            direction=HORIZONTAL, cos=1.0, sin=0.0, u0=starts[p], u1=max(piece_ends),
            v=v, top=top, bottom=bottom, size=size if size > 0 else best_h, height=best_h,
            order=min(order[p:q]),
        ))
    return out


def _same(i: int) -> int:
    """A glyph's stream position in upright_segments: its index in the page's columns."""
    return i


def _pick(order: range | list[int], *columns) -> list[list]:
    """Each column's values at the indices of `order` (slices when they are consecutive)."""
    if type(order) is range:
        a, b = order.start, order.stop
        return [list(column[a:b]) for column in columns]
    return [[column[i] for i in order] for column in columns]


def _may_repeat(texts: list[str], xs: list[float], ys: list[float], ends: list[float],
                sizes: list[float]) -> bool:
    """Could drop_duplicates drop anything? Only a glyph with the text of one of the two
    glyphs before it, at about the same place (until the first drop, the kept glyphs are
    the glyphs as they come)."""
    for step in (1, 2):
        for i in compress(range(step, len(texts)), map(eq, texts[step:], texts)):
            limit = duplicate_limit(sizes[i], ends[i - step] - xs[i - step])
            if abs(xs[i - step] - xs[i]) <= limit and abs(ys[i - step] - ys[i]) <= limit:
                return True
    return False


def _top_char(line_text: str) -> str:
    """max(line_text) where it matters: ASCII_TOP stands for it on an ASCII line."""
    return ASCII_TOP if line_text.isascii() else max(line_text)


def _uniform_breaks(glyphs: list[Glyph], starts: list[float], ends: list[float], ratio: float,
                    texts: tuple[str, ...], line_text: str, top_char: str,
                    spaces: list[int] | None = None, gaps: list[float] | None = None) -> list[bool]:
    """word_breaks for a line in one font (one text unit for every glyph) whose advance ends
    come in order along it (the furthest end is the previous glyph's): the same rules, with
    the gaps and their limit computed in whole-list operations rather than glyph by glyph.
    `gaps`: starts[1:] less ends, when the caller has them (UprightColumns.gaps)."""
    n = len(glyphs)
    if gaps is None:
        gaps = list(map(sub, starts[1:], ends))
    limit = ratio * text_unit(glyphs[0])
    if n - 1 >= TRACKING_MIN_GAPS:
        # gaps count from the line's own letter gap: tightened lines shift every gap
        typical = sorted(gaps)[(n - 1) // 2]
        if typical < 0.0:
            typical = max(typical, -TRACKING_MAX_EM * glyphs[0].size)
            gaps = [g - typical for g in gaps]
    breaks = [g > limit for g in gaps]
    cap = WIDE_GAP_EM * _em(glyphs[0], text_unit(glyphs[0]))
    if n - 1 >= LETTER_SPACED_MIN_GAPS and breaks.count(True) >= LETTER_SPACED_SHARE * (n - 1):
        typical = _letter_gap(texts, gaps, breaks)
        if typical is not None:
            # letter-spaced: spaces are the gaps clearly wider than the typical letter gap
            spaced = [g > typical + limit or g > cap for g in gaps]
            if not _overlong_word(texts, spaced):
                breaks = spaced
    if top_char >= FIRST_COMBINING:   # top_char: max(line_text), or ASCII_TOP (_top_char)
        _script_breaks(texts, breaks, gaps, cap)
    else:   # no CJK or cluster: only the whitespace glyphs break, on both sides (_script_breaks)
        last = n - 1
        for k in (whitespace_indices(texts, line_text) if spaces is None else spaces):
            if k:
                breaks[k - 1] = True
            if k < last:
                breaks[k] = True
    mark = leading_mark(glyphs)
    if mark:
        breaks[mark - 1] = True
    return breaks


def _uniform_words(glyphs: list[Glyph], breaks: list[bool], texts, line_text: str, xs, ys,
                   end_xs, fonts, flags, xs_ascending: bool = False, end_xs_ascending: bool = False) -> list[Word]:
    """The words of an upright horizontal line in one font, without right-to-left letters or
    pre-base vowel signs: each word's box comes from the extremes of its glyphs' positions.
    xs_ascending, end_xs_ascending: the caller knows they ascend (UprightColumns), so they are
    not tested again."""
    n = len(glyphs)
    first = glyphs[0]
    h = box_height(first)
    down = box_descent(first.descent, h)
    up = h - down
    size = first.size
    one_flag = flags.count(flags[0]) == n
    # on the usual line (one baseline, glyphs and advance ends in order) a word's first and
    # last glyph give its box; otherwise its extremes do
    ordered = (xs_ascending or list(xs) == sorted(xs)) and (end_xs_ascending or list(end_xs) == sorted(end_xs))
    flat = ys.count(ys[0]) == n
    y0 = ys[0] - up
    y1 = ys[0] + down
    cuts = list(compress(range(1, n), breaks))
    rest = WORD_DEFAULTS
    if one_flag and ordered and flat:
        # the usual line: a word is its first glyph's start to its last glyph's end
        flag = flags[0]
        if len(line_text) == n:   # one character per glyph: a word's text is a slice of the line's
            return [new_word(Word, (line_text[a:b], xs[a], y0, end_xs[b - 1], y1, size, fonts[a], flag) + rest)
                    for a, b in zip([0] + cuts, cuts + [n]) if b - a > 1 or not texts[a].isspace()]
        return [new_word(Word, ("".join(texts[a:b]), xs[a], y0, end_xs[b - 1], y1, size, fonts[a], flag) + rest)
                for a, b in zip([0] + cuts, cuts + [n]) if b - a > 1 or not texts[a].isspace()]
    words: list[Word] = []
    append = words.append
    for a, b in zip([0] + cuts, cuts + [n]):
        if b - a == 1 and texts[a].isspace():
            continue   # a whitespace glyph only separates (breaks surround every one)
        if one_flag:
            word_flags = flags[a]
        else:
            word_flags = 0
            for f in set(flags[a:b]):
                word_flags |= f
        if ordered:
            x0, x1 = xs[a], end_xs[b - 1]
        else:
            x0, x1 = min(xs[a:b]), max(end_xs[a:b])
        if not flat:
            # subtracting or adding one number preserves the order of the y values
            y0, y1 = min(ys[a:b]) - up, max(ys[a:b]) + down
        append(new_word(Word, ("".join(texts[a:b]), x0, y0, x1, y1, size, fonts[a], word_flags) + rest))
    return words


def _settled_uniform(words: list[Word], line_text: str) -> list[Word]:
    """words._settled for the words of _uniform_words, none of them empty: only settling soft
    hyphens can empty one."""
    return _settled(words, line_text) if SOFT_HYPHEN in line_text else words


def line_words(glyphs: list[Glyph], starts: list[float], ends: list[float], ratio: float,
               base_rtl: bool | None, columns) -> list[Word] | None:
    """build_words for a line in one font whose advance ends come in order along it and whose
    whitespace glyphs all separate words (the common line), or None for the general path.
    `columns`: the line's glyphs transposed."""
    n = len(glyphs)
    texts, xs, ys, end_xs, _, _, dxs, dys, heights, descents, sizes, fonts, flags, _ = columns
    if not (n > 1 and heights.count(heights[0]) == n and sizes.count(sizes[0]) == n
            and list(ends) == sorted(ends)):   # in order (no NaN: finite coordinates)
        return None
    line_text = "".join(texts)
    if _WHITESPACE.search(line_text) is not None and _word_spaces(texts, line_text, starts, ends, glyphs) is not None:
        return None   # some whitespace glyph is no word space: build_words drops it first
    top_char = _top_char(line_text)
    breaks = _uniform_breaks(glyphs, starts, ends, ratio, texts, line_text, top_char)
    if (top_char < FIRST_RTL and descents.count(descents[0]) == n
            and dys.count(0.0) == n and min(dxs) > 0.0):
        return _settled_uniform(_uniform_words(glyphs, breaks, texts, line_text, xs, ys, end_xs, fonts, flags),
                                line_text)
    return words_at_breaks(glyphs, breaks, line_text, base_rtl)


def _covered_space(texts, spaces: list[int], starts: list[float], ends: list[float],
                   glyphs: list[Glyph]) -> bool:
    """Is some whitespace glyph of a line whose starts and ends both ascend no word space (see
    words.SPACE_COVERED_SHARE)? In such a line no glyph before a whitespace glyph reaches
    further into it than the glyph next to it: look closer only when that one reaches in far
    enough, or when it starts elsewhere than that one's pen left off. `spaces`: their indices (cleanup.whitespace_indices)."""
    inside = SPACE_START_INSIDE_SHARE
    n = len(texts)
    for k in spaces:
        if k == 0:
            if _no_word_space(texts, starts, ends, 0, glyphs):
                return True
            continue
        s0 = starts[k]
        s1 = ends[k]
        width = s1 - s0
        reach = inside * width
        e = ends[k - 1]
        if width > 0.0 and not texts[k - 1].isspace():
            p0 = starts[k - 1]
            before = glyphs[k - 1]
            on_baseline = glyphs[k].y == before.y   # upright: the baseline is y (words._at_pen_of)
            if s0 == p0 + before.advance and e - s0 < reach and reach > 0.0 and on_baseline:
                continue
            # _no_word_space for this usual case, inline: it is a word space when little of it
            # lies on the glyph before it and it starts where that glyph's pen movement ended,
            # else when the glyphs on both sides cover less than SPACE_COVERED_SHARE of it
            covered = (s1 if s1 < e else e) - (s0 if s0 > p0 else p0)
            pen = SPACE_PEN_EM * glyphs[k].size
            if (covered < reach and abs(s0 - (p0 + before.advance)) <= pen
                    and abs(glyphs[k].y - before.y) <= pen):
                continue
            q = k + 1
            while q < n and texts[q].isspace():
                q += 1
            if q < n:
                after = (s1 if s1 < ends[q] else ends[q]) - (s0 if s0 > starts[q] else starts[q])
                if after > 0.0:
                    covered += after
            if covered >= SPACE_COVERED_SHARE * width:
                return True
            continue
        elif (reach > 0.0 and e - s0 < reach and s0 == starts[k - 1] + glyphs[k - 1].advance
              and glyphs[k].y == glyphs[k - 1].y):
            continue
        if _no_word_space(texts, starts, ends, k, glyphs):
            return True
    return False


def upright_words(glyphs: list[Glyph], starts: list[float], ends: list[float], columns: UprightColumns,
                  base_rtl: bool | None = None) -> list[Word]:
    """build_words for a segment of upright_segments (Segment.upright: one font, glyphs in
    order along the line, direction (1, 0)): the same rules, without transposing the glyphs."""
    texts = columns.texts
    # ends in order: tested when the segment was cut (UprightColumns.ends_ascending tells of end_xs,
    # the same numbers unless one was clamped)
    if len(glyphs) > 1 and (columns.ends_ascending or ends == sorted(ends)):
        line_text = "".join(texts)
        top_char = _top_char(line_text)
        if top_char >= FIRST_RTL:
            return build_words(glyphs, starts, ends, base_rtl=base_rtl)
        spaces = whitespace_indices(texts, line_text) if _WHITESPACE.search(line_text) is not None else []
        if not (spaces and _covered_space(texts, spaces, starts, ends, glyphs)):
            breaks = _uniform_breaks(glyphs, starts, ends, WORD_GAP_HEIGHTS, texts, line_text, top_char, spaces,
                                     columns.gaps)
            return _settled_uniform(_uniform_words(glyphs, breaks, texts, line_text, columns.xs, columns.ys,
                                                   columns.end_xs, columns.fonts, columns.flags,
                                                   True, columns.ends_ascending), line_text)   # xs ascend
    return build_words(glyphs, starts, ends, base_rtl=base_rtl)


def _font_set(fonts: tuple[str, ...]) -> frozenset:
    """frozenset(fonts); the usual segment names one font, told by counting (identity first)
    rather than hashing every glyph's."""
    first = fonts[0]
    return frozenset((first,)) if fonts.count(first) == len(fonts) else frozenset(fonts)


def make_line(seg: Segment, rtl: bool) -> blocks.TextLine:
    """blocks._make_line for one segment of upright_segments, from the columns it carries."""
    glyphs, starts, ends = seg.glyphs, seg.starts, seg.ends   # (lines never change them)
    line = blocks.TextLine(
        glyphs=glyphs, starts=starts, ends=ends, u0=seg.u0, u1=seg.u1, v=seg.v,
        top=seg.top, bottom=seg.bottom,
        size=glyphs[0].size,   # what blocks._text_size gives: one font, so one size
        fonts=_font_set(seg.upright.fonts), order=seg.order,
    )
    line.words = upright_words(glyphs, starts, ends, seg.upright, base_rtl=rtl or None)
    line.footnote_start = leading_mark(glyphs) > 0
    line.segs = [seg]
    return line
