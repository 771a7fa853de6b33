"""Installable: a valid manifest with icons the build drew (Chromium reports no installability
error once the service worker controls the page), and the update flow: a rebuilt site is
announced ("A new version … is ready") and only taken on "Reload", never under a running page."""
from __future__ import annotations

import json
import re
import shutil
import struct

import pytest

from e2e_support import REPO, StaticServer, open_app, rewrite_site_file, wait_job_state

pytestmark = pytest.mark.e2e

SAMPLE = REPO / "tests" / "data" / "sample.pdf"
CONTROLLED = "() => navigator.serviceWorker.ready.then(() => Boolean(navigator.serviceWorker.controller))"


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_the_manifest_and_its_icons(site_dir):
    manifest = json.loads((site_dir / "manifest.webmanifest").read_text(encoding="utf-8"))
    assert manifest["display"] == "standalone" and manifest["start_url"] == "./"
    assert manifest["name"] and manifest["short_name"] and manifest["theme_color"] and manifest["background_color"]
    sizes = {}
    for icon in manifest["icons"]:
        if icon["type"] == "image/png":
            width, height = _png_size((site_dir / icon["src"]).read_bytes())
            assert f"{width}x{height}" == icon["sizes"]
            sizes.setdefault(icon["purpose"], set()).add(width)
    assert sizes == {"any": {192, 512}, "maskable": {512}}
    assert manifest["file_handlers"] == [{"action": "./", "accept": {"application/pdf": [".pdf"]}}]


def test_chromium_finds_the_app_installable(app_page):
    assert app_page.evaluate(CONTROLLED) is True
    session = app_page.context.new_cdp_session(app_page)
    try:
        manifest = session.send("Page.getAppManifest")
        assert manifest["errors"] == []
        errors = [error["errorId"] for error in session.send("Page.getInstallabilityErrors")["installabilityErrors"]]
        # a Playwright context is off the record, where nothing installs; that is the only objection allowed
        assert [error for error in errors if error != "in-incognito"] == []
    finally:
        session.detach()
    # both colour schemes have their theme colour
    colours = app_page.locator('meta[name="theme-color"]').evaluate_all("(metas) => metas.map((m) => m.media)")
    assert colours == ["(prefers-color-scheme: light)", "(prefers-color-scheme: dark)"]


def test_the_icons_load_at_their_sizes(app_page):
    sizes = app_page.evaluate("""async () => {
        const manifest = await (await fetch('manifest.webmanifest')).json();
        return Promise.all(manifest.icons.filter((icon) => icon.type === 'image/png').map((icon) => new Promise((resolve) => {
            const image = new Image();
            image.onload = () => resolve(`${image.naturalWidth}x${image.naturalHeight}`);
            image.onerror = () => resolve('broken');
            image.src = icon.src;
        })));
    }""")
    assert sizes == ["192x192", "512x512", "512x512"]


@pytest.fixture()
def updatable_site(site_dir, tmp_path):
    root = tmp_path / "site"
    shutil.copytree(site_dir, root)
    server = StaticServer(root)
    yield root, server
    server.stop()


def _rebuild(root) -> str:
    """What a rebuild with a changed page does to the served site: new index.html, new sw.js version."""
    index = root / "index.html"
    rewrite_site_file(index, index.read_text(encoding="utf-8").replace("<main>", "<main data-build=\"2\">"))
    worker = root / "sw.js"
    source = worker.read_text(encoding="utf-8")
    old = re.search(r'const VERSION = "([^"]+)";', source).group(1)
    rewrite_site_file(worker, source.replace(f'"{old}"', f'"{old}-2"'))  # and drops the stale .br/.gz
    return f"{old}-2"


def test_a_new_version_is_announced_and_taken_on_reload(browser, updatable_site):
    root, server = updatable_site
    context = browser.new_context()
    try:
        page = open_app(context, server.url)
        assert page.evaluate(CONTROLLED) is True
        assert not page.locator("#update").is_visible()
        version = _rebuild(root)
        page.evaluate("() => navigator.serviceWorker.getRegistration().then((registration) => registration.update())")
        page.locator('html[data-update="ready"]').wait_for(state="attached", timeout=60_000)
        banner = page.locator("#update")
        assert banner.is_visible()
        assert banner.inner_text().startswith("A new version of Glyphline is ready.")
        # announced, not taken: the running page keeps its version and still converts
        assert page.locator("main").get_attribute("data-build") is None
        page.locator("#file").set_input_files(str(SAMPLE))
        assert wait_job_state(page, 0, ("done",)) == "done"
        with page.expect_navigation(timeout=60_000):
            page.get_by_role("button", name="Reload").click()
        page.locator("main[data-build='2']").wait_for(state="attached", timeout=60_000)
        assert version in page.evaluate("() => caches.keys()")
        assert not page.locator("#update").is_visible()
    finally:
        context.close()
