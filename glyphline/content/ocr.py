"""OCR as a glyph source: the words an OCR engine reads off a scan become glyphs on the page.

Only a page without a text layer is recognised (glyphline.textlayer, the scan report's rule),
after its own content and annotations were drawn. Its images covering a fair share of the page
are decoded (glyphline.images) and handed to the injected engine, a callable from a PageImage
to OcrWords in image pixels; the engine is the only part that is not pure Python (tesseract on
CPython, tesseract.js in the browser). An image this module cannot decode (JBIG2), one the engine
cannot read, one drawn sideways, or a scan in pieces makes it ask the engine to render the whole
page instead, when the engine can (the browser renders between two passes: rendered_page_request).

Each word becomes one glyph per character, spread evenly over the word's box on its line's
baseline, flagged OCR, in the font "OCR" at the line's size, so the layout stages make lines,
words, blocks and paragraphs of them exactly as of drawn text. Their confidence is kept aside
(OcrReport) and put on the layout's words afterwards (layout.ocr_confidence).
"""
from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field
from statistics import median
from typing import Any, Callable, Mapping

from ..glyph import OCR, Glyph
from ..images import PageImage, UnsupportedImage, page_image
from ..limits import PageBudgetExceeded
from ..notices import warning
from ..textlayer import lacks_text_layer

OCR_FONT = "OCR"
LOW_CONFIDENCE = 60.0         # a word the engine is less sure of than this (0–100) is counted as doubtful
PAGE_CONFIDENCE_FLOOR = 70.0  # a page whose mean word confidence is below this gets a warning
MIN_IMAGE_SHARE = 0.05        # images covering less of the page are logos or stamps, not the scan
RENDER_DPI = 300              # the resolution a rendered page is recognised at (tesseract's sweet spot)
# OCR sizes jitter from line to line (ascenders, descenders): a line within this share of the
# page's body size is that size, so a paragraph does not split at a "size change"
SAME_SIZE_SHARE = 0.25
DESCENT_EM = 0.2              # below the baseline: the usual Latin descender depth
# a line without a measured baseline: words with no descending letters sit on it
DESCENDERS = frozenset("gjpqyQ,;()[]{}|/_@$")
# a scan lies a little askew (0.5° is common): the words are turned back by the page's median
# baseline slope, so columns stay straight for the layout; steeper than this is no skew
MAX_SKEW_SLOPE = 0.1
UPRIGHT_TOLERANCE = 0.05      # an image whose rows lean more than this (sine) in viewer space is drawn sideways
MAX_OCR_WORDS = 100_000       # words taken from the engine for one page (a noise scan reads as specks)
POINTS_PER_INCH = 72.0
IMAGE_FORMAT_NAMES = {"jp2": "JPEG 2000", "jpeg": "JPEG", "pnm": "raw-sample", "tiff": "CCITT"}
RENDER_REQUEST_FORMAT = "render"  # rendered_page_request: not an image file, a page for the caller to render
# tesseract.js's image library (leptonica in tesseract.js-core) reads these; JPEG 2000 it rejects
BROWSER_READS = frozenset({"jpeg", "pnm", "tiff"})


@dataclass(frozen=True)
class OcrWord:
    """One word the engine read, in the image's pixels (origin top-left, y down)."""

    text: str
    x0: float
    y0: float
    x1: float
    y1: float
    confidence: float              # 0–100
    line: Any = None               # words of one text line share this key (None: a line of its own)
    baseline: float | None = None  # y of the line's baseline at the word, when the engine measured it
    size: float | None = None      # the line's text size in pixels, when the engine measured it


@dataclass(frozen=True)
class OcrEngine:
    """What OCR needs from outside the pure-Python core."""

    recognise: Callable[[PageImage], list[OcrWord]]
    # page number (1-based), dpi → the page rendered as the viewer shows it, or None (no renderer)
    render: Callable[[int, float], PageImage | None] | None = None
    name: str = "ocr"
    # the image formats the engine's image library reads (None: all PageImage formats); a page
    # with an image in another format is rendered instead
    reads: frozenset[str] | None = None
    # the caller renders pages itself, between two passes (the browser: pdf.js): a page to render
    # is a rendered_page_request, recognised by its key like any image
    renders_elsewhere: bool = False

    @property
    def can_render(self) -> bool:
        return self.render is not None or self.renders_elsewhere

    def rendered_page(self, number: int, width: float, height: float) -> PageImage | None:
        """Page `number` (viewer size width × height points) rendered at RENDER_DPI, or None."""
        if self.renders_elsewhere:
            return rendered_page_request(number, RENDER_DPI, width, height)
        return self.render(number, RENDER_DPI) if self.render is not None else None


@dataclass
class OcrReport:
    """What OCR did on one page."""

    boxes: list[tuple[float, float, float, float, float]] = field(default_factory=list)  # viewer box + confidence
    low_confidence: int = 0        # words below LOW_CONFIDENCE
    images: int = 0                # images recognised (1 for a rendered page)
    rendered: bool = False         # the page was rendered rather than its images decoded

    @property
    def words(self) -> int:
        return len(self.boxes)

    @property
    def mean_confidence(self) -> float:
        return sum(box[4] for box in self.boxes) / len(self.boxes) if self.boxes else 0.0

    def as_dict(self) -> dict[str, Any]:
        return {"words": self.words, "low_confidence": self.low_confidence,
                "mean_confidence": round(self.mean_confidence, 1), "rendered": self.rendered}


def ocr_glyphs(page, out: list[Glyph]) -> None:
    """The OCR glyph source: recognise the page when it has no text layer (page: sources.PageInput)."""
    engine: OcrEngine | None = page.ocr
    env = page.env
    if engine is None:
        return
    width, height = env.clip[2], env.clip[3]
    chars = sum(len(g.text) - sum(1 for ch in g.text if ch.isspace()) for g in out)
    coverage = min(1.0, env.image_area / max(1.0, width * height))
    # counted before the layout's clean-up (a duplicate glyph counts twice): close enough for this rule
    if not lacks_text_layer(chars, coverage, env.undecodable, env.hidden_glyphs):
        return
    report = OcrReport()
    sources = _page_images(page, engine, width, height, report)
    for image, matrix in sources:
        try:
            words = engine.recognise(image)[:MAX_OCR_WORDS]
        except Exception:
            # an image the engine cannot read (a JPEG 2000 its image library rejects): the rendered page instead
            rendered = engine.rendered_page(page.number, width, height) if not report.rendered else None
            if rendered is None:
                raise
            report.rendered = True
            image, matrix = rendered, (width, 0.0, 0.0, -height, 0.0, height)
            words = engine.recognise(image)[:MAX_OCR_WORDS]
        report.images += 1
        place_words(words, image, matrix, env, out, report)
    if report.images:
        env.ocr = report
        if report.boxes and report.mean_confidence < PAGE_CONFIDENCE_FLOOR:
            env.warnings.append(warning("ocr-unsure", page=page.number, confidence=round(report.mean_confidence)))


def _page_images(page, engine: OcrEngine, width: float, height: float, report: OcrReport):
    """(PageImage, unit square → viewer matrix) for each image worth reading, or the rendered page."""
    env = page.env
    placed, problems = [], []
    for xobject, matrix in env.images:
        a, b, c, d = matrix[:4]
        if abs(a * d - b * c) < MIN_IMAGE_SHARE * width * height:
            continue
        if abs(b) > UPRIGHT_TOLERANCE * math.hypot(a, b):
            problems.append("an image drawn sideways")
            continue
        try:
            image = page_image(xobject, env.read_stream, matrix, env.limits.stream_bytes, env.budget.check_time)
        except PageBudgetExceeded:
            raise
        except UnsupportedImage as exc:
            problems.append(str(exc))
            continue
        except Exception as exc:   # a broken image costs its own text
            problems.append(f"an image could not be decoded ({type(exc).__name__})")
            continue
        if engine.reads is not None and image.format not in engine.reads:
            problems.append(f"a {IMAGE_FORMAT_NAMES.get(image.format, image.format)} image this OCR engine cannot read")
            continue
        placed.append((image, matrix))
    # a scan in pieces (strips, tiles) would be read piece by piece, cutting its lines: the whole page instead
    in_pieces = len(placed) > 1
    if (problems or not placed or in_pieces) and engine.can_render:
        rendered = engine.rendered_page(page.number, width, height)
        if rendered is not None:
            report.rendered = True
            return [(rendered, (width, 0.0, 0.0, -height, 0.0, height))]
    if problems:
        env.warnings.append(warning("ocr-skipped", page=page.number, detail=problems[0]))
    return placed


def place_words(words: list[OcrWord], image: PageImage, matrix: tuple, env, out: list[Glyph],
                report: OcrReport) -> None:
    """The words as glyphs in viewer space, through the image's unit square (its matrix)."""
    a, b, c, d, e, f = matrix
    across = math.hypot(a, b)
    if across <= 0 or image.width <= 0 or image.height <= 0:
        return
    dx, dy = a / across, b / across
    down_per_pixel = math.hypot(c, d) / image.height

    def to_viewer(px: float, py: float) -> tuple[float, float]:
        u, v = px / image.width, 1.0 - py / image.height
        return a * u + c * v + e, b * u + d * v + f

    lines = _lines(deskewed([w for w in words if w.text.strip()], image.width, image.height))
    sizes = _line_sizes(lines)
    clip = env.clip
    for line, size_px in zip(lines, sizes):
        baseline = _baseline(line, size_px)
        size = size_px * down_per_pixel
        descent = DESCENT_EM * size
        previous_end = None
        for word in line:
            text = word.text.strip()
            env.budget.charge_glyphs(len(text))
            step = (word.x1 - word.x0) / len(text)
            start = to_viewer(word.x0, baseline)
            end = to_viewer(word.x1, baseline)
            centre = to_viewer((word.x0 + word.x1) / 2, baseline - 0.3 * size_px)
            if not env.keep_outside and not (clip[0] <= centre[0] <= clip[2] and clip[1] <= centre[1] <= clip[3]):
                continue
            if previous_end is not None and word.x0 > previous_end:
                # the engine's word break, kept whatever the gap: a space glyph over it (a gutter the
                # engine read across stays a gutter: the layout cuts lines at wide space glyphs too)
                x, y = to_viewer(previous_end, baseline)
                end_x, end_y = to_viewer(word.x0, baseline)
                out.append(Glyph(" ", x, y, end_x, end_y, math.hypot(end_x - x, end_y - y), dx, dy, size, descent,
                                 size, OCR_FONT, OCR))
            previous_end = word.x1
            for i, ch in enumerate(text):
                x, y = to_viewer(word.x0 + i * step, baseline)
                end_x, end_y = to_viewer(word.x0 + (i + 1) * step, baseline)
                out.append(Glyph(ch, x, y, end_x, end_y, math.hypot(end_x - x, end_y - y), dx, dy, size, descent,
                                 size, OCR_FONT, OCR))
            corners = [(px + dy * k, py - dx * k) for px, py in (start, end) for k in (size - descent, -descent)]
            xs, ys = [x for x, _ in corners], [y for _, y in corners]
            report.boxes.append((min(xs), min(ys), max(xs), max(ys), float(word.confidence)))
            if word.confidence < LOW_CONFIDENCE:
                report.low_confidence += 1


def skew_slope(words: list[OcrWord]) -> float:
    """The page's baseline slope (dy/dx in pixels): the median over lines of the slope between
    their first and last measured baseline; 0 when the engine measured none."""
    by_line: dict[Any, list[OcrWord]] = {}
    for word in words:
        if word.line is not None and word.baseline is not None:
            by_line.setdefault(word.line, []).append(word)
    slopes = []
    for line in by_line.values():
        first, last = min(line, key=lambda w: w.x0), max(line, key=lambda w: w.x1)
        run = (last.x0 + last.x1 - first.x0 - first.x1) / 2
        if run > 0:
            slopes.append((last.baseline - first.baseline) / run)
    if not slopes:
        return 0.0
    slope = median(slopes)
    return slope if abs(slope) <= MAX_SKEW_SLOPE else 0.0


def deskewed(words: list[OcrWord], width: float, height: float) -> list[OcrWord]:
    """The words turned back about the image's centre by the page's skew (a small-angle rotation)."""
    slope = skew_slope(words)
    if slope == 0.0:
        return words
    cx, cy = width / 2, height / 2
    out = []
    for w in words:
        mx, my = (w.x0 + w.x1) / 2 - cx, (w.y0 + w.y1) / 2 - cy
        shift_x, shift_y = slope * my, -slope * mx
        out.append(OcrWord(w.text, w.x0 + shift_x, w.y0 + shift_y, w.x1 + shift_x, w.y1 + shift_y, w.confidence,
                           w.line, None if w.baseline is None else w.baseline + shift_y, w.size))
    return out


def _lines(words: list[OcrWord]) -> list[list[OcrWord]]:
    """The words grouped by their line key, in the engine's order (no key: a line of its own)."""
    lines: dict[Any, list[OcrWord]] = {}
    for index, word in enumerate(words):
        lines.setdefault(word.line if word.line is not None else ("word", index), []).append(word)
    return list(lines.values())


def _line_sizes(lines: list[list[OcrWord]]) -> list[float]:
    """Each line's size in pixels: measured, or its height; near the page's body size, that size."""
    own = []
    for line in lines:
        measured = [w.size for w in line if w.size]
        own.append(median(measured) if measured else max(w.y1 for w in line) - min(w.y0 for w in line))
    weighted = sorted(size for size, line in zip(own, lines) for _ in line)
    if not weighted:
        return own
    body = weighted[len(weighted) // 2]
    return [body if abs(size - body) <= SAME_SIZE_SHARE * body else size for size in own]


def _baseline(line: list[OcrWord], size: float) -> float:
    """The line's baseline in pixels: measured, or where its words without descenders end."""
    measured = [w.baseline for w in line if w.baseline is not None]
    if measured:
        return median(measured)
    flat = [w.y1 for w in line if not DESCENDERS.intersection(w.text)]
    if flat:
        return median(flat)
    return max(w.y1 for w in line) - DESCENT_EM * size


# ----------------------------------------------------------------------------- two passes (the browser)
# tesseract.js runs asynchronously in its own worker, while an extraction is one synchronous
# call: the browser first asks for the images of the pages without a text layer (images_to_read),
# recognises them, then extracts with their words handed back by image (recorded_engine).
# (images_to_read is glyphline.extract.ocr_images.)

def image_key(image: PageImage) -> str:
    """A name for an image's content, the same in both passes."""
    return hashlib.sha256(image.data).hexdigest()[:32]


def rendered_page_request(number: int, dpi: float, width: float, height: float) -> PageImage:
    """Page `number` to be rendered by the caller at `dpi`: its pixel size is the viewer size at
    that dpi (the caller scales its words to it), its data only a name (for image_key)."""
    pixels = dpi / POINTS_PER_INCH
    name = f"glyphline: page {number} rendered at {dpi:g} dpi".encode()
    return PageImage(name, RENDER_REQUEST_FORMAT, max(1, round(width * pixels)), max(1, round(height * pixels)), dpi)


def two_pass_engine(recognise: Callable[[PageImage], list[OcrWord]], name: str) -> OcrEngine:
    """The browser's engine in either pass: tesseract.js reads BROWSER_READS, pdf.js renders the rest."""
    return OcrEngine(recognise, name=name, reads=BROWSER_READS, renders_elsewhere=True)


def recorded_engine(words_by_key: Mapping[str, list[OcrWord]]) -> OcrEngine:
    """An engine whose words were read before, looked up by image_key (an unknown image reads as nothing)."""
    def recognise(image: PageImage) -> list[OcrWord]:
        return list(words_by_key.get(image_key(image), ()))

    return two_pass_engine(recognise, "recorded")

