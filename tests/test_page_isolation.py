"""A page never costs the document: a blank page, a layout bug or a rendering bug on one page
leaves the other pages' text, with a warning for that page; and the layout is total: any small
set of glyphs, however degenerate, lays out without raising."""
from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pdfbuilder import PdfBuilder

import glyphline.layout as layout_stage
import glyphline.output.text as text_output
from glyphline.cli import main as cli_main
from glyphline.extract import extract_text
from glyphline.glyph import Glyph
from glyphline.layout import analyze_page, fallback_layout
from glyphline.output.grid import render_grid
from glyphline.output.json_out import page_object


def _three_pages(middle: bytes) -> bytes:
    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    b.page(b"BT /F1 12 Tf 72 700 Td (First page text) Tj ET", fonts={"F1": font})
    b.page(middle, fonts={"F1": font})
    b.page(b"BT /F1 12 Tf 72 700 Td (Third page text) Tj ET", fonts={"F1": font})
    return b.build()


def test_a_page_of_only_space_glyphs_is_blank_and_the_document_goes_on():
    # an empty Word page: its paragraph marks are drawn as space glyphs
    data = _three_pages(b"BT /F1 12 Tf 72 700 Td (   ) Tj 0 -14 Td ( ) Tj ET")
    result = extract_text(data)
    assert [p.text for p in result.pages] == ["First page text", "", "Third page text"]
    assert result.scan is None


def test_a_layout_bug_on_one_page_costs_that_page_only(monkeypatch):
    real = layout_stage.analyze_page

    def broken_on_page_two(glyphs, width, height, number, doc_stats=None, **page_facts):
        if number == 2:
            raise ZeroDivisionError("planted")
        return real(glyphs, width, height, number, doc_stats, **page_facts)

    monkeypatch.setattr(layout_stage, "analyze_page", broken_on_page_two)
    result = extract_text(_three_pages(b"BT /F1 12 Tf 72 700 Td (Second page) Tj 0 -14 Td (next line) Tj ET"))
    assert result.pages[0].text == "First page text"
    assert result.pages[2].text == "Third page text"
    # the broken page keeps its words, in drawing order
    assert result.pages[1].text.split() == ["Second", "page", "next", "line"]
    assert any("page 2 could not be laid out" in w and "ZeroDivisionError" in w for w in result.warnings)


def test_a_rendering_bug_on_one_page_costs_that_page_only(monkeypatch):
    real = text_output.render_page

    def broken_on_page_three(layout, mode, **kwargs):
        if layout.number == 3:
            raise KeyError("planted")
        return real(layout, mode, **kwargs)

    monkeypatch.setattr(text_output, "render_page", broken_on_page_three)
    result = extract_text(_three_pages(b"BT /F1 12 Tf 72 700 Td (Second) Tj ET"))
    assert [p.text for p in result.pages] == ["First page text", "Second", ""]
    assert any("page 3 could not be rendered" in w for w in result.warnings)


def test_the_cli_writes_the_other_pages_and_exits_0_when_one_page_breaks(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(layout_stage, "analyze_page", lambda *a, **k: 1 / 0)
    pdf = tmp_path / "doc.pdf"
    pdf.write_bytes(_three_pages(b"BT /F1 12 Tf 72 700 Td (Second) Tj ET"))
    assert cli_main([str(pdf)]) == 0
    captured = capsys.readouterr()
    assert "First page text" in captured.out and "Third page text" in captured.out
    assert "Traceback" not in captured.err


def test_glyphline_debug_lets_a_layout_bug_raise(monkeypatch):
    monkeypatch.setenv("GLYPHLINE_DEBUG", "1")
    monkeypatch.setattr(layout_stage, "analyze_page", lambda *a, **k: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        extract_text(_three_pages(b""))


# ----------------------------------------------------------------------------- totality

_coordinate = st.one_of(st.floats(-1e4, 1e4), st.sampled_from([0.0, -1e9, 1e9, 1e-9]))
_length = st.one_of(st.floats(0, 50), st.sampled_from([0.0, 1e-12, 1e6]))
_direction = st.sampled_from([(1.0, 0.0), (0.0, 1.0), (0.0, -1.0), (-1.0, 0.0), (0.7071, 0.7071),
                              (0.0, 0.0), (1e-12, 0.0), (0.6, 0.8)])


@st.composite
def _glyphs(draw) -> list[Glyph]:
    out = []
    for _ in range(draw(st.integers(0, 14))):
        x, y = draw(_coordinate), draw(_coordinate)
        dx, dy = draw(_direction)
        advance = draw(_length)
        size = draw(_length)
        out.append(Glyph(
            text=draw(st.sampled_from([" ", "a", "W", "1", ".", "-", "\u00ad", "\u05d0", "\u0627", "\u4e00",
                                       "fi", "\u00a0", "\u3000", "\t", "\u0301", "ab c"])),
            x=x, y=y, end_x=x + advance * dx, end_y=y + advance * dy, advance=advance, dx=dx, dy=dy,
            height=draw(_length), descent=draw(st.floats(0, 10)), size=size,
            font=draw(st.sampled_from(["F1", "F2", ""])), flags=draw(st.sampled_from([0, 1, 2, 4, 8, 3])),
        ))
    return out


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_glyphs(), st.sampled_from([(612.0, 792.0), (0.0, 0.0), (1e-6, 1e6)]))
def test_layout_is_total_on_degenerate_glyph_sets(glyphs, size):
    width, height = size
    layout = analyze_page(glyphs, width, height, 1)
    for mode in ("reflow", "preserve"):
        text = text_output.render_page(layout, mode)
        assert isinstance(text, str)
    render_grid(layout)
    page_object(layout, rotation=0, scan=False, warnings=[])
    words = [w.text for b in layout.blocks for line in b.lines for w in line.words]
    assert all(w.strip() for w in words)   # no empty or whitespace-only word (an ActualText span may hold a space)
    assert all(not math.isnan(b.x0) for b in layout.blocks)


@settings(max_examples=200, deadline=None)
@given(_glyphs())
def test_the_fallback_layout_is_total_and_keeps_every_visible_character(glyphs):
    layout = fallback_layout(glyphs, 612.0, 792.0, 1)
    kept = "".join(w.text for b in layout.blocks for line in b.lines for w in line.words)
    drawn = "".join("".join(g.text.split()) for g in glyphs)
    assert kept == drawn
