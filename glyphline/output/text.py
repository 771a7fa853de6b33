"""Plain-text renderings of a laid-out page: reflow and preserve.

- reflow: each block (paragraph, heading, row, header/footer) on one line, dehyphenated,
  blocks separated by one blank line;
- preserve: the page's own line breaks, blocks separated by one blank line (so columns,
  which are separate blocks, stay apart).
"""
from __future__ import annotations

from collections.abc import Iterable

from ..layout.hyphenation import Vocabulary, join_lines
from ..layout.model import PageLayout

__all__ = ["render_page", "build_vocabulary", "Vocabulary", "MODES"]

MODES = ("reflow", "preserve")


def build_vocabulary(layouts: Iterable[PageLayout]) -> Vocabulary:
    """Count every unbroken word of the document: the evidence dehyphenation consults."""
    vocabulary = Vocabulary()
    for layout in layouts:
        for block in layout.blocks:
            for line in block.lines:
                vocabulary.add_line([w.text for w in line.words])
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
        text = join_lines((line.text for line in block.lines), vocabulary, dehyphenate)
        if text:
            out.append(text)
    return "\n\n".join(out)
