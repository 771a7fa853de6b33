"""The layout inspector: after a real drop, the current page's word boxes, block outlines,
reading-order numbers, columns and left-out glyphs are drawn from the engine's JSON; layers
toggle, zoom fits, the keyboard reaches everything, the rendered page lies underneath when the
site has a renderer, and it works offline after its first use. "Open with Glyphline" hands a
real FileSystemFileHandle to the page's launchQueue consumer."""
from __future__ import annotations

import base64
import json
import sys
from pathlib import Path

import pytest

from e2e_support import (BOOT_TIMEOUT_MS, CHROMIUM_ARGS, READY_SELECTOR, REPO, StaticServer, clear_queue, cli_output,
                         job, open_app, wait_job_state)
from test_convert import drop_file

pytestmark = pytest.mark.e2e

sys.path.insert(0, str(REPO / "tests"))  # pdfbuilder

READY = '.inspector[data-state="ready"]'


def _line(text: bytes, x: float, y: float) -> bytes:
    return b"BT /F1 11 Tf %g %g Td (%s) Tj ET " % (x, y, text)


@pytest.fixture(scope="module")
def layout_pdf(tmp_path_factory) -> Path:
    """Page 1: a fake-bold title over two columns, a word past the crop box, a hidden layer;
    page 2: one line."""
    from pdfbuilder import PdfBuilder

    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    layer = b.add({"Type": "/OCG", "Name": b"notes"})
    title = _line(b"Orchard report", 72, 740) + _line(b"Orchard report", 72.3, 740)
    columns = b"".join(_line(b"Apples grow on the left side %d" % i, 72, 700 - 14 * i)
                       + _line(b"Pears grow on the right side %d" % i, 290, 700 - 14 * i) for i in range(8))
    content = (title + columns + _line(b"Trimmed", 540, 600)
               + b"/OC /L0 BDC " + _line(b"Secret", 72, 560) + b"EMC ")
    b.page(content, fonts={"F1": font}, resources={"Properties": {"L0": layer}}, crop_box=(0, 0, 500, 792))
    b.page(_line(b"Plums are the last fruit.", 72, 700), fonts={"F1": font})
    path = tmp_path_factory.mktemp("inspector") / "orchard.pdf"
    path.write_bytes(b.build(catalog={"OCProperties": {"OCGs": [layer], "D": {"OFF": [layer]}}}))
    return path


def _json_page(path: Path, number: int) -> dict:
    return json.loads(cli_output(path, "--mode", "json", "--pages", str(number)))["pages"][0]


def _open(page, path: Path):
    clear_queue(page)
    drop_file(page, path)
    assert wait_job_state(page, 0, ("done",)) == "done"
    card = job(page, 0)
    card.get_by_role("button", name="Inspect layout").click()
    card.locator(READY).wait_for(timeout=60_000)
    return card


def test_the_boxes_are_the_json_words_blocks_and_left_out_glyphs(app_page, layout_pdf):
    card = _open(app_page, layout_pdf)
    expected = _json_page(layout_pdf, 1)
    words = [w for block in expected["blocks"] for line in block["lines"] for w in line["words"]]
    inspector = card.locator(".inspector")
    assert inspector.get_by_role("heading").inner_text() == "Layout of page 1"
    assert card.locator("svg .layer-words rect.word").count() == len(words)
    assert card.locator("svg .layer-blocks rect.block").count() == len(expected["blocks"])
    badges = card.locator("svg .layer-order text").evaluate_all("(numbers) => numbers.map((n) => n.textContent)")
    assert badges == [str(n) for n in range(1, len(expected["blocks"]) + 1)]
    assert card.locator("svg .layer-columns rect.column").count() == 3   # the title, then two columns
    reasons = card.locator("svg .layer-dropped g.dropped").evaluate_all(
        "(marks) => marks.map((m) => [m.getAttribute('class'), m.querySelector('title').textContent])")
    assert ["dropped reason-outside_crop", "outside the page's visible area: T"] in reasons
    assert ["dropped reason-duplicate", "drawn twice (fake bold): O"] in reasons
    assert ["dropped reason-hidden_layer", "in a hidden layer: S"] in reasons
    summary = inspector.locator(".inspector-summary").inner_text()
    assert summary.startswith(f"Words: {len(words)} · blocks: {len(expected['blocks'])}, read in the numbered order")
    assert "7 outside the visible area" in summary and "6 in hidden layers" in summary


def test_layers_toggle_zoom_fits_and_the_page_follows_the_view(app_page, layout_pdf):
    card = _open(app_page, layout_pdf)
    svg = card.locator("svg.inspector-svg")
    card.get_by_label("Words").uncheck()
    assert card.locator("svg .layer-words").get_attribute("hidden") is not None
    card.get_by_label("Words").check()
    assert card.locator("svg .layer-words").get_attribute("hidden") is None
    fit = svg.bounding_box()["width"]
    stage = card.locator(".inspector-stage").bounding_box()["width"]
    assert stage - 4 <= fit <= stage
    card.get_by_role("button", name="Larger").click()
    assert svg.bounding_box()["width"] > fit * 1.2
    assert card.get_by_role("button", name="Fit width").get_attribute("aria-pressed") == "false"
    card.get_by_role("button", name="Fit width").click()
    assert abs(svg.bounding_box()["width"] - fit) < 2
    card.get_by_role("button", name="Next page").click()   # from all pages to page 1, then page 2
    card.get_by_role("button", name="Next page").click()
    card.locator('.inspector[data-state="ready"] svg[data-page="2"]').wait_for(timeout=60_000)
    assert card.locator(".inspector h3").text_content() == "Layout of page 2"
    assert card.locator("svg .layer-words rect.word").count() == 5


@pytest.fixture(scope="module")
def ruled_pdf(tmp_path_factory) -> Path:
    """A table with three rules across it, a red square and a white one beside it (white paint is invisible)."""
    from pdfbuilder import PdfBuilder

    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    rows = b"".join(_line(b"Station %d" % i, 72, 700 - 16 * i) + _line(b"%d mm" % (10 * i), 250, 700 - 16 * i)
                    for i in range(3))
    rules = b"0.5 w " + b"".join(b"70 %g m 320 %g l S " % (y, y) for y in (712, 695, 663))
    squares = b"1 0 0 rg 60 700 4 4 re f 1 g 60 684 4 4 re f"
    b.page(rows + rules + squares, fonts={"F1": font})
    path = tmp_path_factory.mktemp("inspector-ruled") / "stations.pdf"
    path.write_bytes(b.build())
    return path


def test_the_rules_and_marks_the_page_draws_are_layers(app_page, ruled_pdf):
    card = _open(app_page, ruled_pdf)
    assert card.locator("svg .layer-rules line.rule").count() == 3
    marks = card.locator("svg .layer-marks rect.mark").evaluate_all(
        "(marks) => marks.map((m) => m.querySelector('title').textContent)")
    assert marks == ["Filled shape #ff0000"]
    assert card.get_by_label("Rules").is_checked()
    card.get_by_label("Rules").uncheck()
    assert card.locator("svg .layer-rules").get_attribute("hidden") is not None
    card.get_by_label("Drawn marks").uncheck()
    assert card.locator("svg .layer-marks").get_attribute("hidden") is not None


def test_the_keyboard_opens_walks_and_closes_the_inspector(app_page, layout_pdf):
    clear_queue(app_page)
    drop_file(app_page, layout_pdf)
    assert wait_job_state(app_page, 0, ("done",)) == "done"
    card = job(app_page, 0)
    button = card.get_by_role("button", name="Inspect layout")
    button.focus()
    app_page.keyboard.press("Enter")
    card.locator(READY).wait_for(timeout=60_000)
    assert button.get_attribute("aria-expanded") == "true"
    focusable = []
    for _ in range(16):   # Tab walks through the inspector's controls and its scrollable page
        app_page.keyboard.press("Tab")
        focusable.append(app_page.evaluate("""() => {
            const active = document.querySelector('glyphline-converter').shadowRoot.activeElement;
            return active ? (active.dataset.layer || active.className) : '';
        }"""))
    for reached in ("button inspector-close", "words", "dropped", "button zoom-fit", "inspector-stage"):
        assert reached in focusable
    card.locator(".inspector-stage").focus()
    app_page.keyboard.press("Escape")
    assert card.locator(".inspector-slot").is_hidden()
    assert app_page.evaluate(
        "() => document.querySelector('glyphline-converter').shadowRoot.activeElement.classList.contains('inspect')")


def test_the_rendered_page_lies_underneath(app_page, layout_pdf, site_dir):
    if not (site_dir / "static" / "pdfrender.mjs").is_file():
        pytest.skip("this build has no page renderer (static/pdfrender.mjs): the boxes are drawn alone")
    card = _open(app_page, layout_pdf)
    card.locator('svg[data-underlay="rendered"] .layer-underlay image').wait_for(timeout=60_000)
    assert card.get_by_label("Page image").is_checked()
    card.get_by_label("Page image").uncheck()
    assert card.locator("svg .layer-underlay").get_attribute("hidden") is not None


def test_works_offline_after_its_first_use(playwright_driver, chromium_path, site_dir, layout_pdf, tmp_path):
    own_server = StaticServer(site_dir)   # this test stops it
    context = playwright_driver.chromium.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=chromium_path, args=CHROMIUM_ARGS)
    try:
        page = open_app(context, own_server.url)
        _open(page, layout_pdf)
        own_server.stop()
        page.reload()
        page.locator(READY_SELECTOR).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)
        card = _open(page, layout_pdf)
        assert card.locator("svg .layer-dropped g.dropped").count() > 0
    finally:
        context.close()
        own_server.stop()


LAUNCH_CONSUMERS = """
    // records the consumer the page gives launchQueue, as the browser would call it on "Open with"
    window.launchConsumers = [];
    if (!('launchQueue' in window)) window.launchQueue = { setConsumer() {} };
    const setConsumer = window.launchQueue.setConsumer.bind(window.launchQueue);
    window.launchQueue.setConsumer = (consumer) => { window.launchConsumers.push(consumer); setConsumer(consumer); };
"""


def test_open_with_glyphline_converts_the_launched_file(browser, server, layout_pdf):
    """Headless Chromium never launches the installed app with a file, so the test plays the
    browser's part: it hands the page's launchQueue consumer a real FileSystemFileHandle (a file
    in the origin's private file system), as "Open with Glyphline" does."""
    context = browser.new_context()
    try:
        context.add_init_script(LAUNCH_CONSUMERS)
        page = open_app(context, server.url)
        launched = page.evaluate("""async (b64) => {
            const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
            const folder = await navigator.storage.getDirectory();
            const handle = await folder.getFileHandle('launched.pdf', { create: true });
            const writable = await handle.createWritable();
            await writable.write(bytes);
            await writable.close();
            for (const consumer of window.launchConsumers) await consumer({ files: [handle] });
            return [window.launchConsumers.length, handle instanceof FileSystemFileHandle];
        }""", base64.b64encode(layout_pdf.read_bytes()).decode())
        assert launched == [1, True]
        assert wait_job_state(page, 0, ("done",)) == "done"
        assert job(page, 0).locator("h2.name").inner_text() == "launched.pdf"
        assert "Apples grow on the left side 0" in job(page, 0).locator(".preview").inner_text()
    finally:
        context.close()
