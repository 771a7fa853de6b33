"""A pure-Python Brotli decoder (RFC 7932) for the `/BrotliDecode` stream filter.

PDF streams compressed with Brotli (the PDF Association's proposed filter, read by pdf.js and
MuPDF) need a decoder where the `brotli` C extension is missing: always in Pyodide, and on
CPython without the optional extra. `glyphline.filters` prefers the C extension when it imports.

The RFC's static dictionary (122,784 bytes) and its 121 word transforms are not in the source:
they are generated at build time (`tools/brotli_static.py`) and shipped as package data in
`glyphline/data/brotli/`, read only when a stream first refers to the dictionary.

Every loop is bounded: the output never grows past `max_output` (each meta-block announces its
length, so a bomb is refused before any of it is decoded), and every loop that produces no
output consumes input.
"""
from __future__ import annotations

import json
import time
from pathlib import Path

DATA_DIR = Path(__file__).resolve().parent / "data" / "brotli"
DICTIONARY_FILE = DATA_DIR / "dictionary.bin"
TRANSFORMS_FILE = DATA_DIR / "transforms.json"

DICTIONARY_SIZE = 122_784
# words of length n: 2**NDBITS[n] of them (RFC 7932 §8); lengths 0-3 have no words
NDBITS = (0, 0, 0, 0, 10, 10, 11, 11, 10, 10, 10, 10, 10, 9, 9, 8, 7, 7, 8, 7, 7, 6, 6, 5, 5)
DOFFSET = [0] * 25
for _n in range(4, 24):
    DOFFSET[_n + 1] = DOFFSET[_n] + (_n << NDBITS[_n])
MIN_WORD, MAX_WORD = 4, 24
TRANSFORM_COUNT = 121
# transform types (RFC 7932 §8): identity, omit the last 1-9 bytes, uppercase first/all, omit the first 1-9
IDENTITY, UPPERCASE_FIRST, UPPERCASE_ALL = 0, 10, 11
OMIT_LAST = range(1, 10)
OMIT_FIRST = range(12, 21)

# §3.5: the fixed code of the code-length code lengths, as printed in the RFC (bits parsed right to
# left, so each string read as a binary number is the LSB-first value of the bits)
CODE_LENGTH_CODES = ((0, "00"), (1, "0111"), (2, "011"), (3, "10"), (4, "01"), (5, "1111"))
CODE_LENGTH_TABLE = tuple(next((sym, len(code)) for sym, code in CODE_LENGTH_CODES
                               if index & ((1 << len(code)) - 1) == int(code, 2)) for index in range(16))
CODE_LENGTH_ORDER = (1, 2, 3, 4, 0, 5, 17, 6, 16, 7, 8, 9, 10, 11, 12, 13, 14, 15)
MAX_CODE_LENGTH = 15
ROOT_BITS = 8   # first-level lookup width of a prefix code; longer codes go through a second table

# §5: insert and copy lengths, (base, extra bits) per code
INSERT_LENGTHS = tuple(zip(
    (0, 1, 2, 3, 4, 5, 6, 8, 10, 14, 18, 26, 34, 50, 66, 98, 130, 194, 322, 578, 1090, 2114, 6210, 22594),
    (0, 0, 0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 7, 8, 9, 10, 12, 14, 24)))
COPY_LENGTHS = tuple(zip(
    (2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 14, 18, 22, 30, 38, 54, 70, 102, 134, 198, 326, 582, 1094, 2118),
    (0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 7, 8, 9, 10, 24)))
# the 64-command cells of the insert-and-copy alphabet: (insert code base, copy code base)
COMMAND_CELLS = ((0, 0), (0, 8), (0, 0), (0, 8), (8, 0), (8, 8), (0, 16), (16, 0), (8, 16), (16, 8), (16, 16))
# §6: block counts, (base, extra bits) per symbol
BLOCK_COUNTS = tuple(zip(
    (1, 5, 9, 13, 17, 25, 33, 41, 49, 65, 81, 97, 113, 145, 177, 209, 241, 305, 369, 497, 753, 1265, 2289,
     4337, 8433, 16625),
    (2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 6, 6, 7, 8, 9, 10, 11, 12, 13, 24)))
# §4: distance codes 0-15 reuse the last distances: (which one back, delta)
SHORT_DISTANCES = ((0, 0), (1, 0), (2, 0), (3, 0), (0, -1), (0, 1), (0, -2), (0, 2), (0, -3), (0, 3),
                   (1, -1), (1, 1), (1, -2), (1, 2), (1, -3), (1, 3))


def _context_tables() -> tuple[bytes, bytes, bytes]:
    """§7.1's lookup tables for the UTF8 and Signed literal context modes."""
    lut0 = bytearray(256)
    for c in b"\t\n\r":
        lut0[c] = 4
    punctuation = {" ": 8, "!": 12, '"': 16, "#": 12, "$": 12, "%": 20, "&": 12, "'": 16, "(": 24, ")": 28,
                   "*": 12, "+": 12, ",": 32, "-": 12, ".": 36, "/": 12, ":": 32, ";": 32, "<": 24, "=": 40,
                   ">": 28, "?": 12, "@": 12, "[": 24, "\\": 12, "]": 28, "^": 12, "_": 12, "`": 12, "{": 24,
                   "|": 12, "}": 28, "~": 12}
    for ch, value in punctuation.items():
        lut0[ord(ch)] = value
    for c in b"0123456789":
        lut0[c] = 44
    for c in range(ord("A"), ord("Z") + 1):
        lut0[c] = 48 if chr(c) in "AEIOU" else 52
    for c in range(ord("a"), ord("z") + 1):
        lut0[c] = 56 if chr(c) in "aeiou" else 60
    for c in range(128, 256):
        lut0[c] = (c & 1) + (2 if c >= 192 else 0)
    lut1 = bytearray(256)
    for c in range(32, 128):
        ch = chr(c)
        if ch.isdigit():
            lut1[c] = 2
        elif ch.isalpha():
            lut1[c] = 2 if ch.isupper() else 3
        elif c != 32 and c != 127:
            lut1[c] = 1
    for c in range(224, 256):   # two bytes after a 3- or 4-byte lead byte: still inside the character
        lut1[c] = 2
    lut2 = bytearray(256)
    for c in range(256):
        lut2[c] = (0 if c == 0 else 1 if c < 16 else 2 if c < 64 else 3 if c < 128 else 4 if c < 192
                   else 5 if c < 240 else 6 if c < 255 else 7)
    return bytes(lut0), bytes(lut1), bytes(lut2)


LUT0, LUT1, LUT2 = _context_tables()


class BrotliError(ValueError):
    """The data is not a valid Brotli stream (or is truncated: `partial` holds what was decoded)."""

    def __init__(self, message: str, partial: bytes = b""):
        super().__init__(message)
        self.partial = partial


class BrotliLimitError(BrotliError):
    """The output would exceed `max_output`."""


class BrotliTimeout(BrotliLimitError):
    """Decoding went past its deadline (literals cost no input bits with a one-symbol code)."""


def _check_time(deadline: float | None) -> None:
    if deadline is not None and time.monotonic() > deadline:
        raise BrotliTimeout("decoding the Brotli stream took too long")


class _Static:
    dictionary: bytes | None = None
    transforms: list[tuple[bytes, int, bytes]] | None = None


def static_data() -> tuple[bytes, list[tuple[bytes, int, bytes]]]:
    """The static dictionary and transforms, read from the package data on first use."""
    if _Static.dictionary is None:
        try:
            dictionary = DICTIONARY_FILE.read_bytes()
            raw = json.loads(TRANSFORMS_FILE.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise BrotliError("the Brotli static dictionary is not installed (glyphline/data/brotli; "
                              "run `make brotli-data`)") from exc
        set_static_data(dictionary, [(bytes.fromhex(p), t, bytes.fromhex(s)) for p, t, s in raw])
    return _Static.dictionary, _Static.transforms  # type: ignore[return-value]


def set_static_data(dictionary: bytes, transforms: list[tuple[bytes, int, bytes]]) -> None:
    if len(dictionary) != DICTIONARY_SIZE or len(transforms) != TRANSFORM_COUNT:
        raise BrotliError("the Brotli static dictionary data has the wrong size")
    _Static.dictionary, _Static.transforms = bytes(dictionary), list(transforms)


def _uppercase(word: bytearray, i: int) -> int:
    """§8's simplified UTF-8 uppercasing of the character at i; returns its length."""
    c = word[i]
    if c < 0xC0:
        if 97 <= c <= 122:
            word[i] = c ^ 32
        return 1
    if c < 0xE0:
        if i + 1 < len(word):
            word[i + 1] ^= 32
        return 2
    if i + 2 < len(word):
        word[i + 2] ^= 5
    return 3


def transform_word(word: bytes, transform: tuple[bytes, int, bytes]) -> bytes:
    prefix, kind, suffix = transform
    if kind == IDENTITY:
        return prefix + word + suffix
    if kind in OMIT_LAST:
        return prefix + word[:max(0, len(word) - kind)] + suffix
    if kind in OMIT_FIRST:
        return prefix + word[kind - 11:] + suffix
    buffer = bytearray(word)
    if kind == UPPERCASE_FIRST:
        if buffer:
            _uppercase(buffer, 0)
    else:
        i = 0
        while i < len(buffer):
            i += _uppercase(buffer, i)
    return prefix + bytes(buffer) + suffix


class _Bits:
    """LSB-first bit reader. Reading past the end yields zeros and sets `overrun`."""

    __slots__ = ("data", "pos", "acc", "count", "size")

    def __init__(self, data: bytes):
        self.data = data
        self.size = len(data)
        self.pos = 0      # next byte to load into the accumulator
        self.acc = 0
        self.count = 0    # bits in the accumulator

    def fill(self) -> None:
        if self.count < 32:
            chunk = self.data[self.pos:self.pos + 4]
            self.acc |= int.from_bytes(chunk, "little") << self.count
            self.count += 32     # missing bytes read as zeros (see overrun)
            self.pos += 4

    @property
    def overrun(self) -> bool:
        return (self.pos * 8 - self.count) > self.size * 8

    def read(self, n: int) -> int:
        if n == 0:
            return 0
        if self.count < n:   # n is 24 at most
            self.fill()
        value = self.acc & ((1 << n) - 1)
        self.acc >>= n
        self.count -= n
        return value

    def to_byte_boundary(self) -> int:
        """Drops the bits up to the next byte boundary and returns them (they must be zero)."""
        return self.read(self.count & 7)

    def take_bytes(self, n: int) -> bytes:
        """n whole bytes from a byte boundary; fewer when the data ends."""
        start = (self.pos * 8 - self.count) // 8
        self.acc = self.count = 0
        self.pos = start + n
        return self.data[start:start + n]


class _Code:
    """A prefix code: `root` entries are (length << 16 | symbol), -1 for no code, or -2 - index into
    `subs` (a second table for the codes longer than ROOT_BITS that share these first bits)."""

    __slots__ = ("root", "subs")

    def __init__(self, root: list[int], subs: list[tuple[list[int], int]]):
        self.root = root
        self.subs = subs


def _build_code(lengths: list[int] | dict[int, int]) -> _Code:
    """Canonical prefix code from code lengths (symbol → length; 0 = unused); a single symbol takes 0 bits."""
    items = sorted((length, symbol) for symbol, length in
                   (lengths.items() if isinstance(lengths, dict) else enumerate(lengths)) if length)
    if not items:
        raise BrotliError("a prefix code has no symbols")
    if len(items) == 1:
        return _Code([items[0][1]] * (1 << ROOT_BITS), [])
    root = [-1] * (1 << ROOT_BITS)
    groups: dict[int, list[tuple[int, int, int]]] = {}   # low ROOT_BITS bits → (reversed code, length, symbol)
    code = 0
    previous = items[0][0]
    for length, symbol in items:
        code <<= length - previous
        previous = length
        if code >= 1 << length:
            raise BrotliError("a prefix code is over-subscribed")
        reversed_code = int(format(code, f"0{length}b")[::-1], 2)
        if length <= ROOT_BITS:
            entry = (length << 16) | symbol
            for index in range(reversed_code, 1 << ROOT_BITS, 1 << length):
                root[index] = entry
        else:
            groups.setdefault(reversed_code & ((1 << ROOT_BITS) - 1), []).append((reversed_code, length, symbol))
        code += 1
    subs: list[tuple[list[int], int]] = []
    for low, members in groups.items():
        sub_bits = max(length for _, length, _ in members) - ROOT_BITS
        table = [-1] * (1 << sub_bits)
        for reversed_code, length, symbol in members:
            entry = (length << 16) | symbol
            for index in range(reversed_code >> ROOT_BITS, 1 << sub_bits, 1 << (length - ROOT_BITS)):
                table[index] = entry
        root[low] = -2 - len(subs)
        subs.append((table, sub_bits))
    return _Code(root, subs)


def _symbol(bits: _Bits, code: _Code) -> int:
    if bits.count < MAX_CODE_LENGTH:
        bits.fill()
    entry = code.root[bits.acc & 0xFF]
    if entry < 0:
        if entry == -1:
            raise BrotliError("invalid prefix code")
        table, sub_bits = code.subs[-2 - entry]
        entry = table[(bits.acc >> ROOT_BITS) & ((1 << sub_bits) - 1)]
        if entry < 0:
            raise BrotliError("invalid prefix code")
    length = entry >> 16
    bits.acc >>= length
    bits.count -= length
    return entry & 0xFFFF


def _alphabet_bits(size: int) -> int:
    return max(1, (size - 1).bit_length())


def _read_code(bits: _Bits, alphabet: int) -> _Code:
    """§3.4 simple and §3.5 complex prefix codes."""
    hskip = bits.read(2)
    if hskip == 1:
        count = bits.read(2) + 1
        width = _alphabet_bits(alphabet)
        symbols = [bits.read(width) for _ in range(count)]
        if any(s >= alphabet for s in symbols) or len(set(symbols)) != count:
            raise BrotliError("invalid simple prefix code")
        if count == 1:
            return _Code([symbols[0]] * (1 << ROOT_BITS), [])   # 0 bits per symbol
        if count == 2:
            lengths = {symbols[0]: 1, symbols[1]: 1}
        elif count == 3:
            lengths = {symbols[0]: 1, symbols[1]: 2, symbols[2]: 2}
        elif bits.read(1):
            lengths = {symbols[0]: 1, symbols[1]: 2, symbols[2]: 3, symbols[3]: 3}
        else:
            lengths = {s: 2 for s in symbols}
        return _build_code(lengths)
    # complex: code lengths of the code-length code, then the symbols' code lengths
    length_lengths = [0] * 18
    space, used = 32, 0
    for index in range(hskip, 18):
        if bits.count < 4:
            bits.fill()
        value, width = CODE_LENGTH_TABLE[bits.acc & 15]
        bits.acc >>= width
        bits.count -= width
        length_lengths[CODE_LENGTH_ORDER[index]] = value
        if value:
            space -= 32 >> value
            used += 1
            if space <= 0:
                break
    if not (used == 1 or space == 0):
        raise BrotliError("invalid code length code")
    length_code = _build_code(length_lengths)
    lengths = [0] * alphabet
    symbol, previous, repeat, repeat_length = 0, 8, 0, 0
    space = 1 << 15
    while symbol < alphabet and space > 0:
        value = _symbol(bits, length_code)
        if value < 16:
            repeat = 0
            lengths[symbol] = value
            symbol += 1
            if value:
                previous = value
                space -= (1 << 15) >> value
            continue
        extra = 2 if value == 16 else 3
        new_length = previous if value == 16 else 0
        if repeat_length != new_length:
            repeat, repeat_length = 0, new_length
        old = repeat
        if repeat > 0:
            repeat = (repeat - 2) << extra
        repeat += bits.read(extra) + 3
        delta = repeat - old
        if symbol + delta > alphabet:
            raise BrotliError("code lengths run past the alphabet")
        for i in range(symbol, symbol + delta):
            lengths[i] = repeat_length
        symbol += delta
        if repeat_length:
            space -= delta << (15 - repeat_length)
    if space != 0:
        raise BrotliError("incomplete prefix code")
    return _build_code(lengths)


def _var_uint8(bits: _Bits) -> int:
    if not bits.read(1):
        return 0
    n = bits.read(3)
    return 1 if n == 0 else (1 << n) + bits.read(n)


def _read_block_count(bits: _Bits, code: _Code) -> int:
    base, extra = BLOCK_COUNTS[_symbol(bits, code)]
    return base + bits.read(extra)


def _read_context_map(bits: _Bits, size: int, trees: int) -> list[int]:
    rle_max = bits.read(4) + 1 if bits.read(1) else 0
    code = _read_code(bits, trees + rle_max)
    out: list[int] = []
    while len(out) < size:
        value = _symbol(bits, code)
        if value == 0:
            out.append(0)
        elif value <= rle_max:
            run = (1 << value) + bits.read(value)
            if len(out) + run > size:
                raise BrotliError("context map run too long")
            out.extend([0] * run)
        else:
            out.append(value - rle_max)
    if bits.read(1):   # inverse move-to-front
        mtf = list(range(256))
        for i, v in enumerate(out):
            value = mtf[v]
            out[i] = value
            if v:
                del mtf[v]
                mtf.insert(0, value)
    if any(v >= trees for v in out):
        raise BrotliError("context map refers to a missing tree")
    return out


class _BlockSwitch:
    """Block types and counts of one category (§6)."""

    __slots__ = ("types", "type_code", "count_code", "current", "previous", "left")

    def __init__(self, bits: _Bits):
        self.types = _var_uint8(bits) + 1
        self.current, self.previous = 0, 1
        if self.types >= 2:
            self.type_code = _read_code(bits, self.types + 2)
            self.count_code = _read_code(bits, 26)
            self.left = _read_block_count(bits, self.count_code)
        else:
            self.type_code = self.count_code = None
            self.left = 1 << 28   # one block covers the whole meta-block

    def switch(self, bits: _Bits) -> None:
        value = _symbol(bits, self.type_code)
        if value == 0:
            new = self.previous
        elif value == 1:
            new = self.current + 1
        else:
            new = value - 2
        if new >= self.types:
            new -= self.types
        self.previous, self.current = self.current, new
        self.left = _read_block_count(bits, self.count_code)


def _window_bits(bits: _Bits) -> int:
    if not bits.read(1):
        return 16
    n = bits.read(3)
    if n:
        return 17 + n
    n = bits.read(3)
    if n == 1:
        raise BrotliError("large-window Brotli is not a valid stream")
    return 8 + n if n else 17


def decompress(data: bytes, max_output: int = 1 << 62, deadline: float | None = None) -> bytes:
    """Decodes a whole Brotli stream. Raises BrotliLimitError past `max_output` bytes, BrotliTimeout
    past `deadline` (a time.monotonic() value), BrotliError on bad or truncated data (with what was
    decoded before the problem in `.partial`)."""
    out = bytearray()
    try:
        _decode(memoryview(data).tobytes() if not isinstance(data, bytes) else data, out, max_output, deadline)
    except BrotliLimitError:
        raise
    except BrotliError as exc:
        raise BrotliError(str(exc), bytes(out)) from None
    except (IndexError, KeyError, ValueError) as exc:   # garbage that slipped past a check
        raise BrotliError(f"invalid Brotli data ({type(exc).__name__})", bytes(out)) from None
    return bytes(out)


def _length_fields(bits: _Bits, count: int, width: int, fewest: int, error: str) -> int:
    """A length written as `count` fields of `width` bits, least significant first (RFC 7932
    §9.2): a last field of zero, when more than the `fewest` fields are used, is invalid."""
    value = 0
    for i in range(count):
        field = bits.read(width)
        if i + 1 == count and count > fewest and field == 0:
            raise BrotliError(error)
        value |= field << (width * i)
    return value


def _decode(data: bytes, out: bytearray, max_output: int, deadline: float | None) -> None:
    bits = _Bits(data)
    wbits = _window_bits(bits)
    max_backward = (1 << wbits) - 16
    last = [16, 15, 11, 4]    # distance ring; last[-1] is the most recent
    while True:
        if bits.overrun:
            raise BrotliError("the Brotli stream is truncated")
        is_last = bits.read(1)
        if is_last and bits.read(1):
            break   # ISLASTEMPTY
        nibbles = bits.read(2)
        if nibbles == 3:   # metadata: skipped
            if bits.read(1):
                raise BrotliError("reserved bit set")
            skip_bytes = bits.read(2)
            skip = _length_fields(bits, skip_bytes, 8, 1, "invalid metadata length")
            if skip_bytes:
                skip += 1
            if bits.to_byte_boundary():
                raise BrotliError("non-zero padding")
            bits.take_bytes(skip)
            if is_last:
                break
            continue
        nibbles += 4
        length = _length_fields(bits, nibbles, 4, 4, "invalid meta-block length") + 1
        if len(out) + length > max_output:
            raise BrotliLimitError(f"the Brotli stream decodes to more than {max_output} bytes")
        if not is_last and bits.read(1):   # uncompressed
            if bits.to_byte_boundary():
                raise BrotliError("non-zero padding")
            chunk = bits.take_bytes(length)
            if len(chunk) < length or bits.overrun:
                out += chunk
                raise BrotliError("the Brotli stream is truncated")
            out += chunk
            continue
        _check_time(deadline)
        _meta_block(bits, out, length, max_backward, last, deadline)
        if is_last:
            break
    if bits.overrun:
        raise BrotliError("the Brotli stream is truncated")
    if bits.to_byte_boundary():
        raise BrotliError("non-zero padding after the last meta-block")


TIME_CHECK_EVERY = 1 << 16   # literals, and commands, between two looks at the clock


def _meta_block(bits: _Bits, out: bytearray, length: int, max_backward: int, last: list[int],
                deadline: float | None) -> None:
    lit_blocks, cmd_blocks, dist_blocks = _BlockSwitch(bits), _BlockSwitch(bits), _BlockSwitch(bits)
    postfix = bits.read(2)
    direct = bits.read(4) << postfix
    modes = [bits.read(2) for _ in range(lit_blocks.types)]
    lit_trees = _var_uint8(bits) + 1
    lit_map = _read_context_map(bits, 64 * lit_blocks.types, lit_trees) if lit_trees >= 2 else [0] * (64 * lit_blocks.types)
    dist_trees = _var_uint8(bits) + 1
    dist_map = _read_context_map(bits, 4 * dist_blocks.types, dist_trees) if dist_trees >= 2 else [0] * (4 * dist_blocks.types)
    lit_codes = [_read_code(bits, 256) for _ in range(lit_trees)]
    cmd_codes = [_read_code(bits, 704) for _ in range(cmd_blocks.types)]
    dist_alphabet = 16 + direct + (48 << postfix)
    dist_codes = [_read_code(bits, dist_alphabet) for _ in range(dist_trees)]
    postfix_mask = (1 << postfix) - 1
    end = len(out) + length
    # the literal context of the current literal block type: (mode, slice of the context map)
    mode = modes[0]
    # per literal block type, its 64 contexts' prefix codes
    lit_context_codes = [[lit_codes[lit_map[64 * t + c]].root for c in range(64)] for t in range(lit_blocks.types)]
    lit_context_subs = [[lit_codes[lit_map[64 * t + c]].subs for c in range(64)] for t in range(lit_blocks.types)]
    context_codes = lit_context_codes[0]
    p1 = out[-1] if out else 0
    p2 = out[-2] if len(out) > 1 else 0
    lut0, lut1, lut2 = LUT0, LUT1, LUT2
    symbol = _symbol
    commands = 0
    while len(out) < end:
        if bits.overrun:
            raise BrotliError("the Brotli stream is truncated")
        commands += 1
        if not commands % TIME_CHECK_EVERY:
            _check_time(deadline)
        if cmd_blocks.left == 0:
            cmd_blocks.switch(bits)
        cmd_blocks.left -= 1
        command = symbol(bits, cmd_codes[cmd_blocks.current])
        cell = command >> 6
        insert_base, copy_base = COMMAND_CELLS[cell]
        insert_code = insert_base + ((command >> 3) & 7)
        copy_code = copy_base + (command & 7)
        base, extra = INSERT_LENGTHS[insert_code]
        insert = base + (bits.read(extra) if extra else 0)
        base, extra = COPY_LENGTHS[copy_code]
        copy = base + (bits.read(extra) if extra else 0)
        if len(out) + insert > end:
            raise BrotliError("an insert runs past the meta-block")
        if insert:
            # the literal loop is most of the work: bit reader state in locals, context → code prepared
            data, pos, acc, count = bits.data, bits.pos, bits.acc, bits.count
            left = lit_blocks.left
            append = out.append
            done = 0
            while done < insert:     # in chunks, to look at the clock between them
                if done:
                    _check_time(deadline)
                chunk = min(insert - done, TIME_CHECK_EVERY)
                done += chunk
                for _ in range(chunk):
                    if left == 0:
                        bits.pos, bits.acc, bits.count = pos, acc, count
                        lit_blocks.switch(bits)
                        pos, acc, count = bits.pos, bits.acc, bits.count
                        left = lit_blocks.left
                        mode = modes[lit_blocks.current]
                        context_codes = lit_context_codes[lit_blocks.current]
                    left -= 1
                    if mode == 2:
                        context = lut0[p1] | lut1[p2]
                    elif mode == 3:
                        context = (lut2[p1] << 3) | lut2[p2]
                    elif mode == 0:
                        context = p1 & 0x3F
                    else:
                        context = p1 >> 2
                    if count < MAX_CODE_LENGTH:
                        acc |= int.from_bytes(data[pos:pos + 6], "little") << count
                        count += 48     # missing bytes read as zeros (see _Bits.overrun)
                        pos += 6
                    entry = context_codes[context][acc & 0xFF]
                    if entry < 0:
                        if entry == -1:
                            raise BrotliError("invalid prefix code")
                        table, sub_bits = lit_context_subs[lit_blocks.current][context][-2 - entry]
                        entry = table[(acc >> ROOT_BITS) & ((1 << sub_bits) - 1)]
                        if entry < 0:
                            raise BrotliError("invalid prefix code")
                    n = entry >> 16
                    acc >>= n
                    count -= n
                    p2 = p1
                    p1 = entry & 0xFFFF
                    append(p1)
            bits.pos, bits.acc, bits.count = pos, acc, count
            lit_blocks.left = left
        if len(out) >= end:
            break
        # distance
        if cell < 2:
            distance = last[-1]
            push = False
        else:
            if dist_blocks.left == 0:
                dist_blocks.switch(bits)
            dist_blocks.left -= 1
            context = 3 if copy > 4 else copy - 2
            dcode = symbol(bits, dist_codes[dist_map[4 * dist_blocks.current + context]])
            push = dcode != 0
            if dcode < 16:
                back, delta = SHORT_DISTANCES[dcode]
                distance = last[-1 - back] + delta
                if distance <= 0:
                    raise BrotliError("invalid distance")
            elif dcode < 16 + direct:
                distance = dcode - 15
            else:
                dcode -= 16 + direct
                ndistbits = 1 + (dcode >> (postfix + 1))
                hcode = dcode >> postfix
                offset = ((2 + (hcode & 1)) << ndistbits) - 4
                distance = ((offset + bits.read(ndistbits)) << postfix) + (dcode & postfix_mask) + direct + 1
        max_distance = min(max_backward, len(out))
        if distance > max_distance:
            if not MIN_WORD <= copy <= MAX_WORD:
                raise BrotliError("invalid dictionary reference length")
            dictionary, transforms = static_data()
            word_id = distance - max_distance - 1
            ndbits = NDBITS[copy]
            index = word_id & ((1 << ndbits) - 1)
            transform = word_id >> ndbits
            if transform >= TRANSFORM_COUNT:
                raise BrotliError("invalid dictionary transform")
            start = DOFFSET[copy] + index * copy
            word = transform_word(dictionary[start:start + copy], transforms[transform])
            if len(out) + len(word) > end:
                raise BrotliError("a dictionary word runs past the meta-block")
            out += word
        else:
            if len(out) + copy > end:
                raise BrotliError("a copy runs past the meta-block")
            start = len(out) - distance
            if distance >= copy:
                out += out[start:start + copy]
            else:
                pattern = out[start:]
                out += (pattern * (copy // distance + 1))[:copy]
            if push:
                last.append(distance)
                del last[0]
        if len(out) >= 2:
            p1, p2 = out[-1], out[-2]
        elif out:
            p1, p2 = out[-1], 0
