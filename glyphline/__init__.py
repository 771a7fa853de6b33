"""Glyphline: PDF to text that reads like the page.

    import glyphline
    doc = glyphline.open(pdf_bytes)            # positioned, decoded glyphs per page
    result = glyphline.extract_text(pdf_bytes)  # text in reading order, paragraphs, dehyphenated
"""
from . import _lazy_crypto
from .errors import BudgetExceeded, DamagedPDF, GlyphlineError, NotAPDF, PasswordRequired
from .glyph import Glyph

__version__ = "0.1.0"

# before any module here imports pypdf, which fixes its crypt provider on first import
_lazy_crypto.install()

__all__ = [
    "open", "Document", "Page", "Glyph", "Limits",
    "GlyphlineError", "NotAPDF", "PasswordRequired", "DamagedPDF", "BudgetExceeded",
    "extract_text", "iter_pages", "Result", "PageResult", "ExtractOptions", "OutputMode",
    "OcrEngine", "OcrWord", "PageImage",
]

# loaded on first use: `import glyphline` stays light (pypdf and the layout stages weigh ~0.2 s;
# Limits, a dataclass, would import dataclasses and inspect, half of what is left)
_LAZY = {"Limits": "limits", "open": "document", "Document": "document", "Page": "document",
         "extract_text": "extract", "iter_pages": "extract", "Result": "extract", "PageResult": "extract",
         "ExtractOptions": "options", "OutputMode": "options",
         "OcrEngine": "content.ocr", "OcrWord": "content.ocr", "PageImage": "images"}


def __getattr__(name):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'glyphline' has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value   # the next access is a plain attribute
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
