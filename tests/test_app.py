"""app.py, the Python side of the web worker protocol, run on CPython: the same messages the
worker posts to the page."""
from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
import app  # noqa: E402
from glyphline import extract_text  # noqa: E402


def run(data: bytes, options=None, cancel_after: int | None = None):
    posted = []

    def is_cancelled() -> bool:
        return cancel_after is not None and len(posted) >= cancel_after

    final = app.convert(7, data, options or {}, posted.append, is_cancelled)
    return posted, final


def test_result_matches_the_library_and_progress_is_per_page(sample_pdf):
    posted, final = run(sample_pdf)
    assert posted == [{"type": "progress", "id": 7, "page": 1, "pages": 2},
                      {"type": "progress", "id": 7, "page": 2, "pages": 2}]
    assert final["type"] == "result" and final["id"] == 7
    expected = extract_text(sample_pdf)
    assert final["text"] == expected.text
    assert final["pageCount"] == 2
    assert [p["number"] for p in final["pages"]] == [1, 2]
    assert final["charCount"] == sum(p.char_count for p in expected.pages)
    assert final["wordCount"] == sum(len(p.text.split()) for p in expected.pages) > 0
    assert final["scan"] is None


def test_options_use_the_page_names(sample_pdf):
    _, final = run(sample_pdf, {"mode": "preserve", "markers": True, "pages": "2", "bom": True})
    assert final["text"] == extract_text(sample_pdf, mode="preserve", markers=True, pages="2", bom=True).text
    assert final["text"].startswith("\ufeff--- Page 2 ---")
    _, final = run(sample_pdf, {"pageBreaks": False, "dehyphenate": False})
    assert final["text"] == extract_text(sample_pdf, page_breaks=False, dehyphenate=False).text


def test_cancel_between_pages(sample_pdf):
    posted, final = run(sample_pdf, cancel_after=1)
    assert final == {"type": "cancelled", "id": 7}
    assert len(posted) == 1


@pytest.mark.parametrize("data, options, kind", [
    (b"hello, not a pdf", {}, "not-pdf"),
    (b"", {}, "not-pdf"),
    (None, {"pages": "3-1"}, "bad-options"),
    (None, {"mode": "poetry"}, "bad-options"),
])
def test_errors_become_kinds(sample_pdf, data, options, kind):
    _, final = run(sample_pdf if data is None else data, options)
    assert final["type"] == "error" and final["kind"] == kind, final
    assert final["message"]


def test_password_kind_then_the_right_password(sample_pdf):
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(sample_pdf)))
    writer.encrypt(user_password="pw", owner_password="owner", algorithm="AES-128")
    buffer = io.BytesIO()
    writer.write(buffer)
    _, final = run(buffer.getvalue())
    assert final["kind"] == "password"
    _, final = run(buffer.getvalue(), {"password": "nope"})
    assert final["kind"] == "password"
    _, final = run(buffer.getvalue(), {"password": "pw"})
    assert final["type"] == "result" and final["text"] == extract_text(sample_pdf).text


def test_scan_is_reported():
    from pypdf import PdfWriter

    writer = PdfWriter()
    writer.add_blank_page(width=595, height=842)
    buffer = io.BytesIO()
    writer.write(buffer)
    _, final = run(buffer.getvalue())
    assert final["type"] == "result"
    assert final["scan"]["wholeDocument"] is True and final["scan"]["pages"] == [1]


def test_fonts_without_character_mapping_are_reported_apart_from_scans():
    from test_extract import unmapped_font_pdf

    _, final = run(unmapped_font_pdf(20))
    assert final["type"] == "result" and final["scan"] is None
    assert final["unmapped"]["wholeDocument"] is True and final["unmapped"]["pages"] == [1]
    assert "no character mapping" in final["unmapped"]["message"]


def _cjk_pdf() -> bytes:
    sys.path.insert(0, str(REPO / "tests"))
    from pdfbuilder import gbk_cmap_pdf

    return gbk_cmap_pdf("中文文本")


@pytest.fixture()
def site_cmaps_unreachable():
    """The browser's CMap loader, outside a browser: every fetch fails, as offline before caching."""
    from glyphline.fonts import cmaps

    yield
    cmaps.set_cmap_loader(cmaps.file_loader)
    app._site_cmaps = None
    app._missing_cmaps.clear()


def test_a_shipped_cmap_that_cannot_be_fetched_is_reported_not_just_a_scan(site_cmaps_unreachable, sample_pdf):
    app.use_site_cmaps("https://example.invalid/cmaps/", ["GBK-EUC-H", "Adobe-GB1-UCS2"])
    _, final = run(_cjk_pdf())
    assert final["type"] == "result"
    assert "GBK-EUC-H" in final["missingFontData"]
    assert final["unmapped"]["wholeDocument"]  # what the engine alone says: glyphs without Unicode
    _, latin = run(sample_pdf)  # the next file starts afresh
    assert latin["missingFontData"] == []


def test_a_cmap_the_site_does_not_ship_is_not_reported(site_cmaps_unreachable):
    app.use_site_cmaps("https://example.invalid/cmaps/", ["Adobe-GB1-UCS2"])
    _, final = run(_cjk_pdf())
    assert final["missingFontData"] == []


def test_cmaps_available_give_the_text_and_nothing_missing():
    _, final = run(_cjk_pdf())
    assert final["missingFontData"] == []
    assert final["text"].startswith("中文文本")


def test_ocr_in_two_passes_images_out_then_their_words_back():
    from test_ocr import scan_pdf

    pdf = scan_pdf(text_first="A real text layer with plenty of characters", pages=1)
    first = app.images_for_ocr(3, pdf, {})
    assert first["type"] == "ocr-images" and [i["page"] for i in first["images"]] == [2]
    image = first["images"][0]
    assert image["format"] == "pnm" and image["data"].startswith(b"P5\n10 10\n")
    words = {image["key"]: [{"text": "Recognised", "bbox": [1, 1, 3, 1.2], "confidence": 88, "line": 1},
                            {"text": "words", "bbox": [3.1, 1, 4, 1.2], "confidence": 90, "line": 1}]}
    posted = []
    final = app.convert(4, pdf, {}, posted.append, lambda: False, ocr_words=words)
    assert final["pages"][1]["text"].startswith("Recognised words") and final["scan"] is None
    assert final["pages"][1]["ocr"]["words"] == 2 and final["pages"][0]["ocr"] is None
    unread = app.convert(5, pdf, {}, posted.append, lambda: False, ocr_words={})
    assert unread["scan"]["pages"] == [2]   # no words came back: still a page without text


# ----------------------------------------------------------------------------- the worker pool

def _another_worker(number: int):
    """app.py loaded once more, with state of its own: a helper worker beside `app`."""
    import importlib.util

    name = f"glyphline_app_helper_{number}"
    spec = importlib.util.spec_from_file_location(name, REPO / "app.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module   # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def pooled(data: bytes, options: dict, helpers: int = 2, job_id: int = 7):
    """What worker/pool.mjs does, on CPython: the coordinator (`app`) and `helpers` other workers
    each analyse runs of pages; the helpers' pages arrive packed; the coordinator finishes."""
    from glyphline.parallel import page_chunks

    opened = app.pool_open(job_id, data, options)
    assert opened["type"] == "pool-open", opened
    workers = [_another_worker(n) for n in range(helpers)]
    ticks = []
    for worker in workers:
        assert worker.pool_open(job_id, data, options)["type"] == "pool-open"
    chunks = page_chunks(opened["pages"], 3 * (helpers + 1))
    for i, chunk in enumerate(chunks):
        if i % (helpers + 1) == 0:   # the coordinator's own runs stay where they are
            kept = app.pool_analyse(job_id, chunk, lambda: ticks.append(1), lambda: False, False)
            assert kept["type"] == "pool-pages" and "packed" not in kept
            continue
        sent = workers[i % (helpers + 1) - 1].pool_analyse(job_id, chunk, lambda: ticks.append(1), lambda: False, True)
        assert sent["type"] == "pool-pages" and sent["pages"] == chunk, sent
        assert app.pool_receive(job_id, sent["packed"], sent["missingFontData"]) is None
    assert len(ticks) == len(opened["pages"])
    return app.pool_finish(job_id)


@pytest.fixture(scope="module")
def long_pdf() -> bytes:
    from test_parallel import long_document

    return long_document()


@pytest.mark.parametrize("options", [{}, {"mode": "preserve", "markers": True}, {"mode": "layout"},
                                     {"mode": "json"}, {"mode": "markdown"}, {"pages": "2-30", "bom": True},
                                     {"dehyphenate": False, "pageBreaks": False}])
def test_a_pooled_conversion_gives_the_one_worker_message(long_pdf, options):
    _, alone = run(long_pdf, options)
    together = pooled(long_pdf, options)
    for message in (alone, together):
        message.pop("seconds")
    assert together == alone


def test_pool_open_reports_the_selected_pages_or_the_conversion_s_error(long_pdf):
    assert app.pool_open(3, long_pdf, {"pages": "2-4,9"}) == {"type": "pool-open", "id": 3, "pages": [2, 3, 4, 9]}
    assert app.pool_open(3, b"not a pdf", {})["kind"] == "not-pdf"
    assert app.pool_open(3, long_pdf, {"mode": "poetry"})["kind"] == "bad-options"


def test_pool_calls_for_another_conversion_or_a_closed_one_are_errors_not_exceptions(long_pdf):
    app.pool_open(4, long_pdf, {})
    assert app.pool_analyse(5, [1], lambda: None, lambda: False, True)["type"] == "error"
    assert app.pool_receive(5, b"", ())["type"] == "error"
    app.pool_close(4)
    assert app.pool_finish(4)["type"] == "error"


def test_the_coordinator_hands_pages_on_to_the_document_passes_as_they_come_in_order(long_pdf):
    """A helper's run (and the coordinator's own) that comes next in document order goes to the
    document passes when it arrives, not at pool_finish: what is left after the last page is less,
    and those pages' whole layouts are not held until the end; a run further on waits its turn."""
    pages = app.pool_open(9, long_pdf, {})["pages"]
    helper = _another_worker(9)
    assert helper.pool_open(9, long_pdf, {})["type"] == "pool-open"
    split = app._pool_job.split
    later = app.pool_analyse(9, pages[-2:], lambda: None, lambda: False, False)   # the coordinator's, from the end
    assert later["type"] == "pool-pages" and split.missing() == pages[:-2] and len(split._pages) == 2
    sent = helper.pool_analyse(9, pages[:5], lambda: None, lambda: False, True)
    assert app.pool_receive(9, sent["packed"], sent["missingFontData"]) is None
    assert split._fed == 5 and sorted(split._pages) == pages[-2:]   # handed on; the last two wait their turn
    app.pool_analyse(9, pages[5:-2], lambda: None, lambda: False, False)
    assert split._fed == len(pages) and not split._pages
    final = app.pool_finish(9)
    _, alone = run(long_pdf, {})
    for message in (final, alone):
        message.pop("seconds")
        message.pop("id")
    assert final == alone


def test_finishing_before_every_page_is_in_is_an_error(long_pdf):
    app.pool_open(6, long_pdf, {"pages": "1-3"})
    app.pool_analyse(6, [1, 3], lambda: None, lambda: False, False)
    final = app.pool_finish(6)
    assert final["type"] == "error" and "[2]" in final["message"]


def test_a_pooled_run_stops_between_pages_when_cancelled(long_pdf):
    app.pool_open(8, long_pdf, {})
    ticks = []
    final = app.pool_analyse(8, [1, 2, 3, 4], lambda: ticks.append(1), lambda: len(ticks) >= 2, True)
    assert final == {"type": "cancelled", "id": 8}
    assert len(ticks) == 2
def test_ocr_in_two_passes_asks_the_page_to_render_what_tesseract_js_cannot_read():
    from test_ocr import scan_pdf

    jbig2 = [{"Filter": "/JBIG2Decode", "BitsPerComponent": 1, "data": b"\x00" * 20}]
    jpx = [{"Filter": "/JPXDecode", "data": b"\x00\x00\x00\x0cjP  "}]
    first = app.images_for_ocr(3, scan_pdf(jbig2 + jpx, pages=3, rotate=90), {})
    requests = first["images"]
    assert [(i["page"], i["format"], i["dpi"]) for i in requests] == [(1, "render", 300), (2, "render", 300),
                                                                      (3, "render", 300)]
    # the viewer's size at 300 dpi: the page turned by /Rotate 90 is 792 × 612 points
    assert (requests[0]["width"], requests[0]["height"]) == (3300, 2550)
    assert len({i["key"] for i in requests}) == 3   # each page its own key
    # words in the rendered page's pixels land where the page shows them: top left, in reading order
    words = {requests[0]["key"]: [{"text": "Rendered", "bbox": [300, 300, 700, 360], "confidence": 91, "line": 1},
                                  {"text": "page", "bbox": [730, 300, 900, 360], "confidence": 93, "line": 1}]}
    final = app.convert(4, scan_pdf(jbig2 + jpx, pages=3, rotate=90), {"mode": "json"}, [].append, lambda: False,
                        ocr_words=words)
    page = json.loads(final["text"])["pages"][0]
    (line,) = [line for block in page["blocks"] for line in block["lines"]]
    assert line["text"] == "Rendered page" and final["pages"][0]["ocr"]["rendered"]
    # (the line's top comes from its baseline and size, a few points off the word box's top)
    assert line["bbox"][0] == pytest.approx(72, abs=1) and line["bbox"][1] == pytest.approx(72, abs=5)
