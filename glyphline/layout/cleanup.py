"""Cleanup: make each glyph's text what a reader sees, and drop painted-twice duplicates.

Three passes, all linear:
- `clean_glyph_text` runs on the raw glyph list (stream order): expands typographic ligatures
  from a safe list, folds Arabic, Hebrew and vertical presentation forms to the letters and
  punctuation they draw (scripts.py), removes zero-width and bidi control characters, and
  drops glyphs whose text becomes empty. Soft hyphens stay: only the dehyphenation rule knows whether one at a
  line end matters; inside a word they are removed when the word is built (see words.py).
- `drop_stray_spaces` (stream order too) drops the whitespace glyphs no text flows through: one
  drawn back over the text before it with nothing after it (a justified line's trailing space
  painted last, inside a word), or one between two letters that go on from each other.
- `drop_duplicates` runs on one line's glyphs once they are sorted along the line, where a
  fake-bold or drop-shadow copy sits right next to its original.
- `attach_accents` then folds a spacing accent drawn over a letter (TeX's \\~H, \\^P, \\'e) into
  that letter as a combining mark: one word "H̃", not "H˜" or "H ˜".
"""
from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from itertools import accumulate, compress, repeat
from operator import add, gt, itemgetter, sub

from ..glyph import DUPLICATE, DropLog, Glyph
from .scripts import normalize_presentation_forms

# U+FB00–FB06 only: full NFKC "converts too many things" (PDFBox); these are safe to expand.
LIGATURES = {
    "\ufb00": "ff",
    "\ufb01": "fi",
    "\ufb02": "fl",
    "\ufb03": "ffi",
    "\ufb04": "ffl",
    "\ufb05": "st",   # long s + t
    "\ufb06": "st",
}

# Invisible format characters that only steer rendering (zero-width and bidi controls).
CONTROL_CHARS = frozenset(
    "\u200b\u200c\u200d\u200e\u200f"      # zero-width space/non-joiner/joiner, LRM, RLM
    "\u202a\u202b\u202c\u202d\u202e"      # bidi embeddings and overrides
    "\u2060\u2061\u2062\u2063\u2064"      # word joiner, invisible operators
    "\u2066\u2067\u2068\u2069"            # bidi isolates
    "\ufeff"                              # BOM / zero-width no-break space
    "\x00"
)

# A copy of the previous glyph closer than this (in font sizes, along and across the line) is a
# fake-bold or shadow duplicate: poppler's dupMaxSecDelta; real neighbours are a full advance apart.
DUPLICATE_MAX_DISTANCE_EM = 0.2
# ... and closer than this share of the glyph's own advance: a duplicate is the same glyph drawn
# again at (almost) its origin. Fake bold shifts by 0.02-0.05 em (a narrow "l" or "i" is 0.22-0.28
# em wide, so under a quarter of it); a genuine double letter sits a whole advance on, less a
# kern: tightly kerned Verdana draws the second "l" of "follows" 0.19 em (0.84 of its advance)
# after the first, and a Type3 font whose size disagrees with its glyphs (PDFlib: size 58, "c"
# 6.3 pt wide) makes 0.2 em wider than any letter.
DUPLICATE_MAX_ADVANCE_SHARE = 0.5

# A whitespace glyph whose pen stepped back along its line past the origin of the last glyph with
# ink before it, by more than this many font sizes (kerning stays under 0.15 em; lines.OVERDRAW_EM
# is the same step for text drawn over text), and after which no glyph continues from its pen, is
# no word space: a justified line's trailing space painted last, at the place where the line
# would end unjustified, inside a word ("organis me": 0.02 em off the s's pen, over 62 % of the m).
SPACE_DRAWN_BACK_EM = 0.5
# ... on that glyph's baseline, and with the next glyph's origin at its pen, within this many sizes.
SPACE_DRAWN_BACK_PEN_EM = 0.01
# ... looking back past at most this many whitespace glyphs for the glyph with ink.
SPACE_DRAWN_BACK_LOOKBACK = 4
# ... and not touching, within this many sizes, the origin of that glyph or the end of the glyph
# after it: right-to-left text drawn in logical order steps back from glyph to glyph, each space
# ending where the letter before it starts (a kern stays under 0.05 em).
SPACE_DRAWN_BACK_TOUCH_EM = 0.05
# A whitespace glyph drawn between two glyphs of one baseline in the stream, when the second
# starts within this many font sizes of where the first left the pen (kerning and tracking stay
# under 0.05 em: TRACKING_MAX_EM), and nearer it than to the space's own pen, is no word space:
# the letters go on from each other past it. A form filled by Word paints a row of padding spaces
# interleaved with the end of "obligatoi|r|e" (each letter 0.03 em after the one before's pen,
# the spaces 0.05 em back inside it); a space whose pen the next letter starts from is a word's.
SPACE_OFF_FLOW_EM = 0.05
# ... when the space itself starts back inside that letter (before the end of its advance), more
# than this many sizes before its pen: a word's space the next word is set back over
# ("authority|that's", an OCR layer's "K|уплате", a space before a dot leader 0.009 em after the
# pen) is the text's own; the padding spaces start 0.06-0.14 em back.
SPACE_OFF_PEN_EM = 0.03
# Positions are rounded by the producers (a space 0.002 pt inside the letter before it, which
# ends where the space starts): a space counts as starting back inside a glyph only when it
# starts more than this many points before the glyph's end (under SPACE_OFF_PEN_EM of a 1 pt font).
ROUNDING_PT = 0.02

# Spacing accents that fonts draw over a letter, and the combining marks they stand for.
SPACING_ACCENTS = {
    "\u02dc": "\u0303",   # small tilde
    "\u02c6": "\u0302",   # circumflex
    "\u00a8": "\u0308",   # diaeresis
    "\u00b4": "\u0301",   # acute
    "\u0060": "\u0300",   # grave
    "\u02c7": "\u030c",   # caron
    "\u00af": "\u0304",   # macron
    "\u02d8": "\u0306",   # breve
    "\u02d9": "\u0307",   # dot above
    "\u02da": "\u030a",   # ring above
    "\u02dd": "\u030b",   # double acute
}

# An accent sits on a letter when their extents along the line overlap by at least this share
# of the accent's own width (accents are centred over their letter; a neighbour only touches).
ACCENT_OVERLAP = 0.5

# Accents sit on letters, digits and symbols (x̃, ∪̇), never on punctuation or spaces.
ACCENT_BASES = frozenset("LNS")

# Presentation forms (U+FB1D–FEFE: Hebrew and Arabic forms, vertical forms) are folded.
_FORMS_LOW, _FORMS_HIGH = "\ufb1d", "\ufefe"

_SPECIAL = frozenset(LIGATURES) | CONTROL_CHARS

_X, _END_X = itemgetter(1), itemgetter(3)   # Glyph.x, Glyph.end_x
_WHITESPACE = re.compile(r"\s")   # str.isspace(): the glyphs words.py reads as spaces
_OTHER_WHITESPACE = re.compile(r"[^\S ]")   # any of those but U+0020
# Any character that clean_glyph_text would change: a page without one skips the per-glyph pass.
_NEEDS_CLEANING = re.compile("[" + re.escape("".join(sorted(_SPECIAL))) + _FORMS_LOW + "-" + _FORMS_HIGH + "]")


def _clean_text(text: str) -> str:
    text = "".join(LIGATURES.get(ch, ch) for ch in text if ch not in CONTROL_CHARS)
    return normalize_presentation_forms(text)


def clean_glyph_text(glyphs: list[Glyph], texts: list[str] | None = None) -> list[Glyph]:
    """Return the glyphs with ligatures expanded and control characters removed.

    `texts` are the glyphs' texts when the caller has them (one pass fewer)."""
    if texts is None:
        texts = [g.text for g in glyphs]
    joined = "".join(texts)
    hits = [m.start() for m in _NEEDS_CLEANING.finditer(joined)]
    has_empty = "" in texts
    if not hits and not has_empty:
        return glyphs   # the common page: nothing to expand, fold or remove
    if len(joined) == len(texts) and not has_empty:
        indices = hits   # one character per glyph: offsets are indices
    else:
        ends = list(accumulate(map(len, texts)))   # where each glyph's text ends in `joined`
        indices = sorted({bisect_right(ends, offset) for offset in hits})
    out: list[Glyph | None] = list(glyphs)
    for i in indices:
        cleaned = _clean_text(texts[i])
        out[i] = _with_text(glyphs[i], cleaned) if cleaned else None
        has_empty = has_empty or not cleaned
    if has_empty:
        return [g for g, text in zip(out, texts) if g is not None and text]
    return out


def whitespace_indices(texts, line_text: str) -> list[int]:
    """The indices of the whitespace glyphs of a line or page (line_text: their texts joined)."""
    if len(line_text) == len(texts):   # one character per glyph (clean_glyph_text leaves no empty text): offsets are indices
        return [m.start() for m in _WHITESPACE.finditer(line_text)]
    return [i for i, t in enumerate(texts) if t.isspace()]


def drop_stray_spaces(glyphs: list[Glyph], text: str, texts: list[str]) -> list[Glyph]:
    """The glyphs (stream order; `texts` their texts, `text` those joined) without the whitespace
    glyphs that no text flows through: drawn back over the text before them and continued by
    nothing (SPACE_DRAWN_BACK_EM), or drawn between two letters the second of which goes on from
    the first (SPACE_OFF_FLOW_EM)."""
    if _WHITESPACE.search(text) is None:
        return glyphs   # (TeX's pages: no space glyphs at all)
    n = len(glyphs)
    if len(text) == n and _OTHER_WHITESPACE.search(text) is None:   # the usual page: U+0020 only, found without match objects
        parts = text.split(" ")
        spaces = list(accumulate(map(add, map(len, parts), repeat(1)), initial=-1))[1:-1]
    else:
        spaces = whitespace_indices(texts, text)
    # both rules look at spaces that start back inside the glyph before them, before the end of
    # its advance (ROUNDING_PT; the usual space starts at its pen, or after it in justified
    # text): only those are looked at, found with whole-list operations along x (a space of text
    # in another direction is looked at whenever its x is less)
    before = map(glyphs.__getitem__, map(sub, spaces, repeat(1)))   # (index -1 for k = 0: no rule drops it)
    back = map(sub, map(_END_X, before), map(_X, map(glyphs.__getitem__, spaces)))
    candidates = list(compress(spaces, map(gt, back, repeat(ROUNDING_PT))))
    if not candidates:
        return glyphs
    drop = [k for k in candidates if _off_the_flow(glyphs, k, n) or _drawn_back(glyphs, k, n)]
    if not drop:
        return glyphs
    stray = set(drop)
    return [g for i, g in enumerate(glyphs) if i not in stray]


def _off_the_flow(glyphs: list[Glyph], k: int, n: int) -> bool:
    """Is whitespace glyph k, drawn back inside the glyph before it (SPACE_OFF_PEN_EM), between two
    glyphs with ink on its baseline, the second of which starts where the first left the pen
    (SPACE_OFF_FLOW_EM), nearer than where the space did?"""
    if k == 0 or k + 1 >= n:
        return False
    p, s, q = glyphs[k - 1], glyphs[k], glyphs[k + 1]
    dx, dy = s.dx, s.dy
    if p.text.isspace() or q.text.isspace() or p.dx != dx or p.dy != dy or q.dx != dx or q.dy != dy:
        return False
    size = s.size if s.size > 0.0 else p.size
    pen = p.x * dx + p.y * dy + p.advance
    start = s.x * dx + s.y * dy
    if start >= pen - SPACE_OFF_PEN_EM * size or start >= p.end_x * dx + p.end_y * dy - ROUNDING_PT:
        return False   # the space goes on from the letter: the text's own, kerned over or not
    u = q.x * dx + q.y * dy
    from_letter = abs(u - pen)
    if from_letter > SPACE_OFF_FLOW_EM * size or from_letter >= abs(u - (s.x * dx + s.y * dy + s.advance)):
        return False
    across = SPACE_DRAWN_BACK_PEN_EM * size
    return (abs((s.y - p.y) * dx - (s.x - p.x) * dy) <= across
            and abs((q.y - p.y) * dx - (q.x - p.x) * dy) <= across)


def _drawn_back(glyphs: list[Glyph], k: int, n: int) -> bool:
    """Is whitespace glyph k drawn back over the text before it and continued by nothing
    (SPACE_DRAWN_BACK_EM)?"""
    s = glyphs[k]
    j = k - 1
    stop = k - 1 - SPACE_DRAWN_BACK_LOOKBACK
    while j > stop and j >= 0 and glyphs[j].text.isspace():
        j -= 1
    if j < 0 or j <= stop:
        return False
    p = glyphs[j]
    dx, dy = p.dx, p.dy
    u, start = s.x * dx + s.y * dy, p.x * dx + p.y * dy
    if u >= start or s.dx != dx or s.dy != dy:
        return False   # the usual space: on from the glyph before it
    end = p.end_x * dx + p.end_y * dy
    size = s.size if s.size > 0.0 else p.size
    tolerance = SPACE_DRAWN_BACK_PEN_EM * size
    if (u - (end if end > start else start) >= -SPACE_DRAWN_BACK_EM * size
            or abs((s.y - p.y) * dx - (s.x - p.x) * dy) > tolerance):
        return False
    touch = SPACE_DRAWN_BACK_TOUCH_EM * size
    if abs(s.end_x * dx + s.end_y * dy - start) <= touch:
        return False   # it ends where that glyph starts: right-to-left text
    if k + 1 < n:
        q = glyphs[k + 1]
        pen_x, pen_y = s.x + s.advance * dx, s.y + s.advance * dy
        if abs(q.x - pen_x) <= tolerance and abs(q.y - pen_y) <= tolerance:
            return False   # a run of text goes on from it: text drawn over text (lines.overdraws)
        if (abs(q.end_x * dx + q.end_y * dy - u) <= touch
                and abs((q.y - s.y) * dx - (q.x - s.x) * dy) <= tolerance):
            return False   # the next glyph ends where it starts: right-to-left text
    return True


def _with_text(g: Glyph, text: str) -> Glyph:
    return Glyph(text, g.x, g.y, g.end_x, g.end_y, g.advance, g.dx, g.dy, g.height,
                 g.descent, g.size, g.font, g.flags, g.mcid)


def duplicate_limit(size: float, width: float) -> float:
    """How far (along and across the line, viewer space) a copy of a glyph of this size and
    advance width may sit from it and still be the same glyph drawn again."""
    limit = DUPLICATE_MAX_DISTANCE_EM * size
    if width > 0.0:
        share = DUPLICATE_MAX_ADVANCE_SHARE * width
        if share < limit:
            return share
    return limit


def drop_duplicates(glyphs: list[Glyph], dropped: DropLog | None = None) -> list[Glyph]:
    """Drop glyphs that repeat one of the two previous kept glyphs at (almost) the same place.

    `glyphs` are one line's glyphs sorted along the writing direction; the dropped ones are
    listed in `dropped` when given (the layout inspector).
    """
    if len(glyphs) < 2:
        return glyphs
    kept: list[Glyph] = [glyphs[0]]
    last, before = glyphs[0], None          # the two previous kept glyphs
    for g in glyphs[1:]:
        text = g.text
        if text == last.text or (before is not None and text == before.text):
            if any(prev is not None and prev.text == text
                   and abs(prev.x - g.x) <= (limit := duplicate_limit(g.size, _width(prev)))
                   and abs(prev.y - g.y) <= limit for prev in (before, last)):
                if dropped is not None:
                    dropped.add((g,), DUPLICATE)
                continue
        kept.append(g)
        last, before = g, last
    return kept


def _width(g: Glyph) -> float:
    """The glyph's font advance along its writing direction (0 for a zero or negative one)."""
    w = (g.end_x - g.x) * g.dx + (g.end_y - g.y) * g.dy
    return w if w > 0.0 else 0.0


def accent_mark(text: str) -> str | None:
    """The combining mark a spacing-accent glyph stands for, or None."""
    return SPACING_ACCENTS.get(text) if len(text) == 1 else None


def on_letter(accent: Glyph, base: Glyph, accent_u: tuple[float, float],
              base_u: tuple[float, float]) -> bool:
    """Is the accent drawn over the base (their extents along the line overlap)?"""
    if not base.text or unicodedata.category(base.text[-1])[0] not in ACCENT_BASES:
        return False
    width = accent_u[1] - accent_u[0]
    overlap = min(accent_u[1], base_u[1]) - max(accent_u[0], base_u[0])
    return width > 0 and overlap >= ACCENT_OVERLAP * width


def with_mark(base: Glyph, mark: str) -> Glyph:
    """The base letter carrying a combining mark (composed where Unicode has a precomposed form)."""
    return _with_text(base, unicodedata.normalize("NFC", base.text + mark))
