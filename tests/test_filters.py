"""A stream whose filter cannot be decoded is a warning naming the filter on every page it empties."""
from __future__ import annotations

import base64

import pytest

from glyphline import extract_text
from glyphline.errors import DamagedPDF
from pdfbuilder import PdfBuilder, flate, tounicode_cmap


def _names_filter(warnings: list[str], name: str = "/FooDecode") -> bool:
    return any(name in w for w in warnings)


def test_unknown_filter_on_a_content_stream_is_a_warning_on_that_page():
    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    first = b.page(content=b"", fonts={"F1": font})
    b.objects[first.num]["Contents"] = b.stream(b"BT /F1 12 Tf 72 700 Td (Hidden) Tj ET", {"Filter": "/FooDecode"})
    b.page(content=b"BT /F1 12 Tf 72 700 Td (Visible) Tj ET", fonts={"F1": font})
    result = extract_text(b.build())
    assert _names_filter(result.pages[0].warnings)
    assert len(result.pages[0].warnings) == 1            # one sentence, not one per layer
    assert not result.pages[1].warnings and "Visible" in result.pages[1].text
    assert any(w.startswith("page 1:") and "/FooDecode" in w for w in result.warnings)


def test_unknown_filter_in_a_filter_chain_is_named():
    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    page = b.page(content=b"", fonts={"F1": font})
    b.objects[page.num]["Contents"] = b.stream(flate(b"BT /F1 12 Tf 72 700 Td (Hidden) Tj ET"),
                                               {"Filter": ["/FlateDecode", "/BarDecode"]})
    result = extract_text(b.build())
    assert _names_filter(result.pages[0].warnings, "/BarDecode")


def test_unknown_filter_on_a_tounicode_cmap_is_told_on_every_page_using_the_font():
    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    b.objects[font.num]["ToUnicode"] = b.stream(tounicode_cmap({0x41: "Ж"}), {"Filter": "/FooDecode"})
    for _ in range(3):
        b.page(content=b"BT /F1 12 Tf 72 700 Td (A) Tj ET", fonts={"F1": font})
    result = extract_text(b.build())
    assert all(_names_filter(page.warnings) for page in result.pages)


def test_unknown_filter_on_a_form_xobject_is_named():
    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    form = b.stream(b"BT /F1 12 Tf 72 650 Td (Inside) Tj ET",
                    {"Type": "/XObject", "Subtype": "/Form", "BBox": [0, 0, 612, 792], "Filter": "/FooDecode",
                     "Resources": {"Font": {"F1": font}}})
    b.page(content=b"BT /F1 12 Tf 72 700 Td (Outside) Tj ET /X1 Do", fonts={"F1": font}, xobjects={"X1": form})
    result = extract_text(b.build())
    assert "Outside" in result.text
    assert _names_filter(result.pages[0].warnings)


def test_an_object_stream_nothing_can_decode_names_its_filter():
    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    b.page(content=b"BT /F1 12 Tf 72 700 Td (Hidden) Tj ET", fonts={"F1": font})
    with pytest.raises(DamagedPDF) as caught:
        extract_text(b.build(object_streams=True, packing=("/FooDecode", lambda data: data)))
    assert "/FooDecode" in caught.value.reason


def test_a_decodable_stream_gives_no_filter_warning():
    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    b.page(content=b"BT /F1 12 Tf 72 700 Td (Fine) Tj ET", fonts={"F1": font})
    result = extract_text(b.build(object_streams=True))
    assert result.text.strip() == "Fine" and not result.warnings


@pytest.mark.parametrize("name, encode", [
    ("/A85", lambda data: base64.a85encode(data) + b"~>"),
    ("/AHx", lambda data: data.hex().encode() + b">"),
    ("/Fl", flate),
    ("/RL", lambda data: bytes([len(data) - 1]) + data + b"\x80"),
])
def test_abbreviated_filter_names_decode_in_any_stream(name, encode):
    # Table 92 names the abbreviations for inline images; producers use them on content streams
    # and forms too, and pdf.js, MuPDF and poppler read them there (pypdf 7 refuses them)
    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    form = b.stream(encode(b"BT /F1 12 Tf 72 650 Td (Inside) Tj ET"),
                    {"Type": "/XObject", "Subtype": "/Form", "BBox": [0, 0, 612, 792], "Filter": [name],
                     "Resources": {"Font": {"F1": font}}})
    page = b.page(content=b"", fonts={"F1": font}, xobjects={"X1": form})
    b.objects[page.num]["Contents"] = b.stream(encode(b"BT /F1 12 Tf 72 700 Td (Outside) Tj ET /X1 Do"),
                                               {"Filter": name})
    result = extract_text(b.build())
    assert result.text.split() == ["Outside", "Inside"]
    assert not result.warnings
