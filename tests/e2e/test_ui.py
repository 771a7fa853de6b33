"""Language, theme, phone viewport and accessibility of the page."""
from __future__ import annotations

import pytest

from e2e_support import job, open_app, wait_job_state

pytestmark = pytest.mark.e2e

UNLABELLED_CONTROLS = """() => {
    const root = document.querySelector('glyphline-converter').shadowRoot;
    const missing = [];
    for (const control of root.querySelectorAll('input, textarea, select, button')) {
        const labelled = control.getAttribute('aria-label') || control.getAttribute('aria-labelledby')
            || (control.id && root.querySelector(`label[for="${control.id}"]`))
            || (control.tagName === 'BUTTON' && control.textContent.trim());
        if (!labelled) missing.push(control.outerHTML.slice(0, 80));
    }
    return missing;
}"""


def test_german_browser_gets_german_texts(browser, server):
    context = browser.new_context(locale="de-DE")
    try:
        page = open_app(context, server.url)
        assert page.evaluate("() => document.documentElement.lang") == "de"
        assert page.locator("label[for=file]").inner_text() == "PDF-Dateien auswählen"
        assert page.locator("#loader-text").inner_text() == "Bereit. Ihre Dateien bleiben auf diesem Gerät."
        page.locator("#sample").click()
        assert wait_job_state(page, 0, ("done",)) == "done"
        assert job(page, 0).locator(".counts").inner_text().startswith("2 Seiten")
        assert job(page, 0).locator("button.download").inner_text() == "sample.txt herunterladen"
    finally:
        context.close()


def test_phone_viewport_in_dark_mode(browser, server):
    context = browser.new_context(viewport={"width": 360, "height": 740}, color_scheme="dark",
                                  is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.goto(server.url)
        page.locator("#loader").wait_for(state="attached")
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 360  # no sideways scrolling
        chooser = page.locator("label[for=file]").bounding_box()
        assert chooser["x"] >= 0 and chooser["x"] + chooser["width"] <= 360
        assert chooser["height"] >= 44  # a finger-sized target
        # read at rest: the panel's background-color transition (0.2 s) may still be running
        background = page.locator(".dropzone").evaluate(
            "async (node) => { await Promise.all(node.getAnimations().map((a) => a.finished.catch(() => {})));"
            " return getComputedStyle(node).backgroundColor; }")
        assert background == "rgb(31, 35, 42)"  # the dark panel colour
        # a phone has nothing to drag from: it is not told to "drop anywhere"
        assert page.locator("#drop-text").inner_text() == "Convert PDF files from this device:"
        assert page.locator(".dropzone").get_attribute("aria-labelledby") == "drop-text"
    finally:
        context.close()


def test_controls_are_labelled_and_progress_is_announced(app_page):
    assert app_page.evaluate(UNLABELLED_CONTROLS) == []
    live = app_page.locator("#live")
    assert live.get_attribute("aria-live") == "polite"
    assert app_page.locator("#loader").get_attribute("role") == "status"
    app_page.locator("#sample").click()
    state = wait_job_state(app_page, 0, ("done",))
    assert state == "done"
    assert live.inner_text() == "sample.pdf: done, 2 pages."
    assert app_page.evaluate(UNLABELLED_CONTROLS) == []  # the result's controls too


def test_keyboard_reaches_the_file_picker_first(app_page):
    app_page.locator("header h1").click()  # moves the sequential focus starting point above the app
    app_page.keyboard.press("Tab")
    focused = app_page.evaluate("""() => {
        const host = document.querySelector('glyphline-converter');
        const inner = host.shadowRoot.activeElement;
        return inner ? inner.id : null;
    }""")
    assert focused == "file"
    outline = app_page.locator("label[for=file]").evaluate("(node) => getComputedStyle(node).outlineStyle")
    assert outline == "solid"  # the visually hidden input's focus ring is drawn on its label


DRAG = """([type, withFile]) => {
    const transfer = new DataTransfer();
    if (withFile) transfer.items.add(new File(['%PDF-1.4'], 'dragged.pdf', { type: 'application/pdf' }));
    else transfer.setData('text/plain', 'just text');
    document.body.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true }));
}"""


def test_dragging_files_over_the_page_shows_a_drop_overlay(app_page):
    overlay = app_page.locator("#drop-overlay")
    assert app_page.locator("#drop-text").inner_text() == "Drop PDF files anywhere on this page, or"
    assert not overlay.is_visible()
    app_page.evaluate(DRAG, ["dragenter", False])  # dragged text is not a file: no overlay
    assert not overlay.is_visible()
    app_page.evaluate(DRAG, ["dragenter", True])
    assert overlay.is_visible()
    assert overlay.get_attribute("role") == "region"
    assert overlay.get_attribute("aria-label") == "Drop the PDF files to convert them"
    assert overlay.inner_text() == "Drop the PDF files to convert them"
    box, viewport = overlay.bounding_box(), app_page.viewport_size
    assert box["width"] >= viewport["width"] * 0.95 and box["height"] >= viewport["height"] * 0.95  # the whole page
    app_page.evaluate(DRAG, ["dragleave", True])
    assert not overlay.is_visible()
    # entering a child fires dragenter before the parent's dragleave: the overlay stays
    app_page.evaluate(DRAG, ["dragenter", True])
    app_page.evaluate(DRAG, ["dragenter", True])
    app_page.evaluate(DRAG, ["dragleave", True])
    assert overlay.is_visible()
    jobs_before = app_page.locator("li.job").count()
    app_page.evaluate(DRAG, ["drop", True])
    assert not overlay.is_visible()
    assert app_page.locator("li.job").count() == jobs_before + 1
    wait_job_state(app_page, jobs_before)


def test_the_page_range_hint_is_said_once(app_page):
    app_page.locator("#options summary").click()
    try:
        assert app_page.locator("#pages").get_attribute("placeholder") is None
        assert app_page.get_by_text("all, or e.g. 1-3,7").count() == 1
        assert app_page.locator("#pages").get_attribute("aria-describedby") == "pages-hint"
    finally:
        app_page.locator("#options summary").click()


def test_the_new_texts_have_english_and_german(app_page):
    missing = app_page.evaluate("""async () => {
        const { translator } = await import('./static/i18n.js');
        const en = translator('en'), de = translator('de'); // a German gap falls back to the English text
        const probe = ['pickHere', 'dropOverlay', 'pageLabel', 'loadingBytes', 'errors.font-data', 'reading'];
        return probe.filter((key) => en(key) === key || de(key) === key || en(key) === de(key));
    }""")
    assert missing == []
