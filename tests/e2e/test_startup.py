"""The first visit on a slow line: the bar counts the real bytes of the real files, each file is
downloaded once, a file picked during start-up waits with "Starting…", and nothing on the page
jumps when the start-up bar goes away."""
from __future__ import annotations

import json
import re
import time
from collections import Counter

import pytest

from e2e_support import BOOT_TIMEOUT_MS, READY_SELECTOR, REPO, StaticServer, cli_output, download_text, job, wait_job_state

pytestmark = pytest.mark.e2e

SAMPLE = REPO / "tests" / "data" / "sample.pdf"
SLOW = {"/pyodide/": 0.08, "/wheels/": 0.08}  # ≈0.8 MB/s a connection (the boot files come in side by side): seconds of start-up, many 100 ms progress ticks even on a fast machine
OFFLINE_COMPLETE = 'html[data-offline="complete"]'

RECORD_STATUS = """() => {
    window.__loading = [];
    const status = window.glyphline.status;
    const bar = document.querySelector('glyphline-converter').shadowRoot.getElementById('loader-progress');
    const text = document.querySelector('glyphline-converter').shadowRoot.getElementById('loader-text');
    const record = () => window.__loading.push({ state: status.state, done: status.done, total: status.total,
                                                  bar: bar.hasAttribute('value') ? bar.value : null, text: text.textContent });
    status.addEventListener('change', record);
    record();
}"""

# layout-shift entries (Chromium's Layout Instability API) from the start, with their times
RECORD_SHIFTS = """
    window.__shifts = [];
    new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) window.__shifts.push({ value: entry.value, start: entry.startTime,
            sources: (entry.sources || []).map((s) => s.node ? (s.node.id || s.node.className || s.node.nodeName) : '') });
    }).observe({ type: 'layout-shift', buffered: true });
"""


def build_info(site_dir) -> dict:
    source = (site_dir / "worker" / "build.mjs").read_text(encoding="utf-8")
    return json.loads(re.search(r"export const BUILD = (\{.*?\});\n", source, re.S).group(1))


def wait_for_glyphline(page) -> None:
    deadline = time.monotonic() + 30
    while not page.evaluate("() => Boolean(window.glyphline && document.querySelector('glyphline-converter').shadowRoot)"):
        assert time.monotonic() < deadline, "the page never exposed window.glyphline"
        time.sleep(0.02)


@pytest.fixture()
def slow_server(site_dir):
    server = StaticServer(site_dir, slow=SLOW)
    yield server
    server.stop()


def test_first_visit_counts_real_bytes_and_downloads_each_file_once(browser, slow_server, site_dir):
    info = build_info(site_dir)
    boot = list(info["files"])  # no shipped snapshot: the runtime, the wheels and app.py
    assert info["snapshot"] is None and any(p.startswith("wheels/") for p in boot)
    expected_total = sum((site_dir / path).stat().st_size for path in boot)
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(slow_server.url)
        wait_for_glyphline(page)
        page.evaluate(RECORD_STATUS)
        page.locator(READY_SELECTOR).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)
        page.locator(OFFLINE_COMPLETE).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)
        seen = page.evaluate("() => window.__loading")
        timings = page.evaluate("() => window.glyphline.status.timings")
    finally:
        context.close()

    assert timings["restored"] is False, timings
    assert sorted(timings["bootFiles"]) == sorted(boot)
    assert timings["bootBytes"] == timings["bootTotal"] == expected_total  # counted = real, to the byte
    loading = [entry for entry in seen if entry["state"] == "loading" and entry["total"]]
    assert {entry["total"] for entry in loading} == {expected_total}  # one honest total, known up front
    done = [entry["done"] for entry in loading]
    assert done == sorted(done), "the byte count went backwards"
    assert done[-1] == expected_total
    between = {value for value in done if 0 < value < expected_total}
    assert len(between) >= 10, done  # it moved with the bytes, not in a few jumps
    for entry in loading:
        assert entry["bar"] == pytest.approx(entry["done"] / entry["total"], abs=1e-6)
    one_decimal = f"{expected_total / 1e6:.1f}"   # the page formats with at most one decimal: 23.0 is "23"
    megabytes = {f"{one_decimal} MB", f"{one_decimal.removesuffix('.0')} MB"}
    assert any(entry["text"].startswith("Loading the converter: ") and any(f"of {m}" in entry["text"] for m in megabytes)
               for entry in loading), (megabytes, loading[-1]["text"])
    assert not any("≈" in entry["text"] for entry in seen)

    # one download per file: the worker's fetches went through the service worker into its
    # cache, and the background "cache everything" found them there
    counts = Counter(path for method, path in slow_server.requests)
    for path in info["files"]:
        assert counts[f"/{path}"] == 1, (path, counts[f"/{path}"])
    cmaps = sorted(p for p in counts if p.startswith("/cmaps/"))
    assert len(cmaps) == len(list((site_dir / "cmaps").glob("*.bcmap"))) + 1  # every CMap and its LICENSE
    assert all(counts[p] == 1 for p in cmaps)


def test_a_file_picked_during_start_up_waits_with_starting(browser, slow_server):
    context = browser.new_context(accept_downloads=True, reduced_motion="reduce")
    try:
        page = context.new_page()
        page.goto(slow_server.url)
        page.locator('#loader[data-state="loading"], #loader[data-state="idle"]').first.wait_for(state="attached")
        page.locator("#file").set_input_files(str(SAMPLE))
        card = job(page, 0)
        assert card.get_attribute("data-state") == "waiting"
        assert card.locator(".status").inner_text() == "Starting…"
        # reduced motion: a waiting bar stands still at 0 instead of the endless indeterminate sweep
        assert card.locator("progress").evaluate("(bar) => bar.hasAttribute('value') ? bar.position : null") == 0
        assert page.locator("#loader").get_attribute("data-state") != "ready"
        assert wait_job_state(page, 0, ("done",), timeout=BOOT_TIMEOUT_MS) == "done"
        assert download_text(page, 0)[1] == cli_output(SAMPLE)
        page.locator(OFFLINE_COMPLETE).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)
    finally:
        context.close()
    counts = Counter(path for method, path in slow_server.requests)
    twice = {path: n for path, n in counts.items() if n > 1 and path.startswith(("/pyodide/", "/snapshot/", "/wheels/"))}
    assert twice == {}, "runtime or snapshot downloaded twice"


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 800}, {"width": 360, "height": 740}],
                         ids=["desktop", "phone"])
def test_nothing_moves_when_the_start_up_bar_goes(browser, slow_server, viewport):
    context = browser.new_context(viewport=viewport)
    try:
        page = context.new_page()
        page.add_init_script(RECORD_SHIFTS)
        page.goto(slow_server.url)
        page.locator('#loader[data-state="loading"]').wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)
        loading_since = page.evaluate("() => performance.now()")
        drop_zone_before = page.locator(".dropzone").bounding_box()
        page.locator(READY_SELECTOR).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)
        page.wait_for_timeout(500)  # a shift is reported after the frame that shows it
        shifts = page.evaluate("() => window.__shifts")
        drop_zone_after = page.locator(".dropzone").bounding_box()
        text = page.locator("#loader-text").inner_text()
    finally:
        context.close()
    assert text == "Ready. Your files stay on this device."
    late = [s for s in shifts if s["start"] >= loading_since]
    assert sum(s["value"] for s in late) == 0, late
    assert drop_zone_after["y"] == drop_zone_before["y"]
