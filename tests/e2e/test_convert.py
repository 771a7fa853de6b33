"""Pick or drop PDFs in the page: each download equals the CLI's output byte for byte."""
from __future__ import annotations

import base64
from pathlib import Path

import pytest

from e2e_support import (CONVERT_TIMEOUT_MS, REPO, cli_output, clear_queue, download_text, job, open_app,
                         wait_job_state, wait_local_snapshot)

pytestmark = pytest.mark.e2e

SAMPLE = REPO / "tests" / "data" / "sample.pdf"
# corpus files by feature: two columns, AES-256 with an empty user password, CJK
CORPUS_FILES = ("generated/chromium-2col", "generated/lo-fodt-aes256", "generated/chromium-ja")


def drop_file(page, path: Path) -> None:
    """What a person dragging a file onto the page does: a drop event with a DataTransfer."""
    page.evaluate(
        """([name, b64]) => {
            const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
            const transfer = new DataTransfer();
            transfer.items.add(new File([bytes], name, { type: "application/pdf" }));
            document.body.dispatchEvent(new DragEvent("dragover", { dataTransfer: transfer, bubbles: true, cancelable: true }));
            document.body.dispatchEvent(new DragEvent("drop", { dataTransfer: transfer, bubbles: true, cancelable: true }));
        }""",
        [path.name, base64.b64encode(path.read_bytes()).decode()],
    )


def corpus_pdf(corpus_dir: Path, name: str) -> Path:
    folder = corpus_dir / name
    found = sorted(folder.glob("*.pdf"))
    if not found:
        pytest.skip(f"{name} has no PDF in the corpus")
    return found[0]


def test_pick_sample_downloads_the_cli_text(app_page):
    clear_queue(app_page)
    app_page.locator("#file").set_input_files(str(SAMPLE))
    assert wait_job_state(app_page, 0, ("done",)) == "done"
    name, data = download_text(app_page, 0)
    assert name == "sample.txt"
    assert data == cli_output(SAMPLE)
    counts = job(app_page, 0).locator(".counts").inner_text()
    assert counts.startswith("2 pages")  # the sample has two pages


def test_drop_on_the_page_converts(app_page, corpus_dir):
    clear_queue(app_page)
    pdf = corpus_pdf(corpus_dir, CORPUS_FILES[0])
    drop_file(app_page, pdf)
    assert wait_job_state(app_page, 0, ("done",)) == "done"
    name, data = download_text(app_page, 0)
    assert name == pdf.stem + ".txt"
    assert data == cli_output(pdf)


def test_several_files_queue_and_each_matches_the_cli(app_page, corpus_dir):
    clear_queue(app_page)
    pdfs = [corpus_pdf(corpus_dir, name) for name in CORPUS_FILES]
    app_page.locator("#file").set_input_files([str(p) for p in pdfs])
    for index, pdf in enumerate(pdfs):
        assert wait_job_state(app_page, index, ("done",)) == "done", pdf
        name, data = download_text(app_page, index)
        assert name == pdf.stem + ".txt"
        assert data == cli_output(pdf), pdf


def test_options_reach_the_engine_and_are_remembered(app_page):
    clear_queue(app_page)
    app_page.locator("#options summary").click()
    app_page.locator("#mode-preserve").check()
    app_page.locator("#markers").check()
    app_page.locator("#bom").check()
    app_page.locator("#pages").fill("2")
    app_page.locator("#pages").dispatch_event("change")
    try:
        app_page.locator("#file").set_input_files(str(SAMPLE))
        assert wait_job_state(app_page, 0, ("done",)) == "done"
        _, data = download_text(app_page, 0)
        assert data == cli_output(SAMPLE, "--mode", "preserve", "--markers", "--bom", "--pages", "2")
        assert data.startswith(b"\xef\xbb\xbf--- Page 2 ---")
        saved = app_page.evaluate("() => JSON.parse(localStorage.getItem('glyphline.options'))")
        assert saved == {"mode": "preserve", "markers": True, "dehyphenate": True, "annotations": True, "bom": True,
                         "pages": "2"}
        app_page.reload()
        app_page.locator("#loader[data-state=ready]").wait_for(state="attached", timeout=CONVERT_TIMEOUT_MS)
        assert app_page.locator("#mode-preserve").is_checked()
        assert app_page.locator("#pages").input_value() == "2"
    finally:
        app_page.evaluate("() => localStorage.removeItem('glyphline.options')")
        app_page.reload()
        app_page.locator("#loader[data-state=ready]").wait_for(state="attached", timeout=CONVERT_TIMEOUT_MS)


def test_markdown_mode_downloads_a_md_file_equal_to_the_cli(app_page, corpus_dir):
    clear_queue(app_page)
    pdf = corpus_pdf(corpus_dir, "generated/chromium-table-list")
    app_page.locator("#options summary").click()
    app_page.locator("#mode-markdown").check()
    try:
        app_page.locator("#file").set_input_files(str(pdf))
        assert wait_job_state(app_page, 0, ("done",)) == "done"
        assert job(app_page, 0).locator("button.download").inner_text().endswith(pdf.stem + ".md")
        name, data = download_text(app_page, 0)
        assert name == pdf.stem + ".md"
        assert data == cli_output(pdf, "--mode", "markdown")
        # the tagged file names its first heading H2: the level comes from the tags (issue 15)
        assert data.startswith(b"<!-- page 1 -->\n\n## ") and b"\n| --- |" in data
    finally:
        app_page.evaluate("() => localStorage.removeItem('glyphline.options')")
        app_page.reload()
        app_page.locator("#loader[data-state=ready]").wait_for(state="attached", timeout=CONVERT_TIMEOUT_MS)


def test_extract_text_is_exposed_for_scripts(app_page):
    result = app_page.evaluate(
        """async () => {
            const bytes = await (await fetch("samples/sample.pdf")).arrayBuffer();
            const seen = [];
            const r = await window.glyphline.extractText(new Uint8Array(bytes), { onProgress: (p) => seen.push(p) });
            return { text: r.text, pageCount: r.pageCount, seen, intact: bytes.byteLength };
        }"""
    )
    assert result["text"].encode("utf-8") == cli_output(SAMPLE)
    assert result["pageCount"] == 2
    assert result["seen"] == [{"page": 1, "pages": 2}, {"page": 2, "pages": 2}]
    assert result["intact"] == SAMPLE.stat().st_size  # the caller's buffer is not detached


def test_the_first_start_takes_a_memory_snapshot_and_the_next_restores_it(browser, server):
    context = browser.new_context()  # a first visit of its own (app_page's worker may have restarted)
    try:
        first = open_app(context, server.url)
        timings = first.evaluate("() => window.glyphline.status.timings")
        # the build ships none: it is taken once the converter is ready, off the start's critical path
        assert timings["restored"] is False and timings["snapshot"] == "after-ready", timings
        snapshot = wait_local_snapshot(first)
        assert snapshot["stored"] is True and snapshot["bytes"] > 10_000_000, snapshot  # the whole wasm heap
        timings = first.evaluate("() => window.glyphline.status.timings")
        assert timings["snapshot"] == "taken" and timings["poolSize"] >= 1, timings
        assert timings["stages"]["ready"] <= timings["stages"]["engine imported"], timings  # imported after "ready"
        again = open_app(context, server.url)  # the next visit
        timings = again.evaluate("() => window.glyphline.status.timings")
        assert timings["restored"] is True and timings["snapshot"] == "local", timings
        assert timings["canPause"] is True, timings  # taken in this browser, so stack switching survived
        # start.mjs found the snapshot and began its read before worker.mjs and its imports had
        # arrived, and the wasm was compiled ahead of loadPyodide's own (which awaits the snapshot)
        stages = timings["stages"]
        assert stages["worker started"] <= stages["worker module ran"] <= stages["snapshot looked up"], stages
        assert "snapshot cache opened" not in stages, stages  # worker.mjs had no look-up of its own to do
        assert stages["wasm compiled"] <= stages["runtime"], stages
        # (a later visit has the page compile Pyodide's wasm, register-sw.js, and post the module;
        # which module Pyodide gets, that or the worker's own, depends on which was ready first)
        # the engine came with the heap: its wheels and app.py are not part of this start
        assert not [path for path in timings["bootFiles"] if path.startswith("wheels/") or path == "app.py"], timings
        result = again.evaluate(
            """async () => {
                const bytes = await (await fetch("samples/sample.pdf")).arrayBuffer();
                return (await window.glyphline.extractText(new Uint8Array(bytes))).text;
            }""")
        assert result.encode("utf-8") == cli_output(SAMPLE)
        # a worker told a module will be posted (named in start.mjs's WASM_POSTED_NAMES) still starts when the
        # module that comes is none, or when none comes at all (it compiles its own once Pyodide
        # needs the wasm), and takes a module that does come
        for sent in ("null", "nothing", "module"):
            stages = again.evaluate(START_WITH_POSTED_WASM, sent)
            assert ("wasm posted" in stages) == (sent == "module"), (sent, stages)
            assert stages["wasm compiled"] <= stages["runtime"], (sent, stages)
    finally:
        context.close()


# a worker started as register-sw.js starts it, sent a module, none (null) or nothing; its start-up stages at "ready"
START_WITH_POSTED_WASM = """async (sent) => {
    // (compiled before the worker starts: one that comes after Pyodide needs it is not waited for)
    const module = sent === "module" ? await WebAssembly.compileStreaming(fetch("pyodide/pyodide.asm.wasm")) : null;
    const worker = new Worker("worker/start.mjs", { type: "module", name: "glyphline-wasm-posted" });
    if (sent !== "nothing") worker.postMessage({ type: "glyphline-wasm", module });
    try {
        return await new Promise((resolve, reject) => {
            worker.onmessage = ({ data }) => {
                if (data.type === "ready") resolve(data.timings.stages);
                if (data.type === "fatal") reject(new Error(data.message));
            };
            worker.onerror = (event) => reject(new Error(event.message || "the worker failed"));
        });
    } finally {
        worker.terminate();
    }
}"""


def test_large_files_came_compressed(app_page, server):
    """make run's server sent the precompressed runtime (Brotli: Chromium accepts it)."""
    encoded = dict(server.encoded)
    assert encoded.get("/pyodide/pyodide.asm.wasm") == "br", sorted(encoded.items())[:10]
    assert encoded.get("/pyodide/pyodide.asm.mjs") == "br"


def test_a_predefined_cmap_is_fetched_only_when_a_font_needs_it(app_page, tmp_path):
    """A Type0 font naming 90ms-RKSJ-H without /ToUnicode: the worker fetches that CMap and the
    Adobe-Japan1 table from the site's cmaps/ folder (and nothing else), and the text matches the CLI."""
    from pdfbuilder import PdfBuilder

    b = PdfBuilder()
    cid_font = b.add({"Type": "/Font", "Subtype": "/CIDFontType0", "BaseFont": "/KozMinPr6N-Regular",
                      "CIDSystemInfo": {"Registry": b"Adobe", "Ordering": b"Japan1", "Supplement": 2}, "DW": 1000})
    font = b.add({"Type": "/Font", "Subtype": "/Type0", "BaseFont": "/KozMinPr6N-Regular",
                  "Encoding": "/90ms-RKSJ-H", "DescendantFonts": [cid_font]})
    text = "日本語のテキスト、カタカナ。"
    b.page(content=b"BT /F1 12 Tf 72 700 Td <" + text.encode("cp932").hex().encode() + b"> Tj ET", fonts={"F1": font})
    pdf = tmp_path / "rksj.pdf"
    pdf.write_bytes(b.build())
    fetched = []
    app_page.on("request", lambda request: fetched.append(request.url) if "/cmaps/" in request.url else None)
    clear_queue(app_page)
    app_page.locator("#file").set_input_files(str(pdf))
    assert wait_job_state(app_page, 0, ("done",)) == "done"
    _, data = download_text(app_page, 0)
    assert data == cli_output(pdf) and text in data.decode("utf-8")
    assert sorted(url.rsplit("/", 1)[1] for url in fetched) == ["90ms-RKSJ-H.bcmap", "Adobe-Japan1-UCS2.bcmap"]


def test_a_compound_hyphen_is_decided_by_the_sites_word_list(app_page, tmp_path):
    """A hyphen with no evidence in the document: the worker reads the English list from the
    site's wordlists/ folder (moved out of the wheel by the build) and keeps `self-contained`,
    as the CLI does; without the list it would come out as `selfcontained`."""
    from pdfbuilder import PdfBuilder

    lines = ["The method is simple and the results of the tests are shown in",
             "this table for the reader with the data from a self-",
             "contained study that we have run for every-",
             "thing in the table, as the report of the study shows."]
    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    b.page(b"BT /F1 11 Tf 14 TL 72 720 Td " + b" ".join(b"(" + line.encode() + b") Tj T*" for line in lines) + b" ET",
           fonts={"F1": font})
    pdf = tmp_path / "compound.pdf"
    pdf.write_bytes(b.build())
    clear_queue(app_page)
    app_page.locator("#file").set_input_files(str(pdf))
    assert wait_job_state(app_page, 0, ("done",)) == "done"
    _, data = download_text(app_page, 0)
    assert data == cli_output(pdf)
    assert "a self-contained study" in data.decode("utf-8") and "for everything in" in data.decode("utf-8")
