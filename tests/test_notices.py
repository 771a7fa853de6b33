"""Warnings with stable codes (glyphline/notices.py): what the engine writes is read back into a
code, parameters and a page, the English sentence kept; the web app words every code in EN and DE."""
from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from glyphline import extract_text
from glyphline.notices import NOTICE_CODES, OTHER, notice, notices
from pdfbuilder import PdfBuilder, simple_page_pdf

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
import app  # noqa: E402


def _two_pages_with_a_missing_font() -> bytes:
    builder = PdfBuilder()
    helvetica = builder.font_type1("Helvetica")
    builder.page(b"BT /F1 12 Tf 72 700 Td (Fine first page) Tj ET", fonts={"F1": helvetica})
    builder.page(b"BT /F1 12 Tf 72 700 Td (Second) Tj ET BT /F9 12 Tf 72 600 Td (lost) Tj ET", fonts={"F1": helvetica})
    return builder.build()


def test_a_page_warning_of_the_engine_gets_its_code_parameters_and_page():
    result = extract_text(_two_pages_with_a_missing_font())
    found = notices(result.document_warnings, [(p.number, p.warnings) for p in result.pages])
    missing = [n for n in found if n.code == "font-not-in-resources"]
    assert missing and missing[0].params == {"font": "F9"} and missing[0].page == 2
    assert missing[0].text in result.pages[1].warnings   # the English sentence, as the CLI prints it


def test_a_document_warning_keeps_its_numbers_as_parameters():
    result = extract_text(simple_page_pdf(b"One page"), pages="1-4")
    (found,) = [notice(text) for text in result.document_warnings]
    assert (found.code, found.params, found.page) == ("pages-beyond-end", {"count": 1, "first": 2}, None)


def test_the_page_prefix_of_result_warnings_gives_the_page():
    result = extract_text(_two_pages_with_a_missing_font())
    prefixed = [notice(text) for text in result.warnings if text.startswith("page 2: ")]
    assert prefixed and all(n.page == 2 and n.code != OTHER for n in prefixed)


@pytest.mark.parametrize("text, code, params", [
    ("page 3: stream 6 0 R could not be decoded with /JBIG2Decode (DependencyError: jbig2dec binary is not "
     "available.); its content is missing", "filter-unsupported", {"filter": "/JBIG2Decode"}),
    ("stream 4 0 R could not be decoded with /LZWDecode (PdfStreamError: LZW code 417 out of range); its content "
     "is missing", "stream-undecodable", {"filter": "/LZWDecode"}),
    ("7 glyph(s) on page 5 have no Unicode mapping and were left out", "unmapped-glyphs", {"count": 7}),
    ("repaired: incorrect startxref pointer(3)", "repaired", {"detail": "incorrect startxref pointer(3)"}),
])
def test_filter_and_repair_sentences(text, code, params):
    found = notice(text)
    assert found.code == code
    assert params.items() <= found.params.items()


def test_an_unknown_sentence_is_other_and_keeps_its_text():
    found = notice("something new the engine says", page=4)
    assert (found.code, found.params, found.page, found.text) == (OTHER, {}, 4, "something new the engine says")


def test_the_worker_result_carries_the_notices():
    final = app.convert(1, _two_pages_with_a_missing_font(), {}, lambda message: None, lambda: False)
    codes = {(n["code"], n["page"]) for n in final["notices"]}
    assert ("font-not-in-resources", 2) in codes
    assert all(set(n) == {"code", "params", "page", "text"} for n in final["notices"])
    assert final["warnings"]   # the English list stays for existing callers


def _language_table(source: str, language: str) -> str:
    start = source.index(f"\n  {language}: {{")
    end = source.find("\n  },", start + 1)
    return source[start:end]


@pytest.mark.parametrize("language", ["en", "de"])
def test_every_code_is_worded_in_the_web_app(language):
    table = _language_table((REPO / "static" / "i18n.js").read_text(encoding="utf-8"), language)
    notices_block = table[table.index("notices: {"):]
    worded = set(re.findall(r'^\s+"([a-z-]+)":', notices_block, re.M))
    assert set(NOTICE_CODES) <= worded
