"""The CPython OCR engine: Debian's `tesseract` command, read through its hOCR output.

Only the CLI and `extract_text(..., ocr="eng")` on CPython use this module; the engine core
(glyphline.content.ocr) takes any OcrEngine, and the browser injects tesseract.js instead.
Pages whose images are not decoded in Python (JBIG2, images drawn sideways) are rendered with
poppler's `pdftoppm` when it is installed.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from html.parser import HTMLParser

from .content.ocr import OcrEngine, OcrWord
from .errors import OcrUnavailable  # noqa: F401 (public here too: it was defined here first)
from .images import PageImage

TESSERACT_SECONDS = 300    # one page image; a 300 dpi A4 page takes 2–10 s on a slow machine
RENDER_SECONDS = 120       # pdftoppm, one page
EXTENSIONS = {"jpeg": ".jpg", "pnm": ".pnm", "tiff": ".tif", "jp2": ".jp2", "png": ".png"}
LINE_CLASSES = frozenset({"ocr_line", "ocr_caption", "ocr_header", "ocr_textfloat"})
# tesseract's OpenMP threads spin and contend on a busy machine: one thread is faster there
# (a 300 dpi page: 15 s with the default, 3.4 s with one, on the shared 2-core VM); the caller's setting wins
OMP_THREADS = "1"


def tesseract_engine(languages: str, pdf: bytes, *, password: str = "") -> OcrEngine:
    """An OcrEngine running tesseract for `languages` ("eng+deu"); raises OcrUnavailable."""
    program = shutil.which("tesseract")
    if program is None:
        raise OcrUnavailable("OCR needs tesseract, which is not installed (Debian: apt install tesseract-ocr)")
    installed = installed_languages(program)
    missing = [name for name in languages.split("+") if name not in installed]
    if missing:
        packages = " ".join(f"tesseract-ocr-{name.lower().replace('_', '-')}" for name in missing)
        raise OcrUnavailable(f"the OCR language {', '.join(missing)} is not installed for tesseract "
                             f"(Debian: apt install {packages}; installed: {', '.join(sorted(installed)) or 'none'})")
    renderer = shutil.which("pdftoppm")

    def recognise(image: PageImage) -> list[OcrWord]:
        return recognise_image(program, languages, image)

    def render(number: int, dpi: float) -> PageImage | None:
        return render_page(renderer, pdf, number, dpi, password) if renderer else None

    return OcrEngine(recognise, render, name=f"tesseract {languages}")


def installed_languages(program: str) -> set[str]:
    try:
        listed = subprocess.run([program, "--list-langs"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError) as exc:
        raise OcrUnavailable(f"tesseract does not run ({type(exc).__name__})") from None
    lines = (listed.stdout + "\n" + listed.stderr).splitlines()
    return {line.strip() for line in lines if line.strip() and " " not in line.strip() and ":" not in line}


def recognise_image(program: str, languages: str, image: PageImage) -> list[OcrWord]:
    with tempfile.TemporaryDirectory(prefix="glyphline-ocr-") as folder:
        path = os.path.join(folder, "page" + EXTENSIONS.get(image.format, ".img"))
        with open(path, "wb") as f:
            f.write(image.data)
        command = [program, path, "stdout", "-l", languages, "--psm", "3"]
        if image.dpi >= 1:
            command += ["--dpi", str(round(image.dpi))]
        environment = dict(os.environ)
        environment.setdefault("OMP_THREAD_LIMIT", OMP_THREADS)
        done = subprocess.run(command + ["hocr"], capture_output=True, timeout=TESSERACT_SECONDS, env=environment)
    if done.returncode != 0:
        reason = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise RuntimeError(f"tesseract failed: {reason[-1][:160] if reason else done.returncode}")
    return parse_hocr(done.stdout.decode("utf-8", "replace"))


def render_page(program: str, pdf: bytes, number: int, dpi: float, password: str = "") -> PageImage | None:
    """The page as the viewer shows it, in gray, by pdftoppm."""
    with tempfile.TemporaryDirectory(prefix="glyphline-render-") as folder:
        source = os.path.join(folder, "doc.pdf")
        with open(source, "wb") as f:
            f.write(pdf)
        command = [program, "-r", str(round(dpi)), "-f", str(number), "-l", str(number), "-gray", "-singlefile"]
        if password:
            command += ["-upw", password]
        done = subprocess.run(command + [source, os.path.join(folder, "page")], capture_output=True,
                              timeout=RENDER_SECONDS)
        path = os.path.join(folder, "page.pgm")
        if done.returncode != 0 or not os.path.exists(path):
            return None
        with open(path, "rb") as f:
            data = f.read()
    width, height = _pnm_size(data)
    return PageImage(data, "pnm", width, height, dpi)


def _pnm_size(data: bytes) -> tuple[int, int]:
    fields = data[:64].split()
    return int(fields[1]), int(fields[2])


class _HocrReader(HTMLParser):
    """ocr_line spans give the baseline and size, ocrx_word spans the words and confidences."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.words: list[OcrWord] = []
        self.stack: list[str | None] = []
        self.line: dict | None = None
        self.line_number = 0
        self.word: dict | None = None

    def handle_starttag(self, tag, attrs) -> None:
        attributes = dict(attrs)
        kind = attributes.get("class")
        self.stack.append(kind)
        title = _title(attributes.get("title") or "")
        if kind in LINE_CLASSES and "bbox" in title:
            self.line_number += 1
            self.line = {"number": self.line_number, "bbox": title["bbox"], "baseline": title.get("baseline"),
                         "size": (title.get("x_size") or [None])[0]}
        elif kind == "ocrx_word" and "bbox" in title:
            self.word = {"bbox": title["bbox"], "confidence": (title.get("x_wconf") or [0.0])[0], "text": ""}

    def handle_endtag(self, tag) -> None:
        kind = self.stack.pop() if self.stack else None
        if kind == "ocrx_word" and self.word is not None:
            self._finish_word()
        elif kind in LINE_CLASSES:
            self.line = None

    def handle_data(self, data) -> None:
        if self.word is not None:
            self.word["text"] += data

    def _finish_word(self) -> None:
        word, self.word = self.word, None
        text = word["text"].strip()
        if not text or len(word["bbox"]) != 4:
            return
        x0, y0, x1, y1 = word["bbox"]
        line = self.line
        baseline = size = None
        key = None
        if line is not None and len(line["bbox"]) == 4:
            key = line["number"]
            size = line["size"]
            lx0, _, _, ly1 = line["bbox"]
            slope, offset = (line["baseline"] + [0.0, 0.0])[:2] if line["baseline"] else (0.0, None)
            if offset is not None:
                baseline = ly1 + offset + slope * ((x0 + x1) / 2 - lx0)
        self.words.append(OcrWord(text, x0, y0, x1, y1, word["confidence"], key, baseline, size))


def _title(title: str) -> dict[str, list[float]]:
    """'bbox 1 2 3 4; x_wconf 96' → {'bbox': [1, 2, 3, 4], 'x_wconf': [96]}."""
    out: dict[str, list[float]] = {}
    for part in title.split(";"):
        fields = part.split()
        if not fields:
            continue
        values = []
        for value in fields[1:]:
            try:
                values.append(float(value))
            except ValueError:
                break
        out[fields[0]] = values
    return out


def parse_hocr(text: str) -> list[OcrWord]:
    reader = _HocrReader()
    reader.feed(text)
    reader.close()
    return reader.words
