"""What a person sees besides a plain success: progress and cancel on a long file, the scan
banner, the password prompt, encrypted files (AES through the aes-js shim), a file that is
not a PDF."""
from __future__ import annotations

import base64
import io
from pathlib import Path

import pytest

from e2e_support import cli_output, clear_queue, download_text, job, make_long_pdf, wait_job_state

pytestmark = pytest.mark.e2e

LONG_PAGES = 300
CANCEL_PAGES = 1500  # several seconds of work, so the click surely lands mid-document
PASSWORD = "geheim"


@pytest.fixture(scope="module")
def pdfs(tmp_path_factory) -> dict[str, Path]:
    """Test files made here: a 300-page document, a blank (scan-like) one, encrypted ones."""
    from pypdf import PdfReader, PdfWriter

    folder = tmp_path_factory.mktemp("pdfs")
    long_pdf = make_long_pdf(folder / "long.pdf", LONG_PAGES)

    blank = PdfWriter()
    blank.add_blank_page(width=595, height=842)
    blank.add_blank_page(width=595, height=842)
    files = {"long": long_pdf, "scan": folder / "scan.pdf", "huge": make_long_pdf(folder / "huge.pdf", CANCEL_PAGES)}
    blank.write(files["scan"])

    sample = Path(__file__).resolve().parents[1] / "data" / "sample.pdf"
    for name, algorithm, user_password in (("aes128", "AES-128", ""), ("aes256", "AES-256", ""),
                                           ("locked", "AES-256", PASSWORD), ("locked2", "AES-128", PASSWORD)):
        writer = PdfWriter(clone_from=PdfReader(sample))
        writer.encrypt(user_password=user_password, owner_password="owner-" + name, algorithm=algorithm)
        buffer = io.BytesIO()
        writer.write(buffer)
        files[name] = folder / f"{name}.pdf"
        files[name].write_bytes(buffer.getvalue())
    files["text"] = folder / "notes.txt"
    files["text"].write_text("These are notes, not a PDF.\n", encoding="utf-8")
    return files


def test_long_file_reports_page_progress(app_page, pdfs):
    clear_queue(app_page)
    app_page.evaluate("""() => {
        const host = document.querySelector('glyphline-converter');
        window.__progress = [];
        new MutationObserver(() => {
            const status = host.shadowRoot.querySelector('li.job .status');
            if (status) window.__progress.push(status.textContent);
        }).observe(host.shadowRoot, { subtree: true, characterData: true, childList: true });
    }""")
    app_page.locator("#file").set_input_files(str(pdfs["long"]))
    assert wait_job_state(app_page, 0, ("done",)) == "done"
    seen = app_page.evaluate("() => window.__progress")
    pages = {text for text in seen if text.startswith("Page ")}
    assert f"Page {LONG_PAGES} of {LONG_PAGES}" in pages
    assert len(pages) >= 10, seen  # the bar moved through the document, not in one jump
    assert job(app_page, 0).locator(".counts").inner_text().startswith(f"{LONG_PAGES} pages")
    assert download_text(app_page, 0)[1] == cli_output(pdfs["long"])


def test_cancel_stops_a_running_conversion(app_page, pdfs):
    clear_queue(app_page)
    app_page.locator("#file").set_input_files(str(pdfs["huge"]))
    app_page.locator('li.job[data-state="running"]').wait_for(state="attached", timeout=60_000)
    job(app_page, 0).locator("button.cancel").focus()
    app_page.keyboard.press("Enter")  # the keyboard path
    assert wait_job_state(app_page, 0, ("cancelled",), timeout=15_000) == "cancelled"
    assert job(app_page, 0).locator(".status").inner_text() == "Cancelled."
    # the Cancel button is gone; the focus went to the file's card, not back to the page's start
    assert job(app_page, 0).evaluate("(node) => node === node.getRootNode().activeElement")
    assert job(app_page, 0).get_attribute("aria-labelledby") == job(app_page, 0).locator("h2").get_attribute("id")
    # the worker carries on with the next file
    app_page.locator("#file").set_input_files(str(pdfs["aes128"]))
    assert wait_job_state(app_page, 1, ("done",)) == "done"


def test_abort_signal_rejects_extract_text(app_page, pdfs):
    outcome = app_page.evaluate(
        """async (b64) => {
            const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
            const controller = new AbortController();
            const pending = window.glyphline.extractText(new Uint8Array(bytes), {
                signal: controller.signal,
                onProgress: ({ page }) => { if (page === 3) controller.abort(); },
            });
            try { await pending; return 'finished'; } catch (error) { return error.name; }
        }""",
        base64.b64encode(pdfs["long"].read_bytes()).decode(),
    )
    assert outcome == "AbortError"


def test_scan_shows_the_ocr_banner_and_no_download(app_page, pdfs):
    clear_queue(app_page)
    app_page.locator("#file").set_input_files(str(pdfs["scan"]))
    assert wait_job_state(app_page, 0, ("scan",)) == "scan"
    banner = job(app_page, 0).locator(".banner.scan")
    assert banner.is_visible()
    assert "OCR" in banner.inner_text()
    assert not job(app_page, 0).locator("button.download").is_visible()


def test_password_prompt_then_retry(app_page, pdfs):
    clear_queue(app_page)
    app_page.locator("#file").set_input_files(str(pdfs["locked"]))
    assert wait_job_state(app_page, 0, ("password",)) == "password"
    prompt = job(app_page, 0).locator("form.password")
    assert "protected by a password" in prompt.inner_text()
    field = prompt.locator("input[type=password]")
    assert field.evaluate("(node) => node === node.getRootNode().activeElement")  # focus moved there
    field.fill("wrong")
    field.press("Enter")
    assert wait_job_state(app_page, 0, ("password",)) == "password"
    assert "did not open" in prompt.inner_text()
    field.fill(PASSWORD)
    prompt.locator("button[type=submit]").click()
    assert wait_job_state(app_page, 0, ("done",)) == "done"
    assert download_text(app_page, 0)[1] == cli_output(pdfs["locked"], "--password", PASSWORD)


def test_a_batch_of_locked_files_does_not_move_the_focus_from_prompt_to_prompt(app_page, pdfs):
    clear_queue(app_page)
    app_page.locator("#file").set_input_files([str(pdfs["locked"]), str(pdfs["locked2"])])
    assert wait_job_state(app_page, 0, ("password",)) == "password"
    assert wait_job_state(app_page, 1, ("password",)) == "password"
    first = job(app_page, 0).locator("input[type=password]")
    second = job(app_page, 1).locator("input[type=password]")
    is_focused = "(node) => node === node.getRootNode().activeElement"
    assert first.evaluate(is_focused)  # the first prompt has it
    assert not second.evaluate(is_focused)  # the second one did not take it away
    # the one the person acts on keeps it: a wrong password there brings the focus back there
    second.fill("wrong")
    second.press("Enter")
    job(app_page, 1).locator("form.password", has_text="did not open").wait_for(timeout=60_000)
    assert second.evaluate(is_focused)
    first.fill(PASSWORD)
    first.press("Enter")
    assert wait_job_state(app_page, 0, ("done",)) == "done"
    assert job(app_page, 1).get_attribute("data-state") == "password"


@pytest.mark.parametrize("name", ["aes128", "aes256"])
def test_aes_encrypted_files_convert_in_the_browser(app_page, pdfs, name):
    clear_queue(app_page)
    app_page.locator("#file").set_input_files(str(pdfs[name]))
    assert wait_job_state(app_page, 0, ("done",)) == "done"
    assert download_text(app_page, 0)[1] == cli_output(pdfs[name])


def test_not_a_pdf_says_so(app_page, pdfs):
    clear_queue(app_page)
    app_page.locator("#file").set_input_files(str(pdfs["text"]))
    assert wait_job_state(app_page, 0, ("error",)) == "error"
    message = job(app_page, 0).locator(".banner.error")
    assert message.get_attribute("data-kind") == "not-pdf"
    assert message.inner_text() == "This file is not a PDF, so there is no text to extract."
