"""Embedded TrueType programs as the last source of text: the table reader and both font hooks.

Every font program is written here with struct (sfnt directory, cmap formats 0/4/6/12, post
1.0/2.0/3.0, maxp), so the expected text follows from the tables each test builds.
"""
from __future__ import annotations

import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import glyphline
from glyphline.fonts import truetype
from glyphline.fonts.truetype import MAC_GLYPH_NAMES, parse_font_program
from pdfbuilder import PdfBuilder, cff_index, cff_int, hex_codes


# ---------------------------------------------------------------- font program builders

def sfnt(tables: dict[bytes, bytes], version: bytes = b"\x00\x01\x00\x00") -> bytes:
    """An sfnt file: header, table directory (sorted by tag), 4-byte aligned table data."""
    tags = sorted(tables)
    offset = 12 + 16 * len(tags)
    directory, body = [], []
    for tag in tags:
        data = tables[tag]
        directory.append(struct.pack(">4sIII", tag, 0, offset, len(data)))
        padded = data + b"\0" * (-len(data) % 4)
        body.append(padded)
        offset += len(padded)
    header = version + struct.pack(">HHHH", len(tags), 0, 0, 0)
    return header + b"".join(directory) + b"".join(body)


def maxp(num_glyphs: int) -> bytes:
    return struct.pack(">IH", 0x00005000, num_glyphs)


def cmap_format0(mapping: dict[int, int]) -> bytes:
    glyphs = bytes(mapping.get(code, 0) for code in range(256))
    return struct.pack(">HHH", 0, 262, 0) + glyphs


def cmap_format4(mapping: dict[int, int]) -> bytes:
    """One segment per code (idDelta), plus the closing 0xFFFF segment."""
    codes = sorted(mapping)
    ends = codes + [0xFFFF]
    starts = codes + [0xFFFF]
    deltas = [(mapping[c] - c) & 0xFFFF for c in codes] + [1]
    segs = len(ends)
    body = struct.pack(f">{segs}H", *ends) + b"\0\0" + struct.pack(f">{segs}H", *starts)
    body += struct.pack(f">{segs}H", *deltas) + struct.pack(f">{segs}H", *([0] * segs))
    head = struct.pack(">HHHHHHH", 4, 14 + len(body), 0, 2 * segs, 0, 0, 0)
    return head + body


def cmap_format4_range_offsets(first: int, glyphs: list[int]) -> bytes:
    """One segment first..first+n-1 whose glyphs come from glyphIdArray (idRangeOffset ≠ 0)."""
    segs = 2
    ends = [first + len(glyphs) - 1, 0xFFFF]
    starts = [first, 0xFFFF]
    deltas = [0, 1]
    range_offsets = [2 * segs, 0]       # from segment 0's idRangeOffset to the glyph array
    body = struct.pack(">2H", *ends) + b"\0\0" + struct.pack(">2H", *starts)
    body += struct.pack(">2H", *deltas) + struct.pack(">2H", *range_offsets)
    body += struct.pack(f">{len(glyphs)}H", *glyphs)
    return struct.pack(">HHHHHHH", 4, 14 + len(body), 0, 2 * segs, 0, 0, 0) + body


def cmap_format6(first: int, glyphs: list[int]) -> bytes:
    return struct.pack(">HHHHH", 6, 10 + 2 * len(glyphs), 0, first, len(glyphs)) + \
        struct.pack(f">{len(glyphs)}H", *glyphs)


def cmap_format12(groups: list[tuple[int, int, int]]) -> bytes:
    body = b"".join(struct.pack(">III", *g) for g in groups)
    return struct.pack(">HHIII", 12, 0, 16 + len(body), 0, len(groups)) + body


def cmap_table(subtables: dict[tuple[int, int], bytes]) -> bytes:
    keys = sorted(subtables)
    offset = 4 + 8 * len(keys)
    records, body = [], []
    for key in keys:
        records.append(struct.pack(">HHI", key[0], key[1], offset))
        body.append(subtables[key])
        offset += len(subtables[key])
    return struct.pack(">HH", 0, len(keys)) + b"".join(records) + b"".join(body)


def post_format2(names: list[str]) -> bytes:
    """Glyph names: Mac standard ones by index, the others as Pascal strings."""
    indices, extra = [], []
    for glyph_name in names:
        if glyph_name in MAC_GLYPH_NAMES:
            indices.append(MAC_GLYPH_NAMES.index(glyph_name))
        else:
            indices.append(len(MAC_GLYPH_NAMES) + len(extra))
            extra.append(glyph_name)
    head = struct.pack(">I", 0x00020000) + b"\0" * 28 + struct.pack(">H", len(names))
    return head + struct.pack(f">{len(names)}H", *indices) + \
        b"".join(bytes([len(n)]) + n.encode("latin-1") for n in extra)


def post_format(version: int) -> bytes:
    return struct.pack(">I", version) + b"\0" * 28


def font_program(cmaps: dict[tuple[int, int], bytes] | None = None, names: list[str] | None = None,
                 post: bytes | None = None, num_glyphs: int = 16) -> bytes:
    tables = {b"maxp": maxp(num_glyphs)}
    if cmaps:
        tables[b"cmap"] = cmap_table(cmaps)
    if names is not None:
        tables[b"post"] = post_format2(names)
    elif post is not None:
        tables[b"post"] = post
    return sfnt(tables)


# ---------------------------------------------------------------- PDF builders

def symbolic_truetype(b: PdfBuilder, program: bytes, *, encoding=None) -> object:
    """A symbolic TrueType font without /ToUnicode whose program is embedded as /FontFile2."""
    descriptor = b.add({"Type": "/FontDescriptor", "FontName": "/ABCDEF+IconSubset", "Flags": 4,
                        "FontBBox": [0, -200, 1000, 800], "ItalicAngle": 0, "Ascent": 800,
                        "Descent": -200, "CapHeight": 700, "StemV": 80,
                        "FontFile2": b.stream(program, {"Length1": len(program)}, compress=True)})
    font = {"Type": "/Font", "Subtype": "/TrueType", "BaseFont": "/ABCDEF+IconSubset",
            "FirstChar": 0, "LastChar": 255, "Widths": [500] * 256, "FontDescriptor": descriptor}
    if encoding is not None:
        font["Encoding"] = encoding
    return b.add(font)


def identity_cid_truetype(b: PdfBuilder, program: bytes, cid_to_gid=None) -> object:
    """Type0 / CIDFontType2, Identity-H, no /ToUnicode, the program as /FontFile2."""
    descriptor = b.add({"Type": "/FontDescriptor", "FontName": "/ABCDEF+CIDSubset", "Flags": 4,
                        "FontBBox": [0, -120, 1000, 880], "ItalicAngle": 0, "Ascent": 880,
                        "Descent": -120, "CapHeight": 700, "StemV": 80,
                        "FontFile2": b.stream(program, compress=True)})
    cid = {"Type": "/Font", "Subtype": "/CIDFontType2", "BaseFont": "/ABCDEF+CIDSubset",
           "CIDSystemInfo": {"Registry": b"Adobe", "Ordering": b"Identity", "Supplement": 0},
           "FontDescriptor": descriptor, "DW": 1000}
    if cid_to_gid is not None:
        cid["CIDToGIDMap"] = cid_to_gid
    return b.add({"Type": "/Font", "Subtype": "/Type0", "BaseFont": "/ABCDEF+CIDSubset",
                  "Encoding": "/Identity-H", "DescendantFonts": [b.add(cid)]})


def page_text(b: PdfBuilder, font, operand: bytes) -> tuple[str, list[str]]:
    b.page(b"BT /F1 10 Tf 72 700 Td " + operand + b" Tj ET", fonts={"F1": font})
    page = glyphline.open(b.build()).page(0)
    return "".join(g.text for g in page.glyphs), page.warnings


HELLO_NAMES = [".notdef", "H", "e", "l", "o", "uni05D0", "afii57416"]   # ..., א, ب (AGL name)


# ---------------------------------------------------------------- the table reader

def test_mac_standard_names_are_the_258_of_the_post_table():
    assert len(MAC_GLYPH_NAMES) == 258
    assert (MAC_GLYPH_NAMES[3], MAC_GLYPH_NAMES[36], MAC_GLYPH_NAMES[68], MAC_GLYPH_NAMES[257]) == \
        ("space", "A", "a", "dcroat")


def test_cmap_formats_0_4_6_12_are_read():
    program = parse_font_program(font_program({
        (1, 0): cmap_format0({0x41: 3, 0x42: 4}),
        (3, 1): cmap_format4({0x41: 3, 0x20AC: 9}),
        (0, 3): cmap_format6(0x61, [5, 0, 6]),
        (3, 10): cmap_format12([(0x1F600, 0x1F602, 10)]),
    }))
    assert program.cmaps[(1, 0)] == {0x41: 3, 0x42: 4}
    assert program.cmaps[(3, 1)] == {0x41: 3, 0x20AC: 9}
    assert program.cmaps[(0, 3)] == {0x61: 5, 0x63: 6}
    assert program.cmaps[(3, 10)] == {0x1F600: 10, 0x1F601: 11, 0x1F602: 12}
    assert program.unicode_of_glyph(11) == "\U0001F601"
    assert program.unicode_of_glyph(9) == "€"


def test_cmap_format4_glyph_id_array():
    program = parse_font_program(font_program({(3, 1): cmap_format4_range_offsets(0x30, [7, 0, 8])}))
    assert program.cmaps[(3, 1)] == {0x30: 7, 0x32: 8}


def test_post_format_2_and_1_names():
    program = parse_font_program(font_program(names=HELLO_NAMES))
    assert program.glyph_names == HELLO_NAMES
    assert [program.unicode_of_glyph(g) for g in range(7)] == [None, "H", "e", "l", "o", "א", "ب"]
    mac = parse_font_program(font_program(post=post_format(0x00010000), num_glyphs=40))
    assert mac.unicode_of_glyph(36) == "A" and mac.unicode_of_glyph(3) == " "
    assert parse_font_program(font_program(post=post_format(0x00030000))) is None   # no cmap, no names


def test_reversed_cmap_prefers_bmp_outside_the_private_use_area():
    program = parse_font_program(font_program({
        (3, 10): cmap_format12([(0xE001, 0xE001, 4), (0x2F800, 0x2F800, 4), (0x4E2D, 0x4E2D, 4),
                                (0xF8FF, 0xF8FF, 5)]),
    }))
    assert program.unicode_of_glyph(4) == "中"
    assert program.unicode_of_glyph(5) == "\uf8ff"    # only a PUA code point: still its text


def test_symbol_cmap_is_reached_with_the_f000_offset():
    program = parse_font_program(font_program({(3, 0): cmap_format4({0xF001: 1, 0xF041: 2})},
                                              names=HELLO_NAMES[:3]))
    assert program.glyph_of_simple_code(1) == 1 and program.glyph_of_simple_code(0x41) == 2
    assert program.glyph_of_simple_code(2) is None


def test_true_type_collection_reads_its_first_font():
    inner = font_program({(3, 1): cmap_format4({0x41: 1})})
    collection = b"ttcf" + struct.pack(">III", 0x00010000, 1, 16) + inner
    # the inner font's table offsets count from the start of the file
    tables = {b"maxp": maxp(4), b"cmap": cmap_table({(3, 1): cmap_format4({0x41: 1})})}
    shifted = _sfnt_at(tables, 16)
    program = parse_font_program(b"ttcf" + struct.pack(">III", 0x00010000, 1, 16) + shifted)
    assert program is not None and program.unicode_of_glyph(1) == "A"
    assert parse_font_program(collection[:20]) is None


def _sfnt_at(tables: dict[bytes, bytes], base: int) -> bytes:
    plain = sfnt(tables)
    count = len(tables)
    out = bytearray(plain)
    for i in range(count):
        record = 12 + 16 * i
        offset = struct.unpack_from(">I", plain, record + 8)[0]
        struct.pack_into(">I", out, record + 8, offset + base)
    return bytes(out)


def test_corrupt_programs_never_raise():
    good = font_program({(3, 1): cmap_format4({0x41: 1, 0x42: 2}), (3, 10): cmap_format12([(0x41, 0x42, 1)]),
                         (1, 0): cmap_format0({0x41: 1})}, names=HELLO_NAMES)
    variants = [good[:n] for n in range(0, len(good), 3)]
    for pos in range(0, len(good), 2):
        for value in (0x00, 0xFF, 0x7F):
            mutated = bytearray(good)
            mutated[pos] = value
            variants.append(bytes(mutated))
    variants += [b"\0" * 64, b"\xff" * 300, b"OTTO" + b"\xff" * 200, b"ttcf" + b"\xff" * 40, "text", None]
    for data in variants:
        program = parse_font_program(data)
        if program is not None:
            for gid in (0, 1, 2, 5, 0xFFFF, -3):
                text = program.unicode_of_glyph(gid)
                assert text is None or isinstance(text, str)
            for code in (0, 0x41, 255):
                program.glyph_of_simple_code(code)


def test_hostile_ranges_are_bounded():
    # a format 12 group spanning all of Unicode and a format 4 table of overlapping full ranges
    huge12 = cmap_format12([(0, 0x10FFFF, 1)] * 8)
    segs = 2000
    body = struct.pack(f">{segs}H", *([0xFFFE] * segs)) + b"\0\0" + struct.pack(f">{segs}H", *([0] * segs))
    body += struct.pack(f">{segs}H", *([1] * segs)) + struct.pack(f">{segs}H", *([0] * segs))
    huge4 = struct.pack(">HHHHHHH", 4, 0xFFFF, 0, 2 * segs, 0, 0, 0) + body
    program = parse_font_program(font_program({(3, 10): huge12, (3, 1): huge4}))
    assert program is not None
    assert all(len(t) <= truetype.MAX_CMAP_ENTRIES for t in program.cmaps.values())


# ---------------------------------------------------------------- through a PDF: simple fonts

def test_symbolic_truetype_without_encoding_gets_text_from_symbol_cmap_and_post():
    b = PdfBuilder()
    program = font_program({(3, 0): cmap_format4({0xF001: 1, 0xF002: 2, 0xF003: 3, 0xF004: 4})},
                           names=HELLO_NAMES)
    text, warnings = page_text(b, symbolic_truetype(b, program), hex_codes([1, 2, 3, 3, 4], 1))
    assert text == "Hello"
    assert not any("no Unicode mapping" in w for w in warnings)


def test_symbolic_truetype_with_mac_cmap_and_unicode_cmap_reversed():
    b = PdfBuilder()
    # codes 1, 2 reach glyphs 5, 6 through (1,0); the (3,1) cmap says which characters they draw
    program = font_program({(1, 0): cmap_format0({1: 5, 2: 6}), (3, 1): cmap_format4({0x05D0: 5, 0x05D1: 6})},
                           post=post_format(0x00030000))
    text, _ = page_text(b, symbolic_truetype(b, program), hex_codes([2, 1], 1))
    assert text == "בא"


def test_symbolic_truetype_with_only_a_mac_cmap_reads_high_codes_by_its_glyph_names():
    # no /Encoding: WinAnsi is only a guess; the program maps 0xA5 and 0xD5 through its (1,0)
    # Mac Roman cmap to glyphs named bullet and quoteright (Mac Roman's •, ’; WinAnsi's ¥, Õ)
    b = PdfBuilder()
    program = font_program({(1, 0): cmap_format0({0x41: 1, 0xA5: 2, 0xD5: 3, 0xE9: 4})},
                           names=[".notdef", "A", "bullet", "quoteright", "g4"])
    text, _ = page_text(b, symbolic_truetype(b, program), hex_codes([0xA5, 0x41, 0xD5, 0xE9], 1))
    assert text == "•A’é"            # a glyph without a usable name keeps the WinAnsi character
    b = PdfBuilder()
    windows = font_program({(3, 0): cmap_format4({0xF0A5: 2})}, names=[".notdef", "A", "bullet"])
    text, _ = page_text(b, symbolic_truetype(b, windows), hex_codes([0xA5], 1))
    assert text == "¥"               # unchanged: a (3,0) program's codes keep the WinAnsi reading

def test_codes_the_encoding_decodes_keep_the_encoding_text():
    b = PdfBuilder()
    program = font_program({(3, 0): cmap_format4({0xF041: 1, 0xF001: 2})}, names=[".notdef", "Z", "e"])
    # 'A' (0x41) is decodable by the assumed WinAnsi encoding; code 1 only by the program
    text, _ = page_text(b, symbolic_truetype(b, program), hex_codes([0x41, 1], 1))
    assert text == "Ae"


def test_program_is_not_read_while_every_shown_code_decodes():
    b = PdfBuilder()
    program = font_program({(3, 0): cmap_format4({0xF001: 1})}, names=[".notdef", "H"])
    b.page(b"BT /F1 10 Tf 72 700 Td (AB) Tj ET", fonts={"F1": symbolic_truetype(b, program)})
    document = glyphline.open(b.build())
    read = []
    original = document._read_stream
    document._read_stream = lambda stream: read.append(stream) or original(stream)
    document._fonts.read_stream = document._read_stream
    assert "".join(g.text for g in document.page(0).glyphs) == "AB"
    assert not any("/Length1" in s for s in read)        # the font program was never decoded


def test_unreadable_programs_leave_glyphs_undecodable_without_error():
    for program in (b"", b"garbage" * 10, font_program({(3, 0): b"\x00\x04\xff\xff"})[:-3]):
        b = PdfBuilder()
        text, warnings = page_text(b, symbolic_truetype(b, program), hex_codes([1, 2], 1))
        assert text == ""
        assert any("2 glyph(s)" in w for w in warnings)


# ---------------------------------------------------------------- through a PDF: CID fonts

def test_identity_cid_truetype_without_tounicode_reverses_the_unicode_cmap():
    b = PdfBuilder()
    program = font_program({(3, 1): cmap_format4({0x4E2D: 1, 0x6587: 2, 0x0041: 3})},
                           post=post_format(0x00030000))
    text, warnings = page_text(b, identity_cid_truetype(b, program), hex_codes([1, 2, 3]))
    assert text == "中文A"
    assert not any("no Unicode mapping" in w for w in warnings)


def test_cid_to_gid_map_stream_is_followed():
    b = PdfBuilder()
    program = font_program({(3, 1): cmap_format4({0x05E9: 7, 0x05DC: 8})}, post=post_format(0x00030000))
    # CID 1 → glyph 8 (ל), CID 2 → glyph 7 (ש); CID 3 lies beyond the map
    gid_map = b.stream(struct.pack(">3H", 0, 8, 7), compress=True)
    text, warnings = page_text(b, identity_cid_truetype(b, program, cid_to_gid=gid_map), hex_codes([2, 1, 3]))
    assert text == "של"
    assert any("1 glyph(s)" in w for w in warnings)


def test_cid_font_falls_back_to_post_names():
    b = PdfBuilder()
    program = font_program(names=[".notdef", "uni0915", "uni093F", "afii57416"])
    text, _ = page_text(b, identity_cid_truetype(b, program, cid_to_gid="/Identity"), hex_codes([1, 2, 3]))
    assert text == "कि" + "ب"


def core_font_cid(b: PdfBuilder, base_font: str, **cid_entries) -> object:
    """Type0 / CIDFontType2, Identity-H, no /ToUnicode, not embedded."""
    descriptor = b.add({"Type": "/FontDescriptor", "FontName": "/" + base_font, "Flags": 6,
                        "FontBBox": [-568, -307, 2000, 1007], "ItalicAngle": 0, "Ascent": 1007,
                        "Descent": -307, "CapHeight": 663, "StemV": 80})
    cid = {"Type": "/Font", "Subtype": "/CIDFontType2", "BaseFont": "/" + base_font,
           "CIDSystemInfo": {"Registry": b"Adobe", "Ordering": b"Identity", "Supplement": 0},
           "FontDescriptor": descriptor, "DW": 500, **cid_entries}
    return b.add({"Type": "/Font", "Subtype": "/Type0", "BaseFont": "/" + base_font,
                  "Encoding": "/Identity-H", "DescendantFonts": [b.add(cid)]})


@pytest.mark.parametrize("base_font, cid_entries, expected", [
    ("TimesNewRoman,Bold", {}, "Hello é"),
    ("Arial-ItalicMT", {"CIDToGIDMap": "/Identity"}, "Hello é"),
    ("Verdana", {}, ""),                                   # not a font of the Mac standard order
    ("ArialUnicodeMS", {}, ""),                            # ordered otherwise
])
def test_a_windows_core_font_shown_by_glyph_id_without_embedding_reads_by_its_glyph_order(
        base_font, cid_entries, expected):
    # Arial, Times New Roman and Courier New put their first 258 glyphs in the Macintosh
    # standard order: glyph 43 is H, 72 e, 79 l, 82 o, 3 space, 112 eacute
    b = PdfBuilder()
    font = core_font_cid(b, base_font, **cid_entries)
    text, _ = page_text(b, font, hex_codes([43, 72, 79, 79, 82, 3, 112]))
    assert text == expected

@pytest.mark.parametrize("glyphs, expected", [
    ([179, 36, 37, 38, 180, 3, 181, 68, 69, 70, 182], "\u201cABC\u201d \u2018abc\u2019"),  # pdfjs issue15441
    ([268, 227, 254, 284, 229, 234, 105, 116, 112], "\u011b\u0161\u010d\u0159\u017e\u00fd\u00e1\u00ed\u00e9"),
    ([267, 226, 253, 283, 228, 233, 200, 203, 101, 3, 292], "\u011a\u0160\u010c\u0158\u017d\u00dd\u00c1\u00cd\u00c9 \u016f"),
    ([53, 40, 38, 50, 48, 40, 49, 39, 36, 38, 44, 207, 49], "RECOMENDACI\u00d3N"),  # pdfjs issue15977
    ([36, 172, 178, 208, 209, 255, 273, 274, 299, 69], "Ab"),   # glyphs whose place is not known
])
def test_a_windows_core_font_past_the_macintosh_order_leaves_out_the_glyphs_it_lacks(glyphs, expected):
    # pdfjs issue13916 (Czech "ěščřžýáíé" in ArialMT by glyph id): Arial lacks two glyphs of the
    # Macintosh order (one before glyph 179, one before 210) and follows it with Central European letters
    b = PdfBuilder()
    text, _ = page_text(b, core_font_cid(b, "ArialMT"), hex_codes(glyphs))
    assert text == expected


def test_arial_shown_by_glyph_id_reads_its_cyrillic_letters():
    # pdfjs issue20453 and issue19550: the Arial of current Windows has А–я at glyphs 570–633;
    # Times New Roman is not known to share it, so its glyphs there stay unmapped
    codes = hex_codes([589, 605, 613, 616, 604, 602, 633, 3, 590, 581, 570])
    b = PdfBuilder()
    assert page_text(b, core_font_cid(b, "Arial"), codes)[0] == "Угловая ФЛА"
    b = PdfBuilder()
    assert page_text(b, core_font_cid(b, "TimesNewRomanPSMT"), codes)[0].strip() == ""


def test_corrupt_cid_programs_never_raise():
    good = font_program({(3, 1): cmap_format4({0x4E2D: 1})}, names=[".notdef", "uni4E2D"])
    for cut in (0, 11, 40, len(good) // 2, len(good) - 5):
        b = PdfBuilder()
        text, warnings = page_text(b, identity_cid_truetype(b, good[:cut]), hex_codes([1]))
        assert text in ("", "中")
    b = PdfBuilder()
    text, _ = page_text(b, identity_cid_truetype(b, good, cid_to_gid=b.add([1, 2])), hex_codes([1]))
    assert text == "中"    # a /CIDToGIDMap that is neither Identity nor a stream: Identity


# ---------------------------------------------------------------- OpenType CFF (FontFile3 /OpenType)

def cid_keyed_cff(cids: list[int]) -> bytes:
    """A CID-keyed CFF program: glyph k (k ≥ 1) has CID cids[k-1]; every charstring is endchar."""
    names = cff_index([b"TestCID"])
    strings = cff_index([b"Adobe", b"Identity"])
    glyph_count = len(cids) + 1
    charset = b"\0" + b"".join(struct.pack(">H", c) for c in cids)
    charstrings = cff_index([b"\x0e"] * glyph_count)
    dict_size = 17 + 6 + 6
    before_charset = 4 + len(names) + len(cff_index([b"\0" * dict_size])) + len(strings) + 2
    top = (cff_int(391) + cff_int(392) + cff_int(0) + b"\x0c\x1e"
           + cff_int(before_charset) + b"\x0f" + cff_int(before_charset + len(charset)) + b"\x11")
    assert len(top) == dict_size
    return bytes([1, 0, 4, 4]) + names + cff_index([top]) + strings + b"\0\0" + charset + charstrings


def test_cid_keyed_opentype_cff_maps_cids_through_its_charset():
    tables = {b"CFF ": cid_keyed_cff([100, 200]), b"maxp": maxp(3),
              b"cmap": cmap_table({(3, 1): cmap_format4({0x4E2D: 1, 0x6587: 2})}),
              b"post": post_format(0x00030000)}
    program_bytes = sfnt(tables, version=b"OTTO")
    assert parse_font_program(program_bytes).cid_to_gid == {0: 0, 100: 1, 200: 2}
    b = PdfBuilder()
    descriptor = b.add({"Type": "/FontDescriptor", "FontName": "/ABCDEF+OtfCID", "Flags": 4,
                        "FontBBox": [0, -120, 1000, 880], "ItalicAngle": 0, "Ascent": 880, "Descent": -120,
                        "CapHeight": 700, "StemV": 80,
                        "FontFile3": b.stream(program_bytes, {"Subtype": "/OpenType"}, compress=True)})
    cid = b.add({"Type": "/Font", "Subtype": "/CIDFontType0", "BaseFont": "/ABCDEF+OtfCID",
                 "CIDSystemInfo": {"Registry": b"Adobe", "Ordering": b"Identity", "Supplement": 0},
                 "FontDescriptor": descriptor, "DW": 1000})
    font = b.add({"Type": "/Font", "Subtype": "/Type0", "BaseFont": "/ABCDEF+OtfCID",
                  "Encoding": "/Identity-H", "DescendantFonts": [cid]})
    text, warnings = page_text(b, font, hex_codes([200, 100, 1]))
    assert text == "文中"            # CID 1 is no glyph of this font: undecodable, not a guess
    assert any("1 glyph(s)" in w for w in warnings)


def test_corrupt_cff_tables_are_ignored():
    good = cid_keyed_cff([100, 200])
    for cut in range(0, len(good), 5):
        tables = {b"CFF ": good[:cut], b"maxp": maxp(3), b"cmap": cmap_table({(3, 1): cmap_format4({0x41: 1})})}
        program = parse_font_program(sfnt(tables, version=b"OTTO"))
        assert program is not None and program.unicode_of_glyph(1) == "A"


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=600), st.integers(0, 5))
def test_random_table_data_never_raises(noise, which):
    # a valid directory whose tables hold random bytes: every count and offset is hostile
    tag = (b"cmap", b"post", b"maxp", b"CFF ", b"cmap", b"post")[which]
    tables = {b"cmap": noise, b"post": noise[::-1], b"maxp": noise[:6]} if which == 0 else {tag: noise}
    program = parse_font_program(sfnt(tables))
    if program is not None:
        for gid in range(4):
            program.unicode_of_glyph(gid)
        program.glyph_of_simple_code(65)
