"""Page-parallel extraction (glyphline.parallel, extract_text(jobs=N), the CLI's --jobs on one
file): the pages are analysed in worker processes, the document-wide passes run after, and
the result is the same as one process's, byte for byte."""
from __future__ import annotations

import dataclasses
import os
import pickle

import pytest
from pdfbuilder import PdfBuilder

from glyphline import cli, parallel
from glyphline.extract import extract_text
from glyphline.options import ExtractOptions
from glyphline.packed_pages import unpack_pages
from glyphline.split import SplitExtraction
from glyphline.layout.model import Block, Line, Word
from glyphline.parallel import MIN_PAGES_PER_WORKER, page_chunks

PAGES = 2 * MIN_PAGES_PER_WORKER + 8   # enough for two workers


def _prose(page: int) -> list[str]:
    return [f"Page {page} opens a paragraph of plain prose that runs",
            f"over several lines, each one set in the same body size, so",
            f"that paragraph {page} reads as one block of words in order."]


def long_document() -> bytes:
    """Prose pages with what only the document-wide passes get right: a word hyphenated across
    two pages that fall in different workers, a vocabulary word seen only on a far page, a
    short page that borrows the other pages' line pitches, and a scanned (image-only) page."""
    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    image = b.stream(bytes(range(16)) * 4, {"Type": "/XObject", "Subtype": "/Image", "Width": 8, "Height": 8,
                                            "ColorSpace": "/DeviceGray", "BitsPerComponent": 8})
    middle = PAGES // 2
    for page in range(1, PAGES + 1):
        lines = _prose(page)
        if page == 3:
            lines[1] = "over several lines about the trans-"
            lines[2] = "mission of text in a long document."
        if page == PAGES - 1:
            lines.append("Every transmission here is plain prose.")   # evidence for 'transmission'
        if page == middle:
            lines[-1] = "and this one ends with a word split at the page's end: docu-"
        if page == middle + 1:
            lines[0] = "ments like this one carry it over to the next page."
        if page == 7:
            lines = lines[:2]   # two lines: too few pitches of its own
        if page == PAGES - 3:
            b.page(b"q 612 0 0 792 0 0 cm /Im1 Do Q", xobjects={"Im1": image})
            continue
        content = b"".join(b"BT /F1 11 Tf 72 %d Td (%s) Tj ET\n" % (700 - 14 * i, line.encode("latin-1"))
                           for i, line in enumerate(lines))
        b.page(content, fonts={"F1": font})
    return b.build()


@pytest.fixture(scope="module")
def document() -> bytes:
    return long_document()


@pytest.mark.parametrize("mode", ["reflow", "preserve", "layout", "json"])
def test_two_processes_give_the_same_result_as_one(document, mode):
    one = extract_text(document, mode=mode, markers=True)
    two = extract_text(document, mode=mode, markers=True, jobs=2)
    assert two.text == one.text
    assert two.warnings == one.warnings
    assert [dataclasses.asdict(p) for p in two.pages] == [dataclasses.asdict(p) for p in one.pages]
    assert two.scan == one.scan and two.scan is not None


def test_the_document_wide_passes_see_every_worker_s_pages(document):
    text = extract_text(document, jobs=2).text
    assert "end: documents\n" in text and "\fments" not in text   # joined across the pages of two workers
    assert "transmission of text" in text             # dehyphenated with a far page's evidence


def test_pages_are_analysed_in_chunks_by_the_workers(document):
    calls: list[tuple[int, int]] = []
    extract_text(document, jobs=2, on_progress=lambda done, total: calls.append((done, total)))
    assert calls[-1] == (PAGES, PAGES)
    assert 1 < len(calls) < PAGES    # one call per chunk of pages, not per page


def test_a_selection_too_short_for_two_workers_runs_in_this_process(document):
    calls: list[tuple[int, int]] = []
    result = extract_text(document, pages="1-5", jobs=4, on_progress=lambda d, t: calls.append((d, t)))
    assert calls == [(n, 5) for n in range(1, 6)]
    assert result.text == extract_text(document, pages="1-5").text


def _text_with_two_jobs(data: bytes) -> str:
    return extract_text(data, jobs=2).text


def test_inside_a_pool_worker_that_may_not_start_processes_it_runs_in_that_worker(document):
    import multiprocessing

    with multiprocessing.get_context("fork").Pool(1) as pool:   # its workers are daemonic
        text = pool.apply(_text_with_two_jobs, (document,))
    assert text == extract_text(document).text


def test_page_chunks_are_consecutive_near_equal_runs_in_order():
    numbers = list(range(3, 40))
    chunks = page_chunks(numbers, 5)
    assert [n for chunk in chunks for n in chunk] == numbers
    assert max(map(len, chunks)) - min(map(len, chunks)) <= 1
    assert page_chunks([1, 2], 8) == [[1], [2]]


def test_layout_records_survive_pickling_with_every_field():
    def filled(cls, **given):
        values = {}
        # Word is a NamedTuple, Line and Block dataclasses: every field gets a value unlike its default
        names = cls._fields if hasattr(cls, "_fields") else [f.name for f in dataclasses.fields(cls)]
        types = cls.__annotations__
        for name in names:
            values[name] = given.get(name, {"float": 1.5, "int": 3, "str": "x", "bool": True}.get(types.get(name), f"{name}!"))
        return cls(**values)

    word = filled(Word, text="word", x0=1.0, y0=2.0, x1=3.0, y1=4.0, size=9.0, font="F", flags=5)
    line = filled(Line, words=[word], x0=1.0, y0=2.0, x1=3.0, y1=4.0, dx=0.0, dy=1.0)
    block = filled(Block, lines=[line], x0=1.0, y0=2.0, x1=3.0, y1=4.0, role="header")
    assert pickle.loads(pickle.dumps(block)) == block


def test_cli_spreads_one_file_s_pages_with_the_same_output(document, tmp_path, capsysbinary):
    pdf = tmp_path / "long.pdf"
    pdf.write_bytes(document)
    outputs = []
    for jobs in ("1", "2"):
        out = tmp_path / f"jobs{jobs}.txt"
        assert cli.main([str(pdf), "--jobs", jobs, "-o", str(out), "--quiet"]) == 0
        outputs.append(out.read_bytes())
    assert outputs[0] == outputs[1] and b"end: documents\n" in outputs[0]


@pytest.mark.parametrize("mode", ["reflow", "preserve"])
def test_pages_analysed_elsewhere_are_fed_to_the_passes_in_order_as_they_arrive(document, mode):
    """SplitExtraction.feed: the pages next in document order go to the document passes as soon
    as they are in (their whole layouts let go), the later ones wait; the result and the written
    text are those of one process."""
    from glyphline.options import ExtractOptions
    from glyphline.split import SplitExtraction

    options = ExtractOptions(mode=mode)
    pieces: list[str] = []
    split = SplitExtraction(document, options, write=pieces.append)
    chunks = page_chunks(split.numbers, 4)
    split.analyse(chunks[-1])      # the last run first, as this process does
    split.feed()
    assert split.missing() == [n for chunk in chunks[:-1] for n in chunk] and len(split._pages) == len(chunks[-1])
    elsewhere = SplitExtraction(document, options)
    for chunk in chunks[:-1]:
        elsewhere.analyse(chunk)
        split.add_packed(elsewhere.take_packed(chunk))
        split.feed()
        assert set(split._pages) <= set(chunks[-1])   # the run came in order: fed at once, only the last run held
    result = split.finish()
    assert not split._pages and "".join(pieces) == extract_text(document, options).text
    assert [page.number for page in result.pages] == split.numbers


def test_a_run_added_in_order_goes_to_the_passes_page_by_page(document, monkeypatch):
    """--jobs 2: a worker's run (up to 25 pages of whole layouts, ~150 KB a page of prose) was
    unpacked whole, then fed; a page next in document order now goes to the passes as soon as it
    is unpacked, so the run is never held whole here. Same text as one process."""
    from glyphline.extract import DocumentPasses
    from glyphline.options import ExtractOptions
    from glyphline.split import SplitExtraction

    options = ExtractOptions()
    pieces: list[str] = []
    split = SplitExtraction(document, options, write=pieces.append)
    elsewhere = SplitExtraction(document, options)
    run = split.numbers[:5]
    elsewhere.analyse(run)
    waiting: list[int] = []
    add = DocumentPasses.add

    def counting_add(self, *page):
        waiting.append(len(split._pages))
        add(self, *page)

    monkeypatch.setattr(DocumentPasses, "add", counting_add)
    split.add_packed(elsewhere.take_packed(run))
    assert waiting == [0] * len(run) and split._fed == len(run)
    split.analyse(split.numbers[len(run):])
    split.finish()
    assert "".join(pieces) == extract_text(document, options).text


def test_this_process_holds_at_most_one_run_of_whole_layouts(document, monkeypatch):
    """Memory over a long document with --jobs: this process takes the first runs and hands each
    page to the passes as soon as it is analysed, and a worker's run is fed as it is read; no
    more than one run's whole layouts wait here at any time (they did: its own last runs, whole,
    until the workers' earlier ones arrived)."""
    from glyphline.split import SplitExtraction

    held: list[int] = []
    feed = SplitExtraction.feed

    def counting_feed(self):
        held.append(len(self._pages))
        feed(self)

    monkeypatch.setattr(SplitExtraction, "feed", counting_feed)
    pieces: list[str] = []
    result = extract_text(document, jobs=2, write=pieces.append)
    longest = max(map(len, page_chunks(list(range(PAGES)), 2 * parallel.CHUNKS_PER_WORKER)))
    assert held and max(held) <= longest
    assert "".join(pieces) == extract_text(document).text and not result.text


def test_a_long_document_is_cut_into_runs_of_bounded_length(document, monkeypatch):
    """The runs are at most MAX_CHUNK_PAGES long however long the document (a run is held whole
    by its worker and while it is fed here); the result is one process's."""
    calls: list[tuple[int, int]] = []
    monkeypatch.setattr(parallel, "MAX_CHUNK_PAGES", 3)
    result = extract_text(document, jobs=2, on_progress=lambda done, total: calls.append((done, total)))
    steps = [b[0] - a[0] for a, b in zip([(0, 0)] + calls, calls)]
    assert max(steps) <= 3 and calls[-1] == (PAGES, PAGES)
    assert result.text == extract_text(document).text


def test_a_worker_s_run_waits_in_a_file_that_is_removed_once_read(document, tmp_path, monkeypatch):
    monkeypatch.setattr(parallel, "_worker_split", None)
    parallel._open_in_worker(document, ExtractOptions(), None, str(tmp_path))
    path = parallel._analyse_chunk([1, 2])
    assert isinstance(path, str) and os.path.dirname(path) == str(tmp_path)
    packed = parallel._take(path)
    assert not os.listdir(tmp_path) and [page[0].number for page in unpack_pages(packed)] == [1, 2]
    parallel._open_in_worker(document, ExtractOptions(), None, None)   # no folder: the run comes back itself
    other = SplitExtraction(document, ExtractOptions())
    other.analyse([3])
    assert parallel._take(parallel._analyse_chunk([3])) == other.take_packed([3])


def test_without_a_temporary_folder_the_runs_come_back_through_the_pool(document, monkeypatch):
    import tempfile

    def no_folder(*args, **kwargs):
        raise OSError("read-only")

    monkeypatch.setattr(tempfile, "TemporaryDirectory", no_folder)
    assert extract_text(document, jobs=2).text == extract_text(document).text
