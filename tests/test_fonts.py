"""Font stage: encodings, glyph names, ToUnicode CMaps, simple and composite fonts, robustness."""
from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pypdf import PdfWriter
from pypdf.generic import (
    ArrayObject,
    DecodedStreamObject,
    DictionaryObject,
    FloatObject,
    NameObject,
    NullObject,
    NumberObject,
    TextStringObject,
)

from glyphline.errors import BudgetExceeded
from glyphline.fonts import FontCache, load_font
from glyphline.fonts import encodings
from glyphline.fonts.composite import CompositeFont
from glyphline.fonts.glyphnames import glyph_to_unicode
from glyphline.fonts.simple import SimpleFont
from glyphline.fonts.tounicode import parse_cmap
from glyphline.limits import Limits
from pdfbuilder import cff_index, cff_int
from pdfbuilder import pdf_object as pdf_value

LIMITS = Limits()


# ---------------------------------------------------------------- builders

def read_stream(stream) -> bytes:
    return stream.get_data()


def stream(data: bytes, **attrs) -> DecodedStreamObject:
    s = DecodedStreamObject()
    s.set_data(data)
    for key, value in attrs.items():
        s[NameObject("/" + key)] = pdf_value(value)
    return s


def simple(subtype="/Type1", **entries) -> DictionaryObject:
    font = {"/Type": "/Font", "/Subtype": subtype}
    font.update({"/" + k: v for k, v in entries.items()})
    return pdf_value(font)


def load(font_obj, resource="/F1"):
    return load_font(font_obj, resource, LIMITS, read_stream)


def texts(font, data: bytes):
    return [c.text for c in font.decode(data)]


def cmap_bytes(body: str, codespace: str = "<00> <FF>") -> bytes:
    return (
        "/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
        "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n"
        "/CMapName /Test-UCS def /CMapType 2 def\n"
        f"1 begincodespacerange {codespace} endcodespacerange\n"
        f"{body}\n"
        "endcmap CMapName currentdict /CMap defineresource pop end end\n"
    ).encode("latin-1")


def type0(encoding="/Identity-H", to_unicode: bytes | None = None, **cid_entries) -> DictionaryObject:
    cid = {"/Type": "/Font", "/Subtype": "/CIDFontType2", "/BaseFont": "/ABCDEF+Noto",
           "/CIDSystemInfo": {"/Registry": "Adobe", "/Ordering": "Identity", "/Supplement": 0}}
    cid.update({"/" + k: v for k, v in cid_entries.items()})
    font = {"/Type": "/Font", "/Subtype": "/Type0", "/BaseFont": "/ABCDEF+Noto-Identity-H",
            "/Encoding": encoding, "/DescendantFonts": [cid]}
    if to_unicode is not None:
        font["/ToUnicode"] = to_unicode
    return pdf_value(font)


# ---------------------------------------------------------------- base encodings

@pytest.mark.parametrize("encoding, code, text", [
    ("/StandardEncoding", 0x27, "\u2019"),     # quoteright
    ("/StandardEncoding", 0x60, "\u2018"),     # quoteleft
    ("/StandardEncoding", 0xAE, "\ufb01"),     # fi
    ("/StandardEncoding", 0xE1, "\u00c6"),     # AE
    ("/StandardEncoding", 0xA0, None),         # undefined in Standard
    ("/WinAnsiEncoding", 0x27, "'"),
    ("/WinAnsiEncoding", 0x80, "\u20ac"),
    ("/WinAnsiEncoding", 0x93, "\u201c"),
    ("/WinAnsiEncoding", 0x96, "\u2013"),
    ("/WinAnsiEncoding", 0xA0, " "),           # Annex D: space, not NBSP
    ("/WinAnsiEncoding", 0xAD, "-"),           # Annex D: hyphen, not a soft hyphen
    ("/WinAnsiEncoding", 0xE9, "\u00e9"),
    ("/WinAnsiEncoding", 0x81, None),
    ("/MacRomanEncoding", 0x8E, "\u00e9"),
    ("/MacRomanEncoding", 0xD2, "\u201c"),
    ("/MacRomanEncoding", 0xDE, "\ufb01"),
    ("/MacExpertEncoding", 0x61, "a"),         # Asmall: a small capital is the letter
    ("/MacExpertEncoding", 0x31, "1"),         # oneoldstyle
    ("/MacExpertEncoding", 0x56, "\ufb00"),    # ff
    ("/MacExpertEncoding", 0x48, "\u00bd"),    # onehalf
    ("/MacExpertEncoding", 0x87, "\u00e1"),    # Aacutesmall
    ("/MacExpertEncoding", 0xDA, "\u00b9"),    # onesuperior
    ("/MacExpertEncoding", 0x40, None),
    ("/PDFDocEncoding", 0x80, "\u2022"),
    ("/PDFDocEncoding", 0x84, "\u2014"),
    ("/PDFDocEncoding", 0x93, "\ufb01"),
])
def test_base_encodings(encoding, code, text):
    font = load(simple(BaseFont="/Helvetica", Encoding=encoding))
    assert texts(font, bytes([code])) == [text]


def test_mac_expert_table_is_complete():
    assert len(encodings.MAC_EXPERT_NAMES) == 256
    assert encodings.MAC_EXPERT_NAMES[0x20] == "space"
    assert encodings.MAC_EXPERT_NAMES[0xFB] == "Ringsmall"
    assert encodings.MAC_EXPERT_NAMES[0xC9] == "Cedillasmall"
    assert sum(1 for n in encodings.MAC_EXPERT_NAMES if n) == 165


def test_symbol_and_zapfdingbats_builtin_encodings():
    symbol = load(simple(BaseFont="/Symbol"))
    assert texts(symbol, b"abp") == ["\u03b1", "\u03b2", "\u03c0"]
    assert symbol.decode(b"a")[0].width == 631   # Symbol AFM width of alpha
    dingbats = load(simple(BaseFont="/ZapfDingbats"))
    assert texts(dingbats, b"!") == ["\u2701"]


def test_nonsymbolic_font_without_encoding_uses_standard():
    font = load(simple(BaseFont="/Times-Roman"))
    assert texts(font, b"'`A") == ["\u2019", "\u2018", "A"]


# ---------------------------------------------------------------- /Differences

def test_differences_override_base_and_count_on():
    font = load(simple(BaseFont="/Helvetica", Encoding={
        "/BaseEncoding": "/WinAnsiEncoding",
        "/Differences": [65, "/Gamma", "/uni00E9", 97, "/f_f_i", "/.notdef", "/g17"],
    }))
    assert texts(font, b"ABCabcd") == ["\u0393", "\u00e9", "C", "ffi", None, None, "d"]


def test_differences_skip_garbage_items():
    font = load(simple(BaseFont="/Helvetica", Encoding={
        "/Differences": ["/orphan", 300, "/A", 66, "text", "/C", 2.5, "/D"],
    }))
    assert texts(font, b"BC\x02") == ["C", "C", "D"]   # 66 → /C, "text" is not a name; 2.5 → code 2


def test_differences_without_base_use_standard_for_nonsymbolic_type1():
    font = load(simple(BaseFont="/Foo", Encoding={"/Differences": [39, "/quotesingle"]},
                       FirstChar=32, Widths=[250] * 10))
    assert texts(font, b"'`") == ["'", "\u2018"]


# ---------------------------------------------------------------- glyph names

@pytest.mark.parametrize("name, text", [
    ("A", "A"), ("eacute", "\u00e9"), ("Gamma", "\u0393"),
    ("uni0041", "A"), ("uni00410042", "AB"), ("uni004100420043", "ABC"), ("uni00e9", "\u00e9"),
    ("u0041", "A"), ("u1F600", "\U0001F600"), ("u10FFFF", "\U0010FFFF"),
    ("f_i", "fi"), ("f_f_l", "ffl"), ("T_h", "Th"), ("uni0066_uni0069", "fi"),
    ("a.sc", "a"), ("one.alt", "1"), ("f_i.liga", "fi"), ("uni0041.ss01", "A"),
    ("ff", "\ufb00"), ("ffi", "\ufb03"), ("ffl", "\ufb04"), ("fi", "\ufb01"), ("fl", "\ufb02"),
    ("quoteright", "\u2019"), ("dotlessi", "\u0131"), ("dotlessj", "\u0237"),
    ("Delta", "\u0394"), ("Omega", "\u03a9"), ("increment", "\u2206"),
    ("Asmall", "a"), ("Aacutesmall", "\u00e1"), ("oneoldstyle", "1"), ("asuperior", "a"),
    (".notdef", None), ("g12", None), ("cid345", None), ("glyph7", None), ("index9", None),
    ("a65", None), ("uniD800", None), ("u110000", None), ("uni12", None), ("", None),
    ("nosuchglyphname", None), ("f_nosuch", None),
])
def test_glyph_names(name, text):
    assert glyph_to_unicode(name) == text


# ---------------------------------------------------------------- ToUnicode CMaps

def test_tounicode_bfchar_bfrange_array_surrogates_multichar():
    cmap = cmap_bytes(
        "3 beginbfchar <01> <0041> <02> <D835DC9C> <03> <00660069> endbfchar\n"
        "2 beginbfrange <10> <12> <0061> <20> <22> [<0058> <D83DDE00> <00530053>] endbfrange"
    )
    font = load(simple(BaseFont="/Helvetica", Encoding="/WinAnsiEncoding", ToUnicode=cmap))
    assert texts(font, b"\x01\x02\x03\x10\x11\x12\x20\x21\x22") == \
        ["A", "\U0001D49C", "fi", "a", "b", "c", "X", "\U0001F600", "SS"]


def test_tounicode_preferred_over_encoding_only_where_it_maps():
    cmap = cmap_bytes("1 beginbfchar <41> <0042> endbfchar")
    font = load(simple(BaseFont="/Helvetica", Encoding="/WinAnsiEncoding", ToUnicode=cmap))
    assert texts(font, b"AC") == ["B", "C"]


def test_tounicode_range_increments_across_bytes_and_names_in_bfchar():
    parsed = parse_cmap(cmap_bytes("1 beginbfrange <00FE> <0101> <00FE> endbfrange\n"
                                   "1 beginbfchar <0200> /Euro endbfchar", "<0000> <FFFF>"), 1000)
    assert [parsed.to_unicode(c) for c in (0xFE, 0xFF, 0x100, 0x101)] == ["\u00fe", "\u00ff", "\u0100", "\u0101"]
    assert parsed.to_unicode(0x200) == "\u20ac"
    assert [(r.nbytes, r.low, r.high) for r in parsed.codespace] == [(2, b"\x00\x00", b"\xff\xff")]


def test_tounicode_huge_range_is_lazy_and_fast():
    data = cmap_bytes("1 beginbfrange <00000000> <FFFFFFFF> <0041> endbfrange", "<00000000> <FFFFFFFF>")
    parsed = parse_cmap(data, 10)
    assert len(parsed.unicode) == 0 and len(parsed._unicode_ranges) == 1   # kept as one range, never expanded
    assert parsed.to_unicode(0) == "A" and parsed.to_unicode(1) == "B"
    assert parsed.to_unicode(0x4E00 - 0x41) == "\u4e00"
    assert parsed.to_unicode(0xFFBF) is None          # past U+FFFF: no longer fits the destination


def test_tounicode_entry_budget_stops_reading():
    body = "300 beginbfchar " + " ".join(f"<{c:04X}> <{0x4E00 + c:04X}>" for c in range(300)) + " endbfchar"
    parsed = parse_cmap(cmap_bytes(body, "<0000> <FFFF>"), 100)
    assert len(parsed.unicode) == 100
    assert parsed.to_unicode(99) == chr(0x4E00 + 99) and parsed.to_unicode(150) is None
    assert any("more than 100 entries" in w for w in parsed.warnings)


def test_tounicode_usecmap_and_wmode_read_junk_skipped():
    parsed = parse_cmap(b"/Foo-H usecmap /WMode 1 def % comment\n(junk) ] >> 1 beginbfchar <01> <0041> endbfchar", 10)
    assert parsed.usecmap == "Foo-H" and parsed.wmode == 1 and parsed.to_unicode(1) == "A"


def test_tounicode_garbage_never_raises():
    for data in (b"", b"\x00\xff" * 100, b"beginbfchar <zz> <0041> endbfchar", b"beginbfrange <01> [ <0041>",
                 b"1 beginbfrange <05> <01> <0041> endbfrange", b"<" * 1000, b"begincodespacerange <00> endcodespacerange"):
        parsed = parse_cmap(data, 100)
        assert parsed.to_unicode(1) is None


# ---------------------------------------------------------------- sanity check of broken maps

def test_broken_values_fall_back_to_encoding():
    cmap = cmap_bytes("3 beginbfchar <41> <FFFD> <42> <0000> <43> <0007> endbfchar\n"
                      "1 beginbfchar <44> <0009> endbfchar")
    font = load(simple(BaseFont="/Helvetica", Encoding="/WinAnsiEncoding", ToUnicode=cmap))
    assert texts(font, b"ABCD") == ["A", "B", "C", "\t"]


def test_overlong_values_are_not_text():
    long_value = "<" + "0041" * 65 + ">"
    cmap = cmap_bytes(f"2 beginbfchar <41> {long_value} <42> <{'0043' * 64}> endbfchar")
    font = load(simple(BaseFont="/Helvetica", Encoding="/WinAnsiEncoding", ToUnicode=cmap))
    assert texts(font, b"AB") == ["A", "C" * 64]


def test_many_codes_to_one_char_fall_back_where_encoding_knows_better():
    cmap = cmap_bytes("1 beginbfrange <41> <46> [<0020> <0020> <0020> <0020> <0020> <0020>] endbfrange")
    font = load(simple(BaseFont="/Helvetica", Encoding="/WinAnsiEncoding", ToUnicode=cmap))
    assert texts(font, b"ABCDEF") == list("ABCDEF")


def test_positional_forms_of_one_letter_beat_the_encoding():
    # an office suite's subset TrueType font: WinAnsi codes 0x21… for Arabic glyphs, the ToUnicode
    # maps the isolated, initial, medial and final forms (and an alternate) of each letter to it
    beh, yeh, hah = "\u0628", "\u064a", "\u062d"
    cmap = cmap_bytes("13 beginbfchar <21> <0628> <22> <0628> <23> <0628> <24> <0628> <25> <0628>"
                      " <26> <064A> <27> <064A> <28> <064A> <29> <064A> <2A> <062D> <2B> <062D>"
                      " <2C> <064E> <2D> <0020> endbfchar")
    font = load(simple("/TrueType", BaseFont="/ABCDEF+Amiri", Encoding="/WinAnsiEncoding", ToUnicode=stream(cmap),
                       FirstChar=32, Widths=[500] * 16))
    assert texts(font, b"!\"#$%&'()*+,-") == [beh] * 5 + [yeh] * 4 + [hah] * 2 + ["\u064e", " "]
    # but one letter for most of the codes is still a broken map
    broken = cmap_bytes("1 beginbfrange <41> <46> [<0061> <0061> <0061> <0061> <0061> <0062>] endbfrange")
    font = load(simple(BaseFont="/Helvetica", Encoding="/WinAnsiEncoding", ToUnicode=stream(broken)))
    assert texts(font, b"ABCDEF") == list("ABCDEb")


def test_few_duplicates_are_kept():
    cmap = cmap_bytes("2 beginbfchar <41> <0061> <61> <0061> endbfchar")
    font = load(simple(BaseFont="/Helvetica", Encoding="/WinAnsiEncoding", ToUnicode=cmap))
    assert texts(font, b"Aa") == ["a", "a"]


def test_empty_tounicode_value_means_no_text_of_its_own():
    # EMPTY_TOUNICODE: `<42> <>` (the cluster's text sits on another glyph): "" and no fallback
    cmap = cmap_bytes("3 beginbfchar <41> <0628064A> <42> <> <43> <0020> endbfchar")
    font = load(simple(BaseFont="/Helvetica", Encoding="/WinAnsiEncoding", ToUnicode=stream(cmap)))
    assert texts(font, b"ABC") == ["\u0628\u064a", "", " "]
    assert parse_cmap(cmap, 100).to_unicode(0x42) == ""
    wide = cmap_bytes("2 beginbfchar <0003> <> <0004> <0061> endbfchar", "<0000> <FFFF>")
    composite = load(pdf_value({"/Type": "/Font", "/Subtype": "/Type0", "/BaseFont": "/X", "/Encoding": "/Identity-H",
                                "/ToUnicode": stream(wide),
                                "/DescendantFonts": [{"/Type": "/Font", "/Subtype": "/CIDFontType2", "/BaseFont": "/X",
                                                      "/CIDSystemInfo": {"/Registry": b"Adobe", "/Ordering": b"Identity",
                                                                         "/Supplement": 0}}]}))
    assert texts(composite, b"\x00\x03\x00\x04\x00\x05") == ["", "a", None]


def test_symbolic_truetype_without_encoding_reads_codes_as_winansi_except_pictographs():
    descriptor = {"/Flags": 4}
    font = load(simple("/TrueType", BaseFont="/ABCDEF+Calibri", FontDescriptor=descriptor, FirstChar=0, Widths=[1] * 256))
    assert texts(font, b"A\x93") == ["A", "\u201c"]
    wingdings = load(simple("/TrueType", BaseFont="/Wingdings-Regular", FontDescriptor=descriptor,
                            FirstChar=0, Widths=[1] * 256))
    assert texts(wingdings, b"A") == [None]


def test_symbolic_truetype_pua_values_mean_their_low_byte():
    cmap = cmap_bytes("2 beginbfchar <41> <F041> <B7> <F0B7> endbfchar")
    font = load(simple("/TrueType", BaseFont="/ABCDEF+Calibri", ToUnicode=cmap,
                       FontDescriptor={"/Flags": 4}, FirstChar=0, Widths=[500] * 256))
    assert texts(font, b"A") == ["A"]
    symbol = load(simple("/TrueType", BaseFont="/SymbolMT", ToUnicode=cmap,
                         FontDescriptor={"/Flags": 4}, FirstChar=0, Widths=[500] * 256))
    assert texts(symbol, b"A\xb7") == ["\u0391", "\u2022"]


# ---------------------------------------------------------------- widths and metrics

def test_widths_firstchar_missingwidth():
    font = load(simple(BaseFont="/ABCDEF+Custom", FirstChar=65, Widths=[600, 700, "/bad"],
                       FontDescriptor={"/MissingWidth": 321, "/Ascent": 700, "/Descent": -200}))
    assert [c.width for c in font.decode(b"ABCDz")] == [600, 700, 321, 321, 321]
    assert font.name == "Custom"


@pytest.mark.parametrize("base_font, text, width", [
    ("Helvetica", b"A", 667), ("Helvetica-Bold", b"A", 722), ("Times-Roman", b"A", 722),
    ("Courier", b"i", 600), ("Arial", b"A", 667), ("Arial,Bold", b"i", 278), ("Arial-BoldMT", b"A", 722),
    ("TimesNewRoman", b"a", 444), ("TimesNewRomanPS-BoldItalicMT", b"a", 500), ("CourierNew,Italic", b"W", 600),
])
def test_standard14_widths_without_widths_array(base_font, text, width):
    font = load(simple(BaseFont="/" + base_font, Encoding="/WinAnsiEncoding"))
    assert font.decode(text)[0].width == width
    assert font.warnings == []


def test_standard14_widths_follow_the_encoding():
    font = load(simple(BaseFont="/Helvetica", Encoding={"/Differences": [65, "/quoteright"]}))
    assert font.decode(b"A")[0].width == 222     # quoteright, not A


def test_nonstandard_font_without_widths_gets_substitute_metrics_and_warning():
    font = load(simple(BaseFont="/Verdana", FontDescriptor={"/Flags": 1}))   # fixed pitch
    assert font.decode(b"iW")[0].width == 600
    assert any("no /Widths" in w for w in font.warnings)


def test_ascent_descent_chain():
    descriptor = load(simple(BaseFont="/X", FirstChar=32, Widths=[1],
                             FontDescriptor={"/Ascent": 750, "/Descent": -250, "/FontBBox": [0, -300, 900, 950]}))
    assert (descriptor.ascent, descriptor.descent) == (750, -250)
    nonsense = load(simple(BaseFont="/X", FirstChar=32, Widths=[1],
                           FontDescriptor={"/Ascent": 0, "/Descent": 0, "/FontBBox": [0, -300, 900, 950]}))
    assert (nonsense.ascent, nonsense.descent) == (950, -300)
    positive_descent = load(simple(BaseFont="/X", FirstChar=32, Widths=[1],
                                   FontDescriptor={"/Ascent": 800, "/Descent": 200}))
    assert (positive_descent.ascent, positive_descent.descent) == (800, -200)
    standard = load(simple(BaseFont="/Helvetica"))
    assert (standard.ascent, standard.descent) == (718, -207)
    unknown = load(simple(BaseFont="/X", FirstChar=32, Widths=[1], FontDescriptor={"/FontBBox": [0, 0, 0, 0]}))
    assert (unknown.ascent, unknown.descent) == (0, 0)


def test_is_space_only_for_single_byte_32():
    font = load(simple(BaseFont="/Helvetica"))
    assert [c.is_space for c in font.decode(b" a\xa0")] == [True, False, False]


# ---------------------------------------------------------------- Type3

def test_type3_font_matrix_widths_and_bbox_in_glyph_space():
    font = load(simple("/Type3", FontMatrix=[0.01, 0, 0, 0.01, 0, 0], FontBBox=[0, -20, 80, 70],
                       FirstChar=97, Widths=[50, 60],
                       Encoding={"/Differences": [97, "/a", "/uni00DF"]}, CharProcs={}), "/T3")
    assert isinstance(font, SimpleFont)
    assert font.font_matrix == (0.01, 0, 0, 0.01, 0, 0)
    assert [(c.text, c.width) for c in font.decode(b"ab")] == [("a", 50), ("\u00df", 60)]
    assert (font.ascent, font.descent) == (70, -20)
    assert font.name == "T3"


def test_type3_flipped_matrix_mirrors_the_bbox():
    font = load(simple("/Type3", FontMatrix=[0.01, 0, 0, -0.01, 0, 0], FontBBox=[0, -80, 50, 20],
                       FirstChar=97, Widths=[50], Encoding={"/Differences": [97, "/a"]}))
    assert (font.ascent, font.descent) == (80, -20)


def test_type3_without_usable_matrix_falls_back_with_warning():
    font = load(simple("/Type3", FontMatrix=[0, 0, 0, 0, 0, 0], FirstChar=97, Widths=[500],
                       Encoding={"/Differences": [97, "/a"]}))
    assert font.font_matrix == (0.001, 0.0, 0.0, 0.001, 0.0, 0.0)
    assert any("FontMatrix" in w for w in font.warnings)
    assert texts(font, b"ab") == ["a", None]      # a Type3 font has no built-in encoding


def test_pdftex_bitmap_type3_glyphs_named_after_their_codes():
    t1 = load(simple("/Type3", FontMatrix=[0.01, 0, 0, 0.01, 0, 0], FirstChar=16, Widths=[1] * 100,
                     Encoding={"/Differences": [16, "/a16", "/a17", 28, "/a28", 65, "/a65", 0xE9, "/a233"]}))
    assert texts(t1, b"\x10\x11\x1cA\xe9B") == ["\u201c", "\u201d", "\ufb01", "A", "\u00e9", None]
    ot1 = load(simple("/Type3", FontMatrix=[0.01, 0, 0, 0.01, 0, 0], FirstChar=12, Widths=[1] * 120,
                      Encoding={"/Differences": [12, "/a12", 92, "/a92", 123, "/a123", 34, "/a34"]}))
    assert texts(ot1, b"\x0c\x5c\x7b\x22") == ["\ufb01", "\u201c", "\u2013", "\u201d"]
    ts1 = load(simple("/Type3", FontMatrix=[0.01, 0, 0, 0.01, 0, 0], FirstChar=136, Widths=[1] * 41,
                      Encoding={"/Differences": [136, "/a136", 176, "/a176"]}))   # textcomp alone: TS1
    assert texts(ts1, b"\x88\xb0") == ["\u2022", "\u00b0"]
    lone_letters = load(simple("/Type3", FontMatrix=[0.01, 0, 0, 0.01, 0, 0], FirstChar=136, Widths=[1] * 120,
                               Encoding={"/Differences": [136, "/a136", 0xE9, "/a233"]}))   # no TS1 symbol at 0xE9
    assert texts(lone_letters, b"\x88\xe9") == ["\u0139", "\u00e9"]


def _type3(differences, **entries):
    return load(simple("/Type3", FontMatrix=[0.001, 0, 0, 0.001, 0, 0], FirstChar=0, Widths=[500] * 256,
                       Encoding={"/Differences": differences, **entries}))


def test_type3_glyphs_named_after_their_codes_in_decimal_or_hex_are_those_codes():
    # `65 /65` (MuPDF-era producers), `65 /G065` and `0xE8 /232` (WinAnsi above 0x7F), `65 /C41`
    decimal = _type3([32, "/32", 65, "/65", "/66", 0xE8, "/232", 9, "/9"])
    assert texts(decimal, b"AB \xe8\t") == ["A", "B", " ", "\u00e8", None]   # a tab is no glyph's text
    padded = _type3([65, "/G065", "/G066", "/G067"])
    assert texts(padded, b"ABC") == ["A", "B", "C"]
    hexadecimal = _type3([44, "/C2c", 65, "/C41", "/C42"])
    assert texts(hexadecimal, b",AB") == [",", "A", "B"]


def test_numeric_names_that_are_not_the_codes_are_read_as_character_codes():
    font = load(simple("/Type1", BaseFont="/ABCDEF+Sub", FirstChar=1, Widths=[500] * 3,
                       Encoding={"/Differences": [1, "/G4B", "/G61", "/G72"]}))
    assert texts(font, b"\x01\x02\x03") == ["K", "a", "r"]


def test_numeric_names_that_are_glyph_ids_or_indices_stay_unmapped():
    # Office subsets name glyphs after their glyph id (`/g3` is the space glyph); `/I1 /I2 …` are
    # indices; neither passes the sanity check, so the glyphs stay unmapped (and are counted)
    office = load(simple("/TrueType", BaseFont="/ABCDEF+Calibri", FirstChar=1, Widths=[500] * 3,
                         Encoding={"/BaseEncoding": "/WinAnsiEncoding", "/Differences": [1, "/g68", "/g69", "/g3"]}))
    assert texts(office, b"\x01\x02\x03") == [None, None, None]
    indices = _type3([1, "/I1", "/I2", "/I3", "/I4"])
    assert texts(indices, b"\x01\x02") == [None, None]
    mixed = _type3([65, "/65", "/B", 67, "/x67"])     # one name that is not a number: no rule
    assert texts(mixed, b"ABC") == [None, "B", None]
    letters = _type3([65, "/ab", "/cd", "/ef"])       # hex letters without a digit are names
    assert texts(letters, b"ABC") == [None, None, None]


def test_type3_unknown_names_keep_an_explicit_base_encoding():
    # procedure labels (`/BT`, `/CP`) in a Type3 font with /BaseEncoding: the code keeps the base
    # encoding's character; a ToUnicode value that is a control character (c → CR) is junk
    cmap = stream(cmap_bytes("1 beginbfrange <63> <63> <000d> endbfrange"))
    font = load(simple("/Type3", FontMatrix=[0.001, 0, 0, 0.001, 0, 0], FirstChar=0, Widths=[500] * 256,
                       ToUnicode=cmap,
                       Encoding={"/BaseEncoding": "/WinAnsiEncoding",
                                 "/Differences": [65, "/BT", 97, "/CP", "/.notdef", "/CR", 101, "/e"]}))
    assert texts(font, b"Aabce") == ["A", "a", None, "c", "e"]
    without_base = _type3([65, "/BT", 97, "/CP"])
    assert texts(without_base, b"Aa") == [None, None]


def test_type3_drawn_in_big_units_gets_its_em_from_its_advances():
    # FontMatrix [1 0 0 1 0 0] at 0.24 Tf: glyphs 58 units tall are a 14 pt font, not a 0.24 pt one
    big = load(simple("/Type3", FontMatrix=[1, 0, 0, 1, 0, 0], FontBBox=[0, -14, 64, 58], FirstChar=65,
                      Widths=[37, 34, 31], Encoding={"/Differences": [65, "/65", "/66", "/67"]}))
    assert (big.ascent, big.descent) == (58, -14)
    assert big.em_scale == pytest.approx(2 * 34)
    usual = _type3([65, "/A"])
    assert usual.em_scale == 1.0
    # Skia's Type3 CJK fonts: full-width glyphs are exactly one em (1000 units at 0.0010000001)
    full_width = load(simple("/Type3", FontMatrix=[0.0010000001, 0, 0, -0.0010000001, 0, 0], FirstChar=0,
                             Widths=[1000] * 40, Encoding={"/Differences": [0, "/g0"]}))
    assert full_width.em_scale == 1.0


# ---------------------------------------------------------------- embedded font programs

def test_type1_program_builtin_encoding():
    program = (b"%!PS-AdobeFont-1.0: CMR10\n/Encoding 256 array\n0 1 255 {1 index exch /.notdef put} for\n"
               b"dup 11 /ff put\ndup 65 /A put\ndup 123 /endash put\nreadonly def\ncurrentfile eexec\n\x8f\x00")
    font = load(simple(BaseFont="/ABCDEF+CMR10", FirstChar=0, Widths=[500] * 256,
                       FontDescriptor={"/Flags": 4, "/FontFile": stream(program, Length1=120)}))
    assert texts(font, b"\x0bA{B") == ["\ufb00", "A", "\u2013", None]


def make_cff(glyphs: list[tuple[int, int]], strings: list[bytes]) -> bytes:
    """A bare CFF font: glyphs as (code, SID); custom charset and encoding (format 0)."""
    header = bytes([1, 0, 4, 2])
    names = cff_index([b"Test"], offset_size=2)
    strings_index = cff_index(strings, offset_size=2)
    gsubrs = cff_index([], offset_size=2)
    charset = b"\x00" + b"".join(sid.to_bytes(2, "big") for _code, sid in glyphs)
    encoding = bytes([0, len(glyphs)]) + bytes(code for code, _sid in glyphs)
    charstrings = cff_index([b"\x0e"] * (len(glyphs) + 1), offset_size=2)
    top_size = len(cff_index([cff_int(0) * 3 + b"\x0f\x10\x11"], offset_size=2))
    start = len(header) + len(names) + top_size + len(strings_index) + len(gsubrs)
    charset_at, encoding_at = start, start + len(charset)
    charstrings_at = encoding_at + len(encoding)
    top = cff_int(charset_at) + b"\x0f" + cff_int(encoding_at) + b"\x10" + cff_int(charstrings_at) + b"\x11"
    return header + names + cff_index([top], offset_size=2) + strings_index + gsubrs + charset + encoding + charstrings


def test_cff_program_builtin_encoding_with_custom_strings():
    cff = make_cff([(1, 34), (2, 391), (3, 66)], [b"uni0416"])   # SID 34 = A, 391 = first custom, 66 = a
    font = load(simple(BaseFont="/ABCDEF+Custom", FirstChar=0, Widths=[500] * 256,
                       FontDescriptor={"/Flags": 4, "/FontFile3": stream(cff, Subtype="/Type1C")}))
    assert texts(font, b"\x01\x02\x03\x04") == ["A", "\u0416", "a", None]


def test_malformed_cff_program_falls_back_with_warning():
    font = load(simple(BaseFont="/ABCDEF+Custom", FirstChar=0, Widths=[500] * 256,
                       FontDescriptor={"/Flags": 4, "/FontFile3": stream(b"\x01\x00\x04\x02\xff\xff", Subtype="/Type1C")}))
    assert texts(font, b"A") == ["A"]      # StandardEncoding
    assert any("CFF" in w for w in font.warnings)


# ---------------------------------------------------------------- composite fonts

def test_identity_h_with_tounicode_w_and_dw():
    cmap = cmap_bytes("2 beginbfchar <0001> <0048> <0002> <D83DDE00> endbfchar", "<0000> <FFFF>")
    font = load(type0(to_unicode=cmap, W=[1, [600, 700], 10, 20, 300], DW=900))
    assert isinstance(font, CompositeFont) and not font.vertical
    chars = font.decode(b"\x00\x01\x00\x02\x00\x0f\x00\x20\x00\x30\x00")
    assert [(c.code, c.text, c.width) for c in chars] == [
        (1, "H", 600), (2, "\U0001F600", 700), (15, None, 300), (32, None, 900), (48, None, 900), (0, None, 900)]
    assert [c.is_space for c in chars] == [False] * 6
    assert font.name == "Noto"


def test_identity_h_without_tounicode_is_undecodable_and_dw_defaults_to_1000():
    font = load(type0(CIDToGIDMap="/Identity"))
    assert [(c.text, c.width) for c in font.decode(b"\x00\x41")] == [(None, 1000)]


def test_identity_v_vertical_metrics():
    font = load(type0("/Identity-V", W=[5, [500]], W2=[5, [-900, 250, 800]], DW2=[880, -1000]))
    assert font.vertical
    first, second = font.decode(b"\x00\x05\x00\x06")
    assert (first.vertical_advance, first.position_x, first.position_y) == (-900, 250, 800)
    assert (second.width, second.vertical_advance, second.position_x, second.position_y) == (1000, -1000, 500, 880)


def test_w2_range_form_and_default_dw2():
    font = load(type0("/Identity-V", W2=[10, 20, -500, 100, 400]))
    assert [(c.vertical_advance, c.position_x, c.position_y) for c in font.decode(b"\x00\x0f\x00\x15")] == \
        [(-500, 100, 400), (-1000, 500, 880)]


def test_w_huge_range_is_lazy():
    start = time.perf_counter()
    font = load(type0(W=[0, 5_000_000, 250]))
    assert time.perf_counter() - start < 1.0
    assert font.decode(b"\xff\xff")[0].width == 250


def test_embedded_cmap_with_mixed_codespace_cidrange_and_wmode():
    encoding = stream(cmap_bytes(
        "2 begincidrange <20> <7E> 1 <8140> <817F> 633 endcidrange\n/WMode 1 def",
        "<00> <80>"
    ).replace(b"1 begincodespacerange <00> <80> endcodespacerange",
              b"2 begincodespacerange <00> <80> <8140> <9FFC> endcodespacerange"))
    to_unicode = cmap_bytes("2 beginbfchar <41> <0041> <8141> <3001> endbfchar\n"
                            "1 beginbfchar <20> <0020> endbfchar",
                            "<00> <80>")
    font = load(type0(encoding, to_unicode, W=[34, [555], 634, [999]]))
    assert font.vertical
    chars = font.decode(b"A\x81\x41 ")
    assert [(c.code, c.text, c.width) for c in chars] == [(0x41, "A", 555), (0x8141, "\u3001", 999), (0x20, " ", 1000)]
    assert [c.is_space for c in chars] == [False, False, True]
    # a byte no codespace range starts with is one undecodable code
    assert [(c.code, c.text) for c in font.decode(b"\xfeA")] == [(0xFE, None), (0x41, "A")]


def test_embedded_cmap_usecmap_identity_parent_fills_in():
    encoding = stream(b"/Identity-H usecmap 1 begincidchar <0041> 7 endcidchar")
    font = load(type0(encoding, W=[7, [111], 66, [222]]))
    assert [(c.code, c.width) for c in font.decode(b"\x00\x41\x00\x42")] == [(0x41, 111), (0x42, 222)]


def test_unicode_keyed_predefined_cmaps_decode_from_the_code():
    ucs2 = load(type0("/UniGB-UCS2-H"))
    assert texts(ucs2, "中文A".encode("utf-16-be")) == ["中", "文", "A"]
    utf16 = load(type0("/UniJIS-UTF16-V"))
    assert utf16.vertical
    assert texts(utf16, "あ\U00020000".encode("utf-16-be")) == ["あ", "\U00020000"]


def test_tounicode_identity_name_reads_codes_as_ucs2():
    font_obj = type0()
    font_obj[NameObject("/ToUnicode")] = NameObject("/Identity-H")
    font = load(font_obj)
    assert texts(font, "Žá".encode("utf-16-be")) == ["Ž", "á"]


def test_tounicode_stream_that_is_the_identity_cmap_reads_codes_as_ucs2():
    identity = cmap_bytes("1 begincidrange <0000> <FFFF> 0 endcidrange", "<0000> <FFFF>").replace(
        b"/CMapName /Test-UCS def", b"/CMapName /Identity-H def")
    font = load(type0(to_unicode=identity))
    assert texts(font, "Justin".encode("utf-16-be")) == list("Justin")
    other = load(type0(to_unicode=cmap_bytes("1 begincidrange <0000> <FFFF> 0 endcidrange", "<0000> <FFFF>")))
    assert texts(other, b"\x00J") == [None]


def test_predefined_cmap_not_available_uses_tounicode_codespace():
    to_unicode = cmap_bytes("1 beginbfchar <8140> <3000> endbfchar", "<8140> <9FFC>")
    font = load(type0("/90ms-RKSJ-H-Unknown", to_unicode))
    assert texts(font, b"\x81\x40") == ["\u3000"]


# ---------------------------------------------------------------- robustness and the cache

def test_resource_name_of_any_type_is_accepted():
    assert load_font(NumberObject(1), None, LIMITS, read_stream).name == "unnamed"


@pytest.mark.parametrize("font_obj", [
    None, NullObject(), NumberObject(3), NameObject("/Helvetica"), ArrayObject(),
    DictionaryObject(),
    simple("/Nonsense"),
    simple(BaseFont=5, Encoding=7, Widths="/x", FirstChar="/y", FontDescriptor=3, ToUnicode=4),
    simple(Encoding={"/BaseEncoding": 3, "/Differences": "/x"}, FontDescriptor={"/Ascent": "/a", "/FontBBox": [1]}),
    simple("/Type3", FontMatrix="/x", Widths=[None], Encoding="/x"),
    simple("/Type0"),
    pdf_value({"/Subtype": "/Type0", "/DescendantFonts": [3], "/Encoding": 5}),
    pdf_value({"/Subtype": "/Type0", "/DescendantFonts": [{"/W": [1, 2], "/DW2": [1]}], "/Encoding": "/Identity-H"}),
    pdf_value({"/Subtype": "/Type0", "/DescendantFonts": [{"/W": ["/a", [1]], "/W2": [1, 2, 3]}],
               "/Encoding": b"garbage", "/ToUnicode": b"\x00\xff garbage"}),
])
def test_garbage_fonts_never_raise(font_obj):
    font = load(font_obj)
    for data in (b"", b"A", b"\x00\x01\xff", bytes(range(256))):
        chars = font.decode(data)
        assert all(c.text is None or isinstance(c.text, str) for c in chars)


def test_garbage_font_gives_warning_and_best_effort_text():
    font = load(NumberObject(3), "/F7")
    assert font.name == "F7"
    assert texts(font, b"Hi") == ["H", "i"]
    assert any("not a font dictionary" in w for w in font.warnings)


def test_unreadable_stream_is_a_warning_but_document_budget_passes_through():
    font_obj = simple(BaseFont="/Helvetica", ToUnicode=cmap_bytes("1 beginbfchar <41> <0042> endbfchar"))

    def failing(stream):
        raise ValueError("bad stream")

    font = load_font(font_obj, "/F1", LIMITS, failing)
    assert texts(font, b"A") == ["A"]
    assert any("unreadable" in w for w in font.warnings)

    def over_budget(stream):
        raise BudgetExceeded("document_bytes", "too many bytes")

    with pytest.raises(BudgetExceeded):
        load_font(font_obj, "/F1", LIMITS, over_budget)


def test_font_cache_keys_by_reference_and_by_object():
    writer = PdfWriter()
    ref = writer._add_object(simple(BaseFont="/Helvetica"))
    calls = []

    def counting(stream):
        calls.append(stream)
        return stream.get_data()

    cache = FontCache(LIMITS, counting)
    first = cache.get(ref, "/F1")
    assert cache.get(ref, "/F2") is first
    assert cache.get(ref.get_object(), "/F3") is first
    direct = simple(BaseFont="/Courier")
    assert cache.get(direct, "/F4") is cache.get(direct, "/F4")
    assert cache.get(simple(BaseFont="/Courier"), "/F5") is not cache.get(direct, "/F4")


def test_decode_of_simple_font_reuses_precomputed_chars():
    font = load(simple(BaseFont="/Helvetica"))
    a, b = font.decode(b"aa")
    assert a is b


# ---------------------------------------------------------------- property tests

CMAP_WORDS = [b"begincodespacerange", b"endcodespacerange", b"beginbfchar", b"endbfchar", b"beginbfrange",
              b"endbfrange", b"begincidrange", b"endcidrange", b"begincidchar", b"endcidchar", b"usecmap",
              b"def", b"/WMode", b"[", b"]", b"<00>", b"<0041>", b"<FFFF>", b"<D800>", b"<00000000>",
              b"<FFFFFFFF>", b"(x)", b"(", b"<", b"1", b"-5", b"/A", b"%c\n", b"<<", b">>"]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(CMAP_WORDS), max_size=60), st.binary(max_size=40))
def test_cmap_token_soup_never_raises(words, tail):
    parsed = parse_cmap(b" ".join(words) + tail, 500)
    for code in (0, 1, 0x41, 0xFFFF, 0xFFFFFFFF):
        text = parsed.to_unicode(code)
        assert text is None or isinstance(text, str)
        assert parsed.to_cid(code) is None or parsed.to_cid(code) >= 0


PDF_LEAVES = st.one_of(
    st.integers(-10**9, 10**9).map(NumberObject), st.floats(allow_nan=True).map(FloatObject),
    st.sampled_from(["/Type1", "/TrueType", "/Type3", "/Type0", "/Identity-H", "/Identity-V", "/WinAnsiEncoding",
                     "/Helvetica", "/Symbol", "/a", "/uni0041", "/UniGB-UCS2-H"]).map(NameObject),
    st.just(NullObject()), st.text(max_size=5).map(TextStringObject),
    st.binary(max_size=30).map(lambda b: stream(b)),
)
PDF_VALUES = st.recursive(PDF_LEAVES, lambda inner: st.one_of(
    st.lists(inner, max_size=6).map(ArrayObject),
    st.dictionaries(st.sampled_from(["/Subtype", "/Encoding", "/Differences", "/BaseEncoding", "/Widths",
                                     "/FirstChar", "/FontDescriptor", "/ToUnicode", "/DescendantFonts", "/W",
                                     "/W2", "/DW", "/DW2", "/FontMatrix", "/FontBBox", "/BaseFont", "/Ascent",
                                     "/Descent", "/MissingWidth", "/Flags", "/FontFile", "/FontFile3"]),
                    inner, max_size=6).map(lambda d: DictionaryObject({NameObject(k): v for k, v in d.items()})),
), max_leaves=20)


@settings(max_examples=200, deadline=None)
@given(PDF_VALUES, st.binary(max_size=12))
def test_random_font_objects_never_raise(font_obj, data):
    font = load(font_obj)
    for char in font.decode(data):
        assert char.text is None or (isinstance(char.text, str) and char.text)
        assert isinstance(char.width, float) or isinstance(char.width, int)


# ---------------------------------------------------------------- the CJK seam (glyphline.fonts.cmaps)

class _FakeRange:
    def __init__(self, low: bytes, high: bytes):
        self.length, self.low, self.high = len(low), low, high


class _FakePredefinedCMap:
    """Shape of the bcmap reader's CMap: `codespace` (ranges with `length`), `lookup_cid`, `vertical`."""

    codespace = [_FakeRange(b"\x00", b"\x80"), _FakeRange(b"\x81\x40", b"\x9f\xfc")]
    vertical = True

    @staticmethod
    def lookup_cid(code: int) -> int | None:
        return {0x41: 34, 0x8140: 633}.get(code)


def test_predefined_cmap_and_cid_to_unicode_seam(monkeypatch):
    from glyphline.fonts import cmaps
    monkeypatch.setattr(cmaps, "predefined_cmap", lambda name: _FakePredefinedCMap() if name == "Fake-V" else None)
    monkeypatch.setattr(cmaps, "cid_to_unicode",
                        lambda registry, ordering, cid: {34: "A", 633: "\u3000"}.get(cid) if ordering == "Japan1" else None)
    font = load(pdf_value({"/Subtype": "/Type0", "/Encoding": "/Fake-V", "/DescendantFonts": [{
        "/Subtype": "/CIDFontType0", "/BaseFont": "/KozMin",
        "/CIDSystemInfo": {"/Registry": "Adobe", "/Ordering": "Japan1", "/Supplement": 4}, "/W": [633, [500]]}]}))
    assert font.vertical
    assert [(c.code, c.text, c.width) for c in font.decode(b"A\x81\x40B")] == \
        [(0x41, "A", 1000), (0x8140, "\u3000", 500), (0x42, None, 1000)]


def test_seam_failures_are_warnings(monkeypatch):
    from glyphline.fonts import cmaps

    def broken(name):
        raise RuntimeError("no data")

    monkeypatch.setattr(cmaps, "predefined_cmap", broken)
    font = load(type0("/GBK-EUC-H"))
    assert font.decode(b"\x00\x41")[0].text is None
    assert any("GBK-EUC-H" in w for w in font.warnings)


# ---------------------------------------------------------------- GBK bytes under WinAnsi (S22PDF)

def _gbk_winansi_pdf(base_font: bytes, font_name, *, embedded: bool = False,
                     encoding="/WinAnsiEncoding") -> bytes:
    from pdfbuilder import PdfBuilder, Raw

    b = PdfBuilder()
    descriptor = {"Type": "/FontDescriptor", "FontName": font_name, "Flags": 4,
                  "FontBBox": [0, -200, 1000, 1000], "ItalicAngle": 0, "Ascent": 1000,
                  "Descent": -200, "CapHeight": 1000, "StemV": 100, "MissingWidth": 1000}
    if embedded:
        descriptor["FontFile2"] = b.stream(b"\x00\x01\x00\x00")
    font = b.add({"Type": "/Font", "Subtype": "/TrueType", "BaseFont": Raw(base_font),
                  "Encoding": encoding, "FirstChar": 0, "LastChar": 255, "Widths": [500] * 256,
                  "FontDescriptor": b.add(descriptor)})
    # 关于 (B9D8 D3DA), a space, then A and the GBK full-width digit １ (A3B1)
    b.page(content=b"BT /TT0 12 Tf 72 700 Td <B9D8D3DA20> Tj 24 0 Td <41A3B1> Tj ET", fonts={"TT0": font})
    return b.build()


def test_gbk_bytes_under_winansi_in_a_chinese_system_font_are_gbk_pairs():
    from glyphline.extract import extract_text

    text = extract_text(_gbk_winansi_pdf(b"/#CB#CE#CC#E5", b"\xcb\xce\xcc\xe5")).text
    assert "关于" in text and "A１" in text
    text = extract_text(_gbk_winansi_pdf(b"/#B7#C2#CB#CE_GB2312,Bold", "/FangSong")).text
    assert "关于" in text
    # an embedded program (its own glyphs decide), a Latin font name, or an encoding with
    # /Differences keeps WinAnsi
    for args, kwargs in (((b"/#CB#CE#CC#E5", b"\xcb\xce\xcc\xe5"), {"embedded": True}),
                         ((b"/Arial", b"Arial"), {}),
                         ((b"/#CB#CE#CC#E5", "/SimSun"), {"encoding": {"Type": "/Encoding",
                                                                      "Differences": [1, "/A"]}})):
        text = extract_text(_gbk_winansi_pdf(*args, **kwargs)).text
        assert "关" not in text and "¹Ø" in text
