"""One document's pages analysed in several processes (the CLI's and the library's `jobs`).

Worker processes each open the document once and analyse runs of consecutive pages, and so
does the calling process (from the last run backwards); it puts the page layouts in document
order and runs the document-wide passes itself (extract.finish_document: statistics for short
pages, dehyphenation vocabulary, cross-page joins, rendering, scan report), so the output is
byte-identical to one process.
The pages travel packed (glyphline.packed_pages), as they do between the web app's workers
(app.py's pool calls); Pyodide has no processes, so this module is never imported there.
"""
from __future__ import annotations

from typing import Any

from .document import Document
from .document import open as open_document
from .extract import (CancelSignal, ProgressCallback, Result, _analyse, _check_cancel, _options, _styled,
                      finish_document, select_pages, extract_text)
from .limits import Limits
from .options import ExtractOptions
from .packed_pages import Analysed, pack_pages, unpack_pages

MIN_PAGES_PER_WORKER = 16   # below this a worker's start and its own parse of the file cost more than it saves
CHUNKS_PER_WORKER = 4       # several runs per worker, so one slow run (a page of figures) does not idle the rest

_worker_document: Document | None = None   # each worker process opens the document once


def extract_text_parallel(data: bytes, options: ExtractOptions | None = None, /, *, jobs: int,
                          limits: Limits | None = None, on_progress: ProgressCallback | None = None,
                          cancel: CancelSignal = None, **option_values: Any) -> Result:
    """extract_text with the page analysis spread over up to `jobs` processes. Same Result,
    same text, same errors; a document too short to be worth it runs in this process."""
    options = _options(options, option_values)
    document = open_document(data, password=options.password, limits=limits, annotations=options.annotations,
                             paths=_styled(options))
    numbers, selection_warnings = select_pages(options.pages, document.page_count)
    workers = min(jobs, len(numbers) // MIN_PAGES_PER_WORKER)
    if workers < 2 or _daemonic():
        return extract_text(data, options, limits=limits, on_progress=on_progress, cancel=cancel)
    from concurrent.futures import ProcessPoolExecutor   # here: a short file's process never pays its import

    chunks = page_chunks(numbers, workers * CHUNKS_PER_WORKER)
    results: list[list[Analysed] | None] = [None] * len(chunks)
    done = 0
    with ProcessPoolExecutor(max_workers=workers - 1, initializer=_open_in_worker,
                             initargs=(data, options.password, limits, options.annotations, _styled(options))) as pool:
        futures = [pool.submit(_analyse_chunk, chunk, options.order, _styled(options)) for chunk in chunks]
        try:
            # this process is one of the workers (its pages are neither reopened nor pickled): it
            # takes the runs no worker has started yet, from the end, until it meets the others
            for i in reversed(range(len(chunks))):
                if not futures[i].cancel():
                    break
                _check_cancel(cancel)
                results[i] = [_analyse(document, number, order=options.order, styled=_styled(options))
                              for number in chunks[i]]
                done += len(chunks[i])
                if on_progress is not None:
                    on_progress(done, len(numbers))
            for i, future in enumerate(futures):
                if results[i] is None:
                    _check_cancel(cancel)
                    results[i] = unpack_pages(future.result())
                    done += len(chunks[i])
                    if on_progress is not None:
                        on_progress(done, len(numbers))
        except BaseException:
            for future in futures:
                future.cancel()
            raise
    analysed = [page for chunk in results for page in chunk]   # document order: the passes after need it
    return finish_document(document, analysed, options, selection_warnings)


def page_chunks(numbers: list[int], count: int) -> list[list[int]]:
    """`numbers` cut into at most `count` consecutive runs of near-equal length, in order."""
    count = max(1, min(count, len(numbers)))
    size, extra = divmod(len(numbers), count)
    chunks, start = [], 0
    for i in range(count):
        end = start + size + (1 if i < extra else 0)
        chunks.append(numbers[start:end])
        start = end
    return [chunk for chunk in chunks if chunk]


def _daemonic() -> bool:
    """Inside a multiprocessing.Pool worker, which may not start processes of its own."""
    import multiprocessing

    return multiprocessing.current_process().daemon


def _open_in_worker(data: bytes, password: str, limits: Limits | None, annotations: bool, paths: bool) -> None:
    global _worker_document
    _worker_document = open_document(data, password=password, limits=limits, annotations=annotations, paths=paths)


def _analyse_chunk(numbers: list[int], order: str, styled: bool) -> bytes:
    """The run's pages packed (glyphline.packed_pages): pickling the layouts themselves cost
    30–40 % of the analysis."""
    assert _worker_document is not None, "the pool's initializer opens the document"
    return pack_pages([_analyse(_worker_document, number, order=order, styled=styled) for number in numbers])
