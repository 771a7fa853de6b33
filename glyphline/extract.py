"""The library call: PDF bytes → text in one of the output modes, page by page or whole.

    result = extract_text(data, mode="reflow", pages="1-3,7")
    result.text, result.pages, result.scan, result.warnings

extract_text works in two passes: every selected page is analysed into a PageLayout first,
then the dehyphenation vocabulary is complete and the pages are rendered (DocumentPasses keeps
of each page only what the passes after it read, so memory stays flat over a long document). iter_pages renders each page as soon as it is analysed, with the vocabulary of the
pages seen so far. Both call `on_progress(done, total)` after each page and check `cancel`
between pages. No threads or processes here: the browser worker runs this same code.
"""
from __future__ import annotations

import io
import os
import pickle
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Callable, Iterator

from .document import Document, fewer_collections, short_error, whole_bytes
from .document import open as open_document
from .errors import Cancelled
from .layout import add_evidence, collect_doc_stats, doc_stats_from, needs_document_stats, stats_evidence
from .layout.hyphenation import PendingJoins, Vocabulary, resolve_joins
from .layout.model import AnalysisNeeds, PageLayout
from .limits import Limits
from .notices import on_page, warning
from .options import ExtractOptions, OutputMode, PageSpec
from .output import DocumentContext, PageContext, Renderer, page_joiner, renderer
from .textlayer import MIN_CHARS_PER_PAGE, SCAN_IMAGE_COVERAGE, lacks_mapping, lacks_text_layer  # noqa: F401 (public here too)
from .layout.across_pages import (build_vocabulary, count_words, ends_apart, join_across_pages,
                                  reflow_text_only, resolve_tail)
from .output.text import PAGE_MARKER, join_pages  # noqa: F401 (join_pages, PAGE_MARKER: public here too)

if TYPE_CHECKING:   # the OCR stage and images are loaded only by the calls that use them
    from .content.ocr import OcrEngine
    from .images import PageImage

MODES = tuple(mode.value for mode in OutputMode)
MAX_PAGE_SPEC_LENGTH = 10_000  # a page spec longer than this is a mistake, not a request
STATS_WINDOW_PAGES = 50   # iter_pages: a short page borrows statistics from at most this many previous pages
BOM = "\ufeff"

ProgressCallback = Callable[[int, int], Any]
CancelSignal = Any  # a callable returning True to stop, or an object with is_set() (threading.Event)


@dataclass(slots=True)   # one is kept for every page of a long document: no dictionary each
class PageResult:
    number: int                 # 1-based page number in the document
    text: str                   # the page rendered in the requested mode (the page's JSON object in json mode)
    char_count: int             # characters of text found on the page
    warnings: list[str] = field(default_factory=list)
    scan: bool = False          # an image page with fewer than MIN_CHARS_PER_PAGE characters: needs OCR
    unmapped: bool = False      # too few characters because the fonts have no character mapping (not a scan)
    unmapped_glyphs: int = 0    # glyphs left out because their font gives no Unicode
    hidden_glyphs: int = 0      # glyphs left out because their optional content layer is hidden
    rotation: int = 0           # the page's /Rotate (0, 90, 180, 270)
    ocr: dict[str, Any] | None = None   # the page was recognised by OCR: words, low_confidence, mean_confidence


@dataclass
class ScanReport:
    """Pages without a text layer. `whole_document` is the issue's rule: the average is too low."""

    whole_document: bool
    pages: list[int]
    message: str

    def as_dict(self) -> dict[str, Any]:
        return {"whole_document": self.whole_document, "pages": list(self.pages), "message": self.message}


@dataclass
class Result:
    text: str
    pages: list[PageResult]
    scan: ScanReport | None
    warnings: list[str]         # every warning: the document's first, then each page's ("page N: ...")
    page_count: int             # pages in the document, selected or not
    metadata: dict[str, str] = field(default_factory=dict)
    document_warnings: list[str] = field(default_factory=list)  # the document's own (repairs, page selection)
    unmapped: ScanReport | None = None   # pages whose fonts have no character mapping (see UNMAPPED_PAGE)
    layouts: list[PageLayout] = field(default_factory=list, repr=False)  # with keep_layouts=True: each page's layout


# ----------------------------------------------------------------------------- page selection

def parse_page_spec(spec: str) -> list[tuple[int, int | None]]:
    """'1-3,7,10-' → [(1, 3), (7, 7), (10, None)]; raises ValueError on anything else."""
    if not isinstance(spec, str):
        raise ValueError("a page spec is a string like '1-3,7'")
    if len(spec) > MAX_PAGE_SPEC_LENGTH:
        raise ValueError("the page spec is too long")
    ranges: list[tuple[int, int | None]] = []
    for part in spec.split(","):
        part = part.strip()
        if not part:
            raise ValueError(f"invalid page spec {spec!r}: empty item (use e.g. '1-3,7')")
        first, dash, last = part.partition("-")
        try:
            start = int(first)
            end = None if dash and not last.strip() else int(last if dash else first)
        except ValueError:
            raise ValueError(f"invalid page spec {spec!r}: {part!r} is not a page or a range like 2-5") from None
        if start < 1 or (end is not None and end < 1):
            raise ValueError(f"invalid page spec {spec!r}: pages are numbered from 1")
        if end is not None and end < start:
            raise ValueError(f"invalid page spec {spec!r}: the range {part!r} runs backwards")
        ranges.append((start, end))
    return ranges


def select_pages(spec: PageSpec, page_count: int) -> tuple[list[int], list[str]]:
    """The selected 1-based page numbers in document order, and warnings for pages past the end."""
    if spec is None:
        return list(range(1, page_count + 1)), []
    if isinstance(spec, str):
        ranges = parse_page_spec(spec)
    else:
        ranges = []
        for number in spec:
            if isinstance(number, bool) or not isinstance(number, int):
                raise ValueError(f"page numbers must be integers, got {number!r}")
            if number < 1:
                raise ValueError(f"pages are numbered from 1, got {number}")
            ranges.append((number, number))
    chosen: set[int] = set()
    beyond: set[int] = set()
    for start, end in ranges:
        stop = page_count if end is None else end
        chosen.update(range(start, min(stop, page_count) + 1))  # bounded by the document, not the spec
        if end is not None and end > page_count:
            beyond.add(max(start, page_count + 1))
    warnings = []
    if beyond:
        warnings.append(warning("pages-beyond-end", count=page_count, first=min(beyond)))
    return sorted(chosen), warnings


# ----------------------------------------------------------------------------- the calls

def extract_text(data: bytes, options: ExtractOptions | None = None, /, *, limits: Limits | None = None,
                 on_progress: ProgressCallback | None = None, cancel: CancelSignal = None, jobs: int = 1,
                 keep_layouts: bool = False, ocr_engine: OcrEngine | None = None,
                 write: Callable[[str], Any] | None = None, **option_values: Any) -> Result:
    """The whole text. Options come as an ExtractOptions, as keywords (mode="json",
    pages="1-3"), or both (keywords win). Raises NotAPDF, PasswordRequired, DamagedPDF,
    BudgetExceeded, Cancelled, or ValueError for a bad mode or page spec. `jobs` > 1 analyses
    the pages of a long document in that many processes (glyphline.parallel; same result).
    `keep_layouts` hands back each page's PageLayout (blocks, lines, words, tags) in
    Result.layouts. With `ocr="eng"` the pages without a text layer are recognised by tesseract
    (raises OcrUnavailable when it or the language is missing), or by `ocr_engine` when one is
    given (the browser's). With `write`, the text is handed to it in pieces, in order, as soon as
    no later page can change them (the text modes; JSON and Markdown in one piece at the end), and
    Result.text and the pages' texts are empty: a long document's text is never held whole.
    `data` is the PDF's bytes, a seekable binary file or a file's path: a file is read through
    (pypdf reads the objects it needs), never held whole."""
    if isinstance(data, (str, os.PathLike)):
        with open(data, "rb") as file:
            return extract_text(file, options, limits=limits, on_progress=on_progress, cancel=cancel, jobs=jobs,
                                keep_layouts=keep_layouts, ocr_engine=ocr_engine, write=write, **option_values)
    options = _options(options, option_values)
    # OCR engines, kept layouts and inspection stay in this process: page-parallel runs only plain extraction
    if jobs > 1 and not keep_layouts and not options.ocr and ocr_engine is None and not options.inspect:
        from .parallel import extract_text_parallel  # processes: never imported in the browser

        return extract_text_parallel(data, options, jobs=jobs, limits=limits, on_progress=on_progress, cancel=cancel,
                                     write=write)
    renderer(options.mode)   # an unknown mode fails before the document is read
    engine = _ocr_engine(options, ocr_engine, data)
    with fewer_collections():
        document = open_document(data, password=options.password, limits=limits, annotations=options.annotations,
                                 ocr=engine, inspect=options.inspect,
                                 paths=analysis_needs(options, keep_layouts).drawing)
        numbers, selection_warnings = select_pages(options.pages, document.page_count)
        if options.pages is None:   # every page: a range, not a list of their numbers (~40 B a page, to the end)
            numbers = range(1, document.page_count + 1)
        passes = DocumentPasses(document, options, keep_layouts=keep_layouts, write=write)
        for done, number in enumerate(numbers, 1):
            _check_cancel(cancel)
            passes.add(*_analyse(document, number, needs=passes.needs))
            if on_progress is not None:
                on_progress(done, len(numbers))
        return passes.finish(selection_warnings)


def finish_document(document: Document, analysed: list[tuple[PageLayout, list[str], int]],
                    options: ExtractOptions, selection_warnings: list[str], *,
                    keep_layouts: bool = False, write: Callable[[str], Any] | None = None) -> Result:
    """The document-wide passes once every page is analysed, wherever that was done (here or in
    worker processes, glyphline.parallel): see DocumentPasses."""
    passes = DocumentPasses(document, options, keep_layouts=keep_layouts, write=write)
    for page in analysed:
        passes.add(*page)
    return passes.finish(selection_warnings)


class DocumentPasses:
    """The document-wide passes, fed the analysed pages in document order: statistics for short
    pages, the dehyphenation vocabulary, cross-page joins, structure (Markdown), rendering and the
    scan report. What is kept of a page is only what a pass needing later pages will read, so
    memory stays flat over a long document: a page whose layout is final (not short of evidence)
    is rendered at once when no pass after it reads it (preserve, layout, json, reflow without
    dehyphenation), or cut down to its text and break words (reflow: the vocabulary is the whole
    document's). Short pages, Markdown and kept layouts keep whole layouts.

    With `write` (the text modes), each rendered page is joined (PageJoiner) and written as soon as
    every page before it is, and its PageResult keeps no text. Reflow does not wait for the
    vocabulary: a page is rendered once the next page is in (the join across their break done),
    its joins the vocabulary decides left as marks (PendingJoins), and its text waits in a spool
    on disk until the vocabulary is complete (resolve_joins). A page that cannot be rendered so
    (short of evidence, tangled joins, a neighbour of a short page) is held: its layout waits, a
    place in the spool stands for it, and the pages after it go on being rendered."""

    def __init__(self, document: Document, options: ExtractOptions, *, keep_layouts: bool = False,
                 write: Callable[[str], Any] | None = None):
        self.document = document
        self.options = options
        self.keep_layouts = keep_layouts
        self.needs = analysis_needs(options, keep_layouts)
        self.render = renderer(options.mode)
        self.vocabulary = Vocabulary() if _dehyphenating(options) else None
        self.keep_whole = keep_layouts or self.render.structured
        self.evidence: tuple = ({}, {})   # every page's stats_evidence folded (add_evidence): all DocStats reads
        self.short: list[int] = []  # pages short of evidence: laid out again with the document's statistics
        self.pages: list = []       # per page: (layout, warnings, rotation), or its PageResult once rendered
        self.write = write
        self.joiner = None if write is None else page_joiner(self.render, markers=options.markers,
                                                                 page_breaks=options.page_breaks)
        self.written = 0            # pages handed to `write` (with a joiner): the first ones, in order
        self.bom = BOM if options.bom else ""   # written before the first piece
        # reflow written as it is made: pages rendered with their joins pending (kept layouts: all of them)
        self.settling = self.joiner is not None and self.vocabulary is not None and not keep_layouts
        self.settled = 0            # pages decided: rendered with pending joins (written or spooled), or held
        self.held: set[int] = set()     # pages rendered at the end (a place in the spool stands for each)
        self.joined = bytearray()   # 1 at each page whose join with the next page is done (a set: ~60 B a page)
        self.tail_marks: dict[int, PendingJoins] = {}   # held pages joined to the next page with a pending mark
        self.short_pages: set[int] = set()
        self.spool: _Spool | None = None

    def add(self, layout: PageLayout, warnings: list[str], rotation: int) -> None:
        add_evidence(self.evidence, stats_evidence(layout))
        self.pages.append((layout, warnings, rotation))
        self.joined.append(0)
        if needs_document_stats(layout):
            self.short.append(len(self.pages) - 1)
            self.short_pages.add(len(self.pages) - 1)
        else:
            self._final(len(self.pages) - 1)
        if self.settling:
            self._settle_ready()
        elif self.joiner is not None and self.vocabulary is None:   # (reflow renders the rest at the end)
            self._write_ready()

    def _settle_ready(self) -> None:
        """Decides the pages that have their next page in: rendered with the joins the vocabulary
        decides pending (written at once when they have none and nothing waits before them, else
        spooled), or held for the end: a short page and its neighbours (laid out again, joined
        once every page is in), a page whose own joins tangle. A held page whose head waits but
        whose last line is not its first is joined to the next page now, so that one goes on."""
        pages = self.pages
        while self.settled + 1 < len(pages):
            i = self.settled
            self.settled += 1
            if i in self.short_pages or i + 1 in self.short_pages:
                self._hold(i)
            elif i and not self.joined[i - 1]:   # its first word may still go to the page before
                if ends_apart(pages[i][0]):
                    pending = PendingJoins()
                    layout, after = join_across_pages([pages[i][0], pages[i + 1][0]], pending)
                    if not pending.tangled:
                        pages[i], pages[i + 1] = (layout, *pages[i][1:]), (after, *pages[i + 1][1:])
                        self.joined[i] = 1
                        if pending.joins:
                            self.tail_marks[i] = pending
                self._hold(i)
            elif not self._settle(i):
                self._hold(i)

    def _settle(self, i: int) -> bool:
        """Page i joined to the next and rendered with its vocabulary joins pending; False (nothing
        changed) when its joins tangle or its rendering fails: then it waits for the vocabulary."""
        pages = self.pages
        (layout, warnings, rotation), following = pages[i], pages[i + 1]
        pending = PendingJoins()
        layout, after = join_across_pages([layout, following[0]], pending)
        result = _render(self.render, layout, warnings, rotation, pending, self.options.dehyphenate)
        if result.warnings is not warnings or not pending.marked(result.text):
            return False
        pages[i + 1] = (after, *following[1:])
        pages[i] = result
        self.joined[i] = 1
        text, result.text = result.text, ""
        if self.spool is None and not pending.joins:
            self._write(self.joiner.page(result.number, text))
            self.written += 1
        else:
            self._spooled().add((result.number, text, pending.joins))
        return True

    def _hold(self, i: int) -> None:
        self.held.add(i)
        self._spooled().add(i)

    def _spooled(self) -> "_Spool":
        if self.spool is None:
            self.spool = _Spool()
        return self.spool

    def _finish_settled(self) -> None:
        """The vocabulary is complete: the held pages joined and rendered, the spool written in
        order with its joins decided, then the pages never decided."""
        pages, vocabulary = self.pages, self.vocabulary
        for i, pending in self.tail_marks.items():
            layout, warnings, rotation = pages[i]
            pages[i] = (resolve_tail(layout, pending.joins, vocabulary), warnings, rotation)
        self.tail_marks = {}
        rest = range(self.settled, len(pages))
        for i in sorted(self.held.union(rest)):   # the joins not made yet, in page order
            if i + 1 < len(pages) and not self.joined[i]:
                joined = join_across_pages([pages[i][0], pages[i + 1][0]], vocabulary)
                pages[i], pages[i + 1] = (joined[0], *pages[i][1:]), (joined[1], *pages[i + 1][1:])
        for record in self.spool or ():
            if type(record) is int:
                self._write_held(record)
            else:
                number, text, joins = record
                self._write(self.joiner.page(number, resolve_joins(text, joins, vocabulary)))
        self.spool = None
        for i in rest:
            self._write_held(i)
        self.written = len(pages)

    def _write_held(self, i: int) -> None:
        layout, warnings, rotation = self.pages[i]
        result = self.pages[i] = _render(self.render, layout, warnings, rotation, self.vocabulary,
                                         self.options.dehyphenate)
        self._write(self.joiner.page(result.number, result.text))
        result.text = ""

    def _write_ready(self) -> None:
        """Writes the rendered pages that follow the ones written, up to the first still waiting."""
        pages, joiner = self.pages, self.joiner
        while self.written < len(pages) and isinstance(pages[self.written], PageResult):
            page = pages[self.written]
            self._write(joiner.page(page.number, page.text))
            page.text = ""   # written: the result keeps the page's facts, not its text
            self.written += 1

    def _write(self, piece: str) -> None:
        if piece:
            self.write(self.bom + piece)
            self.bom = ""

    def _final(self, index: int) -> None:
        """The page's layout will not change again: count its words, then keep only what is still needed."""
        layout, warnings, rotation = self.pages[index]
        if self.vocabulary is not None:
            count_words(self.vocabulary, [layout])
        if self.keep_whole:
            return
        if self.vocabulary is None:   # nothing after this page reads it: render it now
            self.pages[index] = _render(self.render, layout, warnings, rotation, None, self.options.dehyphenate)
        else:
            self.pages[index] = (reflow_text_only(layout), warnings, rotation)

    def finish(self, selection_warnings: list[str]) -> Result:
        document, options = self.document, self.options
        with fewer_collections():
            if self.short and len(self.short) < len(self.pages):   # all short: none has more evidence than the others
                stats = doc_stats_from([self.evidence])
                for i in self.short:
                    self.pages[i] = _analyse(document, self.pages[i][0].number, stats, needs=self.needs)
            for i in self.short:
                self._final(i)
            self.evidence = ({}, {})
            if self.settling:
                self._finish_settled()
            waiting = [i for i, page in enumerate(self.pages) if isinstance(page, tuple)]
            analysed = [self.pages[i] for i in waiting]
            if self.vocabulary is not None:   # "en-" | "code": the word is joined on the first page
                joined = join_across_pages([layout for layout, _, _ in analysed], self.vocabulary)
                analysed = [(layout, warnings, rotation) for layout, (_, warnings, rotation) in zip(joined, analysed)]
                del joined
            if self.render.structured:
                _mark_structure(analysed, [layout for layout, _, _ in analysed])
            kept = [layout for layout, _, _ in analysed] if self.keep_layouts else []
            for k, i in enumerate(waiting):
                layout, warnings, rotation = analysed[k]
                analysed[k] = None   # a rendered page's layout is let go at once: the peak stays one page's
                self.pages[i] = _render(self.render, layout, warnings, rotation, self.vocabulary, options.dehyphenate)
                if self.joiner is not None:
                    self._write_ready()
            if self.joiner is not None:   # short pages rendered above (no vocabulary) were not written yet
                self._write_ready()
            results: list[PageResult] = self.pages
            scan = scan_report(results)
            unmapped = unmapped_report(results)
            document_warnings = list(document.warnings) + selection_warnings + _order_warnings(document, options)
            text = self.render.document(results, DocumentContext(
                page_count=document.page_count, metadata=document.metadata, scan=scan.as_dict() if scan else None,
                unmapped=unmapped.as_dict() if unmapped else None, warnings=document_warnings,
                markers=options.markers, page_breaks=options.page_breaks)) if self.joiner is None else ""
            if options.bom and self.write is None:
                text = BOM + text
            elif self.write is not None:   # the rest of the text, or all of it when it is not written page by page
                self._write(self.joiner.end() if self.joiner is not None else text)
                for page in results:
                    page.text = ""
                if self.bom:   # nothing was written: the mark alone
                    self.write(self.bom)
                text = ""
            return Result(text=text, pages=results, scan=scan, warnings=document_warnings + _page_warnings(results),
                          page_count=document.page_count, metadata=dict(document.metadata),
                          document_warnings=document_warnings, unmapped=unmapped,
                          layouts=kept)


class _Spool:
    """Records kept in a temporary file and read back once, in order: the text of pages rendered
    before the vocabulary is complete waits on disk, not in memory (in memory where no temporary
    file can be made: a read-only system)."""

    def __init__(self):
        import tempfile   # here: only a long reflow written as it is made spools

        try:
            self.file = tempfile.TemporaryFile()
        except OSError:
            self.file = io.BytesIO()
        self.count = 0

    def add(self, record: Any) -> None:
        pickle.dump(record, self.file, pickle.HIGHEST_PROTOCOL)
        self.count += 1

    def __iter__(self) -> Iterator[Any]:
        with self.file:
            self.file.seek(0)
            for _ in range(self.count):
                yield pickle.load(self.file)


def iter_pages(data: bytes, options: ExtractOptions | None = None, /, *, limits: Limits | None = None,
               on_progress: ProgressCallback | None = None, cancel: CancelSignal = None,
               ocr_engine: OcrEngine | None = None, **option_values: Any) -> Iterator[PageResult]:
    """PageResults one at a time; stops quietly when `cancel` is set. Opening errors are raised
    on the first next(). Options as for extract_text (markers, page_breaks and bom concern the
    joined text and do not apply)."""
    options = _options(options, option_values)
    render = renderer(options.mode)
    needs = analysis_needs(options)
    document = open_document(data, password=options.password, limits=limits, annotations=options.annotations,
                             ocr=_ocr_engine(options, ocr_engine, data), inspect=options.inspect, paths=needs.drawing)
    numbers, _ = select_pages(options.pages, document.page_count)
    vocabulary = Vocabulary() if _dehyphenating(options) else None
    seen: list[PageLayout] = []
    for done, number in enumerate(numbers, 1):
        if _cancel_requested(cancel):
            return
        layout, warnings, rotation = _analyse(document, number, needs=needs)
        if seen and needs_document_stats(layout):
            layout, warnings, rotation = _analyse(document, number, collect_doc_stats(seen[-STATS_WINDOW_PAGES:]),
                                                  needs=needs)
        seen.append(layout)
        del seen[:-STATS_WINDOW_PAGES]   # only the window is read: a long document keeps no more layouts
        if vocabulary is not None:
            vocabulary.update(build_vocabulary([layout]))
        if render.structured:   # heading ranks from the pages seen so far (extract_text uses the whole document)
            _mark_structure([(layout, warnings, rotation)], seen[-STATS_WINDOW_PAGES:])
        result = _render(render, layout, warnings, rotation, vocabulary, options.dehyphenate)
        if on_progress is not None:
            on_progress(done, len(numbers))
        yield result


def ocr_images(data: bytes, options: ExtractOptions | None = None, /, *, limits: Limits | None = None,
               **option_values: Any) -> list[tuple[int, str, PageImage]]:
    """(page number, image_key, image) of every image OCR would read on the selected pages without a
    text layer: the browser's first pass (it recognises them, then calls extract_text with
    ocr_engine=recorded_engine(words by key)). A page to be rendered and read whole (JBIG2, JPEG 2000,
    sideways or tiled scans) is an image of format "render" (rendered_page_request). Nothing is
    recognised here."""
    from .content.ocr import OcrEngine, image_key, two_pass_engine

    options = _options(options, option_values)
    found: list[tuple[int, str, PageImage]] = []
    current = [0]

    def record(image: PageImage) -> list:
        found.append((current[0], image_key(image), image))
        return []

    document = open_document(data, password=options.password, limits=limits, annotations=options.annotations,
                             ocr=two_pass_engine(record, "first pass"))
    numbers, _ = select_pages(options.pages, document.page_count)
    for number in numbers:
        current[0] = number
        document.page(number - 1).glyphs
    return found


def scan_report(pages: list[PageResult]) -> ScanReport | None:
    """None when every page has a text layer; otherwise which pages lack one."""
    empty = [p.number for p in pages if p.scan]
    total = sum(p.char_count for p in pages)
    # the rule (too few characters per page) — but a tiny text-only file is text, not a scan,
    # and neither are pages whose fonts have no character mapping (unmapped_report)
    # (nor is a document whose text is all in layers hidden at opening)
    if pages and total / len(pages) < MIN_CHARS_PER_PAGE and (empty or (
            total == 0 and not any(p.unmapped or p.hidden_glyphs for p in pages))):
        return ScanReport(True, empty or [p.number for p in pages],
                          "no text layer: the document looks scanned (image-only) and needs OCR")
    if not empty:
        return None
    listed = _page_list(empty)
    return ScanReport(False, empty, f"{listed} no text layer (image only); OCR may be needed")


def unmapped_report(pages: list[PageResult]) -> ScanReport | None:
    """None unless some pages lack text because their fonts have no character mapping (UNMAPPED_PAGE).

    `whole_document`: the document's text is too short on average and no page is a scan: its
    glyphs are there, but no font says which characters they are (only OCR of the rendered pages
    could read them)."""
    listed = [p.number for p in pages if p.unmapped]
    if not listed:
        return None
    total = sum(p.char_count for p in pages)
    if total / len(pages) < MIN_CHARS_PER_PAGE and not any(p.scan for p in pages):
        return ScanReport(True, listed, "no usable text: the fonts of this document have no character mapping "
                                        "(their glyphs have no Unicode); only OCR of the rendered pages could read it")
    if len(listed) == 1:
        where = f"the fonts of page {listed[0]} have"
    else:
        where = f"the fonts of pages {format_page_ranges(listed)} have"
    return ScanReport(False, listed, f"{where} no character mapping; that text could not be extracted")


# ----------------------------------------------------------------------------- steps

def _options(options: ExtractOptions | None, values: dict[str, Any]) -> ExtractOptions:
    options = options if options is not None else ExtractOptions()
    return options.replace(**values) if values else options


def _ocr_engine(options: ExtractOptions, given: OcrEngine | None, data) -> OcrEngine | None:
    """The injected engine, or tesseract on CPython when OCR languages are asked for."""
    if given is not None:
        return given
    if not options.ocr:
        return None
    from .tesseract import tesseract_engine

    # tesseract's renderer reads the whole file (a copy of it on disk)
    return tesseract_engine(options.ocr, whole_bytes(data), password=options.password)


def _cancel_requested(cancel: CancelSignal) -> bool:
    if cancel is None:
        return False
    is_set = getattr(cancel, "is_set", None)
    return bool(is_set() if callable(is_set) else cancel())


def _check_cancel(cancel: CancelSignal) -> None:
    if _cancel_requested(cancel):
        raise Cancelled("extraction was cancelled")


def analysis_needs(options: ExtractOptions, keep_layouts: bool = False) -> AnalysisNeeds:
    """What the chosen output reads of each page's analysis: word styles, links and elements only
    for structured outputs (Markdown) and callers who keep the layouts; plain text skips the work."""
    detailed = keep_layouts or renderer(options.mode).structured
    # the layout inspector draws the page's rules and marks too
    return AnalysisNeeds(order=options.order, styled=detailed, word_tags=detailed, drawing=detailed or options.inspect)


def _analyse(document: Document, number: int, doc_stats=None, *,
             needs: AnalysisNeeds = AnalysisNeeds()) -> tuple[PageLayout, list[str], int]:
    with fewer_collections():  # interpretation and layout both allocate ~10⁵ small acyclic objects
        return _analyse_page(document, number, doc_stats, needs)


def _analyse_page(document: Document, number: int, doc_stats, needs: AnalysisNeeds) -> tuple[PageLayout, list[str], int]:
    from .layout import analyze_page, fallback_layout

    page = document.page(number - 1)
    glyphs = page.glyphs  # interpreting the page fills page.warnings (the interpreter isolates its own failures)
    facts = {"image_coverage": page.image_coverage, "unmapped_glyphs": page.unmapped_glyphs,
             "hidden_glyphs": page.hidden_glyphs}
    if needs.styled:
        facts.update(font_styles=page.font_styles, links=page.links)
    structure = document.structure if needs.order != "geometry" else None
    tags = structure.page(number - 1) if structure is not None else None
    # a page laid out again (with document statistics) starts from the interpreter's list, not the last layout's
    dropped = page.dropped.copy() if page.dropped is not None else None
    failure = []
    try:
        layout = analyze_page(glyphs, page.width, page.height, number, doc_stats, **facts, tags=tags, needs=needs,
                              dropped=dropped, drawing=page.drawing if needs.drawing else None,
                              figures=structure.figures.get(number - 1, ()) if structure is not None else ())
    except Exception as exc:  # a bug on one page costs that page's layout, never the document
        if _debugging():
            raise
        layout = fallback_layout(glyphs, page.width, page.height, number, image_coverage=page.image_coverage,
                                 unmapped_glyphs=page.unmapped_glyphs)
        layout.dropped = page.dropped
        failure.append(warning("layout-failed", page=number, reason=short_error(exc)))
    if page.ocr is not None:
        from .layout.ocr_confidence import attach_confidence

        layout.ocr = page.ocr
        attach_confidence(layout, page.ocr.boxes)
    warnings = list(page.warnings) + [w for w in layout.warnings if w not in page.warnings] + failure
    return layout, warnings, page.rotation


def _debugging() -> bool:
    """GLYPHLINE_DEBUG=1: let a bug raise with its traceback instead of becoming a page warning."""
    return bool(os.environ.get("GLYPHLINE_DEBUG"))


def _order_warnings(document: Document, options: ExtractOptions) -> list[str]:
    if options.order == "tags" and document.structure is None:
        return [warning("not-tagged")]
    return []


def _mark_structure(analysed: list[tuple[PageLayout, list[str], int]], evidence: list[PageLayout]) -> None:
    """Headings, lists, tables and running headers for the structured outputs (layout.structure),
    ranked on the `evidence` pages; a bug costs the structure of a page, never its text."""
    from .layout.structure import HeadingStyles, heading_styles, mark_structure   # the structured outputs only

    try:
        headings = heading_styles(evidence)
    except Exception as exc:
        if _debugging():
            raise
        headings = HeadingStyles()
        for _, warnings, _ in analysed[:1]:
            warnings.append(warning("headings-unranked", reason=short_error(exc)))
    for layout, warnings, _ in analysed:
        try:
            mark_structure(layout, headings)
        except Exception as exc:
            if _debugging():
                raise
            layout.blocks = [replace(block, kind="paragraph", level=0, marker="") for block in layout.blocks]
            warnings.append(warning("structure-failed", page=layout.number, reason=short_error(exc)))


def _dehyphenating(options: ExtractOptions) -> bool:
    return options.mode in (OutputMode.REFLOW, OutputMode.MARKDOWN) and options.dehyphenate


def _render(render: Renderer, layout: PageLayout, warnings: list[str], rotation: int,
            vocabulary: Vocabulary | None, dehyphenate: bool) -> PageResult:
    scan = _lacks_text(layout)
    unmapped = _lacks_mapping(layout)
    try:
        text = render.page(layout, PageContext(rotation=rotation, scan=scan, unmapped=unmapped, warnings=warnings,
                                               vocabulary=vocabulary, dehyphenate=dehyphenate))
    except Exception as exc:  # a bug in one page's rendering costs that page, never the document
        if _debugging():
            raise
        text = ""
        warnings = warnings + [warning("render-failed", page=layout.number, reason=short_error(exc))]
    return PageResult(number=layout.number, text=text, char_count=layout.char_count, warnings=warnings, scan=scan,
                      unmapped=unmapped, unmapped_glyphs=layout.unmapped_glyphs, hidden_glyphs=layout.hidden_glyphs,
                      rotation=rotation, ocr=layout.ocr.as_dict() if layout.ocr is not None else None)


def _lacks_text(layout: PageLayout) -> bool:
    return lacks_text_layer(layout.char_count, layout.image_coverage, layout.unmapped_glyphs, layout.hidden_glyphs)


def _lacks_mapping(layout: PageLayout) -> bool:
    return lacks_mapping(layout.char_count, layout.image_coverage, layout.unmapped_glyphs)


def _page_warnings(results: list[PageResult]) -> list[str]:
    return [on_page(w, result.number) for result in results for w in result.warnings]


def _page_list(numbers: list[int]) -> str:
    """'page 3 has' / 'pages 2-5, 9 have': runs are collapsed so 800 pages stay one short line."""
    if len(numbers) == 1:
        return f"page {numbers[0]} has"
    return f"pages {format_page_ranges(numbers)} have"


def format_page_ranges(numbers: list[int]) -> str:
    runs: list[list[int]] = []
    for n in sorted(numbers):
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)
