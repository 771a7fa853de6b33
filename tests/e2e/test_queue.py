"""Queue management: remove, retry after a cancel or an error, re-run with changed options (the
result stays until then), clear finished / clear all, file size per card, and "Download all" as
one ZIP whose entries equal the CLI's output."""
from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from e2e_support import REPO, CONVERT_TIMEOUT_MS, cli_output, job, make_long_pdf, wait_job_state

pytestmark = pytest.mark.e2e

SAMPLE = REPO / "tests" / "data" / "sample.pdf"


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("queue")
    notes = folder / "notes.txt"
    notes.write_text("not a pdf\n", encoding="utf-8")
    return {"long": make_long_pdf(folder / "long.pdf", 1500), "notes": notes, "short": make_long_pdf(folder / "short.pdf", 3)}


def _clear_all(page) -> None:
    button = page.locator("#clear-all")
    if button.is_visible():
        button.click()
    assert page.locator("li.job").count() == 0


def _choose_mode(page, mode: str) -> None:
    page.locator("#options summary").click()
    page.locator(f"#mode-{mode}").check()
    page.locator("#options summary").click()


def test_download_all_is_one_zip_of_the_cli_outputs(app_page, files):
    _clear_all(app_page)
    app_page.locator("#file").set_input_files([str(SAMPLE), str(files["short"]), str(SAMPLE)])
    for index in range(3):
        assert wait_job_state(app_page, index, ("done",)) == "done"
    assert job(app_page, 0).locator(".size").inner_text() == f"{SAMPLE.stat().st_size / 1e3:.1f} kB".replace(".0 kB", " kB")
    with app_page.expect_download(timeout=CONVERT_TIMEOUT_MS) as info:
        app_page.get_by_role("button", name="Download all (ZIP)").click()
    download = info.value
    assert download.suggested_filename == "glyphline.zip"
    archive = zipfile.ZipFile(io.BytesIO(Path(download.path()).read_bytes()))
    assert archive.namelist() == ["sample.txt", "short.txt", "sample (2).txt"]
    assert archive.read("sample.txt") == archive.read("sample (2).txt") == cli_output(SAMPLE)
    assert archive.read("short.txt") == cli_output(files["short"])


def test_remove_takes_the_card_away_and_focus_goes_to_its_neighbour(app_page, files):
    _clear_all(app_page)
    app_page.locator("#file").set_input_files([str(SAMPLE), str(files["short"])])
    for index in range(2):
        wait_job_state(app_page, index, ("done",))
    job(app_page, 0).get_by_role("button", name="Remove").click()
    assert app_page.locator("li.job").count() == 1
    assert job(app_page, 0).locator(".name").inner_text() == "short.pdf"
    assert job(app_page, 0).evaluate("(node) => node.getRootNode().activeElement === node")
    job(app_page, 0).get_by_role("button", name="Remove").press("Enter")   # the keyboard alone
    assert app_page.locator("li.job").count() == 0
    assert not app_page.locator("#queue-bar").is_visible()   # nothing queued, nothing to manage


def test_removing_a_running_file_cancels_it(app_page, files):
    _clear_all(app_page)
    app_page.locator("#file").set_input_files([str(files["long"]), str(SAMPLE)])
    app_page.locator('li.job:nth-child(1)[data-state="running"]').wait_for(state="attached", timeout=60_000)
    job(app_page, 0).get_by_role("button", name="Remove").click()
    assert wait_job_state(app_page, 0, ("done",)) == "done"   # the sample, next in line, gets its turn
    assert job(app_page, 0).locator(".name").inner_text() == "sample.pdf"


def test_retry_after_a_cancel_and_after_an_error(app_page, files):
    _clear_all(app_page)
    app_page.locator("#file").set_input_files([str(files["long"])])
    app_page.locator('li.job:nth-child(1)[data-state="running"]').wait_for(state="attached", timeout=60_000)
    job(app_page, 0).get_by_role("button", name="Cancel").click()
    assert wait_job_state(app_page, 0, ("cancelled",), timeout=15_000) == "cancelled"
    retry = job(app_page, 0).get_by_role("button", name="Retry")
    retry.click()
    assert wait_job_state(app_page, 0, ("done",)) == "done"
    assert not retry.is_visible()
    app_page.locator("#file").set_input_files([str(files["notes"])])
    assert wait_job_state(app_page, 1, ("error",)) == "error"
    assert job(app_page, 1).get_by_role("button", name="Retry").is_visible()


def test_changed_options_keep_the_result_and_offer_a_rerun(app_page):
    _clear_all(app_page)
    app_page.locator("#file").set_input_files([str(SAMPLE)])
    assert wait_job_state(app_page, 0, ("done",)) == "done"
    card = job(app_page, 0)
    rerun = card.get_by_role("button", name="Convert again with the new options")
    assert not rerun.is_visible()
    _choose_mode(app_page, "json")
    try:
        assert card.locator(".preview").is_visible()   # the result stays when the options change
        assert card.locator("button.download").inner_text() == "Download sample.txt"
        rerun.click()
        card.locator("button.download", has_text="sample.json").wait_for(timeout=CONVERT_TIMEOUT_MS)
        assert wait_job_state(app_page, 0, ("done",)) == "done"
        assert not rerun.is_visible()
    finally:
        _choose_mode(app_page, "reflow")
    assert rerun.is_visible()   # back to reflow: this JSON result differs from the options again


def test_clear_finished_keeps_the_running_file(app_page, files):
    _clear_all(app_page)
    app_page.locator("#file").set_input_files([str(SAMPLE), str(files["notes"])])
    wait_job_state(app_page, 0, ("done",))
    wait_job_state(app_page, 1, ("error",))
    app_page.locator("#file").set_input_files([str(files["long"])])
    app_page.locator('li.job:nth-child(3)[data-state="running"]').wait_for(state="attached", timeout=60_000)
    app_page.get_by_role("button", name="Clear finished").click()
    assert app_page.locator("li.job").count() == 1
    assert job(app_page, 0).get_attribute("data-state") == "running"
    app_page.get_by_role("button", name="Clear all").click()
    assert app_page.locator("li.job").count() == 0
