"""Dehyphenation in reflow: every row of the rule table, the document's evidence, and the outputs."""
from __future__ import annotations

import pytest
from test_layout_support import paragraph, reflow, run
from pdfbuilder import PdfBuilder

from glyphline.extract import extract_text
from glyphline.layout import analyze_page
from glyphline.layout.hyphenation import Vocabulary, join_broken, join_lines
from glyphline.layout.across_pages import build_vocabulary, join_across_pages
from glyphline.output.text import render_page


@pytest.mark.parametrize("first, second, joined", [
    ("en-", "code", "encode"),                    # lowercase next: join, drop the hyphen
    ("Osei-", "Mensah", "Osei-Mensah"),           # capital next: keep the hyphen, no space
    ("COVID-", "19", "COVID-19"),                 # digit next: keep the hyphen, no space
    ("Baden-", "Württemberg", "Baden-Württemberg"),
    ("co\u2010", "operate", "cooperate"),         # U+2010 HYPHEN
    ("en\u00ad", "code", "encode"),               # soft hyphen: a discretionary break
    ("En\u00ad", "Code", "EnCode"),               # soft hyphen joins whatever follows
    ("state-of-", "the-art", "state-of-the-art"),  # a compound chain goes on
    ("2026-", "2027.", "2026-2027."),            # after a digit: a range's own hyphen, no space
    ("10-", "12x,", "10-12x,"),
    ("24-", "hour", "24-hour"),                   # ... or a compound's, even before a lowercase letter
])
def test_fixed_rule_table(first, second, joined):
    assert join_broken(first, second, None) == joined


def test_compound_seen_unbroken_elsewhere_keeps_its_hyphen():
    vocabulary = Vocabulary()
    vocabulary.add_line(["a", "well-known", "fact"])
    assert join_broken("well-", "known", vocabulary) == "well-known"
    assert join_broken("self-", "contained", vocabulary) == "selfcontained"


def test_joined_word_seen_elsewhere_wins_even_before_a_capital():
    vocabulary = Vocabulary()
    vocabulary.add_line(["the", "PostScript", "language"])
    assert join_broken("Post-", "Script", vocabulary) == "PostScript"


def test_line_end_fragments_are_not_evidence():
    vocabulary = Vocabulary()
    vocabulary.add_line(["we", "tested", "well-"])
    assert "well-" not in vocabulary and vocabulary.count("tested") == 1


def test_join_lines_keeps_trailing_punctuation_and_the_rest_of_the_line():
    assert join_lines(["the en-", "code, step by step"], None) == "the encode, step by step"


def test_dash_at_line_end_is_not_a_word_break():
    assert join_lines(["pending –", "official"], None) == "pending – official"
    assert join_lines(["range 10 -", "20 items"], None) == "range 10 - 20 items"
    assert join_lines(["range 10-", "20 items"], None) == "range 10-20 items"   # a hyphen after a digit is its range's


def test_dehyphenate_off_keeps_the_break_as_a_space():
    assert join_lines(["en-", "code"], None, dehyphenate=False) == "en- code"


def test_cjk_lines_join_without_a_space():
    assert join_lines(["清晨的菜", "市场"], None) == "清晨的菜市场"


def test_reflow_uses_document_evidence_across_pages():
    page1 = analyze_page(paragraph(["the self-contained unit"], 72, 100), 612, 792, 1)
    page2 = analyze_page(paragraph(["another self-", "contained unit"], 72, 100), 612, 792, 2)
    vocabulary = build_vocabulary([page1, page2])
    assert render_page(page2, "reflow", vocabulary) == "another self-contained unit"
    assert render_page(page2, "reflow", Vocabulary()) == "another selfcontained unit"


def test_preserve_mode_never_dehyphenates():
    layout = analyze_page(paragraph(["en-", "code"], 72, 100), 612, 792, 1)
    assert render_page(layout, "preserve") == "en-\ncode"


def test_reflow_end_to_end_from_glyphs():
    glyphs = paragraph(["Maria Osei-", "Mensah wrote an en-", "coded note in COVID-", "19 times."], 72, 100)
    assert reflow(glyphs) == "Maria Osei-Mensah wrote an encoded note in COVID-19 times."


def test_unknown_mode_is_refused():
    with pytest.raises(ValueError):
        render_page(analyze_page([], 612, 792, 1), "poetry")


def _two_pages(first_lines, second_lines, number_gap=1):
    header = run("Running Head", 250, 30, size=8)
    page1 = analyze_page(header + paragraph(first_lines, 72, 100) + run("1", 300, 760, size=8),
                         612, 792, 1)
    page2 = analyze_page(header + paragraph(second_lines, 72, 100) + run("2", 300, 760, size=8),
                         612, 792, 1 + number_gap)
    return page1, page2


def test_word_hyphenated_across_a_page_break_is_joined_on_the_first_page():
    page1, page2 = _two_pages(["The last line of the page is en-"], ["code the data, says the next page."])
    vocabulary = build_vocabulary([page1, page2])
    page1, page2 = join_across_pages([page1, page2], vocabulary)
    assert render_page(page1, "reflow", vocabulary) == (
        "Running Head\n\nThe last line of the page is encode\n\n1")
    assert render_page(page2, "reflow", vocabulary) == (
        "Running Head\n\nthe data, says the next page.\n\n2")


def test_joining_across_pages_leaves_the_given_layouts_as_they_were():
    page1, page2 = _two_pages(["The last line of the page is en-"], ["code the data, says the next page."])
    vocabulary = build_vocabulary([page1, page2])
    joined = join_across_pages([page1, page2], vocabulary)
    assert joined[0] is not page1 and joined[1] is not page2
    assert render_page(page1, "reflow", vocabulary).endswith("The last line of the page is en-\n\n1")
    assert render_page(page2, "reflow", vocabulary) == (
        "Running Head\n\ncode the data, says the next page.\n\n2")


def test_pages_that_do_not_follow_each_other_are_not_joined():
    page1, page3 = _two_pages(["The page ends in en-"], ["code on a later page."], number_gap=2)
    page1, page3 = join_across_pages([page1, page3], Vocabulary())
    assert render_page(page1, "reflow", Vocabulary()).endswith("The page ends in en-\n\n1")


def test_extract_text_joins_across_the_page_break_and_keeps_the_form_feed():
    from pdfbuilder import PdfBuilder

    from glyphline import extract_text

    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    b.page(b"BT /F1 12 Tf 72 700 Td (The first page ends with en-) Tj ET", fonts={"F1": font})
    b.page(b"BT /F1 12 Tf 72 700 Td (code on the second page.) Tj ET", fonts={"F1": font})
    text = extract_text(b.build()).text
    assert text == "The first page ends with encode\n\fon the second page.\n"
    assert extract_text(b.build(), dehyphenate=False).text.startswith("The first page ends with en-\n\f")


def test_break_after_a_whole_part_of_a_compound_keeps_the_hyphen():
    vocabulary = Vocabulary()
    vocabulary.add_line("the art of the laboratory was contained".split())
    assert join_broken("state-of-the-", "art", vocabulary) == "state-of-the-art"
    assert join_broken("self-con-", "tained", vocabulary) == "self-contained"     # "con" is no word


def test_a_page_cut_to_its_text_reflows_and_joins_across_pages_as_the_whole_layout():
    """extract.DocumentPasses keeps reflow_text_only of each page of a long document until the
    vocabulary is complete: the joins and the text must be those of the whole layouts."""
    from glyphline.layout.across_pages import reflow_text_only
    from glyphline.layout.model import ReflowLine

    page1, page2 = _two_pages(["A self-contained first line, then an", "en-", "coded middle and the last line is en-"],
                              ["code the data, then a self-", "contained note and the end."])
    vocabulary = build_vocabulary([page1, page2])
    whole = join_across_pages([page1, page2], vocabulary)
    cut = join_across_pages([reflow_text_only(page1), reflow_text_only(page2)], vocabulary)
    for kept, reduced in zip(whole, cut):
        assert render_page(reduced, "reflow", vocabulary) == render_page(kept, "reflow", vocabulary)
    assert render_page(cut[0], "reflow", vocabulary).endswith("the last line is encode\n\n1")
    # only the two lines a page break may join keep their words; every other line is a ReflowLine
    lines = [line for block in reflow_text_only(page1).blocks for line in block.lines]
    assert sum(isinstance(line, ReflowLine) for line in lines) == len(lines) - 2


def test_a_page_cut_to_its_text_keeps_blocks_and_end_words_as_small_records():
    """Blocks no page break changes are ReflowBlocks (runs and role), and the words kept for a
    join across pages are EndWords (their text): a few hundred bytes a page, not kilobytes."""
    from glyphline.layout.across_pages import reflow_text_only
    from glyphline.layout.model import Block, EndWord, ReflowBlock

    page1, page2 = _two_pages(["A first line of the body and then an", "ending line that is hyphen-"],
                              ["ated on the next page, which goes on."])
    vocabulary = build_vocabulary([page1, page2])
    cut = reflow_text_only(page1)
    assert [type(block) for block in cut.blocks] == [ReflowBlock, Block, ReflowBlock]   # head, body, page number
    assert all(type(word) is EndWord for word in cut.blocks[1].lines[-1].words)
    whole = join_across_pages([page1, page2], vocabulary)
    reduced = join_across_pages([cut, reflow_text_only(page2)], vocabulary)
    assert [render_page(p, "reflow", vocabulary) for p in reduced] == [render_page(p, "reflow", vocabulary) for p in whole]


def test_a_range_broken_at_its_hyphen_reads_whole():
    # an analyst's note (pdf.js chrome-text-selection-markedContent) breaks "2026-2027" and
    # "10-12x" after the hyphen: numbers are not hyphenated, so the hyphen stays, with no space
    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    b.page(b"BT /F1 10 Tf 72 700 Td 12 TL (prospects in 2026-) Tj T* (2027 and a multiple of 10-) Tj "
           b"T* (12x for the sector.) Tj ET", fonts={"F1": font})
    assert extract_text(b.build()).text == "prospects in 2026-2027 and a multiple of 10-12x for the sector.\n"


PENDING_CASES = [
    ["A well-", "known en-", "code and con-", "tained", "data"],
    ["the COVID-", "19 wave, state-of-", "the-art and Ein-", "und Ausgang, self-", "contained"],
    ["prospects in 2026-", "2027 and soft\xad", "ware, an every-", "thing of (re-", "use) en-", "code"],
    ["Teil-", "menge und hoch-", "wertig, deutsch-", "französischen Ein-", "und Ausgang"],
]
VOCABULARIES = [[], ["encode", "well-known", "contained"], ["en-code", "en-code", "encode", "everything"],
                ["der", "die", "und", "das", "ist", "nicht", "ein", "zu", "Teilmenge"], ["the", "of", "and", "to", "self"]]


@pytest.mark.parametrize("lines", PENDING_CASES)
@pytest.mark.parametrize("words", VOCABULARIES)
def test_joins_left_pending_and_decided_later_read_as_joins_decided_at_once(lines, words):
    """PendingJoins (a page written before the vocabulary is complete): each join the vocabulary
    decides is a mark in the text; resolve_joins decides them with the complete vocabulary, and
    the text is join_lines' own. Joins no evidence decides (soft hyphen, numbers, chains,
    capitals after a digit) are made at once, without a mark."""
    from glyphline.layout.hyphenation import MARK_BASE, PendingJoins, resolve_joins

    vocabulary = Vocabulary()
    vocabulary.add_line(words)
    pending = PendingJoins()
    marked = join_lines(lines, pending)
    assert pending.marked(marked)
    assert resolve_joins(marked, pending.joins, vocabulary) == join_lines(lines, vocabulary)
    assert all(MARK_BASE <= ord(c) for c in marked if ord(c) > 0xFFFF)
    assert "2026-2027" in join_lines(["2026-", "2027"], pending)   # no evidence read: no mark


def test_a_join_whose_word_holds_a_pending_mark_tangles_the_page():
    """`con-` `tained\xad` `ness`: the second join's word holds the first's mark (it may become a
    hyphen), so the page cannot be resolved later: it is tangled and waits for the vocabulary;
    so does a text holding a mark character of its own."""
    from glyphline.layout.hyphenation import MARK_BASE, PendingJoins

    pending = PendingJoins()
    assert not pending.marked(join_lines(["con-", "tained\xad", "ness"], pending))
    own = PendingJoins()
    assert not own.marked(join_lines([f"a glyph {chr(MARK_BASE)} of its own and en-", "code"], own))
