"""Markdown from the author's structure (tagged PDF): the tree's roles make headings, list items
with nesting, tables with a TH header and figure placeholders; geometry's rules remain for
untagged text and for the kinds a tree never uses. Also `auto` order and the tree's asides."""
from __future__ import annotations

from pdfbuilder import PdfBuilder, marked

from glyphline import extract_text


def line(x: float, y: float, text: str, font: str = "F1", size: float = 10) -> bytes:
    return b"BT /%s %g Tf %g %g Td (%s) Tj ET\n" % (font.encode(), size, x, y, text.encode("latin-1"))


def tagged_pdf(spans: list[tuple[int, bytes]], tree: list) -> bytes:
    """One page whose content is `spans` (MCID, drawing) tagged by `tree` (see PdfBuilder.struct_tree);
    F1 is Helvetica, F2 Helvetica-Bold."""
    b = PdfBuilder()
    fonts = {"F1": b.font_type1("Helvetica"), "F2": b.font_type1("Helvetica-Bold")}
    page = b.page(b"".join(marked("Span", mcid, drawing) for mcid, drawing in spans), fonts=fonts)
    return b.build(catalog=b.struct_tree(page, tree))


def markdown(data: bytes, order: str = "auto") -> str:
    return extract_text(data, mode="markdown", order=order).text


BODY = "The harbour office opens at eight and closes when the last ferry is in."


def test_heading_levels_come_from_the_tree_even_in_the_body_size():
    spans = [(0, line(72, 720, "Annual report")), (1, line(72, 700, BODY)),
             (2, line(72, 680, "Ferry services")), (3, line(72, 660, BODY))]
    data = tagged_pdf(spans, [("H1", [0]), ("P", [1]), ("H3", [2]), ("P", [3])])
    text = markdown(data)
    assert "# Annual report\n\n" + BODY + "\n\n### Ferry services\n\n" + BODY in text
    assert "#" not in markdown(data, order="geometry").replace("<!-- page 1 -->", "")   # one size: geometry sees none


def test_a_bold_line_the_tree_calls_a_paragraph_stays_one_when_the_tree_tags_headings():
    spans = [(0, line(72, 720, "Annual report", size=16)), (1, line(72, 690, "Bold lead line", "F2")),
             (2, line(72, 670, BODY)), (3, line(72, 656, BODY))]
    data = tagged_pdf(spans, [("H1", [0]), ("P", [1]), ("P", [2, 3])])
    assert "\nBold lead line\n" in markdown(data)
    assert "## Bold lead line" in markdown(data, order="geometry")


def test_a_tree_without_headings_leaves_them_to_the_geometry():
    spans = [(0, line(72, 720, "Annual report", "F2", 16)), (1, line(72, 690, BODY)), (2, line(72, 676, BODY))]
    data = tagged_pdf(spans, [("P", [0]), ("P", [1, 2])])
    assert "# Annual report" in markdown(data)


def test_list_items_and_nesting_from_the_tree_with_the_label_as_marker():
    # the items stand on consecutive lines (one geometric block); the nested items have no label text
    spans = [(0, line(72, 720, BODY)), (1, line(72, 700, "1.")), (2, line(90, 700, "Check the gauges")),
             (3, line(108, 686, "Oil pressure")), (4, line(108, 672, "Water level")),
             (5, line(72, 658, "2.")), (6, line(90, 658, "Photograph the damage"))]
    nested = ("L", [("LI", [("LBody", [3])]), ("LI", [("LBody", [4])])])
    tree = [("P", [0]), ("L", [("LI", [("Lbl", [1]), ("LBody", [2]), nested]),
                               ("LI", [("Lbl", [5]), ("LBody", [6])])])]
    text = markdown(tagged_pdf(spans, tree))
    assert "1. Check the gauges\n    - Oil pressure\n    - Water level\n2. Photograph the damage" in text


def test_a_table_from_the_tree_with_its_th_row_as_header():
    # one line per row, the cells close together: geometry alone would read each row as a sentence
    rows = [("TH", "Name", "Count"), ("TD", "Ferries", "12"), ("TD", "Tugs", "3")]
    spans, tree, mcid = [(0, line(72, 720, BODY))], [("P", [0])], 1
    table = []
    for r, (cell, *texts) in enumerate(rows):
        cells = []
        for c, text in enumerate(texts):
            spans.append((mcid, line(72 + 50 * c, 700 - 14 * r, text)))
            cells.append((cell, [mcid]))
            mcid += 1
        table.append(("TR", cells))
    tree.append(("Table", table))
    text = markdown(tagged_pdf(spans, tree))
    assert "| Name | Count |\n| --- | --- |\n| Ferries | 12 |\n| Tugs | 3 |" in text


def test_a_figure_with_alt_text_becomes_a_placeholder_where_the_tree_has_it():
    spans = [(0, line(72, 720, BODY)), (1, line(72, 600, "Closing words of the page."))]
    tree = [("P", [0]), ("Figure", [], {"Alt": "A lighthouse at dusk"}), ("Figure", []), ("P", [1])]
    text = markdown(tagged_pdf(spans, tree))
    assert BODY + "\n\n![A lighthouse at dusk]()\n\nClosing words" in text
    assert text.count("![") == 1   # a figure without alt text gives nothing


def test_untagged_text_keeps_the_geometric_rules():
    b = PdfBuilder()
    fonts = {"F1": b.font_type1("Helvetica"), "F2": b.font_type1("Helvetica-Bold")}
    content = (line(72, 720, "Untagged title", "F2", 16) + marked("P", 0, line(72, 690, BODY))
               + marked("H2", 1, line(72, 660, "Tagged section")) + marked("P", 2, line(72, 640, BODY)))
    page = b.page(content, fonts=fonts)
    text = markdown(b.build(catalog=b.struct_tree(page, [("P", [0]), ("H2", [1]), ("P", [2])])))
    assert "# Untagged title\n\n" + BODY + "\n\n## Tagged section" in text


def stacked(tree_order: list[int], aside: int) -> bytes:
    """Three paragraphs down the page; the tree reads them in `tree_order`, paragraph `aside` in an Aside."""
    texts = ["Alpha paragraph at the top", "Beta paragraph in the middle", "Gamma paragraph at the bottom"]
    spans = [(i, line(72, 700 - 80 * i, text, size=12)) for i, text in enumerate(texts)]
    tree = [("Aside", [("P", [i])]) if i == aside else ("P", [i]) for i in tree_order]
    return tagged_pdf(spans, tree)


def first_words(text: str) -> list[str]:
    return [block.split()[0] for block in text.split("\n\n") if block.strip()]


def test_auto_reads_the_trees_aside_after_the_rest():
    data = stacked([0, 1, 2], aside=0)
    assert first_words(extract_text(data, order="tags").text) == ["Alpha", "Beta", "Gamma"]
    assert first_words(extract_text(data, order="auto").text) == ["Beta", "Gamma", "Alpha"]


def test_a_tagged_item_without_a_label_takes_the_bullet_or_number_its_text_opens_with():
    # LibreOffice: LI > LBody > P, the printed bullet (· is • in the standard encoding) inside the body's text
    spans = [(0, line(72, 720, BODY)), (1, line(72, 700, "\xb7 Rinse the boat")), (2, line(72, 686, "\xb7 Sign back in")),
             (3, line(72, 672, "Drawn bullet only"))]
    tree = [("P", [0]), ("L", [("LI", [("LBody", [("P", [1])])]), ("LI", [("LBody", [("P", [2])])]),
                               ("LI", [("LBody", [3])])])]
    text = markdown(tagged_pdf(spans, tree))
    assert "- Rinse the boat\n- Sign back in\n- Drawn bullet only" in text


def _tagged_glyphs(glyphs, mcid: int):
    return [g._replace(mcid=mcid) for g in glyphs]


def _narrow_column_page(below_in_aside: bool) -> list[str]:
    """Main text, a narrow column beside it (geometry: a sidebar) and text below; the tree reads
    them in that order, the text below in an Aside or not."""
    from test_layout_support import paragraph as glyph_lines

    from glyphline.layout import analyze_page
    from glyphline.layout.model import AnalysisNeeds
    from glyphline.structure import Tag

    main = _tagged_glyphs(glyph_lines([f"main text line {i} with plenty of words in it" for i in range(6)], 72, 100), 0)
    side = _tagged_glyphs(glyph_lines(["side note", "in margin"], 420, 100, pitch=10, size=8), 1)
    below = _tagged_glyphs(glyph_lines(["the main text goes on below the sidebar region"], 72, 200), 2)
    below_tag = (Tag(2, "P", 5, ("Document", "Aside", "P"), (1, 4, 5)) if below_in_aside
                 else Tag(2, "P", 5, ("Document", "P"), (1, 5)))
    tags = {0: Tag(0, "P", 2, ("Document", "P"), (1, 2)), 1: Tag(1, "P", 3, ("Document", "P"), (1, 3)), 2: below_tag}
    glyphs = main + side + below
    assert [b.role for b in analyze_page(glyphs, 612, 792, 1).blocks] == ["body", "body", "sidebar"]
    layout = analyze_page(glyphs, 612, 792, 1, tags=tags, needs=AnalysisNeeds(order="auto"))
    return [block.lines[0].words[0].text for block in layout.blocks]


def test_auto_keeps_sidebars_last_unless_geometry_read_the_trees_aside_as_body():
    assert _narrow_column_page(below_in_aside=False) == ["main", "the", "side"]   # an infobox: read last
    # the tree says the text below is the aside: geometry took the wrong column for the sidebar
    assert _narrow_column_page(below_in_aside=True) == ["main", "side", "the"]


def test_text_the_tree_names_no_block_for_keeps_the_geometric_rules():
    # a tree that tags a whole page as one Sect (no paragraph, heading or list elements in it)
    spans = [(0, line(72, 720, "Annual report", "F2", 16)), (0, line(72, 690, BODY)),
             (0, line(72, 660, "\xb7 Rinse the boat")), (0, line(72, 646, "\xb7 Sign back in"))]
    text = markdown(tagged_pdf(spans, [("H2", []), ("Sect", [0])]))
    assert "# Annual report" in text and "- Rinse the boat\n- Sign back in" in text


def test_a_note_the_tree_tags_is_a_footnote_in_the_body_size_and_anywhere_on_the_page():
    # the notes follow their paragraphs in the text's own size: geometry alone takes them for text
    for role in ("Note", "FENote"):
        spans = [(0, line(72, 720, "The council approved a drainage scheme1 that cost 4.2 million euros.")),
                 (1, line(72, 700, "1 The scheme was first proposed in 2014.")), (2, line(72, 680, BODY)),
                 (3, line(72, 660, BODY))]
        data = tagged_pdf(spans, [("P", [0]), (role, [("P", [1])]), ("P", [2, 3])])
        text = markdown(data)
        assert "drainage scheme[^1] that cost" in text and "\n[^1]: The scheme was first proposed in 2014.\n" in text
    untagged = tagged_pdf(spans, [("P", [0]), ("P", [1]), ("P", [2, 3])])
    assert "[^1]" not in markdown(untagged)
