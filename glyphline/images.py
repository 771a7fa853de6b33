"""Page images for OCR: a scan's image XObjects as files an OCR engine reads, in pure Python.

Each codec is handed over in the cheapest form tesseract (leptonica) reads:

- DCT (JPEG): the JPEG bytes unchanged.
- Flate / LZW / RunLength samples (1, 2, 4, 8, 16 bits; gray, RGB, CMYK, indexed, ICC, with
  /Decode inversion and /ImageMask): a PNM file (P4 bitonal, P5 gray, P6 colour). Single
  Flate streams are inflated here: pypdf undoes PNG predictors wrongly below 8 bits a pixel.
- CCITT G3/G4: the fax data wrapped as a one-strip TIFF (leptonica decodes it).
- JPX (JPEG 2000): the codestream unchanged, as "jp2"; an engine that cannot read it renders
  the page instead.
- JBIG2: no decoder is written here (it would be a codec of its own): UnsupportedImage, and the
  caller renders the page with a real renderer where one is available.

Soft masks (/SMask) are ignored: a scan is its image, and a mask only fades its edges.
"""
from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass
from typing import Any, Callable
from .pdfobjects import flag, resolve

POINTS_PER_INCH = 72.0
MIN_DPI = 20.0          # below this an image placed on a page is an icon, not something to read


class UnsupportedImage(Exception):
    """The image's codec is not decoded here (JBIG2, or something unknown); the page can be rendered instead."""


@dataclass(frozen=True)
class PageImage:
    """One image to recognise: an encoded file and where its pixels are."""

    data: bytes          # the image file: JPEG, PNM (P4/P5/P6), TIFF (CCITT) or JPEG 2000
    format: str          # "jpeg" | "pnm" | "tiff" | "jp2"
    width: int           # pixels
    height: int
    dpi: float           # pixels per inch as the image is placed on the page (across its rows)



def _int(obj: Any, default: int) -> int:
    obj = resolve(obj)
    try:
        return int(obj)
    except (TypeError, ValueError):
        return default


def _as_list(obj: Any) -> list:
    obj = resolve(obj)
    if obj is None:
        return []
    return [resolve(v) for v in obj] if isinstance(obj, list) else [obj]


def placed_dpi(width: int, height: int, matrix: tuple) -> float:
    """Pixels per inch of an image drawn into `matrix` (its unit square in viewer space, points)."""
    a, b, c, d = matrix[:4]
    across = (a * a + b * b) ** 0.5
    down = (c * c + d * d) ** 0.5
    if across <= 0 or down <= 0:
        return 0.0
    return max(width / across, height / down) * POINTS_PER_INCH


def page_image(xobject: Any, read_stream: Callable[[Any], bytes], matrix: tuple, max_bytes: int,
               tick: Callable[[], None] = lambda: None) -> PageImage:
    """The image XObject as a file for OCR. Raises UnsupportedImage for codecs not decoded here.
    `tick` is called now and then in long loops (the page's time budget raises from it)."""
    width = _int(xobject.get("/Width"), 0)
    height = _int(xobject.get("/Height"), 0)
    if width <= 0 or height <= 0 or width * height > max_bytes * 8:
        raise UnsupportedImage(f"an image of {width}×{height} pixels")
    dpi = placed_dpi(width, height, matrix)
    filters = [str(f) for f in _as_list(xobject.get("/Filter"))]
    parms = _as_list(xobject.get("/DecodeParms")) or _as_list(xobject.get("/DP"))
    last = filters[-1] if filters else ""
    last_parms = parms[len(filters) - 1] if len(parms) >= len(filters) and filters else None
    if last in ("/DCTDecode", "/DCT"):
        return PageImage(read_stream(xobject), "jpeg", width, height, dpi)
    if last in ("/JPXDecode",):
        return PageImage(read_stream(xobject), "jp2", width, height, dpi)
    if last in ("/JBIG2Decode",):
        raise UnsupportedImage("JBIG2 is not decoded here")
    if last in ("/CCITTFaxDecode", "/CCF"):
        if len(filters) > 1:
            raise UnsupportedImage("CCITT data behind another filter")
        return PageImage(_ccitt_tiff(xobject, last_parms, width, height), "tiff", width, height, dpi)
    samples = _samples(xobject, filters, last_parms, read_stream, width, height, max_bytes, tick)
    return PageImage(_pnm(xobject, samples, width, height), "pnm", width, height, dpi)


# ----------------------------------------------------------------------------- CCITT → TIFF

def _ccitt_tiff(xobject: Any, parms: Any, width: int, height: int) -> bytes:
    """The fax data as a little-endian TIFF of one strip (TIFF 6.0 §10-11)."""
    data = xobject._data if hasattr(xobject, "_data") else b""
    parms = parms if hasattr(parms, "get") else {}
    k = _int(parms.get("/K"), 0)
    rows = _int(parms.get("/Rows"), height) or height
    columns = _int(parms.get("/Columns"), 1728) or width
    inverted = _inverted(xobject)
    if flag(parms, "/BlackIs1"):
        inverted = not inverted
    compression = 4 if k < 0 else 3
    tags = [
        (256, 4, columns), (257, 4, rows), (258, 3, 1), (259, 3, compression),
        (262, 3, 1 if inverted else 0),         # 0: white is zero, the fax convention
        (273, 4, 0), (277, 3, 1), (278, 4, rows), (279, 4, len(data)),
    ]
    if compression == 3:
        tags.append((292, 4, 1 if k > 0 else 0))   # T4Options: bit 0 = 2-D coding
    tags.sort()
    ifd_offset = 8
    ifd_size = 2 + 12 * len(tags) + 4
    data_offset = ifd_offset + ifd_size
    entries = b"".join(struct.pack("<HHII" if kind == 4 else "<HHIHxx", tag, kind, 1,
                                   data_offset if tag == 273 else value) for tag, kind, value in tags)
    return (b"II*\x00" + struct.pack("<I", ifd_offset) + struct.pack("<H", len(tags)) + entries
            + b"\x00\x00\x00\x00" + data)


# ----------------------------------------------------------------------------- samples → PNM

def _samples(xobject: Any, filters: list[str], parms: Any, read_stream, width: int, height: int,
             max_bytes: int, tick: Callable[[], None]) -> bytes:
    if filters in (["/FlateDecode"], ["/Fl"]) and _sub_byte_prediction(parms):
        return _inflate(xobject._data, parms, max_bytes, tick)
    return read_stream(xobject)


def _sub_byte_prediction(parms: Any) -> bool:
    """A PNG predictor over pixels smaller than a byte: the case pypdf 7.1 undoes wrongly (its step is 0)."""
    if not hasattr(parms, "get") or _int(parms.get("/Predictor"), 1) < 10:
        return False
    return _int(parms.get("/Colors"), 1) * _int(parms.get("/BitsPerComponent"), 8) < 8


def _inflate(raw: bytes, parms: Any, max_bytes: int, tick: Callable[[], None]) -> bytes:
    """zlib within the byte budget, then the PNG predictor with the right byte step."""
    inflater = zlib.decompressobj()
    try:
        data = inflater.decompress(raw, max_bytes)
    except zlib.error:
        data = b""   # a truncated scan keeps the rows that arrived
    colors = _int(parms.get("/Colors"), 1)
    bpc = _int(parms.get("/BitsPerComponent"), 8)
    columns = _int(parms.get("/Columns"), 1)
    return _png_unfilter(data, colors, bpc, columns, tick)


UNFILTER_ROWS_PER_TICK = 256   # rows between two looks at the page's clock


def _png_unfilter(data: bytes, colors: int, bpc: int, columns: int, tick: Callable[[], None] = lambda: None) -> bytes:
    """Undo PNG row filters (PNG spec §9): each row starts with its filter type."""
    step = max(1, colors * bpc // 8)            # bytes to the corresponding byte of the previous pixel
    row_length = (colors * bpc * columns + 7) // 8
    out = bytearray()
    previous = bytearray(row_length)
    for number, start in enumerate(range(0, len(data) - row_length, row_length + 1)):
        if number % UNFILTER_ROWS_PER_TICK == 0:
            tick()
        kind = data[start]
        row = bytearray(data[start + 1:start + 1 + row_length])
        if kind == 1:
            for i in range(step, row_length):
                row[i] = (row[i] + row[i - step]) & 0xFF
        elif kind == 2:
            row = bytearray((a + b) & 0xFF for a, b in zip(row, previous))
        elif kind == 3:
            for i in range(row_length):
                left = row[i - step] if i >= step else 0
                row[i] = (row[i] + ((left + previous[i]) >> 1)) & 0xFF
        elif kind == 4:
            for i in range(row_length):
                a = row[i - step] if i >= step else 0
                b = previous[i]
                c = previous[i - step] if i >= step else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                row[i] = (row[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        out += row
        previous = row
    return bytes(out)


_INVERT = bytes(255 - i for i in range(256))


def _inverted(xobject: Any) -> bool:
    """/Decode [1 0 …]: the samples mean the opposite (only inversion is honoured)."""
    decode = _as_list(xobject.get("/Decode"))
    try:
        return len(decode) >= 2 and float(decode[0]) > float(decode[1])
    except (TypeError, ValueError):
        return False


def _colour_space(xobject: Any) -> tuple[str, int, Any]:
    """(kind, components, palette) with kind gray | rgb | cmyk | indexed | ink (one ink: 1 = dark)."""
    space = resolve(xobject.get("/ColorSpace"))
    if isinstance(space, list) and space:
        name = str(resolve(space[0]))
        if name in ("/Indexed", "/I") and len(space) >= 4:
            base_kind, base_n, _ = _colour_space({"/ColorSpace": space[1]})
            lookup = resolve(space[3])
            return "indexed", 1, (base_kind, base_n, _palette(lookup))
        if name == "/ICCBased" and len(space) >= 2:
            n = _int(resolve(space[1]).get("/N"), 3) if hasattr(resolve(space[1]), "get") else 3
            return {1: "gray", 3: "rgb", 4: "cmyk"}.get(n, "rgb"), n, None
        if name in ("/Separation", "/DeviceN"):
            names = _as_list(space[1])
            n = 1 if name == "/Separation" else max(1, len(names))
            return ("ink" if n == 1 else "cmyk" if n == 4 else "gray"), n, None
        if name in ("/CalRGB", "/Lab"):
            return "rgb", 3, None
        if name == "/CalGray":
            return "gray", 1, None
        if name == "/Pattern":
            return "gray", 1, None
        space = name
    name = str(space) if space is not None else "/DeviceGray"
    if name in ("/DeviceRGB", "/RGB"):
        return "rgb", 3, None
    if name in ("/DeviceCMYK", "/CMYK"):
        return "cmyk", 4, None
    return "gray", 1, None


def _palette(lookup: Any) -> bytes:
    """An /Indexed lookup: a stream, a byte string, or a text string of bytes."""
    if hasattr(lookup, "get_data"):
        return bytes(lookup.get_data())
    if isinstance(lookup, bytes):
        return bytes(lookup)
    if hasattr(lookup, "original_bytes"):
        return bytes(lookup.original_bytes)
    return str(lookup).encode("latin-1", "replace")


def _pnm(xobject: Any, samples: bytes, width: int, height: int) -> bytes:
    mask = flag(xobject, "/ImageMask")
    bpc = 1 if mask else _int(xobject.get("/BitsPerComponent"), 8)
    kind, n, palette = ("gray", 1, None) if mask else _colour_space(xobject)
    inverted = _inverted(xobject)
    if bpc == 1 and kind in ("gray", "ink"):
        row = (width + 7) // 8
        samples = samples[:row * height].ljust(row * height, b"\xff")
        dark_is_one = inverted != (kind == "ink")   # PDF gray: 0 is black; PBM: 1 is black
        bits = samples if dark_is_one else samples.translate(_INVERT)
        return b"P4\n%d %d\n" % (width, height) + bits
    values = _unpack(samples, bpc, width * n, height, scaled=kind != "indexed")
    if kind == "indexed":
        return _indexed(values, palette, width, height)
    if inverted != (kind == "ink"):
        values = values.translate(_INVERT)
    if kind == "cmyk" and n == 4:
        return b"P5\n%d %d\n255\n" % (width, height) + _cmyk_to_gray(values)
    if n == 3:
        return b"P6\n%d %d\n255\n" % (width, height) + values
    if n != 1:
        values = values[::n]
    return b"P5\n%d %d\n255\n" % (width, height) + values


def _unpack(samples: bytes, bpc: int, per_row: int, height: int, scaled: bool = True) -> bytes:
    """Samples of `bpc` bits (rows byte-aligned) as one byte each, scaled to 0–255 (palette indices: not scaled)."""
    if bpc == 8:
        return samples[:per_row * height].ljust(per_row * height, b"\x00")
    if bpc == 16:
        return samples[0:2 * per_row * height:2].ljust(per_row * height, b"\x00")
    if bpc not in (1, 2, 4):
        raise UnsupportedImage(f"{bpc} bits per sample")
    per_byte = 8 // bpc
    top = (1 << bpc) - 1
    scale = 255 // top if scaled else 1
    table = [bytes(((byte >> (8 - bpc * (i + 1))) & top) * scale for i in range(per_byte)) for byte in range(256)]
    row_bytes = (per_row * bpc + 7) // 8
    out = bytearray()
    for start in range(0, row_bytes * height, row_bytes):
        row = b"".join(table[b] for b in samples[start:start + row_bytes])
        out += row[:per_row].ljust(per_row, b"\x00")
    return bytes(out)


def _indexed(values: bytes, palette, width: int, height: int) -> bytes:
    base_kind, base_n, table = palette
    channels = []
    for channel in range(base_n):
        lookup = bytes(table[i * base_n + channel] if i * base_n + channel < len(table) else 0 for i in range(256))
        channels.append(values.translate(lookup))
    if base_n == 3:
        out = bytearray(len(values) * 3)
        out[0::3], out[1::3], out[2::3] = channels
        return b"P6\n%d %d\n255\n" % (width, height) + bytes(out)
    if base_n == 4:
        out = bytearray(len(values) * 4)
        for i in range(4):
            out[i::4] = channels[i]
        return b"P5\n%d %d\n255\n" % (width, height) + _cmyk_to_gray(bytes(out))
    return b"P5\n%d %d\n255\n" % (width, height) + channels[0]


def _cmyk_to_gray(values: bytes) -> bytes:
    """Ink coverage to gray: the usual luminance weights of C, M, Y plus black."""
    c, m, y, k = values[0::4], values[1::4], values[2::4], values[3::4]
    return bytes(max(0, 255 - (30 * ci + 59 * mi + 11 * yi) // 100 - ki) for ci, mi, yi, ki in zip(c, m, y, k))
