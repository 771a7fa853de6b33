"""axe-core (pinned in package.json, served from the test's own copy of the site, never in dist/)
finds 0 violations in every state of the app: ready, options open, a finished multi-page file
with its notes, details, search and page view, an error, a password prompt, the drop overlay, the
update banner; in light and dark, in English and German."""
from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from e2e_support import REPO, StaticServer, clear_queue, job, open_app, wait_job_state

pytestmark = pytest.mark.e2e

sys.path.insert(0, str(REPO / "tests"))  # pdfbuilder

AXE = REPO / "node_modules" / "axe-core" / "axe.min.js"
RUN_AXE = """async () => {
    // measured at rest: a fading overlay has less contrast for its 150 ms than it will have
    const shadow = document.querySelector('glyphline-converter').shadowRoot;   // its animations are not the document's
    const running = [...document.getAnimations(), ...shadow.getAnimations()];
    await Promise.all(running.map((animation) => animation.finished.catch(() => {})));
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => JSON.stringify(n.target)).join(' ')}`);
}"""


@pytest.fixture(scope="module")
def axe_server(site_dir, tmp_path_factory):
    if not AXE.is_file():
        pytest.fail("node_modules/axe-core is missing: run `npm ci`")
    root = tmp_path_factory.mktemp("axe") / "site"
    shutil.copytree(site_dir, root)
    shutil.copyfile(AXE, root / "axe.min.js")   # same origin: the page's CSP stays as it is
    server = StaticServer(root)
    yield server
    server.stop()


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, Path]:
    from pdfbuilder import PdfBuilder
    from pypdf import PdfReader, PdfWriter

    folder = tmp_path_factory.mktemp("axe-files")
    builder = PdfBuilder()
    helvetica = builder.font_type1("Helvetica")
    builder.page(b"BT /F1 12 Tf 72 700 Td (Apples on the first page) Tj ET", fonts={"F1": helvetica})
    builder.page(b"BT /F1 12 Tf 72 700 Td (Apples again) Tj ET BT /F9 12 Tf 72 600 Td (lost) Tj ET", fonts={"F1": helvetica})
    paths = {"pages": folder / "pages.pdf", "notes": folder / "notes.txt", "locked": folder / "locked.pdf"}
    paths["pages"].write_bytes(builder.build())
    paths["notes"].write_text("not a pdf\n", encoding="utf-8")
    writer = PdfWriter(clone_from=PdfReader(paths["pages"]))
    writer.encrypt(user_password="secret", owner_password="owner", algorithm="AES-128")
    with open(paths["locked"], "wb") as out:
        writer.write(out)
    return paths


def _violations(page) -> list[str]:
    if not page.evaluate("() => typeof axe !== 'undefined'"):
        page.add_script_tag(url="axe.min.js")
    return page.evaluate(RUN_AXE)


def _every_state(page, files) -> dict[str, list[str]]:
    found = {"ready": _violations(page)}
    page.locator("#options summary").click()
    found["options open"] = _violations(page)
    page.locator("#options summary").click()

    clear_queue(page)
    page.locator("#file").set_input_files([str(files["pages"]), str(files["notes"]), str(files["locked"])])
    assert wait_job_state(page, 0, ("done",)) == "done"
    wait_job_state(page, 1, ("error",))
    wait_job_state(page, 2, ("password",))
    card = job(page, 0)
    card.locator("details.warnings-box > summary").click()
    card.locator("details.notice-details > summary").click()
    card.locator("input.search").fill("apples")
    found["done, notes and search"] = _violations(page)
    card.locator("button.next").click()
    found["one page"] = _violations(page)
    card.locator("button.inspect").click()
    card.locator('.inspector[data-state="ready"]').wait_for(timeout=60_000)
    found["layout inspector"] = _violations(page)
    card.locator("button.inspector-close").click()
    job(page, 1).locator("details.error-details > summary").click()
    found["error details"] = _violations(page)

    page.evaluate("""() => {
        const host = document.querySelector('glyphline-converter');
        host.showOverlay(true);
    }""")
    found["drop overlay"] = _violations(page)
    page.evaluate("() => document.querySelector('glyphline-converter').showOverlay(false)")
    page.evaluate("() => { document.getElementById('update').hidden = false; }")
    found["update banner"] = _violations(page)
    page.evaluate("() => { document.getElementById('update').hidden = true; }")
    return {state: violations for state, violations in found.items() if violations}


@pytest.mark.parametrize("scheme, locale", [("light", "en-US"), ("dark", "en-US"), ("light", "de-DE")])
def test_no_axe_violation_in_any_state(browser, axe_server, files, scheme, locale):
    context = browser.new_context(color_scheme=scheme, locale=locale)
    try:
        page = open_app(context, axe_server.url)
        assert _every_state(page, files) == {}
    finally:
        context.close()


def test_the_check_sees_a_violation_in_the_shadow_dom(browser, axe_server):
    """The harness is not blind: an unlabelled button inside the converter is reported."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(axe_server.url)
        page.evaluate("""() => {
            const host = document.querySelector('glyphline-converter');
            host.shadowRoot.append(Object.assign(document.createElement('button'), { id: 'unnamed' }));
        }""")
        assert any(violation.startswith("button-name:") for violation in _violations(page))
    finally:
        context.close()
