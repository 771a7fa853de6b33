"""Plain-text renderings of a laid-out page: reflow and preserve.

- reflow: each block (paragraph, heading, row, header/footer) on one line, dehyphenated,
  blocks separated by one blank line;
- preserve: the page's own line breaks, blocks separated by one blank line (so columns,
  which are separate blocks, stay apart).

A word hyphenated across a page break ("en-" at the foot of one page, "code" at the head of the
next) is joined onto the end of the first page by `join_across_pages` before reflow rendering:
the form feed stays where it was, and each page keeps only whole words.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..layout.hyphenation import Vocabulary, ends_with_break_hyphen, join_broken, join_lines
from ..layout.model import Block, PageLayout

if TYPE_CHECKING:
    from . import PageContext, RenderedPage

__all__ = ["render_page", "reflow_page", "preserve_page", "join_pages", "build_vocabulary", "join_across_pages",
           "Vocabulary", "MODES", "PAGE_MARKER"]

MODES = ("reflow", "preserve")
PAGE_MARKER = "--- Page {number} ---"


def build_vocabulary(layouts: Iterable[PageLayout]) -> Vocabulary:
    """Count every unbroken word of the document: the evidence dehyphenation consults."""
    vocabulary = Vocabulary()
    vocabulary.add_lines([w.text for w in line.words]
                         for layout in layouts for block in layout.blocks for line in block.lines)
    return vocabulary


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


def join_across_pages(layouts: list[PageLayout], vocabulary: Vocabulary | None) -> None:
    """Join words hyphenated across consecutive pages, in place (reflow with dehyphenation).

    The last body block of a page that ends in a break hyphen takes the first word of the next
    page's first body block (running headers skipped), joined by the dehyphenation rules.
    """
    for page, following in zip(layouts, layouts[1:]):
        if following.number != page.number + 1:
            continue
        last = _last_body(page)
        first = _first_body(following)
        if last is None or first is None:
            continue
        tail_line = last.lines[-1]
        head_line = first.lines[0]
        if not tail_line.words or not head_line.words:
            continue
        tail = tail_line.words[-1]
        head = head_line.words[0]
        if not ends_with_break_hyphen(tail.text) or not head.text[:1].isalnum():
            continue
        tail.text = join_broken(tail.text, head.text, vocabulary)
        del head_line.words[0]
        if not head_line.words:
            del first.lines[0]
            if not first.lines:
                following.blocks.remove(first)


def _last_body(layout: PageLayout) -> Block | None:
    for block in reversed(layout.blocks):
        if block.role == "body" and block.lines:
            return block
    return None


def _first_body(layout: PageLayout) -> Block | None:
    for block in layout.blocks:
        if block.role == "body" and block.lines:
            return block
    return None
