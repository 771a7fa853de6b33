"""OCR: recognised words as a glyph source (engine injected), page images decoded in Python,
and tesseract on CPython (skipped only where tesseract is genuinely absent; `make test` installs it)."""
from __future__ import annotations

import json
import shutil
import struct
import subprocess
import sys
import zlib

import pytest
from pdfbuilder import PdfBuilder, flate

from glyphline.content.ocr import LOW_CONFIDENCE, OcrEngine, OcrWord
from glyphline.extract import extract_text
from glyphline.images import PageImage, _png_unfilter, page_image
from glyphline.tesseract import OcrUnavailable, parse_hocr, tesseract_engine

PAGE_W, PAGE_H = 612, 792


def scan_pdf(images: list[dict] | None = None, *, text_first: str | None = None, pages: int = 1,
             rotate: int | None = None) -> bytes:
    """Pages painting one full-page image (a 10×10 gray one unless `images` gives its stream dicts)."""
    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    if text_first is not None:
        b.page(b"BT /F1 12 Tf 72 700 Td (%s) Tj ET" % text_first.encode("latin-1"), fonts={"F1": font})
    for index in range(pages):
        spec = dict((images or [{}])[index % len(images or [{}])])
        data = spec.pop("data", bytes(100))
        attrs = {"Type": "/XObject", "Subtype": "/Image", "Width": 10, "Height": 10, "ColorSpace": "/DeviceGray",
                 "BitsPerComponent": 8, **spec}
        image = b.stream(data, attrs)
        b.page(b"q %d 0 0 %d 0 0 cm /Im1 Do Q" % (PAGE_W, PAGE_H), xobjects={"Im1": image}, rotate=rotate)
    return b.build()


class FakeScanner:
    """An engine reading fixed words (in the image's pixels), recording every image it was given."""

    def __init__(self, words: list[OcrWord], render=None):
        self.words = words
        self.images: list[PageImage] = []
        self.engine = OcrEngine(self.recognise, render)

    def recognise(self, image: PageImage) -> list[OcrWord]:
        self.images.append(image)
        return self.words


def line_words(text: str, x: float, top: float, line: int, *, size: float = 1.0, confidence: float = 95.0,
               char_width: float = 0.5) -> list[OcrWord]:
    """Words of one line in image pixels (10-pixel images: fractional pixels are fine)."""
    words = []
    for token in text.split():
        width = char_width * size * len(token)
        words.append(OcrWord(token, x, top, x + width, top + size, confidence, line, top + 0.8 * size, size))
        x += width + 0.3 * size
    return words


# ----------------------------------------------------------------------------- words → layout

def test_a_scan_page_reads_the_engines_words_in_page_coordinates_with_their_confidence():
    scanner = FakeScanner(line_words("Quiet harbour office", 1.0, 1.0, 1, size=0.2, confidence=91))
    result = extract_text(scan_pdf(), ocr_engine=scanner.engine, mode="json")
    page = json.loads(result.text)["pages"][0]
    words = page["blocks"][0]["lines"][0]["words"]
    assert [w["text"] for w in words] == ["Quiet", "harbour", "office"]
    # 10 pixels across 612 pt: x = 1 px → 61.2 pt; the line's top 1 px → 79.2 pt
    assert words[0]["bbox"][0] == pytest.approx(61.2, abs=0.01)
    assert words[0]["flags"] == ["ocr"] and words[0]["confidence"] == 91
    assert words[0]["font"] == "OCR" and words[0]["size"] == pytest.approx(0.2 * 79.2, abs=0.01)
    assert page["ocr"] == {"words": 3, "low_confidence": 0, "mean_confidence": 91.0, "rendered": False}
    assert result.scan is None and not page["scan"]
    assert scanner.images[0].format == "pnm" and scanner.images[0].dpi == pytest.approx(10 / 612 * 72)


def test_without_an_engine_the_scan_is_reported_and_nothing_is_read():
    result = extract_text(scan_pdf())
    assert result.scan is not None and result.scan.whole_document
    assert result.pages[0].ocr is None and result.text.strip() == ""


def test_a_two_column_scan_reads_column_by_column_even_when_the_engine_interleaves_rows():
    left = ["alpha one two three four", "beta five six seven eight", "gamma nine ten eleven end.",
            "delta twelve thirteen four", "epsilon fifteen sixteen", "zeta seventeen eighteen."]
    right = ["omega right column opens", "psi it goes on and on", "chi until the column ends.",
             "phi another right line", "upsilon more right words", "tau the last right line."]
    words = []
    for row, (a, b) in enumerate(zip(left, right)):
        words += line_words(a, 0.5, 1 + row * 0.3, ("L", row), size=0.2, char_width=0.1)
        words += line_words(b, 5.5, 1 + row * 0.3, ("R", row), size=0.2, char_width=0.1)
    result = extract_text(scan_pdf(), ocr_engine=FakeScanner(words).engine, mode="preserve")
    lines = [line for line in result.text.splitlines() if line.strip()]
    assert lines == left + right


def test_only_pages_without_a_text_layer_are_recognised_and_text_pages_keep_their_text():
    scanner = FakeScanner(line_words("Recognised words of the scan", 1.0, 1.0, 1, size=0.2))
    pdf = scan_pdf(text_first="A real text layer with plenty of characters")
    result = extract_text(pdf, ocr_engine=scanner.engine)
    assert len(scanner.images) == 1
    assert result.pages[0].text == extract_text(pdf).pages[0].text and result.pages[0].ocr is None
    assert "Recognised words of the scan" in result.pages[1].text and result.scan is None


def test_low_confidence_words_are_kept_counted_and_a_doubtful_page_is_warned_about():
    words = (line_words("clear words read well", 1.0, 1.0, 1, size=0.2, confidence=96)
             + line_words("smudged blur", 1.0, 2.0, 2, size=0.2, confidence=LOW_CONFIDENCE - 20))
    result = extract_text(scan_pdf(), ocr_engine=FakeScanner(words).engine)
    assert "smudged blur" in result.text
    assert result.pages[0].ocr["low_confidence"] == 2
    assert not any("unsure" in w for w in result.warnings)
    unsure = [OcrWord(w.text, w.x0, w.y0, w.x1, w.y1, 30, w.line, w.baseline, w.size) for w in words]
    result = extract_text(scan_pdf(), ocr_engine=FakeScanner(unsure).engine)
    assert any("OCR is unsure of this page" in w for w in result.warnings)


def test_a_word_hyphenated_at_an_ocr_line_end_is_joined_in_reflow():
    words = (line_words("The harbour office keeps a careful exam-", 0.5, 1.0, 1, size=0.2, char_width=0.1)
             + line_words("ple of every entry in the log.", 0.5, 1.24, 2, size=0.2, char_width=0.1))
    result = extract_text(scan_pdf(), ocr_engine=FakeScanner(words).engine)
    assert "careful example of every" in result.text


def test_the_engines_word_breaks_hold_even_when_the_gap_is_narrow():
    words = [OcrWord("shows", 1.0, 1.0, 1.5, 1.2, 90, 1, 1.16, 0.2), OcrWord("a", 1.51, 1.0, 1.6, 1.2, 90, 1, 1.16, 0.2)]
    assert "shows a" in extract_text(scan_pdf(), ocr_engine=FakeScanner(words).engine).text


def test_an_engine_that_fails_costs_only_its_page():
    def broken(image):
        raise RuntimeError("engine crashed")
    result = extract_text(scan_pdf(text_first="A real text layer with plenty of characters"),
                          ocr_engine=OcrEngine(broken))
    assert "A real text layer" in result.pages[0].text
    assert any("OCR failed" in w for w in result.pages[1].warnings)


def test_a_jbig2_scan_is_rendered_instead_and_without_a_renderer_the_page_says_why():
    rendered = PageImage(b"P5\n20 20\n255\n" + bytes(400), "pnm", 20, 20, 300.0)
    calls = []

    def render(number, dpi):
        calls.append((number, dpi))
        return rendered

    jbig2 = [{"Filter": "/JBIG2Decode", "BitsPerComponent": 1, "data": b"\x00" * 20}]
    scanner = FakeScanner(line_words("Rendered page words", 2.0, 2.0, 1, size=1.0), render)
    result = extract_text(scan_pdf(jbig2), ocr_engine=scanner.engine)
    assert calls == [(1, 300)] and scanner.images == [rendered]
    assert "Rendered page words" in result.text and result.pages[0].ocr["rendered"]
    result = extract_text(scan_pdf(jbig2), ocr_engine=FakeScanner([]).engine)
    assert any("JBIG2" in w and "no page renderer" in w for w in result.warnings)


# ----------------------------------------------------------------------------- page images

class _XObject(dict):
    """An image XObject as page_image reads it: a dict of PDF names and the encoded bytes."""

    def __init__(self, data: bytes, **entries):
        super().__init__({"/" + k: v for k, v in entries.items()})
        self._data = data


def _decoded(xobject: _XObject, matrix=(612, 0, 0, -792, 0, 792)) -> PageImage:
    return page_image(xobject, lambda x: x._data, matrix, 1 << 24)


def _png_rows(rows: list[bytes], filters: list[int], step: int) -> bytes:
    """PNG-filter rows (PNG spec §9) so the test data really is predicted."""
    out, previous = b"", bytes(len(rows[0]))
    for row, kind in zip(rows, filters):
        if kind == 1:
            encoded = bytes((row[i] - (row[i - step] if i >= step else 0)) & 255 for i in range(len(row)))
        elif kind == 4:
            def paeth(a, b, c):
                p = a + b - c
                return a if abs(p - a) <= abs(p - b) and abs(p - a) <= abs(p - c) else b if abs(p - b) <= abs(p - c) else c
            encoded = bytes((row[i] - paeth(row[i - step] if i >= step else 0, previous[i],
                                             previous[i - step] if i >= step else 0)) & 255 for i in range(len(row)))
        else:
            encoded = row
        out += bytes([kind]) + encoded
        previous = row
    return out


def test_a_one_bit_flate_scan_with_a_png_predictor_is_unfiltered_byte_by_byte():
    rows = [bytes([0b10110011, 0b01000000]), bytes([0b11110000, 0b10000000]), bytes([0b00001111, 0b11000000])]
    data = flate(_png_rows(rows, [1, 4, 4], step=1))
    image = _decoded(_XObject(data, Width=10, Height=3, BitsPerComponent=1, ColorSpace="/DeviceGray",
                              Filter="/FlateDecode", DecodeParms={"/Predictor": 15, "/Colors": 1,
                                                                  "/BitsPerComponent": 1, "/Columns": 10}))
    assert image.format == "pnm"
    assert image.data == b"P4\n10 3\n" + bytes(255 - b for row in rows for b in row)   # PBM: 1 is black


def test_decode_inversion_and_image_masks_keep_black_black():
    inverted = _decoded(_XObject(bytes([0, 255]), Width=2, Height=1, BitsPerComponent=8,
                                 ColorSpace="/DeviceGray", Decode=[1, 0]))
    assert inverted.data.endswith(bytes([255, 0]))
    mask = _decoded(_XObject(bytes([0b01000000]), Width=2, Height=1, ImageMask=True))
    assert mask.data == b"P4\n2 1\n" + bytes([0b10111111])   # sample 0 paints: black in PBM


def test_indexed_and_cmyk_samples_become_colour_and_gray_files():
    palette = bytes([255, 0, 0, 0, 0, 255])
    indexed = _decoded(_XObject(bytes([0b01000000]), Width=2, Height=1, BitsPerComponent=1,
                                ColorSpace=["/Indexed", "/DeviceRGB", 1, palette]))
    assert indexed.data == b"P6\n2 1\n255\n" + bytes([255, 0, 0, 0, 0, 255])   # index 0 red, then 1 blue
    cmyk = _decoded(_XObject(bytes([0, 0, 0, 255, 0, 0, 0, 0]), Width=2, Height=1, BitsPerComponent=8,
                             ColorSpace="/DeviceCMYK"))
    assert cmyk.data == b"P5\n2 1\n255\n" + bytes([0, 255])


def test_ccitt_data_is_wrapped_as_a_tiff_with_its_coding_and_size():
    image = _decoded(_XObject(b"FAXDATA", Width=1728, Height=40, BitsPerComponent=1, Filter="/CCITTFaxDecode",
                              DecodeParms={"/K": -1, "/Columns": 1728, "/Rows": 40}))
    data = image.data
    assert image.format == "tiff" and data[:4] == b"II*\x00" and data.endswith(b"FAXDATA")
    count = struct.unpack_from("<H", data, 8)[0]
    tags = {}
    for i in range(count):
        tag, kind, _, value = struct.unpack_from("<HHII", data, 10 + 12 * i)
        tags[tag] = value & 0xFFFF if kind == 3 else value
    assert tags[256] == 1728 and tags[257] == 40 and tags[259] == 4 and tags[262] == 0
    assert data[tags[273]:tags[273] + tags[279]] == b"FAXDATA"


def test_jpeg_bytes_pass_through_and_the_dpi_comes_from_the_placement():
    jpeg = b"\xff\xd8\xff\xe0JFIF-ish"
    image = _decoded(_XObject(jpeg, Width=2550, Height=3300, BitsPerComponent=8, ColorSpace="/DeviceGray",
                              Filter="/DCTDecode"))
    assert image.data == jpeg and image.format == "jpeg" and image.dpi == pytest.approx(300)


def test_png_unfilter_uses_whole_pixels_as_the_left_neighbour():
    rows = [bytes([10, 20, 30, 40, 50, 60]), bytes([11, 21, 31, 41, 51, 61])]
    assert _png_unfilter(_png_rows(rows, [1, 4], step=3), 3, 8, 2) == b"".join(rows)


# ----------------------------------------------------------------------------- tesseract (CPython)

HOCR = """<html><body><div class='ocr_page' title='bbox 0 0 500 300'>
<span class='ocr_line' id='line_1_1' title="bbox 36 92 580 122; baseline 0.01 -8; x_size 30; x_descenders 7">
<span class='ocrx_word' id='word_1_1' title='bbox 36 92 96 122; x_wconf 96'>The</span>
<span class='ocrx_word' id='word_1_2' title='bbox 110 92 200 122; x_wconf 41'>harbour&#8217;s</span>
</span></div></body></html>"""


def test_hocr_words_carry_their_line_baseline_size_and_confidence():
    the, harbour = parse_hocr(HOCR)
    assert (the.text, the.x0, the.y1, the.confidence, the.size) == ("The", 36, 122, 96, 30)
    assert harbour.text == "harbour’s" and harbour.line == the.line
    assert harbour.baseline == pytest.approx(122 - 8 + 0.01 * (155 - 36))


needs_tesseract = pytest.mark.skipif(shutil.which("tesseract") is None or shutil.which("pdftoppm") is None,
                                     reason="tesseract-ocr or poppler-utils is not installed (make test installs them)")

PROSE = ["The harbour office opened at half past seven, although the first ferry",
         "rarely left before nine. Maria liked the quiet hour: the radio crackled",
         "with weather reports, the kettle ticked as it cooled, and the logbook",
         "lay open at yesterday's last entry about the storm and the pilot boat."]


def _rasterised_scan(tmp_path, dpi: int = 200) -> bytes:
    """PROSE typeset, rendered by pdftoppm, and wrapped as an image-only page (Flate gray)."""
    b = PdfBuilder()
    font = b.font_type1("Times-Roman")
    content = b"".join(b"BT /F1 12 Tf 72 %d Td (%s) Tj ET\n" % (700 - 16 * i, line.encode("latin-1"))
                       for i, line in enumerate(PROSE))
    b.page(content, fonts={"F1": font})
    (tmp_path / "text.pdf").write_bytes(b.build())
    subprocess.run(["pdftoppm", "-r", str(dpi), "-gray", "-singlefile", str(tmp_path / "text.pdf"),
                    str(tmp_path / "page")], check=True)
    pgm = (tmp_path / "page.pgm").read_bytes()
    fields = pgm.split(maxsplit=4)
    width, height, samples = int(fields[1]), int(fields[2]), fields[4]
    return scan_pdf([{"data": zlib.compress(samples), "Filter": "/FlateDecode", "Width": width, "Height": height}])


@needs_tesseract
def test_tesseract_reads_a_rasterised_page_back_to_its_words(tmp_path):
    result = extract_text(_rasterised_scan(tmp_path), ocr="eng")
    expected = " ".join(PROSE).split()
    got = result.text.split()
    common = sum(min(got.count(w), expected.count(w)) for w in set(expected))
    assert common / len(expected) >= 0.95 and result.scan is None
    assert result.pages[0].ocr["words"] >= len(expected) - 2


@needs_tesseract
def test_the_cli_recognises_with_ocr_and_exits_3_naming_a_missing_language(tmp_path):
    (tmp_path / "scan.pdf").write_bytes(_rasterised_scan(tmp_path))
    done = subprocess.run([sys.executable, "-m", "glyphline", "--ocr", str(tmp_path / "scan.pdf")],
                          capture_output=True, text=True)
    assert done.returncode == 0 and "harbour office opened" in done.stdout
    assert "read by OCR" in done.stderr
    missing = subprocess.run([sys.executable, "-m", "glyphline", "--ocr=xx_none", str(tmp_path / "scan.pdf")],
                             capture_output=True, text=True)
    assert missing.returncode == 3 and "xx_none is not installed" in missing.stderr
    with pytest.raises(OcrUnavailable):
        tesseract_engine("xx_none", b"")


def test_without_tesseract_the_cli_exits_3_with_the_install_hint(tmp_path, monkeypatch):
    (tmp_path / "scan.pdf").write_bytes(scan_pdf())
    done = subprocess.run([sys.executable, "-m", "glyphline", "--ocr", str(tmp_path / "scan.pdf")],
                          capture_output=True, text=True, env={"PATH": str(tmp_path), "PYTHONPATH": ":".join(sys.path)})
    assert done.returncode == 3 and "apt install tesseract-ocr" in done.stderr


def _tiff_tags(data: bytes) -> dict[int, int]:
    tags = {}
    for i in range(struct.unpack_from("<H", data, 8)[0]):
        tag, kind, _, value = struct.unpack_from("<HHII", data, 10 + 12 * i)
        tags[tag] = value & 0xFFFF if kind == 3 else value
    return tags


def test_pdf_booleans_set_to_false_are_false_in_a_real_file():
    ccitt = [{"Filter": "/CCITTFaxDecode", "BitsPerComponent": 1, "ImageMask": False, "data": b"G4",
              "DecodeParms": {"K": -1, "Columns": 10, "Rows": 10, "BlackIs1": False}}]
    scanner = FakeScanner([])
    extract_text(scan_pdf(ccitt), ocr_engine=scanner.engine)
    assert _tiff_tags(scanner.images[0].data)[262] == 0     # white is zero: black stays black
    ccitt[0]["DecodeParms"]["BlackIs1"] = True
    extract_text(scan_pdf(ccitt), ocr_engine=scanner.engine)
    assert _tiff_tags(scanner.images[1].data)[262] == 1
    gray = [{"ImageMask": False, "data": bytes(100)}]
    extract_text(scan_pdf(gray), ocr_engine=scanner.engine)
    assert scanner.images[2].data.startswith(b"P5\n10 10\n255\n")   # 8-bit gray, not a 1-bit mask


def test_a_slow_image_stops_at_the_page_time_budget_and_the_page_says_so():
    from glyphline.limits import Limits

    rows = flate(b"".join(b"\x04" + bytes(200) for _ in range(2000)))
    predicted = [{"Filter": "/FlateDecode", "BitsPerComponent": 1, "Width": 1600, "Height": 2000, "data": rows,
                  "DecodeParms": {"Predictor": 15, "Colors": 1, "BitsPerComponent": 1, "Columns": 1600}}]
    scanner = FakeScanner(line_words("never read", 1, 1, 1))
    result = extract_text(scan_pdf(predicted), ocr_engine=scanner.engine, limits=Limits(seconds_per_page=0.0))
    assert scanner.images == [] and any("OCR stopped early" in w for w in result.warnings)


def _skewed_two_columns(slope: float):
    """Two columns of 20 lines each, as a scan turned by `slope` (dy/dx) about its centre gives them."""
    left = [f"left line {i} words go here" + ("." if i % 5 == 4 else "") for i in range(20)]
    right = [f"right line {i} more words here" + ("." if i % 5 == 4 else "") for i in range(20)]
    words = []
    for column, (texts, x_start) in enumerate(((left, 0.6), (right, 5.2))):
        for row, text in enumerate(texts):
            top = 0.6 + row * 0.42
            for word in line_words(text, x_start, top, (column, row), size=0.35, char_width=0.09):
                cx, cy = (word.x0 + word.x1) / 2 - 5, (word.y0 + word.y1) / 2 - 5
                dx, dy = -slope * cy, slope * cx     # the scanner's small rotation
                words.append(OcrWord(word.text, word.x0 + dx, word.y0 + dy, word.x1 + dx, word.y1 + dy,
                                     word.confidence, word.line, word.baseline + dy, word.size))
    return words, left, right


def test_a_skewed_two_column_scan_is_turned_back_and_reads_column_by_column():
    words, left, right = _skewed_two_columns(0.0175)   # 1°
    result = extract_text(scan_pdf(), ocr_engine=FakeScanner(words).engine, mode="preserve")
    assert [line for line in result.text.splitlines() if line.strip()] == left + right
    page = json.loads(extract_text(scan_pdf(), ocr_engine=FakeScanner(words).engine, mode="json").text)["pages"][0]
    lines = [line for block in page["blocks"] for line in block["lines"]]
    left_edges = [line["bbox"][0] for line in lines if line["text"].startswith("left")]
    tops = [line["bbox"][1] for line in lines if line["text"].startswith(("left line 0 ", "right line 0 "))]
    assert max(left_edges) - min(left_edges) < 0.5 and abs(tops[0] - tops[1]) < 0.5   # straight columns, level rows


def test_an_image_the_engine_cannot_read_is_read_from_the_rendered_page():
    rendered = PageImage(b"P5\n20 20\n255\n" + bytes(400), "pnm", 20, 20, 300.0)
    seen = []

    def recognise(image):
        seen.append(image.format)
        if image.format == "jp2":
            raise RuntimeError("tesseract failed: Error during processing.")
        return line_words("Read from the rendering", 2.0, 2.0, 1, size=1.0)

    jpx = [{"Filter": "/JPXDecode", "data": b"\x00\x00\x00\x0cjP  "}]
    result = extract_text(scan_pdf(jpx), ocr_engine=OcrEngine(recognise, lambda number, dpi: rendered))
    assert seen == ["jp2", "pnm"] and "Read from the rendering" in result.text
    assert result.pages[0].ocr["rendered"]


def test_an_engine_that_cannot_read_a_format_gets_the_rendered_page_without_trying():
    rendered = PageImage(b"P5\n20 20\n255\n" + bytes(400), "pnm", 20, 20, 300.0)
    seen = []

    def recognise(image):
        seen.append(image.format)
        return line_words("Read from the rendering", 2.0, 2.0, 1, size=1.0)

    jpx = [{"Filter": "/JPXDecode", "data": b"\x00\x00\x00\x0cjP  "}]
    engine = OcrEngine(recognise, lambda number, dpi: rendered, reads=frozenset({"jpeg", "pnm", "tiff"}))
    result = extract_text(scan_pdf(jpx), ocr_engine=engine)
    assert seen == ["pnm"] and result.pages[0].ocr["rendered"]
    no_renderer = extract_text(scan_pdf(jpx), ocr_engine=OcrEngine(recognise, reads=frozenset({"pnm"})))
    assert any("JPEG 2000 image this OCR engine cannot read" in w for w in no_renderer.warnings)


def strips_pdf(count: int) -> bytes:
    """One page whose scan is `count` horizontal strips, each its own 10×10 image."""
    b = PdfBuilder()
    height = PAGE_H / count
    xobjects, content = {}, b""
    for index in range(count):
        name = f"S{index}"
        xobjects[name] = b.stream(bytes(100), {"Type": "/XObject", "Subtype": "/Image", "Width": 10, "Height": 10,
                                               "ColorSpace": "/DeviceGray", "BitsPerComponent": 8})
        content += b"q %d 0 0 %.3f 0 %.3f cm /%s Do Q\n" % (PAGE_W, height, index * height, name.encode())
    b.page(content, xobjects=xobjects)
    return b.build()


def test_a_scan_in_strips_is_read_from_the_rendered_page_so_its_lines_stay_whole():
    rendered = PageImage(b"P5\n20 20\n255\n" + bytes(400), "pnm", 20, 20, 300.0)
    scanner = FakeScanner(line_words("One whole line", 2.0, 2.0, 1, size=1.0), lambda number, dpi: rendered)
    result = extract_text(strips_pdf(3), ocr_engine=scanner.engine)
    assert scanner.images == [rendered] and result.pages[0].ocr["rendered"]
    piecewise = FakeScanner(line_words("Strip", 2.0, 2.0, 1, size=1.0))  # no renderer: strip by strip
    result = extract_text(strips_pdf(3), ocr_engine=piecewise.engine)
    assert len(piecewise.images) == 3 and not result.pages[0].ocr["rendered"]


def test_the_benchmarks_bilevel_scans_keep_ink_black_as_a_scanners_g4_does():
    """bench/ocr.py's G4 data codes ink as black runs: read back through the engine's CCITT TIFF
    (as tesseract gets it), a white page with a black bar is white with a black bar, not a negative."""
    image_module = pytest.importorskip("PIL.Image")
    import io
    sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[1] / "bench"))
    from ocr import encode, write_pdf

    from glyphline.extract import ocr_images

    page = image_module.new("L", (200, 100), 255)
    page.paste(0, (50, 40, 150, 60))   # the ink: a black bar
    data, entries = encode(page, "g4")
    [(_, _, tiff)] = ocr_images(write_pdf([(data, entries, 200, 100, 200.0, 100.0)]))
    assert tiff.format == "tiff"
    decoded = image_module.open(io.BytesIO(tiff.data)).convert("L")
    assert decoded.getpixel((10, 10)) == 255 and decoded.getpixel((100, 50)) == 0
