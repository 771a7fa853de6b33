"""Paragraphs: where a flow of lines (top to bottom) is cut into blocks.

A new block starts at a line when
- the baseline step from the previous line exceeds PARAGRAPH_GAP_RATIO × the median line
  pitch for that text size (page statistics, or the document's on pages with few lines),
  or that pitch plus PARAGRAPH_GAP_EXTRA_EM (less what superscripts or a taller fallback
  font add to the line boxes);
- the font size changes, or the two lines share no font (a bold heading over body text);
- the line is indented against the flow's left edge while the previous line is not, or the
  previous line was a paragraph's continuation and this one is outdented;
- the previous line is centred in the flow and this one is not (a centred heading);
- the previous line is a short CJK line ending a sentence;
- the line starts a list item (a number, letter or roman numeral with '.' or ')', a
  bullet, or one character in a symbol font; unless the previous line runs on into it) or a footnote (a raised number).
Right-to-left flows are judged in a mirror: their lines start at the right edge.
"""
from __future__ import annotations

from dataclasses import replace

from .blocks import LIST_MARKER, SYMBOL_FONT, TextLine
from .model import WORD_TEXT
from .scripts import FIRST_RTL, is_rtl

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

# A full line ending in none of these runs on into the next line ("… ein einziger Fachbegriff"
# / "– etwa …"): a list marker cannot follow it.
RUN_ON_STOPS = frozenset(".:;!?")

# CJK text sets every line of a paragraph on a full character grid except the last: a line
# that ends in a sentence stop more than this many font sizes short of the flow's end closes
# its paragraph even where the line pitch cannot tell (one line per paragraph).
CJK_STOPS = frozenset("。！？")
CJK_SHORT_LINE_EM = 2.0

# A line is centred (a heading such as "I" or "Chapter 2") when both its margins to the flow's
# edges exceed CENTRED_MIN_MARGIN_EM and differ by at most CENTRED_EM (font sizes): an indented
# first line or a line beside a wider neighbour has one small margin or two unequal ones.
CENTRED_MIN_MARGIN_EM = 2.0
CENTRED_EM = 0.5

# Pitch statistics ignore steps larger than this many font sizes (paragraph and section gaps).
MAX_PITCH_EM = 2.5

# Fewer line pitches than this on a page: trust the document's statistics instead.
MIN_PAGE_PITCHES = 4

# Two steps within this share of each other are the same line pitch (page of few lines).
PITCH_AGREEMENT = 0.05

# Share of baseline steps below the typical line pitch (see line_pitch).
PITCH_QUANTILE = 0.3

# Default pitch when nothing is known: typical leading is 1.15–1.25 × the font size.
DEFAULT_PITCH_EM = 1.2



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


def counted_line_pitch(counts: dict[float, int]) -> float:
    """line_pitch of the steps counted in `counts` (step → how many times it was met): the same
    element of the same order, found by walking the distinct steps (a long document has
    thousands of steps of a few values)."""
    place = int(PITCH_QUANTILE * (sum(counts.values()) - 1))
    for step in sorted(counts):
        place -= counts[step]
        if place < 0:
            return step
    raise ValueError("no steps counted")


class PitchTable:
    """The line pitch per text size: the page's own, else the document's, else a default."""

    def __init__(self, page: dict[int, list[float]], document: dict[int, float] | None = None,
                 vertical: dict[int, list[float]] | None = None):
        self.page = {k: line_pitch(v) for k, v in page.items() if len(v) >= MIN_PAGE_PITCHES}
        # Vertical columns stand 1.5–2.5 em apart, far from the horizontal default: with too few
        # steps for statistics, a step that repeats is their pitch. (Horizontal one-line
        # paragraphs repeat their step too, so horizontal text keeps the default.)
        self.repeated = {k: p for k, p in ((k, _repeated_step(v)) for k, v in (vertical or {}).items())
                         if p is not None}
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
        if key in self.repeated:
            return self.repeated[key]
        if self.page_any is not None and self.page:
            # scale the page's pitch by the size ratio of its most common size
            ref_key = max(self.page, key=lambda k: k)
            return self.page[ref_key] * key / ref_key if ref_key else DEFAULT_PITCH_EM * size
        return DEFAULT_PITCH_EM * size


def _repeated_step(steps: list[float]) -> float | None:
    """The smallest step when the two smallest agree (two lines apart by the same pitch)."""
    if len(steps) < 2:
        return None
    first, second = sorted(steps)[:2]
    return first if second - first <= PITCH_AGREEMENT * second else None


def split_paragraphs(lines: list[TextLine], pitches: PitchTable) -> list[list[TextLine]]:
    """Cut one flow into paragraphs (blocks)."""
    if not lines:
        return []
    view = _mirrored(lines) if _right_to_left(lines) else lines
    left = min(line.u0 for line in view)
    right = max(line.u1 for line in view)
    above, below = _usual_extents(view)
    blocks: list[list[TextLine]] = [[lines[0]]]
    list_text_start: float | None = _list_text_start(view[0])
    for k in range(1, len(view)):
        prev, line = view[k - 1], view[k]
        current = blocks[-1]
        # a line box grows by content that reaches past the usual extents of its text
        # (superscripts, a fallback font with a taller box): the step grows with it
        growth = max(0.0, (prev.bottom - prev.v) - below.get(size_key(prev.size), 0.0)) \
            + max(0.0, (line.v - line.top) - above.get(size_key(line.size), 0.0))
        if (_starts_paragraph(prev, line, current, left, right, pitches, list_text_start, growth)
                or (_centred(prev, left, right) and not _centred(line, left, right))):
            blocks.append([lines[k]])
            list_text_start = _list_text_start(line)
        else:
            current.append(lines[k])
    return blocks


def continues_below(before: list[TextLine], after: list[TextLine], pitches: PitchTable) -> bool:
    """Does a flow that starts straight below another paragraph continue it? (A band's edge
    can cut a column in two: the same paragraph rules then apply across the cut.)"""
    prev, line = before[-1], after[0]
    if line.v <= prev.v or line.u0 >= prev.u1 or prev.u0 >= line.u1:
        return False   # not below, or not overlapping along the line
    left = min(min(t.u0 for t in before), line.u0)
    right = max(max(t.u1 for t in before), line.u1)
    return not _starts_paragraph(prev, line, before, left, right, pitches, None)


def _usual_extents(lines: list[TextLine]) -> tuple[dict[int, float], dict[int, float]]:
    """Per text size, the median extent of the flow's lines above and below their baseline."""
    ups: dict[int, list[float]] = {}
    downs: dict[int, list[float]] = {}
    for line in lines:
        key = size_key(line.size)
        ups.setdefault(key, []).append(line.v - line.top)
        downs.setdefault(key, []).append(line.bottom - line.v)
    return ({k: median(v) for k, v in ups.items()}, {k: median(v) for k, v in downs.items()})


def _right_to_left(lines: list[TextLine]) -> bool:
    """Are most of the flow's words in a right-to-left script (Hebrew, Arabic)?"""
    if max([max(map(WORD_TEXT, line.words), default="") for line in lines], default="") < FIRST_RTL:
        return False   # no word starts at or past the first right-to-left letter (the greatest text's first does not)
    rtl = total = 0
    for line in lines:
        for w in line.words:
            total += 1
            if w.text[:1] >= FIRST_RTL and is_rtl(w.text[0]):
                rtl += 1
    return 2 * rtl > total


def _mirrored(lines: list[TextLine]) -> list[TextLine]:
    """The flow seen in a mirror, so that a right-to-left line's start is on the left."""
    return [replace(line, u0=-line.u1, u1=-line.u0,
                    starts=[-e for e in reversed(line.ends)], ends=[-s for s in reversed(line.starts)])
            for line in lines]


def _starts_paragraph(prev: TextLine, line: TextLine, current: list[TextLine], left: float,
                      right: float, pitches: PitchTable, list_text_start: float | None,
                      growth: float = 0.0) -> bool:
    size = max(prev.size, line.size)
    if abs(prev.size - line.size) > SIZE_CHANGE_RATIO * size:
        return True
    pitch = pitches.pitch(line.size)
    step = line.v - prev.v - growth
    if step > PARAGRAPH_GAP_RATIO * pitch or step > pitch + PARAGRAPH_GAP_EXTRA_EM * line.size:
        return True
    if (not (prev.fonts & line.fonts) and len(prev.fonts) <= MAX_STYLE_FONTS
            and len(line.fonts) <= MAX_STYLE_FONTS):
        return True
    if line.footnote_start or (_is_list_item(line) and not _runs_on(prev, right)):
        return True
    if prev.u1 < right - CJK_SHORT_LINE_EM * prev.size and prev.text[-1:] in CJK_STOPS:   # (the text joined last)
        return True  # CJK fills every line of a paragraph to the measure but the last
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


def _runs_on(line: TextLine, right: float) -> bool:
    """Does the sentence run on past this line: it fills the flow's width and ends without a
    stop? Then a dash or number that opens the next line is text, not a list marker."""
    return line.u1 >= right - ALIGN_EM * line.size and line.text[-1:] not in RUN_ON_STOPS


def _centred(line: TextLine, left: float, right: float) -> bool:
    em = line.size
    margin = line.u0 - left
    other = right - line.u1
    return (margin > CENTRED_MIN_MARGIN_EM * em and other > CENTRED_MIN_MARGIN_EM * em
            and abs(margin - other) <= CENTRED_EM * em)


def _is_list_item(line: TextLine) -> bool:
    if len(line.words) < 2:
        return False
    first = line.words[0]
    return LIST_MARKER.match(first.text) is not None or (len(first.text) == 1 and bool(SYMBOL_FONT.search(first.font)))


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
