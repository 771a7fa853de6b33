"""Many PDFs: one record per file that never raises, and the same function over a Dask cluster.

    from glyphline.batch import convert
    record = convert("report.pdf")          # or PDF bytes
    record["status"], record["text"], record["pages"], record["warnings"], record["seconds"]

`convert` is a plain function of a path (or bytes) returning a JSON-ready dict, so any
scheduler can map it: Dask (below, `glyphline[dask]`), Spark (`rdd.map(convert)`), Ray
(`ray.remote(convert)`), multiprocessing. `python -m glyphline.batch` runs it over files and
folders, locally or on a Dask cluster (`--dask ADDRESS`), and writes JSON Lines.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from .errors import BudgetExceeded, Cancelled, DamagedPDF, NotAPDF, PasswordRequired
from .extract import extract_text
from .limits import Limits
from .options import ORDERS, ExtractOptions
from .output.json_out import page_object

# status of a record: what happened to the file, in one word (the CLI's exit codes, by name)
OK = "ok"                    # text extracted (pages may still carry warnings)
SCAN = "scan"                # no text layer: the document is image-only and needs OCR
PASSWORD = "password"        # encrypted, and no (or a wrong) password
NOT_PDF = "not-pdf"
DAMAGED = "damaged"          # damaged beyond repair
BUDGET = "budget"            # over a limit (glyphline.limits)
UNREADABLE = "unreadable"    # the path could not be read
FAILED = "failed"            # an unexpected error in the engine (a bug: please report the file)
WORKER_DIED = "worker-died"  # the Dask worker converting it died (out of memory, killed) on every retry
STATUSES = (OK, SCAN, PASSWORD, NOT_PDF, DAMAGED, BUDGET, UNREADABLE, FAILED, WORKER_DIED)

BYTES_SOURCE = "<bytes>"     # the `source` of a record made from bytes without a name
DEFAULT_PARTITION_FILES = 4  # files per Dask task: few enough that one slow file holds back little


def convert(source: str | os.PathLike | bytes, options: ExtractOptions | None = None, *,
            limits: Limits | None = None, max_seconds: float | None = None, name: str | None = None,
            **option_values: Any) -> dict[str, Any]:
    """One PDF → a record: {"source", "status", "text", "pages", "page_count", "warnings", "error",
    "seconds"}. `pages` holds each page as in the JSON output (schema glyphline/1: blocks, lines,
    words, boxes). A path may be any URL fsspec can open when fsspec is installed (s3://, gs://…).
    `max_seconds` bounds the whole file (checked between pages; each page has its own budget in
    `limits`). Never raises for a bad file: the problem is in `status` and `error`."""
    started = time.perf_counter()
    label = name or (BYTES_SOURCE if isinstance(source, (bytes, bytearray, memoryview)) else os.fspath(source))
    record: dict[str, Any] = {"source": label, "status": OK, "text": "", "pages": [], "page_count": 0,
                              "warnings": [], "error": "", "seconds": 0.0}
    try:
        options = (options or ExtractOptions()).replace(**option_values) if option_values else (options or ExtractOptions())
        data = bytes(source) if isinstance(source, (bytes, bytearray, memoryview)) else read_source(os.fspath(source))
    except ValueError as exc:   # a bad option is the caller's mistake, but a batch still gets its record
        return _failed(record, FAILED, str(exc), started)
    except Exception as exc:
        return _failed(record, UNREADABLE, f"cannot read the file ({_short(exc)})", started)
    try:
        deadline = None if max_seconds is None else started + max_seconds
        result = extract_text(data, options, limits=limits, keep_layouts=True,
                              cancel=None if deadline is None else (lambda: time.perf_counter() > deadline))
    except Cancelled:
        return _failed(record, BUDGET, f"took more than {max_seconds} s", started)
    except PasswordRequired as exc:
        return _failed(record, PASSWORD, str(exc), started)
    except NotAPDF as exc:
        return _failed(record, NOT_PDF, str(exc), started)
    except DamagedPDF as exc:
        return _failed(record, DAMAGED, exc.reason, started)
    except BudgetExceeded as exc:
        return _failed(record, BUDGET, f"{exc} (limit {exc.limit})", started)
    except MemoryError:
        return _failed(record, BUDGET, "out of memory", started)
    except RecursionError:
        return _failed(record, DAMAGED, "structures nested too deeply", started)
    except Exception as exc:   # a bug costs this file's record, never the batch
        return _failed(record, FAILED, f"unexpected error ({_short(exc)})", started)
    record.update(
        text=result.text, page_count=result.page_count, warnings=list(result.warnings),
        status=SCAN if result.scan is not None and result.scan.whole_document else OK,
        pages=[page_object(layout, rotation=page.rotation, scan=page.scan, warnings=page.warnings,
                           unmapped=page.unmapped)
               for layout, page in zip(result.layouts, result.pages)],
    )
    record["seconds"] = round(time.perf_counter() - started, 3)
    return record


def read_source(path: str) -> bytes:
    """A local path, or a URL (scheme://) through fsspec when it is installed."""
    if "://" in path and not path.startswith("file://"):
        import fsspec   # comes with dask; only needed for remote URLs

        with fsspec.open(path, "rb") as f:
            return f.read()
    with open(path.removeprefix("file://"), "rb") as f:
        return f.read()


def pdf_paths(inputs: Iterable[str]) -> list[str]:
    """Files as given, and the *.pdf files under each folder (sorted, recursively)."""
    paths: list[str] = []
    for item in inputs:
        if os.path.isdir(item):
            paths.extend(str(p) for p in sorted(Path(item).rglob("*")) if p.suffix.lower() == ".pdf" and p.is_file())
        else:
            paths.append(item)
    return paths


# ----------------------------------------------------------------------------- Dask

def to_dask_bag(paths: Iterable[str], options: ExtractOptions | None = None, *, limits: Limits | None = None,
                max_seconds: float | None = None, files_per_partition: int = DEFAULT_PARTITION_FILES):
    """A dask.bag of records, one per path (lazy: compute it, or write it with `.map(json.dumps).to_textfiles`).
    Needs `pip install glyphline[dask]`."""
    import dask.bag as db

    paths = list(paths)
    partitions = max(1, -(-len(paths) // max(1, files_per_partition)))
    return db.from_sequence(paths, npartitions=partitions).map(convert, options, limits=limits, max_seconds=max_seconds)


def map_on_dask(client, paths: Iterable[str], options: ExtractOptions | None = None, *,
                limits: Limits | None = None, max_seconds: float | None = None,
                retries: int = 1) -> Iterator[dict[str, Any]]:
    """Records as the files finish on a dask.distributed Client, one task per file. A file whose
    worker dies on every try (it crashed the interpreter, or ran out of memory) becomes a
    record with status "worker-died"; the run goes on."""
    from distributed import as_completed

    paths = list(paths)
    futures = client.map(convert, paths, options=options, limits=limits, max_seconds=max_seconds,
                         retries=retries, pure=False)
    index = {future.key: path for future, path in zip(futures, paths)}
    for future in as_completed(futures):
        try:
            yield future.result()
        except Exception as exc:   # KilledWorker, or a task that could not run: the file's record says so
            yield {"source": index.get(future.key, "?"), "status": WORKER_DIED, "text": "", "pages": [],
                   "page_count": 0, "warnings": [], "error": _short(exc), "seconds": 0.0}
        finally:
            future.release()


# ----------------------------------------------------------------------------- command line

def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m glyphline.batch",
        description="Convert many PDFs to JSON Lines records (one per file: text, pages, warnings, status, seconds).")
    parser.add_argument("inputs", nargs="+", metavar="PATH", help="PDF files, folders (searched for *.pdf) or URLs")
    parser.add_argument("-o", "--output", metavar="FILE", default="-", help="JSON Lines file ('-': standard output)")
    parser.add_argument("--dask", metavar="ADDRESS",
                        help="run on a Dask cluster: a scheduler address (tcp://host:8786), or 'local' for a "
                             "LocalCluster on this machine")
    parser.add_argument("--workers", type=int, default=2, metavar="N", help="workers of --dask local (default 2)")
    parser.add_argument("--mode", default="reflow", help="text mode of the records' text (default reflow)")
    parser.add_argument("--order", default="auto", choices=ORDERS, help="reading order (see glyphline --help)")
    parser.add_argument("--no-pages", action="store_true", help="leave out the per-page JSON (smaller records)")
    parser.add_argument("--max-seconds", type=float, metavar="S", help="time budget of one file (status 'budget' past it)")
    args = parser.parse_args(argv)
    try:
        options = ExtractOptions(mode=args.mode, order=args.order)
    except ValueError as exc:
        parser.error(str(exc))
    paths = pdf_paths(args.inputs)
    out = sys.stdout if args.output == "-" else open(args.output, "w", encoding="utf-8")
    counts: dict[str, int] = {}
    try:
        for record in _records(paths, options, args.dask, args.workers, args.max_seconds):
            counts[record["status"]] = counts.get(record["status"], 0) + 1
            if args.no_pages:
                record.pop("pages", None)
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
    finally:
        if out is not sys.stdout:
            out.close()
    summary = ", ".join(f"{n} {status}" for status, n in sorted(counts.items()))
    sys.stderr.write(f"glyphline.batch: {len(paths)} file(s): {summary or 'nothing to do'}\n")
    return 0 if counts.get(OK, 0) + counts.get(SCAN, 0) == len(paths) else 1


def _records(paths: list[str], options: ExtractOptions, dask: str | None, workers: int,
             max_seconds: float | None) -> Iterator[dict[str, Any]]:
    if not dask:
        for path in paths:
            yield convert(path, options, max_seconds=max_seconds)
        return
    from distributed import Client, LocalCluster

    if dask == "local":
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True) as cluster, Client(cluster) as client:
            yield from map_on_dask(client, paths, options, max_seconds=max_seconds)
    else:
        with Client(dask) as client:
            yield from map_on_dask(client, paths, options, max_seconds=max_seconds)


def _failed(record: dict[str, Any], status: str, message: str, started: float) -> dict[str, Any]:
    record.update(status=status, error=message, seconds=round(time.perf_counter() - started, 3))
    return record


def _short(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()[0][:160] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


if __name__ == "__main__":
    sys.exit(main())
