"""Cleanup: make each glyph's text what a reader sees, and drop painted-twice duplicates.

Two passes, both linear:
- `clean_glyph_text` runs on the raw glyph list (stream order): expands typographic ligatures
  from a safe list, removes zero-width and bidi control characters, and drops glyphs whose
  text becomes empty. Soft hyphens stay: only the dehyphenation rule knows whether one at a
  line end matters; inside a word they are removed when the word is built (see words.py).
- `drop_duplicates` runs on one line's glyphs once they are sorted along the line, where a
  fake-bold or drop-shadow copy sits right next to its original.
"""
from __future__ import annotations

from ..glyph import Glyph

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

SOFT_HYPHEN = "\u00ad"

# A copy of the previous glyph closer than this (in font sizes, along and across the line) is a
# fake-bold or shadow duplicate: poppler's dupMaxSecDelta; real neighbours are a full advance apart.
DUPLICATE_MAX_DISTANCE_EM = 0.2

_SPECIAL = frozenset(LIGATURES) | CONTROL_CHARS


def _clean_text(text: str) -> str:
    return "".join(LIGATURES.get(ch, ch) for ch in text if ch not in CONTROL_CHARS)


def clean_glyph_text(glyphs: list[Glyph]) -> list[Glyph]:
    """Return the glyphs with ligatures expanded and control characters removed."""
    out: list[Glyph] = []
    append = out.append
    special = _SPECIAL
    for g in glyphs:
        text = g.text
        if len(text) == 1:
            if text not in special:
                append(g)
                continue
        elif not any(ch in special for ch in text):
            if text:
                append(g)
            continue
        cleaned = _clean_text(text)
        if cleaned:
            append(_with_text(g, cleaned))
    return out


def _with_text(g: Glyph, text: str) -> Glyph:
    return Glyph(text, g.x, g.y, g.end_x, g.end_y, g.advance, g.dx, g.dy, g.height,
                 g.descent, g.size, g.font, g.flags, g.mcid)


def drop_duplicates(glyphs: list[Glyph]) -> list[Glyph]:
    """Drop glyphs that repeat one of the two previous kept glyphs at (almost) the same place.

    `glyphs` are one line's glyphs sorted along the writing direction.
    """
    if len(glyphs) < 2:
        return glyphs
    kept: list[Glyph] = [glyphs[0]]
    for g in glyphs[1:]:
        limit = DUPLICATE_MAX_DISTANCE_EM * g.size
        duplicate = False
        for prev in kept[-2:]:
            if (prev.text == g.text and abs(prev.x - g.x) <= limit
                    and abs(prev.y - g.y) <= limit):
                duplicate = True
                break
        if not duplicate:
            kept.append(g)
    return kept
