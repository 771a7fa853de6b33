"""Takes the Pyodide memory snapshot inside headless Chromium, in a module worker like the app's.

Why not Node (tools/pyodide_build.mjs can do it too): Pyodide records at start-up whether the
runtime has WebAssembly stack switching (JSPI), and a snapshot keeps that answer. Node 20 has
none, so a Node snapshot restored in the browser cannot use `run_sync`, and the worker cannot
pause between pages to see a "cancel" (the page then restarts the worker instead). A snapshot
taken in Chromium keeps JSPI. tools/build_site.py uses this when Chromium and Playwright are
there and falls back to the Node snapshot otherwise.

    python tools/browser_snapshot.py DIST WHEEL...   → prints {"snapshot": "engine-<hash>.snap.gz"}
"""
from __future__ import annotations

import base64
import functools
import hashlib
import http.server
import json
import os
import shutil
import sys
import tempfile
import threading
from pathlib import Path

TOOLS = Path(__file__).resolve().parent
CHROMIUM_CANDIDATES = ("/usr/bin/chromium", "chromium", "chromium-browser")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
TIMEOUT_MS = 180_000
PAGE = """<!doctype html><meta charset="utf-8"><title>snapshot</title>
<script type="module">
  window.takeSnapshot = (wheels, preimport) => new Promise((resolve, reject) => {
    const worker = new Worker("./snapshot-worker.mjs", { type: "module" });
    worker.onerror = (event) => reject(new Error(event.message));
    worker.onmessage = ({ data }) => {
      if (!data.ok) { reject(new Error(data.error)); return; }
      const reader = new FileReader();  // base64 of the gzip, the cheapest way out of the page
      reader.onload = () => resolve(reader.result.slice(reader.result.indexOf(",") + 1));
      reader.readAsDataURL(new Blob([data.bytes]));
    };
    worker.postMessage({ wheels, preimport });
  });
  window.snapshotPageReady = true;
</script>"""
WORKER = """
import { loadPyodide } from "./site/pyodide/pyodide.mjs";
import aesjs from "./site/vendor/aes-js.mjs";
import { bootForSnapshot, exposeAes } from "./site/worker/engine_setup.mjs";  // the app worker's boot sequence
exposeAes(aesjs);
const fetchBytes = async (url) => new Uint8Array(await (await fetch(url)).arrayBuffer());
self.onmessage = async ({ data: { wheels, preimport } }) => {
  try {
    const indexURL = new URL("./site/pyodide/", import.meta.url).href;
    const files = await Promise.all(wheels.map((name) => fetchBytes(`./site/wheels/${name}`)));
    const appSource = await (await fetch("./site/app.py")).text();
    const pyodide = await bootForSnapshot(loadPyodide, indexURL, files, appSource, preimport);
    const raw = pyodide.makeMemorySnapshot();
    const gzip = new Blob([raw]).stream().pipeThrough(new CompressionStream("gzip"));
    const bytes = await new Response(gzip).arrayBuffer();
    self.postMessage({ ok: true, bytes }, [bytes]);
  } catch (error) {
    self.postMessage({ ok: false, error: String(error && error.stack || error) });
  }
};
"""


def find_chromium() -> str | None:
    for candidate in CHROMIUM_CANDIDATES:
        path = candidate if os.path.isabs(candidate) and os.access(candidate, os.X_OK) else shutil.which(candidate)
        if path:
            return path
    return None


def available() -> bool:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return False
    return find_chromium() is not None


def take_snapshot(dist: Path, wheels: list[str]) -> str:
    """Writes dist/snapshot/engine-<hash>.snap.gz and returns its name."""
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "site").symlink_to(dist, target_is_directory=True)
        (root / "index.html").write_text(PAGE, encoding="utf-8")
        (root / "snapshot-worker.mjs").write_text(WORKER, encoding="utf-8")

        class Handler(http.server.SimpleHTTPRequestHandler):
            extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                              ".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm"}

            def log_message(self, *args):
                pass

        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=tmp))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            with sync_playwright() as driver:
                browser = driver.chromium.launch(executable_path=find_chromium(), args=CHROMIUM_ARGS)
                try:
                    page = browser.new_page()
                    page.goto(f"http://127.0.0.1:{server.server_address[1]}/")
                    page.wait_for_function("window.snapshotPageReady === true", timeout=TIMEOUT_MS)
                    preimport = (TOOLS / "snapshot_imports.py").read_text(encoding="utf-8")
                    page.set_default_timeout(TIMEOUT_MS)
                    encoded = page.evaluate("([w, p]) => window.takeSnapshot(w, p)", [wheels, preimport])
                finally:
                    browser.close()
        finally:
            server.shutdown()
            server.server_close()
    data = base64.b64decode(encoded)
    name = f"engine-{hashlib.sha256(data).hexdigest()[:16]}.snap.gz"
    (dist / "snapshot").mkdir(exist_ok=True)
    (dist / "snapshot" / name).write_bytes(data)
    return name


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    print(json.dumps({"snapshot": take_snapshot(Path(argv[0]).resolve(), argv[1:])}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
