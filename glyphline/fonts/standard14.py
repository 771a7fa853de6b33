"""The standard 14 fonts: AFM widths and metrics (pypdf's copy of Adobe's Core14 AFMs) by name.

Producers write these names many ways (`Arial,Bold`, `ArialMT`, `TimesNewRomanPS-BoldItalicMT`,
`CourierNewPSMT`); they all resolve to one of the 14 metric sets.
"""
from __future__ import annotations

import re

from pypdf._codecs.core_font_metrics import CORE_FONT_METRICS

# name prefix (lower case, without spaces/dashes/commas) → standard family
_FAMILIES = (
    ("timesnewroman", "Times"), ("times", "Times"),
    ("helvetica", "Helvetica"), ("arial", "Helvetica"),
    ("couriernew", "Courier"), ("courier", "Courier"),
    ("symbol", "Symbol"), ("zapfdingbats", "ZapfDingbats"), ("dingbats", "ZapfDingbats"),
)
_STYLED = {
    ("Times", False, False): "Times-Roman", ("Times", True, False): "Times-Bold",
    ("Times", False, True): "Times-Italic", ("Times", True, True): "Times-BoldItalic",
    ("Helvetica", False, False): "Helvetica", ("Helvetica", True, False): "Helvetica-Bold",
    ("Helvetica", False, True): "Helvetica-Oblique", ("Helvetica", True, True): "Helvetica-BoldOblique",
    ("Courier", False, False): "Courier", ("Courier", True, False): "Courier-Bold",
    ("Courier", False, True): "Courier-Oblique", ("Courier", True, True): "Courier-BoldOblique",
}
_SEPARATORS = re.compile(r"[\s,\-_]+")

# font descriptor flags (ISO 32000-1 Table 123)
FLAG_FIXED_PITCH = 1
FLAG_SERIF = 2
FLAG_SYMBOLIC = 4
FLAG_ITALIC = 64
FLAG_FORCE_BOLD = 1 << 18


def standard_name(base_font: str) -> str | None:
    """One of the 14 standard names for `base_font`, or None when it is not one of them."""
    if base_font in CORE_FONT_METRICS:
        found = CORE_FONT_METRICS[base_font].font_descriptor.name
        return found if found in CORE_FONT_METRICS else base_font
    flat = _SEPARATORS.sub("", base_font).lower()
    for prefix, family in _FAMILIES:
        if flat.startswith(prefix):
            if family in ("Symbol", "ZapfDingbats"):
                return family
            rest = flat[len(prefix):]
            # anything after the family must be a style word, or it is another font (Times Ten, Arial Narrow)
            leftover = re.sub(r"psmt|mt|ps|roman|regular|bold|italic|oblique|medium|book|normal", "", rest)
            if leftover:
                return None
            bold = "bold" in rest
            italic = "italic" in rest or "oblique" in rest
            return _STYLED[(family, bold, italic)]
    return None


def metrics(standard: str):
    """pypdf's CoreFontMetrics (font_descriptor + character_widths keyed by Unicode text)."""
    return CORE_FONT_METRICS.get(standard)


def substitute_name(base_font: str, flags: int) -> str:
    """A standard font whose widths stand in for a non-embedded font that gives none."""
    lowered = base_font.lower()
    family = "Courier" if flags & FLAG_FIXED_PITCH else "Times" if flags & FLAG_SERIF else "Helvetica"
    bold = bool(flags & FLAG_FORCE_BOLD) or "bold" in lowered or "black" in lowered
    italic = bool(flags & FLAG_ITALIC) or "italic" in lowered or "oblique" in lowered
    return _STYLED[(family, bold, italic)]
