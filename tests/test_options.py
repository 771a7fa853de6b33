"""One source of truth for modes, options and error kinds: the library, the CLI, the worker's
Python side and (through describe()) the JavaScript side all read glyphline.options."""
from __future__ import annotations

import pickle

import pytest

from glyphline import errors
from glyphline.cli import build_parser
from glyphline.extract import MODES, extract_text
from glyphline.options import ExtractOptions, OutputMode, describe
from glyphline.output import RENDERERS


def test_every_mode_has_one_renderer_and_the_cli_offers_every_mode():
    assert set(RENDERERS) == set(OutputMode)
    assert MODES == tuple(m.value for m in OutputMode)
    mode_action = next(a for a in build_parser()._actions if a.dest == "mode")
    assert tuple(mode_action.choices) == MODES


def test_modes_are_parsed_from_strings_and_unknown_ones_name_the_choices():
    assert ExtractOptions(mode="json").mode is OutputMode.JSON
    assert ExtractOptions(mode=OutputMode.LAYOUT).mode is OutputMode.LAYOUT
    with pytest.raises(ValueError, match="reflow, preserve, layout, json"):
        ExtractOptions(mode="poetry")


def test_options_are_frozen_and_travel_to_worker_processes():
    options = ExtractOptions(mode="json", pages=[1, 3])
    with pytest.raises(AttributeError):
        options.mode = OutputMode.REFLOW  # type: ignore[misc]
    assert options.pages == (1, 3)
    assert pickle.loads(pickle.dumps(options)) == options


def test_the_web_page_options_use_javascript_names_and_keep_defaults():
    options = ExtractOptions.from_message({"mode": "preserve", "pageBreaks": False, "pages": " 2-3 ", "bom": 1})
    assert options == ExtractOptions(mode="preserve", page_breaks=False, pages="2-3", bom=True)
    assert ExtractOptions.from_message({"pages": "", "password": None}) == ExtractOptions()
    with pytest.raises(ValueError):
        ExtractOptions.from_message({"mode": "poetry"})


def test_describe_gives_javascript_the_modes_defaults_and_error_kinds():
    described = describe()
    assert described["modes"] == list(MODES)
    assert described["extensions"] == {"reflow": ".txt", "preserve": ".txt", "layout": ".txt", "json": ".json",
                                       "markdown": ".md"}
    assert described["options"] == {"mode": "reflow", "pages": None, "markers": False, "pageBreaks": True,
                                    "dehyphenate": True, "password": "", "bom": False, "annotations": True,
                                    "order": "auto", "ocr": "", "inspect": False}
    assert {"password", "not-pdf", "damaged", "budget", "bad-options", "failed", "unavailable"} == set(
        described["errorKinds"])


@pytest.mark.parametrize("error, kind", [
    (errors.PasswordRequired("x"), "password"), (errors.NotAPDF("x"), "not-pdf"),
    (errors.DamagedPDF("x"), "damaged"), (errors.BudgetExceeded("pages", "x"), "budget"),
    (ValueError("x"), "bad-options"), (KeyError("x"), "failed"), (errors.GlyphlineError("x"), "failed"),
])
def test_every_error_has_a_stable_kind(error, kind):
    assert errors.error_kind(error) == kind
    assert kind in errors.ERROR_KINDS


def test_an_options_record_and_keywords_give_the_same_text(sample_pdf):
    by_record = extract_text(sample_pdf, ExtractOptions(mode="preserve", markers=True))
    by_keywords = extract_text(sample_pdf, mode="preserve", markers=True)
    mixed = extract_text(sample_pdf, ExtractOptions(mode="json"), mode="preserve", markers=True)
    assert by_record.text == by_keywords.text == mixed.text
    with pytest.raises(TypeError):
        extract_text(sample_pdf, colour="blue")


def test_import_glyphline_loads_neither_pypdf_nor_the_layout():
    import subprocess
    import sys

    code = ("import sys, glyphline; heavy = [m for m in ('pypdf', 'glyphline.document', 'glyphline.layout') "
            "if m in sys.modules]; print(heavy); assert glyphline.open and glyphline.extract_text")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_ocr_languages_are_tesseract_names_joined_by_plus():
    assert ExtractOptions(ocr="eng, deu").ocr == "eng+deu"
    assert ExtractOptions(ocr=True).ocr == "eng" and ExtractOptions().ocr == ""
    assert ExtractOptions.from_message({"ocr": "deu"}).ocr == "deu"
    with pytest.raises(ValueError, match="invalid OCR language"):
        ExtractOptions(ocr="eng; rm -rf")


def test_a_text_extraction_never_loads_the_grid_or_json_writers():
    import subprocess
    import sys

    from pdfbuilder import simple_page_pdf

    code = ("import sys, glyphline; glyphline.extract_text(sys.stdin.buffer.read(), mode='preserve'); "
            "print([m for m in ('glyphline.output.grid', 'glyphline.output.json_out') if m in sys.modules])")
    done = subprocess.run([sys.executable, "-c", code], input=simple_page_pdf(), capture_output=True, check=True)
    assert done.stdout.decode().strip() == "[]"
    for mode in ("layout", "json"):   # and each loads its own when asked
        assert "Hello" in extract_text(simple_page_pdf(), mode=mode).text
