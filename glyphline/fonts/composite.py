"""Type0 (composite) fonts: codes of 1–4 bytes per the CMap's codespace, CIDs, /W widths.

Text of a code, first that applies:
1. /ToUnicode when it maps the code and the value passes the sanity check (an empty value: the
   glyph has no text of its own, and nothing below is consulted);
2. a Unicode-keyed predefined CMap (Uni…-UCS2/UTF16/UTF32/UTF8-H/V): the code itself is Unicode;
3. the CID (Identity, embedded CMap stream, or `cmaps.predefined_cmap`) through
   `cmaps.cid_to_unicode` for the font's character collection;
4. the embedded TrueType/OpenType program: CID → glyph (/CIDToGIDMap) → the font's own Unicode
   cmap reversed, or its 'post' glyph name (truetype.py), read only when first needed; a
   Windows core font that is not embedded: its glyph order (truetype.CORE_FONT_GLYPH_ORDER);
5. otherwise None: the glyph is undecodable.
DecodedChars are made once per distinct code and cached.
"""
from __future__ import annotations

import re
import struct
from bisect import bisect_right
from dataclasses import dataclass, field
from typing import Any, Callable

from ..limits import Limits
from . import cmaps, truetype
from ._objects import array, get, is_dict, name, number, numbers, resolve
from .base import DecodedChar, Font
from .simple import read_cmap_stream, vertical_metrics
from .tounicode import CMap, CodespaceRange, usable_text

DEFAULT_WIDTH = 1000.0                # /DW default (ISO 32000-1 Table 117)
DEFAULT_VERTICAL = (880.0, -1000.0)   # /DW2 default: position vy and advance w1
# /W ranges up to this many CIDs are expanded into the dictionary; larger ones stay lazy
WIDTH_RANGE_EXPAND_MAX = 256
# distinct codes remembered per font; a hostile string cannot grow the cache without end
CODE_CACHE_MAX = 1 << 17

_UNICODE_CMAP = re.compile(r"Uni[A-Za-z0-9]*-(UCS2|UTF16|UTF32|UTF8)(?:-HW)?-([HV])\Z")
_SUBSET_PREFIX = re.compile(r"^[A-Z]{6}\+")
_IDENTITY = ("Identity-H", "Identity-V")


def _ranges(*specs: tuple[str, str]) -> list[CodespaceRange]:
    out = []
    for low, high in specs:
        lo, hi = bytes.fromhex(low), bytes.fromhex(high)
        out.append(CodespaceRange(len(lo), lo, hi))
    return out


TWO_BYTE = _ranges(("0000", "FFFF"))
# codespaces and codecs of the Unicode-keyed predefined CMaps: their codes are the text
_UNICODE_CODESPACES = {
    "UCS2": (TWO_BYTE, "utf-16-be"),
    "UTF16": (_ranges(("0000", "D7FF"), ("D800DC00", "DBFFDFFF"), ("E000", "FFFF")), "utf-16-be"),
    "UTF32": (_ranges(("00000000", "0010FFFF")), "utf-32-be"),
    "UTF8": (_ranges(("00", "7F"), ("C280", "DFBF"), ("E08080", "EFBFBF"), ("F0808080", "F4BFBFBF")), "utf-8"),
}


class _RangeTable:
    """CID → value from single entries and (possibly huge) ranges, bounded in memory."""

    def __init__(self) -> None:
        self.single: dict[int, Any] = {}
        self.ranges: list[tuple[int, int, Any]] = []
        self.firsts: list[int] = []

    def add_range(self, first: int, last: int, value: Any) -> int:
        """Adds a range; returns the entries it cost."""
        if last - first < WIDTH_RANGE_EXPAND_MAX:
            for cid in range(first, last + 1):
                self.single[cid] = value
            return last - first + 1
        self.ranges.append((first, last, value))
        return 1

    def finish(self) -> None:
        self.ranges.sort(key=lambda r: r[0])
        self.firsts = [r[0] for r in self.ranges]

    def get(self, cid: int) -> Any:
        value = self.single.get(cid)
        if value is not None or not self.ranges:
            return value
        i = bisect_right(self.firsts, cid) - 1
        if i >= 0 and self.ranges[i][0] <= cid <= self.ranges[i][1]:
            return self.ranges[i][2]
        return None


def parse_widths(items: list | None, group: int, max_entries: int, warnings: list[str]) -> _RangeTable:
    """/W (group 1: w) or /W2 (group 3: w1y vx vy) in both forms: `c [v …]` and `first last v`."""
    table = _RangeTable()
    if not items:
        return table
    entries = 0
    i = 0
    n = len(items)
    while i < n and entries <= max_entries:
        first = number(items[i])
        following = resolve(items[i + 1]) if i + 1 < n else None
        if first is None or following is None:
            warnings.append(f"malformed {'/W' if group == 1 else '/W2'} array")
            break
        first = int(first)
        if isinstance(following, list):
            values = [number(v) for v in following[: max_entries * group]]
            for k in range(len(values) // group):
                value = values[k * group:(k + 1) * group]
                if None not in value:
                    table.single[first + k] = value[0] if group == 1 else tuple(value)
            entries += len(values) // group
            i += 2
        else:
            last = number(following)
            value = [number(v) for v in items[i + 2:i + 2 + group]]
            if last is None or len(value) < group or None in value or last < first:
                warnings.append(f"malformed {'/W' if group == 1 else '/W2'} array")
                break
            entries += table.add_range(first, int(last), value[0] if group == 1 else tuple(value))
            i += 2 + group
    table.finish()
    return table


class CompositeFont(Font):
    """A Type0 font; DecodedChars are built per distinct code on first use."""

    def __init__(self, name: str, codespace: list[CodespaceRange], resolve_code: Callable[[int, int, bool], DecodedChar],
                 vertical: bool, ascent: float, descent: float, warnings: list[str]):
        super().__init__(name=name, vertical=vertical, ascent=ascent, descent=descent, warnings=warnings)
        self._resolve = resolve_code
        self._caches: dict[int, dict[int, DecodedChar]] = {1: {}, 2: {}, 3: {}, 4: {}}
        self._two_byte = len(codespace) == 1 and codespace[0].nbytes == 2 and \
            codespace[0].low == b"\x00\x00" and codespace[0].high == b"\xff\xff"
        self._one_byte = bool(codespace) and all(r.nbytes == 1 for r in codespace)
        self._by_first: list[list[CodespaceRange]] = [[] for _ in range(256)]
        for rng in sorted(codespace, key=lambda r: r.nbytes):
            for b in range(rng.low[0], rng.high[0] + 1):
                self._by_first[b].append(rng)
        self._shortest = min((r.nbytes for r in codespace), default=2)

    def _char(self, code: int, nbytes: int, valid: bool = True) -> DecodedChar:
        cache = self._caches[nbytes]
        char = cache.get(code) if valid else None
        if char is None:
            char = self._resolve(code, nbytes, valid)
            if valid and len(cache) < CODE_CACHE_MAX:
                cache[code] = char
        return char

    @property
    def two_byte(self) -> bool:
        """Every code is two bytes (the codespace is <0000> <FFFF>): see two_byte_char."""
        return self._two_byte

    def code_reader(self):
        """Two bytes a code when the codespace is <0000> <FFFF> (Identity-H/V and the like);
        none for a subclass that decodes otherwise."""
        if type(self).decode is not CompositeFont.decode or not self._two_byte:
            return None
        return self.two_byte_char, 2

    def two_byte_char(self, code: int) -> DecodedChar:
        """The char of one two-byte code, as decode() gives it (for callers that split the bytes themselves)."""
        return self._caches[2].get(code) or self._char(code, 2)

    def decode(self, data: bytes) -> list[DecodedChar]:
        if self._two_byte:
            count = len(data) >> 1
            cache = self._caches[2]
            get_cached = cache.get
            make = self._char
            out = [get_cached(c) or make(c, 2) for c in struct.unpack(f">{count}H", data[: 2 * count])]
            if len(data) & 1:
                out.append(self._char(data[-1], 1, valid=False))
            return out
        if self._one_byte:
            by_first = self._by_first
            get_cached = self._caches[1].get
            return [get_cached(b) or self._char(b, 1, bool(by_first[b])) for b in data]
        return self._decode_general(data)

    def _decode_general(self, data: bytes) -> list[DecodedChar]:
        out = []
        i, n = 0, len(data)
        by_first = self._by_first
        while i < n:
            for rng in by_first[data[i]]:
                size = rng.nbytes
                if i + size <= n and rng.contains(data, i):
                    out.append(self._char(int.from_bytes(data[i:i + size], "big"), size))
                    i += size
                    break
            else:
                # no codespace range matches: skip a code of the shortest length as undecodable
                size = min(by_first[data[i]][0].nbytes if by_first[data[i]] else self._shortest, n - i)
                out.append(self._char(int.from_bytes(data[i:i + size], "big"), size, valid=False))
                i += size
        return out


class _ForeignCMap:
    """A predefined CMap from `cmaps` seen through the interface of tounicode.CMap.

    cmaps may return its own CMap type (e.g. the packed-bcmap reader's: `codespace` ranges with
    `length`, `lookup_cid`, `vertical`); only codespace, code → CID and writing mode are used.
    """

    usecmap = None
    has_cids = True

    def __init__(self, cmap: Any):
        self.codespace = [CodespaceRange(getattr(r, "nbytes", None) or r.length, bytes(r.low), bytes(r.high))
                          for r in cmap.codespace]
        self.wmode = 1 if getattr(cmap, "wmode", 0) == 1 or getattr(cmap, "vertical", False) else 0
        self.to_cid = getattr(cmap, "to_cid", None) or cmap.lookup_cid


class _IdentityCMap:
    """Identity-H/V as a parent of an embedded CMap: 2-byte codes, CID = code."""

    usecmap = None
    has_cids = True
    wmode = 0
    codespace = TWO_BYTE

    @staticmethod
    def to_cid(code: int) -> int:
        return code


TWO_BYTE_IDENTITY = _IdentityCMap()


class _ChainedCMap:
    """An embedded CMap with `usecmap`: its own entries first, then the parent's."""

    usecmap = None
    has_cids = True

    def __init__(self, child: CMap, parent: Any):
        self.child, self.parent = child, parent
        self.codespace = child.codespace or parent.codespace
        self.wmode = child.wmode

    def to_cid(self, code: int) -> int | None:
        cid = self.child.to_cid(code)
        return cid if cid is not None else self.parent.to_cid(code)


def _predefined_cmap(cmap_name: str, warnings: list[str]) -> Any:
    try:
        found = cmaps.predefined_cmap(cmap_name)
        if found is None or isinstance(found, CMap):
            return found
        return _ForeignCMap(found)
    except Exception as exc:  # a broken resource must not break the font
        warnings.append(f"predefined CMap {cmap_name} unusable ({type(exc).__name__})")
        return None


def _cid_text(registry: str, ordering: str, cid: int) -> str | None:
    try:
        text = cmaps.cid_to_unicode(registry, ordering, cid)
    except Exception:
        return None
    return text if usable_text(text) else None


def _embedded_cmap(stream: Any, limits: Limits, read_stream, warnings: list[str]) -> CMap | None:
    return read_cmap_stream(stream, limits, read_stream, warnings, "CMap stream")


def _text_string(obj: Any) -> str:
    obj = resolve(obj)
    if isinstance(obj, bytes):
        return obj.decode("latin-1")
    return str(obj) if isinstance(obj, str) else ""


@dataclass
class _CodeMap:
    """What the /Encoding CMap (and a Unicode-like ToUnicode) say about codes."""

    codespace: list = field(default_factory=list)     # CodespaceRange list; empty = not known yet
    cid_map: Any = None                               # has .to_cid(code); None = CIDs unknown
    identity: bool = False                            # CID = code
    unicode_codec: str | None = None                  # the code bytes are Unicode in this codec
    vertical: bool = False


def _read_encoding(font: Any, limits: Limits, read_stream, warnings: list[str]) -> _CodeMap:
    encoding_obj = get(font, "/Encoding")
    encoding_name = name(encoding_obj) or ""
    result = _CodeMap()
    if encoding_name:
        result.vertical = encoding_name.endswith("-V")
        unicode_match = _UNICODE_CMAP.match(encoding_name)
        if encoding_name in _IDENTITY:
            result.codespace, result.identity = TWO_BYTE, True
        else:
            result.cid_map = _predefined_cmap(encoding_name, warnings)
            # the CMap's own WMode: the JIS CMap named plain "V" is vertical too
            result.vertical = result.vertical or getattr(result.cid_map, "wmode", 0) == 1
            if unicode_match:
                result.codespace, result.unicode_codec = _UNICODE_CODESPACES[unicode_match.group(1)]
            elif result.cid_map is None:
                warnings.append(f"predefined CMap {encoding_name} not available")
    elif encoding_obj is not None and hasattr(encoding_obj, "get_data"):
        cmap = _embedded_cmap(encoding_obj, limits, read_stream, warnings)
        if cmap is not None:
            stated = get(encoding_obj, "/WMode")
            result.vertical = cmap.wmode == 1 or number(stated) == 1
            result.cid_map = cmap
            parent = cmap.usecmap
            inherited = None
            if parent in _IDENTITY and not cmap.has_cids:
                result.identity = True
            elif parent:
                inherited = TWO_BYTE_IDENTITY if parent in _IDENTITY else _predefined_cmap(parent, warnings)
                if inherited is not None:
                    result.cid_map = _ChainedCMap(cmap, inherited)
            if parent and stated is None and cmap.wmode == 0:
                # "/Identity-V usecmap" with no WMode of its own writes as its parent does
                result.vertical = parent.endswith("-V") or getattr(inherited, "wmode", 0) == 1
    else:
        warnings.append("Type0 font without a usable /Encoding; Identity-H assumed")
        result.codespace, result.identity = TWO_BYTE, True
    if result.cid_map is not None and result.cid_map.codespace and not result.codespace:
        result.codespace = result.cid_map.codespace
    return result


def _read_to_unicode(font: Any, codes: _CodeMap, limits: Limits, read_stream, warnings: list[str]) -> CMap | None:
    stream = get(font, "/ToUnicode")
    if name(stream) in _IDENTITY:
        # `/ToUnicode /Identity-H` (some Windows producers): the 2-byte codes are UCS-2
        codes.unicode_codec = codes.unicode_codec or "utf-16-be"
        return None
    if stream is None:
        return None
    to_unicode = _embedded_cmap(stream, limits, read_stream, warnings)
    if to_unicode is not None and not to_unicode.has_unicode and to_unicode.name in _IDENTITY:
        # a copy of the Identity-H CMap given as ToUnicode means the same as the name above
        codes.unicode_codec = codes.unicode_codec or "utf-16-be"
    return to_unicode


def load_composite(font: Any, font_name: str, limits: Limits, read_stream: Callable[[Any], bytes],
                   warnings: list[str]) -> CompositeFont:
    descendants = array(get(font, "/DescendantFonts"))
    cid_font = resolve(descendants[0]) if descendants else None
    if not is_dict(cid_font):
        warnings.append("Type0 font without a descendant CIDFont")
        cid_font = None
    base = name(get(cid_font, "/BaseFont"))
    if base:
        font_name = _SUBSET_PREFIX.sub("", base)

    codes = _read_encoding(font, limits, read_stream, warnings)
    to_unicode = _read_to_unicode(font, codes, limits, read_stream, warnings)
    if not codes.codespace:
        # the encoding CMap is unknown: the ToUnicode map's codespace says how long codes are
        codes.codespace = to_unicode.codespace if to_unicode is not None and to_unicode.codespace else TWO_BYTE
    vertical, identity, unicode_codec, cid_cmap = codes.vertical, codes.identity, codes.unicode_codec, codes.cid_map

    info = get(cid_font, "/CIDSystemInfo")
    registry, ordering = _text_string(get(info, "/Registry")), _text_string(get(info, "/Ordering"))
    default_width = number(get(cid_font, "/DW"))
    default_width = DEFAULT_WIDTH if default_width is None else default_width
    widths = parse_widths(array(get(cid_font, "/W")), 1, limits.tounicode_entries, warnings)
    dw2 = numbers(get(cid_font, "/DW2"), 2) or list(DEFAULT_VERTICAL)
    vertical_widths = parse_widths(array(get(cid_font, "/W2")), 3, limits.tounicode_entries, warnings) \
        if vertical else None
    descriptor = get(cid_font, "/FontDescriptor")
    ascent, descent = vertical_metrics(descriptor if is_dict(descriptor) else None,
                                       descriptor if is_dict(descriptor) else None, None, 1000.0)
    # last resort: the embedded TrueType/OpenType program's cmap and post, read on first need
    program_text = truetype.cid_font_text(cid_font, read_stream, warnings)
    core_glyph_text = truetype.core_font_glyph_text(cid_font, font_name) if identity else None

    def resolve_code(code: int, nbytes: int, valid: bool) -> DecodedChar:
        text = None
        cid = None
        if valid:
            if to_unicode is not None:
                mapped = to_unicode.to_unicode(code)
                if usable_text(mapped) or mapped == "":   # "": EMPTY_TOUNICODE (tounicode.py)
                    text = mapped
            if text is None and unicode_codec is not None:
                try:
                    decoded = code.to_bytes(nbytes, "big").decode(unicode_codec)
                except (UnicodeDecodeError, OverflowError):
                    decoded = None
                if usable_text(decoded):
                    text = decoded
            if identity:
                cid = code
            elif cid_cmap is not None:
                cid = cid_cmap.to_cid(code)
            if text is None and cid is not None and registry:
                text = _cid_text(registry, ordering, cid)
            if text is None and cid is not None and program_text is not None:
                text = program_text(cid)
            if text is None and cid is not None and core_glyph_text is not None:
                text = core_glyph_text(cid)
        width = widths.get(cid) if cid is not None else None
        if width is None:
            width = default_width
        if vertical:
            metrics = vertical_widths.get(cid) if (vertical_widths is not None and cid is not None) else None
            w1, vx, vy = metrics if metrics is not None else (dw2[1], width / 2.0, dw2[0])
            return DecodedChar(code, text, width, nbytes == 1 and code == 32, w1, vx, vy)
        return DecodedChar(code, text, width, nbytes == 1 and code == 32)

    return CompositeFont(font_name, codes.codespace, resolve_code, vertical, ascent, descent, warnings)
