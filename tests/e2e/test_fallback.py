"""When the memory snapshot cannot load (here: it is missing, so the service worker's precache
fails too), the worker boots Pyodide normally from the .pyc wheels, and cancelling then happens
between pages inside the worker (JSPI) instead of by restarting it."""
from __future__ import annotations

import shutil

import pytest

from e2e_support import (BOOT_TIMEOUT_MS, READY_SELECTOR, REPO, StaticServer, cli_output, download_text, job,
                         make_long_pdf, wait_job_state)

pytestmark = pytest.mark.e2e

SAMPLE = REPO / "tests" / "data" / "sample.pdf"


@pytest.fixture(scope="module")
def no_snapshot_server(site_dir, tmp_path_factory):
    root = tmp_path_factory.mktemp("no-snapshot") / "site"
    shutil.copytree(site_dir, root)
    snapshots = list((root / "snapshot").glob("*.snap.gz"))
    assert snapshots, "the build made no snapshot"
    for path in snapshots:
        path.unlink()
    server = StaticServer(root)
    yield server
    server.stop()


def test_boots_without_the_snapshot_and_cancels_between_pages(browser, no_snapshot_server, tmp_path):
    context = browser.new_context(accept_downloads=True)
    try:
        page = context.new_page()
        page.goto(no_snapshot_server.url)
        page.locator(READY_SELECTOR).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)
        timings = page.evaluate("() => window.glyphline.status.timings")
        assert timings["restored"] is False and "snapshotError" in timings
        assert timings["canPause"] is True

        page.locator("#sample").click()
        assert wait_job_state(page, 0, ("done",)) == "done"
        assert download_text(page, 0)[1] == cli_output(SAMPLE)

        page.evaluate("""() => {
            window.__states = [];
            window.glyphline.status.addEventListener('change', () => window.__states.push(window.glyphline.status.state));
        }""")
        page.locator("#file").set_input_files(str(make_long_pdf(tmp_path / "huge.pdf", 1500)))
        page.locator('li.job:nth-child(2)[data-state="running"]').wait_for(state="attached", timeout=60_000)
        job(page, 1).locator("button.cancel").click()
        assert wait_job_state(page, 1, ("cancelled",), timeout=15_000) == "cancelled"
        assert page.evaluate("() => window.__states") == []  # the same worker, not a restarted one
    finally:
        context.close()


@pytest.fixture(scope="module")
def node_snapshot_server(site_dir, tmp_path_factory):
    """The site as a build without Chromium makes it: the snapshot taken in Node (no JSPI)."""
    import json
    import re
    import subprocess

    root = tmp_path_factory.mktemp("node-snapshot") / "site"
    shutil.copytree(site_dir, root)
    for path in (root / "snapshot").glob("*.snap.gz"):
        path.unlink()
    build_module = root / "worker" / "build.mjs"
    wheels = json.loads(re.search(r"export const BUILD = (\{.*\});", build_module.read_text(), re.S).group(1))["wheels"]
    made = subprocess.run(["node", str(REPO / "tools" / "pyodide_build.mjs"), "--snapshot-only", str(root), *wheels],
                          check=True, capture_output=True, text=True, timeout=300)
    name = json.loads(made.stdout.strip().splitlines()[-1])["snapshot"]
    source = re.sub(r'"snapshot": "[^"]+"', f'"snapshot": "{name}"', build_module.read_text())
    build_module.write_text(source)
    server = StaticServer(root)
    yield server
    server.stop()


def test_a_worker_that_cannot_pause_is_restarted_on_cancel(browser, node_snapshot_server, tmp_path):
    context = browser.new_context(accept_downloads=True)
    try:
        page = context.new_page()
        page.goto(node_snapshot_server.url)
        page.locator(READY_SELECTOR).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)
        timings = page.evaluate("() => window.glyphline.status.timings")
        assert timings["restored"] is True and timings["canPause"] is False, timings
        page.evaluate("""() => {
            window.__states = [];
            window.glyphline.status.addEventListener('change', () => window.__states.push(window.glyphline.status.state));
        }""")
        page.locator("#file").set_input_files(str(make_long_pdf(tmp_path / "huge.pdf", 1500)))
        page.locator('li.job:nth-child(1)[data-state="running"]').wait_for(state="attached", timeout=60_000)
        job(page, 0).locator("button.cancel").click()
        assert wait_job_state(page, 0, ("cancelled",), timeout=15_000) == "cancelled"
        page.locator("#sample").click()  # the restarted worker takes the next file
        assert wait_job_state(page, 1, ("done",)) == "done"
        assert download_text(page, 1)[1] == cli_output(SAMPLE)
        states = page.evaluate("() => window.__states")
        assert states[:2] == ["idle", "loading"] and states[-1] == "ready", states
    finally:
        context.close()
