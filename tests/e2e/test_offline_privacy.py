"""Offline after the first visit, nothing but same-origin GETs of static files, a strict CSP."""
from __future__ import annotations

import re
import time
from html.parser import HTMLParser
from urllib.parse import urlsplit

import pytest

from e2e_support import (BOOT_TIMEOUT_MS, CHROMIUM_ARGS, REPO, READY_SELECTOR, StaticServer, cli_output, download_text, open_app,
                         wait_job_state, wait_local_snapshot)

pytestmark = pytest.mark.e2e

OFFLINE_COMPLETE = 'html[data-offline="complete"]'
CJK_TEXT = "中文文本，测试。"

SAMPLE = REPO / "tests" / "data" / "sample.pdf"
TEXT_SUFFIXES = {".html", ".js", ".mjs", ".css", ".json", ".svg", ".py", ".txt", ".webmanifest"}
# a URL naming a host (scheme prefixes such as "file://" or templates like `https://${host}` in the
# Pyodide runtime name none)
URL = re.compile(rb"(?:https?|wss?|ftp)://[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+[^\s\"'`<>)]*")
# XML namespace names are identifiers, never fetched (an SVG needs its xmlns)
NAMESPACE_URLS = {b"http://www.w3.org/2000/svg", b"http://www.w3.org/1999/xlink"}
# pdf.js (vendor/pdfjs/, the page renderer): the namespace names of XFA forms, XDP, XFDF, XMP, XML
# signatures, XSLT and XHTML, its license header, and two dummy bases it parses relative links
# against: names, none fetched (the privacy test below watches the network)
PDFJS_NAMES = re.compile(rb"http://(www\.xfa\.org/schema/|ns\.adobe\.com/|www\.w3\.org/)"
                         rb"|http://www\.apache\.org/licenses/LICENSE-2\.0$|https://foo\.bar$|http://example\.com$")


def test_no_url_to_another_origin_in_any_text_file(site_dir):
    """Every file a browser interprets (markup, scripts, styles, JSON, app.py) is scanned.

    Binary data (the wasm, the stdlib zip, wheels, CMaps, the sample PDF) holds message and
    documentation strings, never addresses the site loads; the privacy test below watches
    what actually goes over the network."""
    offenders = []
    scanned = 0
    for path in sorted(site_dir.rglob("*")):
        if path.is_file() and path.suffix in TEXT_SUFFIXES:
            scanned += 1
            pdfjs = path.relative_to(site_dir).as_posix().startswith("vendor/pdfjs/")
            for match in URL.findall(path.read_bytes()):
                if match not in NAMESPACE_URLS and not (pdfjs and PDFJS_NAMES.match(match)):
                    offenders.append(f"{path.relative_to(site_dir)}: {match.decode(errors='replace')}")
    assert scanned > 10
    assert offenders == []


class _MetaCollector(HTMLParser):
    def __init__(self):
        super().__init__()
        self.csp = None
        self.urls = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "meta" and (attributes.get("http-equiv") or "").lower() == "content-security-policy":
            self.csp = attributes.get("content")
        for name in ("src", "href"):
            if attributes.get(name):
                self.urls.append(attributes[name])


def test_csp_allows_only_self(site_dir):
    parser = _MetaCollector()
    parser.feed((site_dir / "index.html").read_text(encoding="utf-8"))
    assert parser.csp, "index.html has no Content-Security-Policy meta tag"
    directives = {part.split()[0]: part.split()[1:] for part in parser.csp.split(";") if part.strip()}
    assert directives["default-src"] == ["'self'"]
    assert directives["script-src"] == ["'self'", "'wasm-unsafe-eval'"]  # wasm compile, no eval
    for name, sources in directives.items():
        for source in sources:
            assert source in {"'self'", "'none'", "'wasm-unsafe-eval'", "data:", "blob:"}, (name, source)
    assert all(not urlsplit(url).scheme and not url.startswith("/") for url in parser.urls), parser.urls


def test_first_visit_and_conversion_only_fetch_static_files(browser, server, site_dir):
    context = browser.new_context(accept_downloads=True)
    seen = []
    context.on("request", lambda request: seen.append(
        (time.monotonic(), request.method, request.url, request.post_data_buffer)))
    try:
        page = context.new_page()
        page.add_init_script("""
            window.__cspViolations = [];
            document.addEventListener('securitypolicyviolation', (e) => window.__cspViolations.push(e.violatedDirective));
        """)
        start_index = len(server.requests)
        page.goto(server.url)
        page.locator(READY_SELECTOR).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)
        # the service worker caches the rest (CMaps) once the converter is ready: let it finish
        page.locator(OFFLINE_COMPLETE).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)
        time.sleep(0.5)
        server_before = len(server.requests)
        started = time.monotonic()
        page.locator("#file").set_input_files(str(SAMPLE))
        assert wait_job_state(page, 0, ("done",)) == "done"
        finished = time.monotonic()
        _, data = download_text(page, 0)
        assert data == cli_output(SAMPLE)
        during = [(method, url) for when, method, url, _ in seen if started <= when <= finished]
        # the one read while converting: the engine asks the site's English word list about the
        # sample's line-end hyphens; it is precached, so the service worker answers it and it never
        # reaches the server (checked next)
        assert [(method, url) for method, url in during
                if not (method == "GET" and urlsplit(url).path == "/wordlists/en.words.z")] == [], "requests while converting"
        # the one exception is the browser's own service-worker update check (GET sw.js, no body)
        reached = [r for r in server.requests[server_before:] if r != ("GET", "/sw.js")]
        assert reached == [], "requests reached the server while converting"
        assert page.evaluate("() => window.__cspViolations") == []
    finally:
        context.close()
    files = {"/" + p.relative_to(site_dir).as_posix() for p in site_dir.rglob("*") if p.is_file()} | {"/"}
    assert seen, "no request recorded at all"
    for _, method, url, body in seen:
        parts = urlsplit(url)
        if parts.scheme == "blob":  # the download's own object URL, made in the page from the text
            assert parts.path.startswith(server.url)
            continue
        assert url.startswith(server.url), url
        assert method == "GET", (method, url)
        assert not body, url
        assert parts.path in files, url
    assert all(method == "GET" for method, _ in server.requests)
    # CMaps are for CJK fonts: they are cached in the background, only after the converter is ready
    # (this server is shared by the test modules, so only this context's start-up is looked at)
    mine = list(enumerate(server.requests))[start_index:]
    cmap_requests = [i for i, (_, path) in mine if path.startswith("/cmaps/")]
    boot_requests = [i for i, (_, path) in mine if path.startswith(("/pyodide/", "/snapshot/"))]
    assert cmap_requests and boot_requests and min(cmap_requests) > max(boot_requests)


def test_works_offline_after_the_first_visit(playwright_driver, chromium_path, site_dir, tmp_path):
    own_server = StaticServer(site_dir)  # this test stops it
    context = playwright_driver.chromium.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=chromium_path, args=CHROMIUM_ARGS, accept_downloads=True)
    try:
        page = open_app(context, own_server.url)
        assert page.evaluate("() => navigator.serviceWorker.controller !== null")
        page.locator("#file").set_input_files(str(SAMPLE))
        assert wait_job_state(page, 0, ("done",)) == "done"
        expected = cli_output(SAMPLE)
        assert download_text(page, 0)[1] == expected

        assert wait_local_snapshot(page)["stored"] is True  # taken after the first start, for the next visits

        own_server.stop()
        assert page.evaluate("() => fetch('./not-cached-' + Math.random()).then(() => 'reached', () => 'offline')") == "offline"
        page.reload()
        page.locator(READY_SELECTOR).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)
        assert page.evaluate("() => window.glyphline.status.timings.snapshot") == "local"  # restored offline
        page.locator("#file").set_input_files(str(SAMPLE))
        assert wait_job_state(page, 0, ("done",)) == "done"
        assert download_text(page, 0)[1] == expected

        second = open_app(context, own_server.url)  # a brand-new tab, still offline
        second.locator("#sample").click()
        assert wait_job_state(second, 0, ("done",)) == "done"
        assert download_text(second, 0)[1] == expected
    finally:
        context.close()
        own_server.stop()


def _cjk_pdf(path):
    """Chinese text whose fonts need two CMap files (GBK-EUC-H and Adobe-GB1-UCS2), which the
    browser fetches from cmaps/."""
    import sys
    sys.path.insert(0, str(REPO / "tests"))
    from pdfbuilder import gbk_cmap_pdf

    path.write_bytes(gbk_cmap_pdf(CJK_TEXT))
    return path


def test_cjk_works_offline_once_the_cmaps_are_cached_in_the_background(playwright_driver, chromium_path, site_dir, tmp_path):
    pdf = _cjk_pdf(tmp_path / "cjk.pdf")
    expected = cli_output(pdf)
    assert CJK_TEXT.encode() in expected
    own_server = StaticServer(site_dir)
    context = playwright_driver.chromium.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=chromium_path, args=CHROMIUM_ARGS, accept_downloads=True)
    try:
        page = open_app(context, own_server.url)
        page.locator(OFFLINE_COMPLETE).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)
        assert [p for _, p in own_server.requests if p.startswith("/cmaps/GBK-EUC-H")]  # cached in the background
        own_server.stop()  # offline, and this file's CMaps were never needed before
        page.locator("#file").set_input_files(str(pdf))
        assert wait_job_state(page, 0, ("done",)) == "done"
        assert download_text(page, 0)[1] == expected
    finally:
        context.close()
        own_server.stop()


def test_a_cmap_missing_offline_says_so_and_never_asks_for_ocr(playwright_driver, chromium_path, site_dir, tmp_path):
    pdf = _cjk_pdf(tmp_path / "cjk.pdf")
    # the server lost one CMap, so the background caching cannot get it; then the network goes
    own_server = StaticServer(site_dir, missing=("/cmaps/GBK-EUC-H.bcmap",))
    context = playwright_driver.chromium.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=chromium_path, args=CHROMIUM_ARGS, accept_downloads=True)
    try:
        page = open_app(context, own_server.url)
        page.locator('html[data-offline="partial"]').wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)
        own_server.stop()
        page.locator("#file").set_input_files(str(pdf))
        assert wait_job_state(page, 0, ("error",)) == "error"
        message = page.locator("li.job .banner.error")
        assert message.get_attribute("data-kind") == "font-data"
        assert message.inner_text().startswith("This file needs font data that is not available offline yet.")
        assert "OCR" not in page.locator("li.job").inner_text()
        assert not page.locator("li.job .banner.scan").is_visible()
    finally:
        context.close()
        own_server.stop()
