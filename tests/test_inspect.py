"""The inspect option: each page's JSON also lists its columns and the glyphs left out of the
text (outside the crop box, fake-bold duplicates, hidden layers), for the layout inspector."""
from __future__ import annotations

import json

from pdfbuilder import PdfBuilder

from glyphline.extract import extract_text
from glyphline.limits import Limits


def _line(word: bytes, x: float, y: float) -> bytes:
    return b"BT /F1 12 Tf %g %g Td (%s) Tj ET " % (x, y, word)


def _fake_bold(word: bytes, x: float, y: float) -> bytes:
    """The word drawn twice, 0.3 pt apart: a fake-bold copy."""
    return _line(word, x, y) + _line(word, x + 0.3, y)


def _page(**options) -> dict:
    """One page showing every way a glyph is left out: past the crop box's right edge, drawn twice,
    and in a layer hidden at opening; beside them the text that stays."""
    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    layer = b.add({"Type": "/OCG", "Name": b"notes"})
    content = (_line(b"Kept", 72, 700) + _line(b"Gone", 560, 700) + _fake_bold(b"Bold", 72, 680)
               + b"/OC /L0 BDC " + _line(b"Secret", 72, 660) + b"EMC ")
    b.page(content, fonts={"F1": font}, resources={"Properties": {"L0": layer}}, crop_box=(0, 0, 500, 792))
    data = b.build(catalog={"OCProperties": {"OCGs": [layer], "D": {"OFF": [layer]}}})
    return json.loads(extract_text(data, mode="json", **options).text)["pages"][0]


def _words(page: dict) -> list[str]:
    return [w["text"] for block in page["blocks"] for line in block["lines"] for w in line["words"]]


def _dropped(page: dict, reason: str) -> str:
    return "".join(item["text"] for item in page["dropped"] if item["reason"] == reason)


def test_each_left_out_glyph_is_listed_with_its_reason_and_box():
    page = _page(inspect=True)
    assert _words(page) == ["Kept", "Bold"]
    assert _dropped(page, "outside_crop") == "Gone"
    assert _dropped(page, "duplicate") == "Bold"
    assert _dropped(page, "hidden_layer") == "Secret"
    assert page["dropped_omitted"] == 0
    gone = [item["bbox"] for item in page["dropped"] if item["reason"] == "outside_crop"]
    assert gone[0][0] >= 500 - 1 and gone[-1][2] > gone[0][0]        # past the crop box, left to right
    secret = [item["bbox"] for item in page["dropped"] if item["reason"] == "hidden_layer"]
    # y grows down from the top of the visible page: the baseline at 660 lies 132 pt down
    assert all(box[1] < 792 - 660 < box[3] for box in secret)


def test_columns_are_the_flows_in_reading_order():
    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    rows = b"".join(_line(b"left column words here %d" % i, 72, 700 - 14 * i)
                    + _line(b"right column words here %d" % i, 320, 700 - 14 * i) for i in range(8))
    b.page(rows, fonts={"F1": font})
    page = json.loads(extract_text(b.build(), mode="json", inspect=True).text)["pages"][0]
    lefts = [column["bbox"][0] for column in page["columns"]]
    assert lefts == [72, 320] and {c["role"] for c in page["columns"]} == {"body"}


def test_the_rules_and_marks_the_page_draws_are_listed_with_their_colour():
    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    b.page(_line(b"Kept", 72, 700) + b"0.5 w 72 690 m 300 690 l S 1 0 0 rg 60 700 4 4 re f 1 g 60 680 4 4 re f",
           fonts={"F1": font})
    page = json.loads(extract_text(b.build(), mode="json", inspect=True).text)["pages"][0]
    assert page["rules"] == [{"bbox": [72, 102, 300, 102], "width": 0.5}]
    assert page["marks"] == [{"bbox": [60, 88, 64, 92], "kind": "fill", "colour": "#ff0000"}]   # the white one is not drawn


def test_nothing_is_listed_unless_asked():
    page = _page()
    assert "dropped" not in page and "columns" not in page and "rules" not in page
    assert _words(page) == _words(_page(inspect=True))


def test_the_list_is_budgeted_and_counts_the_rest():
    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    b.page(_line(b"Kept", 72, 700) + _line(b"x" * 40, 560, 680), fonts={"F1": font}, crop_box=(0, 0, 500, 792))
    result = extract_text(b.build(), mode="json", inspect=True, limits=Limits(dropped_glyphs_listed=10))
    page = json.loads(result.text)["pages"][0]
    assert len(page["dropped"]) == 10 and page["dropped_omitted"] == 30


def test_a_page_laid_out_again_lists_its_duplicates_once():
    # a short page borrows the document's statistics and is analysed twice (extract._with_document_stats)
    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    long_page = b"".join(_line(b"a line of body text number %d" % i, 72, 700 - 14 * i) for i in range(30))
    b.page(long_page, fonts={"F1": font})
    b.page(_fake_bold(b"Title", 72, 700) + _line(b"one line", 72, 680) + _line(b"two line", 72, 666),
           fonts={"F1": font})
    pages = json.loads(extract_text(b.build(), mode="json", inspect=True).text)["pages"]
    assert _dropped(pages[1], "duplicate") == "Title"


def test_the_fast_and_the_reference_line_paths_list_the_same_duplicates(monkeypatch):
    from glyphline.layout import _upright

    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    b.page(_fake_bold(b"Heavy words", 72, 700) + _line(b"plain text after it", 72, 680)
           + _fake_bold(b"again", 200, 680), fonts={"F1": font})
    data = b.build()
    listed = []
    for fast in (True, False):
        monkeypatch.setattr(_upright, "FAST_PATHS", fast)
        page = json.loads(extract_text(data, mode="json", inspect=True).text)["pages"][0]
        listed.append(sorted((item["text"], tuple(item["bbox"])) for item in page["dropped"]))
    assert listed[0] == listed[1]
    assert "".join(text for text, _ in listed[0]).replace(" ", "") == "".join(sorted("Heavywordsagain"))


def test_a_string_across_the_crop_edge_is_split_between_the_text_and_the_list():
    """Across the crop box's right edge (upright text) and its top edge (text turned 90°): the
    glyphs inside stay in the text and exactly the others are listed, in the order drawn."""
    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    b.page(_line(b"Straddling", 465, 700), fonts={"F1": font}, crop_box=(0, 0, 500, 792))
    b.page(b"BT /F1 12 Tf 0 1 -1 0 300 740 Tm (Straddling) Tj ET", fonts={"F1": font}, crop_box=(0, 0, 612, 770))
    for page in json.loads(extract_text(b.build(), mode="json", inspect=True).text)["pages"]:
        kept, left_out = "".join(_words(page)), _dropped(page, "outside_crop")
        assert kept and left_out and kept + left_out == "Straddling"


def test_letters_drawn_twice_each_inside_one_line_are_dropped_as_fake_bold():
    # fake bold letter by letter (each glyph shown again 0.3 pt right of it before the next, at
    # Helvetica's widths): each copy steps back over the glyph before it, within the repeat step
    # of the fast path
    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    doubled, x = b"", 72.0
    for c, width in zip(b"Heavy", (722, 556, 556, 500, 500)):
        doubled += b"1 0 0 1 %g 700 Tm (%s) Tj 1 0 0 1 %g 700 Tm (%s) Tj " % (x, bytes([c]), x + 0.3, bytes([c]))
        x += width * 12 / 1000
    b.page(b"BT /F1 12 Tf " + doubled + b"ET " + _line(b"plain text after it", 72, 680),
           fonts={"F1": font})
    page = json.loads(extract_text(b.build(), mode="json", inspect=True).text)["pages"][0]
    assert _words(page)[:1] == ["Heavy"]
    assert _dropped(page, "duplicate") == "Heavy"
