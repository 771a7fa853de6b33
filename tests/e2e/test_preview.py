"""The preview: page boundaries are visible ("Page 2" between pages, from the per-page results),
and Arabic and Hebrew blocks read right to left (dir="auto" per block)."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from e2e_support import REPO, cli_output, clear_queue, download_text, job, wait_job_state

pytestmark = pytest.mark.e2e

sys.path.insert(0, str(REPO / "tests"))  # pdfbuilder

FIRST = "The first page ends where the author wrote it."
HEBREW = "שלום עולם וזה עמוד"
ARABIC = "مرحبا بالعالم"

PREVIEW = """(node) => [...node.querySelectorAll('section.page')].map((section) => ({
    page: section.dataset.page,
    label: section.querySelector('.page-label') ? section.querySelector('.page-label').textContent : null,
    blocks: [...section.querySelectorAll('.block')].map((block) => ({
        text: block.textContent, dir: block.getAttribute('dir'),
        rtl: block.matches(':dir(rtl)'), direction: getComputedStyle(block).direction })),
}))"""


def _rtl_font(builder, text: str):
    """A Type0 font whose ToUnicode maps 2-byte codes to `text`'s letters; the codes are drawn in
    visual order (right to left), as RTL producers paint them."""
    letters = sorted(set(text))
    mapping = {index + 1: letter for index, letter in enumerate(letters)}
    code = {letter: index for index, letter in mapping.items()}
    font = builder.font_type0(mapping, dw=600)
    return font, b"".join(code[letter].to_bytes(2, "big") for letter in reversed(text))


@pytest.fixture(scope="module")
def three_pages(tmp_path_factory) -> Path:
    """Page 1 English; page 2 English, then a Hebrew paragraph; page 3 Arabic."""
    from pdfbuilder import PdfBuilder

    builder = PdfBuilder()
    helvetica = builder.font_type1("Helvetica")
    builder.page(content=b"BT /F1 12 Tf 72 700 Td (" + FIRST.encode() + b") Tj ET", fonts={"F1": helvetica})
    hebrew, hebrew_codes = _rtl_font(builder, HEBREW)
    builder.page(content=b"BT /F1 12 Tf 72 700 Td (A second page) Tj ET BT /F2 12 Tf 72 600 Td <"
                 + hebrew_codes.hex().encode() + b"> Tj ET", fonts={"F1": helvetica, "F2": hebrew})
    arabic, arabic_codes = _rtl_font(builder, ARABIC)
    builder.page(content=b"BT /F3 12 Tf 72 700 Td <" + arabic_codes.hex().encode() + b"> Tj ET", fonts={"F3": arabic})
    path = tmp_path_factory.mktemp("preview") / "three-pages.pdf"
    path.write_bytes(builder.build())
    return path


def _choose_mode(page, mode: str) -> None:
    page.locator("#options summary").click()
    page.locator(f"#mode-{mode}").check()
    page.locator("#options summary").click()


@pytest.mark.parametrize("mode", ["reflow", "preserve", "layout"])
def test_pages_are_labelled_and_rtl_blocks_read_right_to_left(app_page, three_pages, mode):
    clear_queue(app_page)
    _choose_mode(app_page, mode)
    try:
        app_page.locator("#file").set_input_files(str(three_pages))
        assert wait_job_state(app_page, 0, ("done",)) == "done"
        preview = job(app_page, 0).locator(".preview")
        sections = preview.evaluate(PREVIEW)
    finally:
        _choose_mode(app_page, "reflow")

    assert [s["page"] for s in sections] == ["1", "2", "3"]
    assert [s["label"] for s in sections] == ["Page 1", "Page 2", "Page 3"]
    first, second, third = sections
    # the first page's text ends on page 1: "wrote it." never runs into "A second page"
    assert any(FIRST in block["text"] for block in first["blocks"])
    assert not any("A second page" in block["text"] for block in first["blocks"])
    assert all("\f" not in block["text"] for s in sections for block in s["blocks"])
    blocks = [block for s in sections for block in s["blocks"]]
    assert all(block["dir"] == "auto" for block in blocks)
    english = next(block for block in second["blocks"] if "A second page" in block["text"])
    hebrew = next(block for block in second["blocks"] if HEBREW.split()[0] in block["text"])
    arabic = next(block for block in third["blocks"] if ARABIC.split()[0] in block["text"])
    assert (arabic["rtl"], arabic["direction"]) == (True, "rtl")
    if mode == "layout":
        # a layout page is one grid, one direction: its first strong character (English) decides
        assert english == hebrew and english["direction"] == "ltr"
    else:
        # one block per paragraph (reflow) or line (preserve): the Hebrew one has its own direction
        assert (english["rtl"], english["direction"]) == (False, "ltr")
        assert (hebrew["rtl"], hebrew["direction"]) == (True, "rtl")


def test_labels_are_visible_between_the_pages_and_the_download_is_the_engine_text(app_page, three_pages):
    clear_queue(app_page)
    app_page.locator("#file").set_input_files(str(three_pages))
    assert wait_job_state(app_page, 0, ("done",)) == "done"
    preview = job(app_page, 0).locator(".preview")
    label = preview.locator(".page-label").nth(1)
    assert label.is_visible()
    first_text = preview.locator("section.page").nth(0).locator(".block").first.bounding_box()
    second_text = preview.locator("section.page").nth(1).locator(".block").first.bounding_box()
    label_box = label.bounding_box()
    assert first_text["y"] + first_text["height"] <= label_box["y"] < second_text["y"]  # between the pages
    assert preview.get_attribute("aria-label") == "Text of three-pages.pdf"
    assert preview.get_attribute("tabindex") == "0"  # the keyboard can scroll it
    assert download_text(app_page, 0)[1] == cli_output(three_pages)


def test_a_one_page_file_has_no_page_label(app_page, tmp_path):
    clear_queue(app_page)
    from pdfbuilder import simple_page_pdf

    path = tmp_path / "one-page.pdf"
    path.write_bytes(simple_page_pdf(b"Only one page here"))
    app_page.locator("#file").set_input_files(str(path))
    assert wait_job_state(app_page, 0, ("done",)) == "done"
    preview = job(app_page, 0).locator(".preview")
    assert preview.locator(".page-label").count() == 0
    assert "Only one page here" in preview.inner_text()
