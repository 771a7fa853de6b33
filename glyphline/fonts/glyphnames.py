"""Glyph name → Unicode: the Adobe Glyph List plus the naming conventions fonts use in practice.

Order (AGL specification §2, extended for what real fonts carry):
1. `.notdef` and numbered names (`g12`, `cid345`, `glyph7`, `index9`, `a65`) say nothing → None.
2. The Adobe Glyph List (pypdf's copy, which also has many TeX names such as `ff`, `dotlessi`).
3. Names the AGL lacks or maps into the Private Use Area: small capitals (`Asmall` → 'a'),
   old-style and superior/inferior figures (`oneoldstyle` → '1'), a few TeX names.
4. `uniXXXX[YYYY...]`, `uXXXX`–`uXXXXXX`.
5. Ligature names joined by `_` (`f_f_i` → "ffi"); a suffix after `.` is dropped (`a.sc` → 'a').
"""
from __future__ import annotations

import re

from pypdf._codecs import adobe_glyphs as _PYPDF_GLYPHS

# numbered glyph names carry no character identity: a font subsetter's glyph index or CID
_NUMBERED_NAME = re.compile(r"(?:g|gid|cid|glyph|index|a|c|G|C)\d+\Z")
_UNI_NAME = re.compile(r"uni((?:[0-9A-Fa-f]{4})+)\Z")
_U_NAME = re.compile(r"u([0-9A-Fa-f]{4,6})\Z")
# AGL suffixes that name a typographic variant of a plain character (the AGL maps them to PUA)
_VARIANT_SUFFIXES = ("small", "oldstyle", "superior", "inferior", "fitted", "taboldstyle", "alt")
_PUA_FIRST, _PUA_LAST = 0xE000, 0xF8FF
# names deeper than this in recursion (suffix / ligature parts) are not real glyph names
_MAX_NAME_LENGTH = 128

# TeX and other names the AGL lacks or sends to the Private Use Area; Delta and Omega have two
# AGL values (the Greek letter and the increment / ohm sign): fonts mean the letter
_EXTRA_NAMES = {
    "Delta": "\u0394", "Omega": "\u03a9",
    "dotlessj": "\u0237",
    "ff": "\ufb00", "ffi": "\ufb03", "ffl": "\ufb04", "fi": "\ufb01", "fl": "\ufb02",
    "st": "\ufb06", "longst": "\ufb05",
    "quoteright": "\u2019", "quoteleft": "\u2018",
    "visiblespace": "\u2423",
    "Germandbls": "SS",
    "mapsto": "\u21a6",
    "minusplus": "\u2213",
    "hyphenchar": "-",
    "nbspace": "\u00a0",
    "sfthyphen": "\u00ad",
}


def _agl(name: str) -> str | None:
    """The Adobe Glyph List's text for a name, read from pypdf's table in place (copying its
    17,000 names cost every process start ~10 ms): our extra names first, and never pypdf's
    additions (`a0`..`a255` → chr(n), `.notdef` → '□'), which are not AGL."""
    text = _EXTRA_NAMES.get(name)
    if text is None and name != ".notdef" and not _NUMBERED_NAME.match(name):
        text = _PYPDF_GLYPHS.get("/" + name)
    return text


_cache: dict[str, str | None] = {}


def _is_pua(text: str) -> bool:
    return len(text) == 1 and _PUA_FIRST <= ord(text) <= _PUA_LAST


def _valid_scalar(value: int) -> bool:
    return 0 <= value <= 0x10FFFF and not 0xD800 <= value <= 0xDFFF


def _variant_base(name: str) -> str | None:
    """`Aacutesmall` → 'á', `oneoldstyle` → '1', `Dieresissmall` → '¨'; None when not a variant."""
    for suffix in _VARIANT_SUFFIXES:
        if name.endswith(suffix) and len(name) > len(suffix):
            base = name[: -len(suffix)]
            for candidate in (base, base[0].lower() + base[1:]):
                text = _agl(candidate)
                if text is not None and not _is_pua(text):
                    return text.lower() if suffix == "small" else text
    return None


def _lookup(name: str, depth: int) -> str | None:
    if not name or name == ".notdef" or len(name) > _MAX_NAME_LENGTH or depth > 3:
        return None
    if _NUMBERED_NAME.match(name):
        return None
    if "_" in name and "." not in name:
        # ligature names read as their letters, even where pypdf's list has a ligature character
        parts = [_lookup(part, depth + 1) for part in name.split("_")]
        return "".join(parts) if all(parts) else None  # type: ignore[arg-type]
    text = _agl(name)
    if text is not None and not _is_pua(text):
        return text
    variant = _variant_base(name)
    if variant is not None:
        return variant
    if "." in name:
        base = name.split(".", 1)[0]
        return _lookup(base, depth + 1) if base else None
    match = _UNI_NAME.match(name)
    if match:
        digits = match.group(1)
        values = [int(digits[i:i + 4], 16) for i in range(0, len(digits), 4)]
        if all(_valid_scalar(v) for v in values):
            return "".join(map(chr, values))
        return None
    match = _U_NAME.match(name)
    if match:
        value = int(match.group(1), 16)
        return chr(value) if _valid_scalar(value) else None
    return None


def glyph_to_unicode(name: str) -> str | None:
    """Unicode text of a glyph name, or None when the name does not identify a character."""
    text = _cache.get(name, _MISSING)
    if text is _MISSING:
        text = _lookup(name, 0)
        if len(_cache) < _CACHE_SIZE:
            _cache[name] = text
    return text  # type: ignore[return-value]


_MISSING = object()
# distinct names remembered across fonts; bounded so hostile files cannot grow it without end
_CACHE_SIZE = 65536
