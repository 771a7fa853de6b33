"""Reading order and paragraphs: columns, tables, sidebars, headers, lists, vertical text."""
from __future__ import annotations

from test_layout_support import (ADVANCE_EM, PAGE_H, PAGE_W, SIZE, SPACE_EM, blocks, glyph, paragraph, reflow,
                                 run)

import pytest
from pdfbuilder import PdfBuilder

from glyphline.extract import extract_text
from glyphline.glyph import VERTICAL, Glyph
from glyphline.layout import analyze_page, collect_doc_stats
from glyphline.output.text import render_page

LOREM = [
    "the quick brown fox jumps over the",
    "lazy dog while the cat sleeps in the",
    "warm sun and the birds sing their",
    "songs from the old oak tree nearby.",
]


def column(tag: str, x: float, y: float, n: int = 4, pitch: float = 12.0, size: float = 10.0):
    return paragraph([f"{tag} {LOREM[i % 4]}" for i in range(n)], x, y, pitch, size=size)


def joined(tag: str, n: int = 4) -> str:
    return " ".join(f"{tag} {LOREM[i % 4]}" for i in range(n))


def test_two_columns_read_column_by_column_with_title_and_page_number():
    # peers.md §2 case 4; the columns share baselines, as LaTeX sets them
    title = run("A Title Across Both Columns", 150, 60, size=16, font="Bold")
    left = column("L", 72, 100, n=8)
    right = column("R", 320, 100, n=8)
    page_number = run("7", 300, 750)
    assert blocks(title + right + left + page_number) == [
        "A Title Across Both Columns", joined("L", 8), joined("R", 8), "7"]


def test_three_columns_with_offset_baselines():
    cols = (column("A", 40, 100, n=4, pitch=10, size=8) + column("B", 220, 103, n=4, pitch=10, size=8)
            + column("C", 400, 106, n=4, pitch=10, size=8))
    assert blocks(cols) == [joined("A"), joined("B"), joined("C")]


def test_paragraph_running_from_one_column_into_the_next_is_one_block():
    left = paragraph(["the first column ends in the middle of a"], 72, 100)
    left += paragraph(["sentence that goes on and on and on"], 72, 112)
    left += paragraph(["and a third line of the first column"], 72, 124)
    right = paragraph(["of course in the second column here", "which ends the paragraph properly."], 320, 100)
    text = reflow(left + right)
    assert "\n\n" not in text


def test_table_reads_row_by_row_one_block_per_row():
    # peers.md §2 case 5: a grid beside prose must not be read column by column
    prose = paragraph(["A paragraph of ordinary prose above the table,",
                       "long enough to count as running text here."], 72, 100)
    rows = []
    for i, (a, b, c) in enumerate([("Item", "Qty", "Price"), ("Apples", "12", "3.40"),
                                   ("Pears", "7", "2.10"), ("Plums", "30", "5.00")]):
        y = 160 + 14 * i
        rows += run(a, 72, y) + run(b, 200, y) + run(c, 300, y)
    assert blocks(prose + rows) == [
        "A paragraph of ordinary prose above the table, long enough to count as running text here.",
        "Item Qty Price", "Apples 12 3.40", "Pears 7 2.10", "Plums 30 5.00"]


def test_form_label_value_pairs_read_as_rows():
    glyphs = []
    for i, (label, value) in enumerate([("Name:", "Ada Lovelace"), ("Born:", "1815"),
                                        ("City:", "London")]):
        glyphs += run(label, 72, 100 + 14 * i) + run(value, 200, 100 + 14 * i)
    assert blocks(glyphs) == ["Name: Ada Lovelace", "Born: 1815", "City: London"]


def test_narrow_sidebar_is_read_after_the_main_text():
    main = paragraph([f"main text line {i} with plenty of words in it" for i in range(6)], 72, 100)
    side = paragraph(["side note", "in margin"], 420, 100, pitch=10, size=8)
    after = paragraph(["the main text goes on below the sidebar region"], 72, 200)
    out = blocks(main + side + after)
    assert out[-1] == "side note in margin"
    assert out[0].startswith("main text line 0")


def test_running_header_first_and_footer_last():
    header = run("Journal of Tests", 250, 30, size=8)
    body = paragraph(["Body text of the page that is long enough.", "Second line of the body."], 72, 100)
    footer = run("Page 3", 290, 760, size=8)
    layout = analyze_page(footer + body + header, PAGE_W, PAGE_H, 1)
    assert [b.role for b in layout.blocks] == ["header", "body", "footer"]
    assert render_page(layout, "reflow").split("\n\n")[0] == "Journal of Tests"


def test_rotated_label_goes_after_the_body_and_before_the_footer():
    body = paragraph(["Body text of the page that is long enough.", "Second line of the body."], 72, 100)
    label = run("ROTATED LABEL", 30, 600, dx=0.0, dy=-1.0)
    footer = run("12", 300, 760)
    assert blocks(label + body + footer) == [
        "Body text of the page that is long enough. Second line of the body.", "ROTATED LABEL", "12"]


def test_vertical_cjk_columns_read_right_to_left():
    # peers.md §2 case 11: WMode 1 columns, top to bottom, right to left
    first = run("縦書きの", 500, 100, dx=0.0, dy=1.0, flags=VERTICAL)
    second = run("文章です", 488, 100, dx=0.0, dy=1.0, flags=VERTICAL)
    assert reflow(second + first) == "縦書きの文章です"


def test_upright_cjk_glyphs_stacked_in_columns_read_as_vertical_text():
    # Chromium paints vertical CJK as upright glyphs placed one below the other
    first = [g for i, ch in enumerate("町の朝は") for g in run(ch, 500, 100 + 10 * i)]
    second = [g for i, ch in enumerate("静かです") for g in run(ch, 488, 100 + 10 * i)]
    assert reflow(first + second) == "町の朝は静かです"


def test_paragraph_break_at_a_gap_wider_than_the_line_pitch():
    glyphs = paragraph(LOREM, 72, 100) + paragraph(LOREM, 72, 100 + 4 * 12 + 10)
    assert blocks(glyphs) == [" ".join(LOREM)] * 2


def test_paragraph_break_at_a_first_line_indent():
    glyphs = paragraph(LOREM, 72, 100, indent=15) + paragraph(LOREM, 72, 148, indent=15)
    assert blocks(glyphs) == [" ".join(LOREM)] * 2


def test_heading_in_another_font_is_its_own_block():
    glyphs = run("Methods", 72, 88, font="Bold") + paragraph(LOREM, 72, 100)
    assert blocks(glyphs) == ["Methods", " ".join(LOREM)]


def test_heading_in_a_larger_size_is_its_own_block():
    glyphs = run("Results", 72, 84, size=14) + paragraph(LOREM, 72, 100)
    assert blocks(glyphs) == ["Results", " ".join(LOREM)]


def test_numbered_list_items_are_blocks_and_hanging_lines_continue_them():
    glyphs = run("1. Write the variety on the label", 72, 100)
    glyphs += run("before planting anything.", 72 + 15, 112)
    glyphs += run("2. Water the seedlings daily.", 72, 124)
    assert blocks(glyphs) == ["1. Write the variety on the label before planting anything.",
                              "2. Water the seedlings daily."]


def test_few_line_page_uses_document_statistics():
    # on a page of its own the two lines' 18 pt step says nothing; the document says 12 pt
    rich = analyze_page(paragraph(LOREM * 2, 72, 100), PAGE_W, PAGE_H, 1)
    stats = collect_doc_stats([rich])
    poor = paragraph(["one short paragraph"], 72, 100) + paragraph(["another one"], 72, 118)
    assert blocks(poor, doc_stats=stats) == ["one short paragraph", "another one"]


def test_body_size_counts_the_characters_of_sizes_that_round_alike_together():
    # 10.04 and 9.96 pt both count as 10.0: together they outweigh the 12 pt lines, alone neither does
    large = paragraph(LOREM[:3], 72, 100, pitch=15, size=12)
    near_a = paragraph(LOREM[:2], 72, 300, size=10.04)
    near_b = paragraph(LOREM[:2], 72, 500, size=9.96)
    stats = collect_doc_stats([analyze_page(large + near_a + near_b, PAGE_W, PAGE_H, 1)])
    assert stats.body_size == 10.0


def test_preserve_keeps_line_breaks_and_separates_blocks():
    glyphs = run("Methods", 72, 88, font="Bold") + paragraph(LOREM[:2], 72, 100)
    layout = analyze_page(glyphs, PAGE_W, PAGE_H, 1)
    assert render_page(layout, "preserve") == "Methods\n\n" + "\n".join(LOREM[:2])


def test_analysis_is_a_pure_function_of_its_input():
    glyphs = column("L", 72, 100) + column("R", 320, 100)
    first = reflow(glyphs)
    assert reflow(list(glyphs)) == first == reflow(glyphs)


# --- reading-order patterns from real documents ----------------------------------------------

def test_lone_space_glyphs_at_the_margin_do_not_make_columns():
    # producers paint an empty paragraph or a tab as one space glyph at the margin; beside a
    # paragraph's lines they would fake a gutter and a grid (each line its own row)
    lines = [f"an indented quotation runs over several lines {i}" for i in range(5)]
    spacers = [glyph(" ", 71, 100 + 12 * i) for i in range(3)]
    assert blocks(spacers + paragraph(lines, 100, 100)) == [" ".join(lines)]


def test_running_title_across_from_the_page_number_is_one_header_line():
    header = run("9", 90, 32, size=9) + run("1.2. METRIC SPACES", 430, 32, size=9)
    body = paragraph([f"line {i} of the body text that fills the measure" for i in range(5)], 90, 56)
    layout = analyze_page(header + body, PAGE_W, PAGE_H, 1)
    assert layout.blocks[0].role == "header"
    assert render_page(layout, "reflow").split("\n\n")[0] == "9 1.2. METRIC SPACES"


def test_table_with_long_row_labels_and_short_number_cells_reads_row_by_row():
    # both sides carry long rows (a long label; three cells under a spanning heading), but the
    # number side is a grid
    rows = [("Pollutant name and group", "to air", "to water", "to land"),
            ("Arsenic and compounds (as As)", "100 million", "2 000", "1 500"),
            ("Cadmium and compounds (as Cd)", "10 000", "5 000", "5 500"),
            ("Chromium and compounds (as Cr)", "100 000", "50 000", "50 500")]
    glyphs = run("THRESHOLD FOR RELEASES OF POLLUTANTS", 290, 88, size=8)  # spans the numbers
    for i, cells in enumerate(rows):
        for x, text in zip((72, 260, 340, 420), cells):
            glyphs += run(text, x, 100 + 12 * i, size=8)
    assert blocks(glyphs) == ["THRESHOLD FOR RELEASES OF POLLUTANTS"] + [" ".join(cells) for cells in rows]


def test_justified_word_gaps_that_line_up_are_not_a_table():
    # loose justified lines of a narrow column: every gap of a line equally wide (about 1-2 em),
    # and by chance the gaps of consecutive lines share a free strip
    lines = [["Im", "Frühjahr", "2021", "beschloss", "der"],
             ["Gemeinderat,", "die", "alte", "Weberei", "in", "ein"],
             ["Kulturzentrum", "umzubauen.", "Die", "Kosten", "von"]]
    width = 216.0
    glyphs = run("neue Parkordnung.", 72, 88)
    for i, words in enumerate(lines):
        ink = sum(len(w) * ADVANCE_EM * SIZE for w in words)
        gap = (width - ink) / (len(words) - 1)
        x = 72.0
        for w in words:
            glyphs += run(w, x, 100 + 12 * i)
            x += len(w) * ADVANCE_EM * SIZE + gap
    text = " ".join(" ".join(w) for w in lines)
    assert blocks(glyphs) == ["neue Parkordnung. " + text]


def test_hanging_bullets_drawn_apart_stay_with_their_lines():
    glyphs = run("•", 89, 100) + run("the facility falls under at least one of the", 107, 100)
    glyphs += run("activities of the regulation", 107, 112)
    glyphs += run("•", 89, 124) + run("the facility has a capacity exceeding at least", 107, 124)
    glyphs += run("one of the thresholds", 107, 136)
    glyphs += run("•", 89, 148) + run("the facility releases pollutants", 107, 148)
    assert blocks(glyphs) == [
        "• the facility falls under at least one of the activities of the regulation",
        "• the facility has a capacity exceeding at least one of the thresholds",
        "• the facility releases pollutants"]


def test_centred_heading_is_its_own_block_before_an_indented_paragraph():
    body = [f"words of the body text that fill the measure {i}" for i in range(4)]
    text = paragraph(body, 72, 112, indent=20)
    right = max(g.end_x for g in text)
    heading = run("I", (72 + right) / 2 - ADVANCE_EM * SIZE / 2, 100)   # centred over the measure
    glyphs = paragraph(["end of the previous paragraph here."], 72, 88) + heading + text
    assert blocks(glyphs) == ["end of the previous paragraph here.", "I", " ".join(body)]


def test_dash_after_a_full_line_continues_the_sentence():
    glyphs = paragraph(["Ein einziger Fachbegriff fuer alle Teile",
                        "– etwa Drehmoment – kann drei Dinge",
                        "bedeuten."], 72, 100)
    glyphs += run("– Zweitens eine Liste.", 72, 136)
    # the second line fills the measure too; only the first one runs on without a stop
    assert blocks(glyphs)[0].startswith("Ein einziger Fachbegriff fuer alle Teile – etwa")


def test_display_lines_in_a_font_with_a_very_tall_box_stay_apart():
    # a FontBBox of 1.7 em: half a box would swallow the next line 0.75 em below
    def tall(text, x, y):
        out = []
        for i, ch in enumerate(text):
            gx = x + i * 24.0
            out.append(Glyph(ch, gx, y, gx + 24.0, y, 24.0, 1.0, 0.0, 81.7, 16.0, 48.0, "Caslon"))
        return out
    glyphs = tall("First", 280, 281) + tall("among", 260, 317) + tall("Equals", 250, 359)
    assert reflow(glyphs).replace("\n\n", " ") == "First among Equals"


def test_display_equation_rows_a_fraction_of_a_line_apart_read_in_drawing_order():
    # σ = (λ 0 / 0 λ⁻¹): the matrix rows sit 0.6 em above and below the equation's baseline;
    # the producer draws "σ =" first, then the matrix row by row
    before = paragraph(["so the matrix of the map is"], 72, 370)
    equation = run("σ =", 150, 400) + run("λ   0", 180, 393.5) + run("0   μ", 180, 406.5)
    after = paragraph(["which is diagonal."], 72, 430)
    assert blocks(before + equation + after) == [
        "so the matrix of the map is", "σ = λ 0 0 μ", "which is diagonal."]


def test_footnote_number_raised_above_its_line_opens_the_footnote():
    body = paragraph([f"body text line {i} that fills the page" for i in range(3)], 72, 600, size=12,
                     pitch=28)
    number = run("1", 108, 663.6, size=7)
    note = run("In the matter of Rambus, opinion of", 144, 668.4, size=9)
    note += run("the Commission, available online.", 72, 680.2, size=9)
    out = blocks(body + note + number)
    assert out[-1] == "1 In the matter of Rambus, opinion of the Commission, available online."


def test_scattered_figure_labels_keep_their_drawing_order():
    # a plot's labels: no reading order of their own; the producer's order groups them (axis by axis)
    prose = paragraph(["The plot below shows the curve."], 72, 100)
    labels = run("x", 300, 260) + run("y", 120, 150) + run("3", 110, 170) + run("2", 110, 200) \
        + run("1", 110, 230)
    caption = paragraph(["Figure 1: The curve."], 72, 290)
    assert reflow(prose + labels + caption).replace("\n\n", " ") == (
        "The plot below shows the curve. x y 3 2 1 Figure 1: The curve.")


def _stacked_column(text: str, x: float, y: float, size: float = 14.0):
    """Chromium's vertical CJK: upright glyphs placed one below the other."""
    return [g for i, ch in enumerate(text) for g in run(ch, x, y + size * i, size=size)]


def test_vertical_page_with_few_columns_uses_its_own_column_pitch():
    # two paragraphs of two columns each: columns 25 pt (1.8 em) apart, paragraphs 36.5 pt;
    # too few steps for statistics, but the repeated 25 pt step is the pitch (not 1.2 em)
    full = "駅前の小さな本屋は朝九時に店を開ける"
    glyphs = (_stacked_column(full, 500, 60) + _stacked_column("掃除する。", 475, 60)
              + _stacked_column(full, 438.5, 60) + _stacked_column("屋台を回る。", 413.5, 60))
    assert blocks(glyphs) == [full + "掃除する。", full + "屋台を回る。"]


def test_short_final_column_of_two_glyphs_stays_vertical():
    first, second = "冬の山道は暗くなる天気予報を確認しておくと安心", "地図と懐中電灯を持ち出発の前に天気予報を確認"
    glyphs = _stacked_column(first, 500, 60) + _stacked_column(second, 475, 60) \
        + _stacked_column("だ。", 450, 60)
    assert reflow(glyphs) == first + second + "だ。"


def test_cjk_paragraphs_of_one_column_each_are_separate_blocks():
    # every line of a CJK paragraph fills the measure but the last: a short column ending in 。
    # closes its paragraph even when each paragraph is a single column
    cols = ["冬の山道は思ったより早く暗くなる。", "この町の祭りは毎年八月の第一土曜日に行われる。",
            "駅前の小さな本屋は朝九時に店を開ける。店主は毎朝掃除する。"]
    glyphs = []
    for i, text in enumerate(cols):
        glyphs += run(text, 500 - 25 * i, 40, size=10.5, dx=0.0, dy=1.0, flags=VERTICAL)
    assert blocks(glyphs) == cols


def test_horizontal_one_line_paragraphs_with_a_repeated_step_stay_apart():
    # three one-line paragraphs 1.8 em apart: the repeated step is paragraph spacing, not a
    # pitch (only vertical columns trust a repeated step)
    lines = ["The market opens early.", "In the evening it rains.", "New shops opened."]
    glyphs = []
    for i, text in enumerate(lines):
        glyphs += run(text, 72, 100 + 25.5 * i + (0.8 if i == 2 else 0), size=14)
    assert blocks(glyphs) == lines


def _rtl_line(text: str, right: float, y: float):
    """A right-to-left line in logical order, painted in visual order flush with `right`."""
    visual = text[::-1]
    width = sum(SPACE_EM * SIZE if ch == " " else ADVANCE_EM * SIZE for ch in visual)
    return run(visual, right - width, y)


def test_right_to_left_paragraphs_are_judged_from_the_right_edge():
    # a short last line of a Hebrew paragraph sits at the right edge; its free left end is not
    # an indent
    full = "השוק הישן נפתח מוקדם בבוקר והמוכרים מסדרים את"
    glyphs = (_rtl_line(full, 544, 100) + _rtl_line("הירקות.", 544, 112)
              + _rtl_line(full, 544, 136) + _rtl_line("הירקות.", 544, 148))
    assert blocks(glyphs) == [full + " הירקות."] * 2


def test_superscripts_that_push_lines_apart_do_not_open_a_paragraph():
    # browsers grow the box of a line that holds a superscript, so the step up to it grows too
    glyphs = run("The flask held a quarter litre of water on the", 51, 100, size=11)
    second = run("second day, 250 cm", 51, 117, size=11)
    cube = run("3", max(g.end_x for g in second), 111, size=7)          # cm³, raised 6 pt
    glyphs += second + cube + run("of it remained in the", max(g.end_x for g in cube) + 3.3, 117, size=11)
    glyphs += paragraph(["flask, as the model predicted."], 51, 132, size=11)
    glyphs += paragraph(["Another paragraph starts after a real gap", "and has a second line."],
                        51, 160, size=11, pitch=15)
    out = blocks(glyphs)
    assert len(out) == 2 and "250 cm3 of it remained" in out[0]


def test_one_larger_word_does_not_make_a_line_a_heading():
    glyphs = paragraph(["Some words switch fonts in the middle of a line and", "an acronym such as"], 51, 100,
                       size=11, pitch=15)
    glyphs += run("NATO", 51 + 19 * 5.5, 115, size=14)
    glyphs += run("is still one word in the same paragraph.", 51, 130, size=11)
    assert len(blocks(glyphs)) == 1


def test_third_column_is_a_column_when_a_title_blocks_the_first_gutter():
    # the title spans columns 1 and 2 only, so the first cut finds one gutter: columns 1+2 | 3.
    # Column 3 is as wide as each of the others: a column, not a sidebar, and the paragraph
    # running into it from column 2 goes on
    title = run("A title over the first two columns", 72, 80, size=14, font="Bold")
    col = ["word " * 5 + f"line {i}" for i in range(8)]
    c1 = paragraph(col, 72, 100)
    c2 = paragraph(col[:7] + ["and the sentence runs on"], 230, 100)
    c3 = paragraph(["into the third column and", "ends here."], 388, 100)
    text = reflow(title + c1 + c2 + c3)
    assert text.endswith("and the sentence runs on into the third column and ends here.")


def test_last_line_of_a_paragraph_above_a_table_stays_with_its_paragraph():
    prose = paragraph(["A paragraph of ordinary prose above the table that is long enough,",
                       "and ends short."], 72, 100)
    rows = []
    for i, (a, b, c) in enumerate([("Item", "Qty", "Price"), ("Apples", "12", "3.40"),
                                   ("Pears", "7", "2.10"), ("Plums", "30", "5.00")]):
        y = 124 + 12 * i
        rows += run(a, 72, y) + run(b, 200, y) + run(c, 300, y)
    assert blocks(prose + rows) == [
        "A paragraph of ordinary prose above the table that is long enough, and ends short.",
        "Item Qty Price", "Apples 12 3.40", "Pears 7 2.10", "Plums 30 5.00"]


def test_column_cut_by_a_sidebar_band_keeps_its_paragraph_whole():
    # a margin note beside the middle of a paragraph: the band it makes starts inside the
    # paragraph, whose lines above and beside the note are still one block
    lines = [f"line {i} of a paragraph that runs beside a margin note here" for i in range(6)]
    note = paragraph(["a note in", "the margin", "of the page"], 420, 124, size=8, pitch=10)
    assert blocks(paragraph(lines, 72, 100) + note) == [" ".join(lines), "a note in the margin of the page"]


def test_heading_at_the_top_of_the_text_is_not_a_running_header():
    # a running header stands apart from the text; a heading right above its paragraph does not
    header = run("9 1.2. METRIC SPACES", 90, 32, size=9)
    heading = run("Example 11", 90, 62, font="Bold")
    body = paragraph([f"line {i} of the body text that fills the measure" for i in range(4)], 90, 74)
    layout = analyze_page(header + heading + body, PAGE_W, PAGE_H, 1)
    assert [b.role for b in layout.blocks] == ["header", "body", "body"]


# --- a column line's trailing space glyph (tagged LaTeX ends every line with one) ---------

def _two_column_page(left_line: bytes, right_x: float, heading_row: int | None = None,
                     heading_in_line: bool = False) -> bytes:
    """Courier 10 pt (6 pt a character): four left lines at x 72, four right lines at right_x,
    read in that order; the right column's second line a 14 pt heading when asked (drawn on
    its own, or right after the left line in the same text object)."""
    b = PdfBuilder()
    fonts = {"F1": b.font_type1("Courier"), "F2": b.font_type1("Courier-Bold")}
    ops = [b"BT /F1 10 Tf 12 TL 72 700 Td"]
    for i in range(4):
        ops.append(b"/F1 10 Tf (" + left_line % (b"L%d" % i) + b") '")
        if i == heading_row and heading_in_line:   # the pen moves on over the gutter
            gap = right_x - 72 - 6 * len(left_line % b"L0")
            ops.append(b"/F2 14 Tf [%.2f (2 Heading)] TJ" % (-1000 * gap / 14))
    ops.append(b"ET")
    for i in range(4):
        if i == heading_row:
            if not heading_in_line:
                ops.append(b"BT /F2 14 Tf %.2f %d Td (2 Heading) Tj ET" % (right_x, 688 - 12 * i))
        else:
            ops.append(b"BT /F1 10 Tf %.2f %d Td (R%d the right column line) Tj ET" % (right_x, 688 - 12 * i, i))
    b.page(b"\n".join(ops), fonts=fonts)
    return b.build()


def test_trailing_space_glyphs_of_a_column_do_not_hide_its_gutter():
    # each left line's ink ends 10 pt before the right column, but its trailing space glyph
    # (6 pt) leaves only 4 pt free: the gutter is measured from the ink
    left_line = b"%s the left column line "   # 23 characters with ink, then the space
    text = extract_text(_two_column_page(left_line, 72 + 23 * 6 + 10)).text
    assert text == " ".join(["L%d the left column line" % i for i in range(4)]
                            + ["R%d the right column line" % i for i in range(4)]) + "\n"


@pytest.mark.parametrize("in_line", [False, True])
def test_a_heading_across_the_gutter_beside_a_smaller_line_is_no_part_of_it(in_line):
    # a 14 pt heading starts 10 pt after a 10 pt left line on its baseline: 0.7 em of the
    # heading, 1 em of the line; measured in the smaller size it is a gutter, whether the
    # heading is drawn apart or the pen moves on to it from the line
    text = extract_text(_two_column_page(b"%s the left column line", 72 + 23 * 6 + 10, heading_row=1,
                                         heading_in_line=in_line)).text
    left = " ".join("L%d the left column line" % i for i in range(4))
    assert text == left + " R0 the right column line\n\n2 Heading\n\nR2 the right column line R3 the right column line\n"


def _writer_page(lines: list[tuple[str, float, float, str]]) -> bytes:
    """A page of (font, x, y from the top, text) pieces at 12 pt, as LibreOffice Writer places them."""
    b = PdfBuilder()
    fonts = {"R": b.font_type1("Times-Roman", encoding="/WinAnsiEncoding"),
             "B": b.font_type1("Times-Bold", encoding="/WinAnsiEncoding"),
             "S": b.font_type1("Helvetica", encoding="/WinAnsiEncoding")}
    ops = b"".join(b"BT /%s 12 Tf %.2f %.2f Td (%s) Tj ET\n" % (font.encode(), x, 842 - y, text.encode("cp1252"))
                   for font, x, y, text in lines)
    b.page(ops, fonts=fonts, media_box=(0, 0, 595, 842))
    return b.build()


def test_unruled_table_with_a_header_centred_over_its_columns_reads_row_by_row():
    # Writer's "Table Heading" centres each header in its wide cell: "Gallery" falls in the gap
    # between the body's columns, "Objects" right of the second column's numbers
    pdf = _writer_page([("B", 57, 246, "Collections"),
                        ("B", 125, 270, "Gallery"), ("B", 303, 270, "Objects"),
                        ("R", 59, 289, "Boats"), ("R", 233, 289, "34"),
                        ("R", 59, 307, "Charts"), ("R", 233, 307, "212"),
                        ("R", 57, 324, "Most objects were given by local families, and the donations page explains"),
                        ("R", 57, 340, "how to offer one.")])
    assert extract_text(pdf).text.split("\n\n") == [
        "Collections", "Gallery Objects", "Boats 34", "Charts 212",
        "Most objects were given by local families, and the donations page explains how to offer one.\n"]


def _table_rows(pdf: bytes) -> list[str]:
    layout = extract_text(pdf, keep_layouts=True).layouts[0]
    return [" ".join(line.text for line in block.lines) for block in layout.blocks if block.table >= 0]


def test_a_centred_caption_or_an_axis_row_over_two_columns_is_no_table_header():
    body = [("R", 59, 289, "Boats"), ("R", 233, 289, "34"), ("R", 59, 307, "Charts"), ("R", 233, 307, "212")]
    assert _table_rows(_writer_page([("B", 120, 270, "Gallery"), ("B", 303, 270, "Objects")] + body)) == [
        "Gallery Objects", "Boats 34", "Charts 212"]
    assert _table_rows(_writer_page([("B", 120, 270, "Two numbers")] + body)) == []   # a caption
    axis = [("R", 128, 270, "-4"), ("R", 169, 270, "-2"), ("R", 255, 270, "2"), ("R", 296, 270, "4")]
    assert _table_rows(_writer_page(axis + [("R", 197, 289, "-2"), ("R", 197, 307, "-4")])) == []   # a plot's ticks
    assert _table_rows(_writer_page([("R", 120, 270, "-2"), ("R", 303, 270, "2")] + body[:2] + body[3:])) == []


def test_short_list_items_with_their_bullet_set_apart_keep_it():
    # Writer sets the bullet in another font, a tab before the item: short items are no figure labels
    items = [(78, 133, "The boat hall"), (78, 149, "The chart room"), (114, 165, "Early charts"),
             (114, 181, "Survey tools"), (78, 197, "The lighthouse lens and its lamp")]
    pieces = [("B", 57, 117, "Galleries")]
    for x, y, text in items:
        pieces += [("S", x, y, "•"), ("R", x + 14.2, y, text)]
    assert extract_text(_writer_page(pieces)).text.split("\n\n") == [
        "Galleries", "• The boat hall", "• The chart room", "• Early charts", "• Survey tools",
        "• The lighthouse lens and its lamp\n"]


# --- a page's foot under several columns ------------------------------------------------------

def _three_column_page_with_a_foot() -> bytes:
    """An IRS-style page: three columns of Helvetica 9.5 pt down to 18 pt above the foot, whose
    two pieces stand under the first column (the form's name) and the second (the page number)."""
    b = PdfBuilder()
    fonts = {"F1": b.font_type1("Helvetica"), "F2": b.font_type1("Helvetica-Bold")}
    ops = []
    for c, x in enumerate((42, 222, 402)):
        ops.append(b"BT /F1 9.5 Tf 11 TL %d 200 Td" % x)
        for i in range(12):
            ops.append(b"(c%d line %02d of the column text) '" % (c, i))
        ops.append(b"ET")
    ops.append(b"BT /F2 9 Tf 42 50 Td (Instructions for Form 1040NR) Tj ET")
    ops.append(b"BT /F2 10 Tf 300 50 Td (-5-) Tj ET")
    b.page(b"\n".join(ops), fonts=fonts)
    return b.build()


def test_a_foot_under_the_first_columns_is_read_after_all_of_them():
    # the column order reads each piece of the foot after the column above it; it lies below
    # all of the page's text, 0.8 em under it, so it is the page's footer and comes last
    paragraphs = extract_text(_three_column_page_with_a_foot()).text.strip().split("\n\n")
    assert paragraphs[-2:] == ["Instructions for Form 1040NR", "-5-"]
    body = " ".join(paragraphs[:-2])
    assert "Instructions" not in body and "-5-" not in body
    assert body.startswith("c0 line 00") and body.rstrip().endswith("c2 line 11 of the column text")


def test_a_short_last_line_of_a_column_beside_a_longer_column_stays_in_its_column():
    # the first column's last paragraph is one short line in the footer zone, but the second
    # column's text goes on beside it: it is no foot of the page
    b = PdfBuilder()
    fonts = {"F1": b.font_type1("Helvetica")}
    ops = [b"BT /F1 9.5 Tf 11 TL 42 200 Td"]
    ops += [b"(left line %02d of the column text) '" % i for i in range(11)]
    ops += [b"ET BT /F1 9.5 Tf 42 50 Td (The end.) Tj ET", b"BT /F1 9.5 Tf 11 TL 302 200 Td"]
    ops += [b"(right line %02d of the column text) '" % i for i in range(15)]
    b.page(b"\n".join(ops + [b"ET"]), fonts=fonts)
    text = extract_text(b.build()).text
    assert text.index("The end.") < text.index("right line 00")


def _columns_under_a_head(pieces, *, tops=(761, 761, 761), size=9) -> bytes:
    """Three columns of Helvetica 9.5 pt from the baselines `tops` down, and a head in `pieces`
    ((x, y, text), Helvetica-Bold in `size` pt) above them."""
    b = PdfBuilder()
    fonts = {"F1": b.font_type1("Helvetica"), "F2": b.font_type1("Helvetica-Bold")}
    ops = []
    for c, (x, top) in enumerate(zip((42, 222, 402), tops)):
        ops.append(b"BT /F1 9.5 Tf 11 TL %d %d Td" % (x, top))
        for i in range(12):
            ops.append(b"(c%d line %02d of the column text) '" % (c, i))
        ops.append(b"ET")
    for x, y, text in pieces:
        ops.append(b"BT /F2 %g Tf %d %d Td (%s) Tj ET" % (size, x, y, text))
    b.page(b"\n".join(ops), fonts=fonts)
    return b.build()


def test_a_head_over_the_first_columns_is_read_before_all_of_them():
    # the counterpart of the split foot: a running head in two pieces, the journal's name over
    # the first column and the page number over the second, 0.6 em above the columns' text; the
    # column order read "-5-" after the first column, between it and the second
    for y in (766, 775):
        data = _columns_under_a_head([(42, y, b"Instructions for Form 1040NR"), (300, y, b"-5-")])
        paragraphs = extract_text(data).text.strip().split("\n\n")
        assert paragraphs[:2] == ["Instructions for Form 1040NR", "-5-"]
        body = " ".join(paragraphs[2:])
        assert "-5-" not in body and body.startswith("c0 line 00")
        assert body.index("c0 line 11") < body.index("c1 line 00") < body.index("c2 line 00")
    # one piece, a page number over the last column only, is read first too (once)
    text = extract_text(_columns_under_a_head([(540, 768, b"17")])).text.strip()
    assert text.startswith("17\n") and text.count("17") == 1


def test_a_heading_over_a_column_beside_a_lower_column_stays_in_its_column():
    # the first column starts 6 em lower (a figure above it): the heading at the top of the
    # second column belongs to that column, not to a head of the page
    data = _columns_under_a_head([(222, 772, b"Results")], tops=(700, 761, 761), size=11)
    text = extract_text(data).text
    assert text.index("c0 line 11") < text.index("Results") < text.index("c1 line 00")


def _pieces_page(pieces: list[tuple[float, float, float, str]], font: str = "Helvetica", width: float = 595) -> bytes:
    """A page 842 pt high of (size, x, y from the top, text) pieces in one Type 1 font."""
    b = PdfBuilder()
    font_ref = b.font_type1(font, encoding="/WinAnsiEncoding")
    ops = b"".join(b"BT /F1 %.1f Tf %.2f %.2f Td (%s) Tj ET\n" % (size, x, 842 - y, text.encode("cp1252"))
                   for size, x, y, text in pieces)
    b.page(ops, fonts={"F1": font_ref}, media_box=(0, 0, width, 842))
    return b.build()


def _spread(pieces: list[tuple[float, float, float, str]]) -> bytes:
    """An A3 landscape page (two A4 pages of a spread) of (size, x, y from the top, text) pieces."""
    return _pieces_page(pieces, width=1190)


def test_two_tables_side_by_side_on_a_spread_read_one_after_the_other():
    # a financial report's spread: a 9 pt table on the left page (rows 18 pt apart), a 7 pt table
    # with eight figure columns on the right one (rows 12 pt apart), 180 pt of margins between
    # them; read as one grid, its rows interleaved both pages' rows line by line
    left = [("Net profit attributable to the owners of the parent", "233,512", "201,683"),
            ("Changes in fair value of financial assets measured", "(31,874)", "64,457"),
            ("Remeasurements of defined benefit plans", "(23,574)", "84,501"),
            ("Exchange differences on translating foreign operations", "(49,360)", "61,880"),
            ("Net changes in the fair value of cash flow hedges", "20", "92"),
            ("Comprehensive income", "124,762", "415,954")]
    pieces = []
    for i, (label, a, b) in enumerate(left):
        y = 150 + 18 * i
        pieces += [(9, 85, y, label), (9, 345, y, a), (9, 410, y, b)]
    for i in range(9):
        y = 145 + 12 * i
        pieces.append((7, 655, y, f"Row {i} label"))
        pieces += [(7, 740 + 50 * k, y, f"{i}{k},{k}0{i}") for k in range(8)]
    paragraphs = extract_text(_spread(pieces)).text.strip().split("\n\n")
    assert paragraphs[:len(left)] == [" ".join(row) for row in left]
    assert paragraphs[len(left):] == [f"Row {i} label " + " ".join(f"{i}{k},{k}0{i}" for k in range(8))
                                      for i in range(9)]


def test_the_lines_of_a_table_cell_set_closer_than_its_rows_read_together():
    # a statement of changes in equity: 7 pt rows 15 pt apart, a header cell `compre-` /
    # `hensive` and a label `Cumulative effects of` / `accounting changes` in lines 8 pt
    # apart; read line by line, each row's cells were cut in two across the row
    pieces = [(7, 170, 100, "Retained"), (7, 230, 100, "compre-"),
              (7, 110, 108, "Common stock"), (7, 170, 108, "earnings"), (7, 230, 108, "hensive"), (7, 290, 108, "Total")]
    body = [("Balance at beginning", "175,820", "63,809", "2,399,946"), ("Net profit", "221,834", "11,678", "233,512"),
            ("Dividends", "(85,871)", "(7,826)", "(93,697)")]
    y = 123
    for label, *figures in body:
        pieces += [(7, 20, y, label)] + [(7, x, y, f) for x, f in zip((110, 170, 290), figures)]
        y += 15
    # a one-line row 8 pt under a full row is a row of its own, lowercase or not: it fills the same cells
    pieces += [(7, 20, y - 7, "paid in cash")] + [(7, x, y - 7, f) for x, f in zip((110, 170, 290), ("1", "2", "3"))]
    y += 8
    pieces += [(7, 20, y, "Cumulative effects of"), (7, 20, y + 8, "accounting changes"),
               (7, 110, y + 8, "842"), (7, 170, y + 8, "(1,890)"), (7, 290, y + 8, "(1,048)")]
    assert extract_text(_pieces_page(pieces)).text.strip().split("\n\n") == [
        "Common stock Retained earnings comprehensive Total",
        "Balance at beginning 175,820 63,809 2,399,946", "Net profit 221,834 11,678 233,512",
        "Dividends (85,871) (7,826) (93,697)", "paid in cash 1 2 3",
        "Cumulative effects of accounting changes 842 (1,890) (1,048)"]


def test_a_margin_note_beside_a_column_is_no_table_of_its_lines():
    # LaTeX's \marginpar: short lines of words left of the first column, each on one of the
    # column's baselines (two beside a blank line); taken for a table's cells beside prose, the
    # whole page read row by row (`Marginal Larger figures such as …` / `notes are in a float …`)
    note = ["Marginal", "notes are", "usually", "placed in", "the outer", "margin."]
    pieces = [(21, 300 + 12 * i, text) for i, text in enumerate(note)]
    for i in range(24):
        if i not in (8, 9):
            pieces.append((72, 240 + 12 * i, f"left {LOREM[i % 4]}"))
        pieces.append((302, 240 + 12 * i, f"right {LOREM[i % 4]}"))
    data = _pieces_page([(10, x, y, text) for x, y, text in pieces], "Times-Roman")
    # each column reads whole (the blank line ends the first column's first paragraph, whose
    # second ends a sentence at the column's foot); the note is read after them
    assert extract_text(data).text.strip().split("\n\n") == [
        " ".join(f"left {LOREM[i % 4]}" for i in range(8)),
        " ".join(f"left {LOREM[i % 4]}" for i in range(10, 24)),
        " ".join(f"right {LOREM[i % 4]}" for i in range(24)), " ".join(note)]
@pytest.mark.parametrize("words", ["plain ASCII text", "caf\u00e9 cr\u00e8me", "\u05e9\u05dc\u05d5\u05dd \u05e2\u05d5\u05dc\u05dd"])
def test_the_page_text_spares_the_right_to_left_census_only_where_it_may(words):
    # reading_order skips the census when the page's text has no right-to-left letter (an ASCII
    # text without reading a character): the flows are those of the census itself
    from glyphline.layout.blocks import reading_order
    from glyphline.layout.lines import build_segments
    glyphs = column("A", 72, 100) + run(words, 320, 100) + run(words, 320, 112)
    segments = build_segments(glyphs)
    text = "".join(g.text for g in glyphs)
    with_text = [(f.role, [line.text for line in f.lines]) for f in reading_order(segments, text)]
    census = [(f.role, [line.text for line in f.lines]) for f in reading_order(segments, None)]
    assert with_text == census


def test_the_band_search_skips_rows_that_open_no_gutter(monkeypatch):
    # a column of lines, one indented and one short, with a two-column band and a row set
    # after the line above ends (a gutter between them): rows with no gutter-wide strip inside
    # them and overlapping the row below skip the band search (no _intersect), and the text is
    # that of the search (the switch _upright.FAST_PATHS off)
    from glyphline.layout import _upright, blocks as blocks_module
    pieces = [(72 + (18 if i == 5 else 0), 100 + 12 * i, f"body {LOREM[i % 4]}") for i in range(12)]
    pieces.append((72, 100 + 12 * 12, "short"))
    pieces.append((300, 100 + 12 * 13, "set apart right of the short line"))
    for i in range(6):
        pieces.append((72, 300 + 12 * i, f"left {LOREM[i % 4]}"))
        pieces.append((320, 300 + 12 * i, f"right {LOREM[i % 4]}"))
    data = _pieces_page([(10, x, y, text) for x, y, text in pieces], "Times-Roman")
    calls = []
    real = blocks_module._intersect
    monkeypatch.setattr(blocks_module, "_intersect", lambda *args: calls.append(1) or real(*args))
    fast = extract_text(data).text
    fast_calls = len(calls)
    monkeypatch.setattr(_upright, "FAST_PATHS", False)
    calls.clear()
    assert extract_text(data).text == fast
    # the search intersects every row with the next; the skip only where a gutter may open
    # (the band's rows, the short line and the line set apart after it)
    assert len(calls) >= 18 and fast_calls <= 8
    assert "left the quick brown fox" in fast and fast.index("right lazy") > fast.index("left songs")
