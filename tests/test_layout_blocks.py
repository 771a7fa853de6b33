"""Reading order and paragraphs: columns, tables, sidebars, headers, lists, vertical text."""
from __future__ import annotations

from test_layout_support import PAGE_H, PAGE_W, blocks, paragraph, reflow, run

from glyphline.glyph import VERTICAL
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


def test_preserve_keeps_line_breaks_and_separates_blocks():
    glyphs = run("Methods", 72, 88, font="Bold") + paragraph(LOREM[:2], 72, 100)
    layout = analyze_page(glyphs, PAGE_W, PAGE_H, 1)
    assert render_page(layout, "preserve") == "Methods\n\n" + "\n".join(LOREM[:2])


def test_analysis_is_a_pure_function_of_its_input():
    glyphs = column("L", 72, 100) + column("R", 320, 100)
    first = reflow(glyphs)
    assert reflow(list(glyphs)) == first == reflow(glyphs)
