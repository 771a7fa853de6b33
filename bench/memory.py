#!/usr/bin/env python3
"""Memory of one long extraction: peak RSS at 100/200/400/800 pages of one long document.

    .venv/bin/python bench/memory.py                       # generated pdflatex-huge-800p
    .venv/bin/python bench/memory.py --pdf FILE --pages 50,100,200 --mode markdown
    .venv/bin/python bench/memory.py --tracemalloc         # also Python's own peak (slower)
    .venv/bin/python bench/memory.py --cli --tracemalloc   # the command line writing the text to a file (-o)
    .venv/bin/python bench/memory.py --cli --jobs 2        # ... with the pages spread over 2 processes (this one's peak)

Each size is the first N pages of the document (cut with pypdf, so the file's fonts and
structure are those of the long one), extracted by `extract_text` in a fresh process; the
process's peak resident set (VmHWM) is printed, with what the process holds before the
extraction (interpreter, engine, pypdf, the file's bytes) for reference. With --cli the
process runs the command line instead (`glyphline FILE -o OUT`, which writes the text as it is
made) and the table gives the output's size. Flat memory means
the peak grows far slower than the page count. Not a test.
"""
from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_PDF = REPO.parent / "shared" / "corpus" / "generated" / "pdflatex-huge-800p" / "doc.pdf"
DEFAULT_PAGES = (100, 200, 400, 800)

# Runs in a fresh process: the RSS before and after one extraction (and tracemalloc's peak when asked).
# The process's own peak resident set: VmHWM (Linux) is this program's; ru_maxrss also keeps the
# high-water mark of the parent it was forked from (this script, which holds the whole cut document).
PEAK = r"""
import resource
def peak_kib():
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
"""

MEASURE = PEAK + r"""
import json, sys
from glyphline.extract import extract_text
data = open(sys.argv[1], "rb").read()
mode, trace = sys.argv[2], sys.argv[3] == "1"
before = peak_kib()
if trace:
    import tracemalloc
    tracemalloc.start()
result = extract_text(data, mode=mode)
traced = tracemalloc.get_traced_memory()[1] if trace else None
peak = peak_kib()
print(json.dumps({"before_kib": before, "peak_kib": peak, "traced_peak": traced, "pages": len(result.pages),
                  "chars": len(result.text)}))
"""

# The same for the command line: glyphline.cli.main writing the text to a file.
MEASURE_CLI = PEAK + r"""
import json, os, sys
from glyphline import cli
import glyphline.extract
path, mode, trace, out, jobs = sys.argv[1], sys.argv[2], sys.argv[3] == "1", sys.argv[4], sys.argv[5]
before = peak_kib()
if trace:
    import tracemalloc
    tracemalloc.start()
code = cli.main([path, "--mode", mode, "--quiet", "-o", out] + (["--jobs", jobs] if jobs != "0" else []))
traced = tracemalloc.get_traced_memory()[1] if trace else None
peak = peak_kib()
print(json.dumps({"before_kib": before, "peak_kib": peak, "traced_peak": traced, "code": code,
                  "chars": os.path.getsize(out)}))
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pdf", type=Path, default=DEFAULT_PDF)
    parser.add_argument("--pages", default=",".join(map(str, DEFAULT_PAGES)), help="page counts, e.g. 100,200")
    parser.add_argument("--mode", default="reflow")
    parser.add_argument("--tracemalloc", action="store_true", help="also Python's traced peak (slow)")
    parser.add_argument("--cli", action="store_true", help="measure the command line (-o FILE) instead of extract_text")
    parser.add_argument("--jobs", type=int, default=0, help="with --cli: --jobs N (default: not given)")
    args = parser.parse_args(argv)
    from pypdf import PdfReader, PdfWriter

    reader = PdfReader(str(args.pdf))
    env = dict(os.environ, PYTHONPATH=str(REPO))
    env.pop("GLYPHLINE_DEBUG", None)
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        for count in (int(n) for n in args.pages.split(",")):
            count = min(count, len(reader.pages))
            writer = PdfWriter()
            for page in reader.pages[:count]:
                writer.add_page(page)
            buffer = io.BytesIO()
            writer.write(buffer)
            path = os.path.join(scratch, f"cut-{count}.pdf")
            Path(path).write_bytes(buffer.getvalue())
            trace = "1" if args.tracemalloc else "0"
            command = ([sys.executable, "-c", MEASURE_CLI, path, args.mode, trace, path + ".txt", str(args.jobs)]
                       if args.cli else [sys.executable, "-c", MEASURE, path, args.mode, trace])
            done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=REPO, check=True)
            rows.append((count, json.loads(done.stdout)))
    path = "command line -o" + (f" --jobs {args.jobs}" if args.jobs else "") if args.cli else "extract_text"
    print(f"## Memory: {args.pdf.parent.name or args.pdf.name}, mode {args.mode}, {path}\n")
    print("| pages | peak RSS MB | before extraction MB | growth MB | output MB" + (" | traced peak MB |" if args.tracemalloc else " |"))
    print("|---:|---:|---:|---:|---:|" + ("---:|" if args.tracemalloc else ""))
    for count, row in rows:
        line = (f"| {count} | {row['peak_kib'] / 1024:.0f} | {row['before_kib'] / 1024:.0f} | "
                f"{(row['peak_kib'] - row['before_kib']) / 1024:.1f} | {row['chars'] / 2**20:.2f} |")
        if args.tracemalloc:   # two decimals: a KB a page over 700 pages is 0.7 MB
            line += f" {row['traced_peak'] / 2**20:.2f} |"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
