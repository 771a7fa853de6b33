// OCR in the tab: tesseract.js (self-hosted in vendor/tesseract/ by tools/build_site.py) reads the
// images of the pages without a text layer; the words go back to the engine, which lays them out
// like any other text (glyphline/content/ocr.py). Loaded only when a user asks for OCR.
//
// Every path is given: tesseract.js's defaults point at a CDN (and the site build rewrites them to
// same-origin ones). workerBlobURL false: no blob: worker (the CSP allows 'self' only); cacheMethod
// "none": the service worker caches the .gz, IndexedDB would keep a second, unpacked copy.

const BASE = new URL("../vendor/tesseract/", import.meta.url);
const OEM_LSTM_ONLY = 1; // the -lstm cores and the best_int models the site ships

/** The languages the site ships (tools/build_site.py OCR_FILES). */
export const OCR_LANGUAGES = ["eng", "deu"];
/** Bytes fetched on first use: the two scripts and one core (the largest), and each language's data
 * (tests/test_ocr_site.py checks them against the pinned packages). */
export const DOWNLOAD_BYTES = { base: 63220 + 111307 + 3905767, eng: 2952873, deu: 1333102 };

function abortError(signal) {
  return signal.reason instanceof Error ? signal.reason : new DOMException("OCR was cancelled.", "AbortError");
}

/**
 * Recognises images from the engine's first pass ({key, page, data, dpi, ...}); returns the words
 * by image key: {text, bbox: [x0, y0, x1, y1], confidence, line, baseline, size} in image pixels.
 */
export async function recogniseImages(images, { languages = "eng", signal, onProgress } = {}) {
  const words = {};
  if (!images.length) return words;
  const Tesseract = (await import(new URL("tesseract.esm.min.js", BASE).href)).default;
  const worker = await Tesseract.createWorker(String(languages).split("+"), OEM_LSTM_ONLY, {
    workerPath: new URL("worker.min.js", BASE).href,
    corePath: new URL("core/", BASE).href,
    langPath: new URL("lang", BASE).href.replace(/\/$/, ""),
    gzip: true,
    cacheMethod: "none",
    workerBlobURL: false,
  });
  try {
    for (const [index, image] of images.entries()) {
      if (signal && signal.aborted) throw abortError(signal);
      await worker.setParameters({ user_defined_dpi: String(Math.round(image.dpi || 300)) });
      try {
        const { data } = await worker.recognize(image.data, {}, { blocks: true, text: false });
        words[image.key] = wordsOf(data, image.key);
      } catch (error) {
        words[image.key] = []; // an image tesseract cannot read (JPEG 2000) costs its own words
      }
      if (onProgress) onProgress({ image: index + 1, images: images.length, page: image.page });
    }
  } finally {
    await worker.terminate();
  }
  return words;
}

// tesseract.js's blocks → paragraphs → lines → words, with each line's baseline and row height
function wordsOf(data, key) {
  const out = [];
  let lineNumber = 0;
  for (const block of data.blocks || []) {
    for (const paragraph of block.paragraphs || []) {
      for (const line of paragraph.lines || []) {
        lineNumber += 1;
        const base = line.baseline && line.baseline.has_baseline !== false ? line.baseline : null;
        // row height: the size tesseract's hOCR calls x_size (what the CPython engine reads)
        const row = line.rowAttributes || {};
        const size = row.row_height || row.rowHeight || null;
        for (const word of line.words || []) {
          const { x0, y0, x1, y1 } = word.bbox;
          const middle = (x0 + x1) / 2;
          const baseline = base && base.x1 !== base.x0
            ? base.y0 + (base.y1 - base.y0) * (middle - base.x0) / (base.x1 - base.x0)
            : null;
          out.push({ text: word.text, bbox: [x0, y0, x1, y1], confidence: word.confidence,
                     line: `${key}:${lineNumber}`, baseline, size });
        }
      }
    }
  }
  return out;
}
