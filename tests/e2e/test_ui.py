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
        background = page.locator(".dropzone").evaluate("(node) => getComputedStyle(node).backgroundColor")
        assert background == "rgb(31, 35, 42)"  # the dark panel colour
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
