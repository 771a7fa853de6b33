"""One document's extraction split into runs of pages analysed in different places and finished
in one: the web app's pool of browser workers (app.py's pool_* calls) and the worker processes
of `--jobs` (glyphline.parallel) use it. Each place opens the document from the same bytes; the
analysed pages travel packed (glyphline.packed_pages); the place that finishes runs the
document-wide passes (extract.finish_document), so the Result is extract_text's, byte for byte.
"""
from __future__ import annotations

from typing import Any, Callable

from .document import fewer_collections
from .document import open as open_document
from .extract import CancelSignal, DocumentPasses, Result, _analyse, _check_cancel, analysis_needs, select_pages
from .limits import Limits
from .options import ExtractOptions
from .output import renderer
from .packed_pages import Analysed, iter_unpacked, pack_pages


class SplitExtraction:
    """The document opened with `options`; `numbers` are the selected pages, in order.
    Raises what extract_text raises on opening (NotAPDF, PasswordRequired, a bad mode or page spec).
    In the place that finishes, feed() hands the pages that come next in document order to the
    document passes as they arrive, so their whole layouts are let go early; `write` as for
    extract_text."""

    def __init__(self, data: bytes, options: ExtractOptions, limits: Limits | None = None,
                 write: Callable[[str], Any] | None = None):
        renderer(options.mode)   # an unknown mode fails before the document is read, as in extract_text
        self.options = options
        self._needs = analysis_needs(options)
        self.document = open_document(data, password=options.password, limits=limits,
                                      annotations=options.annotations, paths=self._needs.drawing)
        self.numbers, self._selection_warnings = select_pages(options.pages, self.document.page_count)
        self._pages: dict[int, Analysed] = {}
        self._passes = DocumentPasses(self.document, options, write=write)
        self._fed = 0   # the first selected pages, handed to the passes

    def analyse(self, numbers: list[int], on_page: Callable[[], object] | None = None,
                cancel: CancelSignal = None) -> None:
        """Analyses these pages here and keeps them; `on_page` after each, `cancel` checked before each."""
        for number in numbers:
            _check_cancel(cancel)
            self._pages[number] = _analyse(self.document, number, needs=self._needs)
            if on_page is not None:
                on_page()

    def take_packed(self, numbers: list[int]) -> bytes:
        """These pages (analysed here) packed for the place that finishes, and forgotten here."""
        return pack_pages([self._pages.pop(number) for number in numbers])

    def add_packed(self, packed: bytes) -> None:
        """Pages analysed elsewhere (take_packed's bytes). A page next in document order goes to
        the passes as soon as it is unpacked (as feed() would after): a run of 25 pages of prose
        (~150 KB each as whole layouts) is not held whole by the place that finishes."""
        numbers = self.numbers
        with fewer_collections():   # 10⁵ acyclic records made at once
            for page in iter_unpacked(packed):
                number = page[0].number
                if self._fed < len(numbers) and numbers[self._fed] == number:
                    self._passes.add(*page)
                    self._fed += 1
                else:
                    self._pages[number] = page

    def missing(self) -> list[int]:
        return [number for number in self.numbers[self._fed:] if number not in self._pages]

    def feed(self) -> None:
        """Hands the pages that follow the ones fed, up to the first not in yet, to the passes."""
        numbers, pages = self.numbers, self._pages
        with fewer_collections():
            while self._fed < len(numbers) and numbers[self._fed] in pages:
                self._passes.add(*pages.pop(numbers[self._fed]))
                self._fed += 1

    def finish(self) -> Result:
        """The document-wide passes over every selected page (each must be analysed or added)."""
        missing = self.missing()
        if missing:
            raise KeyError(missing[0])
        self.feed()
        return self._passes.finish(self._selection_warnings)
