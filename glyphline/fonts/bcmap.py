"""Reader of packed binary CMaps (.bcmap, the format pdf.js ships Adobe's CMap resources in).

Format (big-endian): one header byte (bit 0 = WMode), then records. A record header byte
holds the type in bits 7-5 (0 codespacerange, 1 notdefrange, 2 cidchar, 3 cidrange,
4 bfchar, 5 bfrange, 7 metadata), a "sequential" flag in bit 4 and the code size minus one
in bits 3-0. Numbers are varints of 7-bit groups, most significant first, high bit = more.
Entries after the first of a record are deltas from the previous one (see each reader).
Metadata 0 is a comment, 1 names the parent CMap (`usecmap`).

A parsed `CMap` answers three questions: how long is the next code in a byte string
(codespace ranges), which CID does a code select (cidchar/cidrange), and which Unicode text
does a code (in the UCS2 tables: a CID) stand for (bfchar/bfrange). A child CMap defers to
its `usecmap` parent for whatever it does not define itself.
"""
from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field

MAX_VARINT_BYTES = 24          # a 16-byte number needs at most 19 groups of 7 bits; more = corrupt
MAX_RECORD_ENTRIES = 1 << 20   # Adobe's largest record has a few thousand entries; bounds corrupt counts
MAX_RANGE_SPAN = (1 << 24) - 1  # pdf.js refuses wider ranges too: no real CMap maps more codes at once
MAX_USECMAP_DEPTH = 8          # real chains are 1-2 deep (…-V → …-H → base); guards against cycles
READ_CODE_MAX_BYTES = 4        # codes in PDF CMaps are 1-4 bytes long (ISO 32000-1 §9.7.6.2)

RECORD_CODESPACE, RECORD_NOTDEF, RECORD_CIDCHAR, RECORD_CIDRANGE = 0, 1, 2, 3
RECORD_BFCHAR, RECORD_BFRANGE, RECORD_METADATA = 4, 5, 7
METADATA_COMMENT, METADATA_USECMAP = 0, 1
UNICODE_SOURCE_BYTES = 2       # bfchar/bfrange sources are 2-byte codes (CIDs in the UCS2 tables)


class BcmapError(ValueError):
    """The bytes are not a well-formed binary CMap."""


@dataclass(frozen=True, slots=True)
class CodespaceRange:
    length: int                 # code length in bytes
    low: bytes                  # per-byte lower bounds
    high: bytes                 # per-byte upper bounds

    def matches(self, data: bytes, pos: int) -> bool:
        # ISO 32000-1 §9.7.6.2: each byte must lie within its own byte range
        if pos + self.length > len(data):
            return False
        for i in range(self.length):
            if not self.low[i] <= data[pos + i] <= self.high[i]:
                return False
        return True


@dataclass
class _RangeTable:
    """Sorted non-overlapping (low, high, value) ranges plus single codes, later entries winning."""
    singles: dict = field(default_factory=dict)
    lows: list = field(default_factory=list)
    ranges: list = field(default_factory=list)   # (low, high, first_value)
    _pending: list = field(default_factory=list)

    def add_single(self, code: int, value) -> None:
        self._pending.append((code, code, value, True))

    def add_range(self, low: int, high: int, value) -> None:
        self._pending.append((low, high, value, False))

    def freeze(self) -> None:
        # single entries override ranges regardless of order: Adobe files only use cidchar
        # for exceptions to surrounding ranges, and a later range never re-covers them
        for low, high, value, single in self._pending:
            if single:
                self.singles[low] = value
            else:
                self.ranges.append((low, high, value))
        self._pending = []
        self.ranges.sort(key=lambda r: r[0])
        self.lows = [r[0] for r in self.ranges]

    def find(self, code: int):
        """(value, offset from the range start) or None."""
        value = self.singles.get(code)
        if value is not None:
            return value, 0
        i = bisect_right(self.lows, code) - 1
        # ranges may overlap in corrupt data: look back a little for one that covers the code
        for j in range(i, max(i - 4, -1), -1):
            low, high, first = self.ranges[j]
            if low <= code <= high:
                return first, code - low
        return None

    def __len__(self) -> int:
        return len(self.singles) + sum(h - l + 1 for l, h, _ in self.ranges)


@dataclass
class CMap:
    name: str
    vertical: bool = False
    parent_name: str | None = None
    parent: CMap | None = None
    own_codespace: list = field(default_factory=list)
    cids: _RangeTable = field(default_factory=_RangeTable)
    unicode: _RangeTable = field(default_factory=_RangeTable)

    def chain(self) -> list[CMap]:
        """This CMap and the ones it uses (/UseCMap), nearest first, at most MAX_USECMAP_DEPTH below it."""
        chain, cmap = [], self
        while cmap is not None and len(chain) <= MAX_USECMAP_DEPTH:
            chain.append(cmap)
            cmap = cmap.parent
        return chain

    @property
    def codespace(self) -> list[CodespaceRange]:
        for cmap in self.chain():
            if cmap.own_codespace:
                return cmap.own_codespace
        return []

    def next_code(self, data: bytes, pos: int) -> tuple[int, int]:
        """(code, length in bytes) of the code starting at `pos` (pos < len(data))."""
        ranges = self.codespace
        for length in range(1, READ_CODE_MAX_BYTES + 1):
            for r in ranges:
                if r.length == length and r.matches(data, pos):
                    return int.from_bytes(data[pos:pos + length], "big"), length
        # no full match (§9.7.6.3): take as many bytes as a range whose first byte matches
        first = data[pos]
        for r in ranges:
            if r.low[0] <= first <= r.high[0]:
                length = min(r.length, len(data) - pos)
                return int.from_bytes(data[pos:pos + length], "big"), length
        shortest = min((r.length for r in ranges), default=1)
        length = min(shortest, len(data) - pos)
        return int.from_bytes(data[pos:pos + length], "big"), length

    def split(self, data: bytes) -> list[tuple[int, int]]:
        """All (code, length) pairs of a string operand, per the codespace ranges."""
        out, pos = [], 0
        while pos < len(data):          # every step consumes at least one byte
            code, length = self.next_code(data, pos)
            out.append((code, length))
            pos += max(length, 1)
        return out

    def lookup_cid(self, code: int) -> int | None:
        for cmap in self.chain():
            hit = cmap.cids.find(code)
            if hit is not None:
                return hit[0] + hit[1]
        return None

    def lookup_unicode(self, code: int) -> str | None:
        for cmap in self.chain():
            hit = cmap.unicode.find(code)
            if hit is not None:
                (value, nbytes), offset = hit
                return _utf16_text(value + offset, nbytes)
        return None


def _utf16_text(value: int, nbytes: int) -> str | None:
    try:
        text = value.to_bytes(nbytes, "big").decode("utf-16-be")
    except (UnicodeDecodeError, OverflowError):
        return None
    return text or None


class _Stream:
    __slots__ = ("data", "pos")

    def __init__(self, data: bytes):
        self.data = data
        self.pos = 0

    def byte(self) -> int:
        if self.pos >= len(self.data):
            raise BcmapError("unexpected end of bcmap data")
        b = self.data[self.pos]
        self.pos += 1
        return b

    def fixed(self, size: int) -> int:
        """A big-endian number stored in exactly `size` bytes."""
        end = self.pos + size
        if end > len(self.data):
            raise BcmapError("unexpected end of bcmap data")
        n = int.from_bytes(self.data[self.pos:end], "big")
        self.pos = end
        return n

    def varint(self) -> int:
        n = 0
        for _ in range(MAX_VARINT_BYTES):
            b = self.byte()
            n = (n << 7) | (b & 0x7F)
            if not b & 0x80:
                return n
        raise BcmapError("varint too long")

    def signed(self) -> int:
        n = self.varint()
        return -(n >> 1) - 1 if n & 1 else n >> 1

    def string(self) -> str:
        length = self.varint()
        if length > len(self.data):
            raise BcmapError("string longer than the data")
        chars = [self.varint() for _ in range(length)]
        try:
            return "".join(map(chr, chars))
        except (ValueError, OverflowError) as exc:
            raise BcmapError("bad character in string") from exc


def parse_bcmap(data: bytes, name: str = "") -> CMap:
    """Decode one .bcmap file (without resolving its parent). Raises BcmapError on bad data."""
    if not data:
        raise BcmapError("empty bcmap data")
    stream = _Stream(bytes(data))
    cmap = CMap(name=name, vertical=bool(stream.byte() & 1))
    while stream.pos < len(stream.data):   # each record consumes at least its header byte
        header = stream.byte()
        kind = header >> 5
        if kind == RECORD_METADATA:
            text = stream.string()
            if header & 0x1F == METADATA_USECMAP:
                cmap.parent_name = text
            continue
        if kind > RECORD_BFRANGE:
            raise BcmapError(f"unknown record type {kind}")
        sequential = bool(header & 0x10)
        size = (header & 0x0F) + 1
        count = stream.varint()
        if count < 1 or count > MAX_RECORD_ENTRIES or count > len(stream.data):
            raise BcmapError("implausible record entry count")
        _READERS[kind](stream, cmap, size, count, sequential)
    cmap.cids.freeze()
    cmap.unicode.freeze()
    return cmap


def _mask(size: int) -> int:
    return (1 << (8 * size)) - 1


def _check_span(low: int, high: int) -> None:
    if high - low > MAX_RANGE_SPAN:
        raise BcmapError("range too wide")


def _read_codespace(stream: _Stream, cmap: CMap, size: int, count: int, _seq: bool) -> None:
    # first entry: start, end - start; then start - (previous end + 1), end - start
    mask = _mask(size)
    start = stream.fixed(size)
    end = (start + stream.varint()) & mask
    cmap.own_codespace.append(_codespace(size, start, end))
    for _ in range(count - 1):
        start = (end + 1 + stream.varint()) & mask
        end = (start + stream.varint()) & mask
        cmap.own_codespace.append(_codespace(size, start, end))


def _codespace(size: int, low: int, high: int) -> CodespaceRange:
    if size > READ_CODE_MAX_BYTES:
        raise BcmapError("codespace code longer than 4 bytes")
    return CodespaceRange(size, low.to_bytes(size, "big"), high.to_bytes(size, "big"))


def _read_notdef(stream: _Stream, cmap: CMap, size: int, count: int, _seq: bool) -> None:
    # notdef ranges select CID 0, which has no text: read past them
    mask = _mask(size)
    start = stream.fixed(size)
    end = (start + stream.varint()) & mask
    stream.varint()
    for _ in range(count - 1):
        start = (end + 1 + stream.varint()) & mask
        end = (start + stream.varint()) & mask
        stream.varint()


def _read_cidchar(stream: _Stream, cmap: CMap, size: int, count: int, sequential: bool) -> None:
    # first: code, cid; then code = previous + 1 (+ delta unless sequential), cid = previous + 1 + signed delta
    mask = _mask(size)
    code = stream.fixed(size)
    cid = stream.varint()
    cmap.cids.add_single(code, cid)
    for _ in range(count - 1):
        code = (code + 1 + (0 if sequential else stream.varint())) & mask
        cid = cid + 1 + stream.signed()
        if cid < 0:
            raise BcmapError("negative CID")
        cmap.cids.add_single(code, cid)


def _read_cidrange(stream: _Stream, cmap: CMap, size: int, count: int, sequential: bool) -> None:
    # first: start, end - start, cid; then start = previous end + 1 (+ delta unless sequential)
    mask = _mask(size)
    start = stream.fixed(size)
    end = (start + stream.varint()) & mask
    cid = stream.varint()
    _check_span(start, end)
    cmap.cids.add_range(start, end, cid)
    for _ in range(count - 1):
        start = (end + 1 + (0 if sequential else stream.varint())) & mask
        end = (start + stream.varint()) & mask
        cid = stream.varint()
        _check_span(start, end)
        cmap.cids.add_range(start, end, cid)


def _read_bfchar(stream: _Stream, cmap: CMap, size: int, count: int, sequential: bool) -> None:
    # sources are 2-byte codes; destinations `size` bytes of UTF-16BE, stored as deltas from
    # the previous destination + 1, sign in the lowest bit, wrapping within `size` bytes
    src_mask, dst_mask = _mask(UNICODE_SOURCE_BYTES), _mask(size)
    src = stream.fixed(UNICODE_SOURCE_BYTES)
    dst = stream.fixed(size)
    cmap.unicode.add_single(src, (dst, size))
    for _ in range(count - 1):
        src = (src + 1 + (0 if sequential else stream.varint())) & src_mask
        n = stream.varint() & dst_mask
        delta = (n >> 1) ^ (dst_mask if n & 1 else 0)
        dst = (dst + 1 + delta) & dst_mask
        cmap.unicode.add_single(src, (dst, size))


def _read_bfrange(stream: _Stream, cmap: CMap, size: int, count: int, sequential: bool) -> None:
    # sources as in cidrange (2-byte codes); each range's first destination stored in full
    mask = _mask(UNICODE_SOURCE_BYTES)
    start = stream.fixed(UNICODE_SOURCE_BYTES)
    end = (start + stream.varint()) & mask
    cmap.unicode.add_range(start, end, (stream.fixed(size), size))
    for _ in range(count - 1):
        start = (end + 1 + (0 if sequential else stream.varint())) & mask
        end = (start + stream.varint()) & mask
        cmap.unicode.add_range(start, end, (stream.fixed(size), size))


_READERS = {
    RECORD_CODESPACE: _read_codespace,
    RECORD_NOTDEF: _read_notdef,
    RECORD_CIDCHAR: _read_cidchar,
    RECORD_CIDRANGE: _read_cidrange,
    RECORD_BFCHAR: _read_bfchar,
    RECORD_BFRANGE: _read_bfrange,
}
