"""dist/ copied under a subpath of another site: the app works there, and another page of that
site embeds it with the module (`extractText`) and the custom element."""
from __future__ import annotations

import shutil

import pytest

from e2e_support import REPO, StaticServer, cli_output, download_text, open_app, wait_job_state

pytestmark = pytest.mark.e2e

SAMPLE = REPO / "tests" / "data" / "sample.pdf"
EMBEDDING_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A blog post</title>
<script type="module">
  import { extractText, status } from "../tools/pdf/static/glyphline.js";
  import "../tools/pdf/static/converter.js";
  window.blog = { extractText, status };
</script></head>
<body><h1>Convert a PDF without leaving this post</h1>
<glyphline-converter preload sample="../tools/pdf/samples/sample.pdf"></glyphline-converter>
</body></html>
"""


@pytest.fixture(scope="module")
def host(site_dir, tmp_path_factory):
    root = tmp_path_factory.mktemp("host")
    shutil.copytree(site_dir, root / "tools" / "pdf")
    (root / "blog").mkdir()
    (root / "blog" / "post.html").write_text(EMBEDDING_PAGE, encoding="utf-8")
    server = StaticServer(root)
    yield server
    server.stop()


def test_the_app_works_under_a_subpath(browser, host):
    context = browser.new_context(accept_downloads=True)
    try:
        page = open_app(context, host.url + "tools/pdf/")
        scope = page.evaluate("() => navigator.serviceWorker.getRegistration().then((r) => r && r.scope)")
        assert scope == host.url + "tools/pdf/"
        page.locator("#sample").click()
        assert wait_job_state(page, 0, ("done",)) == "done"
        assert download_text(page, 0)[1] == cli_output(SAMPLE)
        outside = [path for method, path in host.requests if not path.startswith("/tools/pdf/")]
        assert outside == []
    finally:
        context.close()


def test_another_page_embeds_the_module_and_the_element(browser, host):
    context = browser.new_context(accept_downloads=True)
    try:
        page = open_app(context, host.url + "blog/post.html")  # `preload` started the worker
        text = page.evaluate("""async () => {
            const blob = await (await fetch('../tools/pdf/samples/sample.pdf')).blob();
            return (await window.blog.extractText(blob)).text;
        }""")
        assert text.encode("utf-8") == cli_output(SAMPLE)
        page.locator("#sample").click()
        assert wait_job_state(page, 0, ("done",)) == "done"
        assert download_text(page, 0)[1] == cli_output(SAMPLE)

        # without page-drop, files dragged over the element get an overlay over the element only
        drag = """([type, selector]) => {
            const root = document.querySelector('glyphline-converter').shadowRoot;
            const transfer = new DataTransfer();
            transfer.items.add(new File(['%PDF-1.4'], 'dragged.pdf', { type: 'application/pdf' }));
            root.querySelector(selector).dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true, composed: true, cancelable: true }));
        }"""
        overlay = page.locator("#drop-overlay")
        page.evaluate(drag, ["dragenter", ".dropzone"])
        assert overlay.is_visible()
        element_box, overlay_box = page.locator("glyphline-converter").bounding_box(), overlay.bounding_box()
        assert overlay_box == pytest.approx(element_box, abs=1)
        page.evaluate(drag, ["dragenter", "#drop-overlay p"])  # the pointer moves onto the overlay
        page.evaluate(drag, ["dragleave", ".dropzone"])
        assert overlay.is_visible()
        page.evaluate(drag, ["drop", "#drop-overlay p"])
        assert not overlay.is_visible()
        assert page.locator("li.job").count() == 2
        page.evaluate("""() => {
            const transfer = new DataTransfer();
            transfer.items.add(new File(['%PDF-1.4'], 'elsewhere.pdf', { type: 'application/pdf' }));
            document.body.dispatchEvent(new DragEvent('dragenter', { dataTransfer: transfer, bubbles: true }));
        }""")
        assert not overlay.is_visible()  # the rest of the page is not a drop target here
    finally:
        context.close()
