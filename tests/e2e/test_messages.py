"""Messages in the reader's language (defect 5): the engine's warnings arrive with stable codes and
the page words them in English or German, the technical English sentence behind "Details"; an
error's kind is worded the same way, its engine message behind "Details" too."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from e2e_support import REPO, clear_queue, job, open_app, wait_job_state

pytestmark = pytest.mark.e2e

sys.path.insert(0, str(REPO / "tests"))  # pdfbuilder

NO_PAGE_TREE = b"%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n"


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, Path]:
    from pdfbuilder import PdfBuilder

    builder = PdfBuilder()
    helvetica = builder.font_type1("Helvetica")
    builder.page(b"BT /F1 12 Tf 72 700 Td (Fine first page) Tj ET", fonts={"F1": helvetica})
    builder.page(b"BT /F1 12 Tf 72 700 Td (Second page) Tj ET BT /F9 12 Tf 72 600 Td (lost) Tj ET", fonts={"F1": helvetica})
    folder = tmp_path_factory.mktemp("messages")
    paths = {"missing-font": folder / "missing-font.pdf", "damaged": folder / "damaged.pdf"}
    paths["missing-font"].write_bytes(builder.build())
    paths["damaged"].write_bytes(NO_PAGE_TREE)
    return paths


@pytest.fixture(scope="module")
def german_page(browser, server):
    context = browser.new_context(locale="de-DE")
    page = open_app(context, server.url)
    yield page
    context.close()


def _notices(page):
    box = job(page, 0).locator("details.warnings-box")
    box.locator("> summary").click()
    return box


def test_a_warning_is_worded_in_english_with_its_page(app_page, files):
    clear_queue(app_page)
    app_page.locator("#file").set_input_files(str(files["missing-font"]))
    assert wait_job_state(app_page, 0, ("done",)) == "done"
    box = _notices(app_page)
    lines = box.locator("li.notice").all_inner_texts()
    assert "Page 2: Text uses a font (F9) that the file does not contain; that text is missing." in lines
    assert not any("/F9" in line or "resources" in line for line in lines)  # no engine wording up front
    detail = box.locator("details.notice-details")
    assert not detail.locator("pre").is_visible()
    detail.locator("summary").click()
    assert "font /F9 is not in the page resources" in detail.locator("pre").inner_text()


def test_a_warning_is_worded_in_german(german_page, files):
    clear_queue(german_page)
    german_page.locator("#file").set_input_files(str(files["missing-font"]))
    assert wait_job_state(german_page, 0, ("done",)) == "done"
    box = _notices(german_page)
    assert box.locator("> summary").inner_text().startswith("Hinweise zu dieser Datei")
    lines = box.locator("li.notice").all_inner_texts()
    assert "Seite 2: Text verwendet eine Schrift (F9), die in der Datei fehlt; dieser Text fehlt." in lines


def test_an_error_says_its_kind_in_german_and_keeps_the_detail_behind_a_disclosure(german_page, files):
    clear_queue(german_page)
    german_page.locator("#file").set_input_files(str(files["damaged"]))
    assert wait_job_state(german_page, 0, ("error",)) == "error"
    card = job(german_page, 0)
    banner = card.locator(".banner.error")
    assert banner.get_attribute("data-kind") == "damaged"
    assert banner.inner_text() == "Diese PDF ist beschädigt und konnte nicht gelesen werden."
    details = card.locator("details.error-details")
    assert details.inner_text().strip() == "Details"   # closed: the English detail is not in view
    details.locator("summary").click()
    assert "/Root /Pages is missing" in details.locator("pre").inner_text()


def test_an_older_worker_result_without_codes_still_shows_its_warnings(app_page):
    """A result without `notices` (the JS API from another build) shows the English lines."""
    lines = app_page.evaluate("""() => {
        const host = document.querySelector('glyphline-converter');
        const view = { warnings: document.createElement('ul'), warningsSummary: document.createElement('summary'),
                       warningDetail: document.createElement('pre'), warningsBox: document.createElement('details') };
        host.renderNotices(view, { warnings: ['page 1: something odd'] });
        return [...view.warnings.children].map((li) => li.textContent);
    }""")
    assert lines == ["page 1: something odd"]


def test_a_document_notice_with_one_page_is_worded_in_the_singular(app_page, tmp_path):
    from pdfbuilder import simple_page_pdf

    path = tmp_path / "one.pdf"
    path.write_bytes(simple_page_pdf(b"Just one page"))
    clear_queue(app_page)
    app_page.locator("#options summary").click()
    app_page.locator("#pages").fill("1-4")
    app_page.locator("#pages").press("Tab")   # "change" is what the form listens to
    try:
        app_page.locator("#file").set_input_files(str(path))
        assert wait_job_state(app_page, 0, ("done",)) == "done"
    finally:
        app_page.locator("#pages").fill("")
        app_page.locator("#pages").press("Tab")
        app_page.locator("#options summary").click()
    lines = _notices(app_page).locator("li.notice").all_inner_texts()
    assert lines == ["The document has 1 page; the requested pages from 2 on do not exist."]
