"""The document layer through the public API: opening, page tree, boxes, rotation, encryption,
damaged and hostile files, budgets. Every PDF is made here with tests/pdfbuilder.py, so the
expected glyph text and positions follow from the numbers in each test."""
from __future__ import annotations

import io
import re
import tracemalloc

import pytest

import glyphline
from glyphline import Limits
from glyphline.errors import BudgetExceeded, DamagedPDF, NotAPDF, PasswordRequired
from pdfbuilder import (ENCRYPTIONS, PdfBuilder, Stream, actual_text, encrypt, flate_bomb, inline_image,
                        simple_page_pdf)

MiB = 1024 * 1024
MONO_WIDTH = 500            # every glyph of the test font is half an em wide
EPS = 1e-6


def mono_font(b: PdfBuilder):
    """TrueType, WinAnsi, all widths 500, ascent 800 / descent -200: size 10 → 5 pt per glyph, 10 pt high."""
    return b.font_truetype("TestMono", widths=[MONO_WIDTH] * 95, first_char=32)


def line(text: bytes, x: float, y: float, size: float = 10, font: bytes = b"F1") -> bytes:
    return b"BT /%s %g Tf %g %g Td (%s) Tj ET\n" % (font, size, x, y, text)


def text_of(page) -> str:
    return "".join(g.text for g in page.glyphs)


def one_page(content, *, limits=None, keep_outside=False, **page_args):
    b = PdfBuilder()
    b.page(content, fonts={"F1": mono_font(b)}, **page_args)
    return glyphline.open(b.build(), limits=limits, keep_outside=keep_outside).page(0)


def approx(value):
    return pytest.approx(value, abs=1e-3)


# ---------------------------------------------------------------- opening, metadata, laziness

def test_open_counts_pages_and_numbers_them_from_one():
    b = PdfBuilder()
    font = mono_font(b)
    for word in (b"one", b"two", b"three"):
        b.page(line(word, 72, 700), fonts={"F1": font})
    doc = glyphline.open(b.build())
    assert doc.page_count == 3
    assert len(doc.pages) == 3
    assert [p.number for p in doc.pages] == [1, 2, 3]
    assert [text_of(doc.page(i)) for i in range(3)] == ["one", "two", "three"]
    assert text_of(doc.pages[-1]) == "three"


def test_page_index_out_of_range_is_an_index_error():
    doc = glyphline.open(simple_page_pdf())
    with pytest.raises(IndexError):
        doc.page(1)


def test_metadata_is_a_dict_of_str_from_the_info_dictionary():
    b = PdfBuilder()
    b.page(b"")
    doc = glyphline.open(b.build(info={"Title": "Glyphs & Lines: ü 漢字", "Author": "Ada Lovelace"}))
    assert doc.metadata["Title"] == "Glyphs & Lines: ü 漢字"
    assert doc.metadata["Author"] == "Ada Lovelace"
    assert all(isinstance(k, str) and isinstance(v, str) for k, v in doc.metadata.items())


def test_metadata_leaves_out_null_values():
    b = PdfBuilder()
    b.page(b"")
    doc = glyphline.open(b.build(info={"Title": None, "Author": "Ada Lovelace"}))
    assert doc.metadata == {"Author": "Ada Lovelace"}   # not {"Title": "NullObject", ...}


def test_metadata_is_empty_without_info():
    assert glyphline.open(simple_page_pdf()).metadata == {}


def test_pages_are_interpreted_only_when_asked_for():
    # page 2 needs more decompressed bytes than the whole document budget allows: touching it
    # raises BudgetExceeded, so opening and reading page 1 prove that page 2 was not interpreted
    b = PdfBuilder()
    font = mono_font(b)
    b.page(line(b"first", 72, 700), fonts={"F1": font})
    b.page(line(b"second", 72, 700) + b" " * (2 * MiB), fonts={"F1": font}, compress=True)
    limits = Limits(document_bytes=1 * MiB)
    doc = glyphline.open(b.build(), limits=limits)
    assert doc.page_count == 2
    assert text_of(doc.page(0)) == "first"
    assert doc.page(1).width == 612            # the page's geometry needs no interpretation
    with pytest.raises(BudgetExceeded) as info:
        doc.page(1).glyphs
    assert info.value.limit == "document_bytes"


def test_glyphs_are_computed_once_per_page():
    doc = glyphline.open(simple_page_pdf(b"Once"))
    page = doc.page(0)
    assert page.glyphs is page.glyphs


def test_a_read_page_lets_go_of_its_dictionary_and_resources_and_reads_them_again_if_asked():
    """Memory stays flat over a long document: once a page is read and let go, pypdf's cache no
    longer holds its page dictionary nor the /Resources only it names (a shared one stays until its
    last page is read); asking again reads them from the file, with the same text."""
    b = PdfBuilder()
    font = mono_font(b)
    shared = b.add({"Font": {"F1": font}})
    own = [b.add({"Font": {"F1": font}}) for _ in range(2)]
    refs = [b.page(line(b"page %d" % n, 72, 700), extra={"Resources": res})
            for n, res in enumerate([own[0], shared, own[1], shared], 1)]
    doc = glyphline.open(b.build())
    cache = doc._reader.resolved_objects

    def cached(ref):
        return (0, ref.num) in cache

    assert [text_of(doc.page(i)) for i in range(3)] == ["page 1", "page 2", "page 3"]
    doc.page(3).width   # page 3 is let go too (the document keeps the page asked for last)
    assert not any(cached(ref) for ref in refs[:3]) and not cached(own[0]) and not cached(own[1])
    assert cached(shared)   # page 4 names it too and is not read yet
    assert text_of(doc.page(3)) == "page 4" and not cached(shared)
    assert text_of(doc.page(0)) == "page 1"   # read again from the file


def test_the_opening_keeps_a_small_record_a_page():
    """A page's record keeps the reference its /Kids entry names it by (its dictionary stays in
    pypdf's cache only until the page is read), its attributes without a dictionary, and its box
    as one tuple of floats shared by the pages with the same box; a /Resources named by one page
    is not counted, and a page without warnings keeps no list."""
    b = PdfBuilder()
    font = mono_font(b)
    shared = b.add({"Font": {"F1": font}})
    own = b.add({"Font": {"F1": font}})
    refs = [b.page(line(b"page %d" % n, 72, 700), extra={"Resources": res, "MediaBox": [0, 0, 612.0, 792]})
            for n, res in enumerate([own, shared, shared], 1)]
    doc = glyphline.open(b.build())
    cache = doc._reader.resolved_objects
    records = doc._records
    assert all(type(record.ref).__name__ == "IndirectObject" for record in records)
    # kept as object numbers (an int each, not a pypdf IndirectObject), given back as references
    assert all(type(record._obj) is int and type(record._resources) is int for record in records)
    assert [record.resources.idnum for record in records] == [own.num, shared.num, shared.num]
    assert not hasattr(records[0], "__dict__")
    assert records[0].media_box == (0.0, 0.0, 612.0, 792.0) and records[0].media_box is records[2].media_box
    assert records[0].attrs["/MediaBox"] == (0.0, 0.0, 612.0, 792.0) and "/CropBox" not in records[0].attrs
    assert list(doc._resource_users.values()) == [2]   # the shared one alone
    assert [text_of(doc.page(i)) for i in range(3)] == ["page 1", "page 2", "page 3"]
    assert doc.page(0).width == 612 and doc._page_warnings == {}
    assert not any((0, ref.num) in cache for ref in refs[:2])   # read and let go
    assert not hasattr(glyphline.extract_text(b.build()).pages[0], "__dict__")   # PageResult: slots


def test_the_page_tree_walk_reads_plain_page_dictionaries_without_pypdf_s_cache(monkeypatch):
    """An 800-page document held every page dictionary in pypdf's cache from the opening to its
    page's turn (~2 KB a page, the traced peak at the first page). A node written plainly (names,
    integers, reals in its boxes, references) is read by the walk straight from the file's bytes
    and not cached: pypdf parses it on its page's turn only, once as before. Records, boxes and
    text are those pypdf's reading gives; a dictionary that is not plain (a direct /Resources, an
    object stream) is read by pypdf as before."""
    from glyphline import document
    from glyphline.document import _walk_page_tree
    from glyphline.limits import Limits

    monkeypatch.setattr(document, "PLAIN_WALK_MIN_PAGES", 4)   # a long document's way, on 4 pages
    b = PdfBuilder()
    font = mono_font(b)
    res = b.add({"Font": {"F1": font}})
    node = b.pages_node(media_box=[0, 0, 595.276, 841.89], rotate=90)
    plain = [b.page(line(b"page %d" % n, 72, 700), media_box=None, parent=node, extra={"Resources": res})
             for n in (1, 2)]
    plain.append(b.page(line(b"page 3", 72, 700), crop_box=[10, 10.5, 600, 780.25], rotate=-90,
                        extra={"Resources": res}))
    direct = b.page(line(b"page 4", 72, 700), fonts={"F1": font})   # its /Resources a direct dictionary
    data = b.build()
    doc = glyphline.open(data)
    cache = doc._reader.resolved_objects
    assert not any((0, ref.num) in cache for ref in plain + [node])
    # nor the root node (its /Count read to choose the walk): it names every page in its /Kids
    assert (0, b.pages_root.num) not in cache
    assert (0, direct.num) in cache
    pypdf_read = glyphline.open(data)
    root = doc._reader.trailer["/Root"]
    expected = _walk_page_tree(root.get("/Pages"), Limits())   # no reader: every node through pypdf
    assert [record.attrs for record in doc._records] == [record.attrs for record in expected]
    assert [type(record.media_box) for record in doc._records] == [tuple] * 4   # the boxes as shared tuples
    assert [(p.width, p.height, p.rotation, p.box) for p in map(doc.page, range(4))] == \
        [(p.width, p.height, p.rotation, p.box) for p in map(pypdf_read.page, range(4))]
    assert [text_of(doc.page(i)) for i in range(4)] == ["page 1", "page 2", "page 3", "page 4"]
    in_stream = glyphline.open(b.build(object_streams=True))
    assert [text_of(in_stream.page(i)) for i in range(4)] == ["page 1", "page 2", "page 3", "page 4"]


def test_the_file_s_bytes_are_held_once():
    """pypdf sizes its stream with getbuffer(), which made the BytesIO over the file's bytes copy
    them: a long file was held twice for the whole extraction. The reader's stream shares them."""
    data = simple_page_pdf(b"Once")
    doc = glyphline.open(data)
    assert text_of(doc.page(0)) == "Once"
    stream = doc._reader.stream
    assert stream.getvalue() is data   # not a copy made by pypdf's reading
    with stream.getbuffer() as view:
        assert view.nbytes == len(data) and view.readonly
    assert stream.getvalue() is data


# ---------------------------------------------------------------- page tree and inheritance

def test_inherited_resources_mediabox_cropbox_rotate_from_pages_nodes():
    b = PdfBuilder()
    font = mono_font(b)
    outer = b.pages_node(media_box=(0, 0, 400, 500), fonts={"F1": font})
    inner = b.pages_node(outer, crop_box=(0, 0, 300, 500), rotate=90)
    b.page(line(b"deep", 10, 20), media_box=None, parent=inner)                     # inherits all four
    b.page(line(b"own", 10, 20), media_box=(0, 0, 200, 200), rotate=0, parent=inner)  # overrides
    doc = glyphline.open(b.build())
    deep, own = doc.page(0), doc.page(1)
    assert (deep.rotation, deep.width, deep.height) == (90, 500, 300)
    assert text_of(deep) == "deep"
    assert (approx(deep.glyphs[0].x), approx(deep.glyphs[0].y)) == (20, 10)
    # own MediaBox [0 0 200 200] ∩ inherited CropBox [0 0 300 500] = [0 0 200 200], Rotate 0
    assert (own.rotation, own.width, own.height) == (0, 200, 200)
    assert text_of(own) == "own"
    assert (approx(own.glyphs[0].x), approx(own.glyphs[0].y)) == (10, 180)


def test_nested_page_tree_keeps_document_order():
    b = PdfBuilder()
    font = mono_font(b)
    left = b.pages_node(fonts={"F1": font})
    b.page(line(b"a", 72, 700), parent=left)
    right = b.pages_node()
    b.page(line(b"b", 72, 700), parent=b.pages_node(right, fonts={"F1": font}))
    b.page(line(b"c", 72, 700), parent=right, fonts={"F1": font})
    doc = glyphline.open(b.build())
    assert [text_of(p) for p in doc.pages] == ["a", "b", "c"]


def test_missing_mediabox_defaults_to_letter():
    page = one_page(line(b"x", 72, 700), media_box=None)
    assert (page.width, page.height) == (612, 792)
    assert approx(page.glyphs[0].y) == 92


def test_visible_box_is_cropbox_intersected_with_mediabox():
    page = one_page(line(b"in", 150, 400), media_box=(0, 0, 612, 792), crop_box=(100, 100, 700, 500))
    assert (page.width, page.height) == (512, 400)          # [100 100 612 500]
    g = page.glyphs[0]
    assert (approx(g.x), approx(g.y)) == (50, 100)


# ---------------------------------------------------------------- coordinates and rotation

# MediaBox [50 60 650 860] (600 × 800, not at the origin); "AB" at user (150, 260), size 10:
# relative to the box the origin is (100, 200); each glyph advances 5 pt.
ROTATIONS = {
    # rotate: (viewer width, height, first origin, second origin, direction)
    0: ((600, 800), (100, 600), (105, 600), (1, 0)),
    90: ((800, 600), (200, 100), (200, 105), (0, 1)),
    180: ((600, 800), (500, 200), (495, 200), (-1, 0)),
    270: ((800, 600), (600, 500), (600, 495), (0, -1)),
}


@pytest.mark.parametrize("rotate", sorted(ROTATIONS))
def test_rotate_maps_glyph_origins_into_viewer_space(rotate):
    size, first, second, direction = ROTATIONS[rotate]
    page = one_page(line(b"AB", 150, 260), media_box=(50, 60, 650, 860), rotate=rotate)
    assert page.rotation == rotate
    assert (page.width, page.height) == size
    a, b = page.glyphs
    assert (a.text, b.text) == ("A", "B")
    assert (approx(a.x), approx(a.y)) == first
    assert (approx(b.x), approx(b.y)) == second
    assert (approx(a.end_x), approx(a.end_y)) == second        # no Tc: the advance ends where B starts
    assert (approx(a.dx), approx(a.dy)) == direction


def test_negative_and_non_normalised_rotate():
    page = one_page(line(b"A", 150, 260), media_box=(50, 60, 650, 860), rotate=-90)
    assert page.rotation == 270
    assert (approx(page.glyphs[0].x), approx(page.glyphs[0].y)) == ROTATIONS[270][1]


def test_glyph_record_geometry_for_a_simple_font():
    # Tc 1 and Tw 2 move the pen but are not part of the font advance (end_x)
    page = one_page(b"BT /F1 10 Tf 1 Tc 2 Tw 100 700 Td (A B) Tj ET")
    a, space, b = page.glyphs
    assert [g.text for g in page.glyphs] == ["A", " ", "B"]
    assert (approx(a.x), approx(a.y), approx(a.end_x), approx(a.advance)) == (100, 92, 105, 6)
    assert (approx(space.x), approx(space.end_x), approx(space.advance)) == (106, 111, 8)
    assert approx(b.x) == 114
    assert (approx(a.size), approx(a.height), approx(a.descent)) == (10, 10, 2)
    assert a.font == "TestMono"
    assert not (a.invisible or a.vertical or a.from_actual_text or a.in_form)


def test_tj_numbers_move_the_pen():
    page = one_page(b"BT /F1 10 Tf 100 700 Td [(A) -1000 (B) 500 (C)] TJ ET")
    assert [approx(g.x) for g in page.glyphs] == [100, 115, 115]


def test_text_matrix_and_ctm_scale_the_effective_size():
    page = one_page(b"q 2 0 0 2 0 0 cm BT /F1 1 Tf 10 0 0 10 50 300 Tm (AB) Tj ET Q")
    a, b = page.glyphs
    assert approx(a.size) == 20
    assert (approx(a.x), approx(a.y), approx(b.x)) == (100, 192, 110)


def test_invisible_render_mode_is_flagged_not_dropped():
    page = one_page(b"BT /F1 10 Tf 3 Tr 100 700 Td (ocr) Tj ET")
    assert text_of(page) == "ocr"
    assert all(g.invisible for g in page.glyphs)


# ---------------------------------------------------------------- visible box

def test_text_outside_the_cropbox_is_dropped_or_kept_on_request():
    content = line(b"IN", 50, 100) + line(b"OUT", 400, 500)
    args = dict(media_box=(0, 0, 612, 792), crop_box=(0, 0, 300, 300))
    assert text_of(one_page(content, **args)) == "IN"
    kept = one_page(content, keep_outside=True, **args)
    assert text_of(kept) == "INOUT"
    out = kept.glyphs[2]
    assert (approx(out.x), approx(out.y)) == (400, -200)       # same viewer space, outside the box


def test_glyph_is_judged_by_its_box_centre():
    # CropBox right edge at x=103: "A" spans 100..105 (centre 102.5, inside), "B" 105..110 (outside)
    page = one_page(line(b"AB", 100, 400), media_box=(0, 0, 612, 792), crop_box=(0, 0, 103, 792))
    assert text_of(page) == "A"


# ---------------------------------------------------------------- content streams

def test_split_contents_is_one_stream():
    # operands in one segment and their operator in the next; no whitespace at segment ends
    segments = [b"BT /F1 10 Tf 100", b"700 Td (Hel) Tj", b"(lo) Tj", b"ET"]
    page = one_page(segments)
    assert text_of(page) == "Hello"
    assert (approx(page.glyphs[0].x), approx(page.glyphs[3].x)) == (100, 115)


def test_compressed_contents_segments():
    page = one_page([line(b"zip", 72, 700), line(b"ped", 72, 680)], compress=True)
    assert text_of(page) == "zipped"


def test_inline_image_with_operator_lookalikes_is_skipped():
    b = PdfBuilder()
    content = line(b"before", 72, 700) + b"q " + inline_image(8, 2) + b" Q " + line(b"after", 72, 680)
    b.page(content, fonts={"F1": mono_font(b)})
    assert text_of(glyphline.open(b.build()).page(0)) == "beforeafter"


def test_malformed_operators_are_skipped_and_text_after_them_survives():
    garbage = b"1 2 3 Tm ] >> } @@ /Nope Do /Missing 9 Tf (lost) Tj 1 0 obj <</A [1 2>> Tx 99 Tr\n"
    page = one_page(line(b"Before", 72, 700) + garbage + line(b"After", 72, 600))
    text = text_of(page)
    assert text.startswith("Before") and text.endswith("After")


# ---------------------------------------------------------------- Form XObjects

def test_form_xobject_matrix_times_ctm_and_inherited_resources():
    b = PdfBuilder()
    form = b.form(line(b"Hi", 10, 20), matrix=(1, 0, 0, 1, 100, 0))    # no /Resources: uses the page's
    b.page(b"q 1 0 0 1 50 50 cm /Fm1 Do Q", fonts={"F1": mono_font(b)}, xobjects={"Fm1": form})
    page = glyphline.open(b.build()).page(0)
    h, i = page.glyphs
    assert (h.text, i.text) == ("H", "i")
    assert (approx(h.x), approx(h.y), approx(i.x)) == (160, 722, 165)   # (10,20) → +100 → +50
    assert h.in_form and i.in_form


def test_nested_forms_with_own_resources_and_scaling():
    b = PdfBuilder()
    font = mono_font(b)
    inner = b.form(line(b"in", 0, 0, font=b"G"), matrix=(2, 0, 0, 2, 0, 0), fonts={"G": font})
    outer = b.form(line(b"out", 0, 0, font=b"G") + b"/Inner Do", matrix=(1, 0, 0, 1, 100, 100),
                   fonts={"G": font}, xobjects={"Inner": inner})
    b.page(b"/Outer Do " + line(b"page", 300, 300, font=b"P"), fonts={"P": font}, xobjects={"Outer": outer})
    page = glyphline.open(b.build()).page(0)
    assert text_of(page) == "outinpage"
    by_text = {g.text: g for g in page.glyphs}
    assert approx(by_text["o"].size) == 10 and approx(by_text["n"].size) == 20
    assert (approx(by_text["i"].x), approx(by_text["i"].y)) == (100, 692)
    assert not by_text["p"].in_form and by_text["i"].in_form


def test_a_forms_bbox_clips_its_glyphs_like_the_page_box():
    # knockout_groups_test: a transparency group's /BBox cuts the last letter of a label
    # ("backdro|p"); viewers draw nothing outside a form's box (ISO 32000-1 §8.10.1), so the
    # glyphs whose box centre lies outside it (beyond CLIP_MARGIN_EM) are not on the page
    b = PdfBuilder()
    font = mono_font(b)
    # box 0..100 × 0..100, shown at (200, 300) scaled 2: "backdrop" at x 62, 5 pt per glyph:
    # its "p" spans 97..102 (centre 99.5, inside), "cut" starts at 110 (outside), "low" sits
    # under the box
    content = line(b"backdrop", 62, 50) + line(b"cut", 110, 50) + line(b"low", 10, -30)
    form = b.form(content, bbox=(0, 0, 100, 100), matrix=(2, 0, 0, 2, 200, 300), fonts={"F1": font})
    b.page(b"/Fm Do " + line(b"page", 72, 700), fonts={"F1": font}, xobjects={"Fm": form})
    data = b.build()
    assert text_of(glyphline.open(data).page(0)) == "backdroppage"
    # a letter whose centre is past the edge by more than the margin (1 pt at 10 pt) is cut:
    # "p" spans 99..104, centre 1.5 pt out; with keep_outside it stays
    b = PdfBuilder()
    font = mono_font(b)
    form = b.form(line(b"backdrop", 64, 50), bbox=(0, 0, 100, 100), fonts={"F1": font})
    b.page(b"q 1 0 0 1 100 100 cm /Fm Do Q " + line(b"page", 72, 700), fonts={"F1": font},
           xobjects={"Fm": form})
    data = b.build()
    assert text_of(glyphline.open(data).page(0)) == "backdropage"
    assert text_of(glyphline.open(data, keep_outside=True).page(0)) == "backdroppage"
    # the clip ends with the form: text after it on the page is not cut
    b = PdfBuilder()
    font = mono_font(b)
    form = b.form(line(b"in", 10, 10), bbox=(0, 0, 50, 50), fonts={"F1": font})
    b.page(b"/Fm Do " + line(b"after", 300, 300), fonts={"F1": font}, xobjects={"Fm": form})
    assert text_of(glyphline.open(b.build()).page(0)) == "inafter"


def test_a_flat_or_missing_form_bbox_clips_nothing():
    b = PdfBuilder()
    font = mono_font(b)
    flat = b.form(line(b"flat", 10, 10), bbox=(0, 0, 0, 50), fonts={"F1": font})
    b.page(b"/Fm Do", fonts={"F1": font}, xobjects={"Fm": flat})
    assert text_of(glyphline.open(b.build()).page(0)) == "flat"


def test_form_that_draws_itself_is_cut_as_a_cycle():
    b = PdfBuilder()
    font = mono_font(b)
    form = b.reserve()
    b.form(line(b"Loop", 72, 700) + b"/Self Do", fonts={"F1": font}, xobjects={"Self": form}, into=form)
    b.page(b"/Self Do " + line(b"End", 72, 600), fonts={"F1": font}, xobjects={"Self": form})
    page = glyphline.open(b.build()).page(0)
    assert text_of(page) == "LoopEnd"


def test_form_nesting_stops_at_the_depth_limit():
    b = PdfBuilder()
    font = mono_font(b)
    form = b.form(line(b"x", 72, 700), fonts={"F1": font})
    for _ in range(30):
        form = b.form(line(b"x", 72, 700) + b"/Fm Do", fonts={"F1": font}, xobjects={"Fm": form})
    b.page(b"/Fm Do " + line(b"End", 72, 600), fonts={"F1": font}, xobjects={"Fm": form})
    page = glyphline.open(b.build(), limits=Limits(form_depth=5)).page(0)
    text = text_of(page)
    assert text.endswith("End")
    assert 1 <= text.count("x") <= 6


# ---------------------------------------------------------------- a few decoding paths end to end

def test_type0_identity_h_with_bfrange_array_and_surrogates():
    b = PdfBuilder()
    mapping = {1: "A", 2: "B", 3: "C", 0x10: "ﬁ", 0x11: "fl", 0x200: "\U0001D400", 0x201: "é"}
    font = b.font_type0(mapping, style="array", w=[1, [600, 700]], dw=1000)
    b.page(b"BT /F0 10 Tf 100 700 Td <0001000200030011 02000201> Tj ET", fonts={"F0": font})
    page = glyphline.open(b.build()).page(0)
    assert [g.text for g in page.glyphs] == ["A", "B", "C", "fl", "\U0001D400", "é"]
    assert [approx(g.x) for g in page.glyphs[:4]] == [100, 106, 113, 123]   # /W [1 [600 700]], /DW 1000


def test_type0_identity_v_advances_down():
    b = PdfBuilder()
    font = b.font_type0({1: "縦", 2: "書"}, vertical=True, style="bfrange")
    b.page(b"BT /F0 10 Tf 300 700 Td <00010002> Tj ET", fonts={"F0": font})
    a, c = glyphline.open(b.build()).page(0).glyphs
    assert (a.text, c.text) == ("縦", "書")
    assert a.vertical and c.vertical
    assert approx(c.x) == a.x and approx(c.y - a.y) == 10     # DW2 default: w1 = -1000


def test_type0_vertical_advance_from_w2():
    b = PdfBuilder()
    font = b.font_type0({1: "縦", 2: "書", 3: "き"}, vertical=True, w2=[1, [-500, 250, 880]], dw2=(880, -1200))
    b.page(b"BT /F0 10 Tf 300 700 Td <000100020003> Tj ET", fonts={"F0": font})
    first, second, third = glyphline.open(b.build()).page(0).glyphs
    assert approx(second.y - first.y) == 5       # /W2: CID 1 advances 500/1000 em down
    assert approx(third.y - second.y) == 12      # /DW2 w1 = -1200 for the others


def test_standard14_widths_without_widths_array():
    page = glyphline.open(simple_page_pdf(b"Hello", size=12, at=(72, 700))).page(0)
    # Helvetica: H 722, e 556, l 222, o 556 (1/1000 em) at 12 pt
    assert [approx(g.x) for g in page.glyphs] == [72, 80.664, 87.336, 90.0, 92.664]
    assert page.glyphs[0].font == "Helvetica"


def test_type3_font_uses_its_font_matrix_and_glyph_names():
    b = PdfBuilder()
    font = b.font_type3({65: "A", 66: "B"}, font_matrix=(0.01, 0, 0, 0.01, 0, 0), width=50)
    b.page(b"BT /T3 10 Tf 100 700 Td (AB) Tj ET", fonts={"T3": font})
    a, c = glyphline.open(b.build()).page(0).glyphs
    assert (a.text, c.text) == ("A", "B")
    assert (approx(a.x), approx(c.x), approx(a.end_x)) == (100, 105, 105)   # 50 × 0.01 × 10


def test_differences_and_actual_text():
    b = PdfBuilder()
    font = b.font_truetype("TestDiff", widths=[500] * 95,
                           encoding={"Type": "/Encoding", "BaseEncoding": "/WinAnsiEncoding",
                                     "Differences": [65, "/germandbls", "/uni0416", "/f_i"]})
    content = b"BT /F1 10 Tf 100 700 Td (ABC) Tj " + actual_text("Wort", b"(DEF) Tj") + b" ET"
    b.page(content, fonts={"F1": font})
    page = glyphline.open(b.build()).page(0)
    assert text_of(page) == "ßЖfiWort"
    assert page.glyphs[-1].from_actual_text


# ---------------------------------------------------------------- encryption

@pytest.mark.parametrize("algorithm", ENCRYPTIONS)
def test_encrypted_with_empty_user_password_opens(algorithm):
    data = encrypt(simple_page_pdf(b"Secret"), algorithm, user_password="")
    assert text_of(glyphline.open(data).page(0)) == "Secret"


@pytest.mark.parametrize("algorithm", ENCRYPTIONS)
def test_encrypted_with_user_password(algorithm):
    data = encrypt(simple_page_pdf(b"Secret"), algorithm, user_password="open-sesame", owner_password="owner-pw")
    with pytest.raises(PasswordRequired):
        glyphline.open(data)
    with pytest.raises(PasswordRequired):
        glyphline.open(data, password="wrong")
    assert text_of(glyphline.open(data, password="open-sesame").page(0)) == "Secret"
    assert text_of(glyphline.open(data, password="owner-pw").page(0)) == "Secret"


# ---------------------------------------------------------------- hostile and damaged files

def test_page_tree_cycle_is_rejected_upfront():
    b = PdfBuilder()
    node = b.pages_node()
    b.page(line(b"x", 72, 700), parent=node, fonts={"F1": mono_font(b)})
    b.add_kid(node, b.pages_root)          # the child /Pages node lists the root as a kid
    with pytest.raises(DamagedPDF) as info:
        glyphline.open(b.build())
    assert "cycle" in str(info.value).lower()


def test_page_tree_node_listing_itself_is_a_cycle():
    b = PdfBuilder()
    node = b.pages_node()
    b.page(b"", parent=node)
    b.add_kid(node, node)
    with pytest.raises(DamagedPDF) as info:
        glyphline.open(b.build())
    assert "cycle" in info.value.reason.lower()


@pytest.mark.parametrize("depth", [200, 3000])
def test_absurdly_deep_page_tree_is_rejected_upfront(depth):
    b = PdfBuilder()
    b.deep_chain(depth, line(b"bottom", 72, 700), fonts={"F1": mono_font(b)})
    with pytest.raises(DamagedPDF) as info:
        glyphline.open(b.build())
    assert "deep" in str(info.value).lower() or "depth" in str(info.value).lower()


def test_moderately_deep_page_tree_is_fine():
    b = PdfBuilder()
    b.deep_chain(20, line(b"bottom", 72, 700), fonts={"F1": mono_font(b)})
    assert text_of(glyphline.open(b.build()).page(0)) == "bottom"


@pytest.mark.parametrize("data", [b"", b"   \n", b"Hello, world\n", b"\x89PNG\r\n\x1a\n" + bytes(200),
                                  b"PK\x03\x04" + bytes(100), b"<html><body>%PDF</body></html>"],
                         ids=["empty", "whitespace", "text", "png", "zip", "html"])
def test_not_a_pdf(data):
    with pytest.raises(NotAPDF):
        glyphline.open(data)


def _three_page_doc() -> bytes:
    b = PdfBuilder()
    font = mono_font(b)
    for word in (b"alpha", b"beta", b"gamma"):
        b.page(line(word, 72, 700), fonts={"F1": font})
    return b.build()


@pytest.mark.parametrize("fraction", [0.05, 0.3, 0.6, 0.9, 0.99])
def test_truncated_file_gives_glyphs_or_damaged(fraction):
    data = _three_page_doc()
    cut = data[: int(len(data) * fraction)]
    try:
        doc = glyphline.open(cut)
        texts = [text_of(p) for p in doc.pages]
    except (DamagedPDF, NotAPDF):
        return
    assert set(texts) <= {"alpha", "beta", "gamma", ""}


def _shift_xref_offsets(data: bytes) -> bytes:
    head, table = data[: data.index(b"xref")], data[data.index(b"xref"):]
    return head + re.sub(rb"(\d{10}) 00000 n", lambda m: b"%010d 00000 n" % (int(m.group(1)) + 7), table)


@pytest.mark.parametrize("damage", [
    _shift_xref_offsets,                                                   # every xref entry wrong
    lambda data: re.sub(rb"startxref\n\d+", b"startxref\n999999", data),    # startxref points nowhere
], ids=["xref-offsets", "startxref"])
def test_damaged_xref_is_repaired(damage):
    doc = glyphline.open(damage(_three_page_doc()))
    assert [text_of(p) for p in doc.pages] == ["alpha", "beta", "gamma"]


def test_object_streams_and_xref_stream():
    b = PdfBuilder()
    font = mono_font(b)
    b.page(line(b"packed", 72, 700), fonts={"F1": font})
    b.page(line(b"objects", 72, 700), fonts={"F1": font})
    doc = glyphline.open(b.build(object_streams=True, info={"Title": "ObjStm"}))
    assert [text_of(p) for p in doc.pages] == ["packed", "objects"]
    assert doc.metadata["Title"] == "ObjStm"


# ---------------------------------------------------------------- budgets

BOMB_SIZE = 256 * MiB


@pytest.fixture(scope="module")
def bomb_pdf() -> bytes:
    """Page 1: a Flate stream inflating to 256 MiB of spaces after one line of text; page 2: plain text."""
    b = PdfBuilder()
    font = mono_font(b)
    bomb = b.add(Stream(flate_bomb(BOMB_SIZE), {"Filter": "/FlateDecode"}))
    first = b.page(b"", fonts={"F1": font})
    b.objects[first.num]["Contents"] = [b.stream(line(b"ok", 72, 700)), bomb]
    b.page(line(b"next", 72, 700), fonts={"F1": font})
    data = b.build()
    assert len(data) < BOMB_SIZE // 100
    return data


def _peak_while(fn) -> tuple[object, int]:
    tracemalloc.start()
    try:
        result = fn()
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_decompression_bomb_stops_at_the_stream_budget_without_allocating(bomb_pdf):
    limits = Limits(stream_bytes=1 * MiB)

    def read():
        doc = glyphline.open(bomb_pdf, limits=limits)
        return [(text_of(p), list(p.warnings)) for p in doc.pages]

    pages, peak = _peak_while(read)
    (first_text, first_warnings), (second_text, _) = pages
    assert first_warnings, "the bomb page must carry a warning"
    assert second_text == "next"
    assert peak < 32 * MiB, f"peak {peak / MiB:.1f} MiB for a {BOMB_SIZE // MiB} MiB bomb"


def test_decompression_bomb_with_a_small_document_budget(bomb_pdf):
    limits = Limits(document_bytes=1 * MiB)

    def read():
        doc = glyphline.open(bomb_pdf, limits=limits)
        try:
            return [(text_of(p), list(p.warnings)) for p in doc.pages]
        except BudgetExceeded as exc:
            return exc

    outcome, peak = _peak_while(read)
    if isinstance(outcome, BudgetExceeded):
        assert outcome.limit == "document_bytes"
    else:
        assert outcome[0][1], "the bomb page must carry a warning"
    assert peak < 32 * MiB, f"peak {peak / MiB:.1f} MiB for a {BOMB_SIZE // MiB} MiB bomb"


def test_operator_budget_keeps_earlier_glyphs_and_warns():
    b = PdfBuilder()
    font = mono_font(b)
    b.page(b"BT /F1 10 Tf 72 700 Td " + b"(A) Tj " * 1000 + b"ET", fonts={"F1": font})
    b.page(line(b"next", 72, 700), fonts={"F1": font})
    doc = glyphline.open(b.build(), limits=Limits(operators_per_page=100))
    first = doc.page(0)
    assert 50 <= len(first.glyphs) <= 100
    assert set(text_of(first)) == {"A"}
    assert first.warnings
    assert text_of(doc.page(1)) == "next" and not doc.page(1).warnings


def test_glyph_budget_keeps_earlier_glyphs_and_warns():
    page = one_page(b"BT /F1 10 Tf 72 700 Td " + b"(B) Tj " * 200 + b"ET", limits=Limits(glyphs_per_page=50))
    assert 40 <= len(page.glyphs) <= 50
    assert page.warnings


def test_time_budget_ends_a_page_with_a_warning():
    page = one_page(b"BT /F1 10 Tf 72 700 Td " + b"(C) Tj " * 20000 + b"ET", limits=Limits(seconds_per_page=0.0))
    assert len(page.glyphs) < 20000
    assert page.warnings


def test_undecodable_content_stream_does_not_stop_the_next_page():
    b = PdfBuilder()
    font = mono_font(b)
    b.page(line(b"first", 72, 700), fonts={"F1": font})
    broken = b.add(Stream(b"\x00not zlib at all" * 10, {"Filter": "/FlateDecode"}))
    middle = b.page(b"", fonts={"F1": font})
    b.objects[middle.num]["Contents"] = [b.stream(line(b"kept", 72, 700)), broken]
    b.page(line(b"third", 72, 700), fonts={"F1": font})
    doc = glyphline.open(b.build())
    assert [text_of(p) for p in doc.pages] == ["first", "kept", "third"]
    assert doc.page(1).warnings and not doc.page(2).warnings


def test_page_without_contents_or_resources_is_empty_not_an_error():
    b = PdfBuilder()
    ref = b.page(b"")
    del b.objects[ref.num]["Contents"]
    page = glyphline.open(b.build()).page(0)
    assert page.glyphs == []


def test_bundled_sample_pdf(sample_pdf):
    doc = glyphline.open(sample_pdf)
    assert doc.page_count == 2
    first = text_of(doc.page(0))
    assert first.startswith("How a page becomes text")
    assert "recon-" in first and "structed" in first
    assert text_of(doc.page(1)).startswith("A second page")


def test_image_coverage_counts_xobject_and_inline_images():
    b = PdfBuilder()
    image = b.stream(bytes(64), {"Type": "/XObject", "Subtype": "/Image", "Width": 8, "Height": 8,
                                 "ColorSpace": "/DeviceGray", "BitsPerComponent": 8})
    b.page(b"q 306 0 0 396 0 0 cm /Im1 Do Q", xobjects={"Im1": image})          # a quarter of Letter
    b.page(b"q 612 0 0 396 0 0 cm BI /W 2 /H 2 /CS /G /BPC 8 ID \x00\x01\x02\x03 EI Q")  # a half, inline
    b.page(b"0 0 m 612 792 l S")                                                  # no image at all
    doc = glyphline.open(b.build())
    assert [round(p.image_coverage, 3) for p in doc.pages] == [0.25, 0.5, 0.0]


def test_interpreting_a_page_raises_the_gc_threshold_and_restores_it(monkeypatch):
    import gc

    from glyphline import document
    from glyphline.content import interpreter

    seen = []
    real_interpret = interpreter.interpret

    def spying_interpret(*args, **kwargs):
        seen.append(gc.get_threshold())
        return real_interpret(*args, **kwargs)

    monkeypatch.setattr(interpreter, "interpret", spying_interpret)
    old = gc.get_threshold()
    try:
        gc.set_threshold(700, 10, 10)
        page = one_page(line(b"Hello", 72, 700))
        assert text_of(page) == "Hello"
        # young collections are rarer while glyphs are made, full ones deferred
        assert seen == [(document.GC_GEN0_THRESHOLD, 10, document.GC_FULL_THRESHOLD)]
        assert gc.get_threshold() == (700, 10, 10)       # and the caller's setting is back afterwards
        gc.set_threshold(0, 10, 10)                       # automatic collection off stays off
        assert text_of(one_page(line(b"Hi", 72, 700))) == "Hi"
        assert seen[-1] == (0, 10, 10) and gc.get_threshold() == (0, 10, 10)
    finally:
        gc.set_threshold(*old)


def test_a_page_and_its_glyphs_leave_no_cyclic_garbage():
    import gc

    b = PdfBuilder()
    b.page(line(b"Hello world", 72, 700), fonts={"F1": mono_font(b)})
    doc = glyphline.open(b.build())
    gc.collect()
    was_enabled = gc.isenabled()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        page = doc.page(0)
        assert len(page.glyphs) == 11
        del page
        gc.collect()
        # refcounting alone freed the interpreter and the glyph list: no full pass needed for them
        leftovers = {type(o).__name__ for o in gc.garbage}
        assert not leftovers & {"_Interpreter", "Glyph", "PageEnv", "PageBudget"}, leftovers
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if was_enabled:
            gc.enable()


def test_repair_warnings_carry_no_memory_addresses_so_outputs_are_reproducible():
    import logging

    from glyphline.document import _WarningCollector

    sink: list[str] = []
    record = logging.LogRecord("pypdf", logging.WARNING, __file__, 1,
                               "Expecting a NameObject for key but found IndirectObject(27, 0, 140663607063376)", None, None)
    _WarningCollector(sink, 10).emit(record)
    assert sink == ["repaired: Expecting a NameObject for key but found IndirectObject(27, 0)"]


def test_pdf_booleans_are_read_by_value_not_by_object_truth():
    # pypdf's BooleanObject(False) is truthy as an object; flag() reads its value
    from pypdf.generic import BooleanObject, DictionaryObject, NameObject, NullObject

    from glyphline.pdfobjects import flag

    d = DictionaryObject({NameObject("/On"): BooleanObject(True), NameObject("/Off"): BooleanObject(False),
                          NameObject("/Null"): NullObject(), NameObject("/Name"): NameObject("/true")})
    assert flag(d, "/On") and flag({"/Plain": True}, "/Plain")
    assert not any(flag(d, key) for key in ("/Off", "/Null", "/Name", "/Missing"))
    assert not flag(None, "/On") and not flag({"/Plain": False}, "/Plain")


def test_a_page_does_not_keep_its_content_stream():
    """pypdf caches every object it reads, a stream with its raw and decoded bytes; a long
    document would keep every page's content. Once read, the stream leaves the cache, and read
    again it comes from the file and reads the same."""
    import zlib

    b = PdfBuilder()
    font = mono_font(b)
    ref = b.page(b"", fonts={"F1": font})
    contents_ref = b.add(Stream(zlib.compress(line(b"squeezed", 72, 700)), {"Filter": "/FlateDecode"}))
    b.objects[ref.num]["Contents"] = contents_ref
    doc = glyphline.open(b.build())
    assert text_of(doc.page(0)) == "squeezed"
    assert (0, contents_ref.num) not in doc._reader.resolved_objects
    assert doc._reader.pages[0]["/Contents"].get_object().get_data() == line(b"squeezed", 72, 700)


def test_a_content_stream_shared_by_pages_is_charged_to_the_byte_budget_once():
    # forgotten after the first page and read again for the second: still one stream
    b = PdfBuilder()
    font = mono_font(b)
    shared = b.add(Stream(line(b"twice", 72, 700)))
    for _ in range(2):
        page = b.page(b"", fonts={"F1": font})
        b.objects[page.num]["Contents"] = shared
    doc = glyphline.open(b.build())
    assert [text_of(doc.page(i)) for i in range(2)] == ["twice", "twice"]
    assert doc._budget.bytes_used == len(line(b"twice", 72, 700))


def test_a_root_page_node_pypdf_reads_is_not_left_in_its_cache(monkeypatch):
    """A root /Pages node the walk cannot read plainly (an 800-page one's /Kids is longer than
    the plain reader reads; here a string in it) is read by pypdf, which kept it cached to the
    end with a reference for every page (~120 B a page): the walk lets it go."""
    from glyphline import document

    monkeypatch.setattr(document, "PLAIN_WALK_MIN_PAGES", 4)
    b = PdfBuilder()
    font = mono_font(b)
    for n in range(4):
        b.page(line(b"page %d" % n, 72, 700), fonts={"F1": font})
    b.nodes[b.pages_root.num]["attrs"]["Comment"] = b"not plain"
    doc = glyphline.open(b.build())
    assert (0, b.pages_root.num) not in doc._reader.resolved_objects
    assert [text_of(doc.page(i)) for i in range(4)] == ["page 0", "page 1", "page 2", "page 3"]


def test_a_long_cross_reference_table_is_kept_as_an_array_of_offsets(monkeypatch):
    """pypdf's cross-reference dict kept an int key, an int offset and a slot for every object of
    a long document to its end (~290 B a page); past COMPACT_XREF_MIN_OBJECTS it is an array of
    offsets by object number that pypdf reads, and repairs, as its dict."""
    from glyphline import document
    from glyphline.document import _Offsets

    b = PdfBuilder()
    font = mono_font(b)
    for n in range(4):
        b.page(line(b"page %d" % n, 72, 700), fonts={"F1": font})
    data = b.build()
    expected = glyphline.open(data)
    entries = dict(expected._reader.xref[0])
    assert type(expected._reader.xref[0]) is dict   # a short table stays pypdf's dict
    monkeypatch.setattr(document, "COMPACT_XREF_MIN_OBJECTS", 4)
    doc = glyphline.open(data)
    offsets = doc._reader.xref[0]
    assert type(offsets) is _Offsets and dict(offsets) == entries and len(offsets) == len(entries)
    assert [text_of(doc.page(i)) for i in range(4)] == [text_of(expected.page(i)) for i in range(4)]
    first = min(entries)
    assert first in offsets and offsets.get(first) == entries[first] and 0 not in offsets and "1" not in offsets
    assert offsets.get(10**6) is None and offsets.get(-1, "none") == "none"
    with pytest.raises(KeyError):
        offsets[10**6]
    offsets[first] = 7   # pypdf's repair of a reference that does not start where the table says
    assert offsets[first] == 7 and len(offsets) == len(entries)
    del offsets[first]
    assert first not in offsets and len(offsets) == len(entries) - 1 and list(offsets) == sorted(entries)[1:]
    offsets[10**6] = 5   # pypdf's repair of an object the table lacks, past the array's end: kept as a dict would
    assert offsets[10**6] == 5 and 10**6 in offsets and len(offsets) == len(entries) and list(offsets)[-1] == 10**6
    offsets[sorted(entries)[1]] = "odd"   # a value the array cannot hold moves to the dict beside it
    assert offsets[sorted(entries)[1]] == "odd" and len(offsets) == len(entries)
    del offsets[10**6]
    assert 10**6 not in offsets and len(offsets) == len(entries) - 1
    assert _Offsets.of({1: 10, 2: -5}) is None and _Offsets.of({1: 10, 1000: 20}) is None   # odd or sparse: a dict


def test_a_long_table_of_objects_in_object_streams_is_kept_as_arrays(monkeypatch):
    """pypdf's table of the objects held in object streams (xref_objStm: number -> (stream,
    index)) kept a key, a tuple and a slot an object; past COMPACT_XREF_MIN_OBJECTS it is two
    arrays by object number, read as pypdf's dict."""
    from glyphline import document
    from glyphline.document import _StreamPlaces

    b = PdfBuilder()
    font = mono_font(b)
    for n in range(4):
        b.page(line(b"page %d" % n, 72, 700), fonts={"F1": font})
    data = b.build(object_streams=True)
    expected = glyphline.open(data)
    entries = dict(expected._reader.xref_objStm)
    assert len(entries) >= 4 and type(expected._reader.xref_objStm) is dict
    monkeypatch.setattr(document, "COMPACT_XREF_MIN_OBJECTS", 4)
    doc = glyphline.open(data)
    places = doc._reader.xref_objStm
    assert type(places) is _StreamPlaces and dict(places) == entries and len(places) == len(entries)
    assert [text_of(doc.page(i)) for i in range(4)] == [text_of(expected.page(i)) for i in range(4)]
    number = min(entries)
    assert places[number] == entries[number] and places.get(10**6, (None, None)) == (None, None)
    assert 10**6 not in places and -1 not in places and max(places) == max(entries)
    places[number] = (1, 2)
    assert places[number] == (1, 2)
    del places[number]
    assert number not in places and len(places) == len(entries) - 1
    places[number] = (1, -2)   # what the arrays cannot hold is kept beside them, read back the same
    places[10**6] = (3, 4)
    assert places[number] == (1, -2) and places.get(10**6) == (3, 4) and len(places) == len(entries) + 1
    del places[10**6]
    assert 10**6 not in places and len(places) == len(entries)
    assert _StreamPlaces.of({1: (2, 3), 2: (2,)}) is None and _StreamPlaces.of({1: (2, 0), 99: (2, 1)}) is None


def test_the_charged_streams_are_bits_and_the_cross_reference_keeps_only_free_entries():
    """An 800-page document kept, to its end, a key in a set for every content stream charged
    (a tuple of two numbers and a slot, ~90 B a page) and pypdf's "is it free" answer for every
    object of its cross-reference table, in two dictionaries (~180 B a page). The streams are now
    bits by object number, and only the free entries (the only answer ever read) are kept."""
    b = PdfBuilder()
    font = mono_font(b)
    for n in range(3):
        b.page(line(b"page %d" % n, 72, 700), fonts={"F1": font})
    doc = glyphline.open(b.build())
    free = doc._reader.xref_free_entry
    assert free and all(all(flag is True for flag in entries.values()) for entries in free.values())
    assert free[65535].get(0) is True   # object 0 heads the free list
    assert [text_of(doc.page(i)) for i in range(3)] == ["page 0", "page 1", "page 2"]
    charged = doc._charged
    assert not charged.others and charged.bits
    assert all((ref.idnum, 0) in charged for ref in (doc._records[i].obj.raw_get("/Contents") for i in range(3)))
    assert (10**7, 0) not in charged and (5, 1) not in charged
    charged.add((5, 1))
    charged.add((10**7, 0))
    assert (5, 1) in charged and (10**7, 0) in charged and len(charged.others) == 2


def test_an_update_reusing_the_number_of_an_older_cross_reference_stream_is_read():
    # pdfjs issue15096: an incremental update gives the number of the previous cross-reference
    # stream to a new object (there a form field's appearance); the newest section locates it
    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    page = b.page(b"BT /F1 12 Tf 72 700 Td (Original) Tj ET", fonts={"F1": font})
    data = b.build(object_streams=True)
    old_xref = int(re.findall(rb"startxref\s+(\d+)", data)[-1])
    reused = int(re.match(rb"(\d+) 0 obj", data[old_xref:]).group(1))
    root = int(re.search(rb"/Root (\d+) 0 R", data[old_xref:]).group(1))
    content = b"BT /F1 12 Tf 72 700 Td (Updated) Tj ET"
    update = bytearray(data)
    offsets = {}
    offsets[reused] = len(update)
    update += b"%d 0 obj\n<< /Length %d >>\nstream\n%s\nendstream\nendobj\n" % (reused, len(content), content)
    offsets[page.num] = len(update)
    update += (b"%d 0 obj\n<< /Type /Page /Parent %d 0 R /MediaBox [0 0 612 792] /Contents %d 0 R "
               b"/Resources << /Font << /F1 %d 0 R >> >> >>\nendobj\n"
               % (page.num, b.pages_root.num, reused, font.num))
    xref = len(update)
    update += b"xref\n"
    for num in sorted(offsets):
        update += b"%d 1\n%010d 00000 n \n" % (num, offsets[num])
    update += (b"trailer\n<< /Size %d /Root %d 0 R /Prev %d >>\nstartxref\n%d\n%%%%EOF\n"
               % (reused + 1, root, old_xref, xref))
    assert text_of(glyphline.open(bytes(update)).page(0)) == "Updated"


# ---------------------------------------------------------------- a file read through, not held

def test_a_file_is_read_through_its_stream_with_the_same_text(tmp_path):
    """open() given a seekable binary file reads it through (pypdf reads the objects it needs):
    the same pages and text as its bytes, and the reader's stream is the file itself."""
    data = simple_page_pdf(b"Streamed")
    path = tmp_path / "doc.pdf"
    path.write_bytes(data)
    with path.open("rb") as file:
        doc = glyphline.open(file)
        assert doc._reader.stream is file
        assert text_of(doc.page(0)) == "Streamed" == text_of(glyphline.open(data).page(0))
    with pytest.raises(TypeError):
        glyphline.open(io.StringIO("%PDF-1.4"))


def test_a_file_s_empty_and_not_a_pdf_checks_read_it_in_pieces(tmp_path, monkeypatch):
    """The checks _looks_like_pdf makes on the bytes, made on a file in bounded pieces: a blank
    head before text, and a headless file whose 'endobj' straddles two pieces."""
    from glyphline import document

    monkeypatch.setattr(document, "FILE_SCAN_BYTES", 7)
    cases = [(b"", "empty"), (b" \n" * 40000, "empty"), (b" " * 70000 + b"1 0 obj endobj", "not a PDF"),
             (b"hello", "not a PDF"), (b"1 0 obj << >>" + b"x" * 70000, "not a PDF")]
    for content, reason in cases:
        with pytest.raises(NotAPDF, match=reason):
            glyphline.open(content)
        with pytest.raises(NotAPDF, match=reason):
            glyphline.open(io.BytesIO(content))
    headless = simple_page_pdf(b"Headless").replace(b"%PDF-", b"%XXX-")
    for content in (headless, b"1 0 obj <<>>" + b"x" * 70000 + b"endobj"):
        document._check_file(io.BytesIO(content))   # passes the check like its bytes
        assert document._looks_like_pdf(content)


def test_a_file_that_shrinks_under_the_reader_gives_a_clear_error(tmp_path):
    data = simple_page_pdf(b"Shrinks")
    path = tmp_path / "doc.pdf"
    path.write_bytes(data)
    with path.open("rb") as file:
        path.write_bytes(data[: len(data) // 3])
        with pytest.raises(DamagedPDF):
            glyphline.open(file)


def test_extract_text_given_a_path_reads_the_file_through(tmp_path):
    from glyphline.extract import extract_text

    data = simple_page_pdf(b"By path")
    path = tmp_path / "doc.pdf"
    path.write_bytes(data)
    assert extract_text(path).text == extract_text(str(path)).text == extract_text(data).text
    with path.open("rb") as file:
        assert extract_text(file).text == extract_text(data).text
