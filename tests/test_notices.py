"""Warnings with stable codes (glyphline/notices.py): the engine makes each warning with its code and
parameters, the English sentence kept; the web app words every code in EN and DE."""
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


class _Stream(dict):
    indirect_reference = None


@pytest.mark.parametrize("exc, code", [
    (__import__("pypdf").errors.DependencyError("jbig2dec binary is not available."), "filter-unsupported"),
    (NotImplementedError("unsupported filter /Crypt2"), "filter-unsupported"),
    (__import__("pypdf").errors.PdfStreamError("LZW code 417 out of range"), "stream-undecodable"),
])
def test_a_failing_filter_is_coded_where_it_fails(exc, code):
    from pypdf.generic import NameObject

    from glyphline.filters import failure_message

    stream = _Stream({"/Filter": NameObject("/LZWDecode")})
    found = notice(failure_message(stream, exc))
    assert found.code == code and found.text.startswith("an inline stream ")
    assert found.text.endswith("its content is missing")


def test_a_repair_by_pypdf_is_coded_with_its_detail():
    import logging

    from glyphline.document import _WarningCollector

    sink: list[str] = []
    _WarningCollector(sink, 10).emit(logging.LogRecord("pypdf", logging.WARNING, "", 0, "incorrect startxref pointer(3)",
                                                       None, None))
    found = notice(sink[0])
    assert (found.code, found.params, found.text) == (
        "repaired", {"detail": "incorrect startxref pointer(3)"}, "repaired: incorrect startxref pointer(3)")


def test_a_warning_keeps_its_code_across_processes_and_in_the_page_list():
    import pickle

    from glyphline.notices import on_page, warning

    made = warning("ocr-unsure", page=2, confidence=41)
    again = pickle.loads(pickle.dumps(made))
    assert (again, again.code, again.params) == (made, "ocr-unsure", {"page": 2, "confidence": 41})
    listed = on_page(warning("font-unloadable", font="F2"), 3)
    assert listed == "page 3: font /F2 could not be loaded; its text is skipped"
    assert (notice(listed).code, notice(listed).page, notice(listed).params) == ("font-unloadable", 3, {"font": "F2"})


def test_every_kind_of_warning_is_made_somewhere_in_the_engine():
    from glyphline.notices import SENTENCES

    source = "\n".join(path.read_text(encoding="utf-8") for path in (REPO / "glyphline").rglob("*.py")
                       if path.name != "notices.py")
    unused = [kind for kind in SENTENCES if f'"{kind}"' not in source]
    assert unused == []


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


def test_the_warnings_of_hidden_layers_and_untagged_order_are_coded_from_the_engine_s_own_sentences():
    from pdfbuilder import PdfBuilder

    from glyphline.extract import extract_text
    from glyphline.notices import notices

    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    layer = b.add({"Type": "/OCG", "Name": b"draft"})
    b.page(b"BT /F1 12 Tf 72 700 Td (Shown) Tj ET /OC /L0 BDC BT /F1 12 Tf 72 680 Td (Draft) Tj ET EMC",
           fonts={"F1": font}, resources={"Properties": {"L0": layer}})
    result = extract_text(b.build(catalog={"OCProperties": {"OCGs": [layer], "D": {"OFF": [layer]}}}), order="tags")
    found = notices(result.document_warnings, [(page.number, page.warnings) for page in result.pages])
    codes = {n.code: n for n in found}
    assert codes["hidden-layers"].params["count"] == 5 and codes["hidden-layers"].page == 1
    assert "not-tagged" in codes and OTHER not in codes


@pytest.mark.parametrize("kind, params, code", [
    ("ocr-unsure", {"page": 2, "confidence": 41}, "ocr-unsure"),
    ("ocr-skipped", {"page": 4, "detail": "a JBIG2 image"}, "ocr-skipped"),
    ("structure-unreadable", {"reason": "KeyError"}, "structure-unused"),
    ("decoder-missing", {"stream": "stream 6 0 R", "filter": "/JBIG2Decode", "reason": "DependencyError: x"},
     "filter-unsupported"),
])
def test_kinds_that_share_a_code(kind, params, code):
    from glyphline.notices import warning

    assert notice(warning(kind, **params)).code == code
