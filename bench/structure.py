"""Structure truth set (bench/structure/): Glyphline's Markdown against pymupdf4llm's, same files, same run.

    python bench/structure.py [--only NAME] [--peers pymupdf4llm,pymupdf4llm-rules] [--show FILE] [--orders]

For every PDF in bench/structure/pdf/ (NAME--PRODUCER.pdf, made by bench/structure/build.py from
the HTML in bench/structure/sources/) and its truth (bench/structure/truth/NAME.json, read from
the source), each tool's Markdown is parsed and scored:

    headings   F1 of (text, level); levels on both sides are ranks among the levels the
               document uses (h1 h2 h3 or # ## ###: 1 2 3), so "the largest is level 1" is not
               punished against an author who started at h2; also F1 of the text alone
    lists      F1 of the item texts (marker off), and of (text, depth) with depth the rank of
               the item's indent among the document's indents
    tables     cell accuracy: truth cells found with the same text at the same row and column
               of the best matching output table (empty rows and columns dropped on both sides)
    links      F1 of (text, URL)
    footnotes  F1 of (mark, text) of the notes written as Markdown footnotes ([^1]: …) against the
               source's (the .fodt documents only); a note counts only where its mark was found
    figures    F1 of the alt texts written as image placeholders (![alt](…)) against the source's img alt
    text       word F1 (shared scorer, bench/score.py) of the Markdown with its markup taken
               off, and of Glyphline's plain reflow text
--orders adds, for tagged files, the reflow text's word F1 and reading-order score with
order=geometry, auto and tags (the tagged-order measurement).
A measurement, not a test: nothing here asserts.
"""
from __future__ import annotations

import argparse
import collections
import importlib.util
import json
import re
import sys
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
SET = ROOT / "bench" / "structure"
SCORER = ROOT.parent / "shared" / "bench" / "score.py"

from glyphline import extract_text  # noqa: E402

HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
LIST_ITEM = re.compile(r"^(\s*)(?:[-*+•]|\d{1,3}[.)])\s+(.*)$")
TABLE_RULE = re.compile(r"^\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")
LINK = re.compile(r"(?<!!)\[((?:[^\[\]]|\\.)*)\]\(([^)\s]*)\)|<((?:https?|mailto):[^>\s]+)>")
IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)")
FOOTNOTE = re.compile(r"^\[\^([^\]]+)\]:\s*(.*)$")
FOOTNOTE_REF = re.compile(r"\[\^([^\]]+)\]")
METRICS = ("heading_f1", "heading_text_f1", "list_f1", "list_depth_f1", "table_cells", "link_f1", "figure_alt",
           "footnote_f1", "md_word_f1")


def _scorer():
    spec = importlib.util.spec_from_file_location("score", SCORER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.score_text


def norm(text: str) -> str:
    """Text as compared: markup, escapes and edge punctuation off, quotes and spaces plain, case folded."""
    text = unicodedata.normalize("NFKC", text)
    text = re.sub(r"<br\s*/?>", " ", text)
    text = LINK.sub(lambda m: m.group(1) if m.group(1) is not None else m.group(3), text)
    text = text.replace("**", "").replace("__", "")
    text = re.sub(r"(?<![\w\\])[*_]|[*_](?!\w)", "", text)
    text = re.sub(r"\\(.)", r"\1", text)
    text = text.replace("’", "'").replace("‘", "'").replace("“", '"').replace("”", '"').replace("\u00ad", "")
    text = " ".join(text.split())
    return text.strip(" .,;:!?").casefold()


def parse_markdown(markdown: str) -> dict:
    headings, items, tables, links, notes = [], [], [], [], []
    table: list[list[str]] = []
    for raw in markdown.splitlines() + [""]:
        line = raw.rstrip()
        if line.lstrip().startswith("|"):
            if not TABLE_RULE.match(line.strip()):
                cells = re.split(r"(?<!\\)\|", line.strip().strip("|"))
                table.append([norm(cell) for cell in cells])
            continue
        if table:
            tables.append(table)
            table = []
        note = FOOTNOTE.match(line)
        if note and f"[^{note.group(1)}]" in markdown.replace(note.group(0), ""):
            notes.append((note.group(1), norm(note.group(2))))
        heading = HEADING.match(line)
        if heading:
            headings.append((norm(heading.group(2)), len(heading.group(1))))
        else:
            item = LIST_ITEM.match(line)
            if item and item.group(2).strip():
                items.append((norm(item.group(2)), len(item.group(1).expandtabs(4))))
        for match in LINK.finditer(line):
            text, url = (match.group(1), match.group(2)) if match.group(1) is not None else (match.group(3), match.group(3))
            links.append((norm(text), url.strip()))
    return {"headings": headings, "items": items, "tables": [_trimmed(t) for t in tables], "links": links,
            "footnotes": notes}


def _trimmed(grid: list[list[str]]) -> list[list[str]]:
    """A table without its empty rows and columns."""
    rows = [row for row in grid if any(row)]
    width = max((len(row) for row in rows), default=0)
    rows = [row + [""] * (width - len(row)) for row in rows]
    used = [c for c in range(width) if any(row[c] for row in rows)]
    return [[row[c] for c in used] for row in rows]


def ranks(levels: list[int]) -> dict[int, int]:
    return {level: rank for rank, level in enumerate(sorted(set(levels)), 1)}


def f1(truth: list, found: list) -> float | None:
    if not truth and not found:
        return None
    left = collections.Counter(truth)
    right = collections.Counter(found)
    hit = sum((left & right).values())
    precision = hit / max(1, sum(right.values()))
    recall = hit / max(1, sum(left.values()))
    return 2 * precision * recall / (precision + recall) if hit else 0.0


def cell_accuracy(truth_tables: list[list[list[str]]], found: list[list[list[str]]]) -> float | None:
    total = sum(len(row) for table in truth_tables for row in table)
    if not total:
        return None
    unused = list(found)
    hit = 0
    for table in truth_tables:
        table = _trimmed([[norm(cell) for cell in row] for row in table])
        best, best_hits = None, 0
        for candidate in unused:
            hits = sum(1 for r, row in enumerate(table) for c, cell in enumerate(row)
                       if r < len(candidate) and c < len(candidate[r]) and candidate[r][c] == cell and cell)
            if hits > best_hits:
                best, best_hits = candidate, hits
        if best is not None:
            unused.remove(best)
            hit += best_hits
    return hit / total


def plain(markdown: str) -> str:
    """The Markdown's text without its markup (headings, markers, table pipes, comments)."""
    out = []
    for line in markdown.splitlines():
        if line.startswith("<!--") or TABLE_RULE.match(line.strip()):
            continue
        note = FOOTNOTE.match(line)
        if note:   # "[^1]: text" is the note as printed, "1 text"; a mark in the text, "March[^1]", is "March1"
            line = note.group(1) + " " + note.group(2)
        line = FOOTNOTE_REF.sub(lambda m: m.group(1), line)
        line = IMAGE.sub("", line)
        line = re.sub(r"^#{1,6}\s+", "", line)
        line = re.sub(r"^\s*[-*+]\s+", "", line)
        line = line.replace("|", " ") if line.lstrip().startswith("|") else line
        line = LINK.sub(lambda m: m.group(1) if m.group(1) is not None else m.group(3), line)
        line = line.replace("**", "").replace("<br>", " ")
        line = re.sub(r"(?<![\w\\])[*_]|[*_](?!\w)", "", line)
        out.append(re.sub(r"\\(.)", r"\1", line))
    return "\n".join(out)


def score(markdown: str, truth: dict, score_text) -> dict:
    found = parse_markdown(markdown)
    truth_rank = ranks([level for _, level in truth["headings"]])
    found_rank = ranks([level for _, level in found["headings"]])
    indents = sorted({indent for _, indent in found["items"]})
    return {
        "heading_f1": f1([(norm(t), truth_rank[lv]) for t, lv in truth["headings"]],
                         [(t, found_rank[lv]) for t, lv in found["headings"]]),
        "heading_text_f1": f1([norm(t) for t, _ in truth["headings"]], [t for t, _ in found["headings"]]),
        "list_f1": f1([norm(t) for t, _ in truth["list_items"]], [t for t, _ in found["items"]]),
        "list_depth_f1": f1([(norm(t), d) for t, d in truth["list_items"]],
                            [(t, indents.index(indent)) for t, indent in found["items"]]),
        "table_cells": cell_accuracy(truth["tables"], found["tables"]),
        "link_f1": f1([(norm(t), u) for t, u in truth["links"]], found["links"]),
        "figure_alt": f1([norm(alt) for alt in truth["figures"]],
                         [norm(m.group(1)) for m in re.finditer(r"!\[([^\]]*)\]\(", markdown) if m.group(1).strip()]),
        "footnote_f1": f1([(mark, norm(text)) for mark, text in truth.get("footnotes", [])], found["footnotes"]),
        "md_word_f1": score_text(truth["text"], plain(markdown))["word_f1"],
    }


def glyphline_markdown(path: Path) -> str:
    return extract_text(path.read_bytes(), mode="markdown").text


def pymupdf4llm_markdown(path: Path, layout: bool = True) -> str:
    """pymupdf4llm as installed: its default is the layout engine (pymupdf.layout, a trained model);
    `layout=False` is its older rule-based path (the only one that writes links)."""
    import pymupdf4llm

    pymupdf4llm.use_layout(layout)
    try:
        return pymupdf4llm.to_markdown(str(path), header=False, footer=False, use_ocr=False, show_progress=False)
    finally:
        pymupdf4llm.use_layout(True)


TOOLS = {"glyphline": glyphline_markdown, "pymupdf4llm": pymupdf4llm_markdown,
         "pymupdf4llm-rules": lambda path: pymupdf4llm_markdown(path, layout=False)}


def tagged(path: Path) -> bool:
    from glyphline.document import open as open_document

    return open_document(path.read_bytes()).structure is not None


def _cell(value: float | None) -> str:
    return "   -  " if value is None else f"{value:6.3f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="files whose name contains this")
    parser.add_argument("--peers", default="pymupdf4llm,pymupdf4llm-rules",
                        help="comma-separated: pymupdf4llm (its layout engine), pymupdf4llm-rules; '' for none")
    parser.add_argument("--show", help="print both tools' Markdown of the file whose name contains this")
    parser.add_argument("--orders", action="store_true", help="tagged files: reflow text by each order")
    parser.add_argument("--json", type=Path, help="write every row here")
    args = parser.parse_args(argv)
    score_text = _scorer()
    tools = ["glyphline"] + [peer for peer in args.peers.split(",") if peer]
    rows = []
    print(f"{'file':44} {'tool':17} " + " ".join(f"{m[:6]:>6}" for m in METRICS) + "  text_f1")
    for pdf in sorted((SET / "pdf").glob("*.pdf")):
        if args.only and args.only not in pdf.name:
            continue
        name, producer = pdf.stem.split("--")
        truth = json.loads((SET / "truth" / f"{name}.json").read_text(encoding="utf-8"))
        for tool in tools:
            try:
                markdown = TOOLS[tool](pdf)
            except Exception as exc:  # noqa: BLE001 - a measurement records failures
                print(f"{pdf.stem:44} {tool:17} failed: {type(exc).__name__}: {exc}")
                continue
            if args.show and args.show in pdf.name:
                print(f"----- {tool}\n{markdown}\n-----")
            row = {"file": pdf.stem, "producer": producer, "tool": tool, **score(markdown, truth, score_text)}
            if tool == "glyphline":
                row["text_f1"] = score_text(truth["text"], extract_text(pdf.read_bytes()).text)["word_f1"]
            rows.append(row)
            print(f"{pdf.stem:44} {tool:17} " + " ".join(_cell(row[m]) for m in METRICS)
                  + ("  " + _cell(row["text_f1"]) if "text_f1" in row else ""))
    print()
    groups = sorted({r["producer"] for r in rows}) + ["all"]
    print(f"{'mean (files with the feature)':44} {'tool':17} " + " ".join(f"{m[:6]:>6}" for m in METRICS) + "  text_f1")
    for group in groups:
        for tool in tools:
            chosen = [r for r in rows if r["tool"] == tool and group in ("all", r["producer"])]
            cells = []
            for metric in METRICS + (("text_f1",) if tool == "glyphline" else ()):
                values = [r[metric] for r in chosen if r.get(metric) is not None]
                cells.append(_cell(sum(values) / len(values) if values else None))
            print(f"{group:44} {tool:17} " + " ".join(cells[:len(METRICS)]) + ("  " + cells[-1] if tool == "glyphline" else ""))
    if args.orders:
        _orders(args.only, score_text)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    return 0


def _orders(only: str | None, score_text) -> None:
    print()
    print(f"{'tagged file: reflow word F1 / order':44} " + " ".join(f"{o:>15}" for o in ("geometry", "auto", "tags")))
    for pdf in sorted((SET / "pdf").glob("*.pdf")):
        if (only and only not in pdf.name) or not tagged(pdf):
            continue
        truth = json.loads((SET / "truth" / f"{pdf.stem.split('--')[0]}.json").read_text(encoding="utf-8"))
        cells = []
        for order in ("geometry", "auto", "tags"):
            result = score_text(truth["text"], extract_text(pdf.read_bytes(), order=order).text)
            cells.append(f"{result['word_f1']:.3f} / {result['order']:.3f}")
        print(f"{pdf.stem:44} " + " ".join(f"{c:>15}" for c in cells))


if __name__ == "__main__":
    sys.exit(main())
