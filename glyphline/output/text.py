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

__all__ = ["render_page", "reflow_page", "preserve_page", "join_pages", "Vocabulary", "MODES", "PAGE_MARKER"]

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
    if markers:
        text = "\n\n".join(PAGE_MARKER.format(number=p.number) + ("\n" + p.text if p.text else "") for p in pages)
    elif page_breaks:
        text = "\f".join(_with_final_newline(p.text) for p in pages)
    else:
        text = "\n\n".join(p.text for p in pages if p.text)
    return text + "\n" if text and not text.endswith("\n") else text


def _with_final_newline(text: str) -> str:
    return text if not text or text.endswith("\n") else text + "\n"
