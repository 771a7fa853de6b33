"""Embedded TrueType / OpenType font programs: the last source of Unicode for a glyph.

A font with neither a usable /ToUnicode nor a usable /Encoding (symbolic TrueType fonts,
CIDFontType2 with Identity-H and no ToUnicode) still carries its own tables: 'cmap' (code
point → glyph index) and 'post' (glyph index → glyph name). Reading them backwards gives
text, as Acrobat and pdf.js do. This is a small bounded reader of just those tables
(fontTools would cost a 1.2 MB wheel, 4.9 MB installed, for the same few hundred lines):

    sfnt table directory ─► 'maxp' numGlyphs, 'cmap' formats 0/4/6/12, 'post' 1.0/2.0
    simple font:  code ─► glyph via the (3,0) cmap (0xF000 + code) or (1,0) ─► Unicode
    CID font:     CID ─► glyph via /CIDToGIDMap (or a CID-keyed 'CFF ' table's charset) ─► Unicode

Glyph → Unicode: the font's Unicode cmaps reversed (the first code point per glyph, BMP
outside the Private Use Area preferred), else the glyph's 'post' name through the glyph list.
Every offset and count is checked against the data; malformed programs give None, never an
exception, and no loop runs longer than the named limits below.
The program is read lazily: the first time a code of the font cannot be decoded otherwise.
"""
from __future__ import annotations

import struct
from typing import Any, Callable

from ..errors import BudgetExceeded
from . import fontfile
from ._objects import get, is_dict, name, read, resolve
from .base import DecodedChar
from .glyphnames import glyph_to_unicode
from .tounicode import usable_text

# real fonts have 10–40 tables and a handful of cmap subtables; more is corrupt data
MAX_TABLES = 512
MAX_CMAP_SUBTABLES = 128
# code points visited per cmap subtable: a full CJK font maps ~70k; more is a hostile range
MAX_CMAP_ENTRIES = 1 << 18
# TrueType glyph indices are 16-bit
MAX_GLYPHS = 0xFFFF
# fonts in a TrueType collection: only the first one is read
TTC_TAG = b"ttcf"
SFNT_VERSIONS = (b"\x00\x01\x00\x00", b"true", b"OTTO", b"typ1")
# symbolic fonts map their codes into this block of their (3,0) cmap (ISO 32000-1 §9.6.6.4)
SYMBOL_CMAP_OFFSETS = (0xF000, 0x0000, 0xF100, 0xF200)
# CORE_FONT_GLYPH_ORDER: the Windows core fonts (Monotype's Arial, Times New Roman, Courier New)
# put their first 172 glyphs in the Macintosh standard order below, so a producer that shows
# them by glyph id without embedding or mapping them still names the characters (pdf.js reads
# such fonts through its GlyphMapForStandardFonts); Arial Black and Arial Unicode are ordered
# otherwise.
# Past glyph 171 their order leaves glyphs of the Macintosh one out: glyph 179 is the Mac order's
# 180 and glyph 210 its 212 (pdfjs issue15441's "“ABC” ‘abc’", issue15977's "RECOMENDACIÓN",
# issue13916's Czech "ĚŠČŘŽÝÁÍÉ ěščřžýáíé"): (first glyph, end glyph, Mac index - glyph id);
# glyphs 172-178 and 208-209, where the left-out glyphs sit, are not known and stay unmapped.
CORE_FONT_MAC_RANGES = ((1, 172, 0), (179, 208, 1), (210, 255, 2))
# From glyph 258 on, the Central European letters the Mac order lacks, in Unicode order (the same
# files give Ě 267, ě 268, Ř 283, ř 284, ů 292; pdf.js's table of these fonts agrees at the other
# letters it lists); "\0" marks the two glyphs after ľ, which no file shows.
CORE_FONT_FIRST_EXTENDED = 258
CORE_FONT_EXTENDED = "ĂăĄąĎďĐĘęĚěĹĺĽľ\0\0ŃńŇňŐőŔŕŘřŚśŢţŤťŮůŰűŹźŻż"
# Arial's Cyrillic: А–я (U+0410–U+044F) are glyphs 570–633 in Unicode order in the Arial of current
# Windows (4,503 glyphs; pdfjs issue19550 "ФЛАНЦЫ И ПЕРЕХОДЫ", issue20453 "Угловая шлифовальная
# машина"; their /W widths are Arial's, А 667 = A, о 556 = o, Ж 923; pdf.js's table agrees). Seen
# in Arial only, so only Arial reads it.
ARIAL_CYRILLIC_FIRST = 570
ARIAL_CYRILLIC = (0x0410, 0x044F)
CORE_FONT_FAMILIES = ("arial", "timesnewroman", "couriernew")
CORE_FONT_OTHER_ORDER = ("arialblack", "arialunicode")
UNICODE_CMAPS = ((3, 10), (0, 6), (0, 4), (3, 1), (0, 3), (0, 2), (0, 1), (0, 0))
PUA_RANGES = ((0xE000, 0xF8FF), (0xF0000, 0x10FFFF))

# the 258 glyph names of the Macintosh standard order ('post' formats 1.0 and 2.0)
MAC_GLYPH_NAMES = (
    ".notdef .null nonmarkingreturn space exclam quotedbl numbersign dollar percent ampersand "
    "quotesingle parenleft parenright asterisk plus comma hyphen period slash zero one two three "
    "four five six seven eight nine colon semicolon less equal greater question at A B C D E F G "
    "H I J K L M N O P Q R S T U V W X Y Z bracketleft backslash bracketright asciicircum "
    "underscore grave a b c d e f g h i j k l m n o p q r s t u v w x y z braceleft bar "
    "braceright asciitilde Adieresis Aring Ccedilla Eacute Ntilde Odieresis Udieresis aacute "
    "agrave acircumflex adieresis atilde aring ccedilla eacute egrave ecircumflex edieresis "
    "iacute igrave icircumflex idieresis ntilde oacute ograve ocircumflex odieresis otilde "
    "uacute ugrave ucircumflex udieresis dagger degree cent sterling section bullet paragraph "
    "germandbls registered copyright trademark acute dieresis notequal AE Oslash infinity "
    "plusminus lessequal greaterequal yen mu partialdiff summation product pi integral "
    "ordfeminine ordmasculine Omega ae oslash questiondown exclamdown logicalnot radical florin "
    "approxequal Delta guillemotleft guillemotright ellipsis nonbreakingspace Agrave Atilde "
    "Otilde OE oe endash emdash quotedblleft quotedblright quoteleft quoteright divide lozenge "
    "ydieresis Ydieresis fraction currency guilsinglleft guilsinglright fi fl daggerdbl "
    "periodcentered quotesinglbase quotedblbase perthousand Acircumflex Ecircumflex Aacute "
    "Edieresis Egrave Iacute Icircumflex Idieresis Igrave Oacute Ocircumflex apple Ograve "
    "Uacute Ucircumflex Ugrave dotlessi circumflex tilde macron breve dotaccent ring cedilla "
    "hungarumlaut ogonek caron Lslash lslash Scaron scaron Zcaron zcaron brokenbar Eth eth "
    "Yacute yacute Thorn thorn minus multiply onesuperior twosuperior threesuperior onehalf "
    "onequarter threequarters franc Gbreve gbreve Idotaccent Scedilla scedilla Cacute cacute "
    "Ccaron ccaron dcroat"
).split()


class _Malformed(ValueError):
    """An offset, length or count in the font program points outside its data."""


def _u16(data: bytes, pos: int) -> int:
    if pos < 0 or pos + 2 > len(data):
        raise _Malformed("read past the end")
    return (data[pos] << 8) | data[pos + 1]


def _i16(data: bytes, pos: int) -> int:
    value = _u16(data, pos)
    return value - 0x10000 if value & 0x8000 else value


def _u32(data: bytes, pos: int) -> int:
    if pos < 0 or pos + 4 > len(data):
        raise _Malformed("read past the end")
    return struct.unpack_from(">I", data, pos)[0]


class FontProgram:
    """What the text stage needs of a font program: code → glyph and glyph → Unicode."""

    def __init__(self, num_glyphs: int, cmaps: dict[tuple[int, int], dict[int, int]],
                 glyph_names: list[str] | None, cid_to_gid: dict[int, int] | None = None):
        self.num_glyphs = num_glyphs
        self.cmaps = cmaps
        self.glyph_names = glyph_names
        self.cid_to_gid = cid_to_gid      # a CID-keyed 'CFF ' table's charset, inverted
        self._reverse: dict[int, int] | None = None

    def glyph_of_simple_code(self, code: int) -> int | None:
        """Glyph of a simple font's one-byte code: (3,0) with the symbol offsets, else (1,0), else (3,1)."""
        symbol = self.cmaps.get((3, 0))
        if symbol:
            for offset in SYMBOL_CMAP_OFFSETS:
                gid = symbol.get(offset + code)
                if gid:
                    return gid
        mac = self.cmaps.get((1, 0))
        if mac and mac.get(code):
            return mac[code]
        unicode = self.cmaps.get((3, 1))
        if unicode and unicode.get(code):
            return unicode[code]
        return None

    def unicode_of_glyph(self, gid: int) -> str | None:
        """Text of glyph `gid`: reversed Unicode cmap, else its 'post' name; None when neither knows."""
        if not isinstance(gid, int) or gid <= 0:
            return None
        if self._reverse is None:
            self._reverse = self._reverse_unicode()
        cp = self._reverse.get(gid)
        if cp is not None:
            return chr(cp)
        if self.glyph_names is not None and gid < len(self.glyph_names):
            text = glyph_to_unicode(self.glyph_names[gid])
            if usable_text(text):
                return text
        return None

    def _reverse_unicode(self) -> dict[int, int]:
        best: dict[int, int] = {}
        for key in UNICODE_CMAPS:
            table = self.cmaps.get(key)
            if not table:
                continue
            for cp, gid in table.items():
                if gid <= 0 or not _plain_code_point(cp):
                    continue
                known = best.get(gid)
                if known is None or _rank(cp) < _rank(known):
                    best[gid] = cp
        return best


def _plain_code_point(cp: int) -> bool:
    # controls, surrogates and noncharacters are never a glyph's text
    return not (cp < 0x20 or 0x7F <= cp <= 0x9F or 0xD800 <= cp <= 0xDFFF
                or cp > 0x10FFFF or (cp & 0xFFFE) == 0xFFFE or 0xFDD0 <= cp <= 0xFDEF)


def _rank(cp: int) -> tuple[int, int, int]:
    """Lower is better: outside the Private Use Area, in the BMP, the smallest code point."""
    pua = any(low <= cp <= high for low, high in PUA_RANGES)
    return (1 if pua else 0, 1 if cp > 0xFFFF else 0, cp)


# ---------------------------------------------------------------- table parsing

def _table_directory(data: bytes) -> dict[bytes, tuple[int, int]]:
    start = 0
    if data[:4] == TTC_TAG:
        if _u32(data, 8) == 0:
            raise _Malformed("empty font collection")
        start = _u32(data, 12)
    if data[start:start + 4] not in SFNT_VERSIONS:
        raise _Malformed("not an sfnt font program")
    count = _u16(data, start + 4)
    if count > MAX_TABLES:
        raise _Malformed("too many tables")
    tables: dict[bytes, tuple[int, int]] = {}
    for i in range(count):
        record = start + 12 + 16 * i
        tag = data[record:record + 4]
        offset, length = _u32(data, record + 8), _u32(data, record + 12)
        if len(tag) == 4 and offset + length <= len(data) and tag not in tables:
            tables[tag] = (offset, length)
    return tables


def _cmap_subtable(data: bytes, pos: int, end: int) -> dict[int, int] | None:
    """Code → glyph of one cmap subtable (formats 0, 4, 6, 12), or None for other formats."""
    fmt = _u16(data, pos)
    out: dict[int, int] = {}
    if fmt == 0:
        glyphs = data[pos + 6:pos + 6 + 256]
        if pos + 6 + 256 > end:
            raise _Malformed("short format 0 subtable")
        return {code: gid for code, gid in enumerate(glyphs) if gid}
    if fmt == 6:
        first, count = _u16(data, pos + 6), _u16(data, pos + 8)
        if pos + 10 + 2 * count > end:
            raise _Malformed("short format 6 subtable")
        for k in range(count):
            gid = _u16(data, pos + 10 + 2 * k)
            if gid:
                out[first + k] = gid
        return out
    if fmt == 4:
        return _cmap_format4(data, pos, end)
    if fmt == 12:
        groups = _u32(data, pos + 12)
        if pos + 16 + 12 * groups > end:
            raise _Malformed("short format 12 subtable")
        visited = 0
        for k in range(groups):
            record = pos + 16 + 12 * k
            first, last, gid = _u32(data, record), _u32(data, record + 4), _u32(data, record + 8)
            if first > last or last > 0x10FFFF:
                continue
            visited += last - first + 1
            if visited > MAX_CMAP_ENTRIES:
                break
            for cp in range(first, last + 1):
                glyph = gid + cp - first
                if 0 < glyph <= MAX_GLYPHS:
                    out[cp] = glyph
        return out
    return None


def _cmap_format4(data: bytes, pos: int, end: int) -> dict[int, int]:
    segments = _u16(data, pos + 6) // 2
    ends_at = pos + 14
    starts_at = ends_at + 2 * segments + 2
    deltas_at = starts_at + 2 * segments
    range_offsets_at = deltas_at + 2 * segments
    if range_offsets_at + 2 * segments > len(data):
        raise _Malformed("short format 4 subtable")
    out: dict[int, int] = {}
    visited = 0
    for i in range(segments):
        last, first = _u16(data, ends_at + 2 * i), _u16(data, starts_at + 2 * i)
        delta, range_offset = _i16(data, deltas_at + 2 * i), _u16(data, range_offsets_at + 2 * i)
        if first > last or first == 0xFFFF:
            continue
        visited += last - first + 1
        if visited > MAX_CMAP_ENTRIES:
            break
        for code in range(first, last + 1):
            if range_offset == 0:
                gid = (code + delta) & 0xFFFF
            else:
                at = range_offsets_at + 2 * i + range_offset + 2 * (code - first)
                if at + 2 > len(data):
                    break           # the rest of this segment lies outside the data
                gid = _u16(data, at)
                if gid:
                    gid = (gid + delta) & 0xFFFF
            if gid:
                out[code] = gid
    return out


def _cmaps(data: bytes, offset: int, length: int) -> dict[tuple[int, int], dict[int, int]]:
    # subtables are bounded by the data, not by the cmap table's length: fonts get that wrong
    count = _u16(data, offset + 2)
    found: dict[tuple[int, int], dict[int, int]] = {}
    for i in range(min(count, MAX_CMAP_SUBTABLES)):
        record = offset + 4 + 8 * i
        key = (_u16(data, record), _u16(data, record + 2))
        sub = offset + _u32(data, record + 4)
        if key in found or sub >= len(data):
            continue
        try:
            table = _cmap_subtable(data, sub, len(data))
        except _Malformed:
            continue            # one bad subtable does not spoil the others
        if table:
            found[key] = table
    return found


def _post_names(data: bytes, offset: int, length: int, num_glyphs: int) -> list[str] | None:
    version = _u32(data, offset)
    if version == 0x00010000:
        return list(MAC_GLYPH_NAMES[:max(num_glyphs, 0) or len(MAC_GLYPH_NAMES)])
    if version != 0x00020000:
        return None                 # 3.0 has no names; 2.5 and 4.0 are obsolete
    end = min(len(data), offset + length)
    count = _u16(data, offset + 32)
    indices = [_u16(data, offset + 34 + 2 * k) for k in range(count)]
    extra: list[str] = []
    needed = max((i - len(MAC_GLYPH_NAMES) + 1 for i in indices), default=0)
    pos = offset + 34 + 2 * count
    while len(extra) < needed and pos < end:
        size = data[pos]
        extra.append(data[pos + 1:pos + 1 + size].decode("latin-1"))
        pos += 1 + size
    names = []
    for index in indices:
        if index < len(MAC_GLYPH_NAMES):
            names.append(MAC_GLYPH_NAMES[index])
        else:
            k = index - len(MAC_GLYPH_NAMES)
            names.append(extra[k] if k < len(extra) else "")
    return names


def parse_font_program(data: bytes) -> FontProgram | None:
    """The cmap, post and maxp of a TrueType/OpenType program; None when it is not one or is corrupt."""
    if not isinstance(data, (bytes, bytearray)) or len(data) < 12:
        return None
    data = bytes(data)
    try:
        tables = _table_directory(data)
        num_glyphs = MAX_GLYPHS
        if b"maxp" in tables:
            num_glyphs = _u16(data, tables[b"maxp"][0] + 4)
        cmaps = _cmaps(data, *tables[b"cmap"]) if b"cmap" in tables else {}
        names = None
        if b"post" in tables:
            try:
                names = _post_names(data, *tables[b"post"], num_glyphs)
            except _Malformed:
                names = None
        cid_to_gid = None
        if b"CFF " in tables:
            offset, length = tables[b"CFF "]
            cid_to_gid = _cff_cid_to_gid(data[offset:offset + length])
    except (_Malformed, struct.error, IndexError, ValueError):
        return None
    if not cmaps and not names:
        return None
    return FontProgram(num_glyphs, cmaps, names, cid_to_gid)


def _cff_cid_to_gid(cff: bytes) -> dict[int, int] | None:
    """CID → glyph of a CID-keyed CFF program (its charset names each glyph's CID), else None."""
    try:
        _names, pos = fontfile._cff_index(cff, fontfile._card(cff, 2, 1))
        top_dicts, _pos = fontfile._cff_index(cff, pos)
        if not top_dicts:
            return None
        top = fontfile._cff_dict(cff[top_dicts[0][0]:top_dicts[0][1]])
        if fontfile._OP_ROS not in top:
            return None     # not CID-keyed: a CIDFontType0 then uses CIDs as glyph indices
        count = fontfile._card(cff, int((top.get(fontfile._OP_CHARSTRINGS) or [0])[0]), 2)
        charset = fontfile._cff_charset(cff, int((top.get(fontfile._OP_CHARSET) or [0])[0]), count)
    except (fontfile._CFFError, IndexError, ValueError, TypeError):
        return None
    if charset is None:
        return None
    out: dict[int, int] = {}
    for gid, cid in enumerate(charset):
        out.setdefault(cid, gid)
    return out


# ---------------------------------------------------------------- the hooks for the font loaders

def _program_stream(descriptor: Any) -> tuple[Any, str] | None:
    """The embedded sfnt program of a font descriptor: /FontFile2, or /FontFile3 of /Subtype /OpenType."""
    if not is_dict(descriptor):
        return None
    stream = get(descriptor, "/FontFile2")
    if stream is not None:
        return stream, "/FontFile2"
    stream = get(descriptor, "/FontFile3")
    if stream is not None and name(get(stream, "/Subtype")) == "OpenType":
        return stream, "/FontFile3"
    return None


def _load_program(source: tuple[Any, str], read_stream: Callable[[Any], bytes],
                  warnings: list[str]) -> FontProgram | None:
    stream, what = source
    data = read(stream, read_stream, warnings, what)
    if not data:
        return None
    program = parse_font_program(data)
    if program is None:
        warnings.append(f"embedded font program ({what}) has no readable cmap or post table")
    return program


def simple_font_texts(descriptor: Any, read_stream: Callable[[Any], bytes],
                      warnings: list[str]) -> Callable[[], list[str | None]] | None:
    """For a simple font with an embedded sfnt program: a function giving the text of each of
    the 256 codes from the program (None where it knows none), or None without a program.
    Nothing is read until the function is called."""
    source = _program_stream(descriptor)
    if source is None:
        return None

    def texts() -> list[str | None]:
        program = _load_program(source, read_stream, warnings)
        if program is None:
            return [None] * 256
        out: list[str | None] = []
        for code in range(256):
            gid = program.glyph_of_simple_code(code)
            out.append(program.unicode_of_glyph(gid) if gid is not None else None)
        texts.mac_cmap_only = (3, 0) not in program.cmaps and bool(program.cmaps.get((1, 0)))
        return out

    texts.mac_cmap_only = False   # set once read: the program selects glyphs through (1,0) alone

    return texts


def cid_font_text(cid_font: Any, read_stream: Callable[[Any], bytes],
                  warnings: list[str]) -> Callable[[int], str | None] | None:
    """For a CIDFont with an embedded sfnt program: CID → text through /CIDToGIDMap and the
    program's tables, or None without a program. The program is read on the first call."""
    if not is_dict(cid_font):
        return None
    source = _program_stream(get(cid_font, "/FontDescriptor"))
    if source is None:
        return None
    state: dict[str, Any] = {}

    def load() -> None:
        state["program"] = _load_program(source, read_stream, warnings)
        state["gids"] = _cid_to_gid_map(cid_font, read_stream, warnings)

    def text(cid: int) -> str | None:
        if not state:
            try:
                load()
            except BudgetExceeded:
                raise
            except Exception as exc:  # never let a font program end the page
                warnings.append(f"embedded font program unusable ({type(exc).__name__})")
                state.update(program=None, gids=None)
        program, gids = state["program"], state["gids"]
        if program is None or not isinstance(cid, int) or cid < 0:
            return None
        if gids is None:
            gid = cid if program.cid_to_gid is None else program.cid_to_gid.get(cid)
            if gid is None:
                return None
        else:
            at = 2 * cid
            if at + 2 > len(gids):
                return None
            gid = (gids[at] << 8) | gids[at + 1]
        return program.unicode_of_glyph(gid)

    return text


def core_font_glyph_text(cid_font: Any, font_name: str) -> Callable[[int], str | None] | None:
    """CORE_FONT_GLYPH_ORDER: for a CIDFontType2 that is not embedded, shown through Identity
    CIDs = glyph ids (no /CIDToGIDMap stream), whose name is a Windows core font: glyph id → text
    by its glyph order (CORE_FONT_MAC_RANGES, CORE_FONT_EXTENDED); None for any other font."""
    if not is_dict(cid_font) or name(get(cid_font, "/Subtype")) != "CIDFontType2":
        return None
    if _program_stream(get(cid_font, "/FontDescriptor")) is not None:
        return None
    gid_map = get(cid_font, "/CIDToGIDMap")
    if gid_map is not None and name(gid_map) != "Identity":
        return None
    key = "".join(ch for ch in font_name.lower() if ch.isalnum())
    if not key.startswith(CORE_FONT_FAMILIES) or key.startswith(CORE_FONT_OTHER_ORDER):
        return None
    return arial_glyph if key.startswith("arial") else core_font_glyph


def arial_glyph(gid: int) -> str | None:
    """The text of glyph `gid` of Arial: the core fonts' order, then its Cyrillic (ARIAL_CYRILLIC_FIRST)."""
    text = core_font_glyph(gid)
    if text is None and isinstance(gid, int):
        k = gid - ARIAL_CYRILLIC_FIRST
        if 0 <= k <= ARIAL_CYRILLIC[1] - ARIAL_CYRILLIC[0]:
            return chr(ARIAL_CYRILLIC[0] + k)
    return text


def core_font_glyph(gid: int) -> str | None:
    """The text of glyph `gid` of a Windows core font (CORE_FONT_GLYPH_ORDER), None if unknown."""
    if not isinstance(gid, int):
        return None
    for first, end, shift in CORE_FONT_MAC_RANGES:
        if first <= gid < end:
            mapped = glyph_to_unicode(MAC_GLYPH_NAMES[gid + shift])
            return mapped if usable_text(mapped) else None
    k = gid - CORE_FONT_FIRST_EXTENDED
    if 0 <= k < len(CORE_FONT_EXTENDED) and CORE_FONT_EXTENDED[k] != "\0":
        return CORE_FONT_EXTENDED[k]
    return None


def _cid_to_gid_map(cid_font: Any, read_stream: Callable[[Any], bytes], warnings: list[str]) -> bytes | None:
    """The /CIDToGIDMap stream's bytes (2 per CID), or None for Identity (and when absent)."""
    entry = resolve(cid_font.get("/CIDToGIDMap")) if hasattr(cid_font, "get") else None
    if entry is None or name(entry) == "Identity":
        return None
    if hasattr(entry, "get_data"):
        return read(entry, read_stream, warnings, "/CIDToGIDMap") or None
    warnings.append("/CIDToGIDMap is neither /Identity nor a stream; Identity assumed")
    return None


class ProgramFilledTable(tuple):
    """A simple font's 256 DecodedChars whose undecodable codes get their text from the
    embedded program the first time one of them is looked up (the interpreter indexes the
    table once per code and text state, so the program is read only if such a code is shown).
    `guessed` codes have only a WinAnsi guess: a program that selects glyphs through its (1,0)
    Macintosh cmap alone gives them its own text too (simple.py, MAC_CMAP_ENCODING)."""

    def __new__(cls, chars: tuple, program_texts: Callable[[], list[str | None]], warnings: list[str],
                guessed: frozenset[int] = frozenset()):
        table = super().__new__(cls, chars)
        table._program_texts = program_texts
        table._warnings = warnings
        table._guessed = guessed
        table._filled = None
        return table

    def __getitem__(self, code):
        filled = self._filled
        if filled is not None:
            return filled[code]
        char = tuple.__getitem__(self, code)
        if char.text is not None and code not in self._guessed:
            return char
        self._filled = filled = self._fill()
        return filled[code]

    def _fill(self) -> tuple:
        chars = tuple(tuple.__iter__(self))
        try:
            texts = self._program_texts()
        except BudgetExceeded:
            raise
        except Exception as exc:  # never let a font program end the page
            self._warnings.append(f"embedded font program unusable ({type(exc).__name__})")
            return chars
        guessed = self._guessed if getattr(self._program_texts, "mac_cmap_only", False) else ()
        filled = [char if not texts[char.code] or (char.text is not None and char.code not in guessed) else
                  DecodedChar(char.code, texts[char.code], char.width, char.is_space,
                              char.vertical_advance, char.position_x, char.position_y)
                  for char in chars]
        return tuple(filled)
