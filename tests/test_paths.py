"""The page's drawing for the structured outputs: rules and marks from the path operators
(glyphline.content.paths), and what Markdown makes of them (layout.drawn): a header row from a
rule under a table's first row, list items from bullets drawn as shapes."""
from __future__ import annotations

import re

from pdfbuilder import PdfBuilder, inline_image

import glyphline
from glyphline import extract_text
from glyphline.content.lexer import TEXT_RUN, iter_operations
from glyphline.content.paths import PageDrawing, Ruling
from glyphline.layout.model import Block, Line, PageLayout, Word
from glyphline.layout.structure import HeadingStyles, mark_structure
from glyphline.limits import Limits
from glyphline.output import PageContext
from glyphline.output.markdown import markdown_page

# a disc of radius 1 around (0, 0) in four Bézier curves, as browsers draw list bullets
_K = 0.5523
DISC = (b"1 0 m 1 %g %g 1 0 1 c -%g 1 -1 %g -1 0 c -1 -%g -%g -1 0 -1 c %g -1 1 -%g 1 0 c" % ((_K,) * 8))


def drawing(content: bytes, *, limits: Limits | None = None, **page_args):
    b = PdfBuilder()
    b.page(content, **page_args)
    return glyphline.open(b.build(), paths=True, limits=limits).page(0).drawing


# ----------------------------------------------------------------------------- the interpreter's drawing

def test_a_stroked_line_is_a_rule_with_its_width_in_viewer_space():
    found = drawing(b"q 2 0 0 2 0 0 cm 0.5 w 36 300 m 136 300 l S Q")
    (rule,) = found.rulings
    # user y 600 is 192 below the top of a letter page (792), y down in viewer space
    assert (rule.x0, rule.y0, rule.x1, rule.y1, rule.horizontal) == (72, 192, 272, 192, True)
    assert rule.width == 1.0
    assert found.marks == []


def test_a_stroked_rectangle_gives_its_four_sides_and_q_restores_the_line_width():
    found = drawing(b"q 3 w Q 72 600 200 20 re S")
    assert sorted((r.horizontal, r.width) for r in found.rulings) == [(False, 1.0)] * 2 + [(True, 1.0)] * 2


def test_a_thin_filled_rectangle_is_a_rule_and_a_cell_background_is_nothing():
    found = drawing(b"72 600 300 0.75 re f 72 500 60 18 re f")
    (rule,) = found.rulings
    assert rule.horizontal and abs(rule.width - 0.75) < 1e-9 and (rule.x0, rule.x1) == (72, 372)
    assert found.marks == []


def test_filled_and_stroked_discs_and_a_small_image_are_marks():
    found = drawing(b"q 3 0 0 3 100 700 cm " + DISC + b" f Q q 3 0 0 3 100 680 cm " + DISC + b" S Q "
                    b"q 6 0 0 6 97 657 cm " + inline_image() + b" Q")
    assert [m.kind for m in found.marks] == ["fill", "stroke", "image"]
    disc = found.marks[0]
    assert abs(disc.x0 - 97) < 1e-6 and abs(disc.x1 - 103) < 1e-6 and abs(disc.y0 - 89) < 1e-6
    assert found.rulings == []


def test_a_clipping_path_and_a_path_in_a_hidden_layer_paint_nothing():
    b = PdfBuilder()
    layer = b.add({"Type": "/OCG", "Name": "hidden"})
    b.page(b"72 600 300 1 re W n /OC /L BDC 72 500 300 1 re f EMC 72 400 300 1 re f",
           resources={"Properties": {"L": layer}})
    data = b.build(catalog={"OCProperties": {"OCGs": [layer], "D": {"OFF": [layer]}}})
    found = glyphline.open(data, paths=True).page(0).drawing
    assert [round(r.y0) for r in found.rulings] == [392]


def test_paths_in_a_form_keep_the_callers_line_width_after_it():
    b = PdfBuilder()
    form = b.form(b"5 w 0 0 m 10 0 l S", bbox=(0, 0, 100, 100))
    b.page(b"2 w /Fm Do 72 600 m 172 600 l S", xobjects={"Fm": form})
    found = glyphline.open(b.build(), paths=True).page(0).drawing
    assert [r.width for r in found.rulings] == [5.0, 2.0]


def test_the_drawing_is_budgeted():
    content = b" ".join(b"72 %d 300 0.5 re f" % y for y in range(100, 700, 20))
    found = drawing(content, limits=Limits(drawn_items_per_page=3))
    assert len(found.rulings) == 3 and found.truncated


def test_a_hostile_path_stops_growing_at_its_point_budget():
    content = b"0 0 m " + b"1 1 l " * 5000 + b"S 72 600 m 172 600 l S"
    found = drawing(content, limits=Limits(path_points=100))
    assert found.rulings[-1].y0 == 192 and len(found.rulings) <= 100


def test_plain_text_does_not_record_the_drawing_and_its_glyphs_are_the_same():
    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    content = (b"0.5 w 72 700 m 300 700 l S BT /F1 10 Tf 72 710 Td (Ab) Tj 20 0 Td (Cd) Tj 20 0 Td ET "
               b"72 650 200 1 re f BT /F1 10 Tf 72 660 Td [(Ef) -200 (Gh)] TJ ET")
    b.page(content, fonts={"F1": font})
    data = b.build()
    plain = glyphline.open(data).page(0)
    drawn = glyphline.open(data, paths=True).page(0)
    assert plain.drawing is None
    assert drawn.glyphs == plain.glyphs and len(drawn.drawing.rulings) == 2


def test_the_lexer_keeps_graphics_operators_and_merges_text_runs_when_asked():
    data = b"1 w 0 0 m 5 0 l S BT (a) Tj 1 0 Td (b) Tj 1 0 Td ET"
    plain = [op for _, op in iter_operations(data, for_text=True)]
    with_paths = [op for _, op in iter_operations(data, for_text=True, with_paths=True)]
    assert plain == [b"BT", TEXT_RUN, b"ET"]
    assert with_paths == [b"w", b"m", b"l", b"S", b"BT", TEXT_RUN, b"ET"]


# ----------------------------------------------------------------------------- Markdown

BODY = "The quick brown fox jumps over the lazy dog while the farmer watches from the gate."


def _text(font: str, size: float, x: float, y: float, text: str) -> bytes:
    return b"BT /%s %g Tf %g %g Td (%s) Tj ET" % (font.encode(), size, x, y, text.encode("cp1252"))


def _page(ops: list[bytes]) -> bytes:
    b = PdfBuilder()
    fonts = {"R": b.font_type1("Helvetica", encoding="/WinAnsiEncoding"),
             "B": b.font_type1("Helvetica-Bold", encoding="/WinAnsiEncoding")}
    b.page(b"\n".join(ops), fonts=fonts)
    return b.build()


ROWS = [("Station", "Altitude", "Rain"), ("Ridge North", "1,240", "38.5"), ("Ridge South", "1,105", "41.0"),
        ("Valley Floor", "410", "22.3")]


def _ruled_table(rule_under) -> bytes:
    """A table in one regular font; `rule_under(i)` gives the width of the rule under row i, or 0."""
    return _page(_ruled_table_ops(rule_under))


def _ruled_table_ops(rule_under) -> list[bytes]:
    ops = [_text("R", 10, 72, 720, BODY)]
    y = 680
    for i, cells in enumerate(ROWS):
        ops.extend(_text("R", 10, x, y, cell) for x, cell in zip((72, 200, 300), cells))
        if rule_under(i):
            ops.append(b"%g w 70 %g m 340 %g l S" % (rule_under(i), y - 4, y - 4))
        y -= 16
    ops.append(_text("R", 10, 72, 600, BODY))
    return ops


def test_a_rule_under_the_first_row_only_makes_it_the_header():
    text = extract_text(_ruled_table(lambda i: 0.5 if i == 0 else 0), mode="markdown").text
    assert ("| Station | Altitude | Rain |\n| --- | --- | --- |\n| Ridge North | 1,240 | 38.5 |\n"
            "| Ridge South | 1,105 | 41.0 |\n| Valley Floor | 410 | 22.3 |") in text


def test_a_table_ruled_on_every_row_alike_gets_no_header_from_its_rules():
    text = extract_text(_ruled_table(lambda i: 0.5), mode="markdown").text
    assert "|  |  |  |\n| --- | --- | --- |\n| Station | Altitude | Rain |" in text


def test_a_heavier_rule_under_the_first_row_than_between_the_others_makes_it_the_header():
    text = extract_text(_ruled_table(lambda i: 1.5 if i == 0 else 0.25), mode="markdown").text
    assert "| Station | Altitude | Rain |\n| --- | --- | --- |\n| Ridge North |" in text


def test_rules_under_the_first_and_third_rows_alike_give_no_header():
    text = extract_text(_ruled_table(lambda i: 0.5 if i in (0, 2) else 0), mode="markdown").text
    assert "|  |  |  |\n| --- | --- | --- |\n| Station | Altitude | Rain |" in text


def test_an_underline_under_one_cell_is_no_header_rule():
    ops_table = _ruled_table(lambda i: 0)
    plain = extract_text(ops_table, mode="markdown").text
    underlined = _page([_text("R", 10, 72, 720, BODY)]
                       + [_text("R", 10, x, 680 - 16 * i, cell) for i, cells in enumerate(ROWS)
                          for x, cell in zip((72, 200, 300), cells)]
                       + [b"0.5 w 72 676 m 110 676 l S", _text("R", 10, 72, 600, BODY)])
    assert extract_text(underlined, mode="markdown").text == plain


def _boxed_table_then_list(rule_under) -> bytes:
    """The table with a border over its first row and `rule_under(i)` rules, then two list items
    set on its columns (layout reads them as more rows)."""
    ops = [_text("R", 10, 72, 720, BODY), b"0.5 w 68 691 m 340 691 l S"]
    y = 680
    for i, cells in enumerate(ROWS):
        ops.extend(_text("R", 10, x, y, cell) for x, cell in zip((72, 200, 300), cells))
        if rule_under(i):
            ops.append(b"0.5 w 68 %g m 340 %g l S" % (y - 4, y - 4))
        y -= 16
    for cells in (("1. Arrive early", "before the ferry", "departs."), ("2. Keep bicycles", "on the lower", "deck.")):
        ops.extend(_text("R", 10, x, y - 6, cell) for x, cell in zip((72, 200, 300), cells))
        y -= 16
    return _page(ops + [_text("R", 10, 72, 560, BODY)])


def test_rows_below_a_boxed_tables_last_rule_are_text_again():
    text = extract_text(_boxed_table_then_list(lambda i: True), mode="markdown").text
    assert ("| Valley Floor | 410 | 22.3 |\n\n1. Arrive early before the ferry departs.\n"
            "2. Keep bicycles on the lower deck.") in text


def test_a_table_whose_rules_stop_before_its_last_row_keeps_it_when_it_has_no_top_border():
    data = _ruled_table(lambda i: 0.5 if i < len(ROWS) - 1 else 0)
    assert "| Valley Floor | 410 | 22.3 |" in extract_text(data, mode="markdown").text


def _disc(x: float, y: float, r: float, fill: bool = True) -> bytes:
    return b"q %g 0 0 %g %g %g cm " % (r, r, x, y) + DISC + (b" f Q" if fill else b" S Q")


def test_bullets_drawn_as_discs_make_list_items_nested_by_indent():
    ops = [_text("R", 10, 72, 720, BODY)]
    items = [(90, "first item of the list", True), (90, "second item of the list", True),
             (110, "nested item under it", False), (90, "third item back out", True)]
    y = 690
    for x, text, fill in items:
        ops.append(_disc(x - 8, y + 3.5, 1.5, fill))
        ops.append(_text("R", 10, x, y, text))
        y -= 13
    ops.append(_text("R", 10, 72, 620, BODY))
    markdown = extract_text(_page(ops), mode="markdown").text
    assert ("- first item of the list\n- second item of the list\n    - nested item under it\n"
            "- third item back out") in markdown


def test_a_disc_far_from_the_text_or_as_large_as_a_letter_is_no_bullet():
    ops = [_text("R", 10, 72, 720, BODY),
           _disc(40, 693.5, 1.5), _text("R", 10, 90, 690, "one line far from its dot"),
           _disc(82, 680.5, 5), _text("R", 10, 90, 677, "one line after a big disc"),
           _text("R", 10, 72, 620, BODY)]
    markdown = extract_text(_page(ops), mode="markdown").text
    assert not re.search(r"^\s*- ", markdown, re.MULTILINE), markdown


def test_a_figures_points_beside_their_labels_are_no_bullets():
    # a plot's points drawn as discs, each with its label to the right: no two stand at one x
    ops = [_text("R", 10, 72, 720, BODY)]
    for x, y, label in ((150, 690, "P"), (230, 675, "Q"), (190, 655, "e2"), (260, 640, "A")):
        ops += [_disc(x, y + 3.5, 1.8), _text("R", 10, x + 5, y, label)]
    ops.append(_text("R", 10, 72, 600, BODY))
    markdown = extract_text(_page(ops), mode="markdown").text
    assert not re.search(r"^\s*- ", markdown, re.MULTILINE), markdown
    # the same discs set one under the other at one x make a list, even of one-letter items
    ops = [_text("R", 10, 72, 720, BODY)] + [op for y, label in ((690, "P"), (677, "Q"), (664, "A"))
                                             for op in (_disc(150, y + 3.5, 1.8), _text("R", 10, 158, y, label))]
    markdown = extract_text(_page(ops + [_text("R", 10, 72, 600, BODY)]), mode="markdown").text
    assert "- P\n- Q\n- A" in markdown, markdown


def test_malformed_path_operators_cost_only_the_drawing_and_add_no_warning():
    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    b.page(b"(x) (y) m /N 3 l (a) w 72 600 300 1 re f BT /F1 10 Tf 72 700 Td (Text) Tj ET", fonts={"F1": font})
    data = b.build()
    plain = extract_text(data, mode="reflow")
    structured = extract_text(data, mode="markdown")
    assert structured.warnings == plain.warnings == []
    assert len(glyphline.open(data, paths=True).page(0).drawing.rulings) == 1


def _layout_row(table: int, y: float, cells: list[list[tuple[str, float]]]) -> Block:
    """A table row as layout gives it: cells of (text, x0) words on one line."""
    words = [[Word(text, x, y, x + 6 * len(text), y + 10, 10, "Helvetica") for text, x in cell] for cell in cells]
    flat = [w for cell in words for w in cell]
    line = Line(flat, flat[0].x0, y, flat[-1].x1, y + 10)
    return Block([line], line.x0, y, line.x1, y + 10, table=table, cells=words)


def test_vertical_rules_crossing_every_row_decide_its_cells():
    # layout put the right-aligned numbers in a column of their own, left of the heading above them
    rows = [_layout_row(0, 100, [[("Class", 72)], [], [("Annual", 160), ("fee", 200)], [("Boat", 260), ("use", 290)]]),
            _layout_row(0, 116, [[("Adult", 72)], [("120", 222)], [], [("Yes", 260)]]),
            _layout_row(0, 132, [[("Junior", 72)], [("40", 228)], [], [("With", 260), ("help", 290)]])]
    verticals = [Ruling(x, 96, x, 146, 0.5, False) for x in (68, 150, 250, 360)]
    ruled = PageLayout(1, 612, 792, blocks=list(rows), drawing=PageDrawing(100, rulings=verticals))
    unruled = PageLayout(1, 612, 792, blocks=list(rows))
    for layout in (ruled, unruled):
        mark_structure(layout, HeadingStyles())
    assert markdown_page(ruled, PageContext()) == ("|  |  |  |\n| --- | --- | --- |\n| Class | Annual fee | Boat use |\n"
                                                   "| Adult | 120 | Yes |\n| Junior | 40 | With help |")
    assert "| Class |  | Annual fee | Boat use |" in markdown_page(unruled, PageContext())


# ----------------------------------------------------------------------------- tables drawn as ruled grids

GRID_ROWS = [("Gallery", "Objects"), ("Boats", "34"), ("Charts", "212")]


def _grid_table(*, vertical_rules: bool = True, header_font: str = "B") -> bytes:
    """A ruled grid as LibreOffice draws one: the header centred in its cells (so no gap between
    the columns runs through every row), and a paragraph set right under the bottom border."""
    ops = [_text("B", 16, 72, 740, "Collections")]
    top, pitch, left, middle, right = 724, 18, 68, 250, 430
    for i, (first, second) in enumerate(GRID_ROWS):
        y = top - pitch * (i + 1) + 5
        if i == 0:   # centred in the cell
            ops += [_text(header_font, 10, (left + middle) / 2 - 17, y, first),
                    _text(header_font, 10, (middle + right) / 2 - 19, y, second)]
        else:
            ops += [_text("R", 10, left + 3, y, first), _text("R", 10, middle + 3, y, second)]
    bottom = top - pitch * len(GRID_ROWS)
    ops += [b"0.5 w %g %g m %g %g l S" % (left, y, right, y) for y in range(top, bottom - 1, -pitch)]
    if vertical_rules:
        ops += [b"0.5 w %g %g m %g %g l S" % (x, top, x, bottom) for x in (left, middle, right)]
    ops += [_text("R", 10, 72, bottom - 10, BODY), _text("R", 10, 72, bottom - 22, "It goes on for a second line.")]
    return _page(ops)


def test_a_ruled_grid_the_columns_miss_is_a_table_and_the_paragraph_under_it_stays_text():
    markdown = extract_text(_grid_table(), mode="markdown").text
    assert ("| Gallery | Objects |\n| --- | --- |\n| Boats | 34 |\n| Charts | 212 |\n\n"
            "The quick brown fox") in markdown, markdown


def test_an_unruled_table_set_on_its_columns_right_above_a_paragraph_is_a_table_by_its_columns():
    ops = [_text("B", 16, 72, 740, "Collections")]
    for i, (first, second) in enumerate(GRID_ROWS):
        ops += [_text("B" if i == 0 else "R", 10, x, 710 - 16 * i, cell) for x, cell in ((72, first), (250, second))]
    ops += [_text("R", 10, 72, 662, BODY), _text("R", 10, 72, 650, "It goes on for a second line.")]
    markdown = extract_text(_page(ops), mode="markdown").text
    assert ("| Gallery | Objects |\n| --- | --- |\n| Boats | 34 |\n| Charts | 212 |\n\n"
            "The quick brown fox") in markdown, markdown


def test_rules_that_only_box_a_paragraph_or_only_run_across_make_no_table():
    boxed = _page([_text("R", 10, 72, 700, BODY), _text("R", 10, 72, 688, BODY), _text("R", 10, 72, 676, BODY),
                   b"0.5 w 68 712 m 500 712 l 500 670 l 68 670 l h S 68 691 m 500 691 l S"])
    assert "|" not in extract_text(boxed, mode="markdown").text
    across = extract_text(_grid_table(vertical_rules=False), mode="markdown").text
    assert "| Boats | 34 |" not in across


# ----------------------------------------------------------------------------- colours

def test_marks_keep_their_colour_and_white_paint_is_neither_rule_nor_mark():
    found = drawing(b"1 0 0 rg 72 700 6 6 re f "                          # a red square: a mark, red
                    b"0 0 0 0 k 72 680 6 6 re f "                         # a white (CMYK) square: nothing
                    b"1 G 72 600 m 300 600 l S "                          # a white rule: nothing
                    b"/DeviceRGB cs 0 0 1 sc 72 660 6 6 re f "            # sc in the space cs set: blue
                    b"q 1 g Q 72 640 6 6 re f "                           # Q gives the blue back
                    b"/Pattern cs /P1 scn 72 620 6 6 re f "               # a pattern: colour not known
                    b"0.5 G 72 580 m 300 580 l S")                        # a grey rule stays
    assert [mark.colour for mark in found.marks] == [(1.0, 0.0, 0.0), (0.0, 0.0, 1.0), (0.0, 0.0, 1.0), None]
    assert [(rule.y0, rule.x1) for rule in found.rulings] == [(212, 300)]


def test_a_colour_set_inside_a_form_does_not_leak_out_of_it():
    b = PdfBuilder()
    form = b.form(b"1 g 0 0 10 10 re f", bbox=(0, 0, 10, 10))
    b.page(b"/Fm1 Do 72 700 6 6 re f", xobjects={"Fm1": form})
    found = glyphline.open(b.build(), paths=True).page(0).drawing
    assert [mark.colour for mark in found.marks] == [(0.0, 0.0, 0.0)]


def test_a_white_rule_under_the_first_row_makes_no_header():
    seen = extract_text(_ruled_table(lambda i: 0.5 if i == 0 else 0), mode="markdown").text
    white = _page([op.replace(b"S", b"1 G S") if op.endswith(b" l S") else op
                   for op in _ruled_table_ops(lambda i: 0.5 if i == 0 else 0)])
    text = extract_text(white, mode="markdown").text
    assert "| Station | Altitude | Rain |\n| --- |" in seen
    assert "|  |  |  |\n| --- | --- | --- |\n| Station | Altitude | Rain |" in text, text


def test_a_white_square_before_a_line_is_no_bullet():
    def page(colour: bytes) -> bytes:
        ops = [_text("R", 10, 72, 720, BODY)]
        for i, item in enumerate(("first item of the list", "second item of the list")):
            ops += [colour + b" rg 80 %g 3 3 re f" % (692 - 13 * i), _text("R", 10, 90, 690 - 13 * i, item)]
        return _page(ops + [_text("R", 10, 72, 620, BODY)])
    assert "- first item of the list\n- second item of the list" in extract_text(page(b"0 0 0"), mode="markdown").text
    assert not re.search(r"^\s*- ", extract_text(page(b"1 1 1"), mode="markdown").text, re.MULTILINE)


def test_the_drawing_enters_layout_as_an_input_and_structure_reads_it_there():
    from glyphline.layout import analyze_page
    from glyphline.layout.model import AnalysisNeeds

    page = glyphline.open(_ruled_table(lambda i: 0.5 if i == 0 else 0), paths=True).page(0)
    layout = analyze_page(page.glyphs, page.width, page.height, 1, needs=AnalysisNeeds(drawing=True),
                          drawing=page.drawing)
    blank = analyze_page([], page.width, page.height, 1, needs=AnalysisNeeds(drawing=True), drawing=page.drawing)
    assert layout.drawing is page.drawing and blank.drawing is page.drawing
    mark_structure(layout, HeadingStyles())
    assert [block.kind for block in layout.blocks if block.table >= 0][0] == "table_header"


def test_a_page_drawing_more_rules_than_the_grid_budget_gets_no_grid_search():
    from glyphline.layout.drawn import GRID_MAX_RULE_PAIRS, ruled_grids

    side = int(GRID_MAX_RULE_PAIRS ** 0.5) + 1   # a mesh of side × side rules, each pair meeting
    mesh = [Ruling(0, 10.0 * i, 10.0 * side, 10.0 * i, 0.1, True) for i in range(side)] + \
           [Ruling(10.0 * i, 0, 10.0 * i, 10.0 * side, 0.1, False) for i in range(side)]
    assert ruled_grids(PageDrawing(len(mesh), rulings=mesh), 10.0) == []
    small = mesh[:3] + mesh[side:side + 3]
    assert len(ruled_grids(PageDrawing(len(small), rulings=small), 10.0)) == 1
