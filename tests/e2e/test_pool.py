"""The worker pool (worker/pool.mjs): a long document's pages shared with helper workers give the
one-worker text and the CLI's, byte for byte, in every mode; progress, cancel and a helper that
dies along the way."""
from __future__ import annotations

import base64
from pathlib import Path

import pytest

from e2e_support import CONVERT_TIMEOUT_MS, cli_output, open_app, wait_local_snapshot

pytestmark = pytest.mark.e2e

HELPER_NAME = "glyphline-helper"
WARM_UP_TRIES = 10
CONVERT = """async ([b64, options]) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const seen = [];
    const r = await window.glyphline.extractText(bytes, { ...options, onProgress: (p) => seen.push(p.page) });
    return { text: r.text, pool: r.pool || null, seen, pages: r.pages.length };
}"""


@pytest.fixture(scope="module")
def pool_page(browser, server):
    """The app on a second visit: restored from the snapshot the first took, so helpers can start."""
    context = browser.new_context()
    first = open_app(context, server.url)
    assert wait_local_snapshot(first)["stored"] is True
    first.close()
    page = open_app(context, server.url)
    page.helpers = []
    page.on("worker", lambda worker: page.helpers.append(worker))   # nested workers too: the helpers
    yield page
    context.close()


@pytest.fixture(scope="module")
def warm_pool(pool_page, long_pdf):
    """The helpers start with the first long document and may still be starting when a short one
    is done: converted again until a helper took part."""
    for _ in range(WARM_UP_TRIES):
        report = pool_page.evaluate(CONVERT, [b64(long_pdf), {"workers": 2}])["pool"]
        if report and report["helperPages"] > 0:
            return pool_page
    pytest.fail(f"no helper took part in {WARM_UP_TRIES} conversions: {report}")


@pytest.fixture(scope="module")
def long_pdf(tmp_path_factory) -> Path:
    from test_parallel import long_document   # pages that need every document-wide pass

    path = tmp_path_factory.mktemp("pool") / "long.pdf"
    path.write_bytes(long_document())
    return path


def b64(path: Path) -> str:
    return base64.b64encode(path.read_bytes()).decode()


def corpus_long(corpus_dir: Path) -> Path:
    found = sorted((corpus_dir / "generated" / "pdflatex-long-120p").glob("*.pdf"))
    if not found:
        pytest.skip("pdflatex-long-120p is not in the corpus")
    return found[0]


@pytest.mark.parametrize("mode", ["reflow", "preserve", "layout", "json", "markdown"])
def test_two_workers_give_one_worker_s_text_and_the_cli_s(warm_pool, long_pdf, mode):
    data = b64(long_pdf)
    pooled = warm_pool.evaluate(CONVERT, [data, {"mode": mode, "workers": 2}])
    alone = warm_pool.evaluate(CONVERT, [data, {"mode": mode, "workers": 1}])
    assert pooled["pool"] and pooled["pool"]["workers"] == 2 and pooled["pool"]["helperPages"] > 0, pooled["pool"]
    assert alone["pool"] is None
    assert pooled["text"] == alone["text"]
    assert pooled["text"].encode("utf-8") == cli_output(long_pdf, "--mode", mode)


def test_the_pool_is_used_by_default_on_several_cores(pool_page, long_pdf):
    cores = pool_page.evaluate("() => navigator.hardwareConcurrency")
    if cores < 2:
        pytest.skip("one core: the pool's default size is one worker")
    result = pool_page.evaluate(CONVERT, [b64(long_pdf), {}])
    assert result["pool"] and result["pool"]["workers"] >= 2, result["pool"]


def test_progress_counts_every_page_once_in_order(pool_page, long_pdf):
    result = pool_page.evaluate(CONVERT, [b64(long_pdf), {"workers": 2}])
    assert result["seen"] == list(range(1, result["pages"] + 1))


def test_cancel_stops_a_pooled_conversion_and_the_pool_serves_the_next(pool_page, long_pdf, corpus_dir):
    outcome = pool_page.evaluate(
        """async ([b64, cutoff]) => {
            const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
            const controller = new AbortController();
            const started = performance.now();
            try {
                await window.glyphline.extractText(bytes, { workers: 2, signal: controller.signal,
                    onProgress: (p) => { if (p.page >= cutoff) controller.abort(); } });
                return { name: "finished" };
            } catch (error) {
                return { name: error.name, ms: performance.now() - started };
            }
        }""", [b64(corpus_long(corpus_dir)), 10])
    assert outcome["name"] == "AbortError", outcome
    after = pool_page.evaluate(CONVERT, [b64(long_pdf), {"workers": 2}])
    assert after["text"].encode("utf-8") == cli_output(long_pdf)


def test_a_helper_that_dies_is_replaced_and_its_pages_redone(pool_page, corpus_dir):
    pdf = corpus_long(corpus_dir)
    pool_page.evaluate(
        """(b64) => {
            const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
            window.poolTest = { progress: 0, result: null, error: null };
            window.glyphline.extractText(bytes, { workers: 2, onProgress: (p) => { window.poolTest.progress = p.page; } })
                .then((r) => { window.poolTest.result = { text: r.text, pool: r.pool }; },
                      (e) => { window.poolTest.error = String(e); });
        }""", b64(pdf))
    killed = False
    for _ in range(CONVERT_TIMEOUT_MS // 100):
        state = pool_page.evaluate("() => window.poolTest")
        if state["result"] or state["error"]:
            break
        if not killed and state["progress"] >= 3:
            for worker in list(pool_page.helpers):
                try:
                    if worker.evaluate("() => self.name") == HELPER_NAME:
                        # an uncaught error: what the worker sees of an engine that failed
                        worker.evaluate("() => { setTimeout(() => { throw new Error('killed by the test'); }); }")
                        killed = True
                        break
                except Exception:   # a helper that was replaced before
                    continue
        pool_page.wait_for_timeout(100)
    assert killed, "no helper worker to kill"
    state = pool_page.evaluate("() => window.poolTest")
    assert state["error"] is None and state["result"], state
    assert state["result"]["pool"]["replaced"] >= 1, state["result"]["pool"]
    assert state["result"]["text"].encode("utf-8") == cli_output(pdf)
