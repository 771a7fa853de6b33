"""Markdown output: headings ranked by the document's own type, lists with nesting, tables,
emphasis, links, running headers left out, escaping; and the style and link facts layout
gives the words for it."""
from __future__ import annotations

import re
import subprocess
import sys

import pytest
from pdfbuilder import PdfBuilder

from glyphline import extract_text
from glyphline.extract import iter_pages
from glyphline.fonts.style import name_style
from glyphline.layout.model import Block, Line, Word
from glyphline.output.markdown import escape, markdown_page
from glyphline.output import PageContext
from glyphline.layout.model import PageLayout

BODY = "The quick brown fox jumps over the lazy dog while the farmer watches from the"
BODY_END = "gate and says nothing at all."


def build(pages, *, fonts=None, links=None) -> bytes:
    """Pages of (font, size, x, y, text) lines; fonts R (Helvetica), B (bold), I (oblique) unless given.
    `links`: per page index, a list of (rect, uri) Link annotations."""
    b = PdfBuilder()
    table = {"R": b.font_type1("Helvetica", encoding="/WinAnsiEncoding"),
             "B": b.font_type1("Helvetica-Bold", encoding="/WinAnsiEncoding"),
             "I": b.font_type1("Helvetica-Oblique", encoding="/WinAnsiEncoding")}
    for name, make in (fonts or {}).items():
        table[name] = make(b)
    for index, lines in enumerate(pages):
        ops = [b"BT /%s %g Tf %g %g Td (%s) Tj ET" % (font.encode(), size, x, y,
                                                     text.encode("cp1252").replace(b"(", b"\\(").replace(b")", b"\\)"))
               for font, size, x, y, text in lines]
        extra = {}
        if links and links.get(index):
            extra["Annots"] = [b.add({"Type": "/Annot", "Subtype": "/Link", "Rect": list(rect),
                                      "A": {"S": "/URI", "URI": uri.encode()}}) for rect, uri in links[index]]
        b.page(b"\n".join(ops), fonts=table, extra=extra)
    return b.build()


def markdown(data: bytes) -> str:
    return extract_text(data, mode="markdown").text


def paragraph(y: float, size: float = 10, x: float = 72) -> list:
    return [("R", size, x, y, BODY), ("R", size, x, y - 1.2 * size, BODY_END)]


# ----------------------------------------------------------------------------- headings

def test_two_heading_levels_ranked_by_size_against_the_body():
    page = [("B", 18, 72, 720, "Annual Harbour Report")] + paragraph(690) + \
           [("B", 13, 72, 650, "Ferry Services")] + paragraph(625) + \
           [("B", 13, 72, 585, "Drainage Works")] + paragraph(560)
    text = markdown(build([page]))
    assert "# Annual Harbour Report\n" in text
    assert "\n## Ferry Services\n" in text and "\n## Drainage Works\n" in text
    assert f"{BODY} {BODY_END}" in text and "#" not in text.split("Ferry Services")[1].split("\n")[2]


def test_heading_levels_are_relative_to_the_body_not_fixed_sizes():
    # the same document at twice the size: body 20 pt is no heading, 26 pt is the first level
    page = [("B", 26, 36, 740, "Large Print Notice")] + paragraph(700, size=20, x=36)
    text = markdown(build([page]))
    assert text.splitlines()[2] == "# Large Print Notice"
    assert not any(line.startswith("#") for line in text.splitlines()[3:])


def test_a_bold_line_at_body_size_is_the_lowest_heading_level():
    page = [("B", 14, 72, 720, "Report")] + paragraph(695) + [("B", 10, 72, 660, "Method")] + paragraph(645)
    lines = markdown(build([page])).splitlines()
    assert "# Report" in lines and "## Method" in lines


def test_a_document_in_one_size_without_bold_lines_has_no_headings():
    page = paragraph(720) + paragraph(690) + [("R", 10, 72, 660, "Short line of its own")] + paragraph(640)
    text = markdown(build([page, paragraph(720)]))
    assert not re.search(r"^#", text, re.MULTILINE)
    assert "Short line of its own" in text


# ----------------------------------------------------------------------------- lists

def test_bullets_with_nesting_from_indent_and_continuation_lines_joined():
    page = paragraph(720) + [
        ("R", 10, 72, 680, "• first item of the list"),
        ("R", 10, 72, 666, "• second item that runs on"),
        ("R", 10, 80, 654, "onto a second line"),
        ("R", 10, 90, 640, "– nested item below it"),
        ("R", 10, 72, 626, "• third item back out"),
    ] + paragraph(590)
    text = markdown(build([page]))
    assert ("- first item of the list\n- second item that runs on onto a second line\n"
            "    - nested item below it\n- third item back out") in text


def test_numbered_items_with_lettered_items_nested():
    page = [
        ("R", 10, 72, 700, "1. Write the variety in pencil."),
        ("R", 10, 90, 686, "a) never in ink,"),
        ("R", 10, 90, 672, "b) and never in chalk."),
        ("R", 10, 72, 658, "2. Record the cutting in the ledger."),
    ] + paragraph(620)
    text = markdown(build([page]))
    assert ("1. Write the variety in pencil.\n    - a) never in ink,\n    - b) and never in chalk.\n"
            "2. Record the cutting in the ledger.") in text


def test_a_lone_letter_opening_a_sentence_is_no_list():
    page = [("R", 10, 72, 700, "A. Smith wrote the report on the harbour in the spring.")] + paragraph(670)
    text = markdown(build([page]))
    assert "A. Smith wrote" in text and "- A" not in text


def test_a_single_character_in_a_symbol_font_is_a_bullet():
    wingdings = {"W": lambda b: b.font_truetype("Wingdings", widths=[600] * 224, encoding="/WinAnsiEncoding")}
    page = [("W", 10, 72, 700, "\xa7"), ("R", 10, 84, 700, "check the gauges"),
            ("W", 10, 72, 686, "\xa7"), ("R", 10, 84, 686, "photograph the damage")] + paragraph(650)
    text = markdown(build([page], fonts=wingdings))
    assert "- check the gauges\n- photograph the damage" in text


def test_pdftex_bitmap_bullets_of_textcomp_are_list_items():
    # \\textbullet where cm-super is missing: a PK Type3 font defining only TS1's code 136 (T1's Ĺ)
    pk = {"P": lambda b: b.font_type3({136: "a136"}, font_matrix=(0.01, 0, 0, 0.01, 0, 0), width=40)}
    page = [line for y, item in ((700, "The island route, four crossings a day"), (686, "The estuary route"),
                                 (672, "The night freight service"))
            for line in (("P", 10, 72, y, "\u02c6"), ("R", 10, 84, y, item))] + paragraph(640)
    data = build([page], fonts=pk)
    assert "- The island route, four crossings a day\n- The estuary route\n- The night freight service" in markdown(data)
    assert extract_text(data).text.startswith("• The island route, four crossings a day\n\n• The estuary route")


def _one_line_block(x: float, y: float, text: str, font: str = "Helvetica") -> Block:
    words, at = [], x
    for part in text.split():
        words.append(Word(part, at, y, at + 5 * len(part), y + 10, 10, font))
        at += 5 * len(part) + 3
    return Block([Line(words, x, y, words[-1].x1, y + 10)], x, y, words[-1].x1, y + 10)


def test_a_bullet_layout_set_apart_as_a_block_of_its_own_marks_the_block_beside_it():
    from glyphline.layout.structure import HeadingStyles, mark_structure

    blocks = []
    for x, y, item in ((80, 100, "The boat hall"), (80, 116, "The chart room"), (100, 132, "Early charts")):
        blocks += [_one_line_block(x, y, "•", "OpenSymbol"), _one_line_block(x + 14, y, item)]
    blocks += [_one_line_block(80, 160, "•"), _one_line_block(200, 160, "far from its bullet")]
    layout = PageLayout(1, 600, 800, blocks=blocks)
    mark_structure(layout, HeadingStyles(body_size=10))
    assert markdown_page(layout, PageContext()) == ("- The boat hall\n- The chart room\n    - Early charts\n\n"
                                                    "•\n\nfar from its bullet")


# ----------------------------------------------------------------------------- tables

def _table_page(header_font: str) -> list:
    rows = [(header_font, "Station", "Altitude", "Rain")] + \
           [("R", name, alt, rain) for name, alt, rain in
            (("Ridge North", "1,240", "38.5"), ("Ridge South", "1,105", "41.0"), ("Valley Floor", "410", "22.3"))]
    page = paragraph(720)
    y = 680
    for font, *cells in rows:
        page.extend((font, 10, x, y, cell) for x, cell in zip((72, 200, 300), cells))
        y -= 14
    return page + paragraph(600)


def test_a_table_with_a_bold_first_row_is_a_pipe_table_with_that_header():
    text = markdown(build([_table_page("B")]))
    assert ("| Station | Altitude | Rain |\n| --- | --- | --- |\n| Ridge North | 1,240 | 38.5 |\n"
            "| Ridge South | 1,105 | 41.0 |\n| Valley Floor | 410 | 22.3 |") in text


def test_a_table_without_a_distinct_first_row_gets_an_empty_header():
    text = markdown(build([_table_page("R")]))
    assert "|  |  |  |\n| --- | --- | --- |\n| Station | Altitude | Rain |\n| Ridge North | 1,240 | 38.5 |" in text


def _row(table: int, *cells: str) -> Block:
    words = [[Word(t, 0, 0, 1, 1, 10, "Helvetica")] if t else [] for t in cells]
    line = Line([w for cell in words for w in cell] or [Word("x", 0, 0, 1, 1, 10, "Helvetica")], 0, 0, 1, 1)
    return Block([line], 0, 0, 1, 1, table=table, cells=words, kind="table_row")


def test_a_grid_too_irregular_for_markdown_is_one_row_per_line():
    layout = PageLayout(1, 600, 800, blocks=[_row(0, "a", "", "", ""), _row(0, "", "b", "", ""),
                                             _row(0, "", "", "c", "d|e")])
    assert markdown_page(layout, PageContext()) == "a\nb\nc | d\\|e"


# ----------------------------------------------------------------------------- emphasis, links, escaping

def test_a_bold_run_inside_a_paragraph_is_emphasis_but_a_bold_paragraph_is_not():
    page = [("R", 10, 72, 700, "Here is"), ("B", 10, 110, 700, "the important part"),
            ("R", 10, 210, 700, "of the sentence,"), ("I", 10, 290, 700, "slanted"), ("R", 10, 330, 700, "too.")] + \
           [("B", 10, 72, 660, BODY), ("B", 10, 72, 648, BODY_END)] + paragraph(620)
    text = markdown(build([page]))
    assert "Here is **the important part** of the sentence, *slanted* too." in text
    assert f"\n{BODY} {BODY_END}\n" in text


def test_words_under_a_uri_link_become_a_markdown_link():
    page = [("R", 10, 72, 700, "Read the"), ("R", 10, 117, 700, "full timetable"),
            ("R", 10, 185, 700, "online or"), ("R", 10, 230, 700, "https://example.org/ferry")] + paragraph(660)
    links = {0: [((115, 696, 182, 710), "https://example.org/timetable?day=mon"),
                 ((228, 696, 360, 710), "https://example.org/ferry")]}
    text = markdown(build([page], links=links))
    assert "Read the [full timetable](https://example.org/timetable?day=mon) online or <https://example.org/ferry>" in text
    assert "example.org/timetable" not in extract_text(build([page], links=links)).text   # only Markdown writes links


def test_punctuation_outside_a_links_area_stays_outside_the_link():
    # Helvetica 10 pt: "example.org" is 55.02 pt wide, "(" 3.33 pt, "harbour.example" 75.03 pt
    page = [("R", 10, 72, 700, "Visit"), ("R", 10, 100, 700, "example.org."), ("R", 10, 165, 700, "or"),
            ("R", 10, 180, 700, "(harbour.example),"), ("R", 10, 280, 700, "then"),
            ("R", 10, 305, 700, "example.org.")] + paragraph(660)
    links = {0: [((100, 697, 155.1, 709), "https://example.org/"), ((183.3, 697, 258.4, 709), "https://harbour.example/"),
                 ((305, 697, 363, 709), "https://example.org/all")]}   # the last area covers its full stop too
    text = markdown(build([page], links=links))
    assert ("Visit [example.org](https://example.org/). or ([harbour.example](https://harbour.example/)), "
            "then [example.org.](https://example.org/all)") in text


def test_markdown_metacharacters_in_the_text_are_escaped():
    page = [("R", 10, 72, 700, "# not a heading"), ("R", 10, 72, 670, "Prices *fell* by 3_4 [sic] <b>")] + paragraph(640)
    text = markdown(build([page]))
    assert "\\# not a heading" in text and "Prices \\*fell\\* by 3\\_4 \\[sic\\] \\<b\\>" in text
    assert escape("a|b`c") == "a\\|b\\`c"


# ----------------------------------------------------------------------------- pages

def test_running_headers_and_page_numbers_are_left_out_with_page_markers():
    def page(number: int) -> list:
        return [("R", 9, 72, 760, "Harbour Report 2026")] + paragraph(700) + paragraph(660) + \
               [("R", 9, 300, 40, str(number))]
    data = build([page(1), page(2), page(3)])
    text = markdown(data)
    assert "Harbour Report" not in text and not re.search(r"^\d$", text, re.MULTILINE)
    assert [m for m in re.findall(r"<!-- page (\d) -->", text)] == ["1", "2", "3"]
    assert text.startswith("<!-- page 1 -->\n\n" + BODY)
    assert "Harbour Report 2026" in extract_text(data).text   # reflow keeps them


def test_a_title_at_the_top_of_a_one_page_document_is_kept():
    page = [("B", 16, 72, 760, "Notice to Residents")] + paragraph(700) + paragraph(660)
    assert markdown(build([page])).startswith("<!-- page 1 -->\n\n# Notice to Residents\n")


def test_iter_pages_gives_markdown_pages():
    pages = [[("B", 16, 72, 720, title)] + paragraph(690) for title in ("Notice", "Reply")]
    pages = list(iter_pages(build(pages), mode="markdown"))
    assert [p.text.splitlines()[0] for p in pages] == ["# Notice", "# Reply"]


def test_the_cli_writes_md_files(tmp_path):
    source = tmp_path / "notice.pdf"
    source.write_bytes(build([[("B", 16, 72, 720, "Notice")] + paragraph(690)]))
    out = tmp_path / "out"
    proc = subprocess.run([sys.executable, "-m", "glyphline", "--mode", "markdown", "--outdir", str(out), str(source)],
                          capture_output=True)
    assert proc.returncode == 0, proc.stderr
    assert (out / "notice.md").read_text(encoding="utf-8").startswith("<!-- page 1 -->\n\n# Notice\n")


# ----------------------------------------------------------------------------- font style facts

@pytest.mark.parametrize("name, style", [
    ("Helvetica-Bold", (True, False)), ("Arial,BoldItalic", (True, True)), ("TimesNewRomanPS-ItalicMT", (False, True)),
    ("CMBX10", (True, False)), ("CMTI10", (False, True)), ("CMR10", (False, False)), ("Times-Roman", (False, False)),
    ("SourceSansPro-Semibold", (True, False)), ("DejaVuSans-Oblique", (False, True)),
])
def test_style_from_the_font_name(name, style):
    assert name_style(name) == style


def test_style_from_the_font_descriptor_weight_and_angle():
    def styled(b, weight, angle):
        descriptor = b.add({"Type": "/FontDescriptor", "FontName": f"/Plain{weight}", "Flags": 32, "FontBBox": [0, -200, 1000, 800],
                            "ItalicAngle": angle, "Ascent": 800, "Descent": -200, "CapHeight": 700, "StemV": 80,
                            "FontWeight": weight})
        return b.add({"Type": "/Font", "Subtype": "/TrueType", "BaseFont": f"/Plain{weight}", "FirstChar": 32, "LastChar": 126,
                      "Widths": [500] * 95, "Encoding": "/WinAnsiEncoding", "FontDescriptor": descriptor})
    fonts = {"H": lambda b: styled(b, 700, 0), "S": lambda b: styled(b, 400, -12)}
    page = [("R", 10, 72, 700, "one"), ("H", 10, 100, 700, "heavy"), ("R", 10, 140, 700, "two"),
            ("S", 10, 170, 700, "slanted"), ("R", 10, 220, 700, "three")] + paragraph(660)
    assert "one **heavy** two *slanted* three" in markdown(build([page], fonts=fonts))


def test_a_footnote_is_paired_with_its_mark_on_the_page():
    page = [("R", 10, 72, 700, "The council approved a drainage scheme1 that cost 4.2 million euros and"),
            ("R", 10, 72, 688, "took twenty-six months to build before the floods came.")] + paragraph(660) + \
           [("R", 8, 72, 120, "1 The scheme was first proposed in 2014."),
            ("R", 8, 72, 100, "7 A note whose mark is nowhere on the page.")]
    text = markdown(build([page]))
    assert "drainage scheme[^1] that cost 4.2 million" in text
    assert "\n[^1]: The scheme was first proposed in 2014.\n" in text
    assert "\n7 A note whose mark is nowhere on the page." in text


def test_footnotes_set_without_a_gap_are_each_paired_with_their_marks():
    page = [("R", 10, 72, 700, "The winter timetable runs from November to March1 and keeps the early"),
            ("R", 10, 72, 688, "crossing on weekdays only. Fares rose by four percent this year2, the first")] + \
        paragraph(660) + [("R", 8, 72, 120, "1 Dates are confirmed each autumn by the harbour board."),
                          ("R", 8, 72, 110.4, "2 Children under five still travel free of charge.")]
    text = markdown(build([page]))
    assert "to March[^1] and" in text and "this year[^2], the first" in text
    assert text.endswith("\n[^1]: Dates are confirmed each autumn by the harbour board.\n\n"
                         "[^2]: Children under five still travel free of charge.\n")


def test_a_superscript_mark_set_apart_and_a_dagger_are_footnote_marks():
    # "scheme" ends at x 255.4: the raised 6 pt "1" stands a word space after it
    page = [("R", 10, 72, 700, "The council approved a drainage scheme"), ("R", 6, 259, 704, "1"),
            ("R", 10, 266, 700, "that cost 4.2 million and the harbour levy† with it.")] + paragraph(660) + \
           [("R", 8, 72, 120, "1 The scheme was first proposed in 2014."), ("R", 8, 72, 100, "† Levied from 2027.")]
    text = markdown(build([page]))
    assert "drainage scheme[^1] that cost 4.2 million and the harbour levy[^†] with it." in text
    assert "\n[^1]: The scheme was first proposed in 2014.\n" in text and "\n[^†]: Levied from 2027." in text


def test_a_running_header_set_close_to_the_first_page_title_is_left_out_there_too():
    first = [("R", 9, 72, 760, "Harbour Gazette"), ("B", 16, 72, 744, "Spring Edition")] + paragraph(700)
    later = [("R", 9, 72, 760, "Harbour Gazette")] + paragraph(700) + paragraph(660)
    text = markdown(build([first, later, later]))
    assert "Harbour Gazette" not in text
    assert text.startswith("<!-- page 1 -->\n\n# Spring Edition\n")


def test_a_lone_number_closing_the_page_above_the_footer_zone_is_a_page_number():
    pages = [paragraph(700) + paragraph(660) + [("R", 10, 300, 120, str(n))] for n in (1, 2)]
    text = markdown(build(pages))
    assert not re.search(r"^\d$", text, re.MULTILINE) and text.count(BODY) == 4


def test_headings_at_the_tops_of_pages_that_differ_only_in_their_numbers_are_kept():
    pages = [[("B", 14, 72, 760, f"Section {n}: Notes from the valley")] + paragraph(720) + paragraph(680)
             for n in (3, 4)]
    text = markdown(build(pages))
    assert "# Section 3: Notes from the valley" in text and "# Section 4: Notes from the valley" in text


def test_a_paragraph_opening_with_an_emphasised_word_keeps_its_emphasis():
    page = [("I", 10, 72, 700, "Nota bene"), ("R", 10, 122, 700, "the gauges are read twice a day.")] + paragraph(660)
    assert "\n*Nota bene* the gauges are read twice a day.\n" in markdown(build([page]))


def test_a_running_header_with_the_page_number_first_or_last_is_left_out():
    def page(number: int) -> list:
        header = f"{number} USER MANUAL (VERSION 3.64)" if number % 2 == 0 else f"USER MANUAL (VERSION 3.64) {number}"
        return [("R", 9, 72, 760, header)] + paragraph(700) + paragraph(660)
    text = markdown(build([page(n) for n in (2, 3, 4)]))
    assert "MANUAL" not in text and text.count(BODY) == 6


def test_a_bug_in_the_structure_of_a_page_costs_only_its_structure(monkeypatch):
    import glyphline.layout.structure as structure   # extract.py loads it when a structured output asks

    def broken(layout, headings):
        raise RuntimeError("boom")
    monkeypatch.setattr(structure, "mark_structure", broken)
    monkeypatch.delenv("GLYPHLINE_DEBUG", raising=False)
    result = extract_text(build([[("B", 16, 72, 720, "Notice")] + paragraph(690)]), mode="markdown")
    assert result.text == f"<!-- page 1 -->\n\nNotice\n\n{BODY} {BODY_END}\n"
    assert any("structure could not be found" in w for w in result.warnings)


def test_right_aligned_item_numbers_stepping_left_stay_one_level():
    page = [("R", 10, 78, 700, "(i) the first condition holds,"), ("R", 10, 75, 686, "(ii) the second one too,"),
            ("R", 10, 72, 672, "(iii) and the third.")] + paragraph(640)
    text = markdown(build([page]))
    assert "- (i) the first condition holds,\n- (ii) the second one too,\n- (iii) and the third." in text
