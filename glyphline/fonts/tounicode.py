"""CMap streams: /ToUnicode maps (code → Unicode) and embedded CID CMaps (code → CID).

One parser reads both (ISO 32000-1 §9.7.5, §9.10.3; Adobe TN 5014/5411): codespace ranges,
bfchar/bfrange (incl. the array form), cidchar/cidrange, /WMode, usecmap (remembered, not
followed). Everything is bounded by `Limits.tounicode_entries`: a range is expanded into a
dictionary only when it is small; a big one (up to 2^32 codes) is kept as a lazy range.
"""
from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field

from .glyphnames import glyph_to_unicode

# ranges up to this many codes are expanded into the dictionary (fast lookups); larger ones stay lazy
RANGE_EXPAND_MAX = 256
# lazy ranges kept per CMap: enough for any real map, bounded so lookups stay fast
MAX_LAZY_RANGES = 4096
# overlapping lazy ranges scanned backwards from the bisect point before giving up
LAZY_SCAN = 32
# a code is at most 4 bytes (ISO 32000-1 §9.7.6.2)
MAX_CODE_BYTES = 4
# one glyph stands for a ligature or a short word at most; longer values are junk (and would
# multiply a page's text by the glyph count)
MAX_TEXT_PER_CODE = 64

# string tokens are at most 4096 bytes and a literal never contains '(' (not even escaped): unclosed
# '(' or '<' in hostile data then cost linear time, not quadratic
_TOKEN = re.compile(
    rb"""<([0-9A-Fa-f\s]{0,4096})>           # 1: hex string
       |(\[)|(\])                            # 2, 3: array brackets
       |/([^\s/\[\]<>(){}%]*)                # 4: name
       |\(((?:\\[^(]|[^\\()]){0,4096})\)     # 5: literal string (CMaps never nest parentheses)
       |([-+]?(?:\d+\.?\d*|\.\d+))(?![^\s/\[\]<>(){}%])   # 6: number
       |([^\s/\[\]<>(){}%]+)                 # 7: keyword
       |%[^\r\n]*                            # comment
    """,
    re.X | re.S,
)
_SPACE = re.compile(rb"\s+")
_LITERAL_ESCAPE = re.compile(rb"\\([0-7]{1,3}|.)", re.S)
_ESCAPES = {b"n": b"\n", b"r": b"\r", b"t": b"\t", b"b": b"\b", b"f": b"\f"}

_BLOCKS = {
    b"begincodespacerange": ("codespace", 2),
    b"beginbfchar": ("bfchar", 2),
    b"beginbfrange": ("bfrange", 3),
    b"begincidchar": ("cidchar", 2),
    b"begincidrange": ("cidrange", 3),
    b"beginnotdefrange": ("notdefrange", 3),
}


class _Hex(bytes):
    """A hex string operand (as opposed to a literal string)."""


class _Name(str):
    pass


class _Keyword(bytes):
    """An operator such as `beginbfchar` or `def` (as opposed to a string operand)."""


def usable_text(text: str | None) -> bool:
    """Sanity check of one mapped value: broken maps send codes to U+FFFD, U+0000 or controls."""
    if not text or len(text) > MAX_TEXT_PER_CODE:
        return False
    for ch in text:
        o = ord(ch)
        if o == 0xFFFD or (o < 0x20 and ch not in "\t\n") or 0x7F <= o <= 0x9F:
            return False
    return True


def utf16_text(data: bytes) -> str | None:
    """A CMap destination string → text (UTF-16BE; lone surrogates and junk → None)."""
    if len(data) == 1:
        return chr(data[0])  # some producers write one-byte destinations
    if not data or len(data) % 2:
        return None
    try:
        text = data.decode("utf-16-be")
    except UnicodeDecodeError:
        return None
    if len(text) > 1 and text[0] == "\ufeff":
        text = text[1:]
    return text


@dataclass
class CodespaceRange:
    nbytes: int
    low: bytes
    high: bytes

    def contains(self, data: bytes, start: int) -> bool:
        low, high = self.low, self.high
        for i in range(self.nbytes):
            b = data[start + i]
            if b < low[i] or b > high[i]:
                return False
        return True


@dataclass
class CMap:
    name: str = ""
    wmode: int = 0
    usecmap: str | None = None
    codespace: list[CodespaceRange] = field(default_factory=list)
    unicode: dict[int, str] = field(default_factory=dict)
    cids: dict[int, int] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    # lazy big ranges, sorted by first code: (first, last, base value, dest length or -1 for CIDs)
    _unicode_ranges: list[tuple[int, int, int, int]] = field(default_factory=list)
    _unicode_firsts: list[int] = field(default_factory=list)
    _cid_ranges: list[tuple[int, int, int, int]] = field(default_factory=list)
    _cid_firsts: list[int] = field(default_factory=list)

    def to_unicode(self, code: int) -> str | None:
        """Raw mapped text of `code` (no sanity check), or None; "" means "no text of its own"."""
        text = self.unicode.get(code)
        if text is not None or not self._unicode_ranges:
            return text
        found = _find_range(self._unicode_ranges, self._unicode_firsts, code)
        if found is None:
            return None
        first, _last, base, length = found
        value = base + (code - first)
        if value >= 1 << (8 * length):
            return None
        return utf16_text(value.to_bytes(length, "big"))

    def to_cid(self, code: int) -> int | None:
        cid = self.cids.get(code)
        if cid is not None or not self._cid_ranges:
            return cid
        found = _find_range(self._cid_ranges, self._cid_firsts, code)
        return None if found is None else found[2] + (code - found[0])

    @property
    def has_unicode(self) -> bool:
        return bool(self.unicode or self._unicode_ranges)

    @property
    def has_cids(self) -> bool:
        return bool(self.cids or self._cid_ranges)


def _find_range(ranges, firsts, code):
    i = bisect_right(firsts, code) - 1
    stop = max(-1, i - LAZY_SCAN)
    while i > stop:
        entry = ranges[i]
        if entry[0] <= code <= entry[1]:
            return entry
        i -= 1
    return None


def _literal_bytes(raw: bytes) -> bytes:
    def replace(match: re.Match) -> bytes:
        esc = match.group(1)
        if esc[:1].isdigit():
            return bytes((int(esc, 8) & 0xFF,))
        return _ESCAPES.get(esc, esc if esc not in b"\r\n" else b"")

    return _LITERAL_ESCAPE.sub(replace, raw)


def _tokens(data: bytes):
    for m in _TOKEN.finditer(data):
        kind = m.lastindex
        if kind is None:
            continue  # comment
        value = m.group(kind)
        if kind == 1:
            digits = _SPACE.sub(b"", value)
            if len(digits) % 2:
                digits += b"0"
            yield _Hex(bytes.fromhex(digits.decode("ascii")))
        elif kind == 2:
            yield "["
        elif kind == 3:
            yield "]"
        elif kind == 4:
            yield _Name(value.decode("latin-1"))
        elif kind == 5:
            yield _literal_bytes(value)
        elif kind == 6:
            yield float(value) if b"." in value else int(value)
        else:
            yield _Keyword(value)


def _code(operand) -> tuple[int, int] | None:
    """A source code operand → (value, byte count)."""
    if isinstance(operand, bytes) and not isinstance(operand, _Keyword) and 1 <= len(operand) <= MAX_CODE_BYTES:
        return int.from_bytes(operand, "big"), len(operand)
    return None


def _dest_text(operand) -> str | None:
    if isinstance(operand, _Name):
        return glyph_to_unicode(operand)
    if isinstance(operand, _Hex):
        # EMPTY_TOUNICODE: `<0003> <>` says the glyph has no text of its own (another glyph of its
        # cluster carries it, as Skia and HarfBuzz-based producers write); "" is kept as such
        return utf16_text(bytes(operand)) if operand else ""
    if isinstance(operand, bytes) and not isinstance(operand, _Keyword):  # literal string: UTF-16BE when it says so, else Latin-1
        if len(operand) >= 2 and (operand[:2] == b"\xfe\xff" or len(operand) % 2 == 0 and operand[0] == 0):
            return utf16_text(bytes(operand))
        return operand.decode("latin-1") or None
    return None


class _Builder:
    def __init__(self, cmap: CMap, max_entries: int):
        self.cmap = cmap
        self.entries = 0
        self.max_entries = max_entries
        self.full = False
        self.unicode_ranges: list[tuple[int, int, int, int]] = []
        self.cid_ranges: list[tuple[int, int, int, int]] = []

    def charge(self, n: int) -> bool:
        self.entries += n
        if self.entries > self.max_entries:
            if not self.full:
                self.cmap.warnings.append(f"CMap has more than {self.max_entries} entries; the rest is ignored")
            self.full = True
        return not self.full

    def codespace(self, low, high) -> None:
        if isinstance(low, bytes) and isinstance(high, bytes) and len(low) == len(high) and 1 <= len(low) <= MAX_CODE_BYTES:
            if len(self.cmap.codespace) < MAX_LAZY_RANGES:
                self.cmap.codespace.append(CodespaceRange(len(low), bytes(low), bytes(high)))

    def bfchar(self, src, dst) -> None:
        code = _code(src)
        text = _dest_text(dst)
        if code is not None and text is not None and self.charge(1):
            self.cmap.unicode[code[0]] = text

    def bfrange(self, low, high, dst) -> None:
        lo, hi = _code(low), _code(high)
        if lo is None or hi is None or hi[0] < lo[0]:
            return
        first, last = lo[0], hi[0]
        if isinstance(dst, list):
            items = dst[: last - first + 1]
            if not self.charge(len(items)):
                return
            for offset, item in enumerate(items):
                text = _dest_text(item)
                if text is not None:
                    self.cmap.unicode[first + offset] = text
            return
        if not isinstance(dst, bytes) or isinstance(dst, _Keyword) or not dst or len(dst) > 16:
            return
        base, length = int.from_bytes(dst, "big"), len(dst)
        if last - first < RANGE_EXPAND_MAX:
            if not self.charge(last - first + 1):
                return
            limit = 1 << (8 * length)
            for code in range(first, last + 1):
                value = base + (code - first)
                if value >= limit:
                    break
                text = utf16_text(value.to_bytes(length, "big"))
                if text is not None:
                    self.cmap.unicode[code] = text
        elif self.charge(1) and len(self.unicode_ranges) < MAX_LAZY_RANGES:
            self.unicode_ranges.append((first, last, base, length))

    def cidchar(self, src, cid) -> None:
        code = _code(src)
        if code is not None and isinstance(cid, int) and cid >= 0 and self.charge(1):
            self.cmap.cids[code[0]] = cid

    def cidrange(self, low, high, cid) -> None:
        lo, hi = _code(low), _code(high)
        if lo is None or hi is None or hi[0] < lo[0] or not isinstance(cid, int) or cid < 0:
            return
        first, last = lo[0], hi[0]
        if last - first < RANGE_EXPAND_MAX:
            if self.charge(last - first + 1):
                for code in range(first, last + 1):
                    self.cmap.cids[code] = cid + (code - first)
        elif self.charge(1) and len(self.cid_ranges) < MAX_LAZY_RANGES:
            self.cid_ranges.append((first, last, cid, -1))

    def finish(self) -> CMap:
        cmap = self.cmap
        self.unicode_ranges.sort(key=lambda r: r[0])
        cmap._unicode_ranges = self.unicode_ranges
        cmap._unicode_firsts = [r[0] for r in self.unicode_ranges]
        self.cid_ranges.sort(key=lambda r: r[0])
        cmap._cid_ranges = self.cid_ranges
        cmap._cid_firsts = [r[0] for r in self.cid_ranges]
        return cmap


def parse_cmap(data: bytes, max_entries: int) -> CMap:
    """Parse a CMap stream's bytes. Never raises: junk is skipped and noted in `warnings`."""
    cmap = CMap()
    builder = _Builder(cmap, max_entries)
    mode: str | None = None
    arity = 0
    operands: list = []
    array: list | None = None
    recent: list = []  # last operands outside blocks, for `/WMode 1 def` and `/Name usecmap`
    # tokens outside blocks are bounded too, so a stream of junk ends in linear time
    max_tokens = 8 * max_entries + 100_000
    try:
        for count, token in enumerate(_tokens(data)):
            if count > max_tokens or builder.full:
                break
            if array is not None:
                if token != "]":
                    if len(array) < RANGE_EXPAND_MAX * 256:
                        array.append(token)
                    continue
                token, array = array, None
            if mode is not None:
                if token == "[":
                    array = []
                    continue
                if isinstance(token, _Keyword) and token.startswith(b"end"):
                    mode, operands = None, []
                    continue
                operands.append(token)
                if len(operands) == arity:
                    _emit(builder, mode, operands)
                    operands = []
            elif isinstance(token, _Keyword) and token in _BLOCKS:
                mode, arity = _BLOCKS[token]
                operands = []
            elif token == b"def" and len(recent) >= 2 and isinstance(recent[-2], _Name):
                key, value = recent[-2], recent[-1]
                if key == "WMode" and isinstance(value, int):
                    cmap.wmode = 1 if value == 1 else 0
                elif key == "CMapName" and isinstance(value, _Name):
                    cmap.name = str(value)
                recent = []
            elif token == b"usecmap" and recent and isinstance(recent[-1], _Name):
                cmap.usecmap = str(recent[-1])
                recent = []
            else:
                recent.append(token)
                if len(recent) > 4:
                    del recent[0]
    except (ValueError, OverflowError) as exc:  # a malformed token: keep what was read
        cmap.warnings.append(f"CMap stream is malformed ({type(exc).__name__}); partial map used")
    return builder.finish()


def _emit(builder: _Builder, mode: str, ops: list) -> None:
    if mode == "codespace":
        builder.codespace(ops[0], ops[1])
    elif mode == "bfchar":
        builder.bfchar(ops[0], ops[1])
    elif mode == "bfrange":
        builder.bfrange(ops[0], ops[1], ops[2])
    elif mode == "cidchar":
        builder.cidchar(ops[0], ops[1])
    elif mode == "cidrange":
        builder.cidrange(ops[0], ops[1], ops[2])
