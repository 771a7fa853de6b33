"""The page view: previous/next, a page number field and a page list move between the pages of a
result (all pages first); search counts and highlights its hits; copy page / copy all."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from e2e_support import REPO, clear_queue, job, open_app, wait_job_state

pytestmark = pytest.mark.e2e

sys.path.insert(0, str(REPO / "tests"))  # pdfbuilder

PAGES = ["Apples grow on trees in the orchard.", "Pears and apples share the basket.", "Plums are the last fruit."]


@pytest.fixture(scope="module")
def fruit_pdf(tmp_path_factory) -> Path:
    from pdfbuilder import PdfBuilder

    builder = PdfBuilder()
    helvetica = builder.font_type1("Helvetica")
    for text in PAGES:
        builder.page(b"BT /F1 12 Tf 72 700 Td (" + text.encode() + b") Tj ET", fonts={"F1": helvetica})
    path = tmp_path_factory.mktemp("pages") / "fruit.pdf"
    path.write_bytes(builder.build())
    return path


@pytest.fixture(scope="module")
def clipboard_page(browser, server):
    context = browser.new_context()
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url.rstrip("/"))
    page = open_app(context, server.url)
    yield page
    context.close()


def _convert(page, path: Path):
    clear_queue(page)
    page.locator("#file").set_input_files(str(path))
    assert wait_job_state(page, 0, ("done",)) == "done"
    return job(page, 0)


def _shown_pages(card) -> list[str]:
    return card.locator(".preview section.page").evaluate_all("(sections) => sections.map((s) => s.dataset.page)")


def test_previous_next_number_and_list_move_between_pages(app_page, fruit_pdf):
    card = _convert(app_page, fruit_pdf)
    pager = card.get_by_role("navigation", name="Pages of fruit.pdf")
    assert pager.is_visible()
    assert _shown_pages(card) == ["1", "2", "3"]   # all pages first
    options = card.locator("select.page-list option").all_inner_texts()
    assert options == ["All pages", "Page 1: Apples grow on trees in the", "Page 2: Pears and apples share the basket.",
                       "Page 3: Plums are the last fruit."]
    card.get_by_role("button", name="Next page").click()
    assert _shown_pages(card) == ["1"]
    assert card.get_by_role("button", name="Previous page").is_disabled()
    assert card.locator(".preview").inner_text().strip().endswith(PAGES[0])
    card.get_by_role("button", name="Next page").click()
    assert _shown_pages(card) == ["2"]
    assert card.get_by_label("Page", exact=True).input_value() == "2"
    card.get_by_label("Page", exact=True).fill("3")
    card.get_by_label("Page", exact=True).press("Enter")
    assert _shown_pages(card) == ["3"]
    assert card.get_by_role("button", name="Next page").is_disabled()
    card.get_by_label("Page", exact=True).fill("9")   # no such page: marked, the view stays
    card.get_by_label("Page", exact=True).press("Enter")
    assert card.get_by_label("Page", exact=True).get_attribute("aria-invalid") == "true"
    assert _shown_pages(card) == ["3"]
    card.locator("select.page-list").select_option("0")
    assert _shown_pages(card) == ["1", "2", "3"]


def test_the_keyboard_alone_reaches_the_next_page(app_page, fruit_pdf):
    card = _convert(app_page, fruit_pdf)
    card.get_by_role("button", name="Previous page").focus()
    app_page.keyboard.press("Tab")   # the page number field
    app_page.keyboard.press("Tab")   # next
    app_page.keyboard.press("Enter")
    assert _shown_pages(card) == ["1"]


def test_search_counts_and_highlights_hits_on_all_pages_and_on_one(app_page, fruit_pdf):
    card = _convert(app_page, fruit_pdf)
    search = card.get_by_role("searchbox", name="Search in the text")
    search.fill("apples")
    assert card.locator(".hits").inner_text() == "2 matches"
    marks = card.locator(".preview mark.hit")
    assert marks.all_inner_texts() == ["Apples", "apples"]   # case-insensitive, the text's own case kept
    search.press("Enter")
    assert card.locator(".preview mark.hit.current").inner_text() == "Apples"
    search.press("Enter")
    assert card.locator(".preview mark.hit.current").inner_text() == "apples"
    card.locator("select.page-list").select_option("3")
    assert card.locator(".hits").inner_text() == "0 on this page, 2 in all"
    assert marks.count() == 0
    search.fill("kiwi")
    assert card.locator(".hits").inner_text() == "No matches"
    search.fill("")
    assert card.locator(".hits").inner_text() == ""


def test_copy_page_and_copy_all(clipboard_page, fruit_pdf):
    card = _convert(clipboard_page, fruit_pdf)
    read = "() => navigator.clipboard.readText()"
    assert not card.locator("button.copy-page").is_visible()   # all pages shown: only "Copy all"
    card.get_by_role("button", name="Copy all").click()
    card.locator(".copy-status", has_text="Copied").wait_for()
    copied = clipboard_page.evaluate(read)
    assert all(text in copied for text in PAGES)
    card.locator("select.page-list").select_option("2")
    card.get_by_role("button", name="Copy page 2").click()
    for _ in range(50):   # the clipboard write is asynchronous; the status line says "Copied" already
        if clipboard_page.evaluate(read) != copied:
            break
        clipboard_page.wait_for_timeout(50)
    assert clipboard_page.evaluate(read).strip() == PAGES[1]


def test_a_one_page_result_has_no_pager(app_page, tmp_path):
    from pdfbuilder import simple_page_pdf

    path = tmp_path / "single.pdf"
    path.write_bytes(simple_page_pdf(b"Only one page"))
    card = _convert(app_page, path)
    assert not card.locator("nav.pager").is_visible()
    assert card.get_by_role("searchbox").is_visible()   # search still works on one page
