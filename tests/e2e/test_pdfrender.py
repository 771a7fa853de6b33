"""The page renderer (static/pdfrender.mjs, pdf.js self-hosted): draws a page where the PDF puts
it, at the dpi asked for, fetched only on first use, from this origin only, and offline after."""
from __future__ import annotations

import base64
import sys
from pathlib import Path

import pytest

from e2e_support import BOOT_TIMEOUT_MS, READY_SELECTOR, assert_same_origin

pytestmark = pytest.mark.e2e

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests"))
from pdfbuilder import PdfBuilder  # noqa: E402

# renders page N of the base64 PDF and reports its size and the darkness of two probe points
# (given as fractions of the canvas, so the same probe works at any dpi)
RENDER = """async ([b64, pageNumber, dpi, probes]) => {
    const { renderPage, pageCount } = await import('./static/pdfrender.mjs');
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const result = await renderPage(bytes, pageNumber, { dpi });
    const context = result.canvas.getContext('2d');
    const dark = probes.map(([fx, fy]) => {
        const [r, g, b] = context.getImageData(Math.floor(fx * result.width), Math.floor(fy * result.height), 1, 1).data;
        return (r + g + b) / 3 < 64;
    });
    return { width: result.width, height: result.height, scale: result.scale, dark,
             pages: await pageCount(bytes), bytesLeft: bytes.byteLength, transform: result.transform };
}"""


def two_page_pdf() -> str:
    """Page 1: a US-letter page, black square in its top-left quarter; page 2: the same, /Rotate 90."""
    b = PdfBuilder()
    square = b"0 g 72 540 180 180 re f"  # x 72..252, y 540..720 of 612 x 792
    b.page(square)
    b.page(square, rotate=90)
    return base64.b64encode(b.build()).decode()


def test_renders_a_page_at_the_dpi_asked_for_from_this_origin_and_offline_after(browser, server):
    context = browser.new_context()
    seen = []
    context.on("request", lambda request: seen.append(request.url))
    try:
        page = context.new_page()
        before = len(server.requests)   # (the server is the session's: other tests used pdf.js already)
        page.goto(server.url)
        page.locator(READY_SELECTOR).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)
        assert not any("/vendor/pdfjs/" in path for _, path in server.requests[before:])  # not on the first visit
        pdf = two_page_pdf()
        inside, outside = (162 / 612, 1 - 630 / 792), (400 / 612, 1 - 300 / 792)
        first = page.evaluate(RENDER, [pdf, 1, 144, [inside, outside]])
        assert (first["width"], first["height"]) == (1224, 1584)  # 612 x 792 pt at 2 px per pt
        assert first["scale"] == pytest.approx(2.0) and first["pages"] == 2
        assert first["dark"] == [True, False]
        assert first["bytesLeft"] > 0  # pdf.js got a copy: the caller's bytes are not detached
        # /Rotate 90 turns the page clockwise: the top-left square is now at the top right
        rotated = page.evaluate(RENDER, [pdf, 2, 72, [(1 - inside[1], inside[0]), (0.1, 0.1)]])
        assert (rotated["width"], rotated["height"]) == (792, 612)
        assert rotated["dark"] == [True, False]
        # the transform maps user space to canvas pixels: the square's centre lands on the probe
        a, b, c, d, e, f = first["transform"]
        assert (a * 162 + c * 630 + e, b * 162 + d * 630 + f) == pytest.approx((inside[0] * 1224, inside[1] * 1584), abs=1)
        assert any("/vendor/pdfjs/pdf.worker.min.mjs" in path for _, path in server.requests[before:])
        context.set_offline(True)
        page.reload()
        page.locator(READY_SELECTOR).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)
        again = page.evaluate(RENDER, [pdf, 1, 72, [inside, outside]])
        assert again["dark"] == [True, False]
    finally:
        context.close()
    assert_same_origin(seen, server.url)


def test_a_page_out_of_range_is_a_clear_error(app_page):
    message = app_page.evaluate("""async (b64) => {
        const { renderPage } = await import('./static/pdfrender.mjs');
        const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
        try { await renderPage(bytes, 3, { dpi: 72 }); return 'rendered'; } catch (error) { return String(error); }
    }""", two_page_pdf())
    assert "page 3 is not in this document" in message


def test_an_encrypted_pdf_renders_with_its_password(app_page):
    from pdfbuilder import encrypt

    locked = base64.b64encode(encrypt(base64.b64decode(two_page_pdf()), "AES-128", user_password="sesame")).decode()
    outcome = app_page.evaluate("""async (b64) => {
        const { renderPage, pageCount, releaseDocument } = await import('./static/pdfrender.mjs');
        const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
        let without;
        try { await pageCount(bytes); without = 'opened'; } catch (error) { without = error.name; }
        await releaseDocument();
        const page = await renderPage(bytes, 1, { dpi: 72, password: 'sesame' });
        return { without, width: page.width };
    }""", locked)
    assert outcome == {"without": "PasswordException", "width": 612}
