"""Glyphline: PDF to text that reads like the page.

    import glyphline
    doc = glyphline.open(pdf_bytes)            # positioned, decoded glyphs per page
    result = glyphline.extract_text(pdf_bytes)  # text in reading order, paragraphs, dehyphenated
"""
from .document import Document, Page, open
from .errors import BudgetExceeded, DamagedPDF, GlyphlineError, NotAPDF, PasswordRequired
from .glyph import Glyph
from .limits import Limits

__version__ = "0.1.0"

__all__ = [
    "open", "Document", "Page", "Glyph", "Limits",
    "GlyphlineError", "NotAPDF", "PasswordRequired", "DamagedPDF", "BudgetExceeded",
    "extract_text", "iter_pages", "Result", "PageResult",
]

_EXTRACT_NAMES = {"extract_text", "iter_pages", "Result", "PageResult"}


def __getattr__(name):
    # the layout stages load on first use: `glyphline.open` alone stays light (the web worker imports early)
    if name in _EXTRACT_NAMES:
        from . import extract

        return getattr(extract, name)
    raise AttributeError(f"module 'glyphline' has no attribute {name!r}")
