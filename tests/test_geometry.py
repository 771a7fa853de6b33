"""Geometry of glyphs through the whole pipeline (issue 10, class 7): the visible box, raised
and lowered text, vertical CMaps, rotated lines of different sizes, fullwidth Latin. Every
PDF is made here with tests/pdfbuilder.py."""
from __future__ import annotations

import pytest
from pdfbuilder import PdfBuilder

import glyphline
from glyphline.extract import extract_text


def text_of(data: bytes) -> str:
    return extract_text(data).text.strip()


def lines_of(data: bytes) -> list[str]:
    """The page's lines as the preserve mode prints them, blank lines left out."""
    return [line.strip() for line in extract_text(data, mode="preserve").text.splitlines() if line.strip()]


# ---------------------------------------------------------------- fullwidth Latin

FULLWIDTH = "ＷｉｎｄｏｗｓＸＰ第３章"


def fullwidth_page(codes: bytes) -> bytes:
    """A Type0 font whose 2-byte code n is the n-th character of FULLWIDTH (1 em wide)."""
    b = PdfBuilder()
    font = b.font_type0({i + 1: ch for i, ch in enumerate(FULLWIDTH)}, dw=1000)
    b.page(b"BT /F0 10 Tf 72 700 Td " + codes + b" TJ ET", fonts={"F0": font})
    return b.build()


def codes(*numbers: int) -> bytes:
    return b"<" + b"".join(b"%04x" % n for n in numbers) + b">"


def test_fullwidth_latin_words_keep_the_gap_between_them():
    # "Ｗｉｎｄｏｗｓ" and "ＸＰ" set solid, a third of an em apart (no space glyph), then "第３章"
    # after the same gap: the two Latin words are spaced; next to an ideograph a fullwidth
    # letter attaches as CJK text does (a justified line opens such gaps everywhere)
    array = b"[" + codes(1, 2, 3, 4, 5, 6, 7) + b" -333 " + codes(8, 9) + b" -333 " + codes(10, 11, 12) + b"]"
    assert text_of(fullwidth_page(array)) == "Ｗｉｎｄｏｗｓ ＸＰ第３章"


def test_fullwidth_latin_set_solid_stays_one_word():
    array = b"[" + codes(1, 2, 3, 4, 5, 6, 7, 8, 9) + b"]"
    assert text_of(fullwidth_page(array)) == "ＷｉｎｄｏｗｓＸＰ"



def wrapped_fullwidth_page(line_codes: list[bytes]) -> bytes:
    """FULLWIDTH and a space (code 13) in a Type0 font, one line per string, 12 pt apart."""
    b = PdfBuilder()
    font = b.font_type0({**{i + 1: ch for i, ch in enumerate(FULLWIDTH)}, 13: " "}, dw=1000)
    shows = b" 0 -12 Td ".join(codes_ + b" Tj" for codes_ in line_codes)
    b.page(b"BT /F0 10 Tf 12 TL 72 700 Td " + shows + b" ET", fonts={"F0": font})
    return b.build()


def test_fullwidth_latin_wrapped_after_a_space_glyph_keeps_the_word_break():
    # fullwidth Latin wraps like CJK, between any two cells: "Ｗｉｎｄｏ|ｗｓ" is one word broken by
    # the measure; a line that ends in a space glyph ("ｗｓ |ＸＰ") breaks between two words
    page = wrapped_fullwidth_page([codes(1, 2, 3, 4, 5), codes(6, 7, 13), codes(8, 9)])
    assert text_of(page) == "Ｗｉｎｄｏｗｓ ＸＰ"

# ---------------------------------------------------------------- vertical CMaps

def vertical_font(b: PdfBuilder, encoding) -> object:
    """A Type0 font over a CIDFontType2 with the Adobe-Japan1 collection: 1 em wide, the
    default vertical metrics (DW2: one em down)."""
    cid = b.add({"Type": "/Font", "Subtype": "/CIDFontType2", "BaseFont": "/TestMincho",
                 "CIDSystemInfo": {"Registry": b"Adobe", "Ordering": b"Japan1", "Supplement": 6},
                 "FontDescriptor": b.font_descriptor("TestMincho", 880, -120), "DW": 1000})
    return b.add({"Type": "/Font", "Subtype": "/Type0", "BaseFont": "/TestMincho",
                  "Encoding": encoding, "DescendantFonts": [cid]})


def column_page(encoding_of, string: bytes) -> list:
    b = PdfBuilder()
    font = vertical_font(b, encoding_of(b))
    b.page(b"BT /F0 20 Tf 300 700 Td " + string + b" Tj ET", fonts={"F0": font}, media_box=(0, 0, 400, 800))
    return [g for g in glyphline.open(b.build()).page(0).glyphs]


EMBEDDED_V = (b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Test-V def "
              b"/Identity-V usecmap endcmap CMapName currentdict /CMap defineresource pop end end")


def test_embedded_cmap_using_identity_v_writes_down_the_page():
    # an embedded CMap that only says "/Identity-V usecmap" inherits its parent's vertical
    # writing: 30 glyphs one em apart would run 600 pt off a 400 pt wide page if read across
    glyphs = column_page(lambda b: b.stream(EMBEDDED_V, {"Type": "/CMap", "CMapName": "/Test-V"}),
                         b"<" + b"034b" * 30 + b">")          # CID 843: あ in Adobe-Japan1
    assert len(glyphs) == 30 and {g.text for g in glyphs} == {"あ"}
    assert all(g.vertical for g in glyphs)
    assert {round(g.x, 3) for g in glyphs} == {300.0}
    assert [round(b.y - a.y, 3) for a, b in zip(glyphs, glyphs[1:])] == [20.0] * 29


def test_predefined_jis_cmap_named_v_is_vertical():
    # the ISO-2022-JP CMap "V" has no "-V" suffix; its WMode says it writes down
    glyphs = column_page(lambda b: "/V", b"<2422242424262428242a>")   # あいうえお in JIS X 0208
    assert "".join(g.text for g in glyphs) == "あいうえお"
    assert all(g.vertical for g in glyphs)
    assert [round(b.y - a.y, 3) for a, b in zip(glyphs, glyphs[1:])] == [20.0] * 4


# ---------------------------------------------------------------- lines of different sizes

@pytest.mark.parametrize("matrix", [b"1 0 0 1", b"0 1 -1 0", b"0 -1 1 0"], ids=["upright", "up", "down"])
def test_lines_of_different_sizes_that_overlap_stay_apart(matrix):
    # a 20 pt title and an 8 pt line whose baseline is 4 pt below it, over the same stretch:
    # both are within half the title's box height of each other's baseline, but they overlap
    # along the line on different baselines, so they are two lines, not one interleaved line
    b = PdfBuilder()
    content = (b"BT /F1 20 Tf " + matrix + b" 200 400 Tm (BIG TITLE) Tj "
               b"/F1 8 Tf " + matrix + b" %s Tm (small text below it) Tj ET")
    below = {b"1 0 0 1": b"200 396", b"0 1 -1 0": b"204 400", b"0 -1 1 0": b"196 400"}[matrix]
    b.page(content % below, fonts={"F1": b.font_type1("Helvetica")})
    assert text_of(b.build()).split() == ["BIG", "TITLE", "small", "text", "below", "it"]


def test_superscript_beside_its_word_still_joins_the_line():
    b = PdfBuilder()
    b.page(b"BT /F1 10 Tf 72 700 Td (E = mc) Tj /F1 7 Tf 3.5 Ts (2) Tj /F1 10 Tf 0 Ts ( holds.) Tj ET",
           fonts={"F1": b.font_type1("Helvetica")})
    assert text_of(b.build()) == "E = mc2 holds."


# ---------------------------------------------------------------- text rise

def rise_page(content: bytes) -> bytes:
    b = PdfBuilder()
    b.page(content, fonts={"F1": b.font_type1("Helvetica")})
    return b.build()


def test_superscript_raised_a_full_em_by_ts_joins_its_line():
    # pdf.js text_rise_eol_bug: the 8 pt "2" raised 12 pt over 12 pt text sits wholly above
    # the line's box, yet Ts says it is a superscript of that line
    data = rise_page(b"BT /F1 12 Tf 100 700 Td (E = mc) Tj 12 Ts /F1 8 Tf (2) Tj 0 Ts /F1 12 Tf "
                     b"( is the mass-energy equivalence.) Tj 0 -30 Td (Next line.) Tj ET")
    assert lines_of(data) == ["E = mc2 is the mass-energy equivalence.", "Next line."]


def test_subscript_lowered_by_ts_joins_its_line():
    data = rise_page(b"BT /F1 10 Tf 100 700 Td (Water is H) Tj -9 Ts /F1 7 Tf (2) Tj 0 Ts /F1 10 Tf "
                     b"(O.) Tj 0 -14 Td (Below.) Tj ET")
    assert lines_of(data) == ["Water is H2O.", "Below."]


def test_line_drawn_whole_with_a_rise_is_still_its_own_line():
    # Ts on every glyph of a line (a producer's way to place it): the line starts back at the
    # margin, so it has no stream neighbour on the line before and keeps its painted place
    # (unraised it would fall 28 pt below "Third line.", painted it lies between the two)
    data = rise_page(b"BT /F1 10 Tf 100 700 Td (The first line of text.) Tj 0 -30 Td (The third line of text.) Tj "
                     b"43 Ts 0 -28 Td (The raised line of text.) Tj ET")
    assert lines_of(data) == ["The first line of text.", "The raised line of text.", "The third line of text."]


WORDS_WIDTH = 8.332   # "Adjunta lo requerido" in Times-Roman, in em


def test_footnote_mark_placed_with_its_own_text_matrix_joins_its_word():
    # bug1815476 (LiveCycle): the 8 pt "6" gets its own Tm 5.5 pt up (0.46 em: more than half
    # the 12 pt line's box), the period another Tm back on the baseline; no Ts anywhere
    b = PdfBuilder()
    b.page(b"BT /F1 12 Tf 1 0 0 1 72 700 Tm (Adjunta lo requerido) Tj "
           b"/F1 8.04 Tf 1 0 0 1 %.3f 705.52 Tm (6) Tj /F1 12 Tf 1 0 0 1 %.3f 700 Tm (. Salamanca) Tj ET"
           % (72 + WORDS_WIDTH * 12, 72 + WORDS_WIDTH * 12 + 0.5 * 8.04),
           fonts={"F1": b.font_type1("Times-Roman")})
    assert lines_of(b.build()) == ["Adjunta lo requerido6. Salamanca"]


def test_small_label_below_a_large_line_is_not_set_into_it():
    # pdfminer font-size-test: a 5 pt "5" under the 28 pt "Arial font", at the same x, its box
    # wholly below the large line's baseline though its baseline is within half that line's box
    b = PdfBuilder()
    b.page(b"BT /F1 28 Tf 72 700 Td (Arial font) Tj ET BT /F1 5 Tf 72 687.5 Td (5) Tj ET",
           fonts={"F1": b.font_type1("Helvetica")})
    assert lines_of(b.build()) == ["Arial font", "5"]


def test_a_line_beside_a_large_number_does_not_interleave_with_the_small_line_above_it():
    # prefilled_f1040: a 24 pt "1040", the 6 pt "Department of the Treasury" drawn right after
    # it (within half its box of its baseline, so on its line), and under that small line the
    # 12 pt title with a 20 pt "2010" (near the number's baseline): the title overlaps the small
    # line along the line, on another baseline, so the two never interleave their letters
    b = PdfBuilder()
    b.page(b"BT /F2 24 Tf 50 700 Td (1040 ) Tj /F1 6 Tf 58.4 9.26 Td (Department of the Treasury) Tj ET "
           b"BT /F2 12 Tf 108.4 696.91 Td (U.S. Individual Income Tax Return) Tj "
           b"/F2 20 Tf 205 1.95 Td (2010) Tj ET",
           fonts={"F1": b.font_type1("Helvetica"), "F2": b.font_type1("Helvetica-Bold")})
    text = text_of(b.build())
    assert "1040 Department of the Treasury" in text and "U.S. Individual Income Tax Return 2010" in text


# ---------------------------------------------------------------- text drawn over text

def helvetica_page(content: bytes) -> str:
    b = PdfBuilder()
    b.page(content, fonts={"F1": b.font_type1("Helvetica")})
    return text_of(b.build())


def test_text_drawn_over_the_end_of_another_on_its_baseline_keeps_both_words_whole():
    # pdf.js issue 14821: "text91" starts 7.8 pt (0.78 em) before "text90" ends, on its baseline;
    # sorted along the line together their letters read "text9t0ext91"
    assert helvetica_page(b"BT /F1 10 Tf 100 700 Td (text90) Tj 19.44 0 Td (text91) Tj "
                          b"52.27 0 Td (text92) Tj ET").split() == ["text90", "text91", "text92"]
    # a letter kerned back by a third of an em is still part of its word
    assert helvetica_page(b"BT /F1 10 Tf 100 700 Td [(Wo) 330 (rd)] TJ ET") == "Word"


def test_a_space_under_the_next_character_is_no_text_drawn_over():
    # XiaoBiaoSong: each fullwidth digit (1 em) shown with a trailing space (0.5 em), the next
    # one placed about half an em on, over the digit and its space: one glyph with ink over
    # another, and a space has none, so this is no second text and "１１１" stays one number
    b = PdfBuilder()
    font = b.font_type0({1: "１", 2: " "}, w=[2, [500]])
    b.page(b"BT /F1 10 Tf 100 700 Td <00010002> Tj 4.5 0 Td <00010002> Tj 4.5 0 Td <00010002> Tj ET",
           fonts={"F1": font})
    assert text_of(b.build()) == "１１１"


def test_letters_of_a_font_whose_widths_overstate_them_are_no_text_drawn_over():
    # pdfjs issue7074: every advance 1 em, each letter placed 0.55 em after the one before
    # (its pen moves forward from each origin), then a kern back under the last advance
    b = PdfBuilder()
    font = b.font_truetype("TestWide", widths=[1000] * 95, first_char=32)
    b.page(b"BT /F1 9 Tf 50 700 Td [(G) 450 (r) 610 (a) 450 (d) 450 (u) 450 (a) 450 (t) 450 (e) 450 (s)] TJ ET",
           fonts={"F1": font})
    assert text_of(b.build()) == "Graduates"


def test_a_notice_printed_over_a_header_line_does_not_interleave_with_it():
    # i1040nr: a 9.64 pt notice drawn later across the 10 pt "Internal Revenue Service", on
    # (almost) its baseline: two texts, each read whole in drawing order
    text = helvetica_page(b"BT /F1 10 Tf 50 700 Td (Internal Revenue Service) Tj ET "
                          b"BT /F1 9.64 Tf 60 700.5 Td (You owe the additional tax) Tj ET")
    assert text.split() == "Internal Revenue Service You owe the additional tax".split()


def test_a_word_painted_again_over_itself_comes_out_once():
    # "important" drawn a second time in red over the line, at its place or 0.3 pt off (shadow)
    for shift in (b"0", b"0.3"):
        text = helvetica_page(b"BT /F1 10 Tf 50 700 Td (This is important) Tj ET 1 0 0 rg "
                              b"BT /F1 10 Tf 1 0 0 1 81.67 700 Tm " + shift + b" 0 Td (important) Tj ET")
        assert text == "This is important"


# ---------------------------------------------------------------- the visible box

def cropped_page(crop_right: float, crop_top: float = 792) -> str:
    """ "AB" at 20 pt in a font whose glyphs are 10 pt wide and 20 pt high (ascent 800, descent
    -200): "A" spans x 100–110, "B" 110–120, both y 696–716 in PDF space."""
    b = PdfBuilder()
    font = b.font_truetype("TestMono", widths=[500] * 95, first_char=32)
    b.page(b"BT /F1 20 Tf 100 700 Td (AB) Tj ET", fonts={"F1": font},
           media_box=(0, 0, 612, 792), crop_box=(0, 0, crop_right, crop_top))
    return "".join(g.text for g in glyphline.open(b.build()).page(0).glyphs)


def test_glyph_cut_near_its_middle_by_the_cropbox_is_kept():
    # the edge at 114.6 leaves 46 % of "B" inside: its box centre (115) is 0.02 em outside
    assert cropped_page(114.6) == "AB"
    # the top edge at 704.6 leaves 43 % of the box height inside: the centre (706) is 0.07 em above
    assert cropped_page(612, 704.6) == "AB"


def test_glyph_mostly_outside_the_cropbox_is_dropped():
    # the edge at 112.5 leaves a quarter of "B" inside: its centre is 0.125 em outside
    assert cropped_page(112.5) == "A"
    # the top edge at 703.4 leaves 37 % of the box height: the centre (706) 0.13 em above it
    assert cropped_page(612, 703.4) == ""
