"""Fixtures for the browser tests: the built site, a loopback static server, Debian Chromium.

The site is built once per session into a temporary folder with tools/build_site.py (the same
build as `make build`), so the tests never see a stale dist/. Each test module gets its own
browser; the server records every request so privacy tests can inspect them. Helpers live in
e2e_support.py (a module name of its own: tests/conftest.py is also called conftest).
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from e2e_support import CHROMIUM_ARGS, REPO, StaticServer, find_chromium, open_app


@pytest.fixture(scope="session")
def chromium_path() -> str:
    path = find_chromium()
    if path is None:
        pytest.skip("Chromium not found (make test installs Debian's chromium)")
    return path


@pytest.fixture(scope="session")
def site_dir(tmp_path_factory) -> Path:
    if not (REPO / "node_modules" / "pyodide").is_dir():
        pytest.fail("node_modules/ is missing: run `npm ci` (make test does)")
    dist = tmp_path_factory.mktemp("site") / "dist"
    built = subprocess.run([sys.executable, str(REPO / "tools" / "build_site.py"), "--dist", str(dist)],
                           cwd=REPO, capture_output=True, text=True, timeout=600)
    if built.returncode:
        pytest.fail(f"the site build failed:\n{built.stdout[-3000:]}\n{built.stderr[-3000:]}")
    return dist


@pytest.fixture(scope="session")
def server(site_dir):
    srv = StaticServer(site_dir)
    yield srv
    srv.stop()


@pytest.fixture(scope="session")
def playwright_driver():
    sync_api = pytest.importorskip("playwright.sync_api")
    driver = sync_api.sync_playwright().start()
    yield driver
    driver.stop()


@pytest.fixture(scope="module")
def browser(playwright_driver, chromium_path):
    instance = playwright_driver.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
    yield instance
    instance.close()


@pytest.fixture(scope="module")
def app_context(browser):
    """One context per module (the service worker installs once); downloads accepted."""
    context = browser.new_context(accept_downloads=True)
    yield context
    context.close()


@pytest.fixture(scope="module")
def app_page(app_context, server):
    page = open_app(app_context, server.url)
    yield page
    page.close()
