"""When a shipped memory snapshot cannot load (here: it is missing from the server), the worker
boots Pyodide normally from the .pyc wheels, and cancelling then happens between pages inside
the worker (JSPI) instead of by restarting it."""
from __future__ import annotations

import shutil

import pytest

from e2e_support import (REPO, StaticServer, cli_output, download_text, is_precompressed_sibling, job, make_long_pdf,
                         open_app, rewrite_site_file, wait_job_state)

pytestmark = pytest.mark.e2e

SAMPLE = REPO / "tests" / "data" / "sample.pdf"


def _site_with_snapshot(site_dir, tmp_path_factory, name: str, snapshot: str):
    """A copy of the built site whose build module names `snapshot` as the shipped memory snapshot."""
    import re

    root = tmp_path_factory.mktemp(name) / "site"
    shutil.copytree(site_dir, root)
    build_module = root / "worker" / "build.mjs"
    source, count = re.subn(r'"snapshot": (null|"[^"]*")', f'"snapshot": "{snapshot}"', build_module.read_text())
    assert count == 1
    rewrite_site_file(build_module, source)
    return root


def _record_worker_states(page) -> None:
    """Collect every state the worker status goes through from now on in window.__states."""
    page.evaluate("""() => {
        window.__states = [];
        window.glyphline.status.addEventListener('change', () => window.__states.push(window.glyphline.status.state));
    }""")


def _cancel_a_long_job(page, index: int, tmp_path) -> None:
    """Queue a 1500-page PDF as job `index`, cancel it once it runs, and wait for the cancel."""
    page.locator("#file").set_input_files(str(make_long_pdf(tmp_path / "huge.pdf", 1500)))
    page.locator(f'li.job:nth-child({index + 1})[data-state="running"]').wait_for(state="attached", timeout=60_000)
    job(page, index).locator("button.cancel").click()
    assert wait_job_state(page, index, ("cancelled",), timeout=15_000) == "cancelled"


@pytest.fixture(scope="module")
def no_snapshot_server(site_dir, tmp_path_factory):
    root = _site_with_snapshot(site_dir, tmp_path_factory, "no-snapshot", "engine-missing.snap.gz")
    server = StaticServer(root)
    yield server
    server.stop()


def test_boots_without_the_snapshot_and_cancels_between_pages(browser, no_snapshot_server, tmp_path):
    context = browser.new_context(accept_downloads=True)
    try:
        page = open_app(context, no_snapshot_server.url)
        timings = page.evaluate("() => window.glyphline.status.timings")
        assert timings["restored"] is False and "snapshotError" in timings
        assert timings["canPause"] is True
        # the bar's total followed the change of plan: the normal boot's files, counted to the byte
        root = no_snapshot_server.root
        expected = sorted(p.relative_to(root).as_posix() for p in [*(root / "pyodide").iterdir(), *(root / "wheels").glob("*.whl"), root / "app.py"]
                          if p.name != "pyodide.mjs" and not is_precompressed_sibling(p))
        assert sorted(timings["bootFiles"]) == expected
        assert timings["bootBytes"] == timings["bootTotal"] == sum((root / p).stat().st_size for p in expected)

        page.locator("#sample").click()
        assert wait_job_state(page, 0, ("done",)) == "done"
        assert download_text(page, 0)[1] == cli_output(SAMPLE)

        _record_worker_states(page)
        _cancel_a_long_job(page, 1, tmp_path)
        assert page.evaluate("() => window.__states") == []  # the same worker, not a restarted one
    finally:
        context.close()


@pytest.fixture(scope="module")
def node_snapshot_server(site_dir, tmp_path_factory):
    """The site as a build without Chromium makes it: the snapshot taken in Node (no JSPI)."""
    import json
    import re
    import subprocess

    build_module = site_dir / "worker" / "build.mjs"
    wheels = json.loads(re.search(r"export const BUILD = (\{.*?\});\n", build_module.read_text(), re.S).group(1))["wheels"]
    staging = tmp_path_factory.mktemp("node-snapshot-staging") / "site"
    shutil.copytree(site_dir, staging)
    made = subprocess.run(["node", str(REPO / "tools" / "pyodide_build.mjs"), "--snapshot-only", str(staging), *wheels],
                          check=True, capture_output=True, text=True, timeout=300)
    name = json.loads(made.stdout.strip().splitlines()[-1])["snapshot"]
    root = _site_with_snapshot(staging, tmp_path_factory, "node-snapshot", name)
    server = StaticServer(root)
    yield server
    server.stop()


def test_a_worker_that_cannot_pause_is_restarted_on_cancel(browser, node_snapshot_server, tmp_path):
    context = browser.new_context(accept_downloads=True)
    try:
        page = open_app(context, node_snapshot_server.url)
        timings = page.evaluate("() => window.glyphline.status.timings")
        assert timings["restored"] is True and timings["canPause"] is False, timings
        _record_worker_states(page)
        _cancel_a_long_job(page, 0, tmp_path)
        page.locator("#sample").click()  # the restarted worker takes the next file
        assert wait_job_state(page, 1, ("done",)) == "done"
        assert download_text(page, 1)[1] == cli_output(SAMPLE)
        states = page.evaluate("() => window.__states")
        assert states[:2] == ["idle", "loading"] and states[-1] == "ready", states
    finally:
        context.close()
