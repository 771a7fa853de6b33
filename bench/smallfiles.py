#!/usr/bin/env python3
"""Small-files benchmark: process start and first page, glyphline against a pypdf loop.

    .venv/bin/python bench/smallfiles.py                  # the small files of ../shared/corpus/wild
    .venv/bin/python bench/smallfiles.py --limit 100      # a quicker look
    .venv/bin/python bench/smallfiles.py --every 5        # a fifth of the files, spread over the corpus

Over the small PDFs of ../shared/corpus/wild (at most --max-bytes each, ~1,000 files) it runs,
in the same session:
  - glyphline, one process per file (`python -m glyphline FILE -o OUT --quiet --jobs 1`), as a
    shell loop or a sweep would call it;
  - pypdf, one process per file (`PdfReader(FILE)`, `extract_text()` of every page, the text
    written to OUT), the loop a user of pypdf would write;
  - glyphline's batch mode, all the files in one process (`--outdir DIR --jobs 1`).
The two per-file runs alternate file by file, so the machine's drift falls on both alike. It
prints the total wall time of each, glyphline's ratios to the pypdf loop, the failures (exit
status other than 0 or 3, or the time bound), and the bare process start (`python -c pass`,
`import pypdf`, `from glyphline import extract_text`) as a breakdown. Beside the wall time it
gives the processes' CPU time (user + system): on a shared machine the wall time is mostly
waiting for a core, and CPU time says what each side costs. Not a test.

Bytecode: Python compiles each imported module on every start when it cannot keep the .pyc
(PYTHONDONTWRITEBYTECODE, a read-only checkout). The benchmark compiles this checkout's
glyphline first, as `pip install` does, and writes the table of dataclass methods' code
(glyphline/_record_code.py) a first run would, so the figures are those of an installed package.
"""
from __future__ import annotations

import argparse
import compileall
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
WILD = REPO.parent / "shared" / "corpus" / "wild"
DEFAULT_MAX_BYTES = 1 << 20      # "small": the size of most files users attach to bug reports
FILE_TIMEOUT = 120.0             # seconds one file may take in one process before it counts as a failure
START_UP_RUNS = 7                # process-start samples per command (the median is shown)
OK_CODES = (0, 3)                # 3: no text layer, a result like any other

PYPDF_LOOP = """\
import sys
from pypdf import PdfReader
with open(sys.argv[2], "w", encoding="utf-8") as out:
    for page in PdfReader(sys.argv[1]).pages:
        out.write(page.extract_text())
        out.write("\\f")
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=WILD, help="folder searched for *.pdf (default ../shared/corpus/wild)")
    parser.add_argument("--max-bytes", type=int, default=DEFAULT_MAX_BYTES, help="largest file counted as small")
    parser.add_argument("--limit", type=int, help="only the first N files (sorted by path)")
    parser.add_argument("--every", type=int, default=1, help="every Nth file only: a sample spread over the corpus")
    parser.add_argument("--no-batch", action="store_true", help="skip the batch-mode run")
    args = parser.parse_args(argv)

    files = sorted(p for p in args.corpus.rglob("*.pdf") if p.is_file() and p.stat().st_size <= args.max_bytes)
    files = files[::max(1, args.every)]
    if args.limit:
        files = files[:args.limit]
    if not files:
        print(f"smallfiles.py: no PDF of at most {args.max_bytes} bytes under {args.corpus}", file=sys.stderr)
        return 2
    compileall.compile_dir(str(REPO / "glyphline"), quiet=1)
    env = dict(os.environ, PYTHONPATH=str(REPO))
    env.pop("GLYPHLINE_DEBUG", None)
    python = sys.executable
    # the dataclass methods' code kept beside the bytecode, as the first run of an install writes it
    subprocess.run([python, "-m", "glyphline._record_code"], env=env, check=True)

    start_up = {name: _median_seconds([python, "-c", code], env) for name, code in (
        ("python -c pass", "pass"), ("import pypdf", "import pypdf"),
        ("from glyphline import extract_text", "from glyphline import extract_text"))}

    seconds = {"glyphline": 0.0, "pypdf": 0.0}
    cpu = {"glyphline": 0.0, "pypdf": 0.0}
    failures: dict[str, list[str]] = {"glyphline": [], "pypdf": []}
    with tempfile.TemporaryDirectory() as scratch:
        out = os.path.join(scratch, "out.txt")
        commands = {"glyphline": lambda f: [python, "-m", "glyphline", str(f), "-o", out, "--quiet", "--jobs", "1"],
                    "pypdf": lambda f: [python, "-c", PYPDF_LOOP, str(f), out]}
        for n, path in enumerate(files, 1):
            for name, command in commands.items():
                took, code, used = _run(command(path), env)
                seconds[name] += took
                cpu[name] += used
                if code not in OK_CODES:
                    failures[name].append(f"{path.relative_to(args.corpus)} ({'timeout' if code is None else code})")
            if n % 100 == 0:
                print(f"  {n}/{len(files)} files: glyphline {seconds['glyphline']:.1f} s, "
                      f"pypdf {seconds['pypdf']:.1f} s", file=sys.stderr)
        batch = None
        if not args.no_batch:
            outdir = os.path.join(scratch, "batch")
            took, code, used = _run([python, "-m", "glyphline", "--outdir", outdir, "--quiet", "--jobs", "1",
                                     *map(str, files)], env, timeout=FILE_TIMEOUT * len(files))
            batch = (took, code, used)

    print(report(len(files), args.max_bytes, seconds, cpu, failures, batch, start_up))
    return 0


def report(count, max_bytes, seconds, cpu, failures, batch, start_up) -> str:
    lines = [f"## Small files: {count} PDFs of at most {max_bytes // 1024} KiB, one process per file", "",
             "| run | total wall s | per file ms | CPU s | failures |", "|---|---:|---:|---:|---:|"]
    for name in ("glyphline", "pypdf"):
        lines.append(f"| {name} (one process per file) | {seconds[name]:.1f} | "
                     f"{1000 * seconds[name] / count:.0f} | {cpu[name]:.1f} | {len(failures[name])} |")
    if batch is not None:
        lines.append(f"| glyphline --outdir (one process) | {batch[0]:.1f} | {1000 * batch[0] / count:.0f} | "
                     f"{batch[2]:.1f} | exit {batch[1]} |")
    lines += ["", f"glyphline / pypdf loop, one process per file: {seconds['glyphline'] / seconds['pypdf']:.2f}× the "
                  f"wall time, {cpu['glyphline'] / cpu['pypdf']:.2f}× the CPU time"]
    if batch is not None:
        lines.append(f"glyphline batch / pypdf loop: {batch[0] / seconds['pypdf']:.2f}× the time (target < 0.33)")
    lines += ["", "Process start (median of %d, wall ms): " % START_UP_RUNS
              + ", ".join(f"{name} {1000 * s:.0f}" for name, s in start_up.items())]
    for name in ("glyphline", "pypdf"):
        if failures[name]:
            lines.append(f"{name} failed on: " + ", ".join(failures[name][:20])
                         + (f" (+{len(failures[name]) - 20} more)" if len(failures[name]) > 20 else ""))
    return "\n".join(lines)


def _run(command: list[str], env: dict, timeout: float = FILE_TIMEOUT) -> tuple[float, int | None, float]:
    """Wall seconds, exit status (None: timed out) and the process's CPU seconds (user + system)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    try:
        code = subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              timeout=timeout).returncode
    except subprocess.TimeoutExpired:
        code = None
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    used = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return time.perf_counter() - start, code, used


def _median_seconds(command: list[str], env: dict) -> float:
    return statistics.median(_run(command, env)[0] for _ in range(START_UP_RUNS))


if __name__ == "__main__":
    sys.exit(main())
