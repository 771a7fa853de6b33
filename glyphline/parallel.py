"""One document's pages analysed in several processes (the CLI's and the library's `jobs`).

Worker processes each open the document once and analyse runs of consecutive pages, from the
last run backwards, and so does the calling process, from the first run on; it runs the
document-wide passes itself, so the output is byte-identical to one process. Its own pages go
to the passes as soon as each is analysed, and a worker's run waits in a temporary file (not in
this process's memory) until the passes reach it: the calling process's memory does not grow
with the document. The split (open, analyse, pack,
unpack, finish) is glyphline.split's SplitExtraction, which the web app's browser workers
use too; Pyodide has no processes, so this module is never imported there.
"""
from __future__ import annotations

import os
from typing import Any, Callable

from .document import whole_bytes
from .extract import CancelSignal, ProgressCallback, Result, _check_cancel, _options, extract_text
from .limits import Limits
from .options import ExtractOptions
from .split import SplitExtraction

MIN_PAGES_PER_WORKER = 16   # below this a worker's start and its own parse of the file cost more than it saves
CHUNKS_PER_WORKER = 4       # several runs per worker, so one slow run (a page of figures) does not idle the rest
# a run is held whole (~150 KB a page of prose) by its worker, and by this process while it is fed to the
# passes: bounded, so memory does not grow with the document (a run costs ~1 ms of passing and a file)
MAX_CHUNK_PAGES = 25

_worker_split: SplitExtraction | None = None   # each worker process opens the document once
_worker_spool: str | None = None   # the folder a worker leaves its packed runs in (None: they are returned)


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

    chunks = page_chunks(numbers, max(workers * CHUNKS_PER_WORKER, -(-len(numbers) // MAX_CHUNK_PAGES)))
    done = 0

    def progress(pages: int) -> None:
        nonlocal done
        done += pages
        if on_progress is not None:
            on_progress(done, len(numbers))

    with _spool_folder() as spool, ProcessPoolExecutor(max_workers=workers - 1, initializer=_open_in_worker,
                                                       initargs=(_worker_source(data), options, limits, spool)) as pool:
        # the workers start from the last run, so the runs this process takes are the first ones
        futures = [None] * len(chunks)
        for i in reversed(range(len(chunks))):
            futures[i] = pool.submit(_analyse_chunk, chunks[i])
        try:
            # this process is one of the workers (its pages are neither reopened nor pickled): it
            # takes the runs no worker has started yet, from the first, until it meets the others,
            # each page handed to the document passes as soon as it is analysed
            i = 0
            while i < len(chunks) and futures[i].cancel():
                _check_cancel(cancel)
                split.analyse(chunks[i], on_page=split.feed)
                futures[i] = None
                progress(len(chunks[i]))
                i += 1
            for i in range(i, len(chunks)):
                _check_cancel(cancel)
                split.add_packed(_take(futures[i].result()))
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


def _spool_folder():
    """A temporary folder for the workers' packed runs, removed with what is left in it; None (the
    runs come back through the pool) where no temporary folder can be made."""
    import tempfile
    from contextlib import nullcontext

    try:
        return tempfile.TemporaryDirectory(prefix="glyphline-pages-")
    except OSError:
        return nullcontext(None)


def _worker_source(data) -> bytes | tuple[str]:
    """What a worker opens the document from: the bytes, or the path of the file this process reads
    (each worker reopens it and reads through it; a file object is not sent to processes); a file
    without a path is read whole."""
    if isinstance(data, bytes):
        return data
    name = getattr(data, "name", None)
    if isinstance(name, str) and os.path.isfile(name):
        return (name,)
    return whole_bytes(data)


def _open_in_worker(source: bytes | tuple[str], options: ExtractOptions, limits: Limits | None,
                    spool: str | None = None) -> None:
    global _worker_split, _worker_spool
    # a path: the worker keeps its file open for as long as it lives (pypdf reads objects from it lazily)
    data = source if isinstance(source, bytes) else open(source[0], "rb")
    _worker_split = SplitExtraction(data, options, limits)
    _worker_spool = spool


def _analyse_chunk(numbers: list[int]) -> bytes | str:
    """The run's pages packed (glyphline.packed_pages): pickling the layouts themselves cost
    30–40 % of the analysis. Written to a file in the spool folder when there is one: its name
    is returned, and the calling process reads the pages when the passes reach them."""
    assert _worker_split is not None, "the pool's initializer opens the document"
    _worker_split.analyse(numbers)
    packed = _worker_split.take_packed(numbers)
    if _worker_spool is None:
        return packed
    path = os.path.join(_worker_spool, f"{numbers[0]}.pages")
    try:
        with open(path, "wb") as file:
            file.write(packed)
    except OSError:   # a full disk: through the pool after all
        return packed
    return path


def _take(packed: bytes | str) -> bytes:
    """A run's packed pages, read from its file (then removed) when the worker wrote one."""
    if isinstance(packed, bytes):
        return packed
    try:
        with open(packed, "rb") as file:
            return file.read()
    finally:
        os.unlink(packed)
