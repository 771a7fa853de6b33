"""The library call: PDF bytes → text in one of four modes, page by page or whole.

    result = extract_text(data, mode="reflow", pages="1-3,7")
    result.text, result.pages, result.scan, result.warnings

extract_text works in two passes: every selected page is analysed into a PageLayout first,
then the dehyphenation vocabulary is built over the whole document and the pages are
rendered. iter_pages renders each page as soon as it is analysed, with the vocabulary of the
pages seen so far. Both call `on_progress(done, total)` after each page and check `cancel`
between pages. No threads or processes here: the browser worker runs this same code.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from .document import Document, fewer_collections, short_error
from .document import open as open_document
from .errors import Cancelled
from .layout import collect_doc_stats, needs_document_stats
from .layout.hyphenation import Vocabulary
from .layout.model import PageLayout
from .limits import Limits
from .options import ExtractOptions, OutputMode, PageSpec
from .output import DocumentContext, PageContext, Renderer, renderer
from .layout.across_pages import build_vocabulary, join_across_pages
from .output.text import PAGE_MARKER, join_pages  # noqa: F401 (join_pages, PAGE_MARKER: public here too)

MODES = tuple(mode.value for mode in OutputMode)
MIN_CHARS_PER_PAGE = 12   # the rule: fewer characters per page on average means no text layer
SCAN_IMAGE_COVERAGE = 0.25  # a page without text is a scan when images cover this much of it (else it is blank)
# rule UNMAPPED_PAGE: a page with too few characters whose fonts dropped more glyphs than they gave
# is not a scan: its text is there but has no character mapping. Over an image covering the page
# (a scan with a few stamped glyphs) it takes this many dropped glyphs to say so.
UNMAPPED_OVER_IMAGE_MIN = MIN_CHARS_PER_PAGE
MAX_PAGE_SPEC_LENGTH = 10_000  # a page spec longer than this is a mistake, not a request
STATS_WINDOW_PAGES = 50   # iter_pages: a short page borrows statistics from at most this many previous pages
BOM = "\ufeff"

ProgressCallback = Callable[[int, int], Any]
CancelSignal = Any  # a callable returning True to stop, or an object with is_set() (threading.Event)


@dataclass
class PageResult:
    number: int                 # 1-based page number in the document
    text: str                   # the page rendered in the requested mode (the page's JSON object in json mode)
    char_count: int             # characters of text found on the page
    warnings: list[str] = field(default_factory=list)
    scan: bool = False          # an image page with fewer than MIN_CHARS_PER_PAGE characters: needs OCR
    unmapped: bool = False      # too few characters because the fonts have no character mapping (not a scan)
    unmapped_glyphs: int = 0    # glyphs left out because their font gives no Unicode


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
        warnings.append(f"the document has {page_count} page(s); pages from {min(beyond)} on were asked for and skipped")
    return sorted(chosen), warnings


# ----------------------------------------------------------------------------- the calls

def extract_text(data: bytes, options: ExtractOptions | None = None, /, *, limits: Limits | None = None,
                 on_progress: ProgressCallback | None = None, cancel: CancelSignal = None,
                 **option_values: Any) -> Result:
    """The whole text. Options come as an ExtractOptions, as keywords (mode="json",
    pages="1-3"), or both (keywords win). Raises NotAPDF, PasswordRequired, DamagedPDF,
    BudgetExceeded, Cancelled, or ValueError for a bad mode or page spec."""
    options = _options(options, option_values)
    render = renderer(options.mode)
    with fewer_collections():   # the layouts of every page are kept until the end: never rescan them
        document = open_document(data, password=options.password, limits=limits, annotations=options.annotations)
        numbers, selection_warnings = select_pages(options.pages, document.page_count)
        analysed: list[tuple[PageLayout, list[str], int]] = []
        for done, number in enumerate(numbers, 1):
            _check_cancel(cancel)
            analysed.append(_analyse(document, number))
            if on_progress is not None:
                on_progress(done, len(numbers))
        analysed = _with_document_stats(document, analysed)
        vocabulary = _vocabulary([layout for layout, _, _ in analysed], options)
        if vocabulary is not None:   # "en-" | "code": the word is joined on the first page
            joined = join_across_pages([layout for layout, _, _ in analysed], vocabulary)
            analysed = [(layout, warnings, rotation) for layout, (_, warnings, rotation) in zip(joined, analysed)]
        results = [_render(render, layout, warnings, rotation, vocabulary, options.dehyphenate)
                   for layout, warnings, rotation in analysed]
        scan = scan_report(results)
        unmapped = unmapped_report(results)
        document_warnings = list(document.warnings) + selection_warnings
        text = render.document(results, DocumentContext(
            page_count=document.page_count, metadata=document.metadata, scan=scan.as_dict() if scan else None,
            unmapped=unmapped.as_dict() if unmapped else None, warnings=document_warnings,
            markers=options.markers, page_breaks=options.page_breaks))
        if options.bom:
            text = BOM + text
        return Result(text=text, pages=results, scan=scan, warnings=document_warnings + _page_warnings(results),
                      page_count=document.page_count, metadata=dict(document.metadata),
                      document_warnings=document_warnings, unmapped=unmapped)


def iter_pages(data: bytes, options: ExtractOptions | None = None, /, *, limits: Limits | None = None,
               on_progress: ProgressCallback | None = None, cancel: CancelSignal = None,
               **option_values: Any) -> Iterator[PageResult]:
    """PageResults one at a time; stops quietly when `cancel` is set. Opening errors are raised
    on the first next(). Options as for extract_text (markers, page_breaks and bom concern the
    joined text and do not apply)."""
    options = _options(options, option_values)
    render = renderer(options.mode)
    document = open_document(data, password=options.password, limits=limits, annotations=options.annotations)
    numbers, _ = select_pages(options.pages, document.page_count)
    vocabulary = Vocabulary() if _dehyphenating(options) else None
    seen: list[PageLayout] = []
    for done, number in enumerate(numbers, 1):
        if _cancel_requested(cancel):
            return
        layout, warnings, rotation = _analyse(document, number)
        if seen and needs_document_stats(layout):
            layout, warnings, rotation = _analyse(document, number, collect_doc_stats(seen[-STATS_WINDOW_PAGES:]))
        seen.append(layout)
        if vocabulary is not None:
            vocabulary.update(build_vocabulary([layout]))
        result = _render(render, layout, warnings, rotation, vocabulary, options.dehyphenate)
        if on_progress is not None:
            on_progress(done, len(numbers))
        yield result


def scan_report(pages: list[PageResult]) -> ScanReport | None:
    """None when every page has a text layer; otherwise which pages lack one."""
    empty = [p.number for p in pages if p.scan]
    total = sum(p.char_count for p in pages)
    # the rule (too few characters per page) — but a tiny text-only file is text, not a scan,
    # and neither are pages whose fonts have no character mapping (unmapped_report)
    if pages and total / len(pages) < MIN_CHARS_PER_PAGE and (empty or (total == 0 and not any(p.unmapped for p in pages))):
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


def _cancel_requested(cancel: CancelSignal) -> bool:
    if cancel is None:
        return False
    is_set = getattr(cancel, "is_set", None)
    return bool(is_set() if callable(is_set) else cancel())


def _check_cancel(cancel: CancelSignal) -> None:
    if _cancel_requested(cancel):
        raise Cancelled("extraction was cancelled")


def _analyse(document: Document, number: int, doc_stats=None) -> tuple[PageLayout, list[str], int]:
    with fewer_collections():  # interpretation and layout both allocate ~10⁵ small acyclic objects
        return _analyse_page(document, number, doc_stats)


def _analyse_page(document: Document, number: int, doc_stats=None) -> tuple[PageLayout, list[str], int]:
    from .layout import analyze_page, fallback_layout

    page = document.page(number - 1)
    glyphs = page.glyphs  # interpreting the page fills page.warnings (the interpreter isolates its own failures)
    facts = {"image_coverage": page.image_coverage, "unmapped_glyphs": page.unmapped_glyphs}
    failure = []
    try:
        layout = analyze_page(glyphs, page.width, page.height, number, doc_stats, **facts)
    except Exception as exc:  # a bug on one page costs that page's layout, never the document
        if _debugging():
            raise
        layout = fallback_layout(glyphs, page.width, page.height, number, **facts)
        failure.append(f"page {number} could not be laid out ({short_error(exc)}); its text is given in drawing order")
    warnings = list(page.warnings) + [w for w in layout.warnings if w not in page.warnings] + failure
    return layout, warnings, page.rotation


def _debugging() -> bool:
    """GLYPHLINE_DEBUG=1: let a bug raise with its traceback instead of becoming a page warning."""
    return bool(os.environ.get("GLYPHLINE_DEBUG"))


def _with_document_stats(document: Document, analysed: list[tuple[PageLayout, list[str], int]]):
    """Second look at the pages that were short of evidence, with the whole document's statistics."""
    short = [i for i, (layout, _, _) in enumerate(analysed) if needs_document_stats(layout)]
    if not short or len(short) == len(analysed):
        return analysed  # nothing to fix, or no page has more evidence than the others
    stats = collect_doc_stats([layout for layout, _, _ in analysed])
    for i in short:
        analysed[i] = _analyse(document, analysed[i][0].number, stats)
    return analysed


def _dehyphenating(options: ExtractOptions) -> bool:
    return options.mode is OutputMode.REFLOW and options.dehyphenate


def _vocabulary(layouts: list[PageLayout], options: ExtractOptions) -> Vocabulary | None:
    return build_vocabulary(layouts) if _dehyphenating(options) else None


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
        warnings = warnings + [f"page {layout.number} could not be rendered ({short_error(exc)}); it is left empty"]
    return PageResult(number=layout.number, text=text, char_count=layout.char_count, warnings=warnings, scan=scan,
                      unmapped=unmapped, unmapped_glyphs=layout.unmapped_glyphs)


def _lacks_text(layout: PageLayout) -> bool:
    """A scan: too few characters, images over the page, and not an UNMAPPED_PAGE."""
    return (layout.char_count < MIN_CHARS_PER_PAGE and layout.image_coverage >= SCAN_IMAGE_COVERAGE
            and not _lacks_mapping(layout))


def _lacks_mapping(layout: PageLayout) -> bool:
    """Rule UNMAPPED_PAGE (see the constant)."""
    dropped = layout.unmapped_glyphs
    return (layout.char_count < MIN_CHARS_PER_PAGE and dropped > layout.char_count
            and (dropped >= UNMAPPED_OVER_IMAGE_MIN or layout.image_coverage < SCAN_IMAGE_COVERAGE))


def _page_warnings(results: list[PageResult]) -> list[str]:
    out = []
    for result in results:
        prefix = f"page {result.number}"
        out.extend(w if w.startswith((prefix + " ", prefix + ":")) else f"{prefix}: {w}" for w in result.warnings)
    return out


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
