"""The content interpreter: exact glyph text and geometry for every operator it handles.

Fonts are a tiny fake (MonoFont: every code is its Latin-1 character, 500 units wide, ascent 800,
descent -200) so these tests pin the interpreter alone. Unless a test says otherwise the CTM is
the identity, so viewer space = user space and the numbers are easy to check by hand.
"""
from __future__ import annotations

import math

import pytest
from pypdf.generic import (DecodedStreamObject, DictionaryObject, NameObject)

from glyphline.content.env import PageEnv
from glyphline.content.interpreter import decode_text_string, interpret
from glyphline.fonts.base import DecodedChar, Font
from glyphline.glyph import ACTUAL_TEXT, IN_FORM, INVISIBLE, TEXT_RISE, VERTICAL
from glyphline.limits import Limits, PageBudget, PageBudgetExceeded
from pdfbuilder import pdf_object as pdf

UNDECODABLE = 0x01      # MonoFont has no Unicode for this code
FLIP = (1.0, 0.0, 0.0, -1.0, 0.0, 792.0)   # a US-letter page: user space → viewer space (y down)


class MonoFont(Font):
    """Code → chr(code), 500 glyph units wide; code 32 is the word-spacing space."""

    def decode(self, data: bytes) -> list[DecodedChar]:
        return [DecodedChar(b, None if b == UNDECODABLE else chr(b), 500.0, b == 32) for b in data]


class VerticalFont(Font):
    """Vertical (WMode 1): every code moves the pen 1000 units down; v = (500, 880)."""

    def decode(self, data: bytes) -> list[DecodedChar]:
        return [DecodedChar(b, chr(b), 1000.0, b == 32, -1000.0, 500.0, 880.0) for b in data]


def form(content: bytes, matrix=None, resources=None) -> DecodedStreamObject:
    stream = DecodedStreamObject()
    stream.set_data(content)
    stream[NameObject("/Type")] = NameObject("/XObject")
    stream[NameObject("/Subtype")] = NameObject("/Form")
    if matrix is not None:
        stream[NameObject("/Matrix")] = pdf(list(matrix))
    if resources is not None:
        stream[NameObject("/Resources")] = resources
    return stream


FONTS = {"Mono": MonoFont("Mono", ascent=800.0, descent=-200.0), "Bare": MonoFont("Bare"),
         "Vert": VerticalFont("Vert", vertical=True, ascent=880.0, descent=-120.0),
         "Big": MonoFont("Big", font_matrix=(0.01, 0.0, 0.0, 0.01, 0.0, 0.0), ascent=80.0, descent=-20.0)}


def resources(**extra) -> DictionaryObject:
    fonts = {"/F1": {"/Type": "/Font", "/BaseFont": "/Mono"}, "/F2": {"/Type": "/Font", "/BaseFont": "/Bare"},
             "/V": {"/Type": "/Font", "/BaseFont": "/Vert"}, "/T3": {"/Type": "/Font", "/BaseFont": "/Big"}}
    result = pdf({"/Font": fonts})
    for key, value in extra.items():
        result[NameObject("/" + key)] = value
    return result


def load_font(font_dict, name):
    if font_dict is None:
        raise KeyError(name)       # a missing resource: the interpreter must cope
    return FONTS[font_dict["/BaseFont"][1:]]


def make_env(limits: Limits | None = None, clip=(0.0, 0.0, 612.0, 792.0), keep_outside=False) -> PageEnv:
    limits = limits or Limits()
    return PageEnv(limits=limits, budget=PageBudget(limits), load_font=load_font,
                   read_stream=lambda stream: stream.get_data(), clip=clip, keep_outside=keep_outside)


def run(content: bytes, res=None, ctm=(1.0, 0.0, 0.0, 1.0, 0.0, 0.0), env=None, **kwargs):
    env = env or make_env()
    glyphs = interpret(content, resources() if res is None else res, ctm, env, **kwargs)
    return glyphs, env


def text(glyphs) -> str:
    return "".join(g.text for g in glyphs)


def xs(glyphs) -> list[float]:
    return [round(g.x, 6) for g in glyphs]


def test_tj_positions_advance_and_box():
    glyphs, env = run(b"BT /F1 10 Tf 72 700 Td (Ab) Tj ET")
    assert text(glyphs) == "Ab" and env.warnings == [] and env.undecodable == 0
    a, b = glyphs
    assert (a.x, a.y, a.end_x, a.end_y, a.advance) == (72.0, 700.0, 77.0, 700.0, 5.0)
    assert (b.x, b.end_x) == (77.0, 82.0)
    assert (a.dx, a.dy, a.size, a.height, a.descent) == (1.0, 0.0, 10.0, 10.0, 2.0)
    assert (a.font, a.flags, a.mcid) == ("Mono", 0, -1)


def test_viewer_space_is_y_down():
    glyphs, _ = run(b"BT /F1 10 Tf 72 700 Td (A) Tj ET", ctm=FLIP)
    [g] = glyphs
    assert (g.x, g.y, g.end_x, g.end_y, g.dx, g.dy, g.size) == (72.0, 92.0, 77.0, 92.0, 1.0, 0.0, 10.0)


def test_tj_numbers_move_the_pen():
    glyphs, _ = run(b"BT /F1 10 Tf [(A) -1000 (B) 500 (C)] TJ (D) Tj ET")
    # -1000 moves right by 1 em (10), 500 moves left by half an em; the next Tj continues
    assert xs(glyphs) == [0.0, 15.0, 15.0, 20.0]
    assert [g.advance for g in glyphs] == [5.0, 5.0, 5.0, 5.0]


def test_char_and_word_spacing():
    glyphs, _ = run(b"BT /F1 10 Tf 2 Tc 7 Tw (a b) Tj ET")
    assert xs(glyphs) == [0.0, 7.0, 21.0]
    assert [g.advance for g in glyphs] == [7.0, 14.0, 7.0]
    assert [g.end_x - g.x for g in glyphs] == [5.0, 5.0, 5.0]   # end point: font advance only


def test_word_spacing_applies_to_single_byte_code_32_only():
    class TwoByte(MonoFont):
        def decode(self, data):
            return [DecodedChar(int.from_bytes(data[i:i + 2], "big"), chr(data[i + 1]), 500.0, False)
                    for i in range(0, len(data) - 1, 2)]
    FONTS["TwoByte"] = TwoByte("TwoByte")
    res = resources()
    res["/Font"][NameObject("/W")] = pdf({"/BaseFont": "/TwoByte"})
    glyphs, _ = run(b"BT /W 10 Tf 7 Tw <0061002000620020> Tj ET", res=res)
    assert text(glyphs) == "a b " and xs(glyphs) == [0.0, 5.0, 10.0, 15.0]


def test_horizontal_scaling():
    glyphs, _ = run(b"BT /F1 10 Tf 50 Tz 2 Tc [(ab) -1000 (c)] TJ ET")
    # (5 + 2) × 0.5 per glyph; -1000 → 10 × 0.5
    assert xs(glyphs) == [0.0, 3.5, 12.0]
    assert [g.end_x - g.x for g in glyphs] == [2.5, 2.5, 2.5]
    assert glyphs[0].size == 10.0      # Tz does not change the em height


def test_text_rise():
    glyphs, _ = run(b"BT /F1 10 Tf 100 100 Td 3 Ts (a) Tj 0 Ts (b) Tj ET")
    assert [(g.x, g.y) for g in glyphs] == [(100.0, 103.0), (105.0, 100.0)]
    assert [g.flags for g in glyphs] == [TEXT_RISE, 0]


def test_td_TD_tstar_quote_and_doublequote():
    glyphs, _ = run(b"BT /F1 10 Tf 14 TL 100 700 Td (a) Tj T* (b) Tj 0 -20 TD (c) Tj T* (d) Tj "
                    b"(e) ' 4 1 (f g) \" ET")
    assert [(g.text, g.x, g.y) for g in glyphs] == [
        ("a", 100.0, 700.0), ("b", 100.0, 686.0), ("c", 100.0, 666.0), ("d", 100.0, 646.0),
        ("e", 100.0, 626.0), ("f", 100.0, 606.0), (" ", 106.0, 606.0), ("g", 116.0, 606.0)]


def test_glyph_by_glyph_text_runs():
    # Chrome/Skia place each glyph with "<code> Tj dx 0 Td"; the lexer merges such runs
    content = (b"BT /F1 10 Tf 2 0 0 2 100 700 Tm 14 TL <61> Tj 7 0 Td <62>Tj 7.5 -1 Td (c) Tj 7 0 Td "
               b"(d) Tj T* (e) Tj ET")
    glyphs, _ = run(content)
    assert [(g.text, g.x, g.y, g.size) for g in glyphs] == [
        ("a", 100.0, 700.0, 20.0), ("b", 114.0, 700.0, 20.0), ("c", 129.0, 698.0, 20.0),
        ("d", 143.0, 698.0, 20.0), ("e", 143.0, 670.0, 20.0)]   # T* starts from the last Td's line
    # the same content with the run broken up by comments gives the same glyphs
    unmerged, _ = run(content.replace(b" Td ", b" Td %\n").replace(b"Tj ", b"Tj %\n"))
    assert unmerged == glyphs


def test_text_run_in_a_vertical_font():
    glyphs, _ = run(b"BT /V 10 Tf 100 700 Td (a) Tj 0 -12 Td (b) Tj 0 -12 Td (c) Tj ET", ctm=FLIP)
    assert [(g.text, g.x, g.y, g.vertical) for g in glyphs] == [
        ("a", 100.0, 92.0, True), ("b", 100.0, 104.0, True), ("c", 100.0, 116.0, True)]


def test_tm_replaces_the_matrix_and_bt_resets_it():
    glyphs, _ = run(b"BT /F1 10 Tf 2 0 0 2 50 60 Tm (a) Tj 5 5 Td (b) Tj ET BT (c) Tj ET")
    assert [(g.x, g.y, g.size, g.end_x - g.x) for g in glyphs] == [
        (50.0, 60.0, 20.0, 10.0), (60.0, 70.0, 20.0, 10.0), (0.0, 0.0, 10.0, 5.0)]


def test_rotation_90_degrees():
    # Tm rotates 90° counter-clockwise in user space; with the page flip text runs up the page
    glyphs, _ = run(b"BT /F1 10 Tf 0 1 -1 0 100 100 Tm (ab) Tj ET", ctm=FLIP)
    a, b = glyphs
    assert (a.x, a.y) == (100.0, 692.0) and (b.x, b.y) == (100.0, 687.0)
    assert (a.dx, a.dy) == (0.0, -1.0) and a.advance == 5.0 and a.size == 10.0


def test_rotation_45_degrees_through_ctm():
    r = math.sqrt(0.5)
    glyphs, _ = run(b"q %f %f %f %f 100 100 cm BT /F1 10 Tf (ab) Tj ET Q" % (r, r, -r, r))
    a, b = glyphs
    assert (a.x, a.y) == (100.0, 100.0)
    assert b.x == pytest.approx(100 + 5 * r) and b.y == pytest.approx(100 + 5 * r)
    assert (a.dx, a.dy) == (pytest.approx(r), pytest.approx(r))
    assert a.advance == pytest.approx(5.0) and a.size == pytest.approx(10.0)


def test_cm_scales_size_and_positions():
    glyphs, _ = run(b"2 0 0 3 10 20 cm BT /F1 10 Tf 5 5 Td (a) Tj ET")
    [g] = glyphs
    assert (g.x, g.y, g.end_x, g.size, g.height, g.descent) == (20.0, 35.0, 30.0, 30.0, 30.0, 6.0)


def test_q_Q_restore_the_whole_state():
    glyphs, _ = run(b"BT /F1 10 Tf 1 Tc 2 Tw 80 Tz 12 TL 0 Tr 1 Ts ET "
                    b"q 2 0 0 2 0 0 cm BT /F2 20 Tf 5 Tc 6 Tw 50 Tz 30 TL 3 Tr 4 Ts ET Q "
                    b"BT 0 100 Td (a b) Tj T* (c) Tj ET")
    a, space, b, c = glyphs
    assert (a.font, a.size, a.flags, a.y) == ("Mono", 10.0, TEXT_RISE, 101.0)   # font, size, Tr, Ts, CTM back
    assert a.advance == pytest.approx((5 + 1) * 0.8)                         # Tc, Tz back
    assert space.advance == pytest.approx((5 + 1 + 2) * 0.8)                 # Tw back
    assert c.y == 101.0 - 12.0                                               # TL back


def test_unbalanced_Q_is_ignored_and_deep_q_is_bounded():
    glyphs, env = run(b"Q Q BT /F1 10 Tf (a) Tj ET" + b" q" * 5000 + b" 2 0 0 2 0 0 cm" + b" Q" * 5000
                      + b" BT /F1 10 Tf (b) Tj ET")
    assert text(glyphs) == "ab" and glyphs[1].size == 10.0 and env.warnings == []


def test_render_mode_3_and_7_are_invisible():
    glyphs, _ = run(b"BT /F1 10 Tf 3 Tr (a) Tj 7 Tr (b) Tj 0 Tr (c) Tj 2 Tr (d) Tj ET")
    assert [g.flags & INVISIBLE for g in glyphs] == [INVISIBLE, INVISIBLE, 0, 0]
    assert glyphs[0].invisible and not glyphs[2].invisible


def test_undecodable_codes_move_the_pen_and_are_counted():
    glyphs, env = run(b"BT /F1 10 Tf (a\x01\x01b) Tj ET")
    assert text(glyphs) == "ab" and xs(glyphs) == [0.0, 15.0] and env.undecodable == 2


def test_font_without_metrics_gets_a_one_em_box():
    glyphs, _ = run(b"BT /F2 10 Tf (a) Tj ET")
    assert (glyphs[0].height, glyphs[0].descent) == (10.0, 2.0)


def test_type3_font_matrix_maps_glyph_space():
    glyphs, _ = run(b"BT /T3 10 Tf (ab) Tj ET")   # FontMatrix 0.01: 500 units are 5 em
    assert xs(glyphs) == [0.0, 50.0] and glyphs[0].end_x == 50.0
    assert (glyphs[0].height, glyphs[0].descent) == (10.0, 2.0)


def test_vertical_font():
    glyphs, _ = run(b"BT /V 10 Tf 100 700 Td (ab) Tj [(c) -500 (d)] TJ ET", ctm=FLIP)
    assert text(glyphs) == "abcd"
    assert [(g.x, g.y) for g in glyphs] == [(100.0, 92.0), (100.0, 102.0), (100.0, 112.0), (100.0, 117.0)]
    a = glyphs[0]
    assert (a.dx, a.dy, a.end_x, a.end_y, a.advance) == (0.0, 1.0, 100.0, 102.0, 10.0)
    assert (a.size, a.height, a.descent, a.flags) == (10.0, 10.0, 5.0, VERTICAL)


def test_vertical_font_glyphs_placed_along_a_line_read_as_horizontal():
    # PDFBOX-3127: every glyph of an Identity-V font placed by its own Td along a line
    glyphs, _ = run(b"BT /V 10 Tf 100 700 Td (a) Tj 10 0 Td (b) Tj 10 0 Td (c) Tj ET", ctm=FLIP)
    assert text(glyphs) == "abc"
    # each becomes its horizontal twin: origin = pen - v (v = (500, 880) glyph units)
    assert [(round(g.x, 6), round(g.y, 6), round(g.end_x, 6)) for g in glyphs] == [
        (95.0, 100.8, 105.0), (105.0, 100.8, 115.0), (115.0, 100.8, 125.0)]
    a = glyphs[0]
    assert (a.dx, a.dy, a.flags, a.advance, a.height, round(a.descent, 6)) == (1.0, 0.0, 0, 10.0, 10.0, 1.2)


def test_extgstate_font_entry_sets_the_font():
    states = pdf({"/GS1": {"/Font": [{"/Type": "/Font", "/BaseFont": "/Bare"}, 20]}, "/GS2": {"/LW": 2}})
    glyphs, env = run(b"BT /F1 10 Tf (a) Tj /GS2 gs (b) Tj /GS1 gs (c) Tj /Nope gs (d) Tj ET",
                      res=resources(ExtGState=states))
    assert [(g.text, g.font, g.size) for g in glyphs] == [
        ("a", "Mono", 10.0), ("b", "Mono", 10.0), ("c", "Bare", 20.0), ("d", "Bare", 20.0)]
    assert env.warnings == []


def test_missing_font_skips_text_with_one_warning():
    glyphs, env = run(b"BT /Nope 10 Tf (a) Tj (b) Tj /F1 10 Tf (c) Tj ET")
    assert text(glyphs) == "c"
    assert len(env.warnings) == 2 and "Nope" in env.warnings[0]


def test_text_before_any_font_is_skipped():
    glyphs, env = run(b"BT (a) Tj ET")
    assert glyphs == [] and len(env.warnings) == 1


def test_malformed_operators_are_skipped_with_one_warning():
    glyphs, env = run(b"BT /F1 10 Tf (x) Td 1 Td 5 (y) Tf (a) Tj 3 Tj [(b) /N (c) [1]] TJ Tw (d) Tj "
                      b"(e) 3 Tc XX 1 2 3 4 5 q ET")
    assert text(glyphs) == "abcd"
    assert len(env.warnings) == 1 and "malformed" in env.warnings[0]


def test_extra_operands_use_the_last_ones():
    glyphs, env = run(b"BT /F1 10 Tf 1 2 3 40 50 Td (a) Tj ET")
    assert (glyphs[0].x, glyphs[0].y) == (40.0, 50.0) and env.warnings == []


def test_clip_drops_glyphs_whose_centre_is_outside():
    content = b"BT /F1 10 Tf -4 50 Td (abc) Tj 1 0 0 1 50 -9 Tm (d) Tj 0 -8 Td (e) Tj ET"
    glyphs, _ = run(content, env=make_env(clip=(0.0, 0.0, 100.0, 100.0)))
    # a: centre x = -1.5 (out); b, c in; d: box centre y = -9 + 3 = -6 (out); e: y = -17 + 3 (out)
    assert text(glyphs) == "bc"
    glyphs, _ = run(content, env=make_env(clip=(0.0, 0.0, 100.0, 100.0), keep_outside=True))
    assert text(glyphs) == "abcde"


def test_degenerate_clip_means_no_clip():
    glyphs, _ = run(b"BT /F1 10 Tf -500 -500 Td (a) Tj ET", env=make_env(clip=(0.0, 0.0, 0.0, 0.0)))
    assert text(glyphs) == "a"


def test_form_xobject_with_matrix_and_nesting():
    inner = form(b"BT /F1 10 Tf (i) Tj ET", matrix=(1, 0, 0, 1, 5, 5))
    outer = form(b"BT /F1 10 Tf (o) Tj ET /Inner Do BT (p) Tj ET", matrix=(2, 0, 0, 2, 100, 200),
                 resources=resources(XObject=pdf({"/Inner": inner})))
    res = resources(XObject=pdf({"/Outer": outer}))
    glyphs, env = run(b"BT /F1 12 Tf 1 1 Td (a) Tj /Outer Do (b) Tj ET", res=res)
    assert [(g.text, g.x, g.y, g.size, bool(g.flags & IN_FORM)) for g in glyphs] == [
        ("a", 1.0, 1.0, 12.0, False), ("o", 100.0, 200.0, 20.0, True), ("i", 110.0, 210.0, 20.0, True),
        ("p", 100.0, 200.0, 20.0, True),
        ("b", 7.0, 1.0, 12.0, False)]     # the caller's text object and font survive the form
    assert env.warnings == []


def test_form_uses_the_callers_resources_when_it_has_none():
    res = resources()
    res[NameObject("/XObject")] = pdf({"/Fm": form(b"BT /F1 10 Tf (x) Tj ET")})
    glyphs, _ = run(b"/Fm Do", res=res)
    assert text(glyphs) == "x" and glyphs[0].in_form


def test_form_state_does_not_leak():
    fm = form(b"q q 3 0 0 3 0 0 cm BT /F2 30 Tf 5 Tc ET")        # unbalanced q, changed state
    res = resources(XObject=pdf({"/Fm": fm}))
    glyphs, _ = run(b"BT /F1 10 Tf /Fm Do (a) Tj ET q Q", res=res)
    assert [(g.font, g.size, g.advance) for g in glyphs] == [("Mono", 10.0, 5.0)]


def test_self_referencing_form_is_cut():
    fm = form(b"BT /F1 10 Tf (x) Tj ET /Self Do")
    fm[NameObject("/Resources")] = resources(XObject=DictionaryObject({NameObject("/Self"): fm}))
    glyphs, env = run(b"/Self Do", res=resources(XObject=pdf({"/Self": fm})))
    assert text(glyphs) == "x"
    assert len(env.warnings) == 1 and "itself" in env.warnings[0]


def test_form_depth_limit():
    # ten distinct forms, each drawing a letter and then the next one
    res = None
    for letter in reversed("abcdefghij"):
        content = b"BT /F1 10 Tf (" + letter.encode() + b") Tj ET" + (b" /Next Do" if res is not None else b"")
        fm = form(content, resources=res)
        res = resources(XObject=pdf({"/Next": fm}))
    glyphs, env = run(b"/Next Do", res=res, env=make_env(Limits(form_depth=4)))
    assert text(glyphs) == "abcd"
    assert len(env.warnings) == 1 and "deeper" in env.warnings[0]


def test_image_xobjects_and_missing_xobjects_are_ignored():
    image = DecodedStreamObject()
    image.set_data(b"\x00\x01BT (x) Tj ET")
    image[NameObject("/Subtype")] = NameObject("/Image")
    glyphs, env = run(b"/Im Do /Missing Do BT /F1 10 Tf (a) Tj ET", res=resources(XObject=pdf({"/Im": image})))
    assert text(glyphs) == "a" and env.warnings == []


def test_inline_image_with_ei_in_its_data_is_skipped():
    data = b"\x00 EI \xff\xfe\x80 EI\x01"
    glyphs, _ = run(b"BT /F1 10 Tf (a) Tj ET BI /W 4 /H 2 /BPC 8 /CS /G ID " + data + b" EI BT /F1 10 Tf (b) Tj ET")
    assert text(glyphs) == "ab"


def test_contents_segments_joined_by_newline():
    segments = [b"BT /F1 10 Tf 72 7", b"00 Td (He", b"llo) Tj ET"]
    glyphs, _ = run(b"\n".join(segments))
    # the number split across segments reads as two numbers (7 and 00: Td takes the last two)
    assert text(glyphs) == "He\nllo"


def test_actual_text_inline_replaces_the_span():
    glyphs, _ = run(b"BT /F1 10 Tf (x) Tj /Span <</ActualText (fi)>> BDC (\x01\x02) Tj EMC (y) Tj ET")
    assert text(glyphs) == "xfiy"
    x, fi, y = glyphs
    assert (fi.x, fi.end_x, fi.advance, fi.flags) == (5.0, 15.0, 10.0, ACTUAL_TEXT)
    assert fi.from_actual_text and y.x == 15.0


def test_actual_text_over_undecodable_codes_is_positioned_at_the_pen():
    glyphs, env = run(b"BT /F1 10 Tf 20 0 Td /Span <</ActualText <FEFF00660069>>> BDC (\x01) Tj EMC ET")
    assert [(g.text, g.x, g.end_x) for g in glyphs] == [("fi", 20.0, 25.0)]
    assert env.undecodable == 0


def test_actual_text_through_properties_resource_and_mcid():
    props = pdf({"/Span1": {"/ActualText": "ﬁne", "/MCID": 7}})
    glyphs, _ = run(b"BT /F1 10 Tf /P <</MCID 3>> BDC (a) Tj /Span /Span1 BDC (xyz) Tj EMC (b) Tj EMC (c) Tj ET",
                    res=resources(Properties=props))
    assert [(g.text, g.mcid, g.x) for g in glyphs] == [
        ("a", 3, 0.0), ("ﬁne", 7, 5.0), ("b", 3, 20.0), ("c", -1, 25.0)]


def test_nested_actual_text_is_ignored_and_empty_span_emits_nothing():
    glyphs, _ = run(b"BT /F1 10 Tf /Span <</ActualText (outer)>> BDC (a) Tj /Span <</ActualText (inner)>> BDC (b) Tj "
                    b"EMC EMC /Span <</ActualText (none)>> BDC EMC /Span <</ActualText ()>> BDC (gone) Tj EMC ET")
    assert [(g.text, g.x, g.end_x) for g in glyphs] == [("outer", 0.0, 10.0)]


def test_unclosed_actual_text_is_flushed_at_the_end():
    glyphs, _ = run(b"BT /F1 10 Tf /Span <</ActualText (tail)>> BDC (ab) Tj ET")
    assert text(glyphs) == "tail"


def test_emc_without_bdc_and_bmc_are_harmless():
    glyphs, env = run(b"EMC /Artifact BMC BT /F1 10 Tf (a) Tj ET EMC EMC")
    assert text(glyphs) == "a" and env.warnings == []


def test_decode_text_string():
    assert decode_text_string(b"\xfe\xff\x00A\xd8\x3d\xde\x00") == "A\U0001F600"
    assert decode_text_string(b"\xef\xbb\xbfca\xc3\xa9") == "caé"
    assert decode_text_string(b"\x8dquoted\x8e \xa0\x93") == "\u201cquoted\u201d \u20ac\ufb01"


def test_budget_exceeded_keeps_earlier_glyphs():
    limits = Limits(glyphs_per_page=3)
    out: list = []
    with pytest.raises(PageBudgetExceeded):
        interpret(b"BT /F1 10 Tf (ab) Tj (cd) Tj (ef) Tj ET", resources(), (1, 0, 0, 1, 0, 0),
                  make_env(limits), out=out)
    assert text(out) == "ab"


def test_operator_budget():
    limits = Limits(operators_per_page=50)
    out: list = []
    with pytest.raises(PageBudgetExceeded) as caught:
        interpret(b"BT /F1 10 Tf " + b"(a) Tj " * 100 + b"ET", resources(), (1, 0, 0, 1, 0, 0),
                  make_env(limits), out=out)
    assert caught.value.limit == "operators_per_page" and text(out) == "a" * 48


def test_resources_of_any_shape_never_crash():
    for res in (None, pdf({"/Font": 5}), pdf({"/Font": {"/F1": 3}}), pdf([1, 2]), "junk"):
        env = make_env()
        glyphs = interpret(b"BT /F1 10 Tf (a) Tj /X Do /P /Q BDC EMC ET", res, (1, 0, 0, 1, 0, 0), env)
        assert glyphs == [] and len(env.warnings) == 2   # font missing, then text without a font


def test_in_form_flag_from_the_caller():
    glyphs, _ = run(b"BT /F1 10 Tf (a) Tj ET", in_form=True)
    assert glyphs[0].flags == IN_FORM


# ---- with the real font stage --------------------------------------------------------------

def real_font_env() -> PageEnv:
    from glyphline import fonts
    limits = Limits()
    read = lambda stream: stream.get_data()   # noqa: E731 - the test's whole stream reader
    return PageEnv(limits=limits, budget=PageBudget(limits), read_stream=read, clip=(0.0, 0.0, 612.0, 792.0),
                   load_font=lambda font_dict, name: fonts.load_font(font_dict, name, limits, read))


def type0_font(encoding: str) -> DictionaryObject:
    from pdfbuilder import tounicode_cmap
    cmap = DecodedStreamObject()
    cmap.set_data(tounicode_cmap({1: "H", 2: "i"}, code_bytes=2))
    font = pdf({"/Type": "/Font", "/Subtype": "/Type0", "/BaseFont": "/ABCDEF+Foo", "/Encoding": encoding,
                "/DescendantFonts": [{"/Type": "/Font", "/Subtype": "/CIDFontType2", "/BaseFont": "/ABCDEF+Foo",
                                      "/CIDSystemInfo": {"/Registry": "Adobe", "/Ordering": "Identity",
                                                         "/Supplement": 0},
                                      "/W": [1, [600, 400]], "/DW": 1000}]})
    font[NameObject("/ToUnicode")] = cmap
    return font


def test_standard_14_helvetica_widths():
    res = pdf({"/Font": {"/F1": {"/Type": "/Font", "/Subtype": "/Type1", "/BaseFont": "/Helvetica"}}})
    env = real_font_env()
    glyphs = interpret(b"BT /F1 10 Tf 72 700 Td 5 Tw (AV x) Tj ET", res, FLIP, env)
    assert text(glyphs) == "AV x" and env.warnings == []
    assert [round(g.x, 6) for g in glyphs] == [72.0, 78.67, 85.34, 93.12]   # A, V 667; space 278 + Tw 5
    assert glyphs[0].y == 92.0 and glyphs[0].font == "Helvetica"


def test_type0_identity_h_and_v():
    res = pdf({"/Font": {"/H": type0_font("/Identity-H"), "/V": type0_font("/Identity-V")}})
    env = real_font_env()
    glyphs = interpret(b"BT /H 10 Tf 72 700 Td <00010002> Tj ET BT /V 10 Tf 300 700 Td <00010002> Tj ET",
                       res, FLIP, env)
    assert [(g.text, g.x, g.y, g.vertical) for g in glyphs] == [
        ("H", 72.0, 92.0, False), ("i", 78.0, 92.0, False),          # /W: 600 then 400
        ("H", 300.0, 92.0, True), ("i", 300.0, 102.0, True)]         # default w1 = -1000
    assert (glyphs[2].dx, glyphs[2].dy, glyphs[2].descent) == (0.0, 1.0, 3.0)   # v.x = w0 / 2


# ---- the per-code placement tables of simple and two-byte CID fonts --------------------------

def _widths(code: int) -> float:
    return 250.0 + 7.0 * (code % 50)     # varied widths, so a wrong placement shows


def _simple_font(name: str):
    from glyphline.fonts.simple import SimpleFont
    table = tuple(DecodedChar(code, None if code == UNDECODABLE else chr(code), _widths(code), code == 32)
                  for code in range(256))
    return SimpleFont(name, table, ascent=750.0, descent=-250.0)


def _two_byte_font(name: str):
    from glyphline.fonts.composite import CompositeFont
    from glyphline.fonts.tounicode import CodespaceRange

    def resolve(code: int, nbytes: int, valid: bool) -> DecodedChar:
        text = chr(0x4E00 + code % 500) if valid and code != UNDECODABLE else None
        return DecodedChar(code, text, _widths(code), nbytes == 1 and code == 32)

    return CompositeFont(name, [CodespaceRange(2, b"\x00\x00", b"\xff\xff")], resolve, False, 880.0, -120.0, [])


class _DecodeOnly(Font):
    """The same font seen only through decode(): the interpreter's generic path."""

    def __init__(self, inner):
        super().__init__(name=inner.name, font_matrix=inner.font_matrix, ascent=inner.ascent, descent=inner.descent)
        self.inner = inner

    def decode(self, data: bytes) -> list[DecodedChar]:
        return self.inner.decode(data)


PLACEMENT_CONTENT = (
    b"BT /S 10 Tf 72 700 Td (Ab c) Tj 2 Tc 3 Tw [(x y) -250 (\x01z)] TJ 0 -12 Td 90 Tz (  q) Tj "
    b"3 Ts (r) Tj 0 Ts -0.0 Tc (ab) Tj 1 0 0 1 300 500 Tm (Ab c) Tj "
    b"(a) Tj 4 0 Td (b) Tj 4 0 Td (c) Tj 4 0 Td (\x01) Tj 4 0 Td (d) Tj 900 0 Td (e) Tj 4 0 Td "
    b"0 1 -1 0 200 200 Tm (turned) Tj /S 14 Tf 72 100 Td (big) Tj "
    b"/Span <</ActualText (AT)>> BDC (span) Tj EMC (after) Tj ET "
    b"BT /S 10 Tf 5000 5000 Td (outside) Tj ET"
)
TWO_BYTE_CONTENT = (
    b"BT /S 10 Tf 72 700 Td <00410042> Tj 2 Tc 3 Tw [<0043> -250 <00010044>] TJ 0 -12 Td 90 Tz <0020> Tj "
    b"<0045> Tj 4 0 Td <0046> Tj 4 0 Td <004700> Tj <> Tj 0 1 -1 0 200 200 Tm <00480049> Tj "
    b"1 0 0 1 72 300 Tm <0001> Tj 4 0 Td <0052> Tj 900 0 Td <0053> Tj 4 0 Td <> Tj 4 0 Td "
    b"/Span <</ActualText (AT)>> BDC <0050> Tj EMC ET BT /S 10 Tf 5000 5000 Td <0051> Tj ET"
)


@pytest.mark.parametrize("make_font, content", [(_simple_font, PLACEMENT_CONTENT),
                                                (_two_byte_font, TWO_BYTE_CONTENT)])
def test_placement_tables_give_exactly_what_decode_gives(make_font, content):
    font = make_font("Real")
    slow = _DecodeOnly(font)
    res = pdf({"/Font": {"/S": {"/Type": "/Font", "/BaseFont": "/Real"}}})

    def glyphs_with(chosen):
        env = make_env()
        env.load_font = lambda font_dict, name: chosen
        return interpret(content, res, FLIP, env), env

    fast_glyphs, fast_env = glyphs_with(font)
    slow_glyphs, slow_env = glyphs_with(slow)
    assert len(fast_glyphs) > 10
    assert [tuple(g) for g in fast_glyphs] == [tuple(g) for g in slow_glyphs]   # bit for bit
    assert fast_env.undecodable == slow_env.undecodable > 0
    assert fast_env.warnings == slow_env.warnings
    assert fast_env.budget.glyphs == slow_env.budget.glyphs


def test_placement_tables_stay_bounded(monkeypatch):
    from glyphline.content import interpreter
    font = _simple_font("Real")
    res = pdf({"/Font": {"/S": {"/Type": "/Font", "/BaseFont": "/Real"}}})
    content = b"BT " + b" ".join(b"/S %d Tf 1 0 0 1 72 %d Tm (ab) Tj" % (size, 15 * size)
                                 for size in range(1, 40)) + b" ET"   # 39 text states

    def glyphs(limit):
        monkeypatch.setattr(interpreter, "MAX_PLACEMENT_STATES", limit)
        env = make_env()
        env.load_font = lambda font_dict, name: font
        return [tuple(g) for g in interpret(content, res, FLIP, env)]

    assert glyphs(3) == glyphs(10_000)
    assert len(glyphs(3)) == 78
