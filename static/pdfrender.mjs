// A page renderer in the tab: pdf.js (pinned pdfjs-dist, self-hosted in vendor/pdfjs/ by
// tools/build_site.py) draws one page to a canvas. Used where the engine's own page images are not
// enough (OCR of JBIG2, rotated or tiled scans) and for the layout inspector's page underlay.
// Loaded only when called; the service worker caches its files on first use (offline after).
//
// Every data path is our own site's: CMaps from cmaps/ (the same files, tools/build_site.py
// checks), fonts, ICC profile and the JBIG2/JPEG 2000/colour wasm from vendor/pdfjs/. pdf.js's
// worker is a same-origin module worker (the CSP allows 'self' only).

const BASE = new URL("../vendor/pdfjs/", import.meta.url);
const CMAPS = new URL("../cmaps/", import.meta.url);
const POINTS_PER_INCH = 72;
// a canvas larger than this is scaled down (an A4 page at 300 dpi is 8.7 Mpx; A0 would be 140 Mpx,
// 560 MB of RGBA): the caller reads the scale it got
const MAX_CANVAS_PIXELS = 40_000_000;

let library = null; // the pdf.js module and its one worker, loaded on first use
let opened = null; // {key, loading}: the last document, kept for the next page of the same bytes

async function pdfjs() {
  if (!library) {
    library = (async () => {
      const module = await import(new URL("pdf.min.mjs", BASE).href);
      module.GlobalWorkerOptions.workerSrc = new URL("pdf.worker.min.mjs", BASE).href;
      return { module, worker: new module.PDFWorker({ name: "glyphline-pdfrender" }) };
    })();
    library.catch(() => { library = null; }); // a failed load (offline, first use) is tried again next call
  }
  return library;
}

// the document for these bytes: opened once, while the caller keeps passing the same object
async function documentFor(pdfBytes) {
  if (opened && opened.key === pdfBytes) return opened.loading;
  await releaseDocument();
  const { module, worker } = await pdfjs();
  // pdf.js transfers the buffer to its worker: a copy, so the caller's bytes stay usable
  const data = pdfBytes instanceof ArrayBuffer ? new Uint8Array(pdfBytes.slice(0)) : new Uint8Array(pdfBytes);
  const task = module.getDocument({
    data,
    worker,
    cMapUrl: CMAPS.href,
    cMapPacked: true,
    standardFontDataUrl: new URL("standard_fonts/", BASE).href,
    wasmUrl: new URL("wasm/", BASE).href,
    iccUrl: new URL("iccs/", BASE).href,
    enableXfa: false,
    useSystemFonts: false, // the page looks the same on every machine
    verbosity: 0,
  });
  const loading = task.promise;
  opened = { key: pdfBytes, task, loading };
  loading.catch(() => { if (opened && opened.key === pdfBytes) opened = null; });
  return loading;
}

function newCanvas(width, height) {
  if (typeof OffscreenCanvas !== "undefined") return new OffscreenCanvas(width, height);
  const canvas = document.createElement("canvas");
  canvas.width = width;
  canvas.height = height;
  return canvas;
}

/** The number of pages of a PDF (bytes as Uint8Array or ArrayBuffer). */
export async function pageCount(pdfBytes) {
  return (await documentFor(pdfBytes)).numPages;
}

/**
 * Renders page `pageNumber` (1-based) at `dpi` on a white background. Returns {canvas, width,
 * height, scale}: scale is canvas pixels per PDF point (dpi / 72, lower when the page would exceed
 * MAX_CANVAS_PIXELS), and transform the [a, b, c, d, e, f] matrix from the page's user space to
 * canvas pixels (y down; page /Rotate and the crop box included).
 */
export async function renderPage(pdfBytes, pageNumber, { dpi = 150 } = {}) {
  const doc = await documentFor(pdfBytes);
  if (!Number.isInteger(pageNumber) || pageNumber < 1 || pageNumber > doc.numPages) {
    throw new RangeError(`page ${pageNumber} is not in this document (1 to ${doc.numPages})`);
  }
  const page = await doc.getPage(pageNumber);
  try {
    let scale = dpi / POINTS_PER_INCH;
    const unscaled = page.getViewport({ scale: 1 });
    const pixels = unscaled.width * unscaled.height * scale * scale;
    if (pixels > MAX_CANVAS_PIXELS) scale *= Math.sqrt(MAX_CANVAS_PIXELS / pixels);
    const viewport = page.getViewport({ scale });
    const width = Math.max(1, Math.floor(viewport.width));
    const height = Math.max(1, Math.floor(viewport.height));
    const canvas = newCanvas(width, height);
    const context = canvas.getContext("2d", { alpha: false });
    context.fillStyle = "#ffffff";
    context.fillRect(0, 0, width, height);
    await page.render({ canvasContext: context, canvas, viewport, background: "#ffffff" }).promise;
    return { canvas, width, height, scale, transform: [...viewport.transform] };
  } finally {
    page.cleanup();
  }
}

/** Frees the open document (and its memory in pdf.js's worker); the next call opens it again. */
export async function releaseDocument() {
  const previous = opened;
  opened = null;
  if (previous) await previous.task.destroy().catch(() => {});
}
