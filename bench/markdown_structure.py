"""What Markdown mode finds on a corpus: headings (with the corpus' own "headings" feature as the
truth where meta.json gives it), heading levels, lists, tables, and whether running headers,
footers and page numbers (meta.json special_blocks) are left out while body blocks are kept.

    python bench/markdown_structure.py [--corpus DIR ...] [--pages 1-30] [--show N] [--peer pymupdf4llm]

--peer pymupdf4llm measures pymupdf4llm (shipped with PyMuPDF 2.x) on the same files instead,
with its running headers and footers left out too (header=False, footer=False) and no OCR.

Reads each case folder's doc.pdf (or the folder's first PDF); prints one line per document and
the totals. A measurement, not a test: nothing here asserts.
"""
from __future__ import annotations

import argparse
import collections
import json
import re
import signal
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from glyphline import extract_text  # noqa: E402

DEFAULT_CORPUS = [ROOT.parent / "shared" / "corpus" / part for part in ("generated", "real")]
SECONDS_PER_FILE = 60
RUNNING_ROLES = ("header", "footer", "page-number")
HEADING = re.compile(r"^(#{1,6}) ", re.MULTILINE)


class Timeout(Exception):
    pass


def _alarm(*_):
    raise Timeout()


def _pdf(folder: Path) -> Path | None:
    if folder.is_file() and folder.suffix.lower() == ".pdf":
        return folder
    doc = folder / "doc.pdf"
    if doc.exists():
        return doc
    found = sorted(folder.glob("*.pdf"))
    return found[0] if found else None


def _glyphline(path: Path, pages: str | None) -> str:
    return extract_text(path.read_bytes(), mode="markdown", pages=pages).text


def _pymupdf4llm(path: Path, pages: str | None) -> str:
    import pymupdf4llm

    first, _, last = (pages or "").partition("-")
    import pymupdf
    with pymupdf.open(path) as doc:
        count = doc.page_count
    chosen = list(range(int(first) - 1, min(int(last), count))) if pages else None
    return pymupdf4llm.to_markdown(str(path), pages=chosen, header=False, footer=False, use_ocr=False,
                                   show_progress=False)


PEERS = {"glyphline": _glyphline, "pymupdf4llm": _pymupdf4llm}


def measure(path: Path, pages: str | None, peer: str = "glyphline") -> dict:
    meta_path = path.parent / "meta.json"
    meta = json.loads(meta_path.read_text()) if meta_path.exists() else {}
    signal.alarm(SECONDS_PER_FILE)
    try:
        text = PEERS[peer](path, pages)
    except Timeout:
        return {"error": "timeout"}
    except Exception as exc:  # noqa: BLE001 - a measurement records failures, it does not stop
        return {"error": type(exc).__name__}
    finally:
        signal.alarm(0)
    levels = collections.Counter(len(m.group(1)) for m in HEADING.finditer(text))
    row = {
        "headings": sum(levels.values()), "levels": dict(sorted(levels.items())),
        "list_items": len(re.findall(r"^\s*(?:-|\d+\.) ", text, re.MULTILINE)),
        "tables": len(re.findall(r"^\|(?:\s*:?-{3,}:?\s*\|)+\s*$", text, re.MULTILINE)),
        "links": len(re.findall(r"\]\(|<https?://", text)),
        # the generated corpus labels its documents with section headings; real files carry no such label
        "truth_headings": ("headings" in meta["features"]) if meta and "real" not in meta.get("features", ["real"]) else None,
        "first_headings": [line for line in text.splitlines() if line.startswith("#")][:4],
    }
    truth = path.parent / "truth.txt"
    if meta.get("special_blocks") and truth.exists():
        row.update(_running_check(meta, truth.read_text(encoding="utf-8"), text, pages))
    return row


def _running_check(meta: dict, truth: str, markdown: str, pages: str | None) -> dict:
    """Running blocks of the truth found as a line of their own in the Markdown (should be none)."""
    limit = int(pages.split("-")[1]) if pages and "-" in pages and pages.split("-")[1] else None
    page_texts = truth.split("\f")
    lines = {re.sub(r"\\(.)", r"\1", line).strip() for line in markdown.splitlines()}
    running = kept = 0
    for block in meta["special_blocks"]:
        if block["role"] not in RUNNING_ROLES or (limit and block["page"] > limit):
            continue
        blocks = page_texts[block["page"] - 1].split("\n\n") if block["page"] - 1 < len(page_texts) else []
        if block["index"] >= len(blocks):
            continue
        running += 1
        kept += blocks[block["index"]].strip() in lines
    return {"running_blocks": running, "running_kept": kept}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", nargs="*", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--pages", default="1-30", help="pages per document (all: '')")
    parser.add_argument("--show", type=int, default=0, help="print the first headings of each document")
    parser.add_argument("--peer", choices=sorted(PEERS), default="glyphline")
    args = parser.parse_args()
    signal.signal(signal.SIGALRM, _alarm)
    totals = collections.Counter()
    confusion = collections.Counter()
    level_totals = collections.Counter()
    for corpus in args.corpus:
        for folder in sorted(p for p in corpus.iterdir() if p.is_dir() or p.suffix.lower() == ".pdf"):
            pdf = _pdf(folder)
            if pdf is None:
                continue
            row = measure(pdf, args.pages or None, args.peer)
            name = f"{corpus.name}/{folder.name}"
            if "error" in row:
                print(f"{name:60} {row['error']}")
                totals["errors"] += 1
                continue
            totals["documents"] += 1
            totals["with_headings"] += row["headings"] > 0
            totals["with_lists"] += row["list_items"] > 0
            totals["with_tables"] += row["tables"] > 0
            totals["with_links"] += row["links"] > 0
            totals["running_blocks"] += row.get("running_blocks", 0)
            totals["running_kept"] += row.get("running_kept", 0)
            level_totals.update(row["levels"])
            if row["truth_headings"] is not None:
                confusion[(row["truth_headings"], row["headings"] > 0)] += 1
            print(f"{name:60} h={row['headings']:3} levels={row['levels']} lists={row['list_items']} "
                  f"tables={row['tables']} links={row['links']}"
                  + (f" running kept {row['running_kept']}/{row['running_blocks']}" if "running_blocks" in row else ""))
            if args.show:
                for line in row["first_headings"][:args.show]:
                    print("        " + line[:100])
    print()
    print(f"documents {totals['documents']} (errors {totals['errors']}): with headings {totals['with_headings']}, "
          f"lists {totals['with_lists']}, tables {totals['with_tables']}, links {totals['with_links']}")
    print(f"heading levels used: {dict(sorted(level_totals.items()))}")
    if confusion:
        print("documents whose meta.json lists the feature 'headings' (truth) vs Markdown headings found:")
        for truth in (True, False):
            print(f"  truth {'headings' if truth else 'no headings':12}: found {confusion[(truth, True)]}, "
                  f"none {confusion[(truth, False)]}")
    if totals["running_blocks"]:
        print(f"running headers/footers/page numbers of the truth still in the Markdown: "
              f"{totals['running_kept']} of {totals['running_blocks']}")


if __name__ == "__main__":
    main()
