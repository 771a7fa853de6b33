"""The command line: a thin shell over extract_text — arguments, batch, exit codes, stderr.

Every problem becomes one line on stderr (`glyphline: FILE: needs a password`) and an exit
code; a traceback is never shown (set GLYPHLINE_DEBUG=1 to see one). Several files run in a
process pool (or on a Dask cluster, --dask), and each file's output is written as soon as it is
ready, so a file that fails never costs the others theirs. One long file has its pages spread
over the processes instead.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from .document import open_file
from .errors import BudgetExceeded, Cancelled, DamagedPDF, NotAPDF, OcrUnavailable, PasswordRequired
from .extract import MODES, extract_text, format_page_ranges, parse_page_spec
from .options import ORDERS, ExtractOptions
from .output import renderer

EXIT_OK = 0
EXIT_USAGE = 2
EXIT_SCAN = 3
EXIT_PASSWORD = 4
EXIT_BROKEN = 5

MAX_DEFAULT_JOBS = 4            # more workers than this mostly contend for memory bandwidth
PROGRESS_MIN_PAGES = 20         # a single file shorter than this finishes before a bar is worth drawing
PROGRESS_BAR_WIDTH = 30
MAX_WARNING_LINES = 10          # per file: a damaged 800-page file must not flood the terminal
MAX_WARNINGS_PER_LINE = 3       # per page: the first few say what happened, a count says the rest
STDIN_NAME = "-"
KILL_GRACE_SECONDS = 1.0        # past --max-seconds before a file's child is killed: its between-pages check reports first
OCR_DEFAULT = "--ocr=eng"

EPILOG = """\
exit codes:
  0  ok (pages without a text layer in an otherwise normal file are only warned about; a
     document whose fonts have no character mapping is said so on stderr, even with --quiet)
  2  usage error: bad option or page spec, unreadable input or unwritable output
  3  no text layer: the document is scanned/image-only and needs OCR (its text, if any, is still written);
     or --ocr was given and tesseract or one of its languages is not installed
  4  password required, or the password is wrong
  5  not a PDF, damaged beyond repair, or too large for the built-in limits
With several files the exit code is the highest one.

--ocr recognises the pages without a text layer with tesseract (Debian: apt install
tesseract-ocr; other languages: tesseract-ocr-deu, ...). Write languages as --ocr=eng+deu.
FILE may be '-' for standard input. One file without -o goes to standard output; with
--outdir each FILE becomes DIR/<stem>.txt (.json for --mode json).
Set GLYPHLINE_DEBUG=1 to get a traceback instead of the one-line message on unexpected errors."""


@dataclass(frozen=True)
class Job:
    index: int
    name: str                   # as the user wrote it: used in messages
    source: str | None          # path to read, None for stdin (then `data` is set)
    data: bytes | None
    output: str | None          # file to write, None to hand the text back to the main process
    temporary: str | None = None   # the output's name while it is written: chosen here, so a worker that dies midway leaves none


@dataclass
class Outcome:
    index: int
    name: str
    code: int = EXIT_OK
    errors: list[str] = field(default_factory=list)     # always printed
    warnings: list[str] = field(default_factory=list)   # printed unless --quiet
    text: str | None = None                             # set when the main process writes it


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="glyphline", description="Extract the text of PDF files in reading order.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="+", metavar="FILE", help="PDF file(s); '-' reads standard input")
    target = parser.add_mutually_exclusive_group()
    target.add_argument("-o", "--output", metavar="OUT", help="write the text to OUT ('-' = standard output)")
    target.add_argument("--outdir", metavar="DIR", help="write one output per input into DIR")
    parser.add_argument("--mode", choices=MODES, default="reflow",
                        help="reflow: paragraphs as lines (default); preserve: the page's lines; "
                             "layout: a character grid keeping columns aligned; json: blocks, lines, words and boxes")
    parser.add_argument("--markers", action="store_true", help="separate pages with '--- Page N ---' lines")
    parser.add_argument("--no-page-breaks", action="store_true", help="no form feed between pages")
    parser.add_argument("--bom", action="store_true", help="start the output with a UTF-8 byte order mark")
    parser.add_argument("--pages", metavar="SPEC", help="pages to extract, e.g. 1-3,7 or 5- (1-based)")
    parser.add_argument("--password", metavar="PW", default="", help="password of an encrypted PDF")
    parser.add_argument("--no-annotations", action="store_true",
                        help="leave out the text of annotations (filled form fields, FreeText boxes, stamps)")
    parser.add_argument("--order", choices=ORDERS, default="auto",
                        help="reading order: from the page geometry, from the structure tree of a tagged PDF, "
                             "or auto (the tags where they cover the page and agree with its geometry; default)")
    parser.add_argument("--ocr", metavar="LANGS", default="",
                        help="recognise pages without a text layer with tesseract; --ocr alone is English, "
                             "--ocr=eng+deu names the languages")
    workers = parser.add_mutually_exclusive_group()
    workers.add_argument("--jobs", metavar="N", type=int, default=None,
                         help="processes: several files are converted in parallel (default: min(4, CPUs)); "
                              "a long file's pages are analysed in parallel only when --jobs is given")
    workers.add_argument("--dask", metavar="ADDRESS",
                         help="convert the files on a Dask cluster: a scheduler address (tcp://host:8786), or "
                              "'local' for 2 worker processes here (needs glyphline[dask]); outputs are written here")
    parser.add_argument("--max-seconds", type=float, metavar="S",
                        help="time budget of one file: past it the file is stopped, even inside a page "
                             "(exit 5; the other files go on)")
    parser.add_argument("--max-memory", type=float, metavar="MIB",
                        help="memory budget of one file in MiB: past it the file is stopped (exit 5)")
    parser.add_argument("--quiet", action="store_true", help="no page warnings and no progress bar")
    return parser


def main(argv: list[str] | None = None) -> int:
    try:
        return _main(argv)
    except KeyboardInterrupt:
        sys.stderr.write("glyphline: interrupted\n")
        return 130
    except SystemExit as exc:  # argparse: --help (0) and usage errors (2)
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    except BaseException as exc:  # the last net: a user never sees a traceback
        if os.environ.get("GLYPHLINE_DEBUG") == "1":
            raise
        sys.stderr.write(f"glyphline: unexpected error ({_describe(exc)})\n")
        return EXIT_BROKEN


def _main(argv: list[str] | None) -> int:
    parser = build_parser()
    # "--ocr" alone means English; languages follow an "=" so the next FILE is never taken for one
    argv = [OCR_DEFAULT if arg == "--ocr" else arg for arg in (sys.argv[1:] if argv is None else argv)]
    args = parser.parse_args(argv)
    # page-parallel only on request: on 2 busy cores it measured no faster, and each worker costs memory
    if args.jobs is not None and args.jobs < 1:
        parser.error("--jobs must be at least 1")
    page_jobs = args.jobs or 1
    args.jobs = args.jobs or min(MAX_DEFAULT_JOBS, os.cpu_count() or 1)
    if args.pages is not None:
        try:
            parse_page_spec(args.pages)
        except ValueError as exc:
            parser.error(str(exc))
    if args.files.count(STDIN_NAME) > 1:
        parser.error("'-' (standard input) can be given only once")
    try:
        options = ExtractOptions(mode=args.mode, markers=args.markers, page_breaks=not args.no_page_breaks,
                                 bom=args.bom, pages=args.pages, password=args.password,
                                 annotations=not args.no_annotations, order=args.order, ocr=args.ocr)
    except ValueError as exc:
        parser.error(str(exc))
    if options.ocr:
        from .tesseract import tesseract_engine   # here: subprocess and the hOCR parser are for OCR runs only

        try:
            tesseract_engine(options.ocr, b"")   # installed, with its languages: said once, before any file
        except OcrUnavailable as exc:
            sys.stderr.write(f"glyphline: {exc}\n")
            return EXIT_SCAN
    if args.outdir:
        try:
            os.makedirs(args.outdir, exist_ok=True)
        except OSError as exc:
            sys.stderr.write(f"glyphline: {args.outdir}: cannot create the output folder ({_os_reason(exc)})\n")
            return EXIT_USAGE
    for budget in ("max_seconds", "max_memory"):
        if getattr(args, budget) is not None and getattr(args, budget) <= 0:
            parser.error(f"--{budget.replace('_', '-')} must be more than 0")
    budgets = Budgets(args.max_seconds, args.max_memory)
    jobs = _plan_jobs(args, options)
    progress = _Progress(enabled=not args.quiet and sys.stderr.isatty())
    outcomes: list[Outcome] = []
    if args.dask:
        dask_outcomes = _run_dask(jobs, options, args.dask, progress, budgets)
        if dask_outcomes is None:
            return EXIT_USAGE
        outcomes.extend(dask_outcomes)
    elif len(jobs) == 1 and not budgets:   # one file: its pages are what --jobs spreads
        outcomes.append(convert(jobs[0], options, progress.pages, page_jobs=page_jobs, target=_single_target(args)))
    elif jobs and (args.jobs == 1 or len(jobs) == 1):
        progress.start_files(len(jobs))
        for job in jobs:
            outcomes.append(convert_within(budgets, job, options))
            progress.file_done()
    elif jobs:
        outcomes.extend(_run_pool(jobs, options, args.jobs, progress, budgets))
    progress.finish()
    for job in jobs:   # a worker process that died while it wrote an output left it unfinished
        if job.temporary is not None:
            _unlink_quietly(job.temporary)
    code = EXIT_OK
    to_stdout = args.outdir is None
    collected: list[str] = []
    for outcome in sorted(outcomes, key=lambda o: o.index):
        if outcome.text is not None and to_stdout:
            collected.append(outcome.text)
        code = max(code, outcome.code)
    if collected and args.output not in (None, STDIN_NAME):
        code = max(code, _write_or_report(args.output, "".join(collected)))
    elif collected:
        _write_stdout("".join(collected))
    for outcome in sorted(outcomes, key=lambda o: o.index):
        for line in outcome.errors + ([] if args.quiet else outcome.warnings):
            sys.stderr.write(line + "\n")
    return code


def _single_target(args) -> "_FileTarget | _StdoutTarget | None":
    """Where the text of the one file goes as it is made (--outdir: the job's own output file).
    A terminal gets it at the end: the progress bar on the same screen would cut into it."""
    if args.outdir:
        return None
    if args.output not in (None, STDIN_NAME):
        return _FileTarget(args.output)
    return None if sys.stdout.isatty() else _StdoutTarget()


def _plan_jobs(args, options: ExtractOptions) -> list[Job]:
    """One job per FILE; stdin is read here (a worker process cannot read it)."""
    jobs: list[Job] = []
    extension = renderer(options.mode).extension
    used_names: set[str] = set()
    for index, name in enumerate(args.files):
        data = None
        if name == STDIN_NAME:
            data = sys.stdin.buffer.read()
        output = None
        if args.outdir:
            stem = "stdin" if name == STDIN_NAME else Path(name).stem or "output"
            unique, n = stem, 1
            while unique in used_names:  # a/x.pdf and b/x.pdf must not overwrite each other
                n += 1
                unique = f"{stem}-{n}"
            used_names.add(unique)
            output = os.path.join(args.outdir, unique + extension)
        jobs.append(Job(index, name, None if name == STDIN_NAME else name, data, output,
                        None if output is None else _temporary_path(output)))
    return jobs


def _run_pool(jobs: list[Job], options: ExtractOptions, workers: int, progress: "_Progress",
              budgets: "Budgets") -> list[Outcome]:
    from concurrent.futures import ProcessPoolExecutor, as_completed   # here: its import costs a one-file run ~20 ms
    from concurrent.futures.process import BrokenProcessPool

    outcomes: list[Outcome] = []
    unfinished = list(jobs)
    progress.start_files(len(jobs))
    with ProcessPoolExecutor(max_workers=min(workers, len(jobs))) as pool:
        futures = {pool.submit(convert_within, budgets, job, options): job for job in jobs}
        for future in as_completed(futures):
            job = futures[future]
            try:
                outcomes.append(future.result())
            except BrokenProcessPool:
                continue  # a worker died (out of memory, killed): its jobs are retried alone below
            except Exception as exc:  # convert() catches everything; this is the pool's own failure
                if os.environ.get("GLYPHLINE_DEBUG") == "1":
                    raise
                outcomes.append(Outcome(job.index, job.name, EXIT_BROKEN,
                                        [f"glyphline: {job.name}: unexpected error ({_describe(exc)})"]))
            unfinished.remove(job)
            progress.file_done()
    for job in unfinished:
        outcomes.append(_run_isolated(job, options))
        progress.file_done()
    return outcomes


def _run_dask(jobs: list[Job], options: ExtractOptions, address: str, progress: "_Progress",
              budgets: "Budgets") -> list[Outcome] | None:
    """The files converted on a Dask cluster the way map_on_dask converts them (batch.map_chunks_on_dask:
    chunks sized by the files' bytes, a chunk whose worker died run again file by file), each
    within its budgets (see convert_within); the texts come back in argument order and are written
    here (a remote worker's disk is not the user's). A file whose worker dies on every try is
    reported; the others go on. None when Dask is missing or the scheduler cannot be reached."""
    from dataclasses import replace

    from .batch import MissingExtra, dask_client, expected_cost, map_chunks_on_dask

    outcomes: list[Outcome] = []
    try:
        with dask_client(address) as client:
            progress.start_files(len(jobs))
            remote = [replace(job, output=None) for job in jobs]
            costs = [expected_cost(job.source if job.data is None else job.data) for job in jobs]
            for job, outcome in zip(jobs, map_chunks_on_dask(client, remote, convert_jobs_within, costs=costs,
                                                             died=_worker_lost, budgets=budgets, options=options)):
                if job.output is not None and outcome.text is not None:
                    outcome.code = max(outcome.code, _write_or_report(job.output, outcome.text, outcome.errors))
                    outcome.text = None
                outcomes.append(outcome)
                progress.file_done()
    except (MissingExtra, OSError) as exc:   # OSError: the scheduler's address does not answer
        progress.finish()
        sys.stderr.write(f"glyphline: --dask {address}: {exc}\n")
        return None
    return outcomes


def convert_jobs_within(jobs: list[Job], budgets: "Budgets", options: ExtractOptions) -> list[Outcome]:
    """A Dask task of --dask: the jobs one after another in this worker thread, each within its budgets."""
    return [convert_within(budgets, job, options) for job in jobs]


def _worker_lost(job: Job, exc: BaseException) -> Outcome:
    """The outcome of a file whose Dask worker died on every try (KilledWorker)."""
    return Outcome(job.index, job.name, EXIT_BROKEN,
                   [f"glyphline: {job.name}: the converting worker died ({_describe(exc)})"])


def _run_isolated(job: Job, options: ExtractOptions) -> Outcome:
    """A job whose pool died runs in a pool of its own, so the one file that kills a worker is named."""
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    try:
        with ProcessPoolExecutor(max_workers=1) as pool:
            return pool.submit(convert, job, options).result()
    except BrokenProcessPool:
        return Outcome(job.index, job.name, EXIT_BROKEN,
                       [f"glyphline: {job.name}: the converting process died (out of memory or killed)"])


@dataclass(frozen=True)
class Budgets:
    """--max-seconds and --max-memory: what one file may take (None: no bound)."""

    max_seconds: float | None = None
    max_memory_mib: float | None = None

    def __bool__(self) -> bool:
        return self.max_seconds is not None or self.max_memory_mib is not None


def convert_within(budgets: Budgets, job: Job, options: ExtractOptions) -> Outcome:
    """convert() within the file's budgets: in this thread's long-lived child process
    (glyphline.isolation.ServingChild), killed past max_seconds, its memory capped, so a file that
    hangs inside a page, allocates without end or crashes costs only its own outcome. Where fork
    is missing the time budget is checked between pages and memory is not bounded."""
    from . import isolation   # here: only runs with budgets fork

    if not budgets:
        return convert(job, options)
    if not isolation.FORK_AVAILABLE:
        return convert(job, options, max_seconds=budgets.max_seconds)
    work = partial(convert, job, options, max_seconds=budgets.max_seconds)
    deadline = None if budgets.max_seconds is None else budgets.max_seconds + KILL_GRACE_SECONDS
    child = isolation.serving_child(budgets.max_memory_mib).call(work, max_seconds=deadline)
    if child.ending == isolation.RETURNED:
        return child.value
    if job.temporary is not None:   # the child was stopped while it wrote the output
        _unlink_quietly(job.temporary)
    outcome = Outcome(job.index, job.name)
    if child.ending == isolation.TIMED_OUT:
        return _fail(outcome, EXIT_BROKEN, f"took more than {budgets.max_seconds:g} s: stopped inside a page")
    if child.ending == isolation.DIED:
        return _fail(outcome, EXIT_BROKEN, f"the converting process died ({child.detail}); please report this file")
    return _fail(outcome, EXIT_BROKEN, f"unexpected error ({child.detail}); please report this file")


def convert(job: Job, options: ExtractOptions, on_progress=None, page_jobs: int = 1,
            max_seconds: float | None = None, target: "_FileTarget | _StdoutTarget | None" = None) -> Outcome:
    """Runs in a worker process (or, for one file, in the main one with its pages spread over
    `page_jobs` processes): read, extract, write; every failure becomes an Outcome. Past
    `max_seconds` the extraction stops between pages. The text is written as it is made to the
    job's output file (through job.temporary, renamed into place at the end) or to `target`;
    without either it is handed back in Outcome.text."""
    outcome = Outcome(job.index, job.name)
    if job.output is not None:
        target = _FileTarget(job.output, job.temporary)
    try:
        return _convert(job, options, outcome, on_progress, page_jobs, max_seconds, target)
    finally:
        if target is not None:
            target.abandon()   # after a failure: no part file is left (a finished target is closed already)


def _convert(job: Job, options: ExtractOptions, outcome: Outcome, on_progress, page_jobs: int,
             max_seconds: float | None, target: "_FileTarget | _StdoutTarget | None") -> Outcome:
    try:
        # a path is read through its file (pypdf reads the objects it needs), not held whole
        data = job.data if job.data is not None else open_file(job.source)
    except OSError as exc:
        return _fail(outcome, EXIT_USAGE, f"cannot read the file ({_os_reason(exc)})")
    try:
        return _convert_data(data, job, options, outcome, on_progress, page_jobs, max_seconds, target)
    finally:
        if not isinstance(data, bytes):
            data.close()


def _convert_data(data, job: Job, options: ExtractOptions, outcome: Outcome, on_progress, page_jobs: int,
                  max_seconds: float | None, target: "_FileTarget | _StdoutTarget | None") -> Outcome:
    deadline = None if max_seconds is None else time.perf_counter() + max_seconds
    try:
        result = extract_text(data, options, on_progress=on_progress, jobs=page_jobs,
                              cancel=None if deadline is None else (lambda: time.perf_counter() > deadline),
                              write=None if target is None else target.write)
    except Cancelled:
        return _fail(outcome, EXIT_BROKEN, f"took more than {max_seconds:g} s: stopped")
    except MemoryError:
        return _fail(outcome, EXIT_BROKEN, "out of memory")
    except PasswordRequired:
        reason = "the password is wrong" if options.password else "needs a password (use --password)"
        return _fail(outcome, EXIT_PASSWORD, reason)
    except NotAPDF as exc:
        return _fail(outcome, EXIT_BROKEN, f"not a PDF ({exc})")
    except DamagedPDF as exc:
        return _fail(outcome, EXIT_BROKEN, f"damaged beyond repair ({exc.reason})")
    except BudgetExceeded as exc:
        return _fail(outcome, EXIT_BROKEN, f"too large to process: {exc} (limit {exc.limit})")
    except OcrUnavailable as exc:
        return _fail(outcome, EXIT_SCAN, str(exc))
    except RecursionError:
        return _fail(outcome, EXIT_BROKEN, "damaged beyond repair (structures nested too deeply)")
    except Exception as exc:
        if _worker_died(exc):
            return _fail(outcome, EXIT_BROKEN, "a converting process died (out of memory or killed)")
        if os.environ.get("GLYPHLINE_DEBUG") == "1":
            raise
        return _fail(outcome, EXIT_BROKEN, f"unexpected error ({_describe(exc)}); please report this file")
    if result.scan is not None and result.scan.whole_document:
        outcome.code = EXIT_SCAN
        outcome.errors.append(f"glyphline: {job.name}: {result.scan.message}")
    elif result.scan is not None:
        outcome.warnings.append(f"glyphline: {job.name}: {result.scan.message}")
    if result.unmapped is not None and result.unmapped.whole_document:
        # not a failure of the tool and not a scan: exit 0, but the one line is always printed
        outcome.errors.append(f"glyphline: {job.name}: {result.unmapped.message}")
    elif result.unmapped is not None:
        outcome.warnings.append(f"glyphline: {job.name}: {result.unmapped.message}")
    recognised = _ocr_line(job.name, result)
    if recognised:
        outcome.warnings.append(recognised)
    outcome.warnings.extend(_warning_lines(job.name, result))
    if target is None:
        outcome.text = result.text
    else:
        outcome.code = max(outcome.code, target.finish(outcome.errors))
    return outcome


def _ocr_line(name: str, result) -> str | None:
    """One line saying which pages were read by OCR, and how sure it was."""
    pages = [p for p in result.pages if p.ocr]
    if not pages:
        return None
    from .content.ocr import LOW_CONFIDENCE   # here: the OCR stage is loaded only when pages were recognised

    words = sum(p.ocr["words"] for p in pages)
    doubtful = sum(p.ocr["low_confidence"] for p in pages)
    mean = sum(p.ocr["mean_confidence"] * p.ocr["words"] for p in pages) / max(1, words)
    listed = format_page_ranges([p.number for p in pages])
    plural = len(pages) > 1
    return (f"glyphline: {name}: page{'s' if plural else ''} {listed} had no text layer and {'were' if plural else 'was'} "
            f"read by OCR: {words} words, mean confidence {mean:.0f}, {doubtful} below {LOW_CONFIDENCE:.0f}")


def _worker_died(exc: Exception) -> bool:
    """A page-parallel run (--jobs on one file) lost a worker process."""
    process = sys.modules.get("concurrent.futures.process")  # loaded only once a pool has run
    return process is not None and isinstance(exc, process.BrokenProcessPool)


def _fail(outcome: Outcome, code: int, message: str) -> Outcome:
    outcome.code = code
    outcome.errors.append(f"glyphline: {outcome.name}: {message}")
    return outcome


def _warning_lines(name: str, result) -> list[str]:
    """One line per page with warnings (the first few, then a count); document warnings first."""
    lines = []
    if result.document_warnings:
        lines.append(_summarise(f"glyphline: {name}: ", result.document_warnings))
    pages = [p for p in result.pages if p.warnings]
    for page in pages[:MAX_WARNING_LINES]:
        lines.append(_summarise(f"glyphline: {name}: page {page.number}: ",
                                [_without_page_prefix(w, page.number) for w in page.warnings]))
    if len(pages) > MAX_WARNING_LINES:
        lines.append(f"glyphline: {name}: {len(pages) - MAX_WARNING_LINES} more page(s) with warnings")
    return lines


def _summarise(prefix: str, messages: list[str]) -> str:
    shown = "; ".join(messages[:MAX_WARNINGS_PER_LINE])
    more = len(messages) - MAX_WARNINGS_PER_LINE
    return prefix + shown + (f" (+{more} more)" if more > 0 else "")


def _without_page_prefix(message: str, number: int) -> str:
    for prefix in (f"page {number}: ", f"page {number} "):
        if message.startswith(prefix):
            return message[len(prefix):]
    return message


class _FileTarget:
    """A file written as the text is made: into a temporary file beside it, renamed into place by
    finish(), removed by abandon() (a failed file leaves no output). The first write error stops
    the writing and becomes finish()'s one line."""

    def __init__(self, path: str, temporary: str | None = None):
        self.path = path
        self.temporary = temporary or _temporary_path(path)
        self.file = None
        self.failure: OSError | None = None

    def write(self, piece: str) -> None:
        if self.failure is not None:
            return
        try:
            if self.file is None:
                self.file = open(self.temporary, "w", encoding="utf-8", newline="")
            self.file.write(piece)
        except OSError as exc:
            self.failure = exc

    def finish(self, errors: list[str]) -> int:
        """Renames the written file into place (an empty text makes an empty file); EXIT_USAGE after a write error."""
        self.write("")   # opens the file when nothing was written
        if self.failure is None:
            try:
                self.file.close()
                self.file = None
                os.replace(self.temporary, self.path)
                return EXIT_OK
            except OSError as exc:
                self.failure = exc
                _unlink_quietly(self.temporary)   # closed already: abandon() would not remove it
        self.abandon()
        errors.append(f"glyphline: {self.path}: cannot write the output ({_os_reason(self.failure)})")
        return EXIT_USAGE

    def abandon(self) -> None:
        if self.file is not None:
            try:
                self.file.close()
            except OSError:
                pass
            self.file = None
            _unlink_quietly(self.temporary)


class _StdoutTarget:
    """Standard output, written as the text is made; a reader that leaves (`| head`) is fine."""

    def __init__(self):
        self.closed = False

    def write(self, piece: str) -> None:
        if not self.closed:
            self.closed = not _write_stdout(piece, flush=False)

    def finish(self, errors: list[str]) -> int:
        if not self.closed:
            _write_stdout("")
        return EXIT_OK

    def abandon(self) -> None:
        if not self.closed:
            _write_stdout("")   # what was written before the failure is out (its error line says what happened)


def _temporary_path(path: str) -> str:
    return f"{path}.part{os.getpid()}"


def _unlink_quietly(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _write_or_report(path: str, text: str, errors: list[str] | None = None) -> int:
    """Writes atomically (a _FileTarget: a temporary file renamed into place); a failure becomes
    one line, in `errors` or on stderr."""
    target = _FileTarget(path)
    target.write(text)
    lines = [] if errors is None else errors
    code = target.finish(lines)
    if errors is None and lines:
        sys.stderr.write(lines[0] + "\n")
    return code


def _write_stdout(text: str, flush: bool = True) -> bool:
    """False once the reader has left."""
    try:
        sys.stdout.buffer.write(text.encode("utf-8"))
        if flush:
            sys.stdout.buffer.flush()
        return True
    except BrokenPipeError:  # `glyphline big.pdf | head`: the reader left, which is fine
        try:
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass
        return False


def _os_reason(exc: OSError) -> str:
    return exc.strerror or type(exc).__name__


def _describe(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()[0][:160] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


class _Progress:
    """A one-line bar on stderr (TTY only): files for a batch, pages for one long file."""

    def __init__(self, enabled: bool):
        self.enabled = enabled
        self.total_files = 0
        self.done_files = 0
        self.drawn = False

    def start_files(self, total: int) -> None:
        self.total_files = total
        self._draw(0, total, "files")

    def file_done(self) -> None:
        self.done_files += 1
        self._draw(self.done_files, self.total_files, "files")

    def pages(self, done: int, total: int) -> None:
        if total >= PROGRESS_MIN_PAGES:
            self._draw(done, total, "pages")

    def _draw(self, done: int, total: int, unit: str) -> None:
        if not self.enabled or total <= 0:
            return
        filled = PROGRESS_BAR_WIDTH * done // total
        bar = "#" * filled + "." * (PROGRESS_BAR_WIDTH - filled)
        sys.stderr.write(f"\rglyphline [{bar}] {done}/{total} {unit}")
        sys.stderr.flush()
        self.drawn = True

    def finish(self) -> None:
        if self.drawn:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
