"""Plain-text renderings of a laid-out page: reflow and preserve.

- reflow: each block (paragraph, heading, row, header/footer) on one line, dehyphenated,
  blocks separated by one blank line;
- preserve: the page's own line breaks, blocks separated by one blank line (so columns,
  which are separate blocks, stay apart).

What the pages say together (the dehyphenation vocabulary, words hyphenated across a page
break) is found by layout.across_pages before the pages are rendered here.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..layout.across_pages import build_vocabulary
from ..layout.hyphenation import Vocabulary, join_lines
from ..layout.model import PageLayout

if TYPE_CHECKING:
    from . import PageContext, RenderedPage

__all__ = ["render_page", "reflow_page", "preserve_page", "join_pages", "PageJoiner", "Vocabulary", "MODES", "PAGE_MARKER"]

MODES = ("reflow", "preserve")
PAGE_MARKER = "--- Page {number} ---"


def render_page(layout: PageLayout, mode: str = "reflow", vocabulary: Vocabulary | None = None,
                dehyphenate: bool = True) -> str:
    """The page's text in `mode` ("reflow" or "preserve"), without a trailing newline."""
    if mode == "preserve":
        return "\n\n".join(
            "\n".join(line.text for line in block.lines) for block in layout.blocks
        )
    if mode != "reflow":
        raise ValueError(f"unknown text mode {mode!r}; expected one of {', '.join(MODES)}")
    if vocabulary is None and dehyphenate:
        vocabulary = build_vocabulary([layout])
    out = []
    for block in layout.blocks:
        text = join_lines([line.text for line in block.lines], vocabulary, dehyphenate,
                          [line.space_after for line in block.lines])
        if text:
            out.append(text)
    return "\n\n".join(out)


def reflow_page(layout: PageLayout, context: "PageContext") -> str:
    return render_page(layout, "reflow", vocabulary=context.vocabulary, dehyphenate=context.dehyphenate)


def preserve_page(layout: PageLayout, context: "PageContext") -> str:
    return render_page(layout, "preserve")


def join_pages(pages: "list[RenderedPage]", *, markers: bool = False, page_breaks: bool = True) -> str:
    """Pages joined with '--- Page N ---' markers, form feeds, or (page_breaks=False) a blank line.

    With form feeds every page that has text ends in a line break before its form feed, as
    pdftotext writes it, so an editor never shows the last line of one page running into the
    first of the next; an empty page is the form feed alone.
    """
    joiner = PageJoiner(markers=markers, page_breaks=page_breaks)
    text = "".join([joiner.page(p.number, p.text) for p in pages])
    return text + joiner.end()


class PageJoiner:
    """join_pages a page at a time, for output written as it is made (extract_text's `write`):
    the pieces of page() in order, then end(), are join_pages' text."""

    def __init__(self, *, markers: bool = False, page_breaks: bool = True):
        self.markers = markers
        self.page_breaks = page_breaks
        self.pages = 0          # pages joined so far
        self.texts = 0          # of them, pages with text
        self.last = ""          # the last character handed out ("" while nothing was)

    def page(self, number: int, text: str) -> str:
        """What this page adds to the joined text."""
        if self.markers:
            piece = ("\n\n" if self.pages else "") + PAGE_MARKER.format(number=number) + ("\n" + text if text else "")
        elif self.page_breaks:
            piece = ("\f" if self.pages else "") + _with_final_newline(text)
        else:
            piece = (("\n\n" if self.texts else "") + text) if text else ""
        self.pages += 1
        self.texts += bool(text)
        if piece:
            self.last = piece[-1]
        return piece

    def end(self) -> str:
        """The line break that ends a joined text with text in it."""
        return "\n" if self.last and self.last != "\n" else ""


def _with_final_newline(text: str) -> str:
    return text if not text or text.endswith("\n") else text + "\n"
