"""Optional content (ISO 32000-1 §8.11): content in a layer that the default configuration /D
hides is not page text, as pdf.js and pdftotext show it; marked content, XObjects and
annotations, OCGs and membership dictionaries (policies and visibility expressions)."""
from __future__ import annotations

import pytest
from pdfbuilder import PdfBuilder

from glyphline.extract import extract_text


def _shown(content: bytes, *, off=(0,), base_state=None, on=(), memberships=None, forms=None,
           annotations=None) -> list[str]:
    """Words of a page whose /Properties has /L0, /L1, /L2 (three OCGs) and /M0, /M1, … (OCMDs
    made by `memberships` from the OCG refs); `off` and `on` are indices into the OCGs."""
    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    groups = [b.add({"Type": "/OCG", "Name": f"layer {i}".encode()}) for i in range(3)]
    properties = {f"L{i}": g for i, g in enumerate(groups)}
    for i, membership in enumerate(memberships(groups) if memberships else []):
        properties[f"M{i}"] = b.add({"Type": "/OCMD", **membership})
    config = {"OFF": [groups[i] for i in off], "ON": [groups[i] for i in on]}
    if base_state:
        config["BaseState"] = base_state
    xobjects = {name: make(b, font, groups) for name, make in (forms or {}).items()}
    extra = {"Annots": [make(b, font, groups) for make in annotations]} if annotations else None
    b.page(content, fonts={"F1": font}, xobjects=xobjects or None, resources={"Properties": properties},
           extra=extra)
    data = b.build(catalog={"OCProperties": {"OCGs": groups, "D": config}})
    return extract_text(data).text.split()


def _line(word: bytes, y: int) -> bytes:
    return b"BT /F1 12 Tf 72 %d Td (%s) Tj ET " % (y, word)


def test_marked_content_of_a_hidden_group_is_left_out_nested_and_after_it_shown():
    content = (_line(b"Before", 700) + b"/OC /L0 BDC " + _line(b"Hidden", 680)
               + b"/OC /L1 BDC " + _line(b"Inner", 660) + b"EMC EMC "
               + b"/OC /L1 BDC " + _line(b"Visible", 640) + b"EMC " + _line(b"After", 620))
    assert _shown(content) == ["Before", "Visible", "After"]


def test_base_state_off_hides_every_group_not_turned_on():
    content = (b"/OC /L0 BDC " + _line(b"Zero", 700) + b"EMC /OC /L1 BDC " + _line(b"One", 680)
               + b"EMC /OC /L2 BDC " + _line(b"Two", 660) + b"EMC")
    assert _shown(content, off=(), base_state="/OFF", on=(1,)) == ["One"]


@pytest.mark.parametrize("membership, shown", [
    ({"P": "/AnyOn"}, True), ({"P": "/AllOn"}, False), ({"P": "/AnyOff"}, True), ({"P": "/AllOff"}, False),
    ({}, True),                                                        # /AnyOn by default
])
def test_membership_policies(membership, shown):
    # the OCMD names groups 0 (off) and 1 (on)
    content = _line(b"Base", 700) + b"/OC /M0 BDC " + _line(b"Member", 680) + b"EMC"
    made = _shown(content, memberships=lambda g: [{"OCGs": [g[0], g[1]], **membership}])
    assert made == (["Base", "Member"] if shown else ["Base"])


def test_visibility_expressions_win_over_the_policy():
    # 0 off, 1 and 2 on: [/And 1 [/Not 0]] shows; [/Not [/Or 0 2]] hides
    content = (b"/OC /M0 BDC " + _line(b"Shown", 700) + b"EMC /OC /M1 BDC " + _line(b"Gone", 680) + b"EMC")
    made = _shown(content, memberships=lambda g: [
        {"OCGs": [g[0]], "P": "/AllOn", "VE": ["/And", g[1], ["/Not", g[0]]]},
        {"VE": ["/Not", ["/Or", g[0], g[2]]]},
    ])
    assert made == ["Shown"]


def test_a_form_xobject_in_a_hidden_group_is_not_drawn():
    def form(layer):
        def make(b, font, groups):
            ref = b.form(_line(b"Form%d" % layer, 650), fonts={"F1": font})
            b.objects[ref.num].attrs["OC"] = groups[layer]
            return ref
        return make
    made = _shown(_line(b"Page", 700) + b"/X0 Do /X1 Do", forms={"X0": form(0), "X1": form(1)})
    assert made == ["Page", "Form1"]


def test_an_annotation_in_a_hidden_group_is_not_drawn():
    def stamp(layer):
        def make(b, font, groups):
            return b.annotation("/FreeText", (100, 500, 300, 520), appearance=b"BT /F1 12 Tf 2 5 Td (Note%d) Tj ET"
                                % layer, fonts={"F1": font}, OC=groups[layer])
        return make
    assert _shown(_line(b"Page", 700), annotations=[stamp(0), stamp(1)]) == ["Page", "Note1"]


def test_without_hidden_groups_everything_shows():
    content = b"/OC /L0 BDC " + _line(b"Layer", 700) + b"EMC /OC /Missing BDC " + _line(b"Odd", 680) + b"EMC"
    assert _shown(content, off=()) == ["Layer", "Odd"]


def test_a_page_of_hidden_text_says_so_and_is_no_scan():
    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    layer = b.add({"Type": "/OCG", "Name": b"draft"})
    b.page(b"/OC /L0 BDC " + _line(b"Draft", 700) + _line(b"notes", 680) + b"EMC", fonts={"F1": font},
           resources={"Properties": {"L0": layer}})
    result = extract_text(b.build(catalog={"OCProperties": {"OCGs": [layer], "D": {"OFF": [layer]}}}))
    assert result.text.strip() == ""
    assert any("10 glyph(s) on page 1 are in optional content" in w for w in result.warnings)
    assert result.scan is None


def test_a_self_referencing_visibility_expression_ends_within_its_budget():
    # [/And x x … x] where x is the expression itself: exponential without the term budget
    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    layer = b.add({"Type": "/OCG", "Name": b"off"})
    expression = b.reserve()
    b.set(expression, ["/And"] + [expression] * 50 + [layer])
    membership = b.add({"Type": "/OCMD", "VE": expression})
    b.page(b"/OC /M0 BDC " + _line(b"Loop", 700) + b"EMC", fonts={"F1": font},
           resources={"Properties": {"M0": membership}})
    result = extract_text(b.build(catalog={"OCProperties": {"OCGs": [layer], "D": {"OFF": [layer]}}}))
    assert result.text.split() == []   # every level of the loop ANDs in the hidden layer
