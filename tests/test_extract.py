"""extract_text / iter_pages: page selection, page separation, scan detection, progress,
cancellation, and the layout (grid) and json outputs."""
from __future__ import annotations

import importlib.util
import json
import threading

import pytest
from pdfbuilder import PdfBuilder, encrypt

from glyphline.errors import Cancelled, NotAPDF, PasswordRequired
from glyphline.extract import (
    PageResult, extract_text, format_page_ranges, iter_pages, join_pages, parse_page_spec, scan_report,
    select_pages,
)
from glyphline.glyph import INVISIBLE
from glyphline.layout.model import Block, Line, PageLayout, Word
from glyphline.output import json_out
from glyphline.layout.rows import page_rows
from glyphline.output.grid import render_grid


def _pipeline_ready() -> bool:
    for module in ("glyphline.layout", "glyphline.output.text", "glyphline.content.interpreter", "glyphline.fonts"):
        try:
            if importlib.util.find_spec(module) is None:
                return False
        except ImportError:
            return False
    import glyphline.layout as layout
    import glyphline.output.text as text

    return hasattr(layout, "analyze_page") and hasattr(text, "render_page") and hasattr(text, "build_vocabulary")


needs_pipeline = pytest.mark.skipif(not _pipeline_ready(), reason="layout stages or interpreter not in the tree yet")


# ----------------------------------------------------------------------------- synthetic PDFs

def text_pdf(pages: list[list[str]]) -> bytes:
    """One Helvetica 12 pt line per string, 20 pt apart, from the top-left of a Letter page."""
    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    for lines in pages:
        content = b"".join(b"BT /F1 12 Tf 72 %d Td (%s) Tj ET\n" % (700 - 20 * i, line.encode("latin-1"))
                           for i, line in enumerate(lines))
        b.page(content, fonts={"F1": font})
    return b.build()


def image_only_pdf(pages: int = 1, text_first: str | None = None) -> bytes:
    """Pages that paint only a grey image (a scan without OCR); optionally a text page first."""
    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    image = b.stream(bytes(range(16)) * 4, {"Type": "/XObject", "Subtype": "/Image", "Width": 8, "Height": 8,
                                            "ColorSpace": "/DeviceGray", "BitsPerComponent": 8})
    if text_first is not None:
        b.page(b"BT /F1 12 Tf 72 700 Td (%s) Tj ET" % text_first.encode("latin-1"), fonts={"F1": font})
    for _ in range(pages):
        b.page(b"q 468 0 0 648 72 72 cm /Im1 Do Q", xobjects={"Im1": image})
    return b.build()


def unmapped_font_pdf(glyph_count: int = 20, *, image: bool = False, text_first: str | None = None) -> bytes:
    """A page of Type3 glyphs named /Xbox and /Xwedge: no Unicode by any route (no ToUnicode,
    no glyph-list names, not numbers); optionally over a full-page image, or after a text page."""
    b = PdfBuilder()
    shapes = b.font_type3({97: "Xbox", 98: "Xwedge"})
    if text_first is not None:
        helvetica = b.font_type1("Helvetica")
        b.page(b"BT /F1 12 Tf 72 700 Td (%s) Tj ET" % text_first.encode("latin-1"), fonts={"F1": helvetica})
    xobjects = None
    content = b"BT /T3 12 Tf 72 700 Td (%s) Tj ET" % (b"ab" * glyph_count)[:glyph_count]
    if image:
        xobjects = {"Im1": b.stream(bytes(range(16)) * 4, {"Type": "/XObject", "Subtype": "/Image", "Width": 8,
                                                          "Height": 8, "ColorSpace": "/DeviceGray",
                                                          "BitsPerComponent": 8})}
        content = b"q 468 0 0 648 72 72 cm /Im1 Do Q 3 Tr " + content
    b.page(content, fonts={"T3": shapes}, xobjects=xobjects)
    return b.build()


def numeric_type3_pdf() -> bytes:
    """Type3 glyphs named after their own codes (`/80`, `/114`, …), no ToUnicode: "Property Insurance"."""
    b = PdfBuilder()
    text = b"Property Insurance"
    font = b.font_type3({c: str(c) for c in set(text)}, width=500)
    b.page(b"BT /T3 12 Tf 72 700 Td (%s) Tj ET" % text, fonts={"T3": font})
    return b.build()


# ----------------------------------------------------------------------------- page specs

def test_page_spec_parses_pages_ranges_and_open_ends():
    assert parse_page_spec("1-3,7") == [(1, 3), (7, 7)]
    assert parse_page_spec(" 2 , 5- ") == [(2, 2), (5, None)]


@pytest.mark.parametrize("spec", ["", "0", "3-1", "a", "1,,2", "1-2-3", "-", "-4", "1.5"])
def test_invalid_page_specs_raise_a_clear_value_error(spec):
    with pytest.raises(ValueError, match="page"):
        parse_page_spec(spec)


def test_selection_is_sorted_unique_and_bounded_by_the_document():
    assert select_pages("7,1-3,2", 10) == ([1, 2, 3, 7], [])
    assert select_pages("4-", 6) == ([4, 5, 6], [])
    numbers, warnings = select_pages("2,5-1000000000", 6)
    assert numbers == [2, 5, 6]
    assert warnings and "6 page" in warnings[0]
    assert select_pages([3, 1], 4) == ([1, 3], [])
    assert select_pages(None, 3) == ([1, 2, 3], [])


@pytest.mark.parametrize("bad", [[0], [True], ["2"], [1.0]])
def test_page_iterables_must_hold_positive_ints(bad):
    with pytest.raises(ValueError):
        select_pages(bad, 5)


# ----------------------------------------------------------------------------- page separation

def _pages(*texts: str) -> list[PageResult]:
    return [PageResult(number=i + 1, text=t, char_count=len(t), scan=len(t) < 12) for i, t in enumerate(texts)]


def test_pages_are_separated_by_form_feeds_by_default():
    assert join_pages(_pages("one", "", "three")) == "one\n\f\fthree\n"


def test_every_page_with_text_ends_in_a_line_break_before_its_form_feed():
    # as pdftotext writes it: the last line of a page never runs into the next page in an editor
    text = join_pages(_pages("first page\nlast line", "second page"))
    assert text == "first page\nlast line\n\fsecond page\n"
    assert [page.splitlines()[-1] for page in text.split("\f")] == ["last line", "second page"]
    assert join_pages(_pages("ends in a newline\n", "x")) == "ends in a newline\n\fx\n"   # never doubled


def test_markers_name_every_page_including_empty_ones():
    assert join_pages(_pages("one", "", "three"), markers=True) == (
        "--- Page 1 ---\none\n\n--- Page 2 ---\n\n--- Page 3 ---\nthree\n")


def test_without_page_breaks_pages_are_paragraphs():
    assert join_pages(_pages("one", "", "three"), page_breaks=False) == "one\n\nthree\n"


def test_an_empty_selection_gives_empty_text():
    assert join_pages([]) == ""


# ----------------------------------------------------------------------------- scan report

def test_scan_report_whole_document_and_pages():
    assert scan_report(_pages("a long enough page of text", "another page of text")) is None
    whole = scan_report(_pages("", "", "tiny"))
    assert whole.whole_document and whole.pages == [1, 2, 3]
    assert "OCR" in whole.message
    partial = scan_report(_pages("a long enough page of text", "", "another page of text"))
    assert not partial.whole_document and partial.pages == [2]
    assert "page 2 has no text layer" in partial.message


def test_page_ranges_are_collapsed_in_messages():
    assert format_page_ranges([1, 2, 3, 5, 7, 8]) == "1-3, 5, 7-8"


# ----------------------------------------------------------------------------- layout grid

def _word(text, x0, y0, size=10.0, width=None, flags=0):
    width = width if width is not None else 5.0 * len(text)
    return Word(text, x0, y0, x0 + width, y0 + size, size, "Helvetica", flags)


def _line(*words):
    return Line(list(words), min(w.x0 for w in words), min(w.y0 for w in words),
                max(w.x1 for w in words), max(w.y1 for w in words))


def _layout(*lines, number=1):
    blocks = [Block([line], line.x0, line.y0, line.x1, line.y1) for line in lines]
    return PageLayout(number, 612, 792, blocks, [], sum(len(w.text) for line in lines for w in line.words))


def test_grid_keeps_table_columns_aligned():
    # a table whose cells are separate lines; each char is 5 pt wide, so 1 column = 5 pt
    rows = [("Item", "Qty", "Price"), ("Apples", "12", "3.40"), ("Kiwi", "7", "12.00")]
    lines = []
    for r, cells in enumerate(rows):
        for x, cell in zip((100, 200, 260), cells):
            lines.append(_line(_word(cell, x, 100 + 14 * r)))
    assert render_grid(_layout(*lines)) == (
        "Item                Qty         Price\n"
        "Apples              12          3.40\n"
        "Kiwi                7           12.00")


def test_grid_never_overlaps_words_and_shows_paragraph_gaps():
    wide = _word("WIDE", 0, 100, width=60)      # wider than its 4 columns
    after = _word("next", 20, 100)
    far = _word("later", 0, 160)                  # a gap of several line pitches
    first = _word("top", 0, 86)
    text = render_grid(_layout(_line(first), _line(wide, after), _line(far)))
    assert text == "top\nWIDE next\n\n\nlater"


def test_grid_keeps_word_spaces_single_and_wide_gaps_as_columns():
    # a 20 pt heading with 8 pt word gaps, then a body row whose second cell is 40 pt away (4 em)
    heading = _line(_word("Big", 0, 60, size=20, width=30), _word("Title", 38, 60, size=20, width=50))
    row = _line(_word("left", 0, 100), _word("right", 60, 100))
    assert render_grid(_layout(heading, row)) == "Big Title\n\nleft    right"  # median char width 7.5 pt


def test_page_rows_tell_word_spaces_from_column_gaps_and_join_lines_on_one_centre():
    # two lines on one centre line: "a b" (a 5 pt gap at size 10, a word space) and a cell 40 pt on
    heading = _line(_word("a", 0, 100), _word("b", 10, 100), _word("far", 55, 100))
    cell = _line(_word("cell", 200, 101))
    below = _line(_word("next", 0, 130))
    page = page_rows(_layout(heading, cell, below))
    assert [[(w.word.text, w.spaced) for w in row.words] for row in page.rows] == [
        [("a", False), ("b", True), ("far", False), ("cell", False)], [("next", False)]]
    assert page.apart == [] and (page.rows[0].top, page.rows[0].bottom) == (100, 111)


def test_grid_puts_rotated_lines_after_the_grid():
    vertical = Line([_word("side", 500, 300)], 500, 300, 510, 320, dx=0.0, dy=-1.0)
    text = render_grid(_layout(_line(_word("body", 0, 100)), vertical))
    assert text == "body\nside"


def test_grid_of_an_empty_page_is_empty():
    assert render_grid(PageLayout(1, 612, 792)) == ""


# ----------------------------------------------------------------------------- json

def test_json_page_object_has_the_documented_shape():
    layout = _layout(_line(_word("Hello", 72.004, 90, flags=INVISIBLE), _word("world", 102, 90)))
    page = json_out.page_object(layout, rotation=90, scan=False, warnings=["w"])
    assert page["number"] == 1 and page["rotation"] == 90 and page["warnings"] == ["w"]
    word = page["blocks"][0]["lines"][0]["words"][0]
    assert word == {"text": "Hello", "bbox": [72.0, 90.0, 97.0, 100.0], "font": "Helvetica", "size": 10.0,
                    "flags": ["invisible"]}
    assert page["blocks"][0]["lines"][0]["text"] == "Hello world"
    doc = json_out.document_object([page], page_count=3, metadata={"Title": "T"}, scan=None, warnings=[])
    assert json.loads(json_out.dumps(doc)) == doc
    assert doc["schema"] == "glyphline/1" and doc["version"] == 1


# ----------------------------------------------------------------------------- the library call

@needs_pipeline
def test_extract_text_reads_each_page_and_separates_them():
    result = extract_text(text_pdf([["Hello world, page one"], ["Second page here"]]))
    assert result.text == "Hello world, page one\n\fSecond page here\n"
    assert [p.number for p in result.pages] == [1, 2]
    assert result.page_count == 2 and result.scan is None


@needs_pipeline
def test_markers_bom_and_page_selection():
    data = text_pdf([["First page text"], [], ["Third page text"]])
    result = extract_text(data, markers=True, bom=True)
    assert result.text == "\ufeff--- Page 1 ---\nFirst page text\n\n--- Page 2 ---\n\n--- Page 3 ---\nThird page text\n"
    assert extract_text(data, pages="3").text == "Third page text\n"
    assert extract_text(data, pages=[1, 3], page_breaks=False).text == "First page text\n\nThird page text\n"
    with pytest.raises(ValueError):
        extract_text(data, pages="3-2")
    with pytest.raises(ValueError):
        extract_text(data, mode="html")


@needs_pipeline
def test_an_image_only_document_is_reported_as_a_scan():
    result = extract_text(image_only_pdf(2))
    assert result.scan is not None and result.scan.whole_document
    assert result.scan.pages == [1, 2]
    assert all(p.scan for p in result.pages)


@needs_pipeline
def test_a_scanned_page_in_a_text_document_is_named():
    result = extract_text(image_only_pdf(1, text_first="A page with a real text layer, and a few more words on it"))
    assert result.scan is not None and not result.scan.whole_document
    assert result.scan.pages == [2]
    assert result.text.startswith("A page with a real text layer")


@needs_pipeline
def test_progress_is_reported_after_every_page():
    calls = []
    extract_text(text_pdf([["page number one"], ["page number two"], ["page number three"]]),
                 on_progress=lambda d, t: calls.append((d, t)))
    assert calls == [(1, 3), (2, 3), (3, 3)]


@needs_pipeline
def test_cancellation_between_pages():
    data = text_pdf([["page number one"], ["page number two"], ["page number three"]])
    stop = threading.Event()
    with pytest.raises(Cancelled):
        extract_text(data, on_progress=lambda done, total: stop.set(), cancel=stop)
    seen: list[int] = []
    for page in iter_pages(data, cancel=lambda: len(seen) >= 2):
        seen.append(page.number)
    assert seen == [1, 2]


@needs_pipeline
def test_iter_pages_keeps_only_the_window_of_layouts_it_reads(monkeypatch):
    """A page's layout is let go once it leaves the STATS_WINDOW_PAGES window that short pages
    borrow statistics from: iterating a long document keeps a bounded number of layouts."""
    import gc
    import weakref

    import glyphline.extract as extract

    made = []
    analyse = extract._analyse

    def recording(*args, **kwargs):
        page = analyse(*args, **kwargs)
        made.append(weakref.ref(page[0]))
        return page

    monkeypatch.setattr(extract, "_analyse", recording)
    monkeypatch.setattr(extract, "STATS_WINDOW_PAGES", 2)
    pages = iter_pages(text_pdf([[f"page {n} line {i}" for i in range(6)] for n in range(5)]))
    texts = [next(pages).text for _ in range(5)]
    gc.collect()
    assert texts[4].startswith("page 4 line 0")
    assert [ref() is not None for ref in made] == [False, False, False, True, True]


def test_iter_pages_yields_pages_with_progress():
    data = text_pdf([["alpha beta gamma"], ["delta epsilon zeta"]])
    calls = []
    pages = list(iter_pages(data, pages="2", on_progress=lambda d, t: calls.append((d, t))))
    assert [(p.number, p.text, p.scan) for p in pages] == [(2, "delta epsilon zeta", False)]
    assert calls == [(1, 1)]


@needs_pipeline
def test_json_mode_gives_the_schema_with_words_and_boxes():
    data = text_pdf([["Hello world and more"]])
    result = extract_text(data, mode="json")
    doc = json.loads(result.text)
    assert json.loads(result.pages[0].text) == doc["pages"][0]
    assert json.loads(next(iter_pages(data, mode="json")).text) == doc["pages"][0]
    assert doc["schema"] == "glyphline/1" and doc["page_count"] == 1
    words = [w for b in doc["pages"][0]["blocks"] for line in b["lines"] for w in line["words"]]
    assert [w["text"] for w in words] == ["Hello", "world", "and", "more"]
    x0, y0, x1, y1 = words[0]["bbox"]
    assert x0 == pytest.approx(72, abs=0.5) and y1 == pytest.approx(92, abs=4) and words[0]["size"] == 12.0


@needs_pipeline
def test_layout_mode_aligns_columns():
    b = PdfBuilder()
    font = b.font_type1("Courier")
    rows = [(b"Item", b"Quantity"), (b"Apples", b"12"), (b"Kiwi", b"7")]
    content = b"".join(b"BT /F1 10 Tf %d %d Td (%s) Tj ET\n" % (x, 700 - 14 * r, cell)
                       for r, cells in enumerate(rows) for x, cell in zip((72, 240), cells))
    b.page(content, fonts={"F1": font})
    text = extract_text(b.build(), mode="layout").text
    lines = text.rstrip("\n").split("\n")
    assert [line.split() for line in lines] == [["Item", "Quantity"], ["Apples", "12"], ["Kiwi", "7"]]
    assert len({line.index(cell) for line, cell in zip(lines, ("Quantity", "12", "7"))}) == 1


def test_open_errors_surface_as_documented_exceptions():
    with pytest.raises(NotAPDF):
        extract_text(b"hello, I am a text file")
    protected = encrypt(text_pdf([["secret"]]), "RC4-128", user_password="pw")
    with pytest.raises(PasswordRequired):
        extract_text(protected)


# ----------------------------------------------------------------------------- scan versus tiny or blank

def test_a_tiny_text_only_document_is_text_not_a_scan():
    # PDFBox-style reproducers: one word on a page and no image to OCR
    result = extract_text(text_pdf([["Test"]]))
    assert result.text.strip() == "Test"
    assert result.scan is None and not result.pages[0].scan


def test_a_blank_page_in_a_text_document_is_not_called_a_scan():
    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    b.page(b"BT /F1 12 Tf 72 700 Td (A page with a real text layer and enough words) Tj ET", fonts={"F1": font})
    b.page(b"")
    result = extract_text(b.build())
    assert result.scan is None and [p.scan for p in result.pages] == [False, False]


def test_a_small_image_beside_tiny_text_is_not_a_scan():
    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    image = b.stream(bytes(64), {"Type": "/XObject", "Subtype": "/Image", "Width": 8, "Height": 8,
                                 "ColorSpace": "/DeviceGray", "BitsPerComponent": 8})
    b.page(b"q 40 0 0 40 72 72 cm /Im1 Do Q BT /F1 12 Tf 72 700 Td (Logo) Tj ET",
           fonts={"F1": font}, xobjects={"Im1": image})
    result = extract_text(b.build())
    assert result.scan is None


def test_an_inline_image_page_without_text_is_a_scan():
    b = PdfBuilder()
    b.page(b"q 500 0 0 700 50 50 cm BI /W 2 /H 2 /CS /G /BPC 8 ID \x00\x01\x02\x03 EI Q")
    result = extract_text(b.build())
    assert result.scan is not None and result.scan.whole_document and result.scan.pages == [1]


# ----------------------------------------------------------------------------- fonts without a character mapping

@needs_pipeline
def test_a_page_whose_fonts_have_no_character_mapping_is_not_a_scan():
    result = extract_text(unmapped_font_pdf(20))
    assert result.scan is None and not result.pages[0].scan
    assert result.pages[0].unmapped and result.pages[0].unmapped_glyphs == 20
    assert result.unmapped is not None and result.unmapped.whole_document and result.unmapped.pages == [1]
    assert "no character mapping" in result.unmapped.message


@needs_pipeline
def test_an_unmapped_page_among_text_pages_is_named_and_an_image_page_stays_a_scan():
    mixed = extract_text(unmapped_font_pdf(20, text_first="A page with a real text layer, and a few more words on it"))
    assert mixed.scan is None
    assert mixed.unmapped is not None and not mixed.unmapped.whole_document and mixed.unmapped.pages == [2]
    assert mixed.unmapped.message.startswith("the fonts of page 2 have no character mapping")
    scan = extract_text(image_only_pdf(1))
    assert scan.scan is not None and scan.unmapped is None and not scan.pages[0].unmapped


@needs_pipeline
def test_over_a_page_image_a_few_unmapped_glyphs_stay_a_scan_and_many_are_an_unmapped_text_layer():
    stamped = extract_text(unmapped_font_pdf(4, image=True))          # a scan with a stamped symbol or two
    assert stamped.scan is not None and stamped.scan.whole_document and stamped.unmapped is None
    ocr_layer = extract_text(unmapped_font_pdf(40, image=True))       # an invisible text layer without Unicode
    assert ocr_layer.scan is None and ocr_layer.unmapped is not None and ocr_layer.unmapped.whole_document


@needs_pipeline
def test_json_output_names_unmapped_pages():
    doc = json.loads(extract_text(unmapped_font_pdf(20), mode="json").text)
    assert doc["scan"] is None and doc["unmapped"]["whole_document"] is True
    assert doc["pages"][0]["unmapped"] is True and doc["pages"][0]["scan"] is False


@needs_pipeline
def test_type3_glyphs_named_after_their_codes_are_text_not_a_scan():
    result = extract_text(numeric_type3_pdf())
    assert result.text == "Property Insurance\n"
    assert result.scan is None and result.unmapped is None


@needs_pipeline
def test_a_type3_font_in_big_units_at_a_tiny_size_keeps_its_words_whole():
    # FontMatrix [1 0 0 1 0 0] at 0.024 Tf: glyph units are 1/500 em, not 1 em (TYPE3_EM_FROM_WIDTHS).
    # Each cluster is placed on its own (as the producer of pdf.js issue 9655 does): 6 pt glyphs
    # 0.2–0.7 pt apart are one word at a 12 pt em; the 5 pt gap is the word space
    b = PdfBuilder()
    font = b.font_type3({c: str(c) for c in set(b"PropertyInsurance")}, font_matrix=(1, 0, 0, 1, 0, 0), width=250)
    clusters, x, content = [b"P", b"ro", b"p", b"e", b"rty", b"Ins", b"ura", b"nce"], 72.0, b"BT /T3 0.024 Tf\n"
    for cluster, gap in zip(clusters, [0.7, 0.2, 0.4, 0.3, 5.0, 0.6, 0.2, 0]):
        content += b"1 0 0 1 %g 700 Tm (%s) Tj\n" % (x, cluster)
        x += 6 * len(cluster) + gap
    b.page(content + b"ET", fonts={"T3": font})
    assert extract_text(b.build()).text == "Property Insurance\n"


# ----------------------------------------------------------------------------- cluster texts in ToUnicode

@needs_pipeline
def test_cluster_texts_keep_the_latin_word_whole_and_empty_values_are_not_unmapped():
    # pypdf's "habibi" file from Skia: the glyph "h" maps to "حَبيبي h" (MIXED_UNIT), the Arabic
    # word's glyphs map to <> but the last, which carries the whole word (EMPTY_TOUNICODE)
    b = PdfBuilder()
    word = "\u062d\u064e\u0628\u064a\u0628\u064a"
    font = b.font_type0({1: word + " h", 2: "a", 3: "b", 4: "i", 5: " ", 6: "", 7: word + " "}, dw=500)
    b.page(b"BT /F0 16 Tf 72 700 Td <000100020003000400030004> Tj <0006000600060006 0007> Tj ET",
           fonts={"F0": font})
    result = extract_text(b.build())
    assert result.text == word + " habibi " + word + "\n"
    assert result.pages[0].unmapped_glyphs == 0 and not result.pages[0].warnings


@needs_pipeline
def test_positional_forms_in_a_subset_truetype_font_read_as_letters_not_punctuation():
    # four forms of beh and of yeh share a letter each in the ToUnicode map (DUPLICATE_CODES)
    b = PdfBuilder()
    forms = {0x21: "\u0628", 0x22: "\u0628", 0x23: "\u0628", 0x24: "\u0628",
             0x25: "\u064a", 0x26: "\u064a", 0x27: "\u064a", 0x28: "\u064a", 0x29: "\u062a"}
    font = b.font_truetype("ABCDEF+Amiri", widths=[500] * 16, to_unicode=b.tounicode(forms))
    b.page(b"BT /F1 20 Tf 72 700 Td <292621> Tj ET", fonts={"F1": font})   # painted left to right
    assert extract_text(b.build()).text == "\u0628\u064a\u062a\n"


@needs_pipeline
def test_a_reflowed_page_waiting_for_the_vocabulary_keeps_a_record_per_run_not_per_line():
    """Until the document's vocabulary is complete a reflowed page keeps its lines folded into
    runs (across_pages.fold_lines): one record per stretch no dehyphenation decision cuts, and
    the text is that of the whole layouts (words hyphenated inside a page and across pages)."""
    from glyphline.document import open as open_document
    from glyphline.extract import DocumentPasses, _analyse
    from glyphline.layout.model import ReflowLine
    from glyphline.options import ExtractOptions

    lines = [f"line {n} of a page with enough lines to judge its own para-" if n % 5 == 4 else f"graph {n} goes on"
             for n in range(16)]
    data = text_pdf([lines + ["and the page ends in en-"], ["coded text", *lines]])
    document = open_document(data)
    passes = DocumentPasses(document, ExtractOptions())
    for number in (1, 2):
        passes.add(*_analyse(document, number))
    kept = [line for layout, _, _ in passes.pages for block in layout.blocks for line in block.lines]
    assert sum(isinstance(line, ReflowLine) for line in kept) <= 12   # 34 lines: 6 hyphen breaks, 2 page ends
    text = passes.finish([]).text
    assert text == extract_text(data, keep_layouts=True).text
    assert "own paragraph 5 goes on" in text and "ends in encoded\n\ftext graph 0" in text


@needs_pipeline
def test_the_statistics_of_a_long_document_are_kept_folded_not_a_record_per_page():
    """Every page's line pitches are kept for the pages short of evidence of their own, folded into
    one histogram per size bucket (layout.add_evidence: each distinct pitch once, with how many
    times it was met), not every step of every page; the short page is laid out with the same
    document statistics, and the pitch from the counts is the same float as from the steps."""
    from glyphline.document import open as open_document
    from glyphline.extract import DocumentPasses, _analyse
    from glyphline.layout import collect_doc_stats, doc_stats_from
    from glyphline.layout.paragraphs import counted_line_pitch, line_pitch
    from glyphline.options import ExtractOptions

    lines = [f"line {n} of a page with enough lines to judge its own paragraphs" for n in range(12)]
    data = text_pdf([lines, lines[::-1], ["one short paragraph", "", "another one"]])
    document = open_document(data)
    passes = DocumentPasses(document, ExtractOptions(mode="preserve"))
    layouts = [_analyse(document, number) for number in (1, 2, 3)]
    for page in layouts:
        passes.add(*page)
    assert passes.short == [2]   # the third page: one pitch of its own
    steps, weights = passes.evidence
    met = [step for layout, _, _ in layouts for values in layout.line_pitches.values() for step in values]
    assert len(met) >= 20 and sum(len(counts) for counts in steps.values()) <= len(set(met))   # 22 steps, 2 values
    assert all(sum(counts.values()) == sum(len(layout.line_pitches.get(key, ())) for layout, _, _ in layouts)
               for key, counts in steps.items())
    assert doc_stats_from([passes.evidence]) == collect_doc_stats([layout for layout, _, _ in layouts])
    for values in ([3.0], [2.0, 1.0, 2.0, 1.5], [0.7] * 9 + [0.1, 5.0] * 4, [12.0, 11.95, 14.4, 11.95, 12.0]):
        counts: dict[float, int] = {}
        for value in values:
            counts[value] = counts.get(value, 0) + 1
        assert counted_line_pitch(counts) == line_pitch(values)
    assert passes.finish([]).text == extract_text(data, mode="preserve", keep_layouts=True).text


@needs_pipeline
@pytest.mark.parametrize("mode", ["reflow", "preserve", "json"])
def test_a_long_document_keeps_little_of_each_finished_page(mode):
    """Memory stays flat over 800 pages: a page no later pass needs whole is rendered at once
    (preserve, json) or cut to its text (reflow), and the result is that of whole layouts."""
    from glyphline.document import open as open_document
    from glyphline.extract import DocumentPasses, _analyse
    from glyphline.options import ExtractOptions

    lines = [f"line {n} of a page with enough lines to judge its own para-" if n % 3 == 2 else f"graph {n} goes on"
             for n in range(12)]
    data = text_pdf([lines] * 3)
    options = ExtractOptions(mode=mode)
    document = open_document(data)
    passes = DocumentPasses(document, options)
    for number in (1, 2, 3):
        passes.add(*_analyse(document, number))
    kept = passes.pages
    if mode == "reflow":
        from glyphline.layout.model import ReflowLine
        lines = [line for layout, _, _ in kept for block in layout.blocks for line in block.lines]
        cut = [line for line in lines if isinstance(line, ReflowLine)]
        assert len(cut) >= len(lines) - 2 * len(kept)   # all but the page-break lines: their text only
        assert all(len(line.words) <= 3 for line in lines if not isinstance(line, ReflowLine))
    else:
        assert all(isinstance(page, PageResult) for page in kept)
    assert passes.finish([]).text == extract_text(data, mode=mode, keep_layouts=True).text


@needs_pipeline
@pytest.mark.parametrize("values", [{}, {"mode": "preserve"}, {"mode": "layout"}, {"markers": True},
                                    {"page_breaks": False, "bom": True}, {"mode": "json", "bom": True},
                                    {"mode": "markdown"}])
def test_written_text_is_the_text_in_pieces_and_the_result_keeps_none_of_it(values):
    """extract_text(write=...) hands the text out in pieces whose concatenation is Result.text of
    the call without it (markers, form feeds, blank lines, BOM, final line break), and keeps no
    text itself: neither the joined text nor the pages'."""
    lines = [f"line {n} of a page with enough lines to judge its own para-" if n % 3 == 2 else f"graph {n} goes on"
             for n in range(12)]
    data = text_pdf([lines, [], ["one short paragraph", "", "another one"], lines[::-1]])
    pieces: list[str] = []
    result = extract_text(data, write=pieces.append, **values)
    assert "".join(pieces) == extract_text(data, **values).text
    assert result.text == "" and all(page.text == "" for page in result.pages)
    assert [page.number for page in result.pages] == [1, 2, 3, 4] and result.pages[1].char_count == 0
    empty: list[str] = []
    extract_text(text_pdf([[]]), write=empty.append, **values)
    assert "".join(empty) == extract_text(text_pdf([[]]), **values).text


@needs_pipeline
def test_a_page_no_later_page_can_change_is_written_before_the_next_is_read():
    """preserve: nothing after a page changes it, so its text is written as soon as every page
    before it is, while the document is still being read (the command line's memory stays flat)."""
    lines = [f"line {n} of a page with enough lines to judge its own paragraphs" for n in range(12)]
    data = text_pdf([lines, lines[::-1], lines])
    events: list[str] = []
    extract_text(data, mode="preserve", write=lambda piece: events.append("text"),
                 on_progress=lambda done, total: events.append(f"page {done}"))
    assert events == ["text", "page 1", "text", "page 2", "text", "page 3"]


@needs_pipeline
def test_a_reflowed_page_is_rendered_once_the_next_is_in_and_waits_on_disk_for_the_vocabulary():
    """Reflow written as it is made: page 1 is rendered as soon as page 2 is in (the word broken
    across their break joined), its joins the vocabulary decides left pending; its text waits in
    the spool, not as a layout, and is decided with the whole document's vocabulary: here
    page 3's unbroken `en-code` keeps the hyphens of pages 1 and 2."""
    from glyphline.document import open as open_document
    from glyphline.extract import DocumentPasses, _analyse
    from glyphline.options import ExtractOptions

    body = [f"line {n} of a page with enough lines to judge its own paragraphs" for n in range(12)]
    data = text_pdf([body + ["the page breaks the word en-"], ["code and the text goes on, then en-", "code", *body],
                     body + ["an en-code written whole"]])
    document = open_document(data)
    pieces: list[str] = []
    passes = DocumentPasses(document, ExtractOptions(), write=pieces.append)
    passes.add(*_analyse(document, 1))
    assert isinstance(passes.pages[0], tuple)   # the join across the break needs page 2
    passes.add(*_analyse(document, 2))
    assert isinstance(passes.pages[0], PageResult) and passes.spool is not None and pieces == []
    passes.add(*_analyse(document, 3))
    assert isinstance(passes.pages[1], PageResult) and passes.settled == 2
    result = passes.finish([])
    text = "".join(pieces)
    assert text == extract_text(data).text and result.text == ""
    assert "breaks the word en-code\n\fand the text goes on, then en-code line 0" in text


@needs_pipeline
def test_pages_short_of_evidence_and_their_neighbours_are_held_and_the_text_stays_whole():
    """A page laid out again at the end (short of evidence) is held with its neighbours (their
    joins across the breaks wait for it): a place in the spool stands for each, and the pages
    after them go on being rendered early; a one-line page ending in a hyphen between a short
    page and the next is joined at the end, in page order. The text is extract_text's."""
    lines = [f"line {n} of a page with enough lines to judge its own para-" if n % 3 == 2 else f"graph {n} goes on"
             for n in range(12)]
    short = ["one short para-", "", "graph and another en-"]
    data = text_pdf([lines, lines, lines, short, lines + ["it ends in en-"], short, short, ["code and en-"],
                     ["code", *lines], lines, lines])
    for values in ({}, {"markers": True}, {"page_breaks": False}):
        pieces: list[str] = []
        extract_text(data, write=pieces.append, **values)
        assert "".join(pieces) == extract_text(data, **values).text


@needs_pipeline
def test_without_a_temporary_file_the_waiting_text_is_spooled_in_memory(monkeypatch):
    """A system where no temporary file can be made (read-only) still gets the text, whole."""
    import tempfile

    def refused(*args, **kwargs):
        raise OSError(30, "Read-only file system")

    lines = [f"line {n} of a page with enough lines to judge its own para-" if n % 3 == 2 else f"graph {n} goes on"
             for n in range(12)]
    data = text_pdf([lines, lines, lines])
    expected = extract_text(data).text
    monkeypatch.setattr(tempfile, "TemporaryFile", refused)
    pieces: list[str] = []
    extract_text(data, write=pieces.append)
    assert "".join(pieces) == expected
