"""Outputs: one renderer per OutputMode, registered in RENDERERS. Renderers only render:
every decision about the text (lines, words, order, paragraphs, hyphens) is made by layout.

A renderer has two parts: `page` turns one laid-out page into its text in the mode, and
`document` joins the rendered pages into the whole output. Adding a mode is one renderer
module, one OutputMode member and one line here.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Protocol

from ..layout.hyphenation import Vocabulary
from ..layout.model import PageLayout
from ..options import OutputMode
from . import text


class RenderedPage(Protocol):
    number: int
    text: str


@dataclass(frozen=True)
class PageContext:
    """What a page renderer may know besides the layout."""

    rotation: int = 0
    scan: bool = False                      # the page has no text layer
    unmapped: bool = False                  # the page's text is lost: its fonts have no character mapping
    warnings: list[str] = field(default_factory=list)
    vocabulary: Vocabulary | None = None    # the document's words, for dehyphenation
    dehyphenate: bool = True


@dataclass(frozen=True)
class DocumentContext:
    """What a document renderer may know besides the rendered pages."""

    page_count: int = 0
    metadata: dict[str, str] = field(default_factory=dict)
    scan: dict[str, Any] | None = None
    unmapped: dict[str, Any] | None = None
    warnings: list[str] = field(default_factory=list)
    markers: bool = False
    page_breaks: bool = True


@dataclass(frozen=True)
class Renderer:
    page: Callable[[PageLayout, PageContext], str]
    document: Callable[[list[RenderedPage], DocumentContext], str]
    extension: str                          # of a file holding the output (CLI --outdir)
    structured: bool = False                # needs layout.structure's marks (headings, lists, tables)


def _joined(pages: list[RenderedPage], context: DocumentContext) -> str:
    return text.join_pages(pages, markers=context.markers, page_breaks=context.page_breaks)


def _on_first_use(module: str, function: str) -> Callable[..., str]:
    """A renderer function imported when first called: a text extraction never loads the grid or
    JSON writers (and their imports), which every small file's process start would pay."""
    def call(*args: Any) -> str:
        from importlib import import_module

        return getattr(import_module(f".{module}", __name__), function)(*args)
    return call


RENDERERS: dict[OutputMode, Renderer] = {
    OutputMode.REFLOW: Renderer(text.reflow_page, _joined, ".txt"),
    OutputMode.PRESERVE: Renderer(text.preserve_page, _joined, ".txt"),
    OutputMode.LAYOUT: Renderer(_on_first_use("grid", "grid_page"), _joined, ".txt"),
    OutputMode.JSON: Renderer(_on_first_use("json_out", "json_page"), _on_first_use("json_out", "json_document"), ".json"),
    OutputMode.MARKDOWN: Renderer(_on_first_use("markdown", "markdown_page"), _on_first_use("markdown", "markdown_document"), ".md",
                                  structured=True),
}


def renderer(mode: OutputMode) -> Renderer:
    return RENDERERS[mode]


def page_joiner(render: Renderer, *, markers: bool, page_breaks: bool) -> text.PageJoiner | None:
    """A joiner of the rendered pages a page at a time when the renderer's document is its pages
    joined (the text modes), else None: JSON and Markdown documents are written whole."""
    if render.document is not _joined:
        return None
    return text.PageJoiner(markers=markers, page_breaks=page_breaks)
