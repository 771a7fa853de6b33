#!/usr/bin/env python3
"""OCR benchmark: corpus pages made into scans, read back with `extract_text(..., ocr=LANG)`.

Each case's doc.pdf (../shared/corpus/generated, with its truth.txt) is rendered at 300 dpi by
pdftoppm, skewed by 0.5° and speckled with noise (Pillow, a fixed seed), and wrapped as an
image-only PDF in three codecs: JPEG (DCT), CCITT G4, and JBIG2 (a generic region coded with
MMR, i.e. the G4 data inside JBIG2 segments: no JBIG2 encoder is packaged, and the engine
renders JBIG2 pages with pdftoppm). Scored with ../shared/bench/score.py's word F1 and
reading order; seconds per page are wall-clock on this machine (a ratio, never a test).

    python bench/ocr.py [--cases a,b] [--codecs jpeg,g4,jbig2] [--dpi 300]
    python bench/ocr.py --files a.pdf b.pdf     # scans without truth: what was read, how sure, how fast
    python bench/ocr.py --browser [--dist DIR]  # the same scans in the web app in headless Chromium

--browser: the site (built into a temporary folder, or --dist) served on loopback, one Chromium
tab, `window.glyphline.extractText(pdf, {ocr})` per scan after one warm-up scan (the one-time
download and tesseract.js's start are not counted). Seconds per page run from the first page's
OCR progress to the result; memory is the resident size of all of Chromium's processes before the
scan, at its peak (sampled every 0.2 s) and 2 s after the result.
"""
from __future__ import annotations

import argparse
import io
import os
import random
import struct
import subprocess
import sys
import tempfile
import time
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
CORPUS = os.path.join(HERE, "..", "..", "shared", "corpus", "generated")
SCORER = "/work/shared/bench"
DEFAULT_CASES = ["chromium-prose-en", "chromium-2col", "pdflatex-hyph-2col-en", "lualatex-prose-en"]
SKEW_DEGREES = 0.5
NOISE_SPECKS_PER_MPIXEL = 2000
BILEVEL_THRESHOLD = 160   # a gray sample above this is paper in the bilevel (G4, JBIG2) scans


def render_pages(pdf: str, dpi: int, folder: str) -> list[tuple[str, float, float]]:
    """(PGM path, page width pt, page height pt) per page, as the viewer shows them."""
    subprocess.run(["pdftoppm", "-r", str(dpi), "-gray", pdf, os.path.join(folder, "p")], check=True)
    pages = []
    for name in sorted(os.listdir(folder)):
        if name.startswith("p") and name.endswith(".pgm"):
            with open(os.path.join(folder, name), "rb") as f:
                fields = f.read(64).split()
            width, height = int(fields[1]), int(fields[2])
            pages.append((os.path.join(folder, name), width * 72 / dpi, height * 72 / dpi))
    return pages


def scanned(path: str, seed: int, skew: float = SKEW_DEGREES):
    """The page as a scanner gives it: a slight skew and salt-and-pepper specks."""
    from PIL import Image

    image = Image.open(path).convert("L").rotate(skew, resample=Image.BICUBIC, fillcolor=255)
    rng = random.Random(seed)
    pixels = image.load()
    for _ in range(NOISE_SPECKS_PER_MPIXEL * image.width * image.height // 1_000_000):
        pixels[rng.randrange(image.width), rng.randrange(image.height)] = rng.choice((0, 255))
    return image


def encode(image, codec: str) -> tuple[bytes, dict]:
    """Image stream data and its dictionary entries."""
    if codec == "jpeg":
        out = io.BytesIO()
        image.save(out, "JPEG", quality=75)
        return out.getvalue(), {"Filter": "/DCTDecode", "ColorSpace": "/DeviceGray", "BitsPerComponent": 8}
    g4 = _g4(image)
    if codec == "g4":
        return g4, {"Filter": "/CCITTFaxDecode", "ColorSpace": "/DeviceGray", "BitsPerComponent": 1,
                    "DecodeParms": {"K": -1, "Columns": image.width, "Rows": image.height, "BlackIs1": False}}
    if codec == "jbig2":
        return _jbig2_mmr(g4, image.width, image.height), {"Filter": "/JBIG2Decode", "ColorSpace": "/DeviceGray",
                                                            "BitsPerComponent": 1}
    raise ValueError(codec)


def _g4(image) -> bytes:
    """The G4 strip of a one-strip TIFF written by Pillow (libtiff), fax-coded as a scanner's: ink in
    black runs. Pillow stores a bilevel TIFF with 0 bits black and the coder codes 0 bits as white
    runs, so the image goes in negated (else every reader shows white text on black)."""
    out = io.BytesIO()
    negated = image.point(lambda v: 0 if v > BILEVEL_THRESHOLD else 255).convert("1")
    negated.save(out, "TIFF", compression="group4", strip_size=1 << 30)  # one strip: one G4 stream
    from PIL import Image

    tiff = Image.open(io.BytesIO(out.getvalue()))
    offsets, counts = tiff.tag_v2[273], tiff.tag_v2[279]
    data = out.getvalue()
    return b"".join(data[o:o + c] for o, c in zip(offsets, counts))


def _jbig2_mmr(g4: bytes, width: int, height: int) -> bytes:
    """An embedded JBIG2 stream (ITU T.88 §7): page information, one immediate lossless generic
    region coded with MMR (the T.6 data of G4), end of page."""
    def segment(number: int, kind: int, data: bytes) -> bytes:
        return struct.pack(">IBBBI", number, kind, 0, 1, len(data)) + data   # refers to none, page 1
    page_info = struct.pack(">IIIIBH", width, height, 0, 0, 0, 0)
    region = struct.pack(">IIIIB", width, height, 0, 0, 0) + bytes([1]) + g4   # MMR = 1
    return segment(0, 48, page_info) + segment(1, 38, region) + segment(2, 49, b"")


def write_pdf(pages: list[tuple[bytes, dict, int, int, float, float]]) -> bytes:
    """An image-only PDF: one image filling each page."""
    from pdfbuilder import PdfBuilder

    b = PdfBuilder()
    for data, entries, width, height, page_w, page_h in pages:
        attrs = {"Type": "/XObject", "Subtype": "/Image", "Width": width, "Height": height}
        attrs.update(entries)
        image = b.stream(data, attrs)
        b.page(b"q %.2f 0 0 %.2f 0 0 cm /Im1 Do Q" % (page_w, page_h), xobjects={"Im1": image},
               media_box=(0, 0, round(page_w, 2), round(page_h, 2)))
    return b.build()


def report_files(paths: list[str], lang: str) -> int:
    """For files without truth: which pages OCR read, how many words, how sure, how long, a sample."""
    from glyphline import extract_text

    for path in paths:
        with open(path, "rb") as f:
            data = f.read()
        start = time.monotonic()
        try:
            result = extract_text(data, ocr=lang)
        except Exception as exc:
            print(f"{os.path.basename(path)}: {type(exc).__name__}: {exc}")
            continue
        seconds = time.monotonic() - start
        read = [p for p in result.pages if p.ocr]
        words = sum(p.ocr["words"] for p in read)
        mean = sum(p.ocr["mean_confidence"] * p.ocr["words"] for p in read) / max(1, words)
        rendered = sum(1 for p in read if p.ocr["rendered"])
        sample = " ".join(result.text.split()[:14])
        print(f"{os.path.basename(path)}: {len(read)}/{len(result.pages)} pages read ({rendered} rendered), "
              f"{words} words, mean confidence {mean:.0f}, {seconds / max(1, len(read)):.1f} s/page read; "
              f"still scan: {result.scan.pages if result.scan else []}; warnings: {result.warnings[:2]}\n    {sample}",
              flush=True)
    return 0


class ChromiumMemory:
    """The resident bytes of every Chromium process under this one, sampled in a thread."""

    def __init__(self):
        import threading

        import psutil

        self.psutil = psutil
        self.peak = 0
        self.running = True
        self.thread = threading.Thread(target=self._sample, daemon=True)
        self.thread.start()

    def now(self) -> int:
        total = 0
        for child in self.psutil.Process().children(recursive=True):
            try:
                if "chrom" in child.name():
                    total += child.memory_info().rss
            except self.psutil.Error:
                pass
        return total

    def cpu_seconds(self) -> float:
        """User and system CPU seconds of Chromium's processes so far (a figure the machine's load barely moves)."""
        total = 0.0
        for child in self.psutil.Process().children(recursive=True):
            try:
                if "chrom" in child.name():
                    times = child.cpu_times()
                    total += times.user + times.system
            except self.psutil.Error:
                pass
        return total

    def _sample(self):
        while self.running:
            self.peak = max(self.peak, self.now())
            time.sleep(0.2)

    def stop(self):
        self.running = False
        self.thread.join()


BROWSER_OCR = """async ([b64, lang]) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const marks = [];
    performance.clearMeasures();
    const start = performance.now();
    const result = await window.glyphline.extractText(bytes, {
        ocr: lang, onOcrProgress: () => marks.push(performance.now()) });
    const end = performance.now();
    const stages = {};
    for (const m of performance.getEntriesByType("measure")) {
        if (m.name.startsWith("glyphline ocr: ")) {
            const stage = m.name.slice(15);
            stages[stage] = (stages[stage] || 0) + m.duration / 1000;
        }
    }
    return { text: result.text, seconds: marks.length ? (end - marks[0]) / 1000 : null, pages: marks.length,
             total: (end - start) / 1000, stages };
}"""


def browser_rows(scans: list[tuple[str, str, int, bytes, str]], lang: str, dist: str | None) -> list[tuple]:
    """(case, codec, pages, text, s/page, MB before, peak, after, s/page from the call, Chromium CPU
    s/page, {stage: s/page}) for each scan, in one Chromium tab."""
    import base64

    from playwright.sync_api import sync_playwright

    sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests", "e2e"))
    from e2e_support import BOOT_TIMEOUT_MS, CHROMIUM_ARGS, READY_SELECTOR, StaticServer, find_chromium

    with tempfile.TemporaryDirectory() as tmp:
        if dist is None:
            dist = os.path.join(tmp, "dist")
            subprocess.run([sys.executable, os.path.join(os.path.dirname(HERE), "tools", "build_site.py"),
                            "--dist", dist], check=True, stdout=subprocess.DEVNULL)
        server = StaticServer(__import__("pathlib").Path(dist))
        rows = []
        with sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=find_chromium(), args=CHROMIUM_ARGS)
            page = browser.new_page()
            page.goto(server.url)
            page.locator(READY_SELECTOR).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)
            memory = ChromiumMemory()
            page.evaluate(BROWSER_OCR, [base64.b64encode(scans[0][3]).decode(), lang])   # warm-up
            for case, codec, pages, pdf, _ in scans:
                time.sleep(2)
                before = memory.now()
                memory.peak = before
                cpu = memory.cpu_seconds()
                got = page.evaluate(BROWSER_OCR, [base64.b64encode(pdf).decode(), lang], )
                cpu = memory.cpu_seconds() - cpu
                time.sleep(2)
                after = memory.now()
                per_page = max(1, got["pages"])
                rows.append((case, codec, pages, got["text"], got["seconds"] / per_page,
                             before / 1e6, memory.peak / 1e6, after / 1e6, got["total"] / per_page, cpu / per_page,
                             {stage: seconds / per_page for stage, seconds in got["stages"].items()}))
            memory.stop()
            browser.close()
        server.stop()
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", default=",".join(DEFAULT_CASES))
    parser.add_argument("--codecs", default="jpeg,g4,jbig2")
    parser.add_argument("--dpi", type=int, default=300)
    parser.add_argument("--lang", default="eng")
    parser.add_argument("--skew", type=float, default=SKEW_DEGREES, help="degrees (default %(default)s)")
    parser.add_argument("--keep", metavar="DIR", help="keep the scan PDFs and outputs here")
    parser.add_argument("--files", nargs="+", metavar="PDF", help="report on these files instead (no truth)")
    parser.add_argument("--browser", action="store_true", help="read the scans in the web app in Chromium")
    parser.add_argument("--dist", help="with --browser: a built site to serve (default: build one)")
    args = parser.parse_args()
    if args.files:
        return report_files(args.files, args.lang)
    sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests"))
    sys.path.insert(0, SCORER)
    from score import score_text

    from glyphline import extract_text

    rows = []
    scans = []   # for --browser: (case, codec, pages, pdf, truth)
    for case in args.cases.split(","):
        folder = os.path.join(CORPUS, case)
        with open(os.path.join(folder, "truth.txt"), encoding="utf-8") as f:
            truth = f.read()
        with tempfile.TemporaryDirectory() as tmp:
            rendered = render_pages(os.path.join(folder, "doc.pdf"), args.dpi, tmp)
            images = [(scanned(path, seed, args.skew), w, h) for seed, (path, w, h) in enumerate(rendered)]
            for codec in args.codecs.split(","):
                pages = []
                for image, page_w, page_h in images:
                    data, entries = encode(image, codec)
                    pages.append((data, entries, image.width, image.height, page_w, page_h))
                pdf = write_pdf(pages)
                if args.browser:
                    scans.append((case, codec, len(pages), pdf, truth))
                    continue
                start = time.monotonic()
                result = extract_text(pdf, ocr=args.lang)
                seconds = time.monotonic() - start
                score = score_text(truth, result.text)
                if args.keep:
                    os.makedirs(args.keep, exist_ok=True)
                    with open(os.path.join(args.keep, f"{case}-{codec}.pdf"), "wb") as f:
                        f.write(pdf)
                    with open(os.path.join(args.keep, f"{case}-{codec}.txt"), "w", encoding="utf-8") as f:
                        f.write(result.text)
                rows.append((case, codec, len(pages), score["word_f1"], score["order"], score["para_f1"],
                             seconds / len(pages), sum(p.ocr["words"] for p in result.pages if p.ocr),
                             any(p.ocr and p.ocr["rendered"] for p in result.pages)))
                print("%-24s %-6s pages %d  word F1 %.3f  order %.3f  para F1 %.3f  %.1f s/page  %d words%s"
                      % (rows[-1][:8] + (" (rendered)" if rows[-1][8] else "",)), flush=True)
    if scans:
        print("load average %.1f %.1f %.1f before the browser runs" % os.getloadavg(), flush=True)
        for (case, codec, pages, text, per_page, before, peak, after, whole, cpu,
             stages) in browser_rows(scans, args.lang, args.dist):
            truth = next(t for c, k, _, _, t in scans if (c, k) == (case, codec))
            score = score_text(truth, text)
            rows.append((case, codec, pages, score["word_f1"], score["order"], score["para_f1"], per_page))
            print("%-24s %-6s pages %d  word F1 %.3f  order %.3f  %.1f s/page (%.1f from the call, Chromium CPU %.1f s)"
                  "  Chromium %.0f MB → peak %.0f → %.0f MB"
                  % (case, codec, pages, score["word_f1"], score["order"], per_page, whole, cpu, before, peak, after),
                  flush=True)
            print("    stages (s/page): " + ", ".join("%s %.2f" % item for item in stages.items()), flush=True)
        print("load average %.1f %.1f %.1f after" % os.getloadavg(), flush=True)
    if rows:
        print("mean word F1 %.3f, mean order %.3f, mean %.1f s/page over %d runs"
              % (sum(r[3] for r in rows) / len(rows), sum(r[4] for r in rows) / len(rows),
                 sum(r[6] for r in rows) / len(rows), len(rows)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
