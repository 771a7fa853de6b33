"""Glyph-list builders for the layout tests, and the cleanup stage's own tests.

Layout tests skip PDF entirely: they build glyph records as a content interpreter would emit
them (viewer space, y down) and check the exact text that comes out.
"""
from __future__ import annotations

from glyphline.glyph import VERTICAL, Glyph
from glyphline.layout import analyze_page
from glyphline.layout.cleanup import clean_glyph_text, drop_duplicates
from glyphline.layout.across_pages import build_vocabulary
from glyphline.output.text import render_page

SIZE = 10.0
ADVANCE_EM = 0.5        # every test glyph is half an em wide
SPACE_EM = 0.3          # word gap made by positioning only (no space glyph)
PAGE_W, PAGE_H = 612.0, 792.0


def glyph(text: str, x: float, y: float, size: float = SIZE, font: str = "Body",
          dx: float = 1.0, dy: float = 0.0, advance: float | None = None, flags: int = 0) -> Glyph:
    adv = ADVANCE_EM * size if advance is None else advance
    return Glyph(text, x, y, x + dx * adv, y + dy * adv, adv, dx, dy,
                 1.2 * size, 0.25 * size, size, font, flags)


def run(text: str, x: float, y: float, size: float = SIZE, font: str = "Body",
        space_em: float = SPACE_EM, tracking_em: float = 0.0, dx: float = 1.0, dy: float = 0.0,
        flags: int = 0) -> list[Glyph]:
    """One line of text: a glyph per character; a ' ' is a gap of `space_em`, not a glyph."""
    out = []
    pos = 0.0
    for ch in text:
        if ch == " ":
            pos += space_em * size
            continue
        out.append(glyph(ch, x + dx * pos, y + dy * pos, size, font, dx, dy, flags=flags))
        pos += (ADVANCE_EM + tracking_em) * size
    return out


def paragraph(lines: list[str], x: float, y: float, pitch: float = 12.0, indent: float = 0.0,
              **kw) -> list[Glyph]:
    """Consecutive lines `pitch` apart; the first one indented by `indent` points."""
    out = []
    for i, text in enumerate(lines):
        out += run(text, x + (indent if i == 0 else 0.0), y + i * pitch, **kw)
    return out


def reflow(glyphs: list[Glyph], width: float = PAGE_W, height: float = PAGE_H, **kw) -> str:
    layout = analyze_page(glyphs, width, height, 1, **kw)
    return render_page(layout, "reflow", build_vocabulary([layout]))


def blocks(glyphs: list[Glyph], **kw) -> list[str]:
    return reflow(glyphs, **kw).split("\n\n")


# --- cleanup --------------------------------------------------------------------------------

def test_ligatures_expand_from_the_safe_list_only():
    g = [glyph("\ufb01", 10, 10), glyph("\ufb03", 15, 10), glyph("\u2126", 20, 10)]
    assert [x.text for x in clean_glyph_text(g)] == ["fi", "ffi", "\u2126"]


def test_zero_width_and_bidi_controls_are_removed_and_empty_glyphs_dropped():
    g = [glyph("a\u200b", 10, 10), glyph("\u200e", 15, 10), glyph("\ufeffb", 20, 10)]
    assert [x.text for x in clean_glyph_text(g)] == ["a", "b"]


def test_fake_bold_copies_are_dropped_but_double_letters_stay():
    glyphs = run("Statement all", 10, 50)
    doubled = []
    for g in glyphs:   # each glyph painted twice, 0.3 pt apart (fake bold)
        doubled += [g, glyph(g.text, g.x + 0.3, g.y + 0.1)]
    assert reflow(doubled) == "Statement all"


def test_drop_duplicates_keeps_a_repeated_letter_one_advance_away():
    g = [glyph("l", 10, 10), glyph("l", 15, 10), glyph("l", 15.2, 10)]
    assert [x.x for x in drop_duplicates(g)] == [10, 15]


def test_tightly_kerned_double_letters_that_overlap_stay():
    # Verdana "follows" with tight kerning: "l" is 0.224 em wide and the second "l" starts
    # 0.1875 em after the first (they overlap), inside 0.2 em of a font size
    out, x = [], 50.0
    for ch, adv_em in zip("follows", (0.29, 0.5, 0.224, 0.224, 0.5, 0.67, 0.43)):
        out.append(glyph(ch, x, 50, advance=adv_em * SIZE))
        x += (adv_em - (0.0365 if ch == "l" else 0.0)) * SIZE
    assert reflow(out) == "follows"


def test_double_letters_stay_when_the_size_overstates_the_advance():
    # a Type3 font (PDFlib) whose size is 58 while its glyphs advance 6.3 pt: 0.2 em is 11.6 pt,
    # more than a letter, but the second "c" sits a whole advance after the first
    out, x = [], 70.0
    for ch, adv in zip("Account", (7.55, 6.33, 6.33, 6.82, 6.82, 6.82, 3.65)):
        out.append(glyph(ch, x, 119, size=58.0, advance=adv))
        x += adv
    assert [g.x for g in drop_duplicates(out)] == [g.x for g in out]


def test_fake_bold_drawn_four_times_comes_out_once():
    # the same glyph redrawn 0.25 pt further each time, even the narrow ones
    glyphs = run("Illicit fill", 10, 50)
    painted = [glyph(g.text, g.x + k * 0.25, g.y, advance=0.25 * SIZE) for g in glyphs for k in range(4)]
    assert reflow(painted) == "Illicit fill"


def test_whole_text_painted_twice_as_a_shadow_comes_out_once():
    text = paragraph(["The shadow copy is drawn", "after the text itself."], 72, 100)
    shadow = [glyph(g.text, g.x + 0.5, g.y + 0.5) for g in text]
    assert reflow(text + shadow) == "The shadow copy is drawn after the text itself."


def test_empty_page_gives_an_empty_layout():
    layout = analyze_page([], PAGE_W, PAGE_H, 3)
    assert layout.blocks == [] and layout.char_count == 0 and layout.number == 3
    assert render_page(layout, "reflow") == ""


def test_vertical_flag_glyphs_are_not_lost():
    g = run("縦書き", 300, 100, dx=0.0, dy=1.0, flags=VERTICAL)
    assert reflow(g) == "縦書き"


def test_arabic_and_vertical_presentation_forms_fold_to_plain_text():
    # ﻣﺮﺣﺒﺎ drawn with positional forms; ︒ and ︵︶ are vertical punctuation forms
    g = [glyph(ch, 10 + 5 * i, 10) for i, ch in enumerate("\ufee3\ufeae\ufea3\ufe92\ufe8e")]
    assert "".join(x.text for x in clean_glyph_text(g)) == "مرحبا"
    v = [glyph("\ufe12", 10, 10), glyph("\ufe35", 15, 10), glyph("\ufefb", 20, 10)]
    assert [x.text for x in clean_glyph_text(v)] == ["。", "(", "لا"]


def test_spacing_accent_drawn_over_a_letter_becomes_a_combining_mark():
    # TeX draws \tilde{H} and \'e as the letter plus a separate accent glyph centred over it
    h = glyph("H", 100, 50)
    tilde = glyph("\u02dc", 101, 48)
    e = glyph("e", 106, 50)
    acute = glyph("\u00b4", 106.5, 50)
    rest = run("t", 111, 50)
    assert reflow([h, tilde, e, acute] + rest) == "H\u0303\u00e9t"


def test_accent_beside_a_letter_stays_a_character():
    # a spacing accent that merely follows a word is text of its own
    assert reflow(run("caf", 100, 50) + [glyph("\u00b4", 115.5, 50)]) == "caf\u00b4"
