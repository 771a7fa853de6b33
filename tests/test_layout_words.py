"""Lines and words: glyph lists in, exact text out."""
from __future__ import annotations

import random

from test_layout_support import SIZE, blocks, glyph, paragraph, reflow, run

from pdfbuilder import PdfBuilder

from glyphline.extract import extract_text
from glyphline.glyph import Glyph
from glyphline.layout import analyze_page
from glyphline.layout.words import WORD_GAP_HEIGHTS


def test_words_from_positioning_only_no_space_glyphs():
    # peers.md §2 case 1: Td per word, no space glyphs
    assert reflow(run("Reporting crude oil leak.", 72, 100)) == "Reporting crude oil leak."


def test_tj_kerning_inside_a_word_is_not_a_space():
    glyphs = []
    x = 72.0
    for ch in "Waterway":
        glyphs.append(glyph(ch, x, 100))
        x += 5.0 - 0.4  # kerning pulls each glyph 0.04 em closer
    glyphs.append(glyph("s", x + 0.4, 100))  # and a small +0.04 em gap
    assert reflow(glyphs) == "Waterways"


def test_gap_is_measured_from_the_font_advance_end_not_the_pen():
    # Tw stretched the pen (advance) but the font's own advance ends where the glyph does
    a = Glyph("a", 72, 100, 77, 100, 9.0, 1, 0, 12, 2.5, 10, "Body")
    b = Glyph("b", 77 + 0.1 * 12 * WORD_GAP_HEIGHTS, 100, 82, 100, 5, 1, 0, 12, 2.5, 10, "Body")
    c = Glyph("c", 82 + 4.0, 100, 87, 100, 5, 1, 0, 12, 2.5, 10, "Body")
    assert reflow([a, b, c]) == "ab c"


def test_explicit_space_glyph_gives_exactly_one_space():
    glyphs = run("two", 72, 100) + [glyph(" ", 87, 100)] + run("words", 95, 100)
    assert reflow(glyphs) == "two words"


def test_letter_spaced_heading_uses_its_own_gap_statistics():
    # peers.md §2 case 2: every glyph apart (tracking 0.3 em), words 1 em apart
    glyphs = run("SUMMARY OF RESULTS", 72, 100, tracking_em=0.3, space_em=1.0)
    assert reflow(glyphs) == "SUMMARY OF RESULTS"


def test_letters_a_word_space_apart_are_not_one_tracked_word():
    # pdfTeX's table of accented letters: 28 letters, each 0.33 em after the last (a TJ kern
    # of -331 between every two), no wider gap anywhere: not a 28-letter letter-spaced word
    # (LETTER_SPACED_MAX_WORD); a tracked title with the same spacing still joins up
    letters = "àÀâÂäÄçÇéÉèÈêÊëËîÎïÏôÔùÙûÛüÜ"
    b = PdfBuilder()
    font = b.font_type1("Times-Roman", encoding="/WinAnsiEncoding")
    row = b"".join(b"(" + ch.encode("cp1252") + b")-331" for ch in letters)
    title = b"".join(b"(" + ch.encode("ascii") + b")-331" for ch in "SUMMARY")
    b.page(b"BT /F1 11 Tf 72 700 Td [" + row + b"] TJ 0 -40 Td [" + title + b"] TJ ET", fonts={"F1": font})
    assert extract_text(b.build()).text.split("\n\n") == [" ".join(letters), "SUMMARY\n"]


def test_a_row_of_circled_numbers_evenly_spaced_is_no_tracked_word():
    # standard_fonts.pdf: ZapfDingbats' circled digits (codes 0xAC-0xB5), 0.4 em apart in a
    # chart of the font: symbols, not the letters or digits of a tracked word
    b = PdfBuilder()
    row = b"".join(b"<%02X>-400" % code for code in range(0xAC, 0xB6))
    b.page(b"BT /F1 16 Tf 52 300 Td [" + row + b"] TJ ET", fonts={"F1": b.font_type1("ZapfDingbats")})
    assert extract_text(b.build()).text.split() == [chr(0x2460 + i) for i in range(10)]


def test_codes_the_encoding_leaves_out_take_no_room_in_a_standard_font():
    # two-byte codes shown with a simple Helvetica (no /Widths): every 0x00 byte is an
    # unencoded code, drawn as .notdef with /MissingWidth 0 as poppler does, not the AFM's
    # default 0.556 em that spread the letters apart
    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    codes = "".join("00%02X" % ord(ch) for ch in "DEFGHIJKLMNOPQRSTUVWXYZ")
    b.page(b"BT /F1 10 Tf 50 50 Td <" + codes.encode() + b"> Tj ET", fonts={"F1": font})
    assert extract_text(b.build()).text == "DEFGHIJKLMNOPQRSTUVWXYZ\n"


def test_a_space_its_differences_make_notdef_keeps_the_standard_width():
    # Differences [32 /.notdef] on a non-embedded Times-Roman: the code keeps the width the
    # built-in encoding gives it (the space's 0.25 em), so the words stay apart and on the page
    b = PdfBuilder()
    encoding = b.add({"Type": "/Encoding", "Differences": [32, "/.notdef"]})
    font = b.font_type1("Times-Roman", encoding=encoding)
    b.page(b"BT 10 20 Td /F1 10 Tf (Words that should have spaces between them.) Tj ET",
           fonts={"F1": font}, media_box=(0, 0, 200, 50))
    assert extract_text(b.build()).text == "Words that should have spaces between them.\n"


def test_justified_line_with_wide_word_gaps_stays_one_line():
    glyphs = run("Wide gaps in a justified line", 72, 100, space_em=1.6)
    assert reflow(glyphs) == "Wide gaps in a justified line"


def test_no_space_between_cjk_characters_but_latin_keeps_its_spaces():
    # peers.md §2 case 3: Chinese with TJ gaps; mixed CJK + Latin
    glyphs = run("清晨的菜市场", 72, 100, tracking_em=0.3) + run("IVRS test", 140, 100)
    assert reflow(glyphs) == "清晨的菜市场 IVRS test"


def test_glyphs_drawn_out_of_order_are_sorted_along_the_line():
    glyphs = run("Glyphs drawn in any order", 72, 100)
    random.Random(7).shuffle(glyphs)
    assert reflow(glyphs) == "Glyphs drawn in any order"


def test_superscripts_and_subscripts_stay_on_their_line():
    m = run("10 m", 72, 100)
    sup = [glyph("3", 72 + 4 * 5.0 + 0.5 * 10 * 0.3 - 3, 96.5, size=7)]
    co = run("CO", 72, 112)
    sub = [glyph("2", 82, 114, size=7)]
    text = reflow(m + sup + co + sub)
    assert text == "10 m3 CO2"


def test_raised_footnote_number_at_line_start_is_its_own_word_and_block():
    body = run("Body text ends here.", 72, 100)
    note = [glyph("1", 72, 696, size=6)] + run("The scheme was first proposed.", 75.5, 700, size=8)
    assert reflow(body + note).split("\n\n") == ["Body text ends here.", "1 The scheme was first proposed."]


def test_raised_number_before_a_number_marks_only_its_own_digits():
    # pypdf example.pdf: a 6 pt "1" raised before "2021 estimate" (a chart legend): the
    # footnote mark is the small raised digit, not the year's first digits ("1 20 21")
    glyphs = [glyph("1", 72, 96, size=6)] + run("2021 estimate", 76, 100)
    assert reflow(glyphs) == "1 2021 estimate"


def test_a_mark_drawn_over_a_letter_pulls_no_text_into_its_run():
    # issue13211: a vector arrow (8 pt, raised 5.5 pt) drawn over "u" is no superscript: it
    # opens its own stream run, and the 12 pt text after it does not continue that run
    from glyphline.layout.lines import _stream_runs
    glyphs = run("is u", 72, 100, size=12) + [glyph("\u2192", 88, 94.5, size=8)] + run("and more", 96, 100, size=12)
    glyphs = [g._replace(height=0.9 * g.size) for g in glyphs]   # a Times-like box: 5.5 pt is over half of it
    runs = ["".join(item[2].text for item in r.items) for r in _stream_runs(glyphs)]
    assert "\u2192" in runs and any(r.startswith("and") for r in runs)


def test_mixed_fonts_inside_a_word_do_not_split_it():
    glyphs = run("Bold", 72, 100, font="Serif-Bold") + run("face", 92, 100, font="Serif")
    assert reflow(glyphs) == "Boldface"


def test_hebrew_painted_in_visual_order_comes_out_in_logical_order():
    logical = ["שלום", "עולם"]
    visual = " ".join(w[::-1] for w in reversed(logical))   # as painted left to right
    assert reflow(run(visual, 72, 100)) == "שלום עולם"


def test_rotated_line_reads_along_its_own_direction():
    # text rotated 90° counter-clockwise: written upwards on the page
    glyphs = run("Margin label", 40, 500, dx=0.0, dy=-1.0)
    assert reflow(glyphs) == "Margin label"


def test_text_at_45_degrees_reads_as_one_line():
    c = 2 ** -0.5
    glyphs = run("DRAFT COPY", 200, 500, dx=c, dy=-c)
    assert reflow(glyphs) == "DRAFT COPY"


def test_soft_hyphen_inside_a_word_is_removed():
    glyphs = run("co\u00adoperate", 72, 100)
    assert reflow(glyphs) == "cooperate"


def test_char_count_counts_visible_characters():
    layout = analyze_page(run("abc de", 72, 100), 612, 792, 1)
    assert layout.char_count == 5


def test_word_boxes_cover_their_glyphs():
    layout = analyze_page(run("box", 72, 100), 612, 792, 1)
    word = layout.blocks[0].lines[0].words[0]
    assert word.x0 == 72 and abs(word.x1 - (72 + 3 * 0.5 * SIZE)) < 1e-9
    assert word.y0 < 100 < word.y1


def test_footnote_number_set_flush_at_the_page_bottom_is_cut_from_its_text():
    # LibreOffice sets "1The letters…" in the footnote size, number and text on one baseline
    body = paragraph([f"Body text line {i} about the archive and its boxes." for i in range(4)],
                     62, 100, size=11, pitch=15.8)
    notes = run("1The letters are held in the county archive.", 62, 783, size=9)
    notes += run("2A replacement belt was fitted in 1987.", 62, 797, size=9)
    out = blocks(body + notes)
    assert out[-2:] == ["1 The letters are held in the county archive.",
                        "2 A replacement belt was fitted in 1987."]


def test_number_glued_to_a_capital_in_body_text_stays_one_word():
    # the same pattern in body-size text is a word of its own ("3D"), not a footnote
    body = paragraph(["We printed the 3D model and", "the 2Pac poster last week."], 62, 100, size=11)
    assert reflow(body) == "We printed the 3D model and the 2Pac poster last week."


def test_tightened_line_measures_word_gaps_from_its_own_letter_gap():
    # Word squeezes a line with a negative Tc: every letter gap is -0.17 pt and the word gaps
    # shrink to 1.58 pt, just under the plain threshold (0.14 × the 12 pt box); measured from
    # the line's letter gap they are still clearly word gaps
    glyphs = run("medical history of diabetes and more", 72, 100, size=10,
                 tracking_em=-0.017, space_em=0.175)
    assert 0.175 * 10 - 0.17 < WORD_GAP_HEIGHTS * 12.0 < 0.175 * 10   # below the plain threshold
    assert reflow(glyphs) == "medical history of diabetes and more"


# --- spacing in forms, grids and tables ------------------------------------------------------

def test_space_glyph_painted_over_a_letter_does_not_split_the_word():
    # a tax form pads its labels with spaces drawn on top of the text, a little lower:
    # "F orm" and "1 8" when the space glyph is taken as a word space
    label = run("Form", 72, 100) + [glyph(" ", 72, 100.7, advance=2.8)]
    number = run("18", 140, 100) + [glyph(" ", 140, 100.9, advance=2.8)]
    assert reflow(label + number) == "Form 18"


def test_space_glyph_drawn_across_two_letters_does_not_split_the_word():
    glyphs = run("annuities", 72, 100)
    glyphs.insert(2, glyph(" ", 72 + 2 * 5.0 - 1.2, 99.0, advance=2.5))   # over the "n|n" join
    assert reflow(glyphs) == "annuities"


def test_padding_space_over_the_first_digit_keeps_a_right_aligned_number_whole():
    # "   851.5": three padding spaces before the number, the fourth drawn over its "8"
    pad = [glyph(" ", 100 + 2.1 * k, 100, advance=2.1) for k in range(3)]
    number = run("851.5", 106.3, 100)
    glyphs = run("Total", 72, 100) + pad + number[:1] + [glyph(" ", 106.31, 100, advance=2.1)] + number[1:]
    assert reflow(glyphs) == "Total 851.5"


def test_zero_advance_space_does_not_split_a_number():
    number = run("851.5", 106, 100)
    glyphs = number[:1] + [glyph(" ", 111, 100, advance=0.0)] + number[1:]
    assert reflow(glyphs) == "851.5"


def test_space_glyph_in_a_gap_still_separates_even_with_tight_tracking():
    # tracking of -0.05 em pulls the space over the end of "two" and the next word over the end
    # of the space: 40 % of the space is covered, and it is still a space
    glyphs = run("two", 72, 100, tracking_em=-0.05)
    glyphs += [glyph(" ", 85.5, 100, advance=2.5)] + run("words", 87.5, 100, tracking_em=-0.05)
    assert reflow(glyphs) == "two words"


def test_grid_of_single_characters_is_one_word_per_cell():
    # a character table: every cell 1.4 em from the next, wider than any letter spacing
    glyphs = [glyph(ch, 54 + 31.9 * k, 100, size=16) for k, ch in enumerate("àáâãäåæçèéêë")]
    assert reflow(glyphs) == "à á â ã ä å æ ç è é ê ë"


def test_digits_far_apart_along_a_border_stay_apart():
    glyphs = [glyph(d, 40 + 120 * k, 100) for k, d in enumerate("12345")]
    assert reflow(glyphs) == "1 2 3 4 5"


def test_grid_of_hangul_syllables_keeps_its_cells_apart_but_words_whole():
    cells = [glyph(ch, 72 + 24 * k, 100) for k, ch in enumerate("가나다라마")]
    word = run("한국어", 72, 130, tracking_em=0.02)
    # (cells 1.9 em apart; the word's syllables 0.02 em apart, no space between CJK)
    assert reflow(cells + word) == "가 나 다 라 마\n\n한국어"


def test_dot_leader_does_not_make_a_toc_entry_letter_spaced():
    # LaTeX leaders: dots 0.44 em apart, wider than a word space; the entry's own words keep
    # their spaces and the dots do not glue them ("Researchquestion......12")
    title = run("1.1 Research question", 72, 100)
    dots = [glyph(".", 190 + 5.26 * k, 100, advance=3.0) for k in range(40)]
    page = run("12", 410, 100)
    assert reflow(title + dots + page) == "1.1 Research question " + " ".join("." * 40) + " 12"


def test_chart_of_jamo_evenly_spaced_is_not_a_letter_spaced_word():
    # a hangul jamo chart: square glyphs 0.44 em apart on a grid, every gap alike
    glyphs = [glyph(ch, 10 + 23.04 * k, 45, size=16, advance=16) for k, ch in enumerate("ㄱㅁㅑㅡㅱㆁ")]
    assert reflow(glyphs) == "ㄱ ㅁ ㅑ ㅡ ㅱ ㆁ"


def test_space_after_a_word_stays_when_the_next_word_is_drawn_over_it():
    # overlapping form fields: "necessary " ends with its own space, and the next field's
    # "to" starts 0.65 pt after the "y", over that space: still two words
    glyphs = run("necessary", 70.28, 100) + [glyph(" ", 115.28, 100, advance=6.0)] + run("to", 115.93, 100, size=9)
    assert reflow(glyphs) == "necessary to"


def test_larger_space_from_the_line_above_over_a_letter_join_does_not_split_the_word():
    # a form's 14 pt space, 6 pt higher, starts 16 % inside "q" and ends inside "u": "q ue"
    glyphs = run("Je demande", 50, 100, size=12)
    glyphs += run("que", 111.0, 100, size=12) + [glyph(" ", 116.43, 93.65, size=14, advance=3.51)]
    assert reflow(glyphs) == "Je demande que"


def test_a_lone_space_of_another_text_between_two_letters_does_not_split_the_word():
    # an IRS form draws a line number's trailing space where it falls 0.14 pt inside the "i" of
    # "lines" (6 % of the space) and under the "n": it is not the word's own space, which would
    # start where the "i" left the pen, so it does not split "li nes"
    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    i_end = 72 + (667 + 556 + 556 + 278 + 222 + 222) * 9 / 1000
    b.page(b"BT /F1 9 Tf 72 100 Td (Add lines 44) Tj ET "
           b"BT /F1 9 Tf %.3f 100 Td ( ) Tj ET" % (i_end - 0.14), fonts={"F1": font})
    assert extract_text(b.build()).text == "Add lines 44\n"


def test_a_space_of_another_text_below_the_line_at_a_letters_pen_does_not_split_the_word():
    # a French form (pdf.js issue6127) draws a 12 pt text's spaces 4 pt below a 10 pt line: the
    # second starts a hair before where the "n" of "conserver" left the pen, under the "s".
    # Along the line it is at that pen, but not on its baseline: no word space ("con server")
    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    n_end = 72 + (500 + 556 + 556) * 10 / 1000
    space = 278 * 12 / 1000
    b.page(b"BT /F1 10 Tf 72 100 Td (conserver) Tj ET "
           b"BT /F1 12 Tf %.3f 96 Td (  ) Tj ET" % (n_end - 0.01 - space), fonts={"F1": font})
    assert extract_text(b.build()).text == "conserver\n"


def test_a_thin_space_between_fonts_of_different_box_heights_is_measured_by_the_smaller_box():
    # TeX math: "dfA(w, 1)" sets a thin space (1/6 em) after a math-italic comma (box 1 em)
    # before a roman digit (box 1.22 em); the comma's own box tells the gap a word space
    b = PdfBuilder()
    italic = b.font_type1("MathItalic", widths=[500] * 91, ascent=750, descent=-250)
    roman = b.font_type1("MathRoman", widths=[500] * 91, ascent=950, descent=-270)
    b.page(b"BT /FI 10 Tf 72 700 Td (w,) Tj /FR 10 Tf [-166.7 (1)] TJ ET", fonts={"FI": italic, "FR": roman})
    assert extract_text(b.build()).text == "w, 1\n"


def test_a_superscript_a_little_apart_from_its_base_is_measured_by_the_base():
    # "T²" in a topology text: the 7 pt exponent starts 1 pt after the 10 pt "T" (kerned by
    # the italic correction); by the exponent's own box that would be a word space
    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    b.page(b"BT /F1 10 Tf 72 700 Td (Torus T) Tj /F1 7 Tf 4 Ts [-142.9 (2)] TJ 0 Ts /F1 10 Tf (.) Tj ET",
           fonts={"F1": font})
    assert extract_text(b.build()).text == "Torus T2.\n"


def test_a_smaller_text_set_beside_a_larger_one_is_measured_in_its_own_size():
    # a stock quote: the 12.4 pt change starts 2.5 pt after the 20 pt price, its baseline 2.5 pt
    # (0.125 em of the price) higher: no superscript, and 2.5 pt is a word space at 12.4 pt
    # (0.2 em) though not at 20 pt (0.125 em)
    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    b.page(b"BT /F1 20 Tf 72 700 Td (12.14) Tj ET "
           b"BT /F1 12.44 Tf %.2f 702.5 Td (-0.11 \\(-0.90%%\\)) Tj ET" % (72 + 2.5 + 20 * 2.502),
           fonts={"F1": font})
    assert extract_text(b.build()).text == "12.14 -0.11 (-0.90%)\n"


def test_a_period_drawn_later_inside_an_edited_word_is_read_after_the_word():
    # issue6127: "foyer" was typed over a shorter word (Acrobat TouchUp), and the sentence's
    # ". " drawn afterwards still stands where the old word ended, within the "y": read
    # "foyer.", not "foy. er" (the mark is drawn after the letters that follow it)
    b = PdfBuilder()
    fonts = {"F1": b.font_type1("Times-Roman")}
    # Times-Roman: "au sein du foy" is 0.5+0.5+0.25+0.389+0.444+0.278+0.5+0.25+0.5+0.5+0.25+0.333+0.5 em
    y_at = 72 + 10 * (0.5 + 0.5 + 0.25 + 0.389 + 0.444 + 0.278 + 0.5 + 0.25 + 0.5 + 0.5 + 0.25 + 0.333 + 0.5)
    content = (b"BT /F1 10 Tf 72 700 Td (au sein du foyer) Tj ET\n"
               b"BT /F1 10 Tf %.3f 700.6 Td (. ) Tj ET\n" % (y_at + 1.5))
    b.page(content, fonts=fonts)
    assert extract_text(b.build()).text.split() == ["au", "sein", "du", "foyer."]
    # drawn in stream order (a period kerned back into the letter before it) it keeps its place
    b = PdfBuilder()
    fonts = {"F1": b.font_type1("Times-Roman")}
    b.page(b"BT /F1 10 Tf 72 700 Td [(du foy) 350 (.) -100 (er)] TJ ET", fonts=fonts)
    assert extract_text(b.build()).text.split() == ["du", "foy.er"]


def _space_drawn_back_into_organisme(next_line: bytes) -> bytes:
    """ "son organisme" with its letters 0.13 em apart, the line's trailing space painted last
    back between the "s" and the "m" (0.04 em after the "s" ends, 68 % over the "m"), then
    `next_line` (text-showing operators) 12 pt lower."""
    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    widths = {"s": 500, "o": 556, "n": 556, "r": 333, "g": 556, "a": 556, "i": 222, "m": 833, "e": 556}
    s_end = 72 + sum(widths[c] for c in "son") * 10 / 1000 + 2.78 + 2 * 1.3 \
        + sum(widths[c] for c in "organis") * 10 / 1000 + 6 * 1.3
    shown = b" ".join(b"(%s) -130" % c.encode() for c in "son")
    shown += b" (\\040) " + b" ".join(b"(%s) -130" % c.encode() for c in "organisme")
    b.page(b"BT /F1 10 Tf 72 100 Td [" + shown + b"] TJ ET "
           b"BT /F1 10 Tf %.3f 100 Td ( ) Tj ET " % (s_end + 0.4)
           + b"BT /F1 10 Tf 72 88 Td " + next_line + b" ET", fonts={"F1": font})
    return b.build()


def test_a_trailing_space_drawn_back_inside_a_word_does_not_split_it():
    # a Word export of a justified French form (pdf.js issue6127) paints the line's trailing
    # space last, back inside "organisme" (under SPACE_COVERED_SHARE)
    pdf = _space_drawn_back_into_organisme(b"(de la maladie.) Tj")
    assert extract_text(pdf).text == "son organisme de la maladie.\n"


def test_a_space_drawn_back_that_text_goes_on_from_is_kept():
    # a run drawn back over the line, from its leading space: its space separates as ever
    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    b.page(b"BT /F1 10 Tf 120 100 Td (world) Tj ET BT /F1 10 Tf 72 100 Td (Hello) Tj ( ) Tj ET",
           fonts={"F1": font})
    assert extract_text(b.build()).text == "Hello world\n"


def test_right_to_left_text_drawn_in_logical_order_keeps_its_narrow_spaces():
    # Hebrew drawn letter by letter from the right: each glyph steps back from the one before,
    # a space too (it ends where the letter before it starts); a narrow space (0.16 em) is the
    # only thing that separates the words, so it must not be taken for a space drawn back
    from test_layout_support import glyph as g

    glyphs = [g("א", 100, 100, advance=5), g("ב", 95, 100, advance=5), g(" ", 93.4, 100, advance=1.6),
              g("ג", 88.4, 100, advance=5), g("ד", 83.4, 100, advance=5)]
    assert reflow(glyphs) == "אב גד"


def test_padding_spaces_interleaved_with_the_letters_of_a_word_do_not_split_it():
    # a filled form (pdf.js issue6127) paints a row of padding spaces interleaved with the end of
    # "obligatoire" (0.3 pt Tc): each space starts 0.3 pt inside the letter before it, the next
    # letter 0.3 pt after that letter's pen, not at the space's; the letters cover 78 % of the
    # space, under SPACE_COVERED_SHARE ("obligatoi r e")
    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    i_end = 72 + (556 + 556 + 222 + 222 + 556 + 556 + 278 + 556 + 222) * 10 / 1000 + 8 * 0.3
    r_x = i_end + 0.6
    r_end = r_x + 333 * 10 / 1000
    e_x = r_end + 0.6
    after = e_x + 556 * 10 / 1000 + 0.3
    b.page(b"BT /F1 10 Tf 0.3 Tc 72 100 Td (obligatoi) Tj ET "
           b"BT /F1 10 Tf 0.3 Tc %.3f 100 Td ( ) Tj ET BT /F1 10 Tf 0.3 Tc %.3f 100 Td (r) Tj ET "
           b"BT /F1 10 Tf 0.3 Tc %.3f 100 Td ( ) Tj ET BT /F1 10 Tf 0.3 Tc %.3f 100 Td (e) Tj ET "
           b"BT /F1 10 Tf 0.3 Tc %.3f 100 Td ( de la maladie) Tj ET"
           % (i_end - 0.3, r_x, r_end - 0.3, e_x, after), fonts={"F1": font})
    assert extract_text(b.build()).text == "obligatoire de la maladie\n"


def test_a_space_the_next_letter_starts_from_separates_words_however_close():
    # letters set on a grid (pdf.js issue6962, "TABLE OF CONTENTS"): the space starts inside the
    # "F" and the "C" starts near its pen, not near the "F"'s: a word space
    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    f_end = 72 + (778 + 611) * 13 / 1000
    space = 278 * 13 / 1000
    b.page(b"BT /F1 13 Tf 72 100 Td (OF) Tj ET BT /F1 13 Tf %.3f 100 Td ( ) Tj ET "
           b"BT /F1 13 Tf %.3f 100 Td (CONTENTS) Tj ET" % (f_end - 1.6, f_end - 1.6 + space - 0.25),
           fonts={"F1": font})
    assert extract_text(b.build()).text == "OF CONTENTS\n"


def test_a_space_drawn_back_is_dropped_on_a_page_with_a_ligature_glyph():
    # the page's ActualText ligature makes one glyph of two characters ("ff"): the spaces are
    # found glyph by glyph all the same, and the space drawn back over "organisme" is dropped
    pdf = _space_drawn_back_into_organisme(b"(an e) Tj /Span <</ActualText (ff)>> BDC (f) Tj EMC (ort.) Tj")
    assert extract_text(pdf).text == "son organisme an effort.\n"
