"""Pages per second of the glyph layer against pypdf and pdfminer.six, measured in the same run.

    .venv/bin/python bench/glyphs.py [--repeat N] [--cases id,id,...] [--corpus DIR]

Cases: the long documents of ../shared/corpus/generated (meta.json features long-doc or huge-doc)
unless --cases names others. Each engine reads every page of a case:
  glyphline  glyphline.open(data).pages, touching every page's glyphs
  pypdf      PdfReader(data).pages, page.extract_text() on each
  pdfminer   pdfminer.high_level.extract_pages(data), consuming every page
The best of --repeat runs counts (the machine is shared; the minimum is the least disturbed run).
Not a test: it prints a table with the ratios glyphline / pypdf and glyphline / pdfminer.
"""
from __future__ import annotations

import argparse
import io
import json
import logging
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = REPO.parent / "shared" / "corpus" / "generated"
LONG_TAGS = {"long-doc", "huge-doc"}

sys.path.insert(0, str(REPO))


def read_glyphline(data: bytes) -> int:
    import glyphline

    doc = glyphline.open(data)
    for page in doc.pages:
        page.glyphs
    return doc.page_count


def read_pypdf(data: bytes) -> int:
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(data))
    for page in reader.pages:
        page.extract_text()
    return len(reader.pages)


def read_pdfminer(data: bytes) -> int:
    from pdfminer.high_level import extract_pages

    return sum(1 for _ in extract_pages(io.BytesIO(data)))


ENGINES = {"glyphline": read_glyphline, "pypdf": read_pypdf, "pdfminer": read_pdfminer}


def long_cases(corpus: Path) -> list[str]:
    cases = []
    for meta_path in sorted(corpus.glob("*/meta.json")):
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        if LONG_TAGS & set(meta.get("features", [])):
            cases.append(meta_path.parent.name)
    return cases


def best_seconds(read, data: bytes, repeat: int) -> tuple[float, int]:
    best, pages = float("inf"), 0
    for _ in range(repeat):
        started = time.perf_counter()
        pages = read(data)
        best = min(best, time.perf_counter() - started)
    return best, pages


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=1, help="runs per engine and case; the best counts")
    parser.add_argument("--cases", help="comma-separated case ids (default: the long-doc/huge-doc cases)")
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="folder of generated cases")
    args = parser.parse_args(argv)
    logging.disable(logging.WARNING)       # pypdf's and pdfminer's warnings are not part of the figures

    cases = args.cases.split(",") if args.cases else long_cases(args.corpus)
    if not cases:
        print(f"no cases found in {args.corpus}", file=sys.stderr)
        return 1
    header = f"{'case':28} {'pages':>5} " + " ".join(f"{name + ' p/s':>13}" for name in ENGINES) \
        + f" {'×pypdf':>7} {'×pdfminer':>9}"
    print(header)
    print("-" * len(header))
    seconds_total = {name: 0.0 for name in ENGINES}
    pages_total = {name: 0 for name in ENGINES}
    for case in cases:
        data = (args.corpus / case / "doc.pdf").read_bytes()
        rates, counts = {}, {}
        for name, read in ENGINES.items():
            seconds, counts[name] = best_seconds(read, data, args.repeat)
            seconds_total[name] += seconds
            pages_total[name] += counts[name]
            rates[name] = counts[name] / seconds   # each engine's own page count
        print(_row(case, counts["glyphline"], rates))
    print("-" * len(header))
    print(_row("all", pages_total["glyphline"], {n: pages_total[n] / seconds_total[n] for n in ENGINES}))
    return 0


def _row(label: str, pages: int, rates: dict[str, float]) -> str:
    cells = " ".join(f"{rates[name]:13.1f}" for name in ENGINES)
    return (f"{label:28} {pages:5d} {cells} {rates['glyphline'] / rates['pypdf']:6.2f}×"
            f" {rates['glyphline'] / rates['pdfminer']:8.2f}×")


if __name__ == "__main__":
    sys.exit(main())
