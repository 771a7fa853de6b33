"""The pure-Python Brotli decoder against the C library, its budget, and /BrotliDecode in PDFs."""
from __future__ import annotations

import hashlib
import importlib.util
import random
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import pytest

from glyphline import brotli as pure
from glyphline import extract_text, filters
from glyphline.limits import Limits
from pdfbuilder import PdfBuilder, tounicode_cmap


REPO_DIR = Path(__file__).resolve().parent.parent
brotli = pytest.importorskip("brotli")   # the reference decoder and encoder (the dev extra)


def _tool():
    spec = importlib.util.spec_from_file_location("brotli_static", REPO_DIR / "tools" / "brotli_static.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def tool():
    module = _tool()
    try:
        pure.static_data()
    except pure.BrotliError:   # a checkout without `make brotli-data`: derive it here, in memory
        dictionary = module.derive_dictionary()
        pure.set_static_data(dictionary, module.derive_transforms(dictionary))
    return module


def test_static_data_matches_the_rfc(tool):
    dictionary, transforms = pure.static_data()
    assert hashlib.sha256(dictionary).hexdigest() == tool.DICTIONARY_SHA256
    assert len(transforms) == 121
    assert transforms[0] == (b"", pure.IDENTITY, b"")
    assert transforms[5] == (b"", pure.IDENTITY, b" the ")     # RFC 7932 Appendix B, ID 5
    assert transforms[9] == (b"", pure.UPPERCASE_FIRST, b"")
    kinds = {kind for _, kind, _ in transforms}
    assert kinds == set(range(21)) - {19}                       # every type but OmitFirst8 (unused by the RFC)


@pytest.mark.parametrize("transform", [0, 9, 44])   # identity, UppercaseFirst, UppercaseAll
def test_every_dictionary_word_decodes_like_the_c_library(tool, transform):
    stream = tool.dictionary_stream(transform)
    assert pure.decompress(stream) == brotli.decompress(stream)


def test_every_transform_decodes_like_the_c_library(tool):
    dictionary, _ = pure.static_data()
    stream = tool.transforms_stream(tool._probe_indices(dictionary))
    reference = brotli.Decompressor().process(stream)   # truncated on purpose: the partial output
    with pytest.raises(pure.BrotliError) as caught:
        pure.decompress(stream)
    assert reference.startswith(caught.value.partial[:len(reference) - 2])
    assert len(caught.value.partial) >= len(reference) - 1


WORDS = ["the", "time", "of", "and", "Hello", "world,", "été", "naïve", "Grüße", "日本語", "→", "PDF", "\n",
         "(text)", "123", "x", "BT /F1 12 Tf", "ET", "Tj", "—"]


def _sample(rng: random.Random, kind: int, size: int) -> bytes:
    if kind == 0:
        return rng.randbytes(size)
    if kind == 1:
        return bytes(rng.choice(b"ab \n\x00\xff") for _ in range(size))
    if kind == 2:
        return " ".join(rng.choice(WORDS) for _ in range(size // 4)).encode()
    # content-stream-like text with repeats and binary runs
    parts = []
    while sum(map(len, parts)) < size:
        parts.append(rng.choice([b"%d %d Td (%s) Tj\n" % (rng.randrange(999), rng.randrange(999),
                                                            rng.choice(WORDS).encode()),
                                 rng.randbytes(rng.randrange(1, 40)), parts[-1] if parts else b"q"]))
    return b"".join(parts)[:size]


@pytest.mark.parametrize("seed", range(8))
def test_random_data_decodes_like_the_c_library(seed):
    rng = random.Random(seed)
    for round_ in range(12):
        data = _sample(rng, round_ % 4, rng.choice([0, 1, 7, 300, 5000, 70_000]))
        quality, window = rng.randrange(12), rng.randrange(10, 25)
        mode = rng.choice([brotli.MODE_GENERIC, brotli.MODE_TEXT])
        stream = brotli.compress(data, quality=quality, lgwin=window, mode=mode)
        assert pure.decompress(stream) == data, (seed, round_, quality, window)


def test_uncompressed_and_metadata_blocks(tool):
    data = random.Random(3).randbytes(200_000)   # incompressible: stored as uncompressed meta-blocks
    assert pure.decompress(brotli.compress(data, quality=5)) == data
    w = tool.BitWriter()
    w.write(0, 1)                                  # WBITS 16
    w.write(0, 1); w.write(3, 2); w.write(0, 1)    # a metadata block: ISLAST 0, MNIBBLES 0 (code 3), reserved
    w.write(1, 2); w.write(2, 8); w.pad()          # MSKIPBYTES 1, MSKIPLEN 3
    for byte in b"xyz":
        w.write(byte, 8)
    w.write(0, 1); w.write(0, 2); w.write(1, 16); w.write(1, 1); w.pad()   # uncompressed, MLEN 2
    for byte in b"hi":
        w.write(byte, 8)
    w.write(1, 1); w.write(1, 1)                   # ISLAST, ISLASTEMPTY
    stream = w.bytes()
    assert brotli.decompress(stream) == pure.decompress(stream) == b"hi"


def test_a_bomb_stops_at_the_budget_before_decoding():
    bomb = brotli.compress(b"\0" * (48 << 20), quality=5)   # 48 MiB in a few KB
    tracemalloc.start()
    try:
        with pytest.raises(pure.BrotliLimitError):
            pure.decompress(bomb, max_output=1 << 20)
        assert tracemalloc.get_traced_memory()[1] < 8 << 20   # stopped near the 1 MiB budget, not at 48 MiB
    finally:
        tracemalloc.stop()
    assert len(pure.decompress(bomb, max_output=48 << 20)) == 48 << 20


def test_damage_keeps_what_was_decoded():
    data = b"".join(b"line %d of the content stream\n" % i for i in range(4000))
    stream = brotli.compress(data, quality=1)
    with pytest.raises(pure.BrotliError) as caught:
        pure.decompress(stream[: len(stream) // 2])
    assert caught.value.partial and data.startswith(caught.value.partial)
    with pytest.raises(pure.BrotliError):
        pure.decompress(b"\xff\xff\xff\xff garbage")
    assert pure.decompress(stream + b"\r\n") == data   # bytes after the stream's end are ignored


# ---------------------------------------------------------------- /BrotliDecode in PDFs

def _br(data: bytes) -> bytes:
    return brotli.compress(data, quality=11)


@pytest.fixture(params=["c-extension", "pure-python"])
def decoder(request, monkeypatch, tool):
    if request.param == "pure-python":
        monkeypatch.setattr(filters, "_c_extension", lambda: None)
    return request.param


def _brotli_pdf(object_streams: bool = False) -> bytes:
    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    # the ToUnicode CMap, the form and the page content are all Brotli streams
    mapped = b.font_type1("Helvetica")
    b.objects[mapped.num]["ToUnicode"] = b.stream(_br(tounicode_cmap({0x41: "Ж"})), {"Filter": "/BrotliDecode"})
    form = b.stream(_br(b"BT /F1 12 Tf 72 650 Td (Inside the form) Tj ET"),
                    {"Type": "/XObject", "Subtype": "/Form", "BBox": [0, 0, 612, 792], "Filter": "/BrotliDecode",
                     "Resources": {"Font": {"F1": font}}})
    content = _br(b"BT /F1 12 Tf 72 700 Td (Brotli compressed text) Tj /F2 12 Tf ( A) Tj ET /X1 Do")
    b.page(content=b"", fonts={"F1": font, "F2": mapped}, xobjects={"X1": form})
    page = max(n for n, v in b.objects.items() if isinstance(v, dict) and v.get("Type") == "/Page")
    b.objects[page]["Contents"] = b.stream(content, {"Filter": "/BrotliDecode"})
    return b.build(object_streams=object_streams, packing=("/BrotliDecode", _br) if object_streams else None)


@pytest.mark.parametrize("object_streams", [False, True])
def test_brotli_streams_in_a_pdf(decoder, object_streams):
    result = extract_text(_brotli_pdf(object_streams), mode="preserve")
    assert "Brotli compressed text Ж" in result.text
    assert "Inside the form" in result.text
    assert not result.pages[0].warnings and not result.warnings


def test_brotli_bomb_in_a_content_stream_stops_at_the_stream_budget(decoder):
    b = PdfBuilder()
    page = b.page(content=b"")
    b.objects[page.num]["Contents"] = b.stream(brotli.compress(b" " * (40 << 20), quality=5), {"Filter": "/BrotliDecode"})
    data = b.build()
    tracemalloc.start()
    try:
        result = extract_text(data, limits=Limits(stream_bytes=1 << 20))
        assert tracemalloc.get_traced_memory()[1] < 24 << 20   # the 40 MiB stream was never made
    finally:
        tracemalloc.stop()
    assert any("stream_bytes" in w for w in result.pages[0].warnings)


def test_a_pdf_without_brotli_never_loads_the_decoder(sample_pdf):
    code = ("import sys, glyphline; glyphline.extract_text(open(sys.argv[1], 'rb').read()); "
            "print('glyphline.brotli' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code, str(REPO_DIR / "tests" / "data" / "sample.pdf")],
                         capture_output=True, text=True, cwd=REPO_DIR, check=True).stdout
    assert out.strip() == "False"


def test_a_literal_bomb_stops_at_its_deadline(tool):
    """One-symbol literal codes cost no input bits: 16 MiB of literals from a few bytes."""
    w = tool.BitWriter()
    w.write(0, 1)                                        # WBITS 16
    w.write(1, 1); w.write(0, 1); w.write(2, 2); w.write((1 << 24) - 1, 24)   # ISLAST, MLEN 2^24
    w.write(0, 3); w.write(0, 2); w.write(0, 4); w.write(0, 2); w.write(0, 2)
    tool._simple_code(w, ord("A"), 256)
    tool._simple_code(w, 23 << 3 & 0x3F | (7 << 6), 704)   # cell 7: insert code 16 + 7 = 23, copy code 0
    tool._simple_code(w, 0, 64)
    w.write((1 << 24) - 22594, 24)                       # insert 2^24 (code 23: 22594 + 24 extra bits)
    stream = w.bytes()
    with pytest.raises(pure.BrotliTimeout):   # a deadline already past: stopped at its first check
        pure.decompress(stream, deadline=time.monotonic() - 1.0)


def test_damaged_streams_only_ever_raise_brotli_errors():
    rng = random.Random(11)
    text = b"".join(b"%d %d Td (the time of the world) Tj\n" % (i, i * 7) for i in range(600))
    streams = [brotli.compress(text, quality=q) for q in (1, 5, 11)]
    for _ in range(250):
        damaged = bytearray(rng.choice(streams))
        for _ in range(rng.randrange(1, 4)):
            damaged[rng.randrange(len(damaged))] ^= 1 << rng.randrange(8)
        if rng.random() < 0.3:
            damaged = damaged[:rng.randrange(len(damaged))]
        try:
            out = pure.decompress(bytes(damaged), max_output=1 << 20, deadline=time.monotonic() + 5)
        except pure.BrotliError:
            continue
        assert len(out) <= 1 << 20


def test_a_truncated_brotli_content_stream_keeps_its_text_and_says_so(decoder):
    lines = b"".join(b"BT /F1 12 Tf 72 %d Td (Line %d) Tj ET\n" % (700 - 14 * i, i) for i in range(40))
    stream = brotli.compress(lines, quality=1)
    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    page = b.page(content=b"", fonts={"F1": font})
    b.objects[page.num]["Contents"] = b.stream(stream[: len(stream) * 2 // 3], {"Filter": "/BrotliDecode"})
    result = extract_text(b.build())
    assert "Line 0" in result.text and "Line 39" not in result.text
    assert any("/BrotliDecode" in w and "damaged" in w for w in result.pages[0].warnings)
