"""Glyph names that are character codes: `/65`, `/G065`, `/C41`, `/c065`, `/G4B`.

Rule NUMERIC_GLYPH_NAMES (the counterpart of poppler's numeric-name pass and pdf.js's
`Gxx`/`Cdd` heuristics), for a simple font whose /Differences names are not in the glyph list:

- every name other than .notdef is one or two letters (or none) followed by a number, the
  number being decimal, or hexadecimal when the font's names use the digits a–f;
- a font whose names are its own codes (`65 /65`, `65 /G065`, `65 /C41`: the number equals the
  code for at least SELF_NAMED_SHARE of them) means those codes as the base encoding reads them;
  in the corpus: ReportMill's Type3 fonts (`/65`), Pdftools SDK (`/G065`), CrawfordTech's print
  driver and pdf.js issue 9655 (`/C41`, hex), a WinAnsi Type1 font named `/c065` (issue 5070);
- otherwise (`1 /G4B 2 /G61`, an iText subset) the number is the character code of the glyph,
  read through the base encoding (WinAnsi when the font names none); a TrueType font's or a
  `g` prefix's numbers are glyph ids (Office subsets: `/g3` is the space glyph), never codes,
  and are refused here;
- the sanity check: at least TEXT_SHARE of the names give a printable character and at least one
  gives a letter or digit; a font failing it keeps its glyphs unmapped (controls and glyph ids
  such as `/I1 /I2 …` or `/g18 /g152 …` never become text).
"""
from __future__ import annotations

import re

# `/65`, `/G065`, `/C41`, `/c033`, `/g0024`: up to two letters, then a number of at most 4 digits
# with at least one decimal digit (`/ab` is a name, not the number 0xAB)
_NUMERIC = re.compile(r"([A-Za-z]{0,2})([0-9A-Fa-f]{0,3}[0-9][0-9A-Fa-f]{0,3})\Z")
MAX_DIGITS = 4
# a font is self-named when this share of its numeric names equals its own code
SELF_NAMED_SHARE = 0.9
# the sanity check: this share of the names must read as printable text
TEXT_SHARE = 0.8


def _number(digits: str, base: int) -> int | None:
    try:
        return int(digits, base)
    except ValueError:
        return None


def numeric_name_texts(differences: dict[int, str], base: tuple, kind: str) -> dict[int, str] | None:
    """Code → text for a font whose glyph names are numbers (see the module doc), else None.

    `base` is the 256-entry table the numbers are read through (the font's base encoding)."""
    named = {code: glyph for code, glyph in differences.items() if glyph != ".notdef"}
    if not named:
        return None
    parts = {}
    for code, glyph in named.items():
        match = _NUMERIC.match(glyph)
        if match is None or len(match.group(2)) > MAX_DIGITS:
            return None
        parts[code] = match.groups()
    hexadecimal = any(re.search(r"[A-Fa-f]", digits) for _, digits in parts.values())
    numbers: dict[int, int | None] = {}
    for base_n in ((16,) if hexadecimal else (10, 16)):
        numbers = {code: _number(digits, base_n) for code, (_, digits) in parts.items()}
        if sum(numbers[code] == code for code in numbers) >= SELF_NAMED_SHARE * len(numbers):
            break   # self-named: the number is the glyph's own code
    else:
        if kind == "TrueType" or any(prefix == "g" for prefix, _ in parts.values()):
            return None    # glyph ids, not codes
        numbers = {code: _number(digits, 16 if hexadecimal else 10) for code, (_, digits) in parts.items()}
    texts = {code: base[n] for code, n in numbers.items() if n is not None and 0 <= n <= 255 and base[n]}
    printable = [t for t in texts.values() if t.isprintable()]
    if len(printable) < TEXT_SHARE * len(named) or not any(t.isalnum() for t in printable):
        return None
    return {code: text for code, text in texts.items() if text.isprintable()}
