"""Does a change alter any output? Extracts every corpus file with two git revisions of the
engine and lists the files whose output differs, mode by mode.

    python bench/compare_revisions.py BASE [HEAD] [--modes reflow,json] [--corpus DIR ...]

BASE and HEAD are git revisions (HEAD defaults to the work tree as it is, uncommitted changes
included). Each revision is checked out into a temporary worktree and runs in its own process
(one process per revision, files in a loop: no interpreter start-up per file); outputs are
compared by SHA-256 and the first differing files are shown with a short diff. A refactoring
must print "identical" for every mode. Exit status 1 when anything differs.
"""
from __future__ import annotations

import argparse
import difflib
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CORPUS = [ROOT.parent / "shared" / "corpus" / part for part in ("generated", "real", "robustness", "wild")]
SHOW_DIFFS = 5

# Runs inside the revision's own tree: extracts each file in each mode, prints one JSON line per file.
WORKER = r"""
import hashlib, json, sys, signal
import glyphline
from glyphline.extract import extract_text

class Timeout(Exception):
    pass

def on_alarm(*_):
    raise Timeout()

signal.signal(signal.SIGALRM, on_alarm)
modes = sys.argv[1].split(",")
timeout = int(sys.argv[2])
for path in sys.stdin.read().splitlines():
    data = open(path, "rb").read()
    row = {"path": path}
    for mode in modes:
        signal.alarm(timeout)
        try:
            text = extract_text(data, mode=mode).text
        except Timeout:
            text = "<timeout>"
        except Exception as exc:
            text = f"<{type(exc).__name__}: {exc}>"
        finally:
            signal.alarm(0)
        row[mode] = text
    print(json.dumps(row), flush=True)
"""


def corpus_files(folders: list[Path]) -> list[Path]:
    files: list[Path] = []
    for folder in folders:
        if folder.is_dir():
            files.extend(sorted(folder.rglob("*.pdf")))
    return files


def run_revision(tree: Path, files: list[Path], modes: list[str], timeout: int) -> dict[str, dict[str, str]]:
    env = dict(os.environ, PYTHONPATH=str(tree))
    proc = subprocess.run([sys.executable, "-c", WORKER, ",".join(modes), str(timeout)], cwd=tempfile.gettempdir(),
                          input="\n".join(map(str, files)), capture_output=True, text=True, env=env)
    out: dict[str, dict[str, str]] = {}
    for line in proc.stdout.splitlines():
        row = json.loads(line)
        out[row.pop("path")] = row
    if proc.returncode != 0 and len(out) < len(files):
        sys.stderr.write(proc.stderr[-2000:])
        raise SystemExit(f"the worker for {tree} stopped after {len(out)} of {len(files)} files")
    return out


# generated data that git does not track (make cmaps, make brotli-data): both revisions read the same
GENERATED = ("cmaps", "glyphline/data/brotli", "glyphline/data/cmaps")


def checkout(revision: str, into: Path) -> Path:
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(into), revision], check=True)
    for name in GENERATED:
        if (ROOT / name).exists() and not (into / name).exists():
            (into / name).parent.mkdir(parents=True, exist_ok=True)
            (into / name).symlink_to(ROOT / name)
    return into


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base")
    parser.add_argument("head", nargs="?", help="default: the work tree as it is")
    parser.add_argument("--modes", default="reflow,json")
    parser.add_argument("--corpus", nargs="*", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--timeout", type=int, default=60, help="seconds per file and mode")
    args = parser.parse_args(argv)
    modes = args.modes.split(",")
    files = corpus_files([folder.resolve() for folder in args.corpus])
    with tempfile.TemporaryDirectory() as tmp:
        trees = [checkout(args.base, Path(tmp) / "base")]
        trees.append(checkout(args.head, Path(tmp) / "head") if args.head else ROOT)
        try:
            base, head = (run_revision(tree, files, modes, args.timeout) for tree in trees)
        finally:
            for tree in trees:
                if tree != ROOT:
                    subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=False)
    differing = 0
    for mode in modes:
        changed = [path for path in base if _digest(base[path][mode]) != _digest(head.get(path, {}).get(mode, ""))]
        differing += len(changed)
        print(f"{mode}: {len(files)} files, " + ("identical" if not changed else f"{len(changed)} differ"))
        for path in changed[:SHOW_DIFFS]:
            print(f"  {path}")
            diff = difflib.unified_diff(base[path][mode].splitlines(), head[path][mode].splitlines(), lineterm="", n=0)
            for line in list(diff)[2:8]:
                print(f"    {line[:160]}")
    return 1 if differing else 0


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


if __name__ == "__main__":
    sys.exit(main())
