"""Generates the Brotli static dictionary and transform table (RFC 7932 §8, Appendix A/B) as
package data for the pure-Python decoder (`glyphline/brotli.py`), at build time.

Where the data comes from, and why: the 122,784-byte dictionary and the 121 transforms are
data, not code, and must not be hand-copied. pdfjs-dist's worker ships them only inside its
decoder's source, packed by that decoder's own scheme; unpacking it would mean re-implementing
another project's code. Instead this script asks the Brotli C library (the reference decoder)
for them: it writes small Brotli streams whose commands refer to every dictionary word with the
identity transform, and to two probe words with each of the 121 transforms, and lets the C
decoder expand them. The C library is the `brotli` Python package when it imports, else
Node's built-in `zlib.brotliDecompressSync` (Node is already needed to build the site and to
`npm ci` the CMaps), so the build needs no extra download. Output: glyphline/data/brotli/
dictionary.bin (raw; the wheel's zip deflates it to 51 KB) and transforms.json.

    python tools/brotli_static.py [OUTDIR]
"""
from __future__ import annotations

import hashlib
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _decoder_module():
    """glyphline/brotli.py by path: the package's __init__ needs pypdf, which a build env lacks."""
    spec = importlib.util.spec_from_file_location("_glyphline_brotli", ROOT / "glyphline" / "brotli.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_b = _decoder_module()
COPY_LENGTHS, DICTIONARY_SIZE, DOFFSET = _b.COPY_LENGTHS, _b.DICTIONARY_SIZE, _b.DOFFSET
MAX_WORD, MIN_WORD, NDBITS, TRANSFORM_COUNT = _b.MAX_WORD, _b.MIN_WORD, _b.NDBITS, _b.TRANSFORM_COUNT
transform_word = _b.transform_word
# RFC 7932 Appendix A gives the dictionary's SHA-256: the derived bytes must match it
DICTIONARY_SHA256 = "20e42eb1b511c21806d4d227d07e5dd06877d8ce7b3a817f378f313653f35c70"

DEFAULT_OUT = ROOT / "glyphline" / "data" / "brotli"
WINDOW_BITS = 10                  # the smallest window: past 1008 bytes of output, any distance > 1008 is a word
FILLER = 1008                     # bytes output first (one uncompressed meta-block), so max_distance = 1008
SEPARATOR = 0                     # the literal inserted before each probe word (no transform contains NUL)
PROBE_LENGTH = 12                 # probe words long enough that omitting 9 bytes leaves some


class BitWriter:
    def __init__(self) -> None:
        self.value = 0
        self.count = 0

    def write(self, value: int, n: int) -> None:
        self.value |= value << self.count
        self.count += n

    def write_code(self, code: int, length: int) -> None:
        """A prefix code's bits, first (most significant) bit first."""
        self.write(int(format(code, f"0{length}b")[::-1], 2) if length else 0, length)

    def pad(self) -> None:
        self.count += -self.count % 8

    def bytes(self) -> bytes:
        self.pad()
        return self.value.to_bytes(self.count // 8, "little")


def _stream_start(w: BitWriter) -> None:
    w.write(1, 1)
    w.write(0, 3)
    w.write(WINDOW_BITS - 8, 3)
    _meta_header(w, FILLER, last=False)
    w.write(1, 1)                  # ISUNCOMPRESSED
    w.pad()
    for _ in range(FILLER):
        w.write(ord("."), 8)


def _meta_header(w: BitWriter, length: int, *, last: bool) -> None:
    w.write(int(last), 1)
    if last:
        w.write(0, 1)              # ISLASTEMPTY
    nibbles = max(4, -(-(length - 1).bit_length() // 4))
    w.write(nibbles - 4, 2)
    w.write(length - 1, 4 * nibbles)


def _simple_code(w: BitWriter, symbol: int, alphabet: int) -> None:
    w.write(1, 2)                  # HSKIP 1: simple code
    w.write(0, 2)                  # one symbol, coded with 0 bits
    w.write(symbol, max(1, (alphabet - 1).bit_length()))


def _flat_distance_code(w: BitWriter) -> None:
    """All 64 distance symbols with 6-bit codes: a complex code whose code-length code has one
    symbol (length 6), which is then read with 0 bits, 64 times."""
    w.write(0, 2)                  # HSKIP 0
    order = (1, 2, 3, 4, 0, 5, 17, 6, 16, 7, 8, 9, 10, 11, 12, 13, 14, 15)
    for symbol in order:
        if symbol == 6:
            w.write(0b0111, 4)     # code length 1 ("0111" in the RFC's table)
        else:
            w.write(0b00, 2)       # code length 0


def _body_header(w: BitWriter, insert_copy_symbol: int, literal: int, *, last: bool = False) -> None:
    if not last:
        w.write(0, 1)              # ISUNCOMPRESSED 0
    w.write(0, 3)                  # one block type for literals, commands, distances
    w.write(0, 2)                  # NPOSTFIX
    w.write(0, 4)                  # NDIRECT
    w.write(0, 2)                  # context mode of the one literal block type
    w.write(0, 2)                  # one literal tree, one distance tree
    _simple_code(w, literal, 256)
    _simple_code(w, insert_copy_symbol, 704)
    _flat_distance_code(w)


def _copy_code(length: int) -> int:
    for code, (base, extra) in enumerate(COPY_LENGTHS):
        if base <= length < base + (1 << extra):
            return code
    raise ValueError(length)


def _command_symbol(insert_code: int, copy_code: int) -> int:
    """Insert code 0-7 with an explicit distance (cells 2, 3 and 6 of the insert-and-copy alphabet)."""
    cell = {0: 2, 1: 3, 2: 6}[copy_code >> 3]
    return (cell << 6) | (insert_code << 3) | (copy_code & 7)


def _word_command(w: BitWriter, length: int, word_id: int) -> None:
    base, extra = COPY_LENGTHS[_copy_code(length)]
    w.write(length - base, extra)
    d = FILLER + 1 + word_id - 1   # distance - 1 (NDIRECT = NPOSTFIX = 0)
    nbits = 1
    while True:
        for high in (0, 1):
            offset = ((2 + high) << nbits) - 4
            if offset <= d < offset + (1 << nbits):
                w.write_code(16 + 2 * (nbits - 1) + high, 6)
                w.write(d - offset, nbits)
                return
        nbits += 1


def dictionary_stream(transform: int = 0) -> bytes:
    """Every word of every length once: with transform 0 (identity) it decodes to FILLER bytes + the
    dictionary. Any transform that keeps a word's length (no prefix or suffix, identity or
    uppercasing) may be given: the tests use it to check the uppercasing of every word."""
    w = BitWriter()
    _stream_start(w)
    for length in range(MIN_WORD, MAX_WORD + 1):
        count = 1 << NDBITS[length]
        _meta_header(w, count * length, last=False)
        _body_header(w, _command_symbol(0, _copy_code(length)), 0)
        for index in range(count):
            _word_command(w, length, (transform << NDBITS[length]) + index)
    w.write(1, 1)
    w.write(1, 1)                  # ISLAST, ISLASTEMPTY
    return w.bytes()


def transforms_stream(indices: list[int]) -> bytes:
    """Each probe word (length PROBE_LENGTH) under each transform, each after one SEPARATOR literal.
    The outputs' lengths are what is being found out, so the meta-block announces a generous length
    and the stream stops after the last command: the decoder is asked for its partial output."""
    w = BitWriter()
    _stream_start(w)
    _meta_header(w, 1 << 20, last=True)
    _body_header(w, _command_symbol(1, _copy_code(PROBE_LENGTH)), SEPARATOR, last=True)
    for transform in range(TRANSFORM_COUNT):
        for index in indices:
            _word_command(w, PROBE_LENGTH, (transform << NDBITS[PROBE_LENGTH]) + index)
    return w.bytes()


NODE_DECODER = r"""
const zlib = require("zlib");
const chunks = [];
process.stdin.on("data", (c) => chunks.push(c));
process.stdin.on("end", () => {
  const partial = process.argv[1] === "partial";
  const options = partial ? { finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH } : {};
  process.stdout.write(zlib.brotliDecompressSync(Buffer.concat(chunks), options));
});
"""


def c_decompress(stream: bytes, *, partial: bool) -> bytes:
    """The reference decoder: the brotli package, else Node's zlib (both wrap Google's C library)."""
    try:
        import brotli
    except ImportError:
        brotli = None
    if brotli is not None:
        if partial:
            return brotli.Decompressor().process(stream)
        return brotli.decompress(stream)
    result = subprocess.run(["node", "-e", NODE_DECODER, "partial" if partial else "whole"], input=stream,
                            capture_output=True, check=True)
    return result.stdout


def _body(output: bytes) -> bytes:
    if output[:FILLER] != b"." * FILLER:
        raise RuntimeError("the reference decoder did not return the filler")
    return output[FILLER:]


def derive_dictionary() -> bytes:
    dictionary = _body(c_decompress(dictionary_stream(), partial=False))
    if len(dictionary) != DICTIONARY_SIZE:
        raise RuntimeError(f"derived dictionary has {len(dictionary)} bytes, expected {DICTIONARY_SIZE}")
    if hashlib.sha256(dictionary).hexdigest() != DICTIONARY_SHA256:
        raise RuntimeError("derived dictionary does not match RFC 7932's SHA-256")
    return dictionary


def _probe_indices(dictionary: bytes) -> list[int]:
    """Two lowercase ASCII words of PROBE_LENGTH whose letters differ at every position."""
    start, count = DOFFSET[PROBE_LENGTH], 1 << NDBITS[PROBE_LENGTH]
    words = [dictionary[start + i * PROBE_LENGTH:start + (i + 1) * PROBE_LENGTH] for i in range(count)]
    plain = [i for i, word in enumerate(words) if word.isalpha() and word.islower() and word.isascii()]
    for i in plain:
        for j in plain:
            if all(a != b for a, b in zip(words[i], words[j])):
                return [i, j]
    raise RuntimeError("no probe words found")


def _candidates(output: bytes, word: bytes) -> set[tuple[bytes, int, bytes]]:
    found = set()
    for kind in range(21):
        body = transform_word(word, (b"", kind, b""))
        position = output.find(body)
        while position >= 0:
            found.add((output[:position], kind, output[position + len(body):]))
            position = output.find(body, position + 1)
    return found


def derive_transforms(dictionary: bytes) -> list[tuple[bytes, int, bytes]]:
    indices = _probe_indices(dictionary)
    pieces = _body(c_decompress(transforms_stream(indices), partial=True)).split(bytes([SEPARATOR]))
    if len(pieces) == 2 + TRANSFORM_COUNT * len(indices) and not pieces[-1]:
        pieces.pop()   # the last byte's padding bits began one more command: its literal came out
    if len(pieces) != 1 + TRANSFORM_COUNT * len(indices) or pieces[0]:
        raise RuntimeError(f"the transform probe decoded to {len(pieces) - 1} pieces")
    start = DOFFSET[PROBE_LENGTH]
    words = [dictionary[start + i * PROBE_LENGTH:start + (i + 1) * PROBE_LENGTH] for i in indices]
    transforms = []
    for t in range(TRANSFORM_COUNT):
        outputs = pieces[1 + t * len(indices):1 + (t + 1) * len(indices)]
        common = set.intersection(*(_candidates(out, word) for out, word in zip(outputs, words)))
        if len(common) != 1:
            raise RuntimeError(f"transform {t} is ambiguous: {sorted(common)}")
        (transform,) = common
        for out, word in zip(outputs, words):
            assert transform_word(word, transform) == out
        transforms.append(transform)
    return transforms


def generate(out_dir: Path = DEFAULT_OUT) -> None:
    dictionary = derive_dictionary()
    transforms = derive_transforms(dictionary)
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "dictionary.bin").write_bytes(dictionary)
    rows = [[prefix.hex(), kind, suffix.hex()] for prefix, kind, suffix in transforms]
    (out_dir / "transforms.json").write_text(json.dumps(rows, separators=(",", ":")) + "\n", encoding="utf-8")


if __name__ == "__main__":
    generate(Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_OUT)
