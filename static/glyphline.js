// Glyphline embedding module: PDF → text in a Web Worker, nothing leaves the browser.
//
//   import { extractText } from "./static/glyphline.js";
//   const result = await extractText(file, { mode: "reflow", onProgress: ({ page, pages }) => {}, signal });
//   result.text, result.pages, result.pageCount, result.scan, result.warnings
//   await extractText(file, { ocr: "eng" })   // pages without a text layer are recognised (./ocr.mjs)
//
// One long-lived worker (Pyodide + the engine) serves every call; calls run one at a time (a long
// document's pages are shared with helper workers that worker starts: worker/pool.mjs).

const WORKER_URL = new URL("../worker/start.mjs", import.meta.url);
const CANCEL_GRACE_MS = 3000; // a worker that cannot pause between pages is restarted after this

// the engine's modes, option defaults and error kinds, written by the site build from glyphline.options
export { ERROR_KINDS, MODES, DEFAULT_OPTIONS, EXTENSIONS } from "./engine.mjs";

/** A conversion that failed; `kind` is one of ERROR_KINDS. */
export class GlyphlineError extends Error {
  constructor(kind, message) {
    super(message || kind);
    this.name = "GlyphlineError";
    this.kind = kind;
  }
}

/** Start-up state of the worker: fires "change" events; `.state` is idle, loading, ready or failed. */
class Status extends EventTarget {
  constructor() {
    super();
    this.state = "idle";
    this.stage = null;
    this.done = 0;
    this.total = 0;
    this.timings = null;
    this.message = null;
    this.workerCreatedAt = null; // performance.now() when the worker was created (start-up benchmarks)
    this.readyAt = null; // performance.now() when the worker said ready (start-up benchmarks)
    this.snapshot = null; // after a first start: {stored, bytes, ms} of the snapshot kept for the next visit
  }

  update(fields) {
    Object.assign(this, fields);
    this.dispatchEvent(new Event("change"));
  }
}

export const status = new Status();

let worker = null;
let readyPromise = null;
let startGate = null; // deferStart(): the worker is not created before this settles
let workerCanPause = false; // from "ready": the worker sees "cancel" between pages
let nextId = 1;
const waiting = []; // jobs not yet sent to the worker
let current = null; // the job the worker is converting

// The worker the app page's first script started (static/register-sw.js, on a later visit) while
// this module was still loading, with the events it has had meanwhile; once, and only a worker of
// this same script
function takeEarlyWorker() {
  const early = globalThis.glyphlineEarlyWorker;
  globalThis.glyphlineEarlyWorker = null; // and none is started after this one (register-sw.js looks)
  if (!early) return null;
  if (early.url === WORKER_URL.href) return early;
  early.worker.terminate();
  return null;
}

function startWorker() {
  const early = takeEarlyWorker();
  worker = early ? early.worker : new Worker(WORKER_URL, { type: "module", name: "glyphline" });
  status.workerCreatedAt = early ? early.createdAt : performance.now();
  let resolveReady;
  let rejectReady;
  readyPromise = new Promise((resolve, reject) => { resolveReady = resolve; rejectReady = reject; });
  readyPromise.catch(() => {}); // observed through status and extractText, never unhandled
  status.update({ state: "loading", stage: "runtime", done: 0, total: 0, message: null });
  worker.onmessage = ({ data: message }) => {
    switch (message.type) {
      case "loading":
        status.update({ state: "loading", stage: message.stage, done: message.done, total: message.total });
        break;
      case "ready":
        workerCanPause = Boolean(message.canPause);
        status.update({ state: "ready", stage: null, timings: message.timings, readyAt: performance.now() });
        resolveReady();
        break;
      case "timings": // the start-up's last stages, after "ready"
        status.update({ timings: message.timings });
        break;
      case "snapshot":
        status.update({ snapshot: { stored: message.stored, bytes: message.bytes, taken: message.taken, ms: message.ms, error: message.error } });
        break;
      case "fatal":
        status.update({ state: "failed", message: message.message });
        rejectReady(new GlyphlineError("unavailable", message.message));
        failAll(new GlyphlineError("unavailable", message.message));
        break;
      default:
        onJobMessage(message);
    }
  };
  worker.onerror = (event) => {
    const text = event.message || "the worker could not start";
    status.update({ state: "failed", message: text });
    rejectReady(new GlyphlineError("unavailable", text));
    failAll(new GlyphlineError("unavailable", text));
  };
  if (early) for (const event of early.events) (event.type === "error" ? worker.onerror : worker.onmessage)(event);
}

function failAll(error) {
  const running = current;
  if (running) finish(running, () => running.reject(error));
  for (const job of waiting.splice(0)) { job.cleanup(); job.reject(error); }
}

/**
 * Holds the worker's start until `promise` settles (the app page waits for its service worker,
 * so that the big files are fetched once, through it). Calls made meanwhile wait in the queue.
 */
export function deferStart(promise) {
  const gate = Promise.resolve(promise).catch(() => {}).then(() => {
    if (startGate === gate) startGate = null;
  });
  startGate = gate;
}

/** Starts the worker now (page load) instead of on the first conversion; resolves when ready. */
export function preload() {
  if (worker) return readyPromise;
  if (startGate) {
    if (status.state === "idle") status.update({ state: "loading", stage: null, done: 0, total: 0, message: null });
    return startGate.then(() => preload());
  }
  startWorker();
  return readyPromise;
}

function finish(job, settle) {
  if (current === job) current = null;
  // a tesseract.js started for a first pass that failed or was cancelled
  const unused = job.ocrEngine;
  job.ocrEngine = null;
  if (unused) import("./ocr.mjs").then((ocr) => ocr.endEngine(unused)).catch(() => {});
  job.cleanup();
  settle();
  pump();
}

function onJobMessage(message) {
  const job = current;
  if (!job || message.id !== job.id) return;
  if (message.type === "ocr-images" && job.listOnly) {
    const pages = message.images.filter((image) => image.format === "render").map((image) => image.page);
    finish(job, () => job.resolve([...new Set(pages)]));
  } else if (message.type === "ocr-images") {
    ocrMeasured("first pass", job.passStart);
    recognise(job, message.images);
  } else if (message.type === "progress") {
    if (job.onProgress) job.onProgress({ page: message.page, pages: message.pages });
  } else if (message.type === "result") {
    if (job.ocrWords) ocrMeasured("second pass", job.passStart);
    const { type, id, ...result } = message;
    if (job.options.mode === "json") {
      try { result.json = JSON.parse(result.text.replace(/^\ufeff/, "")); } catch { /* text stays the answer */ }
    }
    finish(job, () => job.resolve(result));
  } else if (message.type === "error") {
    finish(job, () => job.reject(new GlyphlineError(message.kind, message.message)));
  } else if (message.type === "cancelled") {
    finish(job, () => job.reject(abortError(job.signal)));
  }
}

// an OCR stage's time, as ./ocr.mjs measures its own (bench/ocr.py reads them)
function ocrMeasured(stage, start) {
  try { performance.measure(`glyphline ocr: ${stage}`, { start }); } catch { /* no User Timing L3 */ }
}

function abortError(signal) {
  return (signal && signal.reason instanceof Error) ? signal.reason : new DOMException("The conversion was cancelled.", "AbortError");
}

async function toArrayBuffer(input) {
  if (input instanceof Blob) return input.arrayBuffer();
  // copies: the buffer is transferred to the worker, the caller's stays intact
  if (input instanceof ArrayBuffer) return input.slice(0);
  if (ArrayBuffer.isView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength).slice().buffer;
  throw new TypeError("extractText needs a File, Blob, ArrayBuffer or Uint8Array");
}

async function pump() {
  if (current || !waiting.length) return;
  const job = waiting.shift();
  current = job;
  try {
    const bytes = await toArrayBuffer(job.input);
    await preload();
    if (current !== job) return; // cancelled while reading or while the worker started
    if (job.listOnly) {
      worker.postMessage({ type: "ocr-images", id: job.id, bytes, options: job.options }, [bytes]);
      return;
    }
    if (job.options.ocr && !job.ocrWords) { // OCR's first pass: which images to recognise
      job.passStart = performance.now();
      worker.postMessage({ type: "ocr-images", id: job.id, bytes, options: job.options }, [bytes]);
      // tesseract.js starts (core and models load) while the engine lists the images
      job.ocrEngine = import("./ocr.mjs").then((ocr) => ocr.startEngine(job.options.ocr));
      job.ocrEngine.catch(() => {}); // reported by the recognition that awaits it
      return;
    }
    worker.postMessage({ type: "convert", id: job.id, bytes, options: job.options, ocrWords: job.ocrWords }, [bytes]);
  } catch (error) {
    if (current === job) finish(job, () => job.reject(error instanceof GlyphlineError || error instanceof TypeError ? error : new GlyphlineError("unavailable", String(error))));
  }
}

// OCR runs in tesseract.js's own worker (./ocr.mjs, loaded on first use), between the two passes
// (pages tesseract.js cannot read from their images are rendered there with pdf.js: format "render")
async function recognise(job, images) {
  job.recognising = true; // a cancel now is the signal's: ocr.mjs ends tesseract.js at once
  try {
    const { recogniseImages } = await import("./ocr.mjs");
    const needsPages = images.some((image) => image.format === "render");
    const engine = job.ocrEngine;
    job.ocrEngine = null; // recogniseImages ends it
    job.ocrWords = await recogniseImages(images, {
      languages: job.options.ocr, signal: job.signal, engine,
      onProgress: job.onOcrProgress,
      pdfBytes: needsPages ? new Uint8Array(await toArrayBuffer(job.input)) : undefined,
      password: job.options.password,
    });
    job.recognising = false;
    if (current !== job) return;
    const bytes = await toArrayBuffer(job.input);
    job.passStart = performance.now();
    worker.postMessage({ type: "convert", id: job.id, bytes, options: job.options, ocrWords: job.ocrWords }, [bytes]);
  } catch (error) {
    if (current !== job) return;
    if (job.signal && job.signal.aborted) finish(job, () => job.reject(abortError(job.signal)));
    else finish(job, () => job.reject(new GlyphlineError("failed", `OCR failed: ${error && error.message || error}`)));
  }
}

function cancel(job) {
  const index = waiting.indexOf(job);
  if (index >= 0) {
    waiting.splice(index, 1);
    job.cleanup();
    job.reject(abortError(job.signal));
    return;
  }
  if (current !== job || job.recognising) return;
  worker.postMessage({ type: "cancel", id: job.id });
  // a worker that cannot pause between pages would only see "cancel" at the end: restart it
  // (right away when it said so at start-up, else when it has not answered in time)
  job.graceTimer = setTimeout(() => {
    if (current !== job) return;
    worker.terminate();
    worker = null;
    status.update({ state: "idle" });
    finish(job, () => job.reject(abortError(job.signal)));
    preload().catch(() => {});
  }, workerCanPause ? CANCEL_GRACE_MS : 0);
}

/**
 * The pages OCR would render before reading them (their images are JBIG2 or JPEG 2000, in strips,
 * or drawn sideways: pdf.js draws them, an extra one-time download); nothing is recognised.
 * @param {File|Blob|ArrayBuffer|Uint8Array} input
 * @param {{pages?: string, password?: string, signal?: AbortSignal}} [options]
 * @returns {Promise<number[]>} page numbers
 */
export function ocrPagesToRender(input, { signal, ...engineOptions } = {}) {
  return queueJob(input, engineOptions, { signal, listOnly: true });
}

/**
 * Extracts the text of a PDF.
 * @param {File|Blob|ArrayBuffer|Uint8Array} input
 * @param {{mode?: "reflow"|"preserve"|"layout"|"json"|"markdown", pages?: string, markers?: boolean, pageBreaks?: boolean,
 *          dehyphenate?: boolean, annotations?: boolean, password?: string, bom?: boolean, order?: "auto"|"geometry"|"tags",
 *          ocr?: string, workers?: number,
 *          onProgress?: (p: {page: number, pages: number}) => void,
 *          onOcrProgress?: (p: {page: number, pages: number, pageNumber: number}) => void, signal?: AbortSignal}} [options]
 *          `ocr: "eng"` (or "deu", "eng+deu") recognises the pages without a text layer (onOcrProgress:
 *          before each, its ordinal among them, their count, its page number); the OCR files
 *          (about 7 MB) are fetched from the site on first use and cached by its service worker.
 *          `workers`: how many workers share a long document (default: the worker pool's size; 1: one).
 * @returns {Promise<{text: string, pageCount: number, pages: Array<{number: number, text: string,
 *          charCount: number, wordCount: number, warnings: string[]}>, charCount: number, wordCount: number,
 *          scan: null|{pages: number[]}, unmapped: null|{pages: number[]}, warnings: string[],
 *          seconds: number, json?: object}>} With mode "json", `json` is the parsed document
 *          (pages → blocks → lines → words with boxes; `text` holds the same as a string).
 */
export function extractText(input, options = {}) {
  const { onProgress, onOcrProgress, signal, ...engineOptions } = options;
  return queueJob(input, engineOptions, { onProgress, onOcrProgress, signal });
}

function queueJob(input, engineOptions, { onProgress, onOcrProgress, signal, listOnly = false }) {
  if (signal && signal.aborted) return Promise.reject(abortError(signal));
  return new Promise((resolve, reject) => {
    const job = { id: nextId++, input, options: engineOptions, onProgress, onOcrProgress, signal, resolve, reject,
                  graceTimer: null, ocrWords: null, listOnly };
    const onAbort = () => cancel(job);
    job.cleanup = () => {
      clearTimeout(job.graceTimer);
      if (signal) signal.removeEventListener("abort", onAbort);
    };
    if (signal) signal.addEventListener("abort", onAbort, { once: true });
    waiting.push(job);
    pump();
  });
}
