"""One document's pages analysed in several processes (the CLI's and the library's `jobs`).

Worker processes each open the document once and analyse runs of consecutive pages, and so
does the calling process (from the last run backwards); it runs the document-wide passes
itself, so the output is byte-identical to one process. The split (open, analyse, pack,
unpack, finish) is glyphline.split's SplitExtraction, which the web app's browser workers
use too; Pyodide has no processes, so this module is never imported there.
"""
from __future__ import annotations

from typing import Any, Callable

from .extract import CancelSignal, ProgressCallback, Result, _check_cancel, _options, extract_text
from .limits import Limits
from .options import ExtractOptions
from .split import SplitExtraction

MIN_PAGES_PER_WORKER = 16   # below this a worker's start and its own parse of the file cost more than it saves
CHUNKS_PER_WORKER = 4       # several runs per worker, so one slow run (a page of figures) does not idle the rest

_worker_split: SplitExtraction | None = None   # each worker process opens the document once


def extract_text_parallel(data: bytes, options: ExtractOptions | None = None, /, *, jobs: int,
                          limits: Limits | None = None, on_progress: ProgressCallback | None = None,
                          cancel: CancelSignal = None, write: Callable[[str], Any] | None = None,
                          **option_values: Any) -> Result:
    """extract_text with the page analysis spread over up to `jobs` processes. Same Result,
    same text, same errors; a document too short to be worth it runs in this process."""
    options = _options(options, option_values)
    split = SplitExtraction(data, options, limits, write=write)
    numbers = split.numbers
    workers = min(jobs, len(numbers) // MIN_PAGES_PER_WORKER)
    if workers < 2 or _daemonic():
        return extract_text(data, options, limits=limits, on_progress=on_progress, cancel=cancel, write=write)
    from concurrent.futures import ProcessPoolExecutor   # here: a short file's process never pays its import

    chunks = page_chunks(numbers, workers * CHUNKS_PER_WORKER)
    done = 0

    def progress(pages: int) -> None:
        nonlocal done
        done += pages
        if on_progress is not None:
            on_progress(done, len(numbers))

    with ProcessPoolExecutor(max_workers=workers - 1, initializer=_open_in_worker,
                             initargs=(data, options, limits)) as pool:
        futures = [pool.submit(_analyse_chunk, chunk) for chunk in chunks]
        try:
            # this process is one of the workers (its pages are neither reopened nor pickled): it
            # takes the runs no worker has started yet, from the end, until it meets the others
            analysed_here = set()
            for i in reversed(range(len(chunks))):
                if not futures[i].cancel():
                    break
                _check_cancel(cancel)
                split.analyse(chunks[i])
                analysed_here.add(i)
                progress(len(chunks[i]))
            for i, future in enumerate(futures):
                if i not in analysed_here:
                    _check_cancel(cancel)
                    split.add_packed(future.result())
                    futures[i] = None   # its packed pages are in: the future lets them go
                    split.feed()        # the pages next in order go to the document passes, their layouts with them
                    progress(len(chunks[i]))
        except BaseException:
            for future in futures:
                if future is not None:
                    future.cancel()
            raise
    return split.finish()


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


def _open_in_worker(data: bytes, options: ExtractOptions, limits: Limits | None) -> None:
    global _worker_split
    _worker_split = SplitExtraction(data, options, limits)


def _analyse_chunk(numbers: list[int]) -> bytes:
    """The run's pages packed (glyphline.packed_pages): pickling the layouts themselves cost
    30–40 % of the analysis."""
    assert _worker_split is not None, "the pool's initializer opens the document"
    _worker_split.analyse(numbers)
    return _worker_split.take_packed(numbers)
