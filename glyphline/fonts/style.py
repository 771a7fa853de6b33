"""A font's weight and slant, as the font dictionary and its name declare them.

Evidence, strongest first: the FontDescriptor's /FontWeight (ISO 32000-1 §9.8.1, 100–900),
its ForceBold and Italic flags and /ItalicAngle, then the name's style words ("Arial,Bold",
"Helvetica-BoldOblique", "TimesNewRomanPS-ItalicMT") and TeX's short names (CMBX10, CMTI10).
Nothing here reads a font program: the style only feeds Markdown emphasis and heading ranks.
"""
from __future__ import annotations

import re
from typing import Any, NamedTuple

from ._objects import array, get, is_dict, number, resolve
from .standard14 import FLAG_FORCE_BOLD, FLAG_ITALIC

BOLD_WEIGHT = 600           # /FontWeight from semibold (600) up is bold; 500 (medium) is not
ITALIC_MIN_ANGLE = 5.0      # degrees: a smaller /ItalicAngle is a rounding of an upright font
BOLD_NAME = re.compile(r"bold|black|heavy|semibold|demibold|extrabold|ultrabold|-bd\b|,bd\b", re.IGNORECASE)
ITALIC_NAME = re.compile(r"italic|oblique|slanted|kursiv|-it\b|,it\b", re.IGNORECASE)
# TeX fonts: Computer Modern / Latin Modern short names (cmbx10 bold extended, cmti10 text italic, …)
TEX_BOLD = re.compile(r"^(?:cm|lm|ec|tc)(?:bx|b|ssbx)\d*$|^(?:lmroman|lmsans)\d*-(?:bold|demi)", re.IGNORECASE)
TEX_ITALIC = re.compile(r"^(?:cm|lm|ec|tc)(?:ti|sl|bxti|bxsl|itt|ssi)\d*$", re.IGNORECASE)


class FontStyle(NamedTuple):
    bold: bool = False
    italic: bool = False


UPRIGHT = FontStyle()


def font_style(font: Any, display_name: str) -> FontStyle:
    """The style of a font dictionary (a Type0 font's descriptor is its descendant's); never raises."""
    try:
        descriptor = _descriptor(resolve(font))
    except Exception:  # a broken dictionary still has a name
        descriptor = None
    bold, italic = name_style(display_name)
    if descriptor is not None:
        flags = int(number(get(descriptor, "/Flags")) or 0)
        weight = number(get(descriptor, "/FontWeight"))
        angle = number(get(descriptor, "/ItalicAngle"))
        bold = bold or bool(flags & FLAG_FORCE_BOLD) or (weight is not None and weight >= BOLD_WEIGHT)
        italic = italic or bool(flags & FLAG_ITALIC) or (angle is not None and abs(angle) >= ITALIC_MIN_ANGLE)
    return FontStyle(bold, italic)


def name_style(font_name: str) -> tuple[bool, bool]:
    """(bold, italic) from the font's name alone."""
    family = font_name.rsplit("+", 1)[-1]
    bold = bool(BOLD_NAME.search(family) or TEX_BOLD.match(family))
    italic = bool(ITALIC_NAME.search(family) or TEX_ITALIC.match(family))
    return bold, italic


def _descriptor(font: Any) -> Any:
    if not is_dict(font):
        return None
    descriptor = get(font, "/FontDescriptor")
    if descriptor is None:
        descendants = array(get(font, "/DescendantFonts"))
        if descendants:
            descendant = resolve(descendants[0])
            descriptor = get(descendant, "/FontDescriptor") if is_dict(descendant) else None
    return descriptor if is_dict(descriptor) else None
