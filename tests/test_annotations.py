"""Annotations as a glyph source: form-field values, FreeText, stamps drawn from their appearance
streams (ISO 32000-1 §12.5.5), values without an appearance, what is skipped, what a broken
annotation costs, and the option that turns it all off."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from pdfbuilder import PdfBuilder, Raw, Ref

import glyphline
from glyphline.extract import extract_text
from glyphline.glyph import ANNOTATION, IN_FORM
from glyphline.limits import Limits

REPO = Path(__file__).resolve().parent.parent
PAGE_TEXT = b"BT /F1 12 Tf 72 700 Td (Name:) Tj ET"


def _document(*annotations, page_text: bytes = PAGE_TEXT, catalog=None, rotate=None) -> bytes:
    """One page with `page_text` and the annotations made by the given callables (builder, font → Ref);
    `catalog` is a dict of catalog entries or a callable making one from the annotations' refs."""
    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    refs = [make(b, font) for make in annotations]
    b.page(page_text, fonts={"F1": font}, rotate=rotate, extra={"Annots": refs} if refs else None)
    return b.build(catalog=catalog(refs) if callable(catalog) else catalog)


def _widget(value: bytes = b"Alice", rect=(150, 690, 350, 710), **entries):
    def make(b, font):
        content = b"/Tx BMC BT /F1 12 Tf 2 5 Td (" + value + b") Tj ET EMC"
        return b.annotation("/Widget", rect, appearance=content, fonts={"F1": font},
                            FT="/Tx", T="name", **entries)
    return make


def _glyphs(data: bytes, **options) -> list:
    return glyphline.open(data, **options).page(0).glyphs


def _text(glyphs, flag=None) -> str:
    return "".join(g.text for g in glyphs if flag is None or g.flags & flag)


# ----------------------------------------------------------------------------- appearance streams

def test_a_filled_text_field_is_read_from_its_appearance_and_flagged():
    data = _document(_widget())
    glyphs = _glyphs(data)
    assert _text(glyphs, ANNOTATION) == "Alice"
    assert all(g.flags & IN_FORM for g in glyphs if g.flags & ANNOTATION)     # an appearance is a form
    assert "".join(g.text for g in glyphs if not g.flags & ANNOTATION) == "Name:"
    first = next(g for g in glyphs if g.text == "A")
    # form origin at the Rect's lower left (BBox = Rect size), text at 2 5: viewer y = 792 - 695
    assert first.x == pytest.approx(152) and first.y == pytest.approx(97)
    assert extract_text(data).text.strip() == "Name: Alice"


def test_json_words_say_they_come_from_an_annotation():
    data = _document(_widget())
    page = json.loads(extract_text(data, mode="json").text)["pages"][0]
    words = {w["text"]: w["flags"] for b in page["blocks"] for line in b["lines"] for w in line["words"]}
    assert "annotation" in words["Alice"]
    assert "annotation" not in words["Name:"]


def test_a_checkbox_shows_the_state_its_as_names():
    def checkbox(state):
        def make(b, font):
            entries = {"AS": state} if state else {}
            return b.annotation("/Widget", (150, 600, 170, 620), fonts={"F1": font}, FT="/Btn", **entries,
                                appearance={"Yes": b"BT /F1 12 Tf 2 4 Td (YES) Tj ET",
                                            "Off": b"BT /F1 12 Tf 2 4 Td (OFF) Tj ET"})
        return make

    assert _text(_glyphs(_document(checkbox("/Yes"))), ANNOTATION) == "YES"
    assert _text(_glyphs(_document(checkbox("/Off"))), ANNOTATION) == "OFF"
    assert _text(_glyphs(_document(checkbox(None))), ANNOTATION) == ""          # no /AS: no state is shown
    assert _text(_glyphs(_document(checkbox("/Maybe"))), ANNOTATION) == ""      # a state it has no appearance for


def test_a_freetext_annotation_is_read_from_its_appearance():
    def freetext(b, font):
        return b.annotation("/FreeText", (300, 500, 500, 530), fonts={"F1": font}, Contents="ignored here",
                            appearance=b"BT /F1 10 Tf 4 10 Td (Reviewed by Carol) Tj ET")
    assert extract_text(_document(freetext)).text.split("\n\n")[-1].strip() == "Reviewed by Carol"


def test_the_form_matrix_rotates_and_the_bbox_is_fitted_to_the_rect():
    def rotated(b, font):
        # BBox 100×20 turned 90° counter-clockwise becomes [-20 0 0 100], fitted to a 20×100 Rect
        return b.annotation("/Stamp", (300, 400, 320, 500), bbox=(0, 0, 100, 20), matrix=(0, 1, -1, 0, 0, 0),
                            fonts={"F1": font}, appearance=b"BT /F1 12 Tf 2 5 Td (Up) Tj ET")

    def scaled(b, font):
        # BBox 50×10 into a 100×20 Rect: everything doubles
        return b.annotation("/Stamp", (100, 100, 200, 120), bbox=(0, 0, 50, 10),
                            fonts={"F1": font}, appearance=b"BT /F1 6 Tf 2 5 Td (Big) Tj ET")

    glyphs = _glyphs(_document(rotated, scaled))
    up = next(g for g in glyphs if g.text == "U")
    # form (2, 5) → Matrix (-5, 2) → fit (+320, +400) → user (315, 402) → viewer (315, 390)
    assert (up.x, up.y) == (pytest.approx(315), pytest.approx(390))
    assert (up.dx, up.dy) == (pytest.approx(0), pytest.approx(-1))             # reads bottom to top
    big = next(g for g in glyphs if g.text == "B")
    assert (big.x, big.y, big.size) == (pytest.approx(104), pytest.approx(792 - 110), pytest.approx(12))


def test_annotations_turn_with_the_page():
    def stamp(b, font):
        return b.annotation("/Stamp", (72, 650, 172, 670), fonts={"F1": font},
                            appearance=b"BT /F1 12 Tf 0 5 Td (Stamped) Tj ET")
    same_place = PAGE_TEXT + b" BT /F1 12 Tf 72 655 Td (Printed) Tj ET"
    glyphs = _glyphs(_document(stamp, page_text=same_place, rotate=90))
    stamped = next(g for g in glyphs if g.text == "S")
    printed = next(g for g in glyphs if g.text == "P")
    assert (stamped.x, stamped.y, stamped.dx, stamped.dy) == pytest.approx((printed.x, printed.y, printed.dx, printed.dy))


# ----------------------------------------------------------------------------- what is not shown

@pytest.mark.parametrize("flags, shown", [(0, True), (4, True), (2, False), (32, False), (2 | 4, False)])
def test_hidden_and_noview_annotations_are_skipped_print_is_not_required(flags, shown):
    data = _document(_widget(F=flags))
    assert (_text(_glyphs(data), ANNOTATION) == "Alice") is shown


def test_an_invisible_flag_hides_only_unknown_annotation_types():
    def custom(subtype):
        def make(b, font):
            return b.annotation(subtype, (100, 100, 200, 120), fonts={"F1": font}, F=1,
                                appearance=b"BT /F1 12 Tf 2 5 Td (Custom) Tj ET")
        return make
    assert _text(_glyphs(_document(custom("/Stamp"))), ANNOTATION) == "Custom"
    assert _text(_glyphs(_document(custom("/MyPluginNote"))), ANNOTATION) == ""


@pytest.mark.parametrize("subtype", ["/Link", "/Popup"])
def test_links_and_popups_are_skipped_even_with_an_appearance(subtype):
    def make(b, font):
        return b.annotation(subtype, (100, 100, 200, 120), fonts={"F1": font}, Contents="a note",
                            appearance=b"BT /F1 12 Tf 2 5 Td (Nope) Tj ET")
    assert _text(_glyphs(_document(make)), ANNOTATION) == ""


def test_annotations_false_turns_the_source_off():
    data = _document(_widget())
    assert _text(_glyphs(data, annotations=False), ANNOTATION) == ""
    assert extract_text(data, annotations=False).text.strip() == "Name:"
    assert [p.text for p in glyphline.iter_pages(data, annotations=False)] == ["Name:"]


# ----------------------------------------------------------------------------- values without an appearance

def _value_field(value="Bob", rect=(150, 690, 350, 710), **entries):
    def make(b, font):
        return b.annotation("/Widget", rect, **{"FT": "/Tx", "V": value, **entries})
    return make


def test_a_text_field_without_appearance_shows_its_value_at_the_da_size():
    data = _document(_value_field(DA=b"/Helv 10 Tf 0 g"),
                     catalog={"AcroForm": {"Fields": [], "DR": {"Font": {"Helv": {
                         "Type": "/Font", "Subtype": "/Type1", "BaseFont": "/Helvetica"}}}}})
    glyphs = [g for g in _glyphs(data) if g.flags & ANNOTATION]
    assert _text(glyphs) == "Bob"
    assert all(g.size == pytest.approx(10) for g in glyphs)
    for g in glyphs:        # inside the field: x 150…350, viewer y 82…102
        assert 150 < g.x < 350 and 82 < g.y < 102
    assert extract_text(data).text.strip() == "Name: Bob"


def test_a_value_field_inherits_type_value_and_da_from_its_parent():
    def child(b, font):
        parent = b.add({"FT": "/Tx", "T": "who", "V": "Dora", "DA": b"/Helv 9 Tf 0 g"})
        return b.annotation("/Widget", (150, 690, 350, 710), Parent=parent)
    glyphs = [g for g in _glyphs(_document(child)) if g.flags & ANNOTATION]
    assert _text(glyphs) == "Dora" and glyphs[0].size == pytest.approx(9)


def test_a_multiline_value_and_a_centred_value_are_placed_in_the_rect():
    data = _document(_value_field("one\ntwo", rect=(100, 500, 300, 560), Ff=1 << 12, DA=b"/Helv 12 Tf", Q=1))
    glyphs = [g for g in _glyphs(data) if g.flags & ANNOTATION]
    one = next(g for g in glyphs if g.text == "o")
    two = next(g for g in glyphs if g.text == "t")
    assert two.y > one.y                                     # the second line is lower on the page
    assert 150 < one.x < 200                                 # centred: a 3-letter word near the middle (200)


@pytest.mark.parametrize("entries", [{"Ff": 1 << 13}, {"FT": "/Btn"}])
def test_passwords_and_buttons_show_no_value(entries):
    make = _value_field(**entries)
    assert _text(_glyphs(_document(make)), ANNOTATION) == ""


@pytest.mark.parametrize("drawn", [b"", b"BT /F1 12 Tf 2 5 Td (Old) Tj ET"])
def test_need_appearances_replaces_a_stale_appearance_by_the_value(drawn):
    def stale(b, font):
        return b.annotation("/Widget", (150, 690, 350, 710), appearance=b"/Tx BMC " + drawn + b" EMC",
                            fonts={"F1": font}, FT="/Tx", V="Eve", DA=b"/Helv 11 Tf 0 g")
    shown = "Old" if drawn else ""
    assert _text(_glyphs(_document(stale)), ANNOTATION) == shown   # the appearance is what is shown…
    fresh = _document(stale, catalog={"AcroForm": {"Fields": [], "NeedAppearances": True}})
    assert _text(_glyphs(fresh), ANNOTATION) == "Eve"              # …unless the form asks for new ones


def test_need_appearances_false_keeps_the_appearance():
    # pypdf reads `false` as BooleanObject(False), a truthy object: booleans go through pdfobjects.flag
    def stale(b, font):
        return b.annotation("/Widget", (150, 690, 350, 710), appearance=b"BT /F1 12 Tf 2 5 Td (Old) Tj ET",
                            fonts={"F1": font}, FT="/Tx", V="Eve", DA=b"/Helv 11 Tf 0 g")
    kept = _document(stale, catalog={"AcroForm": {"Fields": [], "NeedAppearances": False}})
    assert _text(_glyphs(kept), ANNOTATION) == "Old"


def test_need_appearances_keeps_the_appearance_of_a_field_without_value():
    def unset(b, font):
        return b.annotation("/Widget", (150, 690, 350, 710), appearance=b"BT /F1 12 Tf 2 5 Td (Hint) Tj ET",
                            fonts={"F1": font}, FT="/Tx")
    data = _document(unset, catalog={"AcroForm": {"Fields": [], "NeedAppearances": True}})
    assert _text(_glyphs(data), ANNOTATION) == "Hint"



def test_a_list_box_drawn_anew_shows_the_options_that_fit_from_its_top_index():
    # poppler and MuPDF draw a list box's options (the chosen ones highlighted), pdf.js shows
    # them in a <select>; a box 3 lines high scrolled to /TI 1 shows the 2nd to 4th option
    def list_box(b, font):
        return b.annotation("/Widget", (150, 600, 350, 643), appearance=b"/Tx BMC EMC",
                            FT="/Ch", T="pick", DA=b"/Helv 10 Tf 0 g", TI=1, V="Pear",
                            Opt=["Apple", ["p", "Pear"], "Plum", "Quince", "Rowan"])
    def combo(b, font):
        return b.annotation("/Widget", (150, 500, 350, 520), appearance=b"/Tx BMC EMC",
                            FT="/Ch", Ff=1 << 17, T="one", DA=b"/Helv 10 Tf 0 g", V="Fig",
                            Opt=["Fig", "Kiwi"])
    data = _document(list_box, combo, catalog={"AcroForm": {"Fields": [], "NeedAppearances": True}})
    assert extract_text(data).text.split() == ["Name:", "Pear", "Plum", "Quince", "Fig"]

def test_a_freetext_without_appearance_shows_its_contents_right_to_left_text_in_reading_order():
    def note(b, font):
        return b.annotation("/FreeText", (100, 400, 400, 440), Contents="\u05e9\u05dc\u05d5\u05dd \u05e2\u05d5\u05dc\u05dd",
                            DA=b"/Helv 12 Tf 0 g")
    data = _document(note)
    glyphs = [g for g in _glyphs(data) if g.flags & ANNOTATION]
    assert sorted(glyphs, key=lambda g: g.x)[0].text == "\u05dd"        # painted visually: the last letter leftmost
    assert extract_text(data).text.split("\n\n")[-1].strip() == "\u05e9\u05dc\u05d5\u05dd \u05e2\u05d5\u05dc\u05dd"


# ----------------------------------------------------------------------------- broken annotations

def _warnings(data: bytes) -> list[str]:
    return extract_text(data).warnings


def test_a_non_stream_appearance_gives_a_warning_and_the_page_text_stays():
    def broken(b, font):
        return b.annotation("/Widget", (150, 690, 350, 710), appearance=42, FT="/Btn")
    data = _document(broken, _widget(rect=(150, 600, 350, 620)))
    assert "Name:" in extract_text(data).text and "Alice" in extract_text(data).text
    assert any("annotation 1 has a broken appearance" in w for w in _warnings(data))


def test_a_missing_rect_gives_a_warning():
    def no_rect(b, font):
        return b.add({"Type": "/Annot", "Subtype": "/FreeText", "AP": {"N": b.form(b"BT /F1 9 Tf (x) Tj ET")}})
    data = _document(no_rect)
    assert extract_text(data).text.strip() == "Name:"
    assert any("annotation 1 has no usable /Rect" in w for w in _warnings(data))


def test_junk_in_the_annots_array_costs_only_itself():
    data = _document(lambda b, font: Raw(b"(junk)"), lambda b, font: Ref(9999), _widget())
    assert extract_text(data).text.strip() == "Name: Alice"
    assert any("annotation 1 is not a dictionary" in w for w in _warnings(data))


def test_an_appearance_that_draws_itself_is_cut_with_a_warning():
    def cyclic(b, font):
        me = b.reserve()
        b.form(b"BT /F1 12 Tf 2 5 Td (Loop) Tj ET /Me Do", bbox=(0, 0, 200, 20),
               resources={"Font": {"F1": font}, "XObject": {"Me": me}}, into=me)
        return b.annotation("/Stamp", (150, 600, 350, 620), appearance=me)
    data = _document(cyclic)
    glyphs = _glyphs(data)
    assert _text(glyphs, ANNOTATION) == "Loop"                      # drawn once
    assert _text(glyphs).startswith("Name:")
    assert any("draws itself" in w for w in _warnings(data))


def test_the_annotation_budget_bounds_the_annots_array():
    data = _document(*[_widget(b"W%d" % i, rect=(100, 600 - 30 * i, 300, 620 - 30 * i)) for i in range(3)])
    glyphs = glyphline.open(data, limits=Limits(annotations_per_page=2)).page(0).glyphs
    assert _text(glyphs, ANNOTATION) == "W0W1"
    assert any("only the first 2" in w for w in extract_text(data, limits=Limits(annotations_per_page=2)).warnings)


# ----------------------------------------------------------------------------- XFA

def test_an_xfa_only_form_is_named_in_a_warning():
    xfa = {"AcroForm": {"Fields": [], "XFA": b"<xdp:xdp></xdp:xdp>"}}
    warnings = extract_text(_document(catalog=xfa)).warnings
    assert any("XFA form" in w for w in warnings)
    assert not any("XFA" in w for w in extract_text(_document(_widget())).warnings)


def test_a_hybrid_xfa_form_with_field_widgets_gives_no_xfa_warning():
    def hybrid(refs):
        return {"AcroForm": {"Fields": refs, "XFA": b"<xdp:xdp></xdp:xdp>"}}

    def needs_rendering(refs):
        return {"NeedsRendering": True, **hybrid(refs)}

    assert not any("XFA" in w for w in extract_text(_document(_widget(), catalog=hybrid)).warnings)
    assert any("XFA form" in w for w in extract_text(_document(_widget(), catalog=needs_rendering)).warnings)


# ----------------------------------------------------------------------------- the shells

def test_the_cli_has_no_annotations(tmp_path):
    path = tmp_path / "form.pdf"
    path.write_bytes(_document(_widget()))
    run = [sys.executable, "-m", "glyphline"]
    env = dict(os.environ, PYTHONPATH=str(REPO))
    on = subprocess.run(run + [str(path)], capture_output=True, check=True, env=env, timeout=120).stdout.decode()
    off = subprocess.run(run + ["--no-annotations", str(path)], capture_output=True, check=True, env=env,
                         timeout=120).stdout.decode()
    assert on.strip() == "Name: Alice" and off.strip() == "Name:"


def test_the_web_app_passes_the_annotations_option():
    import app

    data = _document(_widget())
    final = app.convert(1, data, {"annotations": False}, lambda message: None, lambda: False)
    assert final["text"].strip() == "Name:"
    final = app.convert(2, data, {}, lambda message: None, lambda: False)
    assert final["text"].strip() == "Name: Alice"


def test_a_problem_repeated_by_many_appearances_is_one_warning():
    def field(i):
        def make(b, font):
            return b.annotation("/Widget", (100, 600 - 30 * i, 300, 620 - 30 * i), FT="/Tx",
                                appearance=b"BT /Missing 12 Tf 2 5 Td (x) Tj ET", fonts={"F1": font})
        return make
    warnings = extract_text(_document(*[field(i) for i in range(5)])).warnings
    assert sum("/Missing" in w for w in warnings) == 1


def test_an_appearance_may_use_a_font_of_the_forms_default_resources():
    def relying(b, font):
        return b.annotation("/Widget", (150, 690, 350, 710), FT="/Tx", fonts={"Other": font},
                            appearance=b"/Tx BMC BT /Helv 12 Tf 2 5 Td (Frank) Tj ET EMC")

    def catalog(refs):
        helv = {"Type": "/Font", "Subtype": "/Type1", "BaseFont": "/Helvetica"}
        return {"AcroForm": {"Fields": refs, "DR": {"Font": {"Helv": helv}}}}

    assert any("/Helv" in w for w in _warnings(_document(relying)))            # /Helv is nowhere: a stand-in
    with_form = _document(relying, catalog=catalog)
    assert _text(_glyphs(with_form), ANNOTATION) == "Frank"
    assert not any("/Helv" in w for w in _warnings(with_form))                # the form's own Helvetica
