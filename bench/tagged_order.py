"""Tagged reading order: does order="tags" or "auto" read tagged files better than "geometry"?

    python bench/tagged_order.py [--corpus DIR ...] [--pages]
    python bench/tagged_order.py --wild [DIR]

For every tagged PDF (a /StructTreeRoot) with a truth.txt under the corpus folders, extracts
the reflow text with each order and scores it with the shared scorer (score.py: word F1 and
reading order, a word-level edit distance). With --pages, prints per page what the `auto` rule
looks at: the share of text the tags name and the upward moves of both orders.

--wild: the tagged files of a corpus without truth (default ../shared/corpus/wild): how many
pages `auto` orders by the tree, which files' text changes from geometry, and, for those, the
order score of each against pdftotext's (another reader's order, not the truth: a hint only).
"""
from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
SHARED = ROOT.parent / "shared"
DEFAULT_CORPUS = [SHARED / "corpus" / "generated", SHARED / "corpus" / "real"]
ORDERS = ("geometry", "tags", "auto")
MAX_PAGES_SHOWN = 3   # --pages: the first pages of each file (a 110-page case would drown the table)


def _scorer():
    spec = importlib.util.spec_from_file_location("score", SHARED / "bench" / "score.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.score_text


def tagged_cases(folders: list[Path]) -> list[Path]:
    import glyphline.document as document

    cases = []
    for folder in folders:
        for pdf in sorted(folder.glob("*/doc.pdf")):
            if not (pdf.parent / "truth.txt").exists():
                continue
            try:
                if document.open(pdf.read_bytes()).structure is not None:
                    cases.append(pdf)
            except Exception:
                continue
    return cases


def page_facts(data: bytes) -> list[str]:
    """Per page: what rule `auto` weighs (tag coverage, upward moves of each order) and its verdict."""
    import glyphline.document as document
    from glyphline.layout import analyze_page
    from glyphline.layout.model import AnalysisNeeds
    from glyphline.layout.tagged import MOVED_BY_AUTO, _sorted_by_tags, interleaved, order_blocks, upward_moves

    doc = document.open(data)
    lines = []
    for index in range(doc.page_count):
        page = doc.page(index)
        layout = analyze_page(page.glyphs, page.width, page.height, index + 1, tags=doc.structure.page(index),
                              needs=AnalysisNeeds(order="geometry"))
        body = [b for b in layout.blocks if b.role in MOVED_BY_AUTO]
        chars = [sum(len(w.text) for line in b.lines for w in line.words) for b in body]
        coverage = sum(n * b.tagged for n, b in zip(chars, body)) / max(1, sum(chars))
        by_tags = _sorted_by_tags(body)
        lines.append(f"  page {index + 1}: blocks {len(body)}, tagged {coverage:.2f}, "
                     f"interleaved {interleaved(by_tags)}, upward moves "
                     f"geometry {upward_moves(body)} tags {upward_moves(by_tags)}, "
                     f"auto uses tags: {order_blocks(layout.blocks, 'auto')[1]}")
    return lines


def wild(folder: Path) -> None:
    import subprocess

    from glyphline import extract_text
    from glyphline.document import open as open_document

    score_text = _scorer()
    files = pages = by_tags = 0
    changed: dict[str, int] = {"auto": 0, "tags": 0}
    for pdf in sorted(folder.rglob("*.pdf")):
        data = pdf.read_bytes()
        try:
            if open_document(data).structure is None:
                continue
            results = {order: extract_text(data, order=order, keep_layouts=True) for order in ORDERS}
        except Exception:
            continue
        files += 1
        pages += len(results["auto"].layouts)
        by_tags += sum(layout.order == "tags" for layout in results["auto"].layouts)
        differs = {order: results[order].text != results["geometry"].text for order in ("auto", "tags")}
        for order, flag in differs.items():
            changed[order] += flag
        if differs["auto"] or differs["tags"]:
            reference = subprocess.run(["pdftotext", "-enc", "UTF-8", str(pdf), "-"], capture_output=True,
                                       timeout=60).stdout.decode("utf-8", "replace")
            cells = " ".join(f"{order} {score_text(reference, results[order].text)['order']:.3f}" for order in ORDERS)
            print(f"{pdf.relative_to(folder)}: auto changes it: {differs['auto']}; order vs pdftotext: {cells}")
    print(f"{files} tagged files, {pages} pages; auto orders {by_tags} pages by the tree; "
          f"text differs from geometry in {changed['auto']} files (auto), {changed['tags']} (tags)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", nargs="+", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--pages", action="store_true", help="per-page facts of the auto rule")
    parser.add_argument("--wild", nargs="?", type=Path, const=SHARED / "corpus" / "wild", metavar="DIR",
                        help="tagged files without truth (see above)")
    args = parser.parse_args(argv)
    if args.wild:
        wild(args.wild)
        return 0
    from glyphline import extract_text

    score_text = _scorer()
    totals = {order: [0.0, 0.0] for order in ORDERS}
    cases = tagged_cases(args.corpus)
    print(f"{'case':42} " + " ".join(f"{o + ' F1/order':>22}" for o in ORDERS))
    for pdf in cases:
        data = pdf.read_bytes()
        truth = (pdf.parent / "truth.txt").read_text(encoding="utf-8")
        cells = []
        for order in ORDERS:
            score = score_text(truth, extract_text(data, order=order).text)
            totals[order][0] += score["word_f1"]
            totals[order][1] += score["order"]
            cells.append(f"{score['word_f1']:.3f} / {score['order']:.3f}")
        name = f"{pdf.parent.parent.name}/{pdf.parent.name}"
        print(f"{name:42} " + " ".join(f"{c:>22}" for c in cells))
        if args.pages:
            print("\n".join(page_facts(data)[:MAX_PAGES_SHOWN]))
    n = max(1, len(cases))
    print(f"{'mean of ' + str(len(cases)) + ' tagged cases':42} "
          + " ".join(f"{f'{totals[o][0] / n:.3f} / {totals[o][1] / n:.3f}':>22}" for o in ORDERS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
