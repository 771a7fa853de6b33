"""Layout of the world's scripts: glyph records in, exact reflow text out.

Vertical CJK (WMode 1 and Chromium's stacked upright glyphs), Hebrew and Arabic painted in
visual and in logical order with digits and Latin words, right-to-left column order,
Arabic presentation forms, Devanagari positioned glyph by glyph, Thai, Korean word spaces
and CJK–Latin runs. Positions are those a producer would paint; nothing here goes
through a PDF, so a failure points at the layout stages.
"""
from __future__ import annotations

import unicodedata

import pytest

from glyphline.glyph import VERTICAL
from test_layout_support import SIZE, glyph, reflow

EM = SIZE               # full-width CJK glyphs advance one em
GAP = 0.3 * SIZE        # a word space made by positioning only


# ---------------------------------------------------------------- builders

def vertical_column(text: str, x: float, y: float, flags: int = VERTICAL) -> list:
    """A WMode 1 column: glyphs on the centre line x, top to bottom, one em apart."""
    return [glyph(ch, x, y + i * EM, dx=0.0, dy=1.0, advance=EM, flags=flags) for i, ch in enumerate(text)]


def stacked_column(text: str, x: float, y: float) -> list:
    """Chromium's vertical CJK: upright horizontal glyphs, each one em below the previous."""
    return [glyph(ch, x, y + i * EM, advance=EM) for i, ch in enumerate(text)]


def visual_line(display: str, x: float, y: float, advance: float = 0.5 * SIZE) -> list:
    """Glyphs painted left to right in display order; ' ' is a gap, not a glyph."""
    out, pos = [], x
    for ch in display:
        if ch == " ":
            pos += GAP
            continue
        out.append(glyph(ch, pos, y, advance=advance))
        pos += advance
    return out


def logical_order(glyphs: list, logical: str) -> list:
    """The same glyphs in the order a logical-order producer paints them (reading order):
    a right-to-left letter is the rightmost one left of its kind, anything else the leftmost
    (the test lines repeat no digit or Latin letter across runs)."""
    remaining = sorted(glyphs, key=lambda g: g.x)
    out = []
    for ch in logical.replace(" ", ""):
        candidates = [i for i, g in enumerate(remaining) if g.text == ch]
        k = candidates[-1] if unicodedata.bidirectional(ch) in ("R", "AL") else candidates[0]
        out.append(remaining.pop(k))
    return out


def cjk_line(text: str, x: float, y: float, tracking: float = 0.0) -> list:
    """Full-width glyphs one em (plus `tracking`) apart; ' ' is a gap, not a glyph."""
    out, pos = [], x
    for ch in text:
        if ch == " ":
            pos += GAP
            continue
        wide = ord(ch) >= 0x1100
        advance = EM if wide else 0.5 * SIZE
        out.append(glyph(ch, pos, y, advance=advance))
        pos += advance + (tracking if wide else 0.0)
    return out


def justified_cjk_line(text: str, x: float, y: float, tracking: float) -> list:
    """Justified like a browser does it: every gap after a glyph or a space stretched alike."""
    out, pos = [], x
    for ch in text:
        if ch == " ":
            pos += GAP + tracking
            continue
        advance = EM if ord(ch) >= 0x1100 else 0.5 * SIZE
        out.append(glyph(ch, pos, y, advance=advance))
        pos += advance + tracking
    return out


def positioned(cluster_glyphs: list[tuple[str, float, float]], x: float, y: float) -> list:
    """Glyphs at explicit offsets (in em) from x with explicit advances (in em): a shaped line."""
    return [glyph(text, x + offset * SIZE, y, advance=advance * SIZE) for text, offset, advance in cluster_glyphs]


# ---------------------------------------------------------------- vertical writing

COLUMNS = ["縦書きの文章は", "右から左へと", "読みます。"]


def test_vertical_writing_columns_read_top_to_bottom_right_to_left():
    glyphs = []
    for k, text in enumerate(COLUMNS):      # painted right column first
        glyphs += vertical_column(text, 400 - k * 1.5 * EM, 100)
    assert reflow(glyphs) == "".join(COLUMNS)


def test_vertical_columns_painted_left_column_first_still_read_right_to_left():
    glyphs = []
    for k, text in reversed(list(enumerate(COLUMNS))):
        glyphs += vertical_column(text, 400 - k * 1.5 * EM, 100)
    assert reflow(glyphs) == "".join(COLUMNS)


def test_chromium_stacked_upright_glyphs_read_as_vertical_columns():
    glyphs = []
    for k, text in enumerate(COLUMNS):
        glyphs += stacked_column(text, 400 - k * 1.5 * EM, 100)
    assert reflow(glyphs) == "".join(COLUMNS)


def test_vertical_punctuation_forms_are_folded():
    glyphs = vertical_column("日本語\ufe11文章\ufe12", 400, 100)
    assert reflow(glyphs) == "日本語、文章。"


# ---------------------------------------------------------------- right to left

# (logical text, the same line as painted left to right)
RTL_LINES = [
    ("קניתי 3 ספרים על Python", "Python לע םירפס 3 יתינק"),
    ("המחיר הוא 45.90 ש״ח ליחידה", "הדיחיל ח״ש 45.90 אוה ריחמה"),
    ("اشتريت 3 كتب عن Python", "Python نع بتك 3 تيرتشا"),
    ("العدد ٣٤ كبير جدا", "ادج ريبك ٣٤ ددعلا"),
]


@pytest.mark.parametrize("logical, display", RTL_LINES)
def test_rtl_line_painted_in_visual_order(logical, display):
    assert reflow(visual_line(display, 100, 100)) == logical


@pytest.mark.parametrize("logical, display", RTL_LINES)
def test_rtl_line_painted_in_logical_order(logical, display):
    glyphs = logical_order(visual_line(display, 100, 100), logical)
    assert [g.text for g in glyphs] == list(logical.replace(" ", ""))
    rtl_xs = [g.x for g in glyphs if unicodedata.bidirectional(g.text) in ("R", "AL")]
    assert rtl_xs == sorted(rtl_xs, reverse=True)      # painted right to left
    assert reflow(glyphs) == logical


def test_latin_phrase_inside_hebrew_keeps_its_word_order():
    assert reflow(visual_line("דוק לש ואולמו םלוע אוה Open Source", 100, 100)) == \
        "Open Source הוא עולם ומלואו של קוד"


def right_aligned(display_lines: list[str], right: float, top: float) -> list:
    glyphs = []
    for i, display in enumerate(display_lines):
        width = visual_line(display, 0, 0)[-1].end_x
        glyphs += visual_line(display, right - width, top + i * 12)
    return glyphs


def test_mostly_latin_line_of_a_hebrew_paragraph_reads_right_to_left():
    # logical: "הספרייה נקראת" / "Open Source Library" / "ומתוחזקת היטב"
    glyphs = right_aligned(["תארקנ היירפסה", "Open Source Library אוה", "בטיה תקזחותמו"], 540, 100)
    assert reflow(glyphs) == "הספרייה נקראת הוא Open Source Library ומתוחזקת היטב"


def test_rtl_page_reads_the_right_column_first():
    right = ["םולש רבחל בתכנ הז רמאמ", "ןימי דומעב ליחתמ", "ותוא םיארוק ןאכמו"]
    left = ["ינשה דומעה אוה הז", "ןורחאה אוהו ךשמהב אב"]
    expected = ("מאמר זה נכתב לחבר שלום מתחיל בעמוד ימין ומכאן קוראים אותו\n\n"
                "זה הוא העמוד השני בא בהמשך והוא האחרון")
    assert reflow(right_aligned(left, 280, 100) + right_aligned(right, 540, 100)) == expected   # left drawn first
    assert reflow(right_aligned(right, 540, 100) + right_aligned(left, 280, 100)) == expected


def test_arabic_presentation_forms_come_out_as_base_letters():
    # مرحبا بالعالم drawn with positional forms and the lam-alef ligature, in visual order
    display = "\ufee1\ufedf\ufe8e\ufecc\ufedf\ufe8e\ufe91 \ufe8e\ufe92\ufea3\ufeae\ufee3"
    assert reflow(visual_line(display, 100, 100)) == "مرحبا بالعالم"
    assert reflow(visual_line("\ufe8e\ufeae\ufedf\ufe8e\ufe91 \ufefc\ufeb3", 100, 100)) == "سلا بالرا"


# ---------------------------------------------------------------- Indic and Thai

def test_devanagari_positioned_per_glyph_stores_pre_base_i_after_its_consonant():
    # किताब: ि is painted before क, the glyph it follows in the text
    glyphs = positioned([("\u093f", 0.0, 0.25), ("क", 0.25, 0.5), ("त", 0.75, 0.5), ("\u093e", 1.25, 0.25),
                         ("ब", 1.5, 0.5)], 100, 100)
    glyphs += positioned([("प", 0.0, 0.5), ("ढ़", 0.5, 0.5), ("न", 1.0, 0.5), ("\u093e", 1.5, 0.25)],
                         100 + 2.0 * SIZE + GAP, 100)
    assert reflow(glyphs) == "किताब पढ़ना"


def test_devanagari_pre_base_i_moves_behind_a_whole_conjunct():
    # क्षत्रिय: the conjuncts are ligature glyphs; ि precedes त्र on the page
    glyphs = positioned([("क्ष", 0.0, 0.7), ("\u093f", 0.7, 0.25), ("त्र", 0.95, 0.6), ("य", 1.55, 0.5)], 100, 100)
    assert reflow(glyphs) == "क्षत्रिय"


def test_devanagari_matras_and_viramas_never_open_a_word():
    # नमस्ते दुना (no pre-base signs): matras and the virama sit in their words
    glyphs = positioned([("न", 0.0, 0.5), ("म", 0.5, 0.5), ("स", 1.0, 0.5), ("\u094d", 1.5, 0.1),
                         ("त", 1.6, 0.5), ("\u0947", 2.1, 0.1)], 100, 100)
    glyphs += positioned([("द", 0.0, 0.5), ("\u0941", 0.5, 0.1), ("न", 0.6, 0.5), ("\u093e", 1.1, 0.25)],
                         100 + 2.2 * SIZE + GAP, 100)
    assert reflow(glyphs) == "नमस्ते दुना"


def test_devanagari_zero_advance_mark_opens_no_space():
    # हंस: the anusvara has no advance and sits over the right half of ह
    glyphs = positioned([("ह", 0.0, 0.5), ("\u0902", 0.3, 0.0), ("स", 0.5, 0.5)], 100, 100)
    assert reflow(glyphs) == "हंस"


def test_thai_positioned_per_glyph_gets_no_invented_spaces():
    # ภาษาไทย … with marks over their consonants and wide glyph gaps from justification
    thai = "ภาษาไทยไม่มีช่องว่าง"
    glyphs, pos = [], 100.0
    for ch in thai:
        if ch in "\u0e48\u0e35\u0e31\u0e34":       # marks: no advance, drawn over the previous glyph
            glyphs.append(glyph(ch, pos - 0.3 * SIZE, 100, advance=0.0))
            continue
        glyphs.append(glyph(ch, pos, 100, advance=0.5 * SIZE))
        pos += 0.5 * SIZE + 0.12 * SIZE           # justified: every glyph gap stretched
    assert reflow(glyphs) == thai


def test_thai_keeps_a_real_space_between_phrases():
    glyphs = visual_line("สวัสดีครับ ขอบคุณ", 100, 100)
    assert reflow(glyphs) == "สวัสดีครับ ขอบคุณ"


# ---------------------------------------------------------------- CJK spacing

def test_justified_chinese_gets_no_spaces():
    assert reflow(cjk_line("中文排版两端对齐的文字", 100, 100, tracking=0.35 * EM)) == "中文排版两端对齐的文字"


def test_korean_keeps_its_word_spaces():
    assert reflow(cjk_line("한국어 문장은 띄어 씁니다.", 100, 100)) == "한국어 문장은 띄어 씁니다."


def test_cjk_and_latin_runs_keep_real_spaces_only():
    assert reflow(cjk_line("我们用 PDF 文件和Python处理", 100, 100)) == "我们用 PDF 文件和Python处理"
    assert reflow(justified_cjk_line("日本語の PDF を読む", 100, 100, tracking=0.2 * EM)) == "日本語の PDF を読む"
