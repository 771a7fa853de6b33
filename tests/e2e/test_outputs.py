"""Outputs: the form offers every mode of the built engine (dist/static/engine.mjs MODES), JSON
included; each download has the mode's extension and media type and equals the CLI's output."""
from __future__ import annotations

import json
import re
import shutil

import pytest

from e2e_support import REPO, StaticServer, cli_output, clear_queue, download_text, job, wait_job_state

pytestmark = pytest.mark.e2e

SAMPLE = REPO / "tests" / "data" / "sample.pdf"

# records the media type of every blob the page turns into a download URL
RECORD_BLOBS = """() => {
    window.__blobTypes = [];
    if (window.__blobsRecorded) return;   // wrapped once per page
    window.__blobsRecorded = true;
    const original = URL.createObjectURL;
    URL.createObjectURL = (blob) => { window.__blobTypes.push(blob.type); return original(blob); };
}"""


def _engine_modes(site_dir) -> list[str]:
    source = (site_dir / "static" / "engine.mjs").read_text(encoding="utf-8")
    return json.loads(re.search(r"export const MODES = Object\.freeze\((\[.*?\])\);", source).group(1))


def _choose_mode(page, mode: str) -> None:
    page.locator("#options summary").click()
    page.locator(f"#mode-{mode}").check()
    page.locator("#options summary").click()


def test_the_form_offers_every_mode_of_the_engine(app_page, site_dir):
    modes = _engine_modes(site_dir)
    assert "json" in modes
    offered = app_page.locator('input[name="mode"]').evaluate_all("(radios) => radios.map((radio) => radio.value)")
    assert offered == modes
    for mode in modes:
        assert app_page.locator(f'label[for="mode-{mode}"]').text_content().strip()  # each one named


def test_a_mode_added_to_the_engine_appears_without_a_ui_change(browser, site_dir, tmp_path_factory):
    """A site whose engine has one more mode (as a Markdown renderer will add): the form offers it,
    named by its mode and extension, before any words were written for it."""
    root = tmp_path_factory.mktemp("new-mode") / "site"
    shutil.copytree(site_dir, root)
    engine = root / "static" / "engine.mjs"
    source = engine.read_text(encoding="utf-8")
    source = re.sub(r'(export const MODES = Object\.freeze\(\[.*?)\]', r'\1, "poetry"]', source)
    source = re.sub(r'(export const EXTENSIONS = Object\.freeze\(\{.*?)\}', r'\1, "poetry": ".poem"}', source)
    engine.write_text(source, encoding="utf-8")
    server = StaticServer(root)
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(server.url)
        page.locator("#options summary").click()
        assert page.locator('label[for="mode-poetry"]').inner_text() == "Poetry (.poem)"
    finally:
        context.close()
        server.stop()


def test_json_downloads_as_json_equal_to_the_cli(app_page):
    clear_queue(app_page)
    app_page.evaluate(RECORD_BLOBS)
    _choose_mode(app_page, "json")
    try:
        app_page.locator("#file").set_input_files(str(SAMPLE))
        assert wait_job_state(app_page, 0, ("done",)) == "done"
        card = job(app_page, 0)
        assert card.locator("button.download").inner_text() == "Download sample.json"
        name, data = download_text(app_page, 0)
        # the preview shows each page's object indented, to be read
        first_page = json.loads(card.locator(".preview section.page").first.locator(".block").inner_text())
    finally:
        _choose_mode(app_page, "reflow")
    assert name == "sample.json"
    assert data == cli_output(SAMPLE, "--mode", "json")
    assert app_page.evaluate("() => window.__blobTypes") == ["application/json"]
    assert first_page["number"] == 1 and first_page["blocks"]


def test_the_api_returns_the_parsed_json(app_page):
    pages = app_page.evaluate("""async () => {
        const bytes = await (await fetch('samples/sample.pdf')).arrayBuffer();
        const result = await window.glyphline.extractText(bytes, { mode: 'json' });
        return result.json.pages.map((page) => [page.number, page.blocks.length > 0]);
    }""")
    assert pages == [[1, True], [2, True]]


def test_layout_downloads_as_text_equal_to_the_cli(app_page):
    clear_queue(app_page)
    app_page.evaluate(RECORD_BLOBS)
    _choose_mode(app_page, "layout")
    try:
        app_page.locator("#file").set_input_files(str(SAMPLE))
        assert wait_job_state(app_page, 0, ("done",)) == "done"
        name, data = download_text(app_page, 0)
    finally:
        _choose_mode(app_page, "reflow")
    assert name == "sample.txt"
    assert data == cli_output(SAMPLE, "--mode", "layout")
    assert app_page.evaluate("() => window.__blobTypes") == ["text/plain;charset=utf-8"]
