"""pdfTeX's bitmap (PK) Type3 fonts: glyphs named `a<code>` in the TeX font's own encoding.

pdfTeX embeds METAFONT fonts that have no Type1 version as Type3 fonts whose /Differences name
each glyph after its own code (`65 /a65`) and carry no ToUnicode. The code then means what the
TeX font encoding says: OT1 (Knuth's cmr layout) or T1 (Cork, the EC fonts). The two differ
in a few telltale places (ligatures at 0x0B–0x0F vs 0x1B–0x1F, quotes and dashes), so the set
of glyphs the font defines picks one; when it cannot, only the codes both agree on are used.
A font defining only codes of textcomp's TS1 symbols above 0x7F (a \\textbullet list's
bullet, a degree sign) is TS1: in T1 those codes are accented letters, which never make up
all of a text font's glyphs.
"""
from __future__ import annotations

import re
from functools import cache

from .glyphnames import glyph_to_unicode

_SELF_NAME = re.compile(r"a(\d{1,3})\Z")


def _table(runs: tuple) -> tuple:
    names: list[str | None] = [None] * 256
    for first, run in runs:
        for offset, glyph in enumerate(run.split()):
            names[first + offset] = None if glyph == "-" else glyph
    return tuple(glyph_to_unicode(n) if n else None for n in names)


_ASCII_NAMES = (
    "exclam quotedbl numbersign dollar percent ampersand quoteright parenleft parenright "
    "asterisk plus comma hyphen period slash zero one two three four five six seven eight nine "
    "colon semicolon less equal greater question at A B C D E F G H I J K L M N O P Q R S T U V "
    "W X Y Z bracketleft backslash bracketright asciicircum underscore quoteleft a b c d e f g "
    "h i j k l m n o p q r s t u v w x y z braceleft bar braceright asciitilde"
)

# the glyph-name runs of each encoding; their code → text tables are built on first use (only
# pdfTeX bitmap fonts need them, so a process that meets none skips ~500 glyph-name lookups)
# T1 (Cork) encoding, as in the EC fonts
_T1_RUNS = (
    (0x00, "grave acute circumflex tilde dieresis hungarumlaut ring caron breve macron "
           "dotaccent cedilla ogonek quotesinglbase guilsinglleft guilsinglright quotedblleft "
           "quotedblright quotedblbase guillemotleft guillemotright endash emdash - - dotlessi "
           "dotlessj ff fi fl ffi ffl visiblespace"),
    (0x21, _ASCII_NAMES),
    (0x7F, "hyphen Abreve Aogonek Cacute Ccaron Dcaron Ecaron Eogonek Gbreve Lacute Lcaron "
           "Lslash Nacute Ncaron Eng Ohungarumlaut Racute Rcaron Sacute Scaron Scedilla Tcaron "
           "Tcommaaccent Uhungarumlaut Uring Ydieresis Zacute Zcaron Zdotaccent IJ Idotaccent "
           "dcroat section abreve aogonek cacute ccaron dcaron ecaron eogonek gbreve lacute "
           "lcaron lslash nacute ncaron eng ohungarumlaut racute rcaron sacute scaron scedilla "
           "tcaron tcommaaccent uhungarumlaut uring ydieresis zacute zcaron zdotaccent ij "
           "exclamdown questiondown sterling Agrave Aacute Acircumflex Atilde Adieresis Aring AE "
           "Ccedilla Egrave Eacute Ecircumflex Edieresis Igrave Iacute Icircumflex Idieresis Eth "
           "Ntilde Ograve Oacute Ocircumflex Otilde Odieresis OE Oslash Ugrave Uacute "
           "Ucircumflex Udieresis Yacute Thorn Germandbls agrave aacute acircumflex atilde "
           "adieresis aring ae ccedilla egrave eacute ecircumflex edieresis igrave iacute "
           "icircumflex idieresis eth ntilde ograve oacute ocircumflex otilde odieresis oe "
           "oslash ugrave uacute ucircumflex udieresis yacute thorn germandbls"),
)

# OT1 encoding, as in Knuth's Computer Modern text fonts (cmr, cmbx, cmti, …)
_OT1_RUNS = (
    (0x00, "Gamma Delta Theta Lambda Xi Pi Sigma Upsilon Phi Psi Omega ff fi fl ffi ffl "
           "dotlessi dotlessj grave acute caron breve macron ring cedilla germandbls ae oe "
           "oslash AE OE Oslash -"),
    (0x21, _ASCII_NAMES),
    (0x22, "quotedblright"), (0x3C, "exclamdown"), (0x3E, "questiondown"),
    (0x5C, "quotedblleft"), (0x5E, "circumflex dotaccent"),
    (0x7B, "endash emdash hungarumlaut tilde dieresis"),
)


@cache
def t1_table() -> tuple:
    return _table(_T1_RUNS)


@cache
def ot1_table() -> tuple:
    return _table(_OT1_RUNS)

# TS1 (textcomp's symbols: \\textbullet, \\textdegree, …) from 0x80 on, as ts1enc.def declares them;
# pdfTeX embeds tcrm and its kin as PK fonts where cm-super is missing. Its codes below 0x80
# (old-style digits, capital accents) are left out: they overlap the text encodings.
_TS1_HIGH = ("\u02d8\u02c7\u02dd\u02f5\u2020\u2021\u2016\u2030\u2022\u2103$\u00a2\u0192\u20a1\u20a9\u20a6"
             "\u20b2\u20b1\u20a4\u211e\u203d\u2e18\u20ab\u2122\u2031\u204b\u0e3f\u2116\u2052\u212e\u25e6\u2120"
             "\u2045\u2046\u00a2\u00a3\u00a4\u00a5\u00a6\u00a7\u00a8\u00a9\u00aa\U0001f12f\u00ac\u2117\u00ae\u00af"
             "\u00b0\u00b1\u00b2\u00b3\u00b4\u00b5\u00b6\u00b7\u203b\u00b9\u00ba\u221a\u00bc\u00bd\u00be\u20ac")
_TS1_OTHER = {0xD6: "\u00d7", 0xF6: "\u00f7"}


@cache
def ts1_table() -> tuple:
    names: list[str | None] = [None] * 256
    names[0x80:0x80 + len(_TS1_HIGH)] = _TS1_HIGH
    for code, text in _TS1_OTHER.items():
        names[code] = text
    return tuple(names)


# codes whose glyphs only one of the two encodings uses in running text
_T1_EVIDENCE = frozenset([0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x1B, 0x1C, 0x1D, 0x1E, 0x1F]
                         + list(range(0x80, 0x100)))
_OT1_EVIDENCE = frozenset([0x0B, 0x0C, 0x0D, 0x0E, 0x0F, 0x22, 0x3C, 0x3E, 0x5C, 0x7B, 0x7C])


def self_named_codes(differences: dict[int, str]) -> bool:
    """True when every glyph is named `a<its own code>` (and there is at least one)."""
    if not differences:
        return False
    for code, glyph in differences.items():
        match = _SELF_NAME.match(glyph)
        if glyph != ".notdef" and (match is None or int(match.group(1)) != code):
            return False
    return any(g != ".notdef" for g in differences.values())


def tex_bitmap_encoding(defined_codes) -> tuple:
    """Code → text for a pdfTeX PK font defining `defined_codes` (see module doc)."""
    codes = set(defined_codes)
    if codes and all(ts1_table()[code] is not None for code in codes):
        return ts1_table()   # symbols alone: a T1 text font's words define ASCII letters too
    t1, ot1 = len(codes & _T1_EVIDENCE), len(codes & _OT1_EVIDENCE)
    if t1 > ot1:
        return t1_table()
    if ot1 > t1:
        return ot1_table()
    return tuple(a if a == b else None for a, b in zip(t1_table(), ot1_table()))
