// The worker pool: a long document's pages are analysed by this worker and by helper workers
// (the same worker.mjs, started as nested workers named HELPER_NAME, each restored from the same
// memory snapshot), then this worker runs the document-wide passes (app.py's pool_* calls), so
// the result is the one-worker result, byte for byte.
//
//   coordinator → helper  {type: "pool-open", id, bytes (ArrayBuffer, transferred), options}
//   coordinator → helper  {type: "pool-analyse", id, pages: [numbers]}   one run of pages at a time
//   coordinator → helper  {type: "pool-close", id}                       the conversion is over
//   helper → coordinator  {type: "pool-page", id}                        after every page (progress)
//   helper → coordinator  {type: "pool-pages", id, pages, packed (Uint8Array, transferred), missingFontData}
//                         | {type: "error", id, kind, message} | {type: "cancelled", id}
// A helper that fails (an uncaught error, a failed start) is replaced and its run of pages goes
// back in the queue; after MAX_REPLACEMENTS in one conversion the coordinator does the rest alone.

export const HELPER_NAME = "glyphline-helper";
// below this many selected pages the pool gains little: a helper's own opening of the file and
// the trip of its pages (1–4 ms a page to add) cost a few pages of analysis (20–70 ms each), and
// four runs per worker need pages to cut; the same floor as glyphline.parallel's MIN_PAGES_PER_WORKER
export const POOL_MIN_PAGES = 16;
const CHUNKS_PER_WORKER = 4; // several runs per worker, so that one slow run does not idle the others
// the two runs beside the point where the helpers and this worker meet, halved this many times
// toward it: the last runs handed out are a page or two, so the workers run out of pages together
const MEETING_SPLITS = 3;
const MAX_WORKERS = 8; // beyond this the document-wide passes and the packing dominate
// what one more worker takes: its wasm heap (52 MB after a long document) and its runtime; the
// browser's resident memory grew 197 MB with the first helper (bench/browser.py)
const MB_PER_EXTRA_WORKER = 200;
const MEMORY_SHARE = 0.25; // of the device's memory (navigator.deviceMemory), the most the helpers may take
const MAX_REPLACEMENTS = 2; // helpers replaced in one conversion before the coordinator goes on alone

/** How many workers convert one document: the cores, capped by memory; 1 means no pool. */
export function poolSize(nav = self.navigator) {
  const cores = nav.hardwareConcurrency || 1;
  const deviceMB = (nav.deviceMemory || 4) * 1024; // Chromium reports at most 8 (GB); others leave it out
  const byMemory = 1 + Math.floor((deviceMB * MEMORY_SHARE) / MB_PER_EXTRA_WORKER);
  return Math.max(1, Math.min(cores, MAX_WORKERS, byMemory));
}

/** `numbers` cut into at most `count` consecutive runs of near-equal length (glyphline.parallel.page_chunks). */
export function pageChunks(numbers, count) {
  count = Math.max(1, Math.min(count, numbers.length));
  const size = Math.floor(numbers.length / count);
  const extra = numbers.length % count;
  const chunks = [];
  let start = 0;
  for (let i = 0; i < count; i++) {
    const end = start + size + (i < extra ? 1 : 0);
    if (end > start) chunks.push(numbers.slice(start, end));
    start = end;
  }
  return chunks;
}

/**
 * The runs of pages of a pooled document, in page order: the helpers take runs from the start
 * and this worker from the end, so they meet about (workers - 1) / workers of the way. Near-equal
 * runs (pageChunks) on each side, but the two beside that point cut into runs that halve toward
 * it: with equal runs, the worker that ran out first waited up to a whole run for the other
 * (bench/browser.py's "waiting": 4-5 % of a pooled conversion on 2 workers).
 */
export function poolChunks(numbers, workers) {
  const meet = Math.round((numbers.length * (workers - 1)) / workers);
  const before = pageChunks(numbers.slice(0, meet), (workers - 1) * CHUNKS_PER_WORKER);
  const after = pageChunks(numbers.slice(meet), CHUNKS_PER_WORKER);
  const last = before.pop();
  const first = after.shift();
  return [...before, ...(last ? halving(last) : []),
    ...(first ? halving([...first].reverse()).map((run) => run.reverse()).reverse() : []), ...after];
}

/** `run` cut into runs that halve toward its end, MEETING_SPLITS times at most, none empty. */
function halving(run) {
  const runs = [];
  let start = 0;
  for (let i = 0; i < MEETING_SPLITS && run.length - start > 1; i++) {
    const size = Math.ceil((run.length - start) / 2);
    runs.push(run.slice(start, start + size));
    start += size;
  }
  if (start < run.length) runs.push(run.slice(start));
  return runs;
}

// start.mjs's: a helper (HELPER_NAME is among its WASM_POSTED_NAMES) waits for {type: WASM_MESSAGE,
// module} (a WebAssembly.Module, or null: none) instead of compiling Pyodide's wasm itself
const WASM_MESSAGE = "glyphline-wasm";

class Helper {
  /** `wasm`: the promise of the coordinator's compiled wasm module, handed on (none: the helper compiles its own). */
  constructor(url, onEvent, wasm) {
    this.worker = new Worker(url, { type: "module", name: HELPER_NAME });
    const send = (module) => this.worker.postMessage({ type: WASM_MESSAGE, module });
    Promise.resolve(wasm).then((module) => {
      try { send(module || null); } catch { send(null); } // a module that cannot be cloned here: the helper compiles
    }, () => send(null));
    this.state = "booting"; // booting | idle | busy | dead
    this.opened = null; // the conversion whose document this helper holds
    this.chunk = null; // the run of pages it is analysing
    this.worker.onmessage = ({ data }) => onEvent(this, data);
    this.worker.onerror = (event) => {
      event.preventDefault();
      onEvent(this, { type: "died", message: event.message || "the helper worker failed" });
    };
  }

  post(message, transfer) {
    this.worker.postMessage(message, transfer || []);
  }

  kill() {
    this.state = "dead";
    this.worker.terminate();
  }
}

export class Pool {
  /** `calls`: this worker's app.py pool functions, wrapped (see worker.mjs); `wasm`: the promise
   *  of the compiled Pyodide wasm module this worker runs, or null: each helper gets it, no compile of its own. */
  constructor(workerUrl, size, calls, wasm = null) {
    this.url = workerUrl;
    this.wasm = wasm;
    this.size = size;
    this.calls = calls;
    this.helpers = [];
    this.job = null; // the conversion in progress: its chunks, counters, and how to wake the loop
  }

  /** Helpers up to `workers` - 1, started now (they boot while this worker starts on the pages). */
  fill(workers) {
    this.helpers = this.helpers.filter((helper) => helper.state !== "dead");
    while (this.helpers.length < workers - 1) this.helpers.push(new Helper(this.url, (h, m) => this.onEvent(h, m), this.wasm));
  }

  onEvent(helper, message) {
    if (helper.state === "dead") return; // replaced already: a failed start says so twice
    const job = this.job;
    if (message.type === "ready") {
      helper.state = "idle";
    } else if (message.type === "fatal" || message.type === "died") {
      this.replace(helper);
      return;
    } else if (!job || message.id !== job.id) {
      if (["pool-pages", "error", "cancelled"].includes(message.type) && helper.state === "busy") {
        helper.chunk = null; // a late answer for a conversion that is over: the helper is free again
        helper.state = "idle";
      }
    } else if (message.type === "pool-page") {
      if (helper.chunk) helper.chunk.progressed++;
      job.pageDone();
    } else if (message.type === "pool-pages") {
      job.arrived.push({ chunk: helper.chunk, message });
      helper.chunk = null;
      helper.state = "idle";
    } else if (message.type === "error") {
      job.failure = message;
    } else if (message.type === "cancelled") {
      if (helper.chunk) job.requeue(helper.chunk); // it stopped short (it cannot have been told to): redone
      helper.chunk = null;
      helper.state = "idle";
    } else {
      return; // start-up progress of a helper: not the page's business
    }
    if (job) {
      this.hand();
      job.wake();
    }
  }

  /** Wakes the conversion's loop, which is waiting for helpers, to see a cancel. */
  nudge() {
    if (this.job) this.job.wake();
  }

  replace(helper) {
    const job = this.job;
    helper.kill();
    if (job && helper.chunk) {
      job.requeue(helper.chunk);
      helper.chunk = null;
    }
    if (job) {
      job.replaced++;
      if (job.replaced <= MAX_REPLACEMENTS) this.fill(job.workers);
      job.wake();
    } else {
      this.helpers = this.helpers.filter((h) => h !== helper); // replaced when the next long document comes
    }
  }

  /**
   * Converts one document with the pool; null when it is too short to be worth it (the caller
   * converts it alone). `options`: the page's, a plain object; its `workers` (a number) asks
   * for that many workers instead of the pool's size. Returns convert's final message, with
   * `pool: {workers, replaced, ...where the time went}` on a result.
   */
  async convert(id, bytes, options, post, isCancelled) {
    const asked = Math.floor(Number(options.workers));
    const workers = asked >= 1 ? Math.min(asked, MAX_WORKERS) : this.size;
    if (workers < 2) return null;
    const opened = this.calls.open(id, new Uint8Array(bytes), options);
    if (opened.type !== "pool-open") return opened;
    if (opened.pages.length < POOL_MIN_PAGES) {
      this.calls.close(id);
      return null;
    }
    this.fill(workers);
    const total = opened.pages.length;
    const chunks = poolChunks(opened.pages, workers)
      .map((pages) => ({ pages, state: "pending", progressed: 0 })); // pending | helper | own | done
    let done = 0;
    let shown = 0;
    let wakeUp = null;
    const job = this.job = {
      id, bytes, options, workers, chunks, arrived: [], failure: null, replaced: 0,
      // where the time went (ms), for bench/browser.py: this worker's pages, the helpers' (as they
      // report), adding the helpers' pages here, waiting for them, the document-wide passes
      report: { own: 0, ownPages: 0, helpers: 0, helperPages: 0, receive: 0, waiting: 0, finish: 0, helperHeapMB: 0 },
      wake() { if (wakeUp) { wakeUp(); wakeUp = null; } },
      pageDone() {
        done++;
        if (done > shown) { shown = done; post({ type: "progress", id, page: done, pages: total }); }
      },
      requeue(chunk) { done -= chunk.progressed; chunk.progressed = 0; chunk.state = "pending"; },
    };
    const sleep = () => new Promise((resolve) => { wakeUp = resolve; });
    try {
      for (;;) {
        if (isCancelled()) return { type: "cancelled", id };
        if (job.failure) return job.failure;
        for (const { chunk, message } of job.arrived.splice(0)) {
          const start = performance.now();
          const failed = this.calls.receive(id, message.packed, message.missingFontData);
          if (failed) return failed;
          chunk.state = "done";
          job.report.receive += performance.now() - start;
          job.report.helpers += message.seconds * 1000;
          job.report.helperPages += chunk.pages.length;
          job.report.helperHeapMB = Math.max(job.report.helperHeapMB, (message.heapBytes || 0) / 2 ** 20);
        }
        if (chunks.every((chunk) => chunk.state === "done")) break;
        this.hand();
        // this worker takes runs from the end, the helpers from the start
        const own = chunks.findLast((chunk) => chunk.state === "pending");
        if (own) {
          own.state = "own";
          const start = performance.now();
          const message = await this.calls.analyse(id, own.pages, () => { own.progressed++; job.pageDone(); }, isCancelled);
          if (message.type !== "pool-pages") return message; // cancelled, or the page's error
          own.state = "done";
          job.report.own += performance.now() - start;
          job.report.ownPages += own.pages.length;
        } else {
          const start = performance.now();
          await sleep();
          job.report.waiting += performance.now() - start;
        }
      }
      const start = performance.now();
      const result = this.calls.finish(id);
      job.report.finish = performance.now() - start;
      if (result.type === "result") {
        const ms = Object.fromEntries(Object.entries(job.report).map(([key, value]) => [key, Math.round(value)]));
        result.pool = { workers, replaced: job.replaced, ...ms };
      }
      return result;
    } finally {
      this.job = null;
      this.calls.close(id);
      for (const helper of this.helpers) {
        if (helper.opened === id && helper.state !== "dead") helper.post({ type: "pool-close", id });
        if (helper.opened === id) helper.opened = null;
      }
    }
  }

  // every idle helper gets the next pending run from the start (and the document first)
  hand() {
    const job = this.job;
    if (!job) return;
    for (const helper of this.helpers.filter((h) => h.state !== "dead").slice(0, job.workers - 1)) {
      if (helper.state !== "idle") continue;
      const chunk = job.chunks.find((c) => c.state === "pending");
      if (!chunk) return;
      if (helper.opened !== job.id) {
        const copy = job.bytes.slice(0);
        helper.post({ type: "pool-open", id: job.id, bytes: copy, options: job.options }, [copy]);
        helper.opened = job.id;
      }
      chunk.state = "helper";
      helper.chunk = chunk;
      helper.state = "busy";
      helper.post({ type: "pool-analyse", id: job.id, pages: chunk.pages });
    }
  }
}
