"""Many PDFs: one record per file that never raises, and the same function over a Dask cluster.

    from glyphline.batch import convert
    record = convert("report.pdf")          # or PDF bytes
    record["status"], record["text"], record["pages"], record["warnings"], record["seconds"]

`convert` is a plain function of a path (or bytes) returning a JSON-ready dict, so any
scheduler can map it: Dask (below, `glyphline[dask]`), Spark (`rdd.map(convert)`), Ray
(`ray.remote(convert)`), multiprocessing. `python -m glyphline.batch` runs it over files and
folders or fsspec URLs, locally or on a Dask cluster (`--dask ADDRESS`), within per-file time
and memory budgets, and writes JSON Lines or Parquet shards (on a cluster writing to a URL, the
workers write the shards themselves: the records never pass through the client).
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import pickle
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

from . import isolation
from .document import open_file
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
CRASHED = "crashed"          # the child process converting it died (a crash in the interpreter, killed)
WORKER_DIED = "worker-died"  # the Dask worker converting it died (out of memory, killed) on every retry
STATUSES = (OK, SCAN, PASSWORD, NOT_PDF, DAMAGED, BUDGET, UNREADABLE, FAILED, CRASHED, WORKER_DIED)

JSONL, PARQUET = "jsonl", "parquet"   # output formats
PARQUET_SHARD_RECORDS = 500  # records per Parquet shard: a few MB of text each, small enough to write as they come
LOCAL = "local"              # --dask local: a LocalCluster on this machine
FREE_PORT = ":0"             # its dashboard: any free port, another cluster here may hold Dask's 8787
DEFAULT_LOCAL_WORKERS = 2
DEFAULT_WORKER_DEATHS = 2    # a file that kills this many workers is given up: once may be bad luck, twice is the file
BYTES_SOURCE = "<bytes>"     # the `source` of a record made from bytes without a name
DEFAULT_PARTITION_FILES = 4  # files per Dask task: few enough that one slow file holds back little
DEFAULT_FILE_SECONDS = 300.0   # batch budget of one file: far above a real file's time, so only a hang reaches it
KILL_GRACE_SECONDS = 1.0     # past max_seconds before a child is killed: its own between-pages check reports first


def convert(source: str | os.PathLike | bytes, options: ExtractOptions | None = None, *,
            limits: Limits | None = None, max_seconds: float | None = None, max_memory_mib: float | None = None,
            isolate: bool | None = None, reuse_child: bool = False, name: str | None = None,
            **option_values: Any) -> dict[str, Any]:
    """One PDF → a record: {"source", "status", "text", "pages", "page_count", "warnings", "error",
    "seconds", "cpu_seconds"}. `pages` holds each page as in the JSON output (schema glyphline/1:
    blocks, lines, words, boxes). A path may be any URL fsspec can open when fsspec is installed
    (s3://, gs://, memory://…). Never raises for a bad file: the problem is in `status` and `error`.

    Budgets: `max_seconds` bounds the whole file, `max_memory_mib` what converting it may allocate.
    With a budget (or `isolate=True`) the file is converted in a forked child process that is
    killed at the deadline, so a file that hangs inside a page, or crashes the interpreter, costs
    only its own record ("budget", "crashed"); where fork is missing (Windows, Pyodide) the time
    budget is checked between pages instead and the memory budget is not enforced.

    `reuse_child=True` converts in this thread's long-lived child (isolation.ServingChild) instead
    of forking one per file: the same budgets without a fork a file, and the engine's stages imported
    once (62–72 against 150–166 ms of CPU a file over 400 wild files); after a hang or a crash the
    next file gets a fresh child. The file is read here, converted there (the child is forked once)."""
    packed = convert_packed(source, options, limits=limits, max_seconds=max_seconds, max_memory_mib=max_memory_mib,
                            isolate=isolate, reuse_child=reuse_child, name=name, **option_values)
    return unpack(packed)


def convert_packed(source: str | os.PathLike | bytes, options: ExtractOptions | None = None, *,
                   limits: Limits | None = None, max_seconds: float | None = None, max_memory_mib: float | None = None,
                   isolate: bool | None = None, reuse_child: bool = False, name: str | None = None,
                   **option_values: Any) -> tuple[bytes, float, float]:
    """`convert`'s record pickled where it was made (in the child), with its seconds and CPU
    seconds beside it, for `unpack`: a Dask worker passes the bytes on as they are, neither
    unpickling nor pickling the record again, nor walking it to learn its size (2–4 ms a file)."""
    label = name or (BYTES_SOURCE if isinstance(source, (bytes, bytearray, memoryview)) else os.fspath(source))
    if isolate is None:
        isolate = max_seconds is not None or max_memory_mib is not None
    if not (isolate and isolation.FORK_AVAILABLE):
        record = convert_in_process(source, options, limits=limits, max_seconds=max_seconds, name=label, **option_values)
        return _pickled(record), record["seconds"], record["cpu_seconds"]
    started = time.perf_counter()
    if reuse_child and not isinstance(source, (bytes, bytearray, memoryview)):
        try:   # read here: the served child was forked earlier, and may not see what this process sees now
            source = read_source(os.fspath(source))
        except Exception as exc:
            record = _failed(_empty_record(label), UNREADABLE, f"cannot read the file ({_short(exc)})", started,
                             time.thread_time())
            return _pickled(record), record["seconds"], record["cpu_seconds"]
    work = partial(_pickled_call, partial(convert_in_process, source, options, limits=limits, max_seconds=max_seconds,
                                          name=label, **option_values))
    deadline = None if max_seconds is None else max_seconds + KILL_GRACE_SECONDS
    if reuse_child:
        _warm_up(options, option_values)
        child = isolation.serving_child(max_memory_mib).call(work, max_seconds=deadline)
    else:
        child = isolation.call_in_child(work, max_seconds=deadline, max_memory_mib=max_memory_mib)
    if child.ending == isolation.RETURNED:
        blob = child.value
    else:
        record = _empty_record(label)
        status = {isolation.TIMED_OUT: BUDGET, isolation.DIED: CRASHED}.get(child.ending, FAILED)
        detail = {isolation.TIMED_OUT: f"took more than {max_seconds} s (stopped inside a page)",
                  isolation.DIED: f"the converting process died ({child.detail}); please report this file"
                  }.get(child.ending, f"unexpected error ({child.detail})")
        record.update(status=status, error=detail)
        blob = _pickled(record)
    return blob, round(time.perf_counter() - started, 3), child.cpu_seconds


def unpack(packed: tuple[bytes, float, float]) -> dict[str, Any]:
    """The record of `convert_packed`, its seconds and CPU seconds those measured around the child.
    The cyclic garbage collector is paused while the record is unpickled: a record is a tree of
    dicts and lists (no cycles to find), and its tens of thousands of new containers would
    otherwise set off collections that walk every record the caller still holds (map_on_dask's
    client: 2.9 → 1.1 ms of CPU a record over 368 wild files)."""
    blob, seconds, cpu_seconds = packed
    collecting = gc.isenabled()
    gc.disable()
    try:
        record = pickle.loads(blob)
    finally:
        if collecting:
            gc.enable()
    record["seconds"], record["cpu_seconds"] = seconds, cpu_seconds
    return record


def _pickled(record: dict[str, Any]) -> bytes:
    return pickle.dumps(record, protocol=pickle.HIGHEST_PROTOCOL)


def _pickled_call(work) -> bytes:
    return _pickled(work())


_warmed: set = set()   # the option sets this process has converted a small file with


def _warm_up(options: ExtractOptions | None, option_values: dict[str, Any]) -> None:
    """Convert a one-line PDF here once per option set, before a served child is forked: the
    stages the engine imports on first use are then the children's from the start, and a child
    forked after a hang or a crash does not spend the next file's budget importing them."""
    key = repr((options, sorted(option_values.items())))
    if key in _warmed:
        return
    _warmed.add(key)
    convert_in_process(_one_line_pdf(), options, **option_values)


def _one_line_pdf() -> bytes:
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /Contents 4 0 R "
               b"/Resources << /Font << /F1 5 0 R >> >> >>",
               b"<< /Length 34 >>\nstream\nBT /F1 12 Tf 20 50 Td (warm) Tj ET\nendstream",
               b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    out, offsets = bytearray(b"%PDF-1.4\n"), []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def convert_in_process(source: str | os.PathLike | bytes, options: ExtractOptions | None = None, *,
                       limits: Limits | None = None, max_seconds: float | None = None, name: str | None = None,
                       **option_values: Any) -> dict[str, Any]:
    """`convert` in this process: `max_seconds` is checked between pages, memory is not bounded."""
    started = time.perf_counter()
    cpu_started = time.thread_time()   # this thread's: a Dask worker's other threads are not the file's
    label = name or (BYTES_SOURCE if isinstance(source, (bytes, bytearray, memoryview)) else os.fspath(source))
    record = _empty_record(label)
    try:
        options = (options or ExtractOptions()).replace(**option_values) if option_values else (options or ExtractOptions())
        data = bytes(source) if isinstance(source, (bytes, bytearray, memoryview)) else open_source(os.fspath(source))
    except ValueError as exc:   # a bad option is the caller's mistake, but a batch still gets its record
        return _failed(record, FAILED, str(exc), started, cpu_started)
    except Exception as exc:
        return _failed(record, UNREADABLE, f"cannot read the file ({_short(exc)})", started, cpu_started)
    try:
        deadline = None if max_seconds is None else started + max_seconds
        result = extract_text(data, options, limits=limits, keep_layouts=True,
                              cancel=None if deadline is None else (lambda: time.perf_counter() > deadline))
    except Cancelled:
        return _failed(record, BUDGET, f"took more than {max_seconds} s", started, cpu_started)
    except PasswordRequired as exc:
        return _failed(record, PASSWORD, str(exc), started, cpu_started)
    except NotAPDF as exc:
        return _failed(record, NOT_PDF, str(exc), started, cpu_started)
    except DamagedPDF as exc:
        return _failed(record, DAMAGED, exc.reason, started, cpu_started)
    except BudgetExceeded as exc:
        return _failed(record, BUDGET, f"{exc} (limit {exc.limit})", started, cpu_started)
    except MemoryError:
        return _failed(record, BUDGET, "out of memory", started, cpu_started)
    except RecursionError:
        return _failed(record, DAMAGED, "structures nested too deeply", started, cpu_started)
    except Exception as exc:   # a bug costs this file's record, never the batch
        return _failed(record, FAILED, f"unexpected error ({_short(exc)})", started, cpu_started)
    finally:
        if not isinstance(data, bytes):
            data.close()
    record.update(
        text=result.text, page_count=result.page_count, warnings=list(result.warnings),
        status=SCAN if result.scan is not None and result.scan.whole_document else OK,
        pages=[page_object(layout, rotation=page.rotation, scan=page.scan, warnings=page.warnings,
                           unmapped=page.unmapped)
               for layout, page in zip(result.layouts, result.pages)],
    )
    record["seconds"] = round(time.perf_counter() - started, 3)
    record["cpu_seconds"] = round(time.thread_time() - cpu_started, 3)
    return record


def open_source(path: str):
    """What convert_in_process extracts from: a local path (or file:// URL) as its open file, read
    through (pypdf reads the objects it needs: a long file is not held whole); any other URL read
    whole through fsspec (read_source): pypdf's seeks would each be a request to the remote store."""
    if _is_url(path) and not path.startswith("file://"):
        return read_source(path)
    return open_file(path.removeprefix("file://"))


def read_source(path: str) -> bytes:
    """A local path, or a URL (scheme://) through fsspec when it is installed."""
    if _is_url(path) and not path.startswith("file://"):
        with _fsspec("reading " + path.split("://", 1)[0] + ":// URLs").open(path, "rb") as f:
            return f.read()
    with open(path.removeprefix("file://"), "rb") as f:
        return f.read()


def pdf_paths(inputs: Iterable[str]) -> list[str]:
    """Files as given, and the *.pdf files under each folder (sorted, recursively). A URL may name
    a folder or a glob on any filesystem fsspec knows (s3://bucket/pdfs/, memory://x/*.pdf)."""
    paths: list[str] = []
    for item in inputs:
        if _is_url(item):
            paths.extend(_url_pdf_paths(item))
        elif os.path.isdir(item):
            paths.extend(str(p) for p in sorted(Path(item).rglob("*")) if _is_pdf_name(p.name) and p.is_file())
        else:
            paths.append(item)
    return paths


def _url_pdf_paths(url: str) -> list[str]:
    fs, root = _fsspec("folders and globs given as URLs").core.url_to_fs(url)
    if any(char in root for char in "*?["):
        found = fs.glob(root)
    elif fs.isdir(root):
        found = [path for path in fs.find(root) if _is_pdf_name(path)]
    else:
        return [url]
    return sorted(fs.unstrip_protocol(path) for path in found)


def _is_url(path: str) -> bool:
    return "://" in path


def _is_pdf_name(name: str) -> bool:
    return name.lower().endswith(".pdf")


def _fsspec(purpose: str):
    try:
        import fsspec
    except ImportError:
        raise MissingExtra(f"{purpose} needs fsspec: pip install 'glyphline[dask]' (or fsspec)") from None
    return fsspec


class MissingExtra(ImportError):
    """An optional dependency is not installed; the message says what to install."""


# ----------------------------------------------------------------------------- writing records

class JsonLinesWriter:
    """Records as JSON Lines, one per line, to a local path, '-' (standard output) or an fsspec URL."""

    def __init__(self, target: str):
        self.target = target
        if target == "-":
            self.stream, self.owned = sys.stdout, False
        elif _is_url(target):
            self.stream, self.owned = _fsspec("writing to a URL").open(target, "w", encoding="utf-8").open(), True
        else:
            self.stream, self.owned = open(target, "w", encoding="utf-8"), True

    def write(self, record: dict[str, Any]) -> None:
        self.stream.write(json.dumps(record, ensure_ascii=False) + "\n")

    def close(self) -> None:
        if self.owned:
            self.stream.close()
        else:
            self.stream.flush()


class ParquetShardWriter:
    """Records as Parquet shards `part-00000.parquet`, … of `records_per_shard` records each, in a
    folder (local or an fsspec URL). `pages` and `warnings` are stored as JSON text and a list of
    strings: one flat schema that every shard shares, whatever its files held."""

    def __init__(self, folder: str, records_per_shard: int = PARQUET_SHARD_RECORDS):
        _pyarrow()
        self.folder = folder.rstrip("/")
        self.records_per_shard = max(1, records_per_shard)
        self.pending: list[dict[str, Any]] = []
        self.shards: list[str] = []
        if _is_url(folder):
            self.fs = _fsspec("writing to a URL").core.url_to_fs(folder)[0]
            self.fs.makedirs(self.fs._strip_protocol(folder), exist_ok=True)
        else:
            self.fs = None
            os.makedirs(folder, exist_ok=True)

    def write(self, record: dict[str, Any]) -> None:
        self.pending.append(record)
        if len(self.pending) >= self.records_per_shard:
            self._flush()

    def close(self) -> None:
        if self.pending or not self.shards:   # an empty run still leaves one (empty) shard with the schema
            self._flush()

    def _flush(self) -> None:
        target = f"{self.folder}/{shard_name(len(self.shards), PARQUET)}"
        if self.fs is None:
            _write_parquet(self.pending, target)
        else:
            with self.fs.open(target, "wb") as f:
                _write_parquet(self.pending, f)
        self.shards.append(target)
        self.pending = []


def _pyarrow():
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError:
        raise MissingExtra("Parquet output needs pyarrow: pip install 'glyphline[dask]' (or pyarrow)") from None
    return pyarrow


def _write_parquet(records: list[dict[str, Any]], target) -> None:
    """Records as one Parquet file (a path or an open binary file), in the one schema of every shard."""
    pyarrow = _pyarrow()
    schema = pyarrow.schema([
        ("source", pyarrow.string()), ("status", pyarrow.string()), ("text", pyarrow.large_string()),
        ("pages", pyarrow.large_string()), ("page_count", pyarrow.int32()),
        ("warnings", pyarrow.list_(pyarrow.string())), ("error", pyarrow.string()),
        ("seconds", pyarrow.float64()), ("cpu_seconds", pyarrow.float64()),
    ])
    rows = [{**{name: record.get(name) for name in schema.names},
             "pages": json.dumps(record["pages"], ensure_ascii=False) if "pages" in record else None}
            for record in records]
    pyarrow.parquet.write_table(pyarrow.Table.from_pylist(rows, schema=schema), target)


def shard_name(number: int, output_format: str, part: int | None = None) -> str:
    """part-00003.parquet; a shard rewritten file by file after its worker died: part-00003-07.parquet."""
    return f"part-{number:05d}" + ("" if part is None else f"-{part:02d}") + "." + output_format


def write_shard(records: list[dict[str, Any]], target: str, output_format: str) -> None:
    """Records as one shard file at `target` (a local path or an fsspec URL): Parquet or JSON Lines."""
    opener = _fsspec("writing to a URL").open if _is_url(target) else open
    if output_format == PARQUET:
        with opener(target, "wb") as f:
            _write_parquet(records, f)
        return
    with opener(target, "w", encoding="utf-8") as f:
        f.writelines(json.dumps(record, ensure_ascii=False) + "\n" for record in records)


def record_writer(target: str, output_format: str, records_per_shard: int = PARQUET_SHARD_RECORDS):
    if output_format == PARQUET:
        return ParquetShardWriter(target, records_per_shard)
    return JsonLinesWriter(target)


# ----------------------------------------------------------------------------- Dask

def to_dask_bag(paths: Iterable[str], options: ExtractOptions | None = None, *, limits: Limits | None = None,
                max_seconds: float | None = DEFAULT_FILE_SECONDS, max_memory_mib: float | None = None,
                files_per_partition: int = DEFAULT_PARTITION_FILES):
    """A dask.bag of records, one per path (lazy: compute it, or write it with `.map(json.dumps).to_textfiles`).
    Needs `pip install glyphline[dask]`."""
    import dask.bag as db

    paths = list(paths)
    partitions = max(1, -(-len(paths) // max(1, files_per_partition)))
    return db.from_sequence(paths, npartitions=partitions).map(
        convert, options, limits=limits, max_seconds=max_seconds, max_memory_mib=max_memory_mib, reuse_child=True)


def map_on_dask(client, paths: Iterable[str], options: ExtractOptions | None = None, *,
                limits: Limits | None = None, max_seconds: float | None = DEFAULT_FILE_SECONDS,
                max_memory_mib: float | None = None, retries: int = 1, reuse_child: bool = True,
                files_per_task: int | None = None) -> Iterator[dict[str, Any]]:
    """Records in input order, converted on a dask.distributed Client (the records that finish
    before a slow file's wait here for it). Each file runs within its budgets (see `convert`): one
    that hangs or crashes gets its record and the worker goes on. A task converts a chunk of files
    (`plan_chunks`: large chunks first, small ones last so the workers finish together;
    `files_per_task=1` gives a task a file): a task costs the client, the scheduler and the worker
    CPU of their own, as much as a small file's conversion. A chunk
    whose worker dies anyway (killed, over the nanny's memory limit), after the scheduler's
    `distributed.scheduler.allowed-failures` retries, is converted again file by file, and a file
    whose worker died then is tried once more alone, so only the file that kills its worker
    becomes a record with status "worker-died"; the run goes on. `retries` re-runs a task that
    raised (convert itself never does; this covers e.g. a worker that cannot import glyphline).
    Each worker thread converts its files in one long-lived child (`reuse_child`, see `convert`)."""
    paths = list(paths)
    yield from map_chunks_on_dask(
        client, paths, convert_chunk, died=_worker_died, unpack=unpack, retries=retries, files_per_task=files_per_task,
        costs=[expected_cost(path) for path in paths] if files_per_task is None else None,
        options=options, limits=limits, max_seconds=max_seconds, max_memory_mib=max_memory_mib, reuse_child=reuse_child)


def map_chunks_on_dask(client, items: list, task: Callable[..., list], *, died: Callable[[Any, BaseException], Any],
                       costs: list[float] | None = None, files_per_task: int | None = None,
                       unpack: Callable[[Any], Any] | None = None, retries: int = 1,
                       **task_arguments: Any) -> Iterator[Any]:
    """The one way glyphline maps files over a Dask cluster (map_on_dask, the CLI's --dask):
    `task(chunk_of_items, **task_arguments)` returns one result per item; this yields
    `unpack(result)` for every item in input order. The chunks are `plan_chunks` of `costs`
    (default: the items' `expected_cost`), or `files_per_task` items each. A chunk whose task
    failed (its worker died on every retry, or it could not run) is run again item by item, and
    an item whose worker died then is tried once more alone, after the rest: an item that still
    fails yields `died(item, exception)` (here, in this process) and the run goes on."""
    from distributed import KilledWorker, as_completed

    threads = max(1, sum(client.nthreads().values()))
    if files_per_task is not None:
        chunks = [range(start, min(len(items), start + files_per_task))
                  for start in range(0, len(items), max(1, files_per_task))]
    else:
        chunks = plan_chunks(costs if costs is not None else [expected_cost(item) for item in items], threads)
    unpack = unpack or (lambda result: result)
    arguments = {**task_arguments, "retries": retries, "pure": False}
    pending: dict[Any, range] = {}   # future → its items' indexes
    for chunk in chunks:
        pending[client.submit(task, items[chunk.start:chunk.stop], **arguments)] = chunk
    finished: dict[int, Any] = {}
    suspects: list[int] = []   # items run again alone whose worker died: maybe beside the item that killed it
    next_index = 0
    running = as_completed(list(pending))
    for future in running:
        chunk = pending.pop(future)
        try:
            finished.update(zip(chunk, map(unpack, future.result())))
        except Exception as exc:   # KilledWorker, or a task that could not run
            if len(chunk) > 1:   # each item alone finds which one it was
                for index in chunk:
                    single = client.submit(task, [items[index]], **arguments)
                    pending[single] = range(index, index + 1)
                    running.add(single)
            elif isinstance(exc, KilledWorker):
                suspects.append(chunk.start)
            else:
                finished[chunk.start] = died(items[chunk.start], exc)
        finally:
            future.release()
        while next_index in finished:
            yield finished.pop(next_index)
            next_index += 1
    for index in suspects:   # one at a time: an item whose worker died beside the killer was not it
        try:
            finished[index] = unpack(client.submit(task, [items[index]], **arguments).result()[0])
        except Exception as exc:
            finished[index] = died(items[index], exc)
    for index in range(next_index, len(items)):
        yield finished.pop(index)


CHUNK_SHARE = 4              # a chunk holds at most 1/(this × worker threads) of the cost not yet planned: the last ones are small
MAX_CHUNK_FILES = 32         # files per task at most: the client gets records as chunks finish, a worker holds few at once
FILE_BASE_COST_BYTES = 64 * 1024   # what every file costs beyond its bytes (parsing, the child's round trip), counted in bytes


def plan_chunks(costs: list[float], threads: int, max_files: int = MAX_CHUNK_FILES) -> list[range]:
    """Consecutive chunks of the files (indexes into `costs`), guided self-scheduling: each takes
    up to 1/(CHUNK_SHARE × threads) of the cost still to plan, so the first chunks are large (few
    tasks) and the last hold a file or two (the threads finish together), at most `max_files`."""
    chunks: list[range] = []
    remaining = float(sum(costs))
    start = 0
    while start < len(costs):
        share = remaining / (CHUNK_SHARE * max(1, threads))
        stop, taken = start + 1, costs[start]
        while stop < len(costs) and stop - start < max_files and taken + costs[stop] <= share:
            taken += costs[stop]
            stop += 1
        chunks.append(range(start, stop))
        remaining -= taken
        start = stop
    return chunks


def expected_cost(path: str | bytes) -> float:
    """A file's expected conversion cost in bytes: its size where it can be seen here (a URL's is not looked up)."""
    if isinstance(path, (bytes, bytearray, memoryview)):   # the PDF itself (the CLI's standard input)
        return FILE_BASE_COST_BYTES + len(path)
    try:
        size = 0 if _is_url(path) else os.stat(path).st_size
    except OSError:   # unreadable here: its record will say so, cheaply
        size = 0
    return FILE_BASE_COST_BYTES + size


def convert_chunk(paths: list[str], options: ExtractOptions | None = None, **budgets: Any) -> list[tuple[bytes, float, float]]:
    """The files' records packed (`convert_packed`), one file after another in this thread: a Dask task of map_on_dask."""
    return [convert_packed(path, options, **budgets) for path in paths]


def _worker_died(path: str, exc: BaseException) -> dict[str, Any]:
    record = _empty_record(path)
    record.update(status=WORKER_DIED, error=_short(exc))
    return record


SUMMARY_FIELDS = ("source", "status", "page_count", "error", "seconds", "cpu_seconds")   # what a worker sends back


def convert_to_shard(paths: list[str], target: str, output_format: str, options: ExtractOptions | None = None, *,
                     limits: Limits | None = None, max_seconds: float | None = DEFAULT_FILE_SECONDS,
                     max_memory_mib: float | None = None, keep_pages: bool = True) -> list[dict[str, Any]]:
    """Convert the files (each within its budgets, in this thread's served child) and write their
    records as one shard at `target`, here on the worker; only each record's summary goes back."""
    records = [convert(path, options, limits=limits, max_seconds=max_seconds, max_memory_mib=max_memory_mib,
                       reuse_child=True) for path in paths]
    if not keep_pages:
        for record in records:
            record.pop("pages", None)
    write_shard(records, target, output_format)
    return [{name: record[name] for name in SUMMARY_FIELDS} for record in records]


def write_shards_on_dask(client, paths: Iterable[str], folder: str, output_format: str,
                         options: ExtractOptions | None = None, *, limits: Limits | None = None,
                         max_seconds: float | None = DEFAULT_FILE_SECONDS, max_memory_mib: float | None = None,
                         records_per_shard: int = PARQUET_SHARD_RECORDS, keep_pages: bool = True) -> Iterator[dict[str, Any]]:
    """The files converted on a Dask cluster and their records written by the workers themselves,
    as shards part-00000.jsonl (or .parquet), … in `folder` (an fsspec URL every worker can
    write, or a folder they share): the records never pass through this process, which gets
    each one's summary (SUMMARY_FIELDS) as its shard is written. A shard is one task: a chunk of
    at most `records_per_shard` files sized by their cost as map_on_dask's are (`plan_chunks`:
    large shards first, a file or two in the last, so the worker threads finish together rather
    than one converting the last equal shard alone). A shard whose worker died (on every retry) is converted again file by
    file (part-00003-00, part-00003-01, …), and a file whose worker died then once more alone,
    so only the file that kills its worker is lost: its record says "worker-died" and is
    written by a worker too."""
    from distributed import KilledWorker, as_completed

    paths = list(paths)
    threads = max(1, sum(client.nthreads().values()))
    chunks = plan_chunks([expected_cost(path) for path in paths], threads, max_files=max(1, records_per_shard))
    if _is_url(folder):
        fs, root = _fsspec("writing to a URL").core.url_to_fs(folder)
        fs.makedirs(root, exist_ok=True)
    else:
        os.makedirs(folder, exist_ok=True)
    folder = folder.rstrip("/")
    arguments = {"options": options, "limits": limits, "max_seconds": max_seconds, "max_memory_mib": max_memory_mib,
                 "keep_pages": keep_pages}
    shards = {}   # future → (its files, its target, its shard's number; None for one file of a shard that died)
    for number, files in enumerate(chunks):
        chunk, target = paths[files.start:files.stop], f"{folder}/{shard_name(number, output_format)}"
        shards[client.submit(convert_to_shard, chunk, target, output_format, pure=False, **arguments)] = (chunk, target, number)
    if not shards:   # an empty run still leaves one (empty) shard, as the local writers do
        client.submit(write_shard, [], f"{folder}/{shard_name(0, output_format)}", output_format, pure=False).result()
    suspects: list[tuple[str, str]] = []   # files whose worker died while they ran beside others
    running = as_completed(list(shards))
    for future in running:
        chunk, target, number = shards.pop(future)
        try:
            yield from future.result()
        except KilledWorker:   # one of its files kills workers (a shard it cannot write is the run's error)
            if number is None:
                suspects.append((chunk[0], target))
                continue
            for part, path in enumerate(chunk):   # each file alone finds which
                single_target = f"{folder}/{shard_name(number, output_format, part)}"
                single = client.submit(convert_to_shard, [path], single_target, output_format, pure=False, **arguments)
                shards[single] = ([path], single_target, None)
                running.add(single)
        finally:
            future.release()
    for path, target in suspects:   # one at a time: a file whose worker died beside the killer was not it
        try:
            yield from client.submit(convert_to_shard, [path], target, output_format, pure=False, **arguments).result()
        except KilledWorker as exc:
            record = _worker_died(path, exc)
            client.submit(write_shard, [record], target, output_format, pure=False).result()
            yield {name: record[name] for name in SUMMARY_FIELDS}


# Dask settings of the LocalCluster we start (never of a user's scheduler): its periodic chores,
# which on a small machine take CPU from the conversions, made rarer or off
OWN_CLUSTER_CONFIG = {
    "distributed.worker.profile.enabled": False,        # the statistical profiler samples every task thread every 10 ms
    "distributed.scheduler.work-stealing": False,       # tasks are queued on the scheduler and handed out as threads free up
    "distributed.admin.tick.interval": "500ms",         # the event-loop watchdog (20 ms): it only warns of a blocked loop
    "distributed.admin.system-monitor.interval": "2s",  # CPU/memory/network samples for the dashboard (500 ms)
    "distributed.worker.memory.monitor-interval": "500ms",   # the nanny's memory limit check (100 ms); files have their own budget
}


@contextmanager
def dask_client(address: str, *, workers: int = DEFAULT_LOCAL_WORKERS, worker_deaths: int = DEFAULT_WORKER_DEATHS,
                memory_limit: str = "auto", tuned: bool = True):
    """A Client on the scheduler at `address`, or on a LocalCluster of `workers` processes (one
    thread each) when it is "local"; there a file may kill `worker_deaths` workers before it is
    given up (a remote scheduler has its own `distributed.scheduler.allowed-failures`), each
    worker's nanny restarts it past `memory_limit`, and OWN_CLUSTER_CONFIG applies (`tuned=False`:
    Dask's defaults, to measure what it saves)."""
    try:
        import dask
        from distributed import Client, LocalCluster
    except ImportError:
        raise MissingExtra("--dask needs Dask: pip install 'glyphline[dask]'") from None
    if address != LOCAL:
        with Client(address) as client:
            yield client
        return
    settings = {**(OWN_CLUSTER_CONFIG if tuned else {}), "distributed.scheduler.allowed-failures": max(0, worker_deaths - 1)}
    with dask.config.set(settings), \
            LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=FREE_PORT,
                         memory_limit=memory_limit) as cluster, \
            Client(cluster) as client:
        yield client


# ----------------------------------------------------------------------------- command line

def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m glyphline.batch",
        description="Convert many PDFs to records (one per file: text, pages, warnings, status, seconds) "
                    "as JSON Lines or Parquet shards.")
    parser.add_argument("inputs", nargs="+", metavar="PATH",
                        help="PDF files, folders (searched for *.pdf), or fsspec URLs of files, folders or globs")
    parser.add_argument("-o", "--output", metavar="OUT", default="-",
                        help="JSON Lines file ('-': standard output), or the folder of the Parquet shards; "
                             "a local path or an fsspec URL. With --dask and a URL, OUT is a folder the workers "
                             "write their shards into themselves (part-00000.jsonl or .parquet, …)")
    parser.add_argument("--format", choices=(JSONL, PARQUET), default=JSONL,
                        help="jsonl (default), or parquet: shards part-00000.parquet, … in the folder OUT "
                             "(needs pyarrow)")
    parser.add_argument("--records-per-shard", type=int, default=PARQUET_SHARD_RECORDS, metavar="N",
                        help=f"records in one Parquet shard (default {PARQUET_SHARD_RECORDS})")
    parser.add_argument("--dask", metavar="ADDRESS",
                        help="run on a Dask cluster: a scheduler address (tcp://host:8786), or 'local' for a "
                             "LocalCluster on this machine")
    parser.add_argument("--workers", type=int, default=DEFAULT_LOCAL_WORKERS, metavar="N",
                        help=f"worker processes of --dask local (default {DEFAULT_LOCAL_WORKERS})")
    parser.add_argument("--worker-deaths", type=int, default=DEFAULT_WORKER_DEATHS, metavar="N",
                        help="--dask local: a file that kills this many workers is given up ('worker-died'; "
                             f"default {DEFAULT_WORKER_DEATHS})")
    parser.add_argument("--mode", default="reflow", help="text mode of the records' text (default reflow)")
    parser.add_argument("--order", default="auto", choices=ORDERS, help="reading order (see glyphline --help)")
    parser.add_argument("--no-pages", action="store_true", help="leave out the per-page JSON (smaller records)")
    parser.add_argument("--max-seconds", type=float, default=DEFAULT_FILE_SECONDS, metavar="S",
                        help=f"time budget of one file (default {DEFAULT_FILE_SECONDS:g}; status 'budget' past it); "
                             "0: none, and files are converted in this process, not a child per file")
    parser.add_argument("--max-memory", type=float, metavar="MIB",
                        help="memory budget of one file in MiB (status 'budget' past it; default none)")
    args = parser.parse_args(argv)
    if args.output == "-" and args.format == PARQUET:
        parser.error("--format parquet writes shards into a folder: give it with -o")
    try:
        options = ExtractOptions(mode=args.mode, order=args.order)
    except ValueError as exc:
        parser.error(str(exc))
    budgets = {"max_seconds": args.max_seconds or None, "max_memory_mib": args.max_memory}
    counts: dict[str, int] = {}
    try:
        paths = pdf_paths(args.inputs)
        if args.dask and _is_url(args.output):   # the workers write the shards; only summaries come here
            for summary in _summaries_written_on_dask(paths, options, args, budgets):
                counts[summary["status"]] = counts.get(summary["status"], 0) + 1
        else:
            writer = record_writer(args.output, args.format, args.records_per_shard)
            try:
                for record in _records(paths, options, args, budgets):
                    counts[record["status"]] = counts.get(record["status"], 0) + 1
                    if args.no_pages:
                        record.pop("pages", None)
                    writer.write(record)
            finally:
                writer.close()
    except MissingExtra as exc:
        sys.stderr.write(f"glyphline.batch: {exc}\n")
        return 2
    except OSError as exc:
        sys.stderr.write(f"glyphline.batch: {_short(exc)}\n")
        return 2
    summary = ", ".join(f"{n} {status}" for status, n in sorted(counts.items()))
    sys.stderr.write(f"glyphline.batch: {len(paths)} file(s): {summary or 'nothing to do'}\n")
    return 0 if counts.get(OK, 0) + counts.get(SCAN, 0) == len(paths) else 1


def _summaries_written_on_dask(paths: list[str], options: ExtractOptions, args: argparse.Namespace,
                               budgets: dict[str, Any]) -> Iterator[dict[str, Any]]:
    with dask_client(args.dask, workers=args.workers, worker_deaths=args.worker_deaths) as client:
        yield from write_shards_on_dask(client, paths, args.output, args.format, options,
                                        records_per_shard=args.records_per_shard, keep_pages=not args.no_pages, **budgets)


def _records(paths: list[str], options: ExtractOptions, args: argparse.Namespace,
             budgets: dict[str, Any]) -> Iterator[dict[str, Any]]:
    if not args.dask:
        for path in paths:
            yield convert(path, options, reuse_child=True, **budgets)
        return
    with dask_client(args.dask, workers=args.workers, worker_deaths=args.worker_deaths) as client:
        yield from map_on_dask(client, paths, options, **budgets)


def _empty_record(source: str) -> dict[str, Any]:
    return {"source": source, "status": OK, "text": "", "pages": [], "page_count": 0, "warnings": [], "error": "",
            "seconds": 0.0, "cpu_seconds": 0.0}


def _failed(record: dict[str, Any], status: str, message: str, started: float, cpu_started: float) -> dict[str, Any]:
    record.update(status=status, error=message, seconds=round(time.perf_counter() - started, 3),
                  cpu_seconds=round(time.thread_time() - cpu_started, 3))
    return record


def _short(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()[0][:160] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


if __name__ == "__main__":
    sys.exit(main())
