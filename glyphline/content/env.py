"""What the content interpreter gets from the document stage for one page.

The document stage (glyphline.document) builds a PageEnv; the interpreter only calls what is
here, so it never touches the file, the xref or the budgets' bookkeeping itself.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from ..fonts.base import Font
from ..limits import Limits, PageBudget

Matrix = tuple  # (a, b, c, d, e, f) as in PDF: [x' y' 1] = [x y 1] × M


@dataclass
class PageEnv:
    limits: Limits
    budget: PageBudget
    # font dictionary (pypdf object, indirect or direct) + its resource name → Font; cached per document
    load_font: Callable[[Any, str], Font]
    # a pypdf StreamObject → its decoded bytes, within the stream and document byte budgets
    # (raises glyphline.limits.PageBudgetExceeded when a stream is over budget)
    read_stream: Callable[[Any], bytes]
    # visible box in viewer space: glyphs whose box centre lies outside are not page text
    clip: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    keep_outside: bool = False       # keep glyphs outside the visible box (an option of open())
    warnings: list[str] = field(default_factory=list)
    undecodable: int = 0             # glyphs dropped because their code had no Unicode
    image_area: float = 0.0          # viewer-space area of the images painted (scan detection)
    # the document's optional content (content/optional.py): `.hidden(ocg or ocmd)`; None: all shown
    optional_content: Any = None
    hidden_glyphs: int = 0           # glyphs of marked content in a hidden layer, left out
    images: list = field(default_factory=list)   # (image XObject, CTM into viewer space) as painted, for OCR
    dropped: Any = None              # a glyphline.glyph.DropLog when asked to list the glyphs left out (inspector)
    # a glyphline.content.paths.PageDrawing to fill with the page's rules and marks (structured outputs); None: paths are skipped
    drawing: Any = None
    ocr: Any = None                  # the page's OCR report (glyphline.content.ocr.OcrReport) when it was recognised
    # (font, text state) → code → placement (interpreter.placement_table): the document passes its
    # own, so pages set in the same fonts and sizes place each code once
    placements: dict = field(default_factory=dict)
