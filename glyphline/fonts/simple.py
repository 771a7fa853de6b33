"""Simple fonts (Type1, MMType1, TrueType, Type3): one byte per code, a 256-entry table.

Text of a code, first that applies (ISO 32000-1 §9.10.2):
1. /ToUnicode, when it maps the code and the value passes the sanity check (an empty value: the
   glyph has no text of its own);
2. /Encoding: base encoding + /Differences glyph names (through the glyph list); names that are
   numbers (`/65`, `/G065`, `/C41`) are character codes under rule NUMERIC_GLYPH_NAMES
   (numericnames.py); rule TYPE3_UNKNOWN_NAMES: in a Type3 font with an explicit /BaseEncoding,
   a name the glyph list does not know (`/BT`, `/CP`: procedure labels) keeps the base
   encoding's character for its code, as poppler reads such fonts;
3. no base encoding given: the font's built-in one — Symbol/ZapfDingbats for those standard
   fonts, the encoding of an embedded Type1/CFF program, else StandardEncoding (WinAnsi for a
   symbolic TrueType font, whose codes are looked up as 0xF000 + code in its (3,0) cmap; rule
   MAC_CMAP_ENCODING: when its program has a (1,0) Macintosh cmap and no (3,0) one, a code
   0x80–0xFF WinAnsi was guessed for is the glyph it selects there, by the glyph's 'post' name
   (a bullet at Mac Roman's 0xA5, not WinAnsi's ¥), as MuPDF reads it; the program is read
   when such a code is first shown);
4. a code still without text: the embedded TrueType/OpenType program's own cmap and post
   tables (truetype.py), read only when such a code is first shown.
Everything is precomputed into a tuple of 256 DecodedChar, so decode() is one indexing per byte.
"""
from __future__ import annotations

import unicodedata
from collections import Counter
from typing import Any, Callable

from ..limits import Limits
from . import encodings, standard14, texfonts, truetype
from ._objects import array, get, is_dict, name, number, numbers, read
from .base import IDENTITY_FONT_MATRIX, DecodedChar, Font
from .fontfile import builtin_encoding
from .glyphnames import glyph_to_unicode
from .numericnames import numeric_name_texts
from .tounicode import CMap, parse_cmap, usable_text

# rule DUPLICATE_CODES: more distinct codes than this mapped to one same text, while the
# encoding names other characters for them, is a broken ToUnicode map (everything → space) —
# unless that text is a letter shared by at most DUPLICATE_LETTER_SHARE of the mapped codes:
# Arabic positional forms (isolated, initial, medial, final) and stylistic alternates in the
# subset fonts of office suites map several glyphs to one letter, and must beat the encoding
DUPLICATE_CODES_LIMIT = 3
DUPLICATE_LETTER_SHARE = 0.5
# an ascent above this many em is not a real font metric
MAX_ASCENT_EM = 3.0
# a Type3 font whose median advance is more than TYPE3_UNITS_MISMATCH times the em its
# /FontMatrix implies is drawn in bigger units at a tiny size (FontMatrix [1 0 0 1 0 0], 0.24 Tf,
# glyphs 58 units tall; full-width CJK glyphs are exactly 1 em): its em is then
# TYPE3_EM_PER_ADVANCE median advances, for the metrics test and the glyphs' size (Font.em_scale)
TYPE3_UNITS_MISMATCH = 4.0
TYPE3_EM_PER_ADVANCE = 2.0
# Private Use Area block symbolic TrueType fonts reach through their (3,0) cmap
SYMBOL_PUA_FIRST, SYMBOL_PUA_LAST = 0xF020, 0xF0FF
# symbol fonts whose codes have no text in any Latin encoding
_PICTOGRAPH_FONTS = ("wingdings", "webdings", "marlett", "mtextra")
# rule GBK_WINANSI_FONTS: a non-embedded TrueType font named after a Chinese system font (its
# BaseFont begins 宋体, 黑体, 楷体, 仿宋, 新宋, 隶书 or 小标宋: SimSun, SimHei, KaiTi_GB2312, …),
# with no /Encoding or plain /WinAnsiEncoding and no /ToUnicode, shows GBK (code page 936) byte
# pairs — Windows' ANSI code page of the producing system, drawn with the system font — so a lead
# byte and its trail byte are one character (PDFium reads such fonts as GBK CID fonts; MuPDF and
# pdf.js have the same rule for a shorter list of names)
GBK_FONT_PREFIXES = ("宋体", "黑体", "楷体", "仿宋", "新宋", "隶书", "小标宋")
GBK_LEAD_FIRST, GBK_LEAD_LAST = 0x81, 0xFE


class SimpleFont(Font):
    """A font with single-byte codes; `table[code]` is the precomputed DecodedChar."""

    def __init__(self, name: str, table: tuple, font_matrix: tuple = IDENTITY_FONT_MATRIX,
                 ascent: float = 0.0, descent: float = 0.0, warnings: list | None = None):
        super().__init__(name=name, vertical=False, font_matrix=font_matrix, ascent=ascent,
                         descent=descent, warnings=warnings if warnings is not None else [])
        self.table = table
        self._lookup = table.__getitem__

    def decode(self, data: bytes) -> list[DecodedChar]:
        return list(map(self._lookup, data))

    def code_reader(self):
        """One byte a code, `table[code]`; none for a subclass that decodes otherwise."""
        if type(self).decode is not SimpleFont.decode or len(self.table) != 256:
            return None
        return self.table.__getitem__, 1


class GbkSimpleFont(SimpleFont):
    """Rule GBK_WINANSI_FONTS: a GBK lead byte and its trail byte are one character whose
    advance is the two bytes' widths (where the single bytes would have put the next glyph)."""

    def decode(self, data: bytes) -> list[DecodedChar]:
        table = self.table
        out: list[DecodedChar] = []
        i, n = 0, len(data)
        while i < n:
            byte = data[i]
            if GBK_LEAD_FIRST <= byte <= GBK_LEAD_LAST and i + 1 < n:
                try:
                    text = data[i:i + 2].decode("gbk")
                except UnicodeDecodeError:
                    text = None
                if text is not None:
                    out.append(DecodedChar((byte << 8) | data[i + 1], text,
                                           table[byte].width + table[data[i + 1]].width, False))
                    i += 2
                    continue
            out.append(table[byte])
            i += 1
        return out


def _gbk_winansi(font: Any, kind: str, base_font: str, descriptor: Any) -> bool:
    """Rule GBK_WINANSI_FONTS (see the constants)."""
    encoding = get(font, "/Encoding")
    return (kind == "TrueType" and base_font.startswith(GBK_FONT_PREFIXES)
            and (encoding is None or name(encoding) == "WinAnsiEncoding")
            and get(font, "/ToUnicode") is None
            and not any(get(descriptor, key) is not None
                        for key in ("/FontFile", "/FontFile2", "/FontFile3")))


def _font_encoding(font: Any, kind: str, base_font: str, descriptor: Any, symbolic: bool,
                   read_stream: Callable[[Any], bytes], warnings: list[str]) -> list:
    """Code → text from /Encoding, the built-in encoding and /Differences (256 entries)."""
    enc_obj = get(font, "/Encoding")
    base = None
    differences: dict[int, str] = {}
    if isinstance(enc_obj, str):
        base = encodings.base_encoding(str(enc_obj))
        if base is None:
            warnings.append(f"unknown /Encoding {enc_obj}")
    elif is_dict(enc_obj):
        base_name = name(get(enc_obj, "/BaseEncoding"))
        if base_name is not None:
            base = encodings.base_encoding(base_name)
            if base is None:
                warnings.append(f"unknown /BaseEncoding {base_name}")
        differences = encodings.parse_differences(get(enc_obj, "/Differences") or [], warnings)
    elif enc_obj is not None:
        warnings.append("/Encoding is neither a name nor a dictionary")
    if kind == "Type3" and base is None and texfonts.self_named_codes(differences):
        text = texfonts.tex_bitmap_encoding(c for c, g in differences.items() if g != ".notdef")
        return [text[code] if code in differences and differences[code] != ".notdef" else None
                for code in range(256)]
    named = {code: glyph_to_unicode(glyph) for code, glyph in differences.items()}
    if differences and not any(named.values()):
        numeric = numeric_name_texts(differences, base or encodings.WIN_ANSI, kind)
        if numeric is not None:   # NUMERIC_GLYPH_NAMES (numericnames.py)
            named = {code: numeric.get(code) for code in differences}
    explicit_base = base is not None
    if base is None:
        base = _builtin_encoding(kind, base_font, descriptor, symbolic, read_stream, warnings)
    table = list(base) if base is not None else [None] * 256
    for code, text in named.items():
        if text is not None or differences[code] == ".notdef" or not (kind == "Type3" and explicit_base):
            table[code] = text   # TYPE3_UNKNOWN_NAMES: else the /BaseEncoding's character stays
    return table


def _builtin_encoding(kind: str, base_font: str, descriptor: Any, symbolic: bool,
                      read_stream: Callable[[Any], bytes], warnings: list[str]):
    if kind == "Type3":
        return None  # a Type3 font has no built-in encoding: /Differences is all there is
    standard = standard14.standard_name(base_font)
    if standard in encodings.SYMBOL_ENCODINGS:
        return encodings.SYMBOL_ENCODINGS[standard]
    if kind != "TrueType":
        program = builtin_encoding(descriptor, read_stream, warnings)
        if program is not None:
            return program
    if any(p in base_font.lower() for p in _PICTOGRAPH_FONTS):
        return None
    if kind == "TrueType" and symbolic:
        return encodings.WIN_ANSI   # its codes 0x80–0xFF may be the program's (MAC_CMAP_ENCODING)
    return encodings.STANDARD


def read_cmap_stream(stream: Any, limits: Limits, read_stream, warnings: list[str], what: str) -> CMap | None:
    """A ToUnicode or embedded CMap stream, parsed within the entry budget; its problems become warnings."""
    data = read(stream, read_stream, warnings, what)
    if data is None:
        return None
    cmap = parse_cmap(data, limits.tounicode_entries)
    warnings.extend(cmap.warnings)
    return cmap


def _to_unicode(font: Any, limits: Limits, read_stream, warnings: list[str]) -> CMap | None:
    stream = get(font, "/ToUnicode")
    return None if stream is None else read_cmap_stream(stream, limits, read_stream, warnings, "/ToUnicode")


def _symbol_pua(text: str, base_font: str) -> str | None:
    """A symbolic TrueType map value U+F020–F0FF → the character its low byte stands for."""
    low = ord(text) & 0xFF
    lowered = base_font.lower()
    if any(p in lowered for p in _PICTOGRAPH_FONTS):
        return None
    standard = standard14.standard_name(base_font)
    if standard in encodings.SYMBOL_ENCODINGS:
        return encodings.SYMBOL_ENCODINGS[standard][low]
    return encodings.WIN_ANSI[low]


def _is_letter(text: str) -> bool:
    """Letters with their marks only (not spaces, digits, punctuation or symbols)."""
    return unicodedata.category(text[0]).startswith("L") and \
        all(unicodedata.category(ch)[0] in "LM" for ch in text)


def _guessed_winansi_codes(font: Any, kind: str, symbolic: bool, base_font: str, encoded: list,
                           texts: list) -> frozenset[int]:
    """Codes 0x80–0xFF of a symbolic TrueType font without a base encoding whose text is only
    the WinAnsi guess (MAC_CMAP_ENCODING: its program may say otherwise)."""
    if kind != "TrueType" or not symbolic:
        return frozenset()
    enc_obj = get(font, "/Encoding")
    if isinstance(enc_obj, str) or (is_dict(enc_obj) and get(enc_obj, "/BaseEncoding") is not None):
        return frozenset()
    if standard14.standard_name(base_font) in encodings.SYMBOL_ENCODINGS:
        return frozenset()
    return frozenset(code for code in range(0x80, 0x100)
                     if texts[code] is not None and texts[code] == encoded[code] == encodings.WIN_ANSI[code])


def _texts(cmap: CMap | None, encoded: list, base_font: str) -> list:
    """Final code → text: sane ToUnicode values first, the encoding for the rest."""
    mapped: dict[int, str] = {}
    empty: set[int] = set()
    if cmap is not None and cmap.has_unicode:
        for code in range(256):
            text = cmap.to_unicode(code)
            if text == "":
                empty.add(code)           # EMPTY_TOUNICODE (tounicode.py): no text of its own
            elif usable_text(text):
                if len(text) == 1 and SYMBOL_PUA_FIRST <= ord(text) <= SYMBOL_PUA_LAST:
                    text = encoded[code] or _symbol_pua(text, base_font)
                    if text is None:
                        continue
                mapped[code] = text
        # many codes → one text while the encoding names other characters: a broken map
        counts = Counter(mapped.values())
        for text, count in counts.items():
            letter_forms = _is_letter(text) and count <= DUPLICATE_LETTER_SHARE * len(mapped)
            if count > DUPLICATE_CODES_LIMIT and not letter_forms:
                for code in [c for c, t in mapped.items() if t == text]:
                    if encoded[code] is not None and encoded[code] != text:
                        del mapped[code]
    return ["" if code in empty else mapped.get(code, encoded[code]) for code in range(256)]


def _widths(font: Any, kind: str, descriptor: Any, base_font: str, flags: int, encoded: list,
            warnings: list[str]) -> list[float]:
    missing = number(get(descriptor, "/MissingWidth"))
    widths_array = array(get(font, "/Widths"))
    first_char = number(get(font, "/FirstChar"))
    afm = None
    if kind != "Type3":
        standard = standard14.standard_name(base_font)
        if standard is None and widths_array is None:
            standard = standard14.substitute_name(base_font, flags)
            warnings.append(f"no /Widths: metrics of {standard} used")
        afm = standard14.metrics(standard) if standard else None
    if afm is not None:
        afm_widths = afm.character_widths
        default = float(missing if missing is not None else afm_widths.get("default", 0))
        # a code its encoding leaves out takes the width of the glyph the font's built-in
        # encoding has there, else /MissingWidth, 0 by default (Table 122), as poppler draws
        # them: Differences "32 /.notdef" keeps the space's width, the 0x00 bytes of
        # "<0044 0045> Tj" read one byte a glyph take none
        builtin = encodings.SYMBOL_ENCODINGS.get(standard, encodings.STANDARD)
        unencoded = float(missing or 0.0)
        result = [float(afm_widths.get(t, default)) if t
                  else default if t == "" else float(afm_widths.get(builtin[code] or "", unencoded))
                  for code, t in enumerate(encoded)]
    else:
        result = [missing or 0.0] * 256
    if widths_array is not None:
        start = int(first_char) if first_char is not None else 0
        if first_char is None:
            warnings.append("/Widths without /FirstChar")
        outside = missing if missing is not None else (None if afm is not None else 0.0)
        if outside is not None:
            result = [outside] * 256
        for offset, item in enumerate(widths_array[:256]):
            code = start + offset
            if 0 <= code <= 255:
                value = number(item)
                if value is not None:
                    result[code] = value
    elif kind == "Type3":
        warnings.append("Type3 font without /Widths")
    return result


def _plausible(ascent: float | None, descent: float | None, em: float) -> bool:
    if ascent is None or descent is None:
        return False
    return 0 < ascent <= MAX_ASCENT_EM * em and ascent > descent >= -MAX_ASCENT_EM * em


def vertical_metrics(descriptor: Any, bbox_owner: Any, standard: str | None, em: float,
                     bbox_first: bool = False, flipped: bool = False) -> tuple[float, float]:
    """(ascent, descent) in glyph space: descriptor → /FontBBox → standard-14 → (0, 0) unknown.

    `flipped`: a Type3 /FontMatrix that turns glyph space upside down; the bbox is mirrored so
    that ascent still means "above the baseline on the page" (the interpreter uses |FontMatrix d|).
    """
    candidates = []
    ascent, descent = number(get(descriptor, "/Ascent")), number(get(descriptor, "/Descent"))
    if descent is not None and descent > 0:
        descent = -descent  # a positive descent is a sign slip, never a metric
    candidates.append((ascent, descent))
    bbox = numbers(get(bbox_owner, "/FontBBox"), 4)
    if bbox is not None:
        low, high = min(bbox[1], bbox[3]), max(bbox[1], bbox[3])
        if flipped:
            low, high = -high, -low
        candidates.insert(0 if bbox_first else 1, (high, min(low, 0.0)))
    afm = standard14.metrics(standard) if standard else None
    if afm is not None:
        candidates.append((float(afm.font_descriptor.ascent), float(afm.font_descriptor.descent)))
    for ascent, descent in candidates:
        if _plausible(ascent, descent, em):
            return float(ascent), float(descent)  # type: ignore[arg-type]
    return 0.0, 0.0


def load_simple(font: Any, kind: str, font_name: str, base_font: str, limits: Limits,
                read_stream: Callable[[Any], bytes], warnings: list[str]) -> SimpleFont:
    descriptor = get(font, "/FontDescriptor")
    if descriptor is not None and not is_dict(descriptor):
        warnings.append("/FontDescriptor is not a dictionary")
        descriptor = None
    flags = int(number(get(descriptor, "/Flags")) or 0)
    symbolic = bool(flags & standard14.FLAG_SYMBOLIC)
    font_matrix = IDENTITY_FONT_MATRIX
    em = 1000.0
    em_scale = 1.0
    if kind == "Type3":
        matrix = numbers(get(font, "/FontMatrix"), 6)
        if matrix is not None and matrix[0] * matrix[3] - matrix[1] * matrix[2] != 0:
            font_matrix = tuple(matrix)
            em = 1.0 / max(abs(matrix[3]), abs(matrix[0]), 1e-9)
        else:
            warnings.append("Type3 font without a usable /FontMatrix")
    encoded = _font_encoding(font, kind, base_font, descriptor, symbolic, read_stream, warnings)
    cmap = _to_unicode(font, limits, read_stream, warnings)
    texts = _texts(cmap, encoded, base_font)
    widths = _widths(font, kind, descriptor, base_font, flags, encoded, warnings)
    standard = standard14.standard_name(base_font) if kind != "Type3" else None
    if kind == "Type3":
        advances = sorted(w for w in widths if w > 0)
        median = advances[len(advances) // 2] if advances else 0.0
        if median > TYPE3_UNITS_MISMATCH * em:   # TYPE3_EM_FROM_WIDTHS (see the constants)
            em_scale = TYPE3_EM_PER_ADVANCE * median / em
            em *= em_scale
        ascent, descent = vertical_metrics(descriptor, font, None, em, bbox_first=True,
                                           flipped=font_matrix[3] < 0)
    else:
        ascent, descent = vertical_metrics(descriptor, descriptor, standard, em)
    table = tuple(DecodedChar(code, texts[code], widths[code], code == 32) for code in range(256))
    guessed = _guessed_winansi_codes(font, kind, symbolic, base_font, encoded, texts)
    program_texts = truetype.simple_font_texts(descriptor, read_stream, warnings) \
        if kind != "Type3" and (None in texts or guessed) else None
    if program_texts is not None:   # last resort, read only when an undecodable code is shown
        table = truetype.ProgramFilledTable(table, program_texts, warnings, guessed)
    font_class = GbkSimpleFont if _gbk_winansi(font, kind, base_font, descriptor) else SimpleFont
    font = font_class(font_name, table, font_matrix, ascent, descent, warnings)
    font.em_scale = em_scale
    return font

