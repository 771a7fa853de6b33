// The Glyphline worker: boots Pyodide once, installs pypdf and the engine from same-origin
// wheels, then converts one file at a time through app.py (the Python side of the protocol).
//
//   page → worker  {type: "convert", id, bytes (ArrayBuffer, transferred), options}
//   page → worker  {type: "cancel", id}     seen between pages when canPause, else the page restarts the worker
//   page → worker  {type: "ocr-images", id, bytes, options}   OCR's first pass: the scan pages' images
//   worker → page  {type: "ocr-images", id, images: [{page, key, format, width, height, dpi, data}]}
//   (OCR's second pass is "convert" with ocrWords: {key: [{text, bbox, confidence, line, baseline, size}]})
//   worker → page  {type: "loading", stage, done, total}        start-up: bytes of the boot files so far
//   worker → page  {type: "ready", timings, canPause} | {type: "fatal", message}
//   worker → page  {type: "snapshot", stored, bytes, ms} | {type: "snapshot", stored: false, error}
//                  after a first start, when the memory snapshot for the next visits is stored
//   worker → page  {type: "progress", id, page, pages}          after every page
//   worker → page  {type: "result", id, text, pages, pageCount, ..., pool?: {workers, replaced}}
//                  | {type: "error", id, kind, message} | {type: "cancelled", id}
// A long document is shared with helper workers, this same script started by this worker under
// the name HELPER_NAME (the protocol between them: pool.mjs).
import { loadPyodide } from "../pyodide/pyodide.mjs";
import aesjs from "../vendor/aes-js.mjs";
import { BUILD } from "./build.mjs";
import { APP_MODULE, exposeAes, installApp, startPyodide, unpackWheels } from "./engine_setup.mjs";
import { HELPER_NAME, Pool, poolSize } from "./pool.mjs";

exposeAes(aesjs);
// a macrotask turn without setTimeout's clamping, so a queued "cancel" message gets delivered
self.glyphlineYield = () => new Promise((resolve) => {
  const channel = new MessageChannel();
  channel.port1.onmessage = () => resolve();
  channel.port2.postMessage(null);
});

const SITE = new URL("../", import.meta.url);
const PROGRESS_INTERVAL_MS = 100; // "loading" messages while bytes stream in, at most this often
// The memory snapshot taken on this machine after a normal boot (when the build ships none): kept
// in Cache Storage under a URL named by the build's id, so a new build never restores an old one
const SNAPSHOT_CACHE = "glyphline-snapshot"; // sw.js leaves this cache alone when it cleans up
const LOCAL_SNAPSHOT_URL = new URL(`snapshot/local-${BUILD.id}.snap`, SITE).href;
const SNAPSHOT_IMPORTS = "glyphline_snapshot_imports"; // every engine module, as the build's snapshot has them
const IS_HELPER = self.name === HELPER_NAME;
const timings = {};
const cancelled = new Set();
const queue = [];
let busy = false;

function post(message, transfer) {
  self.postMessage(message, transfer || []);
}

// ---------------------------------------------------------------- start-up progress
// The bar shows the real bytes of the real files: the build writes every boot file's size
// (BUILD.files), the total is the sum over the files this start-up will fetch, and `done`
// counts the bytes of each response body as it streams in (fetch is wrapped below, so the
// fetches Pyodide makes itself are counted too). A file fetched outside the plan (the normal
// boot after a failed snapshot) adds its size to the total when its fetch starts.
const loading = { stage: "runtime", done: 0, total: 0, planned: new Set(), lastPost: 0, active: true, fetched: [] };

function sitePath(input) {
  const url = new URL(input instanceof Request ? input.url : String(input), self.location.href);
  return url.href.startsWith(SITE.href) ? url.href.slice(SITE.href.length).split(/[?#]/)[0] : null;
}

function plan(paths) {
  for (const path of paths) {
    if (!loading.planned.has(path)) { loading.planned.add(path); loading.total += BUILD.files[path] || 0; }
  }
}

function unplan(path) {
  if (loading.planned.delete(path)) loading.total -= BUILD.files[path] || 0;
}

function reportLoading(force) {
  const now = performance.now();
  if (!loading.active || (!force && now - loading.lastPost < PROGRESS_INTERVAL_MS)) return;
  loading.lastPost = now;
  post({ type: "loading", stage: loading.stage, done: loading.done, total: loading.total });
}

function setStage(stage) {
  loading.stage = stage;
  reportLoading(true);
}

function arrived(path) {
  if (loading.planned.has(path)) loading.planned.delete(path);
  else loading.total += BUILD.files[path] || 0; // not in the plan: it still counts, at its real size
  loading.fetched.push(path);
}

function addBytes(count) {
  loading.done += count;
  reportLoading(loading.done >= loading.total);
}

const nativeFetch = self.fetch.bind(self);
self.fetch = async (input, init) => {
  const response = await nativeFetch(input, init);
  const path = sitePath(input);
  if (!loading.active || path === null || !(path in BUILD.files) || !response.ok || !response.body) return response;
  arrived(path);
  // a copy is read just to count its chunks as they arrive; the caller keeps the original
  // response (its URL lets the browser reuse the compiled wasm from its code cache)
  const reader = response.clone().body.getReader();
  (async () => {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) addBytes(chunk.value.byteLength);
  })().catch(() => {});
  return response;
};

// a module import is not a fetch: its bytes count when it has arrived
async function importCounted(path) {
  const module = await import(new URL(path, SITE).href);
  arrived(path);
  addBytes(BUILD.files[path] || 0);
  return module;
}

function toPlain(proxy) {
  const value = proxy.toJs({ dict_converter: Object.fromEntries, create_proxies: false });
  proxy.destroy();
  return value;
}

async function timed(name, work) {
  const start = performance.now();
  const value = await work();
  timings[name] = Math.round(performance.now() - start);
  return value;
}

async function fetchSnapshot() {
  const response = await self.fetch(new URL(`snapshot/${BUILD.snapshot}`, SITE));
  if (!response.ok) throw new Error(`snapshot: HTTP ${response.status}`);
  const raw = await new Response(response.body.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
  return new Uint8Array(raw);
}

// the snapshot an earlier visit took on this machine, or null (none yet, or no Cache Storage)
async function localSnapshot() {
  if (BUILD.snapshot || !self.caches) return null;
  try {
    const cache = await caches.open(SNAPSHOT_CACHE);
    const response = await cache.match(LOCAL_SNAPSHOT_URL);
    return response ? new Uint8Array(await response.arrayBuffer()) : null;
  } catch {
    return null; // storage blocked (private mode, quota): boot normally
  }
}

async function forgetLocalSnapshots() {
  try {
    const cache = await caches.open(SNAPSHOT_CACHE);
    for (const request of await cache.keys()) await cache.delete(request);
  } catch {} // nothing to forget
}

// The first start takes the memory snapshot for the next visits: every engine module imported
// (as the build's snapshot has them, so nothing is left to import from files a restore does not
// bring back), then the heap. Storing it in Cache Storage happens in the background; older
// builds' snapshots are dropped first.
async function takeSnapshot(pyodide) {
  const source = await (await self.fetch(new URL(`worker/${SNAPSHOT_IMPORTS}.py`, SITE))).text();
  pyodide.runPython(source);
  return pyodide.makeMemorySnapshot();
}

async function storeLocalSnapshot(bytes) {
  const start = performance.now();
  try {
    await forgetLocalSnapshots();
    const cache = await caches.open(SNAPSHOT_CACHE);
    await cache.put(LOCAL_SNAPSHOT_URL, new Response(bytes, { headers: { "Content-Type": "application/octet-stream" } }));
    timings.snapshotStored = Math.round(performance.now() - start);
    post({ type: "snapshot", stored: true, bytes: bytes.byteLength, ms: timings.snapshotStored });
  } catch (error) {
    timings.snapshotStoreError = String(error && error.message || error);
    post({ type: "snapshot", stored: false, error: timings.snapshotStoreError });
  }
}

// Pyodide's wasm exports a memory of fixed initial size (480 pages) and ignores INITIAL_MEMORY,
// but a snapshot taken after importing the engine holds a larger heap: grow the memory through
// malloc (which updates the runtime's views) before Pyodide copies the heap back.
function growingModuleFactory(createModule, heapBytes) {
  const chunk = 1 << 20;
  return async (moduleArg) => {
    const module = await createModule(moduleArg);
    for (let i = 0; module.HEAP8.length < heapBytes && i < heapBytes / chunk + 16; i++) module._malloc(chunk);
    if (module.HEAP8.length < heapBytes) throw new Error("could not grow the memory for the snapshot");
    return module;
  };
}

// the files every start fetches (Pyodide's module, wasm, stdlib and lock file); a snapshot
// start adds the snapshot, a normal boot the wheels and app.py
const RUNTIME_FILES = ["pyodide/pyodide.asm.mjs", "pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip", "pyodide/pyodide-lock.json"];
const BOOT_FILES = [...BUILD.wheels.map((name) => `wheels/${name}`), "app.py"];

// Restores a memory snapshot (engine already imported): the one the build shipped, else the one
// an earlier visit took on this machine. Any failure (another Pyodide build, an old browser, a
// missing or damaged file) falls back to a normal boot, which then takes a snapshot of its own.
async function startRuntime(indexURL, local) {
  // one import of Pyodide's module (counted), handed to loadPyodide so it does not load it again
  const createModule = importCounted("pyodide/pyodide.asm.mjs").then((module) => module.default);
  const restore = async (snapshot) => {
    const header = new Uint32Array(snapshot.buffer, snapshot.byteOffset, 4); // [magic, header bytes, ...]
    const createPyodideModule = growingModuleFactory(await createModule, snapshot.byteLength - header[1]);
    return startPyodide(loadPyodide, indexURL, { _loadSnapshot: snapshot, createPyodideModule });
  };
  const plainBoot = async (makeSnapshot) => startPyodide(loadPyodide, indexURL, {
    createPyodideModule: await createModule, _makeSnapshot: makeSnapshot,
  });
  if (BUILD.snapshot || local) {
    try {
      const pyodide = await restore(local || await fetchSnapshot());
      return { pyodide, restored: local ? "local" : "shipped", restore, plainBoot };
    } catch (error) {
      timings.snapshotError = String(error && error.message || error);
      if (local) await forgetLocalSnapshots(); // damaged or stale: the normal boot below replaces it
      else unplan(`snapshot/${BUILD.snapshot}`); // never arrived (or not all of it): the normal boot replaces it
      plan(BOOT_FILES);
      reportLoading(true);
    }
  }
  // a boot that is to be snapshotted (Pyodide then records how Python reaches JS objects)
  const snapshotAfter = !BUILD.snapshot && Boolean(self.caches) && !IS_HELPER; // a helper leaves it to the first worker
  return { pyodide: await plainBoot(snapshotAfter), restored: null, snapshotAfter, restore, plainBoot };
}

async function fetchWheel(name) {
  const response = await self.fetch(new URL(`wheels/${name}`, SITE));
  if (!response.ok) throw new Error(`wheels/${name}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

async function installEngine(pyodide, wheels, appSource) {
  unpackWheels(pyodide, wheels);
  installApp(pyodide, appSource);
}

async function boot() {
  // first, so that the bar's total is right from its first message
  const local = BUILD.snapshot ? null : await timed("snapshotRead", localSnapshot);
  plan(RUNTIME_FILES);
  if (BUILD.snapshot) plan([`snapshot/${BUILD.snapshot}`]);
  else if (!local) plan(BOOT_FILES);
  setStage("runtime");
  const indexURL = new URL("pyodide/", SITE).href;
  const runtime = await timed("runtime", () => startRuntime(indexURL, local));
  let pyodide = runtime.pyodide;
  timings.restored = Boolean(runtime.restored);
  timings.snapshot = runtime.restored || "none";
  if (runtime.restored) {
    // the start-up's bytes are all in: the background wheels below are not part of the bar
    timings.bootFiles = loading.fetched.slice();
    timings.bootBytes = loading.done;
    loading.active = false;
    // the heap came back with every engine module imported (the build imports them all), the
    // file system did not: the wheels' files are put back in the background, for anything that
    // still reads them, without holding up "ready" or the first file
    const start = performance.now();
    Promise.all(BUILD.wheels.map(fetchWheel)).then((wheels) => {
      unpackWheels(pyodide, wheels);
      timings.packages = Math.round(performance.now() - start);
    }).catch((error) => { timings.packagesError = String(error); });
  } else {
    setStage("packages");
    // unpacked, not loadPackage(): that one records the packages in Pyodide's JS state, which a
    // memory snapshot cannot hold ("Unexpected hiwire entry"); the wheels are pure Python
    const wheels = await timed("packages", () => Promise.all(BUILD.wheels.map(fetchWheel)));
    setStage("engine");
    const appSource = await (await self.fetch(new URL("app.py", SITE))).text();
    await installEngine(pyodide, wheels, appSource);
    if (runtime.snapshotAfter) {
      // every byte is in; the restore below reads the runtime's files again (from the cache),
      // which must not count twice
      timings.bootFiles = loading.fetched.slice();
      timings.bootBytes = loading.done;
      loading.active = false;
      // The snapshotting instance reaches JS through Pyodide's recording proxy, which breaks some
      // calls (aes-js: "Cannot create proxy with a non-object"), so this visit, too, runs on a
      // fresh instance restored from the snapshot it just took; a failure means a plain boot.
      try {
        const snapshot = await timed("snapshotTaken", () => takeSnapshot(pyodide));
        pyodide = await timed("snapshotRestored", () => runtime.restore(snapshot));
        await installEngine(pyodide, wheels, appSource); // the files, for anything that reads them
        timings.snapshot = "taken";
        storeLocalSnapshot(snapshot); // in the background; the page hears {type: "snapshot"}
      } catch (error) {
        timings.snapshotStoreError = String(error && error.message || error);
        post({ type: "snapshot", stored: false, error: timings.snapshotStoreError });
        pyodide = await runtime.plainBoot(false);
        await installEngine(pyodide, wheels, appSource);
      }
    }
  }
  if (loading.active) {
    timings.bootFiles = loading.fetched.slice();
    timings.bootBytes = loading.done;
    loading.active = false;
  }
  timings.bootTotal = loading.total;
  const app = await timed("import", () => pyodide.pyimport(APP_MODULE));
  app.use_site_cmaps(new URL("cmaps/", SITE).href, BUILD.cmaps || []);
  app.use_site_wordlists(new URL("wordlists/", SITE).href);
  timings.canPause = await canPause(pyodide);
  app.set_pause_supported(timings.canPause);
  // helpers start from the memory snapshot this worker started from (or just took), in about a
  // second; without one each would boot for seconds, longer than most documents take
  const pooled = !IS_HELPER && timings.snapshot !== "none";
  timings.poolSize = pooled ? poolSize() : 1;
  const pool = pooled ? new Pool(new URL(import.meta.url), timings.poolSize, poolCalls(pyodide, app)) : null;
  return { pyodide, app, pool };
}

// this worker's side of the pool (pool.mjs calls these; app.py's pool_* functions)
function poolCalls(pyodide, app) {
  return {
    open: (id, bytes, given) => {
      const options = pyodide.toPy(given);
      try {
        return toPlain(app.pool_open(id, bytes, options));
      } finally {
        options.destroy();
      }
    },
    analyse: async (id, pages, onPage, isCancelled) =>
      toPlain(await app.pool_analyse.callPromising(id, pages, onPage, isCancelled, false)),
    receive: (id, packed, missingFontData) => {
      const failed = app.pool_receive(id, packed, missingFontData || []);
      return failed ? toPlain(failed) : null;
    },
    finish: (id) => toPlain(app.pool_finish(id)),
    close: (id) => app.pool_close(id),
  };
}

// Can Python block on a promise (JSPI run_sync) so that "cancel" gets in between pages? Not in a
// browser without JSPI, nor after restoring a snapshot taken in Node (it remembers Node had none):
// the page then cancels by restarting the worker.
async function canPause(pyodide) {
  try {
    await pyodide.runPythonAsync("from pyodide.ffi import run_sync\nimport js\nrun_sync(js.glyphlineYield())");
    return true;
  } catch {
    return false;
  }
}

const booting = boot().then(
  (engine) => { post({ type: "ready", timings, canPause: timings.canPause }); return engine; },
  (error) => { post({ type: "fatal", message: String(error && error.message || error) }); throw error; },
);

async function convert(engine, job) {
  const { pyodide, app } = engine;
  // null would arrive as Python's jsnull, not None: leave such keys out, app.py has the defaults
  const given = Object.fromEntries(Object.entries(job.options || {}).filter(([, value]) => value != null));
  const options = pyodide.toPy(given);
  if (job.type === "ocr-images") {
    try {
      const message = toPlain(app.images_for_ocr(job.id, new Uint8Array(job.bytes), options));
      if (message.images) message.images.forEach((image) => { image.data = new Uint8Array(image.data); });
      return message;
    } finally {
      options.destroy();
    }
  }
  const ocrWords = job.ocrWords ? pyodide.toPy(job.ocrWords) : undefined;
  const reply = (message) => post(toPlain(message));
  try {
    if (engine.pool && !ocrWords && !given.ocr) {
      const message = await engine.pool.convert(job.id, job.bytes, given, post, () => cancelled.has(job.id));
      if (message) return message; // else too short for the pool: converted alone below
    }
    // callPromising lets app.py pause between pages (run_sync) so "cancel" can arrive
    const message = await app.convert.callPromising(
      job.id, new Uint8Array(job.bytes), options, reply, () => cancelled.has(job.id), ocrWords,
    );
    return toPlain(message);
  } finally {
    options.destroy();
    if (ocrWords) ocrWords.destroy();
  }
}

async function pump() {
  if (busy) return;
  busy = true;
  try {
    const engine = await booting;
    while (queue.length) {
      const job = queue.shift();
      if (cancelled.has(job.id)) {
        post({ type: "cancelled", id: job.id });
      } else {
        let message;
        try {
          message = await convert(engine, job);
        } catch (error) {
          message = { type: "error", id: job.id, kind: "failed", message: String(error && error.message || error) };
        }
        post(message);
      }
      cancelled.delete(job.id);
    }
  } catch (error) {
    for (const job of queue.splice(0)) post({ type: "error", id: job.id, kind: "failed", message: String(error) });
  } finally {
    busy = false;
  }
}

// ---------------------------------------------------------------- a helper's side of the pool
const closedPoolJobs = new Set(); // conversions the coordinator closed: their queued runs are dropped
const helperQueue = [];
let helperBusy = false;

async function helperStep({ pyodide, app }, message) {
  const { id } = message;
  if (message.type === "pool-close") {
    app.pool_close(id);
    return;
  }
  if (closedPoolJobs.has(id)) {
    if (message.type === "pool-analyse") post({ type: "cancelled", id });
    return;
  }
  if (message.type === "pool-open") {
    const given = Object.fromEntries(Object.entries(message.options || {}).filter(([, value]) => value != null));
    const options = pyodide.toPy(given);
    try {
      const opened = toPlain(app.pool_open(id, new Uint8Array(message.bytes), options));
      if (opened.type !== "pool-open") post(opened); // the coordinator opened it: cannot differ, but say so
    } finally {
      options.destroy();
    }
    return;
  }
  const answer = toPlain(await app.pool_analyse.callPromising(
    id, message.pages, () => post({ type: "pool-page", id }), () => closedPoolJobs.has(id), true,
  ));
  answer.heapBytes = pyodide._module.HEAPU8.buffer.byteLength; // the pool's report: memory per helper
  if (answer.packed) {
    const packed = answer.packed instanceof Uint8Array ? answer.packed : new Uint8Array(answer.packed);
    answer.packed = packed;
    post(answer, [packed.buffer]);
  } else {
    post(answer);
  }
}

async function helperPump() {
  if (helperBusy) return;
  helperBusy = true;
  try {
    const engine = await booting;
    while (helperQueue.length) await helperStep(engine, helperQueue.shift());
  } catch (error) {
    // the engine itself failed (not a page: app.py answers those): the coordinator replaces this helper
    setTimeout(() => { throw error; });
  } finally {
    helperBusy = false;
  }
}

self.onmessage = ({ data: message }) => {
  if (message.type === "pool-open" || message.type === "pool-analyse" || message.type === "pool-close") {
    if (message.type === "pool-close") closedPoolJobs.add(message.id);
    helperQueue.push(message);
    helperPump();
  } else if (message.type === "cancel") {
    cancelled.add(message.id);
    booting.then((engine) => engine.pool && engine.pool.nudge(), () => {}); // a pooled conversion may be waiting
  } else if (message.type === "convert" || message.type === "ocr-images") {
    queue.push(message);
    pump();
  }
};
