"""Character classes the layout stages need to treat each script as it is written.

- CJK ideographs, kana and CJK punctuation are written without spaces: a gap that justified
  text opens between two of them is not a word space. Hangul is spaced like Latin, so two
  syllables keep gap-based spacing (only CJK punctuation next to hangul is never spaced).
  Fullwidth Latin letters and digits (Ｗｉｎｄｏｗｓ　ＸＰ) are Latin words set in CJK cells:
  between two of them the gap decides, next to an ideograph or kana they attach.
- Indic, Thai and similar scripts build clusters (consonant + virama + consonant, vowel
  signs, marks): a glyph that continues a cluster never starts a new word.
- Vertical presentation forms (U+FE10–FE19, FE30–FE4F) and Arabic presentation forms
  (U+FB50–FDFF, FE70–FEFF) are glyph shapes, not text: they are folded to the plain letters.
"""
from __future__ import annotations

import re
import unicodedata

# code point ranges written without word spaces (ideographs, kana, bopomofo, CJK punctuation)
SPACELESS_CJK_RANGES = (
    (0x2E80, 0x2FDF),    # CJK radicals, Kangxi radicals
    (0x2FF0, 0x2FFF),    # ideographic description characters
    (0x3000, 0x303F),    # CJK symbols and punctuation
    (0x3040, 0x30FF),    # hiragana, katakana
    (0x3100, 0x312F),    # bopomofo
    (0x3190, 0x31FF),    # kanbun, bopomofo extended, CJK strokes, katakana phonetic extensions
    (0x3200, 0x33FF),    # enclosed CJK letters and months, CJK compatibility
    (0x3400, 0x4DBF),    # CJK unified ideographs extension A
    (0x4E00, 0x9FFF),    # CJK unified ideographs
    (0xF900, 0xFAFF),    # CJK compatibility ideographs
    (0xFE10, 0xFE1F),    # vertical forms
    (0xFE30, 0xFE4F),    # CJK compatibility forms
    (0xFF00, 0xFFEF),    # halfwidth and fullwidth forms
    (0x1B000, 0x1B16F),  # kana supplement and extended
    (0x20000, 0x3134F),  # CJK unified ideographs extensions B–G, compatibility supplement
)
# fullwidth digits and Latin letters (U+FF10–FF19, FF21–FF3A, FF41–FF5A): words of Latin
# letters in CJK cells; two of them are spaced by their gap like ASCII letters
FULLWIDTH_ALPHANUMERIC_RANGES = ((0xFF10, 0xFF19), (0xFF21, 0xFF3A), (0xFF41, 0xFF5A))
HANGUL_RANGES = (
    (0x1100, 0x11FF),    # hangul jamo
    (0x3130, 0x318F),    # hangul compatibility jamo
    (0xA960, 0xA97F),    # hangul jamo extended A
    (0xAC00, 0xD7AF),    # hangul syllables
    (0xD7B0, 0xD7FF),    # hangul jamo extended B
)
# CJK punctuation attaches to its neighbour in every CJK script, hangul included
CJK_PUNCTUATION_RANGES = ((0x3000, 0x303F), (0xFE10, 0xFE1F), (0xFE30, 0xFE4F), (0xFF00, 0xFF65))
# strong right-to-left bidi classes: Hebrew (R), Arabic, Syriac, Thaana, NKo … (R or AL)
RTL_BIDI_CLASSES = frozenset({"R", "AL"})
COMBINING_CATEGORIES = frozenset({"Mn", "Mc", "Me"})
NUKTA_COMBINING_CLASS = 7          # canonical combining class of nuktas
VIRAMA_COMBINING_CLASS = 9          # canonical combining class of viramas (Indic), coeng (Khmer)
JOINERS = frozenset({"\u200c", "\u200d"})   # ZWNJ / ZWJ sit inside a cluster
# spacing vowel signs that Unicode files as letters (Lo) but that never begin a syllable
FOLLOWING_VOWEL_LETTERS = frozenset(
    "\u0e30\u0e32\u0e33\u0e45"      # Thai sara a, sara aa, sara am, lakkhangyao
    "\u0eb0\u0eb2\u0eb3"            # Lao sara a, sara aa, sara am
)
# Thai/Lao vowels written before the consonant they follow in speech: the next letter joins them
LEADING_VOWEL_LETTERS = frozenset("\u0e40\u0e41\u0e42\u0e43\u0e44\u0ec0\u0ec1\u0ec2\u0ec3\u0ec4")
# pre-base vowel signs (Mc) that PDFs paint, and so list, before their consonant
PRE_BASE_VOWEL_SIGNS = frozenset(
    "\u093f"                        # Devanagari i
    "\u09bf\u09c7\u09c8"            # Bengali i, e, ai
    "\u0a3f"                        # Gurmukhi i
    "\u0abf"                        # Gujarati i
    "\u0b47"                        # Oriya e
    "\u0bc6\u0bc7\u0bc8"            # Tamil e, ee, ai
    "\u0d46\u0d47\u0d48"            # Malayalam e, ee, ai
    "\u0dd9\u0dda\u0ddb"            # Sinhala e, ee, ai
    "\u1031"                        # Myanmar e
)
# below these code points a class cannot apply (tests/test_scripts.py checks it against unicodedata):
# the per-glyph-pair questions of the layout are answered for Latin text without any lookup
FIRST_COMBINING = "\u0300"          # combining diacritical marks: the first Mn/Mc/Me, and viramas later
FIRST_RTL = "\u0590"                # the Hebrew block: the first strong R/AL letter comes after it
FIRST_HANGUL = "\u1100"             # the first range of HANGUL_RANGES
FIRST_SPACELESS_CJK = "\u2e80"      # the first range of SPACELESS_CJK_RANGES
FIRST_CJK_PUNCTUATION = "\u3000"    # the first range of CJK_PUNCTUATION_RANGES

VERTICAL_FORMS = re.compile("[\ufe10-\ufe19\ufe30-\ufe4f]")
ARABIC_PRESENTATION_FORMS = re.compile("[\ufb50-\ufdff\ufe70-\ufefe]")   # FEFF is the BOM, not a form
HEBREW_PRESENTATION_FORMS = re.compile("[\ufb1d-\ufb4f]")


def _in(ranges: tuple, cp: int) -> bool:
    for low, high in ranges:
        if low <= cp <= high:
            return True
    return False


def is_hangul(ch: str) -> bool:
    return ch >= FIRST_HANGUL and _in(HANGUL_RANGES, ord(ch[0]))


def is_spaceless_cjk(ch: str) -> bool:
    """Ideographs, kana, bopomofo, CJK punctuation and fullwidth forms: no spaces between words."""
    return ch >= FIRST_SPACELESS_CJK and _in(SPACELESS_CJK_RANGES, ord(ch[0]))


def is_fullwidth_alphanumeric(ch: str) -> bool:
    """A fullwidth digit or Latin letter (Ａ, ｂ, ３): CJK-width Latin, spaced like Latin between its own kind."""
    return ch >= "\uff10" and _in(FULLWIDTH_ALPHANUMERIC_RANGES, ord(ch[0]))


def is_cjk(ch: str) -> bool:
    """Any CJK character: ideographs, kana, hangul, CJK punctuation, fullwidth forms."""
    return is_spaceless_cjk(ch) or is_hangul(ch)


def is_cjk_punctuation(ch: str) -> bool:
    return ch >= FIRST_CJK_PUNCTUATION and _in(CJK_PUNCTUATION_RANGES, ord(ch[0]))


def is_rtl(ch: str) -> bool:
    """A strong right-to-left letter (Hebrew, Arabic, Syriac, Thaana, NKo, their presentation forms)."""
    return ch >= FIRST_RTL and unicodedata.bidirectional(ch[0]) in RTL_BIDI_CLASSES


def is_combining(ch: str) -> bool:
    return ch >= FIRST_COMBINING and unicodedata.category(ch[0]) in COMBINING_CATEGORIES


def is_virama(ch: str) -> bool:
    return ch >= FIRST_COMBINING and unicodedata.combining(ch[0]) == VIRAMA_COMBINING_CLASS


def is_cluster_continuation(prev: str, ch: str) -> bool:
    """True when `ch` belongs to the same grapheme/syllable cluster as the character `prev`.

    Both are single characters (the last of the previous glyph's text, the first of this one).
    """
    if ch < FIRST_COMBINING and prev < FIRST_COMBINING:
        return False    # ASCII, Latin-1, Latin Extended, IPA: no marks, no clusters
    if not prev or not ch or prev.isspace() or ch.isspace():
        return False
    if ch in JOINERS or prev in JOINERS:
        return True
    if ch in PRE_BASE_VOWEL_SIGNS:
        return False    # glyphs come by x: a pre-base vowel sign is painted first, it opens its cluster
    if is_combining(ch) or ch in FOLLOWING_VOWEL_LETTERS:
        return True
    if unicodedata.category(ch).startswith("L"):
        # consonant after a virama forms a conjunct; after a leading vowel it carries the vowel
        if is_virama(prev) or prev in LEADING_VOWEL_LETTERS or prev in PRE_BASE_VOWEL_SIGNS:
            return True
    return False


def reorder_pre_base_vowels(texts: list[str]) -> list[str]:
    """Glyph texts by x → logical order for pre-base vowel signs (ि is painted before क).

    A pre-base vowel sign that stands alone before a consonant cluster (consonant, then
    nukta/virama + consonant …) moves behind that cluster, where Unicode stores it.
    """
    out = list(texts)
    i = 0
    while i < len(out) - 1:
        if out[i] in PRE_BASE_VOWEL_SIGNS and _is_letter(out[i + 1][:1]):
            end = i + 2
            while end < len(out) and out[end] and _continues_consonant_cluster(out[end - 1], out[end]):
                end += 1
            out[i:end] = out[i + 1:end] + [out[i]]
            i = end
        else:
            i += 1
    return out


def _is_letter(ch: str) -> bool:
    return bool(ch) and unicodedata.category(ch).startswith("L")


def _continues_consonant_cluster(prev: str, text: str) -> bool:
    # nukta/virama after a consonant, or a consonant after a virama (conjunct)
    ch, last = text[0], prev[-1]
    if is_virama(ch) or (is_combining(ch) and unicodedata.combining(ch) == NUKTA_COMBINING_CLASS):
        return True
    return is_virama(last) and _is_letter(ch)


def no_space_between(a: str, b: str) -> bool:
    """True when no word space may be inferred between text `a` and the text `b` that follows.

    Holds between two spaceless CJK characters (not between two fullwidth Latin letters or
    digits, which are Latin words), between CJK punctuation and any CJK text (hangul
    included), and when `b` continues a cluster that `a` ends.
    """
    if not a or not b:
        return False
    last, first = a[-1], b[0]
    if last < FIRST_COMBINING and first < FIRST_COMBINING:
        return False    # no cluster, CJK or hangul below the combining marks
    if is_cluster_continuation(last, first):
        return True
    if is_spaceless_cjk(last) and is_spaceless_cjk(first):
        return not (is_fullwidth_alphanumeric(last) and is_fullwidth_alphanumeric(first))
    if is_hangul(last) or is_hangul(first):
        other = first if is_hangul(last) else last
        return is_cjk_punctuation(other)
    return False


def no_space_at_line_break(a: str, b: str, space_glyph: bool = False) -> bool:
    """no_space_between for the end of one line and the start of the next: CJK text wraps
    between any two cells, fullwidth Latin letters included (UAX #14 class ID), so there two
    spaceless CJK characters join, unless both are fullwidth letters or digits and the line
    ends in a space glyph (`space_glyph`): then the writer marked a word break there."""
    if a and b and is_spaceless_cjk(a[-1]) and is_spaceless_cjk(b[0]):
        return not (space_glyph and is_fullwidth_alphanumeric(a[-1]) and is_fullwidth_alphanumeric(b[0]))
    return no_space_between(a, b)


def _fold(match: re.Match) -> str:
    # one step of the compatibility decomposition: full NFKC would also turn … into "..."
    ch = match.group()
    parts = unicodedata.decomposition(ch).split()
    if parts and parts[0].startswith("<"):
        parts = parts[1:]
    if not parts:
        return ch
    return unicodedata.normalize("NFC", "".join(chr(int(p, 16)) for p in parts))


def normalize_vertical_forms(text: str) -> str:
    """Vertical presentation forms (︑ ︒ ︵ …) → the horizontal punctuation they draw."""
    if not VERTICAL_FORMS.search(text):
        return text
    return VERTICAL_FORMS.sub(_fold, text)


def normalize_arabic_forms(text: str) -> str:
    """Arabic presentation forms (positional shapes, ligatures such as lam-alef) → base letters."""
    if not ARABIC_PRESENTATION_FORMS.search(text):
        return text
    return ARABIC_PRESENTATION_FORMS.sub(_fold, text)


def normalize_hebrew_forms(text: str) -> str:
    """Hebrew presentation forms (wide letters, letters with points) → base letters and marks."""
    if not HEBREW_PRESENTATION_FORMS.search(text):
        return text
    return HEBREW_PRESENTATION_FORMS.sub(_fold, text)


def normalize_presentation_forms(text: str) -> str:
    """All three foldings above, for a glyph's or a line's text."""
    return normalize_hebrew_forms(normalize_arabic_forms(normalize_vertical_forms(text)))
