"""Words: where one line's glyphs are cut into words.

A space goes where the gap from the furthest advance end so far (the font advance, not the
pen, which includes Tc/Tw: ISO 32000-1 §9.4.4; a zero-advance mark ends inside its base) to
the next glyph's origin exceeds
WORD_GAP_HEIGHTS × the box height of the glyph in the larger size (a superscript hangs on its
base), or between two glyphs of one size the smaller of their boxes (font boxes differ in
their extents, not in their spaces: a thin space after a math-italic comma before a roman
digit whose box is taller). Letter-spaced lines (every letter
apart) measure the word gap above the line's own typical letter gap instead. Whitespace glyphs
separate words and never add a second space, unless they take no room or are drawn over the
letters beside them (SPACE_COVERED_SHARE); two CJK characters (or a glyph that continues an
Indic cluster) never get a synthetic space (scripts.py). A gap wider than WIDE_GAP_EM is a
break whatever the line's spacing or script (table cells, grids). Lines with Hebrew or
Arabic, painted in visual order, are put back into logical order by UAX #9 (bidi.py).
"""
from __future__ import annotations

import re
from itertools import compress

from ..glyph import TEXT_RISE, Glyph
from .cleanup import whitespace_indices
from .lines import box_descent, box_height, text_unit
from .model import WORD_DEFAULTS, Word, new_word
from .scripts import (FIRST_COMBINING, FIRST_HANGUL, FIRST_RTL, PRE_BASE_VOWEL_SIGNS, SOFT_HYPHEN, is_hangul,
                      is_rtl, no_space_between, reorder_pre_base_vowels)

# Fraction of the glyph box height (≈ 1.2 em) above which a gap is a word space. A space is
# 0.25–0.33 em (0.2–0.28 box), kerning and tracking stay under 0.05 em; chosen by a corpus sweep.
WORD_GAP_HEIGHTS = 0.14
# Two glyphs whose sizes differ by at most this share are in one size (matrix rounding).
SAME_SIZE_SHARE = 0.01
# Between two sizes the larger box measures the gap when the smaller glyph is its script: lowered,
# or raised by at least this many of the larger size (superscripts rise 0.29–0.5 em: TeX's
# cramped 0.289, Word 0.33). A smaller text on the baseline or raised less (a quote's change
# "-0.11" 0.125 em up beside "12.14", a row beside a tall brace) is measured in its own box.
SCRIPT_MIN_RISE_EM = 0.25

# A line is letter-spaced when at least this share of its glyph gaps would be spaces
# ("S U M M A R Y"); ordinary lines have one space per 4–7 glyphs.
LETTER_SPACED_SHARE = 0.7
# ... and it has at least this many gaps, so two-letter words do not count.
LETTER_SPACED_MIN_GAPS = 4

# ... unless that reading would leave a run of more than this many letters with no word break:
# a line of single letters a word space apart ("à À â Â …", 28 letters 0.33 em apart) is no
# tracked word (tracked titles: "C O N F I D E N T I A L", 12). Only letters of scripts that
# space their words count (below U+0590: Latin, Greek, Cyrillic, Armenian); any other glyph
# ends the run (digits in comb fields, hyphens, space glyphs, CJK lines tracked as a whole).
LETTER_SPACED_MAX_WORD = 20
_SPACED_SCRIPTS_END = FIRST_RTL   # the spaced alphabets end where the right-to-left scripts begin

# ... counting only the gaps between two letters or digits: a dot leader ("Limitations . . . 13")
# spaces its dots a quarter em apart, which says nothing about the letters' spacing. Hangul
# counts as no letter here: its square glyphs, evenly spaced in a row, are a chart of jamo or
# syllables (0.44 em apart), while hangul text is spaced by its word gaps. Ideographs and kana
# count: a justified CJK line tracks them and its Latin words alike.
# A gap wider than this many font sizes (the larger of the two glyphs') is a word break whatever
# the line's own spacing or script: table cells and grids of characters ("à  á  â", 1.4 em; jamo
# tables; border digits hundreds of points apart) are not one word; letter-spaced titles track
# by 0.1-0.6 em and a segment already ends at 0.8 em (lines.SEGMENT_GAP_EM).
WIDE_GAP_EM = 1.0

# A whitespace glyph separates words where it stands in a gap. One drawn over the letters beside
# it (forms that pad a field with spaces painted on top of its text, "F orm", "1 8"; a padding
# space over the first digit of a right-aligned number, "8 51.5") is no word space when the
# glyphs on its two sides cover at least this share of its advance; one with no advance takes
# no room at all. Either way the gap between its neighbours decides. The spaces seen drawn
# over letters are covered entirely; tightened text (Tc -0.05 em on both sides of a 0.25 em
# space) covers 40 % of a real one.
SPACE_COVERED_SHARE = 0.8
# ... and it starts inside the glyph before it, by at least this share of its advance: a space
# that starts where the previous word ends is that word's own space, even when the next word
# is drawn over it (overlapping form fields, 0 %). Seen over letters: "an|nuities" 49 %, a
# larger space from the line above over "q|ue" 16 %, "F|orm" 100 %.
SPACE_START_INSIDE_SHARE = 0.1
# ... and it starts where that glyph's pen movement ended, within SPACE_PEN_EM of its size,
# along the line and across it (the pen is a point: a space of another text 0.34 em below the
# line can start where "con|server"'s "n" ended): a space from another text (a form's line
# number beside the line) that falls between two letters ("pa|rtnerships" 7 %, "li|nes" 6 %)
# started its own pen elsewhere.
SPACE_PEN_EM = 0.01


# Any character str.isspace() accepts (the re module uses the same Unicode test).
_WHITESPACE = re.compile(r"\s")

# Producers tighten whole lines (negative Tc): every letter gap shrinks alike, and word gaps
# with them. On lines with at least TRACKING_MIN_GAPS gaps, a negative median gap (the line's
# letter gap) is the zero gaps count from, trusted down to -TRACKING_MAX_EM font sizes.
# (Loose tracking is the letter-spaced case below.)
TRACKING_MIN_GAPS = 8
TRACKING_MAX_EM = 0.05

# A footnote opens with its number raised and smaller ("¹ The scheme…"): a word of its own.
# Raised means at least this many font sizes above the next glyph's baseline, smaller means
# below this share of its size (inline marks after a word, "scheme¹", stay glued).
FOOTNOTE_RAISE_EM = 0.15
FOOTNOTE_SIZE_RATIO = 0.85
FOOTNOTE_MARKS = frozenset("0123456789*†‡§¶")
FOOTNOTE_MAX_CHARS = 3


def leading_mark(glyphs: list[Glyph]) -> int:
    """How many glyphs at the start of a line form a raised footnote number (0 if none)."""
    n = len(glyphs)
    first = glyphs[0]
    k = 0
    # the mark's glyphs share the first one's size and baseline: the digits of a number in
    # the text's own size after it ("¹2021") are no part of it
    while (k < n and k < FOOTNOTE_MAX_CHARS and glyphs[k].text in FOOTNOTE_MARKS
           and glyphs[k].size == first.size and _across(glyphs[k]) == _across(first)):
        k += 1
    if k == 0 or k == n:
        return 0
    ref = glyphs[k]
    raise_ = _across(ref) - _across(first)
    if first.size < FOOTNOTE_SIZE_RATIO * ref.size and raise_ > FOOTNOTE_RAISE_EM * ref.size:
        return k
    return 0


def _across(g: Glyph) -> float:
    """The glyph's baseline position across its writing direction."""
    return g.y * g.dx - g.x * g.dy


def word_breaks(glyphs: list[Glyph], starts: list[float], ends: list[float],
                ratio: float = WORD_GAP_HEIGHTS) -> list[bool]:
    """For each glyph after the first: does a word space come before it?"""
    n = len(glyphs)
    if n < 2:
        return []
    gaps = [0.0] * (n - 1)
    limits = [0.0] * (n - 1)
    caps = [0.0] * (n - 1)
    prev_h = text_unit(glyphs[0])
    prev_em = _em(glyphs[0], prev_h)
    metrics = (glyphs[0].height, glyphs[0].size)
    h, em = prev_h, prev_em
    reach = ends[0]   # the furthest end so far: a mark with no advance ends inside its base
    for i in range(1, n):
        g = glyphs[i]
        if (g.height, g.size) != metrics:   # runs of one font repeat the unit
            metrics = (g.height, g.size)
            h = text_unit(g)
            em = _em(g, h)
        gaps[i - 1] = starts[i] - reach
        if ends[i] > reach:
            reach = ends[i]
        if abs(em - prev_em) <= SAME_SIZE_SHARE * (em if em > prev_em else prev_em):
            limits[i - 1] = ratio * (h if h < prev_h else prev_h)   # one size, two fonts' boxes
        elif _beside(glyphs[i - 1], g, prev_em, em):
            limits[i - 1] = ratio * (h if h < prev_h else prev_h)   # two sizes side by side
        else:
            limits[i - 1] = ratio * (h if em > prev_em else prev_h)   # a script hangs on its base
        caps[i - 1] = WIDE_GAP_EM * (em if em > prev_em else prev_em)
        prev_h, prev_em = h, em
    if n - 1 >= TRACKING_MIN_GAPS:
        # gaps count from the line's own letter gap: tightened lines shift every gap
        typical = sorted(gaps)[(n - 1) // 2]
        if typical < 0.0:
            typical = max(typical, -TRACKING_MAX_EM * glyphs[0].size)
            gaps = [g - typical for g in gaps]
    breaks = [g > lim for g, lim in zip(gaps, limits)]
    texts = [g.text for g in glyphs]
    if n - 1 >= LETTER_SPACED_MIN_GAPS and breaks.count(True) >= LETTER_SPACED_SHARE * (n - 1):
        typical = _letter_gap(texts, gaps, breaks)
        if typical is not None:
            # letter-spaced: spaces are the gaps clearly wider than the typical letter gap
            spaced = [g > typical + lim or g > cap for g, lim, cap in zip(gaps, limits, caps)]
            if not _overlong_word(texts, spaced):
                breaks = spaced
    _script_breaks(texts, breaks, gaps, caps)
    mark = leading_mark(glyphs)
    if mark:
        breaks[mark - 1] = True
    return breaks


def _beside(a: Glyph, b: Glyph, em_a: float, em_b: float) -> bool:
    """Is the smaller of two glyphs in different sizes set beside the larger, not as its
    superscript or subscript: on its baseline or raised by less than SCRIPT_MIN_RISE_EM?"""
    small, large, em = (b, a, em_a) if em_b < em_a else (a, b, em_b)
    rise = _across(large) - _across(small)   # across grows down the page: raised is positive
    return 0.0 <= rise < SCRIPT_MIN_RISE_EM * em and not small.flags & TEXT_RISE


def _em(g: Glyph, unit: float) -> float:
    """The glyph's font size, or its text unit when the size is not positive."""
    return g.size if g.size > 0 else unit


def _letter_gap(texts, gaps: list[float], breaks: list[bool]) -> float | None:
    """The typical gap between two letters (or digits) of a letter-spaced line, or None when
    the line is not letter-spaced: most of those gaps are not word spaces (LETTER_SPACED_*)."""
    letters = [_spaced_letter(t[-1]) for t in texts]
    firsts = letters if len("".join(texts)) == len(texts) else [_spaced_letter(t[0]) for t in texts]
    pairs = [a and b for a, b in zip(letters, firsts[1:])]
    letter_gaps = list(compress(gaps, pairs))
    if len(letter_gaps) < LETTER_SPACED_MIN_GAPS:
        return None
    spaced = list(compress(breaks, pairs))
    if spaced.count(True) < LETTER_SPACED_SHARE * len(letter_gaps):
        return None
    return sorted(letter_gaps)[len(letter_gaps) // 3]


def _overlong_word(texts, breaks: list[bool]) -> bool:
    """Does a run of more than LETTER_SPACED_MAX_WORD letters go without a word break? A glyph
    that is no letter of a space-separated script ends the run."""
    run = 0
    for i, t in enumerate(texts):
        if i and breaks[i - 1] or not t.isalpha() or t >= _SPACED_SCRIPTS_END:
            run = 0
        else:
            run += len(t)
            if run > LETTER_SPACED_MAX_WORD:
                return True
    return False


def _spaced_letter(ch: str) -> bool:
    """A letter or decimal digit that tells a line's letter spacing (any but hangul; circled
    and other symbol numbers are a chart's symbols, not a tracked word's letters)."""
    return (ch.isalpha() or ch.isdecimal()) and (ch < FIRST_HANGUL or not is_hangul(ch))


def _script_breaks(texts, breaks: list[bool], gaps: list[float], caps) -> None:
    """Whitespace glyphs separate words by themselves; CJK and clusters take no space unless
    the gap is wider than the cap (`caps`: one per gap, or one for the line)."""
    n = len(texts)
    for i in range(1, n):
        a = texts[i - 1]
        b = texts[i]
        if a.isspace() or b.isspace():
            breaks[i - 1] = True      # the whitespace glyph itself separates; no extra space
        elif breaks[i - 1] and (a[-1] >= FIRST_COMBINING or b[0] >= FIRST_COMBINING) and no_space_between(a, b):
            # CJK, or a cluster continuing (scripts.py), unless the gap is a table's
            breaks[i - 1] = gaps[i - 1] > (caps if type(caps) is float else caps[i - 1])


def build_words(glyphs: list[Glyph], starts: list[float], ends: list[float],
                ratio: float = WORD_GAP_HEIGHTS, base_rtl: bool | None = None,
                columns: list[tuple] | None = None) -> list[Word]:
    """Cut one line (glyphs sorted along it) into words, in logical reading order.

    `base_rtl` True reads a line that holds right-to-left text with a right-to-left base
    direction (a mostly-Latin line of a Hebrew page); None lets the line's letters decide.
    `columns` is list(zip(*glyphs)) when the caller has it."""
    if not glyphs:
        return []
    columns = columns or list(zip(*glyphs))
    if _upright.FAST_PATHS:   # the switch (see _upright)
        words = _upright.line_words(glyphs, starts, ends, ratio, base_rtl, columns)
        if words is not None:
            return words
    line_text = "".join(columns[0])
    if len(glyphs) > 1 and _WHITESPACE.search(line_text) is not None:
        keep = _word_spaces(columns[0], line_text, starts, ends, glyphs)
        if keep is not None:
            glyphs, starts, ends = _kept(keep, glyphs, starts, ends)
            return build_words(glyphs, starts, ends, ratio, base_rtl)
    return words_at_breaks(glyphs, word_breaks(glyphs, starts, ends, ratio), line_text, base_rtl)


def words_at_breaks(glyphs: list[Glyph], breaks: list[bool], line_text: str,
                    base_rtl: bool | None = None) -> list[Word]:
    """The words of a line cut at its word breaks, in logical reading order (build_words)."""
    if any(g.text[0] >= FIRST_RTL and is_rtl(g.text[0]) for g in glyphs):
        # right-to-left text is painted in visual order: UAX #9 gives the reading order
        from ..bidi import logical_words   # here: the bidi tables are loaded by the first right-to-left line

        starts_word = [False] + breaks
        words = [_word([glyphs[i] for i in indices], text)
                 for indices, text in logical_words([g.text for g in glyphs], starts_word, base_rtl)]
    else:
        words = [_word(grp) for grp in split_at_breaks(glyphs, breaks)]
    return _settled(words, line_text)


def _word_spaces(texts, line_text: str, starts: list[float], ends: list[float],
                 glyphs: list[Glyph]) -> list[bool] | None:
    """Which glyphs to keep when the line has whitespace glyphs that are no word space (see
    SPACE_COVERED_SHARE); None when every whitespace glyph separates (the usual line)."""
    n = len(texts)
    keep = None
    for k in whitespace_indices(texts, line_text):
        if _no_word_space(texts, starts, ends, k, glyphs):
            if keep is None:
                keep = [True] * n
            keep[k] = False
    return keep


def _no_word_space(texts, starts: list[float], ends: list[float], k: int, glyphs: list[Glyph]) -> bool:
    """Is whitespace glyph k no word space: no advance, or drawn over the glyphs beside it
    (starting inside the one before it, or elsewhere than its pen left off)?"""
    s0, s1 = starts[k], ends[k]
    width = s1 - s0
    if width <= 0.0:
        return True
    n = len(texts)
    p = k - 1
    while p >= 0 and texts[p].isspace():
        p -= 1
    if p < 0:
        return False   # nothing before it to be drawn over
    covered = min(s1, ends[p]) - max(s0, starts[p])
    if covered < SPACE_START_INSIDE_SHARE * width and _at_pen_of(glyphs[k], s0, glyphs[p], starts[p]):
        return False   # it starts where the glyph before it ends (or after): a word space
    q = k + 1
    while q < n and texts[q].isspace():
        q += 1
    if q < n:
        covered += max(0.0, min(s1, ends[q]) - max(s0, starts[q]))
    return covered >= SPACE_COVERED_SHARE * width


def _at_pen_of(space: Glyph, start: float, glyph: Glyph, glyph_start: float) -> bool:
    """Does a whitespace glyph start where the pen stood after the glyph before it (SPACE_PEN_EM),
    on that glyph's baseline?"""
    tolerance = SPACE_PEN_EM * space.size
    return (abs(start - (glyph_start + glyph.advance)) <= tolerance
            and abs(_across(space) - _across(glyph)) <= tolerance)


def _kept(keep: list[bool], glyphs, starts, ends) -> tuple[list[Glyph], list[float], list[float]]:
    return list(compress(glyphs, keep)), list(compress(starts, keep)), list(compress(ends, keep))


def without_covered_spaces(glyphs: list[Glyph], starts: list[float], ends: list[float]):
    """The line without its whitespace glyphs that are no word space (what build_words reads)."""
    texts = [g.text for g in glyphs]
    keep = _word_spaces(texts, "".join(texts), starts, ends, glyphs)
    return (glyphs, starts, ends) if keep is None else _kept(keep, glyphs, starts, ends)


def split_at_breaks(glyphs: list[Glyph], breaks: list[bool]) -> list[list[Glyph]]:
    """Glyph groups between word breaks (breaks[i] lies between glyph i and i + 1); whitespace glyphs dropped."""
    groups: list[list[Glyph]] = []
    current: list[Glyph] = []
    for i, g in enumerate(glyphs):
        if i and breaks[i - 1] and current:
            groups.append(current)
            current = []
        if not g.text.isspace():
            current.append(g)
    if current:
        groups.append(current)
    return groups


def _settled(words: list[Word], line_text: str) -> list[Word]:
    """A line's words with its soft hyphens settled and the words left empty dropped."""
    if SOFT_HYPHEN in line_text:   # (every word's text is made of the line's characters)
        _soft_hyphens(words)
    return [w for w in words if w.text]


def _soft_hyphens(words: list[Word]) -> None:
    last = len(words) - 1
    for i, w in enumerate(words):
        if SOFT_HYPHEN in w.text:
            # a soft hyphen is only visible (and only matters) at the end of the line
            body = w.text.rstrip(SOFT_HYPHEN).replace(SOFT_HYPHEN, "")
            words[i] = w._replace(text=body + SOFT_HYPHEN if (i == last and w.text.endswith(SOFT_HYPHEN) and body)
                               else body)


def _word(glyphs: list[Glyph], text: str | None = None) -> Word:
    first = glyphs[0]
    if text is None:
        texts = [g.text for g in glyphs]
        for t in texts:
            if t in PRE_BASE_VOWEL_SIGNS:
                # ि is painted before क but stored after it (scripts.py)
                texts = reorder_pre_base_vowels(texts)
                break
        text = "".join(texts)
    flags = 0
    x0 = y0 = float("inf")
    x1 = y1 = float("-inf")
    metrics = None   # (height, size, descent) of the previous glyph: runs of one font repeat it
    for g in glyphs:
        flags |= g.flags
        if metrics != (g.height, g.size, g.descent):
            metrics = (g.height, g.size, g.descent)
            h = box_height(g)
            d = box_descent(g.descent, h)
        if g.dy == 0.0 and g.dx > 0.0:
            # upright horizontal text (the common case): the box is origin..end by ascent..descent
            if g.x < x0:
                x0 = g.x
            if g.end_x > x1:
                x1 = g.end_x
            if g.y - (h - d) < y0:
                y0 = g.y - (h - d)
            if g.y + d > y1:
                y1 = g.y + d
            continue
        # corners of the glyph box: origin/end along the baseline, raised by the ascent
        nx, ny = g.dy, -g.dx  # normal pointing "up" from the baseline in viewer space
        up = h - d
        for px, py in ((g.x, g.y), (g.end_x, g.end_y)):
            for k in (up, -d):
                cx = px + nx * k
                cy = py + ny * k
                if cx < x0:
                    x0 = cx
                if cx > x1:
                    x1 = cx
                if cy < y0:
                    y0 = cy
                if cy > y1:
                    y1 = cy
    return new_word(Word, (text, x0, y0, x1, y1, first.size, first.font, flags) + WORD_DEFAULTS)


from . import _upright   # noqa: E402  the switch's fast module builds on this one: imported last
