"""Build the structure truth set: each HTML source in sources/ → PDFs from several producers, and
its truth (headings, list items, tables, links, plain text) read from the source itself.

    python bench/structure/build.py [--only NAME] [--producers chromium-tagged,...]

Producers (each skipped with a note when its program is missing):
    chromium-tagged / chromium-untagged   Chromium headless --print-to-pdf (--export-tagged-pdf /
                                          --disable-pdf-tagging), the HTML as written (CSS floats)
    lo-tagged / lo-untagged               LibreOffice Writer's HTML import → PDF (UseTaggedPDF)
    pdflatex                              the same document as LaTeX (article class), untagged

A LibreOffice document with footnotes (sources/NAME.fodt, flat ODF: Writer's HTML import has
no footnotes) goes to lo-tagged and lo-untagged only; its truth adds `footnotes` (mark, text),
and its text is the paragraphs (each citation glued to its word, as printed) and then the
notes at the page's foot.

Reading order of the truth: the source's order, with each <aside> read after the rest of the
document (as a reader takes a sidebar, and as the corpus' truth does). LibreOffice and LaTeX
get the source with its asides already moved to the end (neither floats them), so the one
truth holds for every producer. Writes pdf/NAME--PRODUCER.pdf and truth/NAME.json.
"""
from __future__ import annotations

import argparse
import html
import json
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCES, PDFS, TRUTH = HERE / "sources", HERE / "pdf", HERE / "truth"
PRODUCERS = ("chromium-tagged", "chromium-untagged", "lo-tagged", "lo-untagged", "pdflatex")
CHROMIUM = "/usr/bin/chromium"
VOID = {"meta", "img", "br", "hr", "link", "input"}
HEADINGS = {f"h{n}": n for n in range(1, 7)}


# ----------------------------------------------------------------------------- a small DOM

@dataclass
class Node:
    tag: str
    attrs: dict[str, str] = field(default_factory=dict)
    children: list = field(default_factory=list)   # Node or str

    def find_all(self, tag: str) -> list["Node"]:
        found = []
        for child in self.children:
            if isinstance(child, Node):
                if child.tag == tag:
                    found.append(child)
                found.extend(child.find_all(tag))
        return found


class _Parser(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Node("#root")
        self.stack = [self.root]

    def handle_starttag(self, tag, attrs):
        node = Node(tag, {k: v or "" for k, v in attrs})
        self.stack[-1].children.append(node)
        if tag not in VOID:
            self.stack.append(node)

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, 0, -1):
            if self.stack[i].tag == tag:
                del self.stack[i:]
                return

    def handle_data(self, data):
        self.stack[-1].children.append(data)


def parse(source: str) -> Node:
    parser = _Parser()
    parser.feed(source)
    return parser.root


def body_of(root: Node) -> Node:
    bodies = root.find_all("body")
    return bodies[0] if bodies else root


def asides_last(body: Node) -> Node:
    """The body with its <aside> elements moved to its end (the truth's reading order)."""
    def without(node: Node) -> Node:
        return Node(node.tag, node.attrs, [without(c) if isinstance(c, Node) else c
                                           for c in node.children if not (isinstance(c, Node) and c.tag == "aside")])
    return Node(body.tag, body.attrs, without(body).children + body.find_all("aside"))


def text_of(node, skip=("ul", "ol", "style", "title", "script")) -> str:
    if isinstance(node, str):
        return node
    if node.tag in skip:
        return ""
    return "".join(text_of(child, skip) for child in node.children)


def clean(text: str) -> str:
    return " ".join(text.split())


# ----------------------------------------------------------------------------- truth

def truth(body: Node) -> dict:
    """Headings, list items, tables, links and the plain text (blocks in reading order) of a body."""
    out = {"headings": [], "list_items": [], "tables": [], "links": [], "figures": [], "blocks": []}

    def walk(node: Node, list_depth: int) -> None:
        for child in node.children:
            if not isinstance(child, Node):
                if child.strip() and node.tag in ("body", "aside", "figure", "div"):
                    out["blocks"].append(clean(child))
                continue
            tag = child.tag
            if tag in HEADINGS:
                out["headings"].append([clean(text_of(child)), HEADINGS[tag]])
                out["blocks"].append(clean(text_of(child)))
            elif tag in ("p", "figcaption"):
                out["blocks"].append(clean(text_of(child)))
            elif tag in ("ul", "ol"):
                number = 0
                for item in child.children:
                    if isinstance(item, Node) and item.tag == "li":
                        number += 1
                        own = clean(text_of(item))
                        out["list_items"].append([own, list_depth])
                        out["blocks"].append((f"{number}. " if tag == "ol" else "") + own)
                        walk(Node("li-lists", {}, [c for c in item.children
                                                   if isinstance(c, Node) and c.tag in ("ul", "ol")]), list_depth + 1)
            elif tag == "table":
                rows = [[clean(text_of(cell)) for cell in row.children if isinstance(cell, Node) and cell.tag in ("td", "th")]
                        for row in child.find_all("tr")]
                out["tables"].append(rows)
                out["blocks"].extend(" ".join(row) for row in rows)
            elif tag == "img":
                if child.attrs.get("alt"):
                    out["figures"].append(child.attrs["alt"])
            else:
                walk(child, list_depth)   # finds its own links
                continue
            for link in child.find_all("a"):
                entry = [clean(text_of(link)), link.attrs.get("href", "")]
                if entry not in out["links"]:
                    out["links"].append(entry)

    walk(body, 0)
    out["text"] = "\n\n".join(out.pop("blocks")) + "\n"
    return out


# ----------------------------------------------------------------------------- HTML and LaTeX renderings

def to_html(node, inside: str = "") -> str:
    if isinstance(node, str):
        return html.escape(node, quote=False)
    inner = "".join(to_html(child) for child in node.children)
    if node.tag == "#root":
        return inner
    attrs = "".join(f' {k}="{html.escape(v)}"' for k, v in node.attrs.items())
    return f"<{node.tag}{attrs}>" + ("" if node.tag in VOID else inner + f"</{node.tag}>")


def html_for_writer(source: str) -> str:
    """The source for LibreOffice: asides at the end (Writer does not float them), no style sheet
    and tables sized by HTML attributes (Writer's import squeezes CSS-padded cells to a letter)."""
    root = parse(source)
    body = body_of(root)
    moved = asides_last(body)
    body.children = moved.children
    for table in root.find_all("table"):
        table.attrs.update({"width": "70%", "border": "1", "cellpadding": "3"})
    for head in root.find_all("head"):   # Writer reads the cells' CSS padding as a page-wide indent
        head.children = [c for c in head.children if not (isinstance(c, Node) and c.tag == "style")]
    return "<!doctype html>\n" + to_html(root)


_TEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
                "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}
_TEX_HEADINGS = {1: "section", 2: "subsection", 3: "subsubsection", 4: "paragraph", 5: "paragraph", 6: "paragraph"}


def tex_text(text: str) -> str:
    return "".join(_TEX_SPECIAL.get(ch, ch) for ch in re.sub(r"\s+", " ", text))


def to_latex(node) -> str:
    if isinstance(node, str):
        return tex_text(node)
    inner = "".join(to_latex(child) for child in node.children)
    tag = node.tag
    if tag in ("style", "title", "head", "img"):
        return ""
    if tag in HEADINGS:
        return f"\n\\{_TEX_HEADINGS[HEADINGS[tag]]}*{{{inner.strip()}}}\n"
    if tag in ("p", "figcaption"):
        return "\n\n" + inner.strip() + "\n\n"
    if tag in ("b", "strong", "th"):
        inner = f"\\textbf{{{inner.strip()}}}"
    if tag in ("i", "em"):
        return f"\\emph{{{inner}}}"
    if tag == "a":
        return f"\\href{{{node.attrs.get('href', '').replace('%', chr(92) + '%').replace('#', chr(92) + '#')}}}{{{inner}}}"
    if tag == "ul":
        return "\n\\begin{itemize}\n" + inner + "\n\\end{itemize}\n"
    if tag == "ol":
        return "\n\\begin{enumerate}\n" + inner + "\n\\end{enumerate}\n"
    if tag == "li":
        return "\\item " + inner.strip() + "\n"
    if tag == "table":
        rows = node.find_all("tr")
        width = max(len([c for c in r.children if isinstance(c, Node)]) for r in rows)
        lines = [" & ".join(to_latex(c).strip() for c in r.children if isinstance(c, Node)) + r" \\ \hline" for r in rows]
        return ("\n\n\\noindent\\begin{tabular}{|" + "l|" * width + "}\n\\hline\n" + "\n".join(lines)
                + "\n\\end{tabular}\n\n")
    return inner


def latex_document(source: str) -> str:
    body = asides_last(body_of(parse(source)))
    return ("\\documentclass{article}\n\\usepackage[margin=2cm]{geometry}\n\\usepackage{hyperref}\n"
            "\\renewcommand{\\labelenumii}{\\arabic{enumii}.}\n\\pagestyle{empty}\n\\begin{document}\n"
            + to_latex(body) + "\n\\end{document}\n")


# ----------------------------------------------------------------------------- producers

def chromium(source: Path, out: Path, tagged: bool) -> None:
    flag = "--export-tagged-pdf" if tagged else "--disable-pdf-tagging"
    subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer", flag,
                    f"--print-to-pdf={out}", source.as_uri()], check=True, capture_output=True, timeout=120)


def libreoffice(source: Path, out: Path, tagged: bool) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / (out.stem + ".html")
        page.write_text(html_for_writer(source.read_text(encoding="utf-8")), encoding="utf-8")
        value = "true" if tagged else "false"
        subprocess.run(["soffice", f"-env:UserInstallation=file://{tmp}/profile", "--headless",
                        "--infilter=HTML (StarWriter)", "--convert-to",
                        'pdf:writer_pdf_Export:{"UseTaggedPDF":{"type":"boolean","value":"%s"}}' % value,
                        "--outdir", tmp, str(page)], check=True, capture_output=True, timeout=300)
        shutil.move(str(page.with_suffix(".pdf")), out)


def pdflatex(source: Path, out: Path, tagged: bool) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        tex = Path(tmp) / (out.stem + ".tex")
        tex.write_text(latex_document(source.read_text(encoding="utf-8")), encoding="utf-8")
        subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", tex.name], cwd=tmp, check=True,
                       capture_output=True, timeout=300)
        shutil.move(str(tex.with_suffix(".pdf")), out)


ODF_TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
ODF_PRODUCERS = ("lo-tagged", "lo-untagged")


def odf_truth(source: Path) -> dict:
    """Headings, footnotes and plain text of a one-page flat ODF text document (no lists, tables, links)."""
    import xml.etree.ElementTree as ElementTree

    def name(tag: str) -> str:
        return "{%s}%s" % (ODF_TEXT, tag)

    def own_text(element, notes: list) -> str:
        parts = [element.text or ""]
        for child in element:
            if child.tag == name("note"):
                citation = child.find(name("note-citation")).text or ""
                body = " ".join(clean("".join(p.itertext())) for p in child.find(name("note-body")))
                notes.append([citation, body])
                parts.append(citation)
            else:
                parts.append(own_text(child, notes))
            parts.append(child.tail or "")
        return "".join(parts)

    out = {"headings": [], "list_items": [], "tables": [], "links": [], "figures": [], "footnotes": []}
    blocks = []
    body = ElementTree.parse(source).getroot().find(".//{urn:oasis:names:tc:opendocument:xmlns:office:1.0}text")
    for element in body:
        text = clean(own_text(element, out["footnotes"]))
        if element.tag == name("h"):
            out["headings"].append([text, int(element.get(name("outline-level"), "1"))])
        blocks.append(text)
    out["text"] = "\n\n".join(blocks + [f"{mark} {text}" for mark, text in out["footnotes"]]) + "\n"
    return out


def libreoffice_odf(source: Path, out: Path, tagged: bool) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        value = "true" if tagged else "false"
        subprocess.run(["soffice", f"-env:UserInstallation=file://{tmp}/profile", "--headless", "--convert-to",
                        'pdf:writer_pdf_Export:{"UseTaggedPDF":{"type":"boolean","value":"%s"}}' % value,
                        "--outdir", tmp, str(source)], check=True, capture_output=True, timeout=300)
        shutil.move(str(Path(tmp) / (source.stem + ".pdf")), out)


MAKERS = {"chromium-tagged": (CHROMIUM, chromium, True), "chromium-untagged": (CHROMIUM, chromium, False),
          "lo-tagged": ("soffice", libreoffice, True), "lo-untagged": ("soffice", libreoffice, False),
          "pdflatex": ("pdflatex", pdflatex, False)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="one source (its name without .html)")
    parser.add_argument("--producers", default=",".join(PRODUCERS))
    args = parser.parse_args(argv)
    PDFS.mkdir(exist_ok=True)
    TRUTH.mkdir(exist_ok=True)
    for source in sorted(SOURCES.glob("*.html")):
        if args.only and source.stem != args.only:
            continue
        text = source.read_text(encoding="utf-8")
        facts = truth(asides_last(body_of(parse(text))))
        (TRUTH / (source.stem + ".json")).write_text(json.dumps(facts, indent=1, ensure_ascii=False) + "\n",
                                                     encoding="utf-8")
        for producer in args.producers.split(","):
            program, make, tagged = MAKERS[producer]
            if shutil.which(program) is None:
                print(f"{producer}: {program} not installed, skipped")
                continue
            out = PDFS / f"{source.stem}--{producer}.pdf"
            try:
                make(source, out, tagged)
                print(f"{out.relative_to(HERE)}")
            except subprocess.SubprocessError as exc:
                print(f"{source.stem} {producer}: failed ({exc})", file=sys.stderr)
    for source in sorted(SOURCES.glob("*.fodt")):
        if args.only and source.stem != args.only:
            continue
        (TRUTH / (source.stem + ".json")).write_text(json.dumps(odf_truth(source), indent=1, ensure_ascii=False) + "\n",
                                                     encoding="utf-8")
        for producer in [p for p in args.producers.split(",") if p in ODF_PRODUCERS]:
            if shutil.which("soffice") is None:
                print(f"{producer}: soffice not installed, skipped")
                continue
            out = PDFS / f"{source.stem}--{producer}.pdf"
            try:
                libreoffice_odf(source, out, producer == "lo-tagged")
                print(f"{out.relative_to(HERE)}")
            except subprocess.SubprocessError as exc:
                print(f"{source.stem} {producer}: failed ({exc})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
