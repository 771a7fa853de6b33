"""Predefined CMaps (.bcmap reader) and the Adobe CID → Unicode tables."""
from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from glyphline.fonts import cmaps
from glyphline.fonts.bcmap import BcmapError, parse_bcmap


@pytest.fixture(autouse=True)
def default_loader():
    cmaps.set_cmap_loader(cmaps.file_loader)
    yield
    cmaps.set_cmap_loader(cmaps.file_loader)


needs_data = pytest.mark.skipif(
    cmaps.file_loader("Adobe-Japan1-UCS2") is None,
    reason="CMap data missing: run `make cmaps` (needs npm to install pdfjs-dist)")


# ---- a tiny .bcmap writer, from the format description, to pin each record type exactly ----

def varint(n: int) -> bytes:
    groups = [n & 0x7F]
    n >>= 7
    while n:
        groups.append(n & 0x7F)
        n >>= 7
    groups.reverse()
    return bytes(g | 0x80 for g in groups[:-1]) + bytes([groups[-1]])


def signed(n: int) -> bytes:
    return varint(2 * n if n >= 0 else -2 * n - 1)


def name_string(text: str) -> bytes:
    return varint(len(text)) + b"".join(varint(ord(c)) for c in text)


def record(kind: int, size: int, count: int, body: bytes, sequential: bool = False) -> bytes:
    return bytes([kind << 5 | (0x10 if sequential else 0) | (size - 1)]) + varint(count) + body


def usecmap(name: str) -> bytes:
    return bytes([7 << 5 | 1]) + name_string(name)


ONE_BYTE_SPACE = record(0, 1, 1, b"\x00" + varint(0x7F))
TWO_BYTE_SPACE = record(0, 2, 1, b"\x81\x40" + varint(0x9FFC - 0x8140))


def test_cidrange_and_cidchar_records_decode_exactly():
    data = (b"\x00" + ONE_BYTE_SPACE
            # ranges 20..2F → 100.., then 40..41 → 500 (start stored as gap after the previous end)
            + record(3, 1, 2, b"\x20" + varint(0x0F) + varint(100) + varint(0x40 - 0x30) + varint(1) + varint(500))
            # chars 60 → 7, 61 → 9 (sequential, cid delta +1 over the implied +1), 65 → 3
            + record(2, 1, 2, b"\x60" + varint(7) + signed(1), sequential=True)
            + record(2, 1, 2, b"\x10" + varint(1) + varint(0x65 - 0x11) + signed(3 - 2)))
    cmap = parse_bcmap(data, "Test-H")
    assert not cmap.vertical
    assert [cmap.lookup_cid(c) for c in (0x20, 0x2F, 0x30, 0x40, 0x41)] == [100, 115, None, 500, 501]
    assert [cmap.lookup_cid(c) for c in (0x60, 0x61, 0x10, 0x65)] == [7, 9, 1, 3]


def test_bfchar_and_bfrange_records_give_utf16_text():
    data = (b"\x00"
            # CID 5 → "A", CID 9 → "@" (dest delta -2 from "A"+1), CID 10 → U+1F600 (4-byte, surrogates)
            + record(4, 2, 2, b"\x00\x05" + b"\x00\x41" + varint(9 - 6) + signed(-2))
            + record(4, 4, 1, b"\x00\x0a" + "\U0001F600".encode("utf-16-be"))
            # CIDs 0x20..0x22 → "あ", "ぃ", "い"
            + record(5, 2, 1, b"\x00\x20" + varint(2) + "あ".encode("utf-16-be")))
    cmap = parse_bcmap(data, "Test-UCS2")
    assert [cmap.lookup_unicode(c) for c in (5, 9, 10, 0x20, 0x21, 0x22, 0x23)] == \
        ["A", "@", "\U0001F600", "あ", "ぃ", "い", None]


def test_codespace_decides_code_length_per_byte():
    data = b"\x01" + ONE_BYTE_SPACE + TWO_BYTE_SPACE
    cmap = parse_bcmap(data, "Test-V")
    assert cmap.vertical
    assert cmap.split(b"A\x81\x40\x9f\xfcz") == [(0x41, 1), (0x8140, 2), (0x9FFC, 2), (0x7A, 1)]
    # second byte outside 40..FC: not a full match, the first byte still announces two bytes
    assert cmap.split(b"\x81\x20") == [(0x8120, 2)]
    # a byte no range starts with is consumed alone, and a truncated code ends the string
    assert cmap.split(b"\xff\x81") == [(0xFF, 1), (0x81, 1)]


def test_usecmap_child_defers_to_parent():
    parent = b"\x00" + ONE_BYTE_SPACE + record(3, 1, 1, b"\x20" + varint(0x5E) + varint(1))
    child = b"\x01" + usecmap("Test-H") + record(2, 1, 1, b"\x21" + varint(999))
    store = {"Test-H": parent, "Test-V": child}
    cmaps.set_cmap_loader(store.get)
    cmap = cmaps.predefined_cmap("Test-V")
    assert cmap.vertical and cmap.parent_name == "Test-H"
    assert cmap.split(b"!\"") == [(0x21, 1), (0x22, 1)]          # parent's codespace
    assert (cmap.lookup_cid(0x21), cmap.lookup_cid(0x22)) == (999, 3)


@pytest.mark.parametrize("data", [
    b"",                                           # empty
    b"\x00\x00",                                   # record header without its count
    b"\x00" + record(3, 1, 2, b"\x20" + varint(1) + varint(5)),   # second entry missing
    b"\x00\xc0\x01\x00",                           # record type 6 is reserved
    b"\x00\x03\xff\xff\xff\xff\x7f",               # implausible entry count
    b"\x00\x00\x01\x00" + b"\xff" * 40,            # endless varint
    b"\x00" + record(3, 4, 1, b"\x00\x00\x00\x00" + varint(0xFFFFFFF) + varint(1)),  # absurd range
    b"\x00" + record(0, 8, 1, b"\x00" * 8 + varint(1)),           # 8-byte codes
    b"\x00" + record(2, 1, 2, b"\x20" + varint(0) + varint(0) + signed(-5)),      # negative CID
])
def test_corrupt_bcmap_is_rejected(data):
    with pytest.raises(BcmapError):
        parse_bcmap(data, "Bad")


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200))
def test_random_bytes_never_escape_as_other_errors(data):
    try:
        cmap = parse_bcmap(data, "Fuzz")
    except BcmapError:
        return
    cmap.split(data[:20])
    cmap.lookup_cid(0x20)
    cmap.lookup_unicode(1)


def test_loading_failures_give_none_without_raising():
    def loader(name):
        return {"Garbage-H": b"\x00\xc0", "Orphan-V": b"\x01" + usecmap("Gone-H"),
                "Loop-H": b"\x00" + usecmap("Loop-V"), "Loop-V": b"\x01" + usecmap("Loop-H")}.get(name)
    cmaps.set_cmap_loader(loader)
    assert cmaps.predefined_cmap("Garbage-H") is None
    assert cmaps.predefined_cmap("Orphan-V") is None
    assert cmaps.predefined_cmap("Loop-V") is None
    assert cmaps.predefined_cmap("Nope-H") is None

    def broken(name):
        raise OSError("network down")
    cmaps.set_cmap_loader(broken)
    assert cmaps.predefined_cmap("90ms-RKSJ-H") is None
    assert cmaps.cid_to_unicode("Adobe", "Japan1", 843) is None


def test_names_that_are_not_file_names_never_reach_the_loader():
    asked = []
    cmaps.set_cmap_loader(lambda name: asked.append(name))
    for name in ("../../etc/passwd", "a/b", "", "x" * 200, "Identity-H", "Identity-V", None, 5):
        assert cmaps.predefined_cmap(name) is None
    assert cmaps.cid_to_unicode("Adobe", "Identity", 5) is None
    assert cmaps.cid_to_unicode("Foo", "Japan1", 5) is None
    assert asked == []


def test_browser_loader_outside_pyodide_gives_none():
    assert cmaps.browser_loader("https://example.invalid/cmaps/")("Adobe-Japan1-UCS2") is None


# ---- real data: every family, every ordering ----

# predefined CMap family → (Python codec that produces its codes, ordering, sample text)
FAMILIES = {
    "90ms-RKSJ": ("cp932", "Japan1", "日本語のテキスト、カタカナ。ＡＢｃ123"),
    "EUC": ("euc_jp", "Japan1", "日本語のテキスト、ひらがな。"),
    "UniJIS-UCS2": ("utf-16-be", "Japan1", "日本語のテキスト、。"),
    "UniJIS-UTF16": ("utf-16-be", "Japan1", "日本語のテキスト、。"),
    "UniJIS-UTF8": ("utf-8", "Japan1", "日本語のテキスト、。"),
    "GBK-EUC": ("gbk", "GB1", "中文文本，测试。"),
    "GB-EUC": ("gb2312", "GB1", "中文文本，测试。"),
    "UniGB-UCS2": ("utf-16-be", "GB1", "中文文本，测试。"),
    "UniGB-UTF16": ("utf-16-be", "GB1", "中文文本，测试。"),
    "KSCms-UHC": ("cp949", "Korea1", "한국어 텍스트입니다."),
    "KSC-EUC": ("euc_kr", "Korea1", "한국어 텍스트입니다."),
    "UniKS-UCS2": ("utf-16-be", "Korea1", "한국어 텍스트입니다."),
    "UniKS-UTF16": ("utf-16-be", "Korea1", "한국어 텍스트입니다."),
    "ETen-B5": ("cp950", "CNS1", "中文繁體測試，。"),
    "B5pc": ("big5", "CNS1", "中文繁體測試，。"),
    "UniCNS-UCS2": ("utf-16-be", "CNS1", "中文繁體測試，。"),
    "UniCNS-UTF16": ("utf-16-be", "CNS1", "中文繁體測試，。"),
}


@needs_data
@pytest.mark.parametrize("family", sorted(FAMILIES))
@pytest.mark.parametrize("writing", ["H", "V"])
def test_family_decodes_text_through_cid_and_ordering_table(family, writing):
    codec, ordering, text = FAMILIES[family]
    cmap = cmaps.predefined_cmap(f"{family}-{writing}")
    assert cmap is not None and cmap.vertical == (writing == "V")
    decoded = []
    for code, _length in cmap.split(text.encode(codec)):
        cid = cmap.lookup_cid(code)
        decoded.append(cmaps.cid_to_unicode("Adobe", ordering, cid) or "?")
    assert "".join(decoded) == text


@needs_data
def test_vertical_form_selects_vertical_glyph_but_same_text():
    horizontal, vertical = cmaps.predefined_cmap("90ms-RKSJ-H"), cmaps.predefined_cmap("90ms-RKSJ-V")
    comma = int.from_bytes("、".encode("cp932"), "big")
    assert vertical.parent_name == "90ms-RKSJ-H"
    assert horizontal.lookup_cid(comma) == 634
    assert vertical.lookup_cid(comma) == 7887                # Adobe-Japan1's vertical ideographic comma
    assert cmaps.cid_to_unicode("Adobe", "Japan1", 7887) == "、"
    assert vertical.lookup_cid(int.from_bytes("日".encode("cp932"), "big")) == \
        horizontal.lookup_cid(int.from_bytes("日".encode("cp932"), "big"))


@needs_data
@pytest.mark.parametrize("ordering, cid, text", [
    ("Japan1", 1, " "), ("Japan1", 34, "A"), ("Japan1", 843, "あ"), ("Japan1", 1000, "レ"),
    ("Japan1", 5000, "掾"),
    ("GB1", 17, "0"), ("GB1", 1000, "拜"), ("GB1", 5000, "鄹"), ("GB1", 573, "，"),
    ("CNS1", 34, "A"), ("CNS1", 843, "末"), ("CNS1", 5000, "險"),
    ("Korea1", 34, "A"), ("Korea1", 1000, "ャ"), ("Korea1", 5000, "番"), ("Korea1", 10000, "꾋"),
])
def test_ordering_tables(ordering, cid, text):
    assert cmaps.cid_to_unicode("Adobe", ordering, cid) == text


@needs_data
def test_cid_outside_the_collection_has_no_text():
    assert cmaps.cid_to_unicode("Adobe", "Japan1", 0) is None
    assert cmaps.cid_to_unicode("Adobe", "Japan1", 99999) is None


def _pdfminer_codes(tree: dict, prefix: bytes = b""):
    for key, value in tree.items():
        code = prefix + bytes([int(key)])
        if isinstance(value, dict):
            yield from _pdfminer_codes(value, code)
        else:
            yield code, value


@needs_data
@pytest.mark.parametrize("name", ["90ms-RKSJ-V", "GBK-EUC-H", "KSCms-UHC-H", "ETen-B5-V",
                                  "UniJIS-UTF16-H", "UniGB-UCS2-V"])
def test_code_to_cid_agrees_with_pdfminer_tables_built_from_the_same_adobe_sources(name):
    pdfminer = pytest.importorskip("pdfminer")
    path = Path(pdfminer.__file__).parent / "cmap" / f"{name}.json.gz"
    if not path.exists():
        pytest.skip(f"pdfminer ships no {name}")
    table = json.loads(gzip.decompress(path.read_bytes()))
    cmap = cmaps.predefined_cmap(name)
    assert cmap.vertical == table["IS_VERTICAL"]
    mismatches = []
    for code, cid in _pdfminer_codes(table["CODE2CID"]):
        got = cmap.split(code)
        if got != [(int.from_bytes(code, "big"), len(code))] or cmap.lookup_cid(got[0][0]) != cid:
            mismatches.append((code.hex(), cid))
    assert mismatches == []


@needs_data
def test_only_the_named_cmaps_are_loaded_and_only_once():
    asked = []

    def recording(name):
        asked.append(name)
        return cmaps.file_loader(name)
    cmaps.set_cmap_loader(recording)
    for _ in range(3):
        assert cmaps.predefined_cmap("UniJIS-UCS2-V") is not None
        assert cmaps.cid_to_unicode("Adobe", "Japan1", 843) == "あ"
    assert asked == ["UniJIS-UCS2-V", "UniJIS-UCS2-H", "Adobe-Japan1-UCS2"]


# ---- through the engine: Type0 fonts naming a predefined CMap, without /ToUnicode ----

def _cjk_pdf(encoding: str, ordering: str, codes: bytes) -> bytes:
    from pdfbuilder import PdfBuilder

    b = PdfBuilder()
    cid_font = b.add({"Type": "/Font", "Subtype": "/CIDFontType0", "BaseFont": "/KozMinPr6N-Regular",
                      "CIDSystemInfo": {"Registry": b"Adobe", "Ordering": ordering.encode(), "Supplement": 2},
                      "DW": 1000})
    font = b.add({"Type": "/Font", "Subtype": "/Type0", "BaseFont": "/KozMinPr6N-Regular",
                  "Encoding": "/" + encoding, "DescendantFonts": [cid_font]})
    b.page(content=b"BT /F1 12 Tf 72 700 Td <" + codes.hex().encode() + b"> Tj ET", fonts={"F1": font})
    return b.build()


@needs_data
@pytest.mark.parametrize("encoding", ["90ms-RKSJ-H", "90ms-RKSJ-V", "GBK-EUC-H", "KSCms-UHC-V", "ETen-B5-H",
                                      "UniGB-UCS2-H", "UniJIS-UTF16-V", "EUC-H", "B5pc-V"])
def test_type0_font_with_predefined_cmap_decodes_without_tounicode(encoding):
    import glyphline

    family = encoding.rsplit("-", 1)[0]
    codec, ordering, text = FAMILIES[family]
    page = glyphline.open(_cjk_pdf(encoding, ordering, text.encode(codec))).page(0)
    assert "".join(g.text for g in page.glyphs) == text
    assert all(g.vertical == encoding.endswith("-V") for g in page.glyphs)


@needs_data
def test_identity_cid_font_of_an_adobe_collection_gets_text_from_the_ordering_table():
    import glyphline

    cids = [843, 845, 1000, 34]          # あ い レ A in Adobe-Japan1
    page = glyphline.open(_cjk_pdf("Identity-H", "Japan1", b"".join(c.to_bytes(2, "big") for c in cids))).page(0)
    assert "".join(g.text for g in page.glyphs) == "あいレA"
