"""Base encodings of simple fonts (ISO 32000-1 Annex D) and /Differences.

Each base encoding is a 256-entry tuple code → Unicode text (None where the encoding leaves the
code undefined). pypdf ships these tables as the AGL values of Annex D's glyph names, which is
all text decoding needs; MacExpertEncoding, which pypdf lacks, is written here from Annex D as
glyph names and resolved through the glyph list the same way.
"""
from __future__ import annotations

from functools import cache
from typing import Any, Iterable

from pypdf._codecs import (
    _mac_encoding,
    _pdfdoc_encoding,
    _std_encoding,
    _symbol_encoding,
    _win_encoding,
    _zapfding_encoding,
)

from pypdf.generic import NameObject

from .glyphnames import glyph_to_unicode

Encoding = tuple  # 256 × (str | None)

# /Differences arrays longer than this are garbage (a simple font has 256 codes)
MAX_DIFFERENCES_ITEMS = 4096


def _defined(text: str) -> str | None:
    """pypdf marks undefined codes with a control character (or the code itself for cp1252);
    Private Use Area values (Symbol's bracket pieces) carry no text either."""
    if not text or text == "\u0000":
        return None
    code = ord(text[0]) if len(text) == 1 else 0x20
    if code < 0x20 or 0x7F <= code <= 0x9F or 0xE000 <= code <= 0xF8FF:
        return None
    return text


def _table(chars: Iterable[str]) -> Encoding:
    return tuple(_defined(c) for c in chars)


def _with(table: Encoding, changes: dict[int, str | None]) -> Encoding:
    entries = list(table)
    for code, text in changes.items():
        entries[code] = text
    return tuple(entries)


# codes Annex D leaves undefined that pypdf fills with a placeholder equal to the code
_STANDARD_UNDEFINED = (
    [0xA0, 0xB0, 0xB5, 0xBE, 0xC0, 0xC9, 0xCC, 0xE0, 0xE2, 0xF6, 0xF7]
    + list(range(0xD1, 0xE0)) + list(range(0xE4, 0xE8)) + list(range(0xEC, 0xF1))
    + list(range(0xF2, 0xF5)) + list(range(0xFC, 0x100))
)
STANDARD: Encoding = _with(_table(_std_encoding), dict.fromkeys(_STANDARD_UNDEFINED))
# cp1252 as pypdf has it, with Annex D's glyph names at 0xA0 (space) and 0xAD (hyphen):
# producers put the visible space/hyphen glyph there, not NBSP / soft hyphen
WIN_ANSI: Encoding = _with(_table(_win_encoding), {0xA0: " ", 0xAD: "-"})
MAC_ROMAN: Encoding = _with(_table(_mac_encoding), {0xCA: " "})
PDF_DOC: Encoding = _table(_pdfdoc_encoding)
SYMBOL: Encoding = _with(_table(_symbol_encoding), dict.fromkeys((0xF0, 0xFF)))
ZAPF_DINGBATS: Encoding = _with(_table(_zapfding_encoding), dict.fromkeys((0xA0, 0xF0, 0xFF)))

# Annex D.4, MacExpertEncoding: (first code, glyph names of consecutive codes); "-" is undefined
_MAC_EXPERT_RUNS = (
    (0x20, "space exclamsmall Hungarumlautsmall centoldstyle dollaroldstyle dollarsuperior "
           "ampersandsmall Acutesmall parenleftsuperior parenrightsuperior twodotenleader "
           "onedotenleader comma hyphen period fraction zerooldstyle oneoldstyle twooldstyle "
           "threeoldstyle fouroldstyle fiveoldstyle sixoldstyle sevenoldstyle eightoldstyle "
           "nineoldstyle colon semicolon - threequartersemdash - questionsmall"),
    (0x44, "Ethsmall - - onequarter onehalf threequarters oneeighth threeeighths fiveeighths "
           "seveneighths onethird twothirds"),
    (0x56, "ff fi fl ffi ffl parenleftinferior - parenrightinferior Circumflexsmall "
           "hypheninferior Gravesmall Asmall Bsmall Csmall Dsmall Esmall Fsmall Gsmall Hsmall "
           "Ismall Jsmall Ksmall Lsmall Msmall Nsmall Osmall Psmall Qsmall Rsmall Ssmall Tsmall "
           "Usmall Vsmall Wsmall Xsmall Ysmall Zsmall colonmonetary onefitted rupiah Tildesmall"),
    (0x81, "asuperior centsuperior"),
    (0x87, "Aacutesmall Agravesmall Acircumflexsmall Adieresissmall Atildesmall Aringsmall "
           "Ccedillasmall Eacutesmall Egravesmall Ecircumflexsmall Edieresissmall Iacutesmall "
           "Igravesmall Icircumflexsmall Idieresissmall Ntildesmall Oacutesmall Ogravesmall "
           "Ocircumflexsmall Odieresissmall Otildesmall Uacutesmall Ugravesmall "
           "Ucircumflexsmall Udieresissmall"),
    (0xA1, "eightsuperior fourinferior threeinferior sixinferior eightinferior seveninferior "
           "Scaronsmall - centinferior twoinferior - Dieresissmall - Caronsmall osuperior "
           "fiveinferior - commainferior periodinferior Yacutesmall - dollarinferior - - "
           "Thornsmall - nineinferior zeroinferior Zcaronsmall AEsmall Oslashsmall "
           "questiondownsmall oneinferior Lslashsmall"),
    (0xC9, "Cedillasmall"),
    (0xCF, "OEsmall figuredash hyphensuperior"),
    (0xD6, "exclamdownsmall - Ydieresissmall - onesuperior twosuperior threesuperior "
           "foursuperior fivesuperior sixsuperior sevensuperior ninesuperior zerosuperior - "
           "esuperior rsuperior tsuperior - - isuperior ssuperior dsuperior"),
    (0xF1, "lsuperior Ogoneksmall Brevesmall Macronsmall bsuperior nsuperior msuperior "
           "commasuperior periodsuperior Dotaccentsmall Ringsmall"),
)


def _mac_expert_names() -> tuple:
    names: list[str | None] = [None] * 256
    for first, run in _MAC_EXPERT_RUNS:
        for offset, name in enumerate(run.split()):
            names[first + offset] = None if name == "-" else name
    return tuple(names)


MAC_EXPERT_NAMES = _mac_expert_names()
MAC_EXPERT_ENCODING = "MacExpertEncoding"


@cache
def mac_expert() -> Encoding:
    """MacExpertEncoding's texts, resolved on first use: its small-capital and old-style names
    are the glyph list's slowest lookups, and few files use it (~3 M instructions a process)."""
    return tuple(glyph_to_unicode(n) if n else None for n in MAC_EXPERT_NAMES)


# the names /BaseEncoding (or /Encoding) may give, besides MAC_EXPERT_ENCODING
BASE_ENCODINGS: dict[str, Encoding] = {
    "StandardEncoding": STANDARD,
    "WinAnsiEncoding": WIN_ANSI,
    "MacRomanEncoding": MAC_ROMAN,
    "PDFDocEncoding": PDF_DOC,
}
# built-in encodings of the two symbolic standard-14 fonts
SYMBOL_ENCODINGS: dict[str, Encoding] = {"Symbol": SYMBOL, "ZapfDingbats": ZAPF_DINGBATS}


def base_encoding(name: str) -> Encoding | None:
    """Base encoding by its PDF name (with or without the leading slash); None when unknown."""
    name = name.lstrip("/")
    return mac_expert() if name == MAC_EXPERT_ENCODING else BASE_ENCODINGS.get(name)


def parse_differences(items: Any, warnings: list[str] | None = None) -> dict[int, str]:
    """/Differences array → {code: glyph name}. Bad items are skipped, never fatal."""
    differences: dict[int, str] = {}
    code = None
    try:
        entries = list(items)[:MAX_DIFFERENCES_ITEMS]
    except TypeError:
        if warnings is not None:
            warnings.append("/Differences is not an array")
        return differences
    for item in entries:
        if hasattr(item, "get_object"):
            try:
                item = item.get_object()
            except Exception:
                continue
        if isinstance(item, (int, float)) and not isinstance(item, bool):
            code = int(item)
        elif isinstance(item, NameObject) and code is not None:
            if 0 <= code <= 255:
                differences[code] = item[1:] if item.startswith("/") else item
            code += 1
    return differences
