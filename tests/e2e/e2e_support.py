"""Helpers for the browser tests (and bench/browser.py): a recording static server, finding
Chromium, the CLI reference output, and reading the converter's queue in its shadow DOM."""
from __future__ import annotations

import functools
import http.server
import os
import shutil
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit


REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tools"))
from serve import PrecompressedHandler  # noqa: E402  (make run's server: .br/.gz with Content-Encoding)
CHROMIUM_CANDIDATES = ("/usr/bin/chromium", "chromium", "chromium-browser")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
BOOT_TIMEOUT_MS = 90_000     # a cold Pyodide start on a busy 2-core machine takes up to ~15 s
CONVERT_TIMEOUT_MS = 120_000
# the page's CSP forbids eval, so Playwright's string predicates (wait_for_function) cannot run:
# waiting goes through DOM state instead, e.g. the loader's data-state attribute
READY_SELECTOR = '#loader[data-state="ready"]'


def find_chromium() -> str | None:
    for candidate in CHROMIUM_CANDIDATES:
        path = shutil.which(candidate) if not os.path.isabs(candidate) else (candidate if os.access(candidate, os.X_OK) else None)
        if path:
            return path
    return None


@dataclass
class StaticServer:
    """make run's server (tools/serve.py: precompressed files) on a free loopback port,
    recording (method, path)."""

    root: Path
    requests: list[tuple[str, str]] = field(default_factory=list)
    # (path, Content-Encoding) of every answer that had one
    encoded: list[tuple[str, str]] = field(default_factory=list)
    # path prefix → seconds per 64 KiB sent: a slow network for start-up tests
    slow: dict[str, float] = field(default_factory=dict)
    # path prefixes answered with 404 (a file the server lost)
    missing: tuple[str, ...] = ()

    def __post_init__(self):
        recorded = self.requests
        encoded = self.encoded
        slow = self.slow
        missing = self.missing

        class Handler(PrecompressedHandler):
            def log_message(self, *args):  # quiet: the test output is for failures
                pass

            def send_header(self, keyword, value):
                if keyword.lower() == "content-encoding":
                    encoded.append((self.path, value))
                super().send_header(keyword, value)

            def send_head(self):
                recorded.append((self.command, self.path))
                if self.path.startswith(missing):
                    self.send_error(404)
                    return None
                return super().send_head()

            def copyfile(self, source, outputfile):
                delay = next((seconds for prefix, seconds in slow.items() if self.path.startswith(prefix)), 0)
                if not delay:
                    return super().copyfile(source, outputfile)
                for chunk in iter(lambda: source.read(1 << 16), b""):
                    outputfile.write(chunk)
                    time.sleep(delay)

            def do_POST(self):  # never expected; recorded so a test can fail on it
                recorded.append(("POST", self.path))
                self.send_error(405)

        handler = functools.partial(Handler, directory=str(self.root))
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}/"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        if self.thread.is_alive():
            self.httpd.shutdown()
            self.httpd.server_close()


def open_app(context, url: str):
    """A new tab on the app, waited until the worker reports ready."""
    page = context.new_page()
    page.goto(url)
    page.locator(READY_SELECTOR).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)
    return page


def cli_output(path: Path, *args: str) -> bytes:
    """What `glyphline FILE [options]` writes to stdout: the reference for the web app's download."""
    done = subprocess.run([sys.executable, "-m", "glyphline", str(path), *args], cwd=REPO,
                          capture_output=True, timeout=300)
    assert done.returncode in (0, 3), done.stderr.decode("utf-8", "replace")
    return done.stdout


def job(page, index: int):
    """The index-th file of the queue (0-based) in <glyphline-converter>'s shadow DOM."""
    return page.locator("li.job").nth(index)


FINAL_STATES = ("done", "scan", "error", "password", "cancelled")


def wait_job_state(page, index: int, states: tuple[str, ...] = FINAL_STATES, timeout: float = CONVERT_TIMEOUT_MS) -> str:
    """Waits until the job reaches one of `states` or any final state; returns the state,
    with the job's visible text appended when it is not one of `states` (for the assertion)."""
    wanted = tuple(states) + tuple(s for s in FINAL_STATES if s not in states)
    selector = ", ".join(f'li.job:nth-child({index + 1})[data-state="{state}"]' for state in wanted)
    page.locator(selector).first.wait_for(state="attached", timeout=timeout)
    state = job(page, index).get_attribute("data-state")
    if state not in states:
        return f"{state}: {job(page, index).inner_text()}"
    return state


def download_text(page, index: int) -> tuple[str, bytes]:
    with page.expect_download(timeout=CONVERT_TIMEOUT_MS) as info:
        job(page, index).locator("button.download").click()
    download = info.value
    return download.suggested_filename, Path(download.path()).read_bytes()


def clear_queue(page) -> None:
    page.evaluate("""() => {
        const host = document.querySelector('glyphline-converter');
        host.shadowRoot.getElementById('queue').replaceChildren();
        host.jobs = [];
    }""")


def make_long_pdf(path: Path, pages: int) -> Path:
    """A plain text PDF of `pages` pages (reportlab): long enough to watch progress and cancel."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    drawing = canvas.Canvas(str(path), pagesize=A4)
    for number in range(1, pages + 1):
        drawing.setFont("Helvetica", 11)
        drawing.drawString(72, 760, f"Chapter {number}")
        drawing.drawString(72, 740, f"This is page {number} of a long document that tests progress.")
        drawing.showPage()
    drawing.save()
    return path


def wait_local_snapshot(page, timeout_s: float = BOOT_TIMEOUT_MS / 1000) -> dict:
    """Waits for the worker's report on the memory snapshot it takes after a first start."""
    deadline = time.monotonic() + timeout_s
    while True:
        snapshot = page.evaluate("() => window.glyphline.status.snapshot")
        if snapshot:
            return snapshot
        assert time.monotonic() < deadline, "the worker took no memory snapshot"
        time.sleep(0.05)


def rewrite_site_file(path: Path, text: str) -> None:
    """Changes a file of a built site copy, dropping its precompressed siblings (now stale)."""
    path.write_text(text, encoding="utf-8")
    for suffix in (".br", ".gz"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


def is_precompressed_sibling(path: Path) -> bool:
    return path.suffix in (".br", ".gz") and path.with_suffix("").is_file()


def assert_same_origin(urls: list[str], site_url: str) -> None:
    """Every request the page made stayed on the site's origin (blob: and data: URLs are local)."""
    origin = urlsplit(site_url)
    for url in urls:
        parts = urlsplit(url)
        assert parts.scheme in ("blob", "data") or (parts.scheme, parts.netloc) == (origin.scheme, origin.netloc), url
