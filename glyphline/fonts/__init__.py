"""Font stage: a PDF font dictionary → a `Font` that decodes string operands (see base.py).

`load_font` never raises for a broken font: it returns a best-effort font whose `warnings` say
what was wrong. The only exception that passes through is `BudgetExceeded` (the document's byte
budget ran out while reading a font stream), which ends the document by design.
"""
from __future__ import annotations

import re
from typing import Any, Callable

from pypdf.generic import IndirectObject

from ..errors import BudgetExceeded
from ..limits import Limits
from ._objects import get, is_dict, name, resolve
from .base import DecodedChar, Font
from .simple import SimpleFont, load_simple
from .style import font_style

__all__ = ["DecodedChar", "Font", "FontCache", "load_font", "SimpleFont", "CompositeFont"]

_SUBSET_PREFIX = re.compile(r"^[A-Z]{6}\+")
_SIMPLE_KINDS = {"Type1": "Type1", "MMType1": "Type1", "TrueType": "TrueType", "Type3": "Type3"}
# a font dictionary without /Subtype is most often a Type1 font written sloppily
FALLBACK_KIND = "Type1"


def __getattr__(name: str):
    if name == "CompositeFont":   # public, but loaded with the first Type0 font (see _load_font)
        from .composite import CompositeFont

        return CompositeFont
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _display_name(font: Any, resource_name: str) -> tuple[str, str]:
    """(name for glyph records, BaseFont without subset prefix) — the resource name when absent."""
    base = name(get(font, "/BaseFont")) or ""
    base = _SUBSET_PREFIX.sub("", base)
    resource = str(resource_name) if isinstance(resource_name, str) else ""
    resource = resource[1:] if resource.startswith("/") else resource
    return (base or resource or "unnamed"), base


def _fallback(display: str, base: str, limits: Limits, warnings: list[str]) -> Font:
    """StandardEncoding and standard-14 widths (Helvetica unless `base` names another standard
    font): what a viewer shows for a font it cannot read. Reads nothing from the file."""
    return load_simple({}, "Type1", display, base, limits, _no_streams, warnings)


def _no_streams(stream: Any) -> bytes:
    return b""


def load_font(font_obj: Any, resource_name: str, limits: Limits, read_stream: Callable[[Any], bytes]) -> Font:
    """Font for a font dictionary (indirect or direct pypdf object); never raises (see module doc)."""
    font = _load_font(font_obj, resource_name, limits, read_stream)
    font.bold, font.italic = font_style(font_obj, font.name)
    return font


def _load_font(font_obj: Any, resource_name: str, limits: Limits, read_stream: Callable[[Any], bytes]) -> Font:
    warnings: list[str] = []
    font = resolve(font_obj)
    display, base = _display_name(font, resource_name)
    try:
        if not is_dict(font):
            warnings.append(f"font {resource_name} is not a font dictionary")
            return _fallback(display, base, limits, warnings)
        subtype = name(get(font, "/Subtype"))
        if subtype == "Type0":
            from .composite import load_composite   # here: CIDs and CMaps are loaded by the first Type0 font

            return load_composite(font, display, limits, read_stream, warnings)
        kind = _SIMPLE_KINDS.get(subtype or "")
        if kind is None:
            warnings.append(f"font {resource_name}: unknown /Subtype {subtype}; read as {FALLBACK_KIND}")
            kind = FALLBACK_KIND
        return load_simple(font, kind, display, base, limits, read_stream, warnings)
    except BudgetExceeded:
        raise
    except Exception as exc:  # a font we cannot read must not end the page
        warnings.append(f"font {resource_name} unreadable ({type(exc).__name__}: {str(exc)[:100]})")
        return _fallback(display, base, limits, warnings)


class FontCache:
    """Fonts loaded once per document, keyed by the font dictionary's indirect reference."""

    def __init__(self, limits: Limits, read_stream: Callable[[Any], bytes]):
        self.limits = limits
        self.read_stream = read_stream
        self._fonts: dict[Any, tuple[Any, Font]] = {}

    @staticmethod
    def _key(font_obj: Any) -> Any:
        if isinstance(font_obj, IndirectObject):
            return ("ref", font_obj.idnum, font_obj.generation)
        ref = getattr(font_obj, "indirect_reference", None)
        if isinstance(ref, IndirectObject):
            return ("ref", ref.idnum, ref.generation)
        return ("id", id(font_obj))

    def get(self, font_obj: Any, resource_name: str) -> Font:
        key = self._key(font_obj)
        entry = self._fonts.get(key)
        if entry is None:
            # the object is kept alive with its font, so id() keys are never reused
            entry = (font_obj, load_font(font_obj, resource_name, self.limits, self.read_stream))
            self._fonts[key] = entry
        return entry[1]
