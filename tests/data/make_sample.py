"""Makes tests/data/sample.pdf, the bundled sample (`make run`, the web app's "try a sample").

Two pages: a heading and two paragraphs on page 1 (one word hyphenated across a line break),
a heading and a paragraph on page 2. Lines are broken by hand so the hyphenation is fixed.
The PDF is committed; this script only documents how it was made:

    .venv/bin/python tests/data/make_sample.py
"""
from pathlib import Path

from reportlab.lib.pagesizes import A4
from reportlab.pdfgen.canvas import Canvas

OUT = Path(__file__).with_name("sample.pdf")
LEFT, TOP = 72, 770
BODY_FONT, BODY_SIZE, LEADING = "Times-Roman", 11, 15
HEADING_FONT, HEADING_SIZE = "Helvetica-Bold", 18
PARAGRAPH_GAP = 10

PAGES = [
    ("How a page becomes text", [
        ["A PDF file does not store sentences. It stores glyphs, each one placed at",
         "an exact spot on the page, and leaves it to the reader to decide which",
         "glyphs form a word, which words form a line and which lines belong together."],
        ["Glyphline rebuilds that structure from the positions alone. It measures the",
         "gaps between letters, follows the columns of the page and joins words that",
         "were split at the end of a line, so that the recon-",
         "structed paragraph reads exactly as the author wrote it."],
    ]),
    ("A second page", [
        ["Every page is read on its own. The text of this page follows the text of",
         "the first one, separated by a page break in the plain-text output."],
    ]),
]


def main() -> None:
    canvas = Canvas(str(OUT), pagesize=A4, invariant=1)
    canvas.setTitle("Glyphline sample")
    canvas.setAuthor("Glyphline")
    for heading, paragraphs in PAGES:
        y = TOP
        canvas.setFont(HEADING_FONT, HEADING_SIZE)
        canvas.drawString(LEFT, y, heading)
        y -= HEADING_SIZE + PARAGRAPH_GAP
        canvas.setFont(BODY_FONT, BODY_SIZE)
        for lines in paragraphs:
            for line in lines:
                canvas.drawString(LEFT, y, line)
                y -= LEADING
            y -= PARAGRAPH_GAP
        canvas.showPage()
    canvas.save()


if __name__ == "__main__":
    main()
