#!/usr/bin/env python3
"""Engine work per document in two revisions, counted in instructions (callgrind), not seconds.

    python bench/instructions.py BASE [HEAD] [--filter 120p] [--huge] [--mode reflow]

BASE and HEAD are git revisions or directories holding a glyphline tree (HEAD defaults to
this work tree as it is). For each long document of ../shared/corpus/generated it runs, under
`valgrind --tool=callgrind`, `extract_text(data)` in a fresh interpreter and, once per
revision, the same script without the call (interpreter start, imports, reading the file);
the difference is the engine's work on the document. Prints per-document counts and
HEAD/BASE ratios. Same interpreter for both revisions, bytecode compiled (compileall) for both, an untimed run
first, PYTHONHASHSEED fixed: repeated counts agree to ~0.01 %, so a 1 % change is real even
on a busy machine (wall-clock time is not). Slow: 1–3 minutes per document and revision
under valgrind. Not a test.
"""
from __future__ import annotations

import argparse
import compileall
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
from compare_revisions import ROOT, checkout  # noqa: E402  (bench/ is not a package)
from speed import GENERATED, long_cases  # noqa: E402

# argv: pdf path, mode, "1" to extract or "0" for the start-up baseline
RUNNER = r"""
import sys
from glyphline import extract_text
data = open(sys.argv[1], "rb").read()
if sys.argv[3] == "1":
    extract_text(data, mode=sys.argv[2])
"""
_COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")


def count_instructions(tree: Path, pdf: Path, mode: str, extract: bool) -> int:
    """Instructions of one fresh interpreter running RUNNER against the glyphline of `tree`."""
    env = dict(os.environ, PYTHONPATH=str(tree), PYTHONHASHSEED="0")
    args = [sys.executable, "-c", RUNNER, str(pdf), mode, "1" if extract else "0"]
    subprocess.run(args, env=env, check=True, capture_output=True)   # compiles the bytecode, untimed
    proc = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *args],
                          env=env, capture_output=True, text=True, cwd=tempfile.gettempdir())
    found = _COLLECTED.findall(proc.stderr)
    if proc.returncode != 0 or not found:
        raise SystemExit(f"instructions.py: the run in {tree} on {pdf.name} failed:\n{proc.stderr[-1500:]}")
    return int(found[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("base", help="git revision or directory of a glyphline tree")
    parser.add_argument("head", nargs="?", help="git revision or directory (default: this work tree)")
    parser.add_argument("--corpus", type=Path, default=GENERATED)
    parser.add_argument("--filter", help="regex on case ids")
    parser.add_argument("--huge", action="store_true", help="include huge-doc cases (800 pages: ~10 min each)")
    parser.add_argument("--mode", default="reflow", help="extract_text mode (default reflow)")
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("instructions.py: valgrind is not installed", file=sys.stderr)
        return 2
    cases = [case for case in long_cases(args.corpus, args.filter) if args.huge or "huge" not in case[0]]
    if not cases:
        print(f"instructions.py: no long documents under {args.corpus}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        trees, made = [], []
        for label, revision in (("base", args.base), ("head", args.head)):
            if revision is None:
                trees.append(ROOT)
            elif Path(revision).is_dir():
                trees.append(Path(revision).resolve())
            else:
                made.append(checkout(revision, Path(tmp) / label))
                trees.append(made[-1])
        for tree in trees:
            # bytecode for both trees, whatever PYTHONDONTWRITEBYTECODE says: a tree without it compiles
            # the modules an extraction imports late (interpreter, lexer, …) inside the counted work
            compileall.compile_dir(str(tree / "glyphline"), quiet=1)
        try:
            startup = [count_instructions(tree, cases[0][1], args.mode, False) for tree in trees]
            print(f"start-up (imports, reading the file): base {startup[0]:,}  head {startup[1]:,}")
            print(f"| document | pages | base | head | head/base |\n|---|---:|---:|---:|---:|")
            totals = [0, 0]
            for case_id, pdf, pages in cases:
                work = [count_instructions(tree, pdf, args.mode, True) - start
                        for tree, start in zip(trees, startup)]
                totals = [total + part for total, part in zip(totals, work)]
                print(f"| {case_id} | {pages} | {work[0]:,} | {work[1]:,} | {work[1] / work[0]:.4f} |", flush=True)
            print(f"| **all** | | {totals[0]:,} | {totals[1]:,} | {totals[1] / totals[0]:.4f} |")
        finally:
            for tree in made:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
