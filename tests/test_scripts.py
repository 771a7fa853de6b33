"""Script classes for layout: CJK spacing, RTL letters, Indic/Thai clusters, presentation forms."""
from __future__ import annotations

import pytest

from glyphline.layout import scripts


@pytest.mark.parametrize("ch", ["中", "日", "あ", "カ", "ㄅ", "、", "。", "「", "Ａ", "１", "﹁", "㐀", "𠀀", "가", "ㄱ"])
def test_cjk_characters(ch):
    assert scripts.is_cjk(ch)


@pytest.mark.parametrize("ch", ["a", "1", " ", "é", "α", "ж", "ש", "ب", "क", "ก", ""])
def test_not_cjk(ch):
    assert not scripts.is_cjk(ch)


@pytest.mark.parametrize("ch", ["ש", "ب", "ܐ", "ހ", "ߊ", "ﭐ", "ﻻ", "ﬠ", "ࠀ"])
def test_rtl_letters(ch):
    assert scripts.is_rtl(ch)


@pytest.mark.parametrize("ch", ["a", "1", "٣", "\u05b8", " ", "中", ""])
def test_not_rtl_letters(ch):
    # Arabic-Indic digits and Hebrew points are not strong letters (bidi AN / NSM)
    assert not scripts.is_rtl(ch)


def test_cjk_runs_take_no_inferred_spaces():
    assert scripts.no_space_between("中", "文")
    assert scripts.no_space_between("日本", "語")
    assert scripts.no_space_between("す", "。")
    assert scripts.no_space_between("カ", "タ")
    assert scripts.no_space_between("Ａ", "中")


def test_korean_and_mixed_runs_keep_gap_based_spacing():
    assert not scripts.no_space_between("한", "국")       # Korean separates words with spaces
    assert not scripts.no_space_between("中", "a")        # CJK next to Latin: a real space may exist
    assert not scripts.no_space_between("a", "中")
    assert not scripts.no_space_between("word", "next")
    assert scripts.no_space_between("다", "。")            # CJK punctuation attaches to hangul
    assert scripts.no_space_between("「", "한")
    assert not scripts.no_space_between("", "中")


@pytest.mark.parametrize("prev, ch", [
    ("क", "\u093e"),          # Devanagari vowel sign aa (Mc)
    ("क", "\u094d"),          # virama
    ("\u094d", "ष"),          # consonant after virama: conjunct क्ष
    ("\u093f", "क"),          # pre-base i painted before its consonant (glyphs by x)
    ("न", "\u0902"),          # anusvara (Mn)
    ("क", "\u200d"),          # ZWJ
    ("ก", "\u0e34"),          # Thai sara i (Mn)
    ("ก", "\u0e33"),          # Thai sara am (Lo, but never starts a syllable)
    ("\u0e40", "ก"),          # Thai leading vowel e + consonant
    ("ক", "\u09be"),          # Bengali aa
    ("க", "\u0bcd"),          # Tamil pulli (virama)
    ("ក", "\u17d2"),          # Khmer coeng
    ("e", "\u0301"),          # Latin combining acute
])
def test_cluster_continuations(prev, ch):
    assert scripts.is_cluster_continuation(prev, ch)
    assert scripts.no_space_between("x" + prev, ch + "y")


@pytest.mark.parametrize("prev, ch", [
    ("क", "\u093f"),          # pre-base i after a consonant: painted first, so it opens the next cluster
    ("क", "ख"), ("ก", "ข"), ("a", "b"), (" ", "\u093f"), ("क", " "), ("\u0e34", "ก"), ("", "\u093f"),
])
def test_not_cluster_continuations(prev, ch):
    assert not scripts.is_cluster_continuation(prev, ch)


def test_devanagari_line_positioned_per_glyph():
    # "क्षत्रिय" as painted glyph by glyph: the i-sign stands left of its conjunct त्र
    painted = ["क", "\u094d", "ष", "\u093f", "त", "\u094d", "र", "य"]
    breaks = [i for i in range(1, len(painted)) if not scripts.no_space_between(painted[i - 1], painted[i])]
    clusters = ["".join(painted[a:b]) for a, b in zip([0] + breaks, breaks + [len(painted)])]
    assert clusters == ["क\u094dष", "\u093fत\u094dर", "य"]
    assert "".join(scripts.reorder_pre_base_vowels(painted)) == "क्षत्रिय"


def test_pre_base_vowel_reordering():
    assert scripts.reorder_pre_base_vowels(["\u093f", "क"]) == ["क", "\u093f"]                  # कि
    assert "".join(scripts.reorder_pre_base_vowels(["य", "ह", " ", "\u093f", "क"])) == "यह कि"
    assert "".join(scripts.reorder_pre_base_vowels(["\u09c7", "ক", "\u09be"])) == "ক\u09c7\u09be"   # কো
    assert scripts.reorder_pre_base_vowels(["क", "\u093f"]) == ["क", "\u093f"]                  # already logical
    assert scripts.reorder_pre_base_vowels(["\u093f"]) == ["\u093f"]
    # a word space before the i-sign stays inferable, the sign joins its consonant
    assert not scripts.no_space_between("ह", "\u093f")
    assert scripts.no_space_between("\u093f", "क")


def test_combining():
    assert scripts.is_combining("\u0301") and scripts.is_combining("\u093e") and scripts.is_combining("\u20dd")
    assert not scripts.is_combining("a") and not scripts.is_combining("")


def test_vertical_forms_fold_to_horizontal_punctuation():
    assert scripts.normalize_vertical_forms("\ufe11\ufe12\ufe10") == "、。,"     # Unicode: FE10 → U+002C
    assert scripts.normalize_vertical_forms("\ufe35中\ufe36") == "(中)"
    assert scripts.normalize_vertical_forms("\ufe41引用\ufe42") == "「引用」"
    assert scripts.normalize_vertical_forms("\ufe19\ufe30\ufe31") == "…‥—"
    assert scripts.normalize_vertical_forms("横書き。") == "横書き。"


def test_arabic_presentation_forms_fold_to_letters():
    assert scripts.normalize_arabic_forms("\ufeb3\ufefc\ufee1") == "سلام"         # initial, lam-alef, isolated
    assert scripts.normalize_arabic_forms("\ufdf2") == "الله"
    assert scripts.normalize_arabic_forms("\ufef5") == "لآ"
    assert scripts.normalize_arabic_forms("مرحبا \ufeff") == "مرحبا \ufeff"       # BOM is not a form


def test_hebrew_presentation_forms_and_combined_normalisation():
    assert scripts.normalize_hebrew_forms("\ufb2a") == "ש\u05c1"
    assert scripts.normalize_presentation_forms("\ufe41\ufeb3\ufb21\ufe42") == "「سא」"


def test_fast_path_thresholds_match_unicode():
    # the predicates answer "no" below these code points without a lookup: that must be what unicodedata says
    import unicodedata
    below_marks = [chr(c) for c in range(ord(scripts.FIRST_COMBINING))]
    assert not any(unicodedata.category(ch) in scripts.COMBINING_CATEGORIES for ch in below_marks)
    assert not any(unicodedata.combining(ch) for ch in below_marks)
    assert not any(ch in scripts.JOINERS | scripts.PRE_BASE_VOWEL_SIGNS | scripts.FOLLOWING_VOWEL_LETTERS
                   | scripts.LEADING_VOWEL_LETTERS for ch in below_marks)
    assert not any(unicodedata.bidirectional(chr(c)) in scripts.RTL_BIDI_CLASSES
                   for c in range(ord(scripts.FIRST_RTL)))
    assert ord(scripts.FIRST_HANGUL) == min(low for low, _ in scripts.HANGUL_RANGES)
    assert ord(scripts.FIRST_SPACELESS_CJK) == min(low for low, _ in scripts.SPACELESS_CJK_RANGES)
    assert ord(scripts.FIRST_CJK_PUNCTUATION) == min(low for low, _ in scripts.CJK_PUNCTUATION_RANGES)
    assert scripts.FIRST_COMBINING < scripts.FIRST_HANGUL < scripts.FIRST_SPACELESS_CJK


@pytest.mark.parametrize("a, b", [("a", "b"), ("é", "ñ"), ("x", "\u0301"), ("\u0300", "a"), ("ǿ", "ʯ")])
def test_latin_pairs_and_the_first_combining_mark(a, b):
    # just below U+0300 the fast path says "no"; a combining mark still continues its cluster
    expected = b == "\u0301"
    assert scripts.is_cluster_continuation(a, b) is expected
    assert scripts.no_space_between(a, b) is expected
