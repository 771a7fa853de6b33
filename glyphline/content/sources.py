"""Glyph sources: where a page's glyphs come from.

A page's glyphs are the concatenation of what its sources append, in order: the page's own
content streams, then the appearances of its annotations, then OCR words when it has no text layer. Every
source makes the same Glyph records, flagged with where they came from, so the layout stages
treat them alike. The document stage runs the sources one after another, each isolated: a
source that fails costs its own glyphs, never the others'; a page budget that runs out stops
the page, since the sources after it would find it spent too.

Adding a source is one GlyphSource here (its `draw` function and its two messages) and one
line in SOURCES or the document's choice of sources.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from ..glyph import Glyph
from .env import PageEnv


@dataclass(frozen=True)
class PageInput:
    """What a glyph source may read of one page (the document stage builds it)."""

    number: int                          # 1-based
    obj: Any                             # the page dictionary (pypdf)
    matrix: tuple                        # the page's user space → viewer space
    env: PageEnv                         # fonts, streams, budgets, clip and warnings
    # read on demand (reading may repair the file, which the page's warnings record in order):
    content: Callable[[], bytes]         # the page's joined /Contents, decoded
    resources: Callable[[], Any]         # the page's inherited /Resources (pypdf), or None
    acroform: Callable[[], Any]          # the catalog's /AcroForm, or None
    ocr: Any = None                      # the injected OCR engine (glyphline.content.ocr.OcrEngine), or None


@dataclass(frozen=True)
class GlyphSource:
    name: str
    draw: Callable[[PageInput, list[Glyph]], None]   # appends the source's glyphs to the list
    # kinds of warning (glyphline.notices.SENTENCES), each given `page` and `reason`:
    stopped: str    # a page budget ran out
    failed: str     # the source broke midway
    nested: str | None = None   # it recursed too deeply (None: as `failed`)


def _content_glyphs(page: PageInput, out: list[Glyph]) -> None:
    from .interpreter import interpret

    content = page.content()
    interpret(content, page.resources(), page.matrix, page.env, out=out)


def _annotation_glyphs(page: PageInput, out: list[Glyph]) -> None:
    from .annotations import annotation_glyphs

    annotation_glyphs(page.obj, page.acroform(), page.matrix, page.env, out)


CONTENT = GlyphSource(
    "content", _content_glyphs,
    stopped="page-stopped-early", failed="page-failed-midway", nested="page-nested-too-deep",
)
ANNOTATIONS = GlyphSource(
    "annotations", _annotation_glyphs,
    stopped="annotations-stopped", failed="annotations-failed",  # each annotation is guarded inside
)


def _ocr_glyphs(page: PageInput, out: list[Glyph]) -> None:
    from .ocr import ocr_glyphs

    ocr_glyphs(page, out)


OCR_WORDS = GlyphSource(
    "ocr", _ocr_glyphs,
    stopped="ocr-stopped", failed="ocr-failed",
)


def sources(*, annotations: bool = True, ocr: bool = False) -> tuple[GlyphSource, ...]:
    """The glyph sources of a page, in drawing order (OCR last: it reads only pages the others left empty)."""
    chosen = (CONTENT, ANNOTATIONS) if annotations else (CONTENT,)
    return chosen + (OCR_WORDS,) if ocr else chosen
