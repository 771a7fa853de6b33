"""Geometry of glyphs through the whole pipeline (issue 10, class 7): the visible box, raised
and lowered text, vertical CMaps, rotated lines of different sizes, fullwidth Latin. Every
PDF is made here with tests/pdfbuilder.py."""
from __future__ import annotations

from pdfbuilder import PdfBuilder

from glyphline.extract import extract_text


def text_of(data: bytes) -> str:
    return extract_text(data).text.strip()


# ---------------------------------------------------------------- fullwidth Latin

FULLWIDTH = "ＷｉｎｄｏｗｓＸＰ第３章"


def fullwidth_page(codes: bytes) -> bytes:
    """A Type0 font whose 2-byte code n is the n-th character of FULLWIDTH (1 em wide)."""
    b = PdfBuilder()
    font = b.font_type0({i + 1: ch for i, ch in enumerate(FULLWIDTH)}, dw=1000)
    b.page(b"BT /F0 10 Tf 72 700 Td " + codes + b" TJ ET", fonts={"F0": font})
    return b.build()


def codes(*numbers: int) -> bytes:
    return b"<" + b"".join(b"%04x" % n for n in numbers) + b">"


def test_fullwidth_latin_words_keep_the_gap_between_them():
    # "Ｗｉｎｄｏｗｓ" and "ＸＰ" set solid, a third of an em apart (no space glyph), then "第３章"
    # after the same gap: the two Latin words are spaced; next to an ideograph a fullwidth
    # letter attaches as CJK text does (a justified line opens such gaps everywhere)
    array = b"[" + codes(1, 2, 3, 4, 5, 6, 7) + b" -333 " + codes(8, 9) + b" -333 " + codes(10, 11, 12) + b"]"
    assert text_of(fullwidth_page(array)) == "Ｗｉｎｄｏｗｓ ＸＰ第３章"


def test_fullwidth_latin_set_solid_stays_one_word():
    array = b"[" + codes(1, 2, 3, 4, 5, 6, 7, 8, 9) + b"]"
    assert text_of(fullwidth_page(array)) == "ＷｉｎｄｏｗｓＸＰ"

