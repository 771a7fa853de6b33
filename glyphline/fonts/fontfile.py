"""Built-in encodings of embedded font programs, for simple fonts whose dictionary gives none.

pdfTeX and many other producers rely on the encoding inside the font program: a Type1 font's
cleartext `/Encoding` array (`dup 65 /A put`), a CFF font's Encoding + charset. Only what names
code → glyph is read; glyph outlines are never touched.
"""
from __future__ import annotations

import re
from typing import Any, Callable

from . import encodings
from ._objects import get, read
from .glyphnames import glyph_to_unicode

# the cleartext part of a Type1 program that holds /Encoding is small; never scan beyond this
MAX_CLEARTEXT_BYTES = 256 * 1024
_TYPE1_STANDARD = re.compile(rb"/Encoding\s+StandardEncoding\s+def")
_TYPE1_ARRAY = re.compile(rb"/Encoding\s+\d+\s+array")
_TYPE1_PUT = re.compile(rb"dup\s+(\d+)\s*/([^\s/\[\]{}()<>%]+)\s+put")


def _type1_encoding(data: bytes):
    """Encoding of a Type1 program's cleartext part (also PFB-wrapped), or None."""
    if data[:2] == b"\x80\x01":  # PFB segment header: 6 bytes, then the cleartext
        data = data[6:]
    end = data.find(b"eexec")
    clear = data[: end if end >= 0 else MAX_CLEARTEXT_BYTES][:MAX_CLEARTEXT_BYTES]
    if _TYPE1_STANDARD.search(clear):
        return encodings.STANDARD
    start = _TYPE1_ARRAY.search(clear)
    if start is None:
        return None
    table: list[str | None] = [None] * 256
    for match in _TYPE1_PUT.finditer(clear, start.end()):
        code = int(match.group(1))
        if code <= 255:
            table[code] = glyph_to_unicode(match.group(2).decode("latin-1"))
    return tuple(table)


# CFF standard strings (Adobe TN 5176, Appendix A): SIDs 0-390 name these glyphs
CFF_STANDARD_STRINGS = tuple((
    ".notdef space exclam quotedbl numbersign dollar percent ampersand quoteright parenleft "
    "parenright asterisk plus comma hyphen period slash zero one two three four five six seven "
    "eight nine colon semicolon less equal greater question at A B C D E F G H I J K L M N O P Q "
    "R S T U V W X Y Z bracketleft backslash bracketright asciicircum underscore quoteleft a b c "
    "d e f g h i j k l m n o p q r s t u v w x y z braceleft bar braceright asciitilde "
    "exclamdown cent sterling fraction yen florin section currency quotesingle quotedblleft "
    "guillemotleft guilsinglleft guilsinglright fi fl endash dagger daggerdbl periodcentered "
    "paragraph bullet quotesinglbase quotedblbase quotedblright guillemotright ellipsis "
    "perthousand questiondown grave acute circumflex tilde macron breve dotaccent dieresis ring "
    "cedilla hungarumlaut ogonek caron emdash AE ordfeminine Lslash Oslash OE ordmasculine ae "
    "dotlessi lslash oslash oe germandbls onesuperior logicalnot mu trademark Eth onehalf "
    "plusminus Thorn onequarter divide brokenbar degree thorn threequarters twosuperior "
    "registered minus eth multiply threesuperior copyright Aacute Acircumflex Adieresis Agrave "
    "Aring Atilde Ccedilla Eacute Ecircumflex Edieresis Egrave Iacute Icircumflex Idieresis "
    "Igrave Ntilde Oacute Ocircumflex Odieresis Ograve Otilde Scaron Uacute Ucircumflex "
    "Udieresis Ugrave Yacute Ydieresis Zcaron aacute acircumflex adieresis agrave aring atilde "
    "ccedilla eacute ecircumflex edieresis egrave iacute icircumflex idieresis igrave ntilde "
    "oacute ocircumflex odieresis ograve otilde scaron uacute ucircumflex udieresis ugrave "
    "yacute ydieresis zcaron exclamsmall Hungarumlautsmall dollaroldstyle dollarsuperior "
    "ampersandsmall Acutesmall parenleftsuperior parenrightsuperior twodotenleader "
    "onedotenleader zerooldstyle oneoldstyle twooldstyle threeoldstyle fouroldstyle "
    "fiveoldstyle sixoldstyle sevenoldstyle eightoldstyle nineoldstyle commasuperior "
    "threequartersemdash periodsuperior questionsmall asuperior bsuperior centsuperior "
    "dsuperior esuperior isuperior lsuperior msuperior nsuperior osuperior rsuperior ssuperior "
    "tsuperior ff ffi ffl parenleftinferior parenrightinferior Circumflexsmall hyphensuperior "
    "Gravesmall Asmall Bsmall Csmall Dsmall Esmall Fsmall Gsmall Hsmall Ismall Jsmall Ksmall "
    "Lsmall Msmall Nsmall Osmall Psmall Qsmall Rsmall Ssmall Tsmall Usmall Vsmall Wsmall Xsmall "
    "Ysmall Zsmall colonmonetary onefitted rupiah Tildesmall exclamdownsmall centoldstyle "
    "Lslashsmall Scaronsmall Zcaronsmall Dieresissmall Brevesmall Caronsmall Dotaccentsmall "
    "Macronsmall figuredash hypheninferior Ogoneksmall Ringsmall Cedillasmall "
    "questiondownsmall oneeighth threeeighths fiveeighths seveneighths onethird twothirds "
    "zerosuperior foursuperior fivesuperior sixsuperior sevensuperior eightsuperior "
    "ninesuperior zeroinferior oneinferior twoinferior threeinferior fourinferior fiveinferior "
    "sixinferior seveninferior eightinferior nineinferior centinferior dollarinferior "
    "periodinferior commainferior Agravesmall Aacutesmall Acircumflexsmall Atildesmall "
    "Adieresissmall Aringsmall AEsmall Ccedillasmall Egravesmall Eacutesmall Ecircumflexsmall "
    "Edieresissmall Igravesmall Iacutesmall Icircumflexsmall Idieresissmall Ethsmall "
    "Ntildesmall Ogravesmall Oacutesmall Ocircumflexsmall Otildesmall Odieresissmall OEsmall "
    "Oslashsmall Ugravesmall Uacutesmall Ucircumflexsmall Udieresissmall Yacutesmall "
    "Thornsmall Ydieresissmall 001.000 001.001 001.002 001.003 Black Bold Book Light Medium "
    "Regular Roman Semibold"
).split())
assert len(CFF_STANDARD_STRINGS) == 391
# top DICT operators (TN 5176 Table 9)
_OP_CHARSET, _OP_ENCODING, _OP_CHARSTRINGS, _OP_ROS = 15, 16, 17, (12, 30)
# charset offsets 0-2 name predefined charsets; only ISOAdobe (0) is SID = GID
_CHARSET_ISO_ADOBE = 0
_ISO_ADOBE_LAST_SID = 228


class _CFFError(Exception):
    pass


def _card(data: bytes, pos: int, size: int) -> int:
    if pos < 0 or pos + size > len(data):
        raise _CFFError("offset outside the font program")
    return int.from_bytes(data[pos:pos + size], "big")


def _cff_index(data: bytes, pos: int) -> tuple[list[tuple[int, int]], int]:
    """An INDEX at `pos` → ([(start, end) of each item], position after it)."""
    count = _card(data, pos, 2)
    if count == 0:
        return [], pos + 2
    off_size = _card(data, pos + 2, 1)
    if not 1 <= off_size <= 4:
        raise _CFFError("bad INDEX offset size")
    offsets = [_card(data, pos + 3 + i * off_size, off_size) for i in range(count + 1)]
    base = pos + 3 + (count + 1) * off_size - 1
    return [(base + offsets[i], base + offsets[i + 1]) for i in range(count)], base + offsets[-1]


def _cff_dict(data: bytes) -> dict:
    result: dict = {}
    operands: list[float] = []
    i, n = 0, len(data)
    while i < n:
        b0 = data[i]
        if b0 <= 21:
            op = (12, _card(data, i + 1, 1)) if b0 == 12 else b0
            i += 2 if b0 == 12 else 1
            result[op] = operands
            operands = []
        elif b0 == 28:
            operands.append(int.from_bytes(data[i + 1:i + 3], "big", signed=True))
            i += 3
        elif b0 == 29:
            operands.append(int.from_bytes(data[i + 1:i + 5], "big", signed=True))
            i += 5
        elif b0 == 30:  # real number: nibbles up to 0xF; its value is never an offset
            i += 1
            while i < n and (data[i] & 0x0F) != 0x0F and (data[i] >> 4) != 0x0F:
                i += 1
            i += 1
            operands.append(0)
        elif 32 <= b0 <= 246:
            operands.append(b0 - 139)
            i += 1
        elif 247 <= b0 <= 250:
            operands.append((b0 - 247) * 256 + _card(data, i + 1, 1) + 108)
            i += 2
        elif 251 <= b0 <= 254:
            operands.append(-(b0 - 251) * 256 - _card(data, i + 1, 1) - 108)
            i += 2
        else:
            i += 1
    return result


def _cff_charset(data: bytes, offset: int, glyph_count: int) -> list[int] | None:
    """GID → SID, or None for the predefined Expert charsets."""
    if offset == _CHARSET_ISO_ADOBE:
        return list(range(min(glyph_count, _ISO_ADOBE_LAST_SID + 1)))
    if offset < 3:
        return None
    sids = [0]
    fmt = _card(data, offset, 1)
    pos = offset + 1
    while len(sids) < glyph_count:
        if fmt == 0:
            sids.append(_card(data, pos, 2))
            pos += 2
        elif fmt in (1, 2):
            first = _card(data, pos, 2)
            left = _card(data, pos + 2, fmt)
            pos += 2 + fmt
            sids.extend(range(first, first + min(left, glyph_count) + 1))
        else:
            return None
    return sids[:glyph_count]


def _cff_encoding(data: bytes):
    """Code → text of a bare CFF program's (FontFile3 /Type1C) encoding, or None."""
    _names, pos = _cff_index(data, _card(data, 2, 1))
    top_dicts, pos = _cff_index(data, pos)
    strings, _pos = _cff_index(data, pos)
    if not top_dicts:
        return None
    top = _cff_dict(data[top_dicts[0][0]:top_dicts[0][1]])
    if _OP_ROS in top or _OP_CHARSTRINGS not in top:
        return None  # CID-keyed: no encoding of its own
    encoding_offset = int((top.get(_OP_ENCODING) or [0])[0])
    if encoding_offset == 0:
        return encodings.STANDARD
    if encoding_offset == 1:
        return None  # predefined Expert encoding: let the caller fall back
    charstrings = int((top.get(_OP_CHARSTRINGS) or [0])[0])
    glyph_count = _card(data, charstrings, 2)
    charset = _cff_charset(data, int((top.get(_OP_CHARSET) or [0])[0]), glyph_count)
    if charset is None:
        return None

    def glyph_name(sid: int) -> str | None:
        if sid < len(CFF_STANDARD_STRINGS):
            return CFF_STANDARD_STRINGS[sid]
        index = sid - len(CFF_STANDARD_STRINGS)
        if index < len(strings):
            start, end = strings[index]
            return data[start:end].decode("latin-1")
        return None

    codes: dict[int, int] = {}  # code → GID
    fmt = _card(data, encoding_offset, 1)
    pos = encoding_offset + 1
    if fmt & 0x7F == 0:
        count = _card(data, pos, 1)
        for gid in range(1, count + 1):
            codes[_card(data, pos + gid, 1)] = gid
        pos += 1 + count
    elif fmt & 0x7F == 1:
        ranges = _card(data, pos, 1)
        gid = 1
        for r in range(ranges):
            first, left = _card(data, pos + 1 + 2 * r, 1), _card(data, pos + 2 + 2 * r, 1)
            for code in range(first, min(first + left, 255) + 1):
                codes[code] = gid
                gid += 1
        pos += 1 + 2 * ranges
    else:
        return None
    table: list[str | None] = [None] * 256
    for code, gid in codes.items():
        if gid < len(charset):
            glyph = glyph_name(charset[gid])
            table[code] = glyph_to_unicode(glyph) if glyph else None
    if fmt & 0x80:  # supplements: extra codes for glyphs by SID
        count = _card(data, pos, 1)
        for k in range(count):
            code, sid = _card(data, pos + 1 + 3 * k, 1), _card(data, pos + 2 + 3 * k, 2)
            glyph = glyph_name(sid)
            table[code] = glyph_to_unicode(glyph) if glyph else None
    return tuple(table)


def builtin_encoding(descriptor: Any, read_stream: Callable[[Any], bytes], warnings: list[str]):
    """Code → text table of the embedded program's own encoding, or None when there is none."""
    if descriptor is None:
        return None
    font_file = get(descriptor, "/FontFile")
    if font_file is not None:
        data = read(font_file, read_stream, warnings, "/FontFile")
        return _type1_encoding(data) if data else None
    font_file = get(descriptor, "/FontFile3")
    if font_file is not None and get(font_file, "/Subtype") == "/Type1C":
        data = read(font_file, read_stream, warnings, "/FontFile3")
        if not data:
            return None
        try:
            return _cff_encoding(data)
        except (_CFFError, IndexError, ValueError):
            warnings.append("embedded CFF font program is malformed; its encoding is not used")
    return None


