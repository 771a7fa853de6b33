"""OCR in the tab: a scan's banner offers recognition; tesseract.js (self-hosted) reads it, the
engine lays the words out; nothing leaves the origin, and once fetched it works offline."""
from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from e2e_support import BOOT_TIMEOUT_MS, READY_SELECTOR, assert_same_origin, download_text, job, wait_job_state

pytestmark = pytest.mark.e2e

REPO = Path(__file__).resolve().parents[2]
OCR_TIMEOUT_MS = 240_000   # first use: 7 MB of OCR files, then about 5 s a page on a busy machine
PROSE = ["The harbour office opened at half past seven, although the first ferry",
         "rarely left before nine. Maria liked the quiet hour: the radio crackled",
         "with weather reports, the kettle ticked as it cooled, and the logbook",
         "lay open at yesterday's last entry about the storm and the pilot boat."]


def prose_page(folder: Path):
    """PROSE typeset on a Letter page and rendered at 200 dpi by pdftoppm: a gray PIL image."""
    if subprocess.run(["which", "pdftoppm"], capture_output=True).returncode:
        pytest.skip("pdftoppm (poppler-utils) is not installed: make test installs it")
    sys.path.insert(0, str(REPO / "tests"))
    from pdfbuilder import PdfBuilder
    from PIL import Image

    b = PdfBuilder()
    font = b.font_type1("Times-Roman")
    b.page(b"".join(b"BT /F1 12 Tf 72 %d Td (%s) Tj ET\n" % (700 - 16 * i, line.encode("latin-1"))
                    for i, line in enumerate(PROSE)), fonts={"F1": font})
    (folder / "text.pdf").write_bytes(b.build())
    subprocess.run(["pdftoppm", "-r", "200", "-gray", "-singlefile", str(folder / "text.pdf"), str(folder / "page")],
                   check=True)
    return Image.open(folder / "page.pgm")


@pytest.fixture(scope="module")
def scan_pdf(tmp_path_factory) -> Path:
    """PROSE typeset, rendered at 200 dpi by pdftoppm and wrapped as an image-only (JPEG) page."""
    from pdfbuilder import PdfBuilder

    folder = tmp_path_factory.mktemp("ocr")
    image = prose_page(folder)
    (folder / "page.jpg").unlink(missing_ok=True)
    image.save(folder / "page.jpg", "JPEG", quality=85)
    scan = PdfBuilder()
    picture = scan.stream((folder / "page.jpg").read_bytes(), {
        "Type": "/XObject", "Subtype": "/Image", "Width": image.width, "Height": image.height,
        "ColorSpace": "/DeviceGray", "BitsPerComponent": 8, "Filter": "/DCTDecode"})
    scan.page(b"q 612 0 0 792 0 0 cm /Im1 Do Q", xobjects={"Im1": picture})
    path = folder / "scan.pdf"
    path.write_bytes(scan.build())
    return path


def test_a_scan_is_recognised_after_opting_in_without_any_request_leaving_the_origin(browser, server, scan_pdf):
    context = browser.new_context(accept_downloads=True)
    seen = []
    context.on("request", lambda request: seen.append(request.url))
    try:
        page = context.new_page()
        page.goto(server.url)
        page.locator(READY_SELECTOR).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)
        before = len(server.requests)
        page.locator("#file").set_input_files(str(scan_pdf))
        assert wait_job_state(page, 0, ("scan",)) == "scan"
        assert not any("/vendor/tesseract/" in path for _, path in server.requests[before:])  # nothing before opt-in
        offer = job(page, 0).locator("button.ocr")
        assert "MB" in job(page, 0).locator(".ocr-size").inner_text()
        offer.click()
        assert wait_job_state(page, 0, ("done",), timeout=OCR_TIMEOUT_MS) == "done"
        text = job(page, 0).locator(".preview").inner_text()
        expected = " ".join(PROSE).split()
        got = text.split()
        common = sum(min(got.count(w), expected.count(w)) for w in set(expected))
        assert common / len(expected) >= 0.9, text
        # offline now: the OCR files came through the service worker, which kept them
        server_paths = [path for _, path in server.requests[before:]]
        assert any(path.endswith("eng.traineddata.gz") for path in server_paths)
        context.set_offline(True)
        page.reload()
        page.locator(READY_SELECTOR).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)
        page.locator("#file").set_input_files(str(scan_pdf))
        assert wait_job_state(page, 0, ("scan",)) == "scan"
        job(page, 0).locator("button.ocr").click()
        assert wait_job_state(page, 0, ("done",), timeout=OCR_TIMEOUT_MS) == "done"
    finally:
        context.close()
    assert_same_origin(seen, server.url)

# enough characters that the document is not a scan as a whole (textlayer.MIN_CHARS_PER_PAGE on average)
TEXT_PAGE = "A real text page that keeps its own words, whatever the two scanned pages after it say."


@pytest.fixture(scope="module")
def jbig2_scan(tmp_path_factory) -> Path:
    """A mixed document: page 1 real text, pages 2 and 3 PROSE as JBIG2 scans (bench/ocr.py's
    MMR-coded generic region: JBIG2 that only a renderer reads, here pdf.js)."""
    folder = tmp_path_factory.mktemp("jbig2")
    image = prose_page(folder)
    sys.path.insert(0, str(REPO / "bench"))
    from ocr import encode
    from pdfbuilder import PdfBuilder

    data, entries = encode(image, "jbig2")
    mixed = PdfBuilder()
    font = mixed.font_type1("Helvetica")
    mixed.page(b"BT /F1 12 Tf 72 700 Td (%s) Tj ET" % TEXT_PAGE.encode("latin-1"), fonts={"F1": font})
    picture = mixed.stream(data, {"Type": "/XObject", "Subtype": "/Image", "Width": image.width,
                                  "Height": image.height, **entries})
    for _ in range(2):
        mixed.page(b"q 612 0 0 792 0 0 cm /Im1 Do Q", xobjects={"Im1": picture})
    path = folder / "jbig2.pdf"
    path.write_bytes(mixed.build())
    return path


# every text the converter's live region (#live, in its shadow root) is given from now on, each
# one even when two are set in the same task (the text nodes each setting adds)
LIVE_REGION_RECORDER = """() => {
    const live = document.querySelector("glyphline-converter").shadowRoot.getElementById("live");
    window.liveMessages = [];
    new MutationObserver((records) => {
        for (const record of records) for (const node of record.addedNodes) window.liveMessages.push(node.textContent);
    }).observe(live, { childList: true });
}"""


def tesseract_running(page) -> bool:
    return any("/vendor/tesseract/" in worker.url for worker in page.workers)


def wait_until(page, condition, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        page.wait_for_timeout(100)   # (not time.sleep: Playwright's worker events arrive while it waits)
    return True


def prose_share(text: str, copies: int) -> float:
    expected = " ".join(PROSE).split() * copies
    got = text.split()
    return sum(min(got.count(w), expected.count(w)) for w in set(expected)) / len(expected)


def test_a_jbig2_scan_is_rendered_and_read_and_with_the_automatic_setting_it_is_read_offline(browser, server, jbig2_scan):
    context = browser.new_context()
    seen = []
    context.on("request", lambda request: seen.append(request.url))
    try:
        page = context.new_page()
        page.goto(server.url)
        page.locator(READY_SELECTOR).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)
        page.locator("#file").set_input_files(str(jbig2_scan))
        assert wait_job_state(page, 0, ("done",)) == "done"   # the text page is there: done, with a banner
        assert "2, 3" in job(page, 0).locator(".banner.scan").inner_text()
        job(page, 0).locator("button.ocr").click()
        job(page, 0).locator(".status", has_text="Recognising page 1 of 2").wait_for(timeout=OCR_TIMEOUT_MS)
        assert wait_job_state(page, 0, ("done",), timeout=OCR_TIMEOUT_MS) == "done"
        text = download_text(page, 0)[1].decode("utf-8")
        assert text.startswith(TEXT_PAGE)   # the text page, untouched
        assert prose_share(text, 2) >= 0.9, text
        assert any("/vendor/pdfjs/wasm/jbig2.wasm" in path for _, path in server.requests)
        # the remembered setting: the next scan is read without asking, offline
        page.locator("#options summary").click()
        page.locator("#auto-ocr").check()
        assert page.evaluate("() => localStorage.getItem('glyphline.autoOcr')") == "eng"
        context.set_offline(True)
        page.reload()
        page.locator(READY_SELECTOR).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)
        assert page.locator("#auto-ocr").is_checked()
        page.locator("#file").set_input_files(str(jbig2_scan))
        job(page, 0).locator(".status", has_text="Recognising page 2 of 2").wait_for(timeout=OCR_TIMEOUT_MS)
        assert wait_job_state(page, 0, ("done",), timeout=OCR_TIMEOUT_MS) == "done"
        assert prose_share(download_text(page, 0)[1].decode("utf-8"), 2) >= 0.9
    finally:
        context.close()
    assert_same_origin(seen, server.url)


def test_cancel_inside_a_page_ends_tesseract_at_once_and_the_offer_comes_back(browser, server, jbig2_scan):
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(server.url)
        page.locator(READY_SELECTOR).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)
        page.locator("#file").set_input_files(str(jbig2_scan))
        assert wait_job_state(page, 0, ("done",)) == "done"
        job(page, 0).locator("button.ocr").click()
        job(page, 0).locator(".status", has_text="Recognising page 1 of 2").wait_for(timeout=OCR_TIMEOUT_MS)
        assert wait_until(page, lambda: tesseract_running(page), OCR_TIMEOUT_MS / 1000)   # tesseract.js is at work
        page.evaluate(LIVE_REGION_RECORDER)
        job(page, 0).locator("button.cancel").click()
        # the text page's result is back with the scan banner and its offer
        job(page, 0).locator(".status", has_text="Cancelled.").wait_for(timeout=10_000)
        assert job(page, 0).get_attribute("data-state") == "done"
        page.wait_for_timeout(500)   # (a later message would be recorded meanwhile)
        # a screen reader hears one message, "cancelled" (not "done" and then "cancelled")
        assert page.evaluate("() => window.liveMessages") == ["jbig2.pdf: Cancelled."]
        assert wait_until(page, lambda: not tesseract_running(page), 10)   # its worker was ended, not left to finish
        job(page, 0).locator("button.ocr").click()   # tesseract.js is created again
        job(page, 0).locator(".status", has_text="Recognising page 2 of 2").wait_for(timeout=OCR_TIMEOUT_MS)
        assert wait_job_state(page, 0, ("done",), timeout=OCR_TIMEOUT_MS) == "done"
        assert prose_share(download_text(page, 0)[1].decode("utf-8"), 2) >= 0.9
    finally:
        context.close()


@pytest.fixture(scope="module")
def jpx_scan(tmp_path_factory) -> Path:
    """PROSE as a JPEG 2000 scan: tesseract.js's image library cannot read it, pdf.js renders it."""
    from pdfbuilder import PdfBuilder

    folder = tmp_path_factory.mktemp("jpx")
    image = prose_page(folder)
    image.save(folder / "page.jp2", "JPEG2000")
    scan = PdfBuilder()
    picture = scan.stream((folder / "page.jp2").read_bytes(), {
        "Type": "/XObject", "Subtype": "/Image", "Width": image.width, "Height": image.height,
        "ColorSpace": "/DeviceGray", "BitsPerComponent": 8, "Filter": "/JPXDecode"})
    scan.page(b"q 612 0 0 792 0 0 cm /Im1 Do Q", xobjects={"Im1": picture})
    path = folder / "jpx.pdf"
    path.write_bytes(scan.build())
    return path


STRIPS = 4


@pytest.fixture(scope="module")
def strips_scan(tmp_path_factory) -> Path:
    """PROSE as a scan in STRIPS horizontal JPEG strips, as some scanners write it: read strip by
    strip, lines cut at a strip's edge would break, so the page is rendered whole."""
    from pdfbuilder import PdfBuilder

    folder = tmp_path_factory.mktemp("strips")
    image = prose_page(folder)
    rows = image.height // STRIPS
    scan = PdfBuilder()
    xobjects, drawing = {}, b""
    for index in range(STRIPS):
        strip = image.crop((0, index * rows, image.width, (index + 1) * rows))
        strip.save(folder / f"strip{index}.jpg", "JPEG", quality=85)
        xobjects[f"S{index}"] = scan.stream((folder / f"strip{index}.jpg").read_bytes(), {
            "Type": "/XObject", "Subtype": "/Image", "Width": strip.width, "Height": strip.height,
            "ColorSpace": "/DeviceGray", "BitsPerComponent": 8, "Filter": "/DCTDecode"})
        height = 792 / STRIPS
        drawing += b"q 612 0 0 %.4f 0 %.4f cm /S%d Do Q\n" % (height, 792 - (index + 1) * height, index)
    scan.page(drawing, xobjects=xobjects)
    path = folder / "strips.pdf"
    path.write_bytes(scan.build())
    return path


# the banner's download size as the page formats it, for these parts of ocr-languages.mjs's DOWNLOAD_BYTES
DOWNLOAD_SIZE = """async (parts) => {
    const { DOWNLOAD_BYTES } = await import(new URL("static/ocr-languages.mjs", location.href).href);
    const bytes = parts.reduce((sum, part) => sum + DOWNLOAD_BYTES[part], 0);
    return `${new Intl.NumberFormat("en", { maximumFractionDigits: 1 }).format(bytes / 1e6)} MB`;
}"""


def test_jpeg_2000_and_strip_scans_are_rendered_and_read_in_two_languages_and_offline_after_opting_in(
        browser, server, jpx_scan, strips_scan):
    context = browser.new_context()
    seen = []
    context.on("request", lambda request: seen.append(request.url))
    try:
        page = context.new_page()
        page.goto(server.url)
        page.locator(READY_SELECTOR).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)
        before = len(server.requests)
        page.locator("#file").set_input_files(str(jpx_scan))
        assert wait_job_state(page, 0, ("scan",)) == "scan"
        # the page must be rendered first: the one-time download counts pdf.js
        with_renderer = page.evaluate(DOWNLOAD_SIZE, ["base", "eng", "renderer"])
        job(page, 0).locator(".ocr-size", has_text=with_renderer).wait_for(timeout=OCR_TIMEOUT_MS)
        # a second language: "eng+deu", and its model counted too
        job(page, 0).locator("select.ocr-language-second").select_option("deu")
        both = page.evaluate(DOWNLOAD_SIZE, ["base", "eng", "deu", "renderer"])
        assert both in job(page, 0).locator(".ocr-size").inner_text()
        job(page, 0).locator("button.ocr").click()
        assert wait_job_state(page, 0, ("done",), timeout=OCR_TIMEOUT_MS) == "done"
        assert prose_share(job(page, 0).locator(".preview").inner_text(), 1) >= 0.9
        paths = [path for _, path in server.requests[before:]]
        assert any(path.endswith("/lang/deu.traineddata.gz") for path in paths)
        assert any(path.endswith("/vendor/pdfjs/wasm/openjpeg.wasm") for path in paths)
        assert page.evaluate("() => localStorage.getItem('glyphline.ocrLanguage')") == "eng+deu"
        # offline: the strips and the JPEG 2000 scan read from what the service worker kept
        context.set_offline(True)
        page.reload()
        page.locator(READY_SELECTOR).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)
        page.locator("#file").set_input_files([str(strips_scan), str(jpx_scan)])
        for index in range(2):
            assert wait_job_state(page, index, ("scan",)) == "scan"
            assert job(page, index).locator("select.ocr-language-second").input_value() == "deu"   # remembered
            job(page, index).locator("button.ocr").click()
        for index in range(2):
            assert wait_job_state(page, index, ("done",), timeout=OCR_TIMEOUT_MS) == "done"
            assert prose_share(job(page, index).locator(".preview").inner_text(), 1) >= 0.9
    finally:
        context.close()
    assert_same_origin(seen, server.url)
