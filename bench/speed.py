#!/usr/bin/env python3
"""Speed benchmark: full reflow extract_text in pages per second on the long documents.

    .venv/bin/python bench/speed.py                 # every long-doc / huge-doc case
    .venv/bin/python bench/speed.py --filter 110p --repeat 3
    .venv/bin/python bench/speed.py --jobs 2          # also glyphline with its pages over 2 processes

The long documents are the cases of ../shared/corpus/generated whose meta.json features
include long-doc or huge-doc. In the same run it times pypdf's page.extract_text(),
pdfminer.six's extract_text() and pdftotext (when installed), each on the same bytes,
sequentially (never in parallel: the machine is shared), and prints pages/s per document,
the totals and glyphline's ratio to each peer. With --jobs N it also times glyphline with the
pages of each document analysed in N processes (`extract_text(jobs=N)`, pool start included):
the column `glyphline ×N`, against the same peers; other work on the machine shows in it first. Python extractors are timed in this process
after their imports; pdftotext includes its process start (a few ms). Not a test.
"""
from __future__ import annotations

import argparse
import gc
import io
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # the glyphline of this checkout, installed or not
GENERATED = REPO.parent / "shared" / "corpus" / "generated"
LONG_FEATURES = {"long-doc", "huge-doc"}
WARM_UP_PAGES = 3   # an untimed run over the first pages loads modules and lookup tables


def glyphline_extract(data: bytes, path: Path, pages: int | None = None) -> None:
    from glyphline import extract_text

    extract_text(data, mode="reflow", pages=f"1-{pages}" if pages else None)


def _parallel_glyphline(jobs: int) -> Callable[..., None]:
    def extract(data: bytes, path: Path, pages: int | None = None) -> None:
        from glyphline import extract_text

        extract_text(data, mode="reflow", pages=f"1-{pages}" if pages else None, jobs=jobs)
    return extract


def pypdf_extract(data: bytes, path: Path, pages: int | None = None) -> None:
    from pypdf import PdfReader

    for page in PdfReader(io.BytesIO(data)).pages[:pages]:
        page.extract_text()


def pdfminer_extract(data: bytes, path: Path, pages: int | None = None) -> None:
    from pdfminer.high_level import extract_text
    from pdfminer.layout import LAParams

    extract_text(io.BytesIO(data), laparams=LAParams(), maxpages=pages or 0)


def pdftotext_extract(data: bytes, path: Path, pages: int | None = None) -> None:
    limit = ["-l", str(pages)] if pages else []
    with tempfile.TemporaryFile() as out:  # the text goes to a file, as a user's would
        subprocess.run(["pdftotext", "-enc", "UTF-8", *limit, str(path), "-"], stdout=out,
                       stderr=subprocess.DEVNULL, check=True)


EXTRACTORS: dict[str, tuple[Callable[..., None], Callable[[], bool]]] = {
    "glyphline": (glyphline_extract, lambda: True),
    "pypdf": (pypdf_extract, lambda: _importable("pypdf")),
    "pdfminer.six": (pdfminer_extract, lambda: _importable("pdfminer")),
    "pdftotext": (pdftotext_extract, lambda: shutil.which("pdftotext") is not None),
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=GENERATED, help="folder of cases (default ../shared/corpus/generated)")
    parser.add_argument("--filter", help="regex on case ids")
    parser.add_argument("--repeat", type=int, default=1, help="runs per document and extractor; the best is kept")
    parser.add_argument("--extractors", default=",".join(EXTRACTORS),
                        help=f"comma list among {', '.join(EXTRACTORS)} (default: all installed)")
    parser.add_argument("--jobs", type=int, default=1,
                        help="also time glyphline with each document's pages over this many processes")
    args = parser.parse_args(argv)
    if args.jobs > 1:
        label = f"glyphline ×{args.jobs}"
        EXTRACTORS[label] = (_parallel_glyphline(args.jobs), lambda: True)
        args.extractors = args.extractors.replace("glyphline", f"glyphline,{label}", 1)

    cases = long_cases(args.corpus, args.filter)
    if not cases:
        print(f"speed.py: no long-doc/huge-doc cases under {args.corpus}", file=sys.stderr)
        return 2
    names = []
    for name in (n.strip() for n in args.extractors.split(",")):
        if name not in EXTRACTORS:
            print(f"speed.py: unknown extractor {name!r}", file=sys.stderr)
            return 2
        if EXTRACTORS[name][1]():
            names.append(name)
        else:
            print(f"speed.py: {name} is not installed; skipped", file=sys.stderr)
    warm_up_data = cases[0][1].read_bytes()
    for name in names:  # imports and first-use table loading are not part of the timing
        EXTRACTORS[name][0](warm_up_data, cases[0][1], pages=WARM_UP_PAGES)

    seconds: dict[str, dict[str, float]] = {name: {} for name in names}
    pages: dict[str, int] = {}
    for case_id, path, page_count in cases:
        data = path.read_bytes()
        pages[case_id] = page_count
        for name in names:
            best = float("inf")
            for _ in range(max(1, args.repeat)):
                gc.collect()
                start = time.perf_counter()
                try:
                    EXTRACTORS[name][0](data, path)
                except Exception as exc:  # a peer failing on a document is a result, not a crash
                    print(f"speed.py: {name} failed on {case_id}: {type(exc).__name__}: {exc}", file=sys.stderr)
                    best = float("nan")
                    break
                best = min(best, time.perf_counter() - start)
            seconds[name][case_id] = best
            print(f"  {case_id:28s} {name:13s} {_rate(page_count, best):>8s} pages/s", file=sys.stderr)
    print(table(cases, names, seconds, pages))
    return 0


def long_cases(corpus: Path, pattern: str | None) -> list[tuple[str, Path, int]]:
    found = []
    for meta_path in sorted(corpus.glob("*/meta.json")):
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        case_id = meta.get("id") or meta_path.parent.name
        if LONG_FEATURES & set(meta.get("features", [])) and (not pattern or re.search(pattern, case_id)):
            pdf = meta_path.parent / "doc.pdf"
            if pdf.is_file():
                found.append((case_id, pdf, int(meta.get("pages") or 0)))
    return found


def table(cases, names: list[str], seconds: dict[str, dict[str, float]], pages: dict[str, int]) -> str:
    lines = ["## Full reflow extraction speed (pages per second, best of the runs)", "",
             "| document | pages | " + " | ".join(names) + " |", "|---|---:|" + "---:|" * len(names)]
    for case_id, _, page_count in cases:
        cells = [_rate(page_count, seconds[name][case_id]) for name in names]
        lines.append(f"| {case_id} | {page_count} | " + " | ".join(cells) + " |")
    totals = {}
    for name in names:
        ok = [c for c, _, _ in cases if seconds[name][c] == seconds[name][c]]  # NaN marks a failure
        totals[name] = (sum(pages[c] for c in ok), sum(seconds[name][c] for c in ok))
    lines.append("| **all** | " + str(sum(pages.values())) + " | "
                 + " | ".join(_rate(*totals[name]) for name in names) + " |")
    if "glyphline" in names:
        mine = totals["glyphline"][0] / totals["glyphline"][1] if totals["glyphline"][1] else 0.0
        lines.append("")
        parallel = [name for name in names if name.startswith("glyphline ×")]
        for name in names:
            if not name.startswith("glyphline") and totals[name][1]:
                theirs = totals[name][0] / totals[name][1]
                lines.append(f"glyphline / {name}: {mine / theirs:.2f}× the throughput")
                for label in parallel:
                    if totals[label][1]:
                        ours = totals[label][0] / totals[label][1]
                        lines.append(f"{label} / {name}: {ours / theirs:.2f}× the throughput")
        if "pypdf" in names:   # the target is per document, not only overall
            for label in ["glyphline", *parallel]:
                ratios = [f"{case_id} {seconds['pypdf'][case_id] / seconds[label][case_id]:.2f}×"
                          for case_id, _, _ in cases if seconds[label][case_id] > 0 and seconds["pypdf"][case_id] > 0]
                lines.append(f"{label} / pypdf per document: " + ", ".join(ratios))
    return "\n".join(lines) + "\n"


def _rate(page_count: int, secs: float) -> str:
    if secs != secs or secs <= 0:
        return "failed" if secs != secs else "-"
    return f"{page_count / secs:.1f}"


def _importable(module: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(module) is not None


if __name__ == "__main__":
    sys.exit(main())
