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
//   worker → page  {type: "snapshot", stored, bytes, taken, ms} | {type: "snapshot", stored: false, error}
//                  after a first start, when the memory snapshot for the next visits is stored
//                  (taken by this same script started under SNAPSHOTTER_NAME once this one is
//                  ready and idle, so that the snapshot costs the first start nothing)
// timings.stages: when each start-up stage ended, in ms since this worker started
// (timings.workerOrigin: its performance.timeOrigin, to place them on the page's clock).
//   worker → page  {type: "progress", id, page, pages}          after every page
//   worker → page  {type: "result", id, text, pages, pageCount, ..., pool?: {workers, replaced}}
//                  | {type: "error", id, kind, message} | {type: "cancelled", id}
// A long document is shared with helper workers, this same script started by this worker under
// the name HELPER_NAME (the protocol between them: pool.mjs).
import { loadPyodide } from "../pyodide/pyodide.mjs";
import aesjs from "../vendor/aes-js.mjs";
import { BUILD } from "./build.mjs";
import {
  APP_MODULE, bootForSnapshot, exposeAes, installApp, packSnapshot, startPyodide, unpackSnapshot, unpackWheels,
} from "./engine_setup.mjs";
import { HELPER_NAME, Pool, poolSize } from "./pool.mjs";

// when this module's body started: its own fetch and its static imports' are all done by then
const MODULE_RAN_AT = performance.now();
exposeAes(aesjs);
// a macrotask turn without setTimeout's clamping, so a queued "cancel" message gets delivered
self.glyphlineYield = () => new Promise((resolve) => {
  const channel = new MessageChannel();
  channel.port1.onmessage = () => resolve();
  channel.port2.postMessage(null);
});

const SITE = new URL("../", import.meta.url);
// every worker of this app starts with start.mjs, which imports this module (and the snapshot's
// look-up, begun before this module arrived: self.glyphlineStart)
const WORKER_URL = new URL("start.mjs", import.meta.url);
const START = self.glyphlineStart || null;
const PROGRESS_INTERVAL_MS = 100; // "loading" messages while bytes stream in, at most this often
const IDLE_RETRY_MS = 50; // background work that found a conversion running looks again after this
// The memory snapshot taken on this machine after a normal boot (when the build ships none): kept
// in Cache Storage under a URL named by the build's id, so a new build never restores an old one
const SNAPSHOT_CACHE = "glyphline-snapshot"; // sw.js leaves this cache alone when it cleans up
const LOCAL_SNAPSHOT_URL = new URL(`snapshot/local-${BUILD.id}.snap`, SITE).href;
const SNAPSHOT_IMPORTS = "glyphline_snapshot_imports"; // every engine module, as the build's snapshot has them
const IS_HELPER = self.name === HELPER_NAME;
const SNAPSHOTTER_NAME = "glyphline-snapshotter";
const IS_SNAPSHOTTER = self.name === SNAPSHOTTER_NAME;
const stages = {};
const timings = { workerOrigin: performance.timeOrigin, stages };
if (START) stages["worker started"] = Math.round(START.ranAt);
stages["worker module ran"] = Math.round(MODULE_RAN_AT);
const cancelled = new Set();
const queue = [];
let busy = false;

function post(message, transfer) {
  self.postMessage(message, transfer || []);
}

// the end of a start-up stage, in ms since this worker started (the first time only)
// (also a performance mark "glyphline: <stage>", for traces: DevTools' Performance panel, bench)
function stamp(stage) {
  if (stage in stages) return;
  stages[stage] = Math.round(performance.now());
  performance.mark(`glyphline: ${stage}`);
}

// ---------------------------------------------------------------- start-up progress
// The bar shows the real bytes of the real files: the build writes every boot file's size
// (BUILD.files), the total is the sum over the files this start-up will fetch, and `done`
// counts the bytes of each response body as it streams in (fetch is wrapped below, so the
// fetches Pyodide makes itself are counted too). A file fetched outside the plan (the normal
// boot after a failed snapshot) adds its size to the total when its fetch starts.
// (`shown`: false until the plan is complete, so that every message carries the one total)
const loading = { stage: "runtime", done: 0, total: 0, planned: new Set(), lastPost: 0, active: true, shown: false, fetched: [] };

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
  if (!loading.active || !loading.shown || (!force && now - loading.lastPost < PROGRESS_INTERVAL_MS)) return;
  loading.lastPost = now;
  post({ type: "loading", stage: loading.stage, done: loading.done, total: loading.total });
}

function setStage(stage) {
  loading.stage = stage;
  loading.shown = true;
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

// A boot file the service worker has cached is read from Cache Storage here, without the round
// trip through the service worker's fetch event (which may first have to start that worker, then
// streams the body across to this one); anything else, or a miss, is an ordinary fetch.
async function cachedBootFile(path, init) {
  if (!self.caches || (init && init.method && init.method !== "GET")) return null;
  try {
    const hit = await caches.match(new URL(path, SITE).href, { ignoreSearch: true });
    return hit && hit.ok ? hit : null;
  } catch {
    return null; // storage blocked: the network path below
  }
}

const nativeFetch = self.fetch.bind(self);
async function fetchCounted(input, init) {
  const path = sitePath(input);
  const cached = path !== null && path in BUILD.files ? await cachedBootFile(path, init) : null;
  const response = cached || await nativeFetch(input, init);
  if (!loading.active || path === null || !(path in BUILD.files) || !response.ok || !response.body) return response;
  // a copy is read just to count its chunks as they arrive; the caller keeps the original
  // response (its URL lets the browser reuse the compiled wasm from its code cache)
  countBody(path, response.clone());
  return response;
}

// reads a boot file's body only to count its bytes as they arrive
function countBody(path, response) {
  arrived(path);
  const reader = response.body.getReader();
  (async () => {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) addBytes(chunk.value.byteLength);
    stamp(`fetched ${path}`);
  })().catch(() => {});
}

// The runtime's files every start needs, asked for the moment this worker starts (see boot),
// each handed to the first fetch of it (Pyodide's own, which would otherwise only start once
// the snapshot is looked up and loadPyodide has got that far)
const earlyResponses = new Map(); // site path → its response's promise, until it is taken
function fetchEarly(paths) {
  for (const path of paths) {
    const response = fetchCounted(new URL(path, SITE));
    response.catch(() => {}); // the fetch that takes it hears of a failure
    earlyResponses.set(path, response);
  }
}

// Pyodide's wasm, compiled from the moment its early response is there, beside the snapshot's read
// and the import of pyodide.asm.mjs: Pyodide itself would start compiling it only once the snapshot
// is read (loadPyodide awaits the snapshot before it creates the module, whose instantiateWasm
// starts the compile). Pyodide's instantiateStreaming of that same response (the promise self.fetch
// handed it) gets this compiled module, instantiated with Pyodide's imports; a failed compile hands
// Pyodide an ordinary fetch, as if nothing had been compiled ahead.
const WASM_PATH = "pyodide/pyodide.asm.wasm";
const nativeInstantiateStreaming = WebAssembly.instantiateStreaming && WebAssembly.instantiateStreaming.bind(WebAssembly);
// (start.mjs compiles it from its Cache Storage copy before this module has even arrived: that
// response, whose body is then read here only to count it, stands for it in Pyodide's fetch; or
// it was compiled by the page, or by the coordinator for a helper, and posted: {module}, no bytes
// read here, an empty response stands for it)
const WASM_AHEAD = START ? START.wasm : null; // start.mjs's: the promise of {response, compiled} or {module}, or of null
let wasmModule = null; // the promise of the module Pyodide was given (posted on to the pool's helpers)
function compileEarly() {
  if (!WebAssembly.compileStreaming || !nativeInstantiateStreaming) return;
  let response;
  let compiled;
  if (WASM_AHEAD) {
    const ahead = WASM_AHEAD.then((found) => {
      if (!found) return null;
      if (found.module) {
        if (loading.active) { arrived(WASM_PATH); addBytes(BUILD.files[WASM_PATH] || 0); }
        return { response: new Response(null), compiled: found.module };
      }
      if (loading.active) countBody(WASM_PATH, found.response);
      else found.response.body.cancel();
      return found;
    });
    ahead.catch(() => {});
    response = ahead.then((found) => found ? found.response : fetchCounted(new URL(WASM_PATH, SITE)));
    earlyResponses.set(WASM_PATH, response);
    compiled = ahead.then((found) => found ? found.compiled : WebAssembly.compileStreaming(response));
  } else {
    response = earlyResponses.get(WASM_PATH);
    if (!response) return;
    compiled = WebAssembly.compileStreaming(response);
  }
  compiled.then(() => {
    if (START && START.wasmFrom === "posted") stamp("wasm posted"); // compiled by whoever started this worker
    stamp("wasm compiled");
  }, () => {});
  wasmModule = compiled;
  WebAssembly.instantiateStreaming = async (source, imports) => {
    if (source !== response) return nativeInstantiateStreaming(source, imports);
    WebAssembly.instantiateStreaming = nativeInstantiateStreaming; // one use
    if (START && START.wasmNeeded) START.wasmNeeded(); // a module still to be posted is waited for no longer
    let module;
    try {
      module = await compiled;
    } catch {
      return nativeInstantiateStreaming(nativeFetch(new URL(WASM_PATH, SITE)), imports);
    }
    return { module, instance: await WebAssembly.instantiate(module, imports) };
  };
}

self.fetch = (input, init) => {
  const path = sitePath(input);
  const early = path !== null && (!init || !init.method || init.method === "GET") ? earlyResponses.get(path) : undefined;
  if (!early) return fetchCounted(input, init);
  earlyResponses.delete(path);
  return early;
};

// a module import is not a fetch: its bytes count when it has arrived
async function importCounted(path) {
  const module = await import(new URL(path, SITE).href);
  stamp(`imported ${path}`);
  arrived(path);
  addBytes(BUILD.files[path] || 0);
  return module;
}

// this worker's module imports (the worker's own script is not among them): when each fetch
// started and ended, in ms since this worker started, "path start-end"
function moduleFetches() {
  return performance.getEntriesByType("resource")
    .filter((entry) => /\.mjs$/.test(sitePath(entry.name) || ""))
    .map((entry) => `${sitePath(entry.name)} ${Math.round(entry.startTime)}-${Math.round(entry.responseEnd)}`);
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

// the snapshot an earlier visit took on this machine, or null (none yet, or no Cache Storage):
// found at once, {bytes} the promise of its bytes, read while Pyodide fetches and compiles its
// runtime (wrapped: an async function returning the bare promise would wait for the read)
async function localSnapshot() {
  if (BUILD.snapshot || !self.caches) return null;
  const early = START ? await START.snapshot : undefined;
  if (early === null) return null; // none stored
  if (early && early.url === LOCAL_SNAPSHOT_URL) return storedSnapshotRead(early.buffer);
  // an older build's (its bytes are dropped) or no look-up ahead: looked up here
  try {
    const cache = await caches.open(SNAPSHOT_CACHE);
    stamp("snapshot cache opened");
    const response = await cache.match(LOCAL_SNAPSHOT_URL);
    return response ? storedSnapshotRead(response.arrayBuffer()) : null;
  } catch {
    return null; // storage blocked (private mode, quota): boot normally
  }
}

// {bytes: the promise of the snapshot} from the promise of its stored (packed) copy's bytes
function storedSnapshotRead(buffer) {
  const bytes = buffer.then((read) => {
    stamp("snapshot read");
    return unpackSnapshot(new Uint8Array(read));
  });
  bytes.catch(() => {}); // a failed read fails the restore, which then boots normally
  return { bytes };
}

async function forgetLocalSnapshots() {
  try {
    const cache = await caches.open(SNAPSHOT_CACHE);
    for (const request of await cache.keys()) await cache.delete(request);
  } catch {} // nothing to forget
}

async function fetchText(path) {
  const response = await self.fetch(new URL(path, SITE));
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  return response.text();
}

// The snapshotter (this script under SNAPSHOTTER_NAME, started by a first start once it is
// ready): a Pyodide of its own that records how Python reaches JS objects (which breaks some
// calls, e.g. aes-js: "Cannot create proxy with a non-object", so the converting worker never is
// one), the engine installed and every module imported (as the build's snapshot has them, so
// nothing is left to import from files a restore does not bring back), then the heap, stored in
// Cache Storage after older builds' snapshots are dropped. Its one message: {type: "snapshot"}.
async function takeLocalSnapshot() {
  loading.active = false; // nobody shows this worker's bytes
  const start = performance.now();
  try {
    const [createPyodideModule, wheels, appSource, preimport] = await Promise.all([
      import("../pyodide/pyodide.asm.mjs").then((module) => module.default),
      Promise.all(BUILD.wheels.map(fetchWheel)), fetchText("app.py"), fetchText(`worker/${SNAPSHOT_IMPORTS}.py`),
    ]);
    const indexURL = new URL("pyodide/", SITE).href;
    const pyodide = await bootForSnapshot(loadPyodide, indexURL, wheels, appSource, preimport, { createPyodideModule });
    const snapshot = pyodide.makeMemorySnapshot();
    const bytes = packSnapshot(snapshot); // its runs of zeros left out: a warm start reads the rest
    const taken = Math.round(performance.now() - start);
    const storing = performance.now();
    await forgetLocalSnapshots();
    const cache = await caches.open(SNAPSHOT_CACHE);
    await cache.put(LOCAL_SNAPSHOT_URL, new Response(bytes, { headers: { "Content-Type": "application/octet-stream" } }));
    post({ type: "snapshot", stored: true, bytes: bytes.byteLength, heapBytes: snapshot.byteLength, taken,
           ms: Math.round(performance.now() - storing) });
  } catch (error) {
    post({ type: "snapshot", stored: false, error: String(error && error.message || error) });
  }
}

// Pyodide's wasm exports a memory of fixed initial size (480 pages) and ignores INITIAL_MEMORY,
// but a snapshot taken after importing the engine holds a larger heap: grow the memory through
// malloc (which updates the runtime's views) before Pyodide copies the heap back. loadPyodide
// sets INITIAL_MEMORY to the snapshot's length (its heap and a small header) before it calls this.
function growingModuleFactory(createModulePromise) {
  const chunk = 1 << 20;
  return async (moduleArg) => {
    const heapBytes = moduleArg.INITIAL_MEMORY;
    const module = await (await createModulePromise)(moduleArg);
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
async function startRuntime(indexURL, local, createModule) {
  // the snapshot (bytes, or the promise of them) is awaited by loadPyodide after it has started
  // fetching the wasm, the stdlib and the lock file, so the reads overlap
  const restore = (snapshot) => startPyodide(loadPyodide, indexURL, {
    _loadSnapshot: snapshot, createPyodideModule: growingModuleFactory(createModule),
  });
  // the module is awaited inside: loadPyodide starts its fetches before it calls this
  const plainBoot = () => startPyodide(loadPyodide, indexURL, {
    createPyodideModule: async (settings) => (await createModule)(settings),
  });
  if (BUILD.snapshot || local) {
    try {
      // a shipped snapshot may be missing: known before loadPyodide starts, so the normal boot
      // after it takes the runtime's files already asked for, nothing fetched twice (a local
      // one is there, its bytes read alongside)
      const pyodide = await restore(local ? local.bytes : await fetchSnapshot());
      return { pyodide, restored: local ? "local" : "shipped" };
    } catch (error) {
      timings.snapshotError = String(error && error.message || error);
      if (local) await forgetLocalSnapshots(); // damaged or stale: the normal boot below replaces it
      else unplan(`snapshot/${BUILD.snapshot}`); // never arrived (or not all of it): the normal boot replaces it
      plan(BOOT_FILES);
      reportLoading(true);
    }
  }
  // a start with no snapshot to restore has one taken once it is ready (a helper leaves that to the first worker)
  const snapshotAfter = !BUILD.snapshot && Boolean(self.caches) && !IS_HELPER;
  return { pyodide: await plainBoot(), restored: null, snapshotAfter };
}

async function fetchWheel(name) {
  const response = await self.fetch(new URL(`wheels/${name}`, SITE));
  if (!response.ok) throw new Error(`wheels/${name}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

function installEngine(pyodide, wheels, appSource) {
  unpackWheels(pyodide, wheels);
  installApp(pyodide, appSource);
  stamp("engine installed");
}

async function boot() {
  // at once: the look-up of a snapshot taken here (its bytes are read from the moment it is
  // found) and the runtime's files (every start needs them, whatever the look-up finds)
  const lookup = BUILD.snapshot ? null : timed("snapshotLookup", localSnapshot);
  plan(RUNTIME_FILES);
  fetchEarly(RUNTIME_FILES.filter((path) => path !== "pyodide/pyodide.asm.mjs" && !(WASM_AHEAD && path === WASM_PATH)));
  compileEarly();
  // the bar's first message waits for the look-up, so that its total is right from the start
  const local = await lookup;
  stamp("snapshot looked up");
  // one import of Pyodide's module (counted), handed to loadPyodide so it does not load it
  // again; after the look-up, which its parsing (a 1.2 MB script, on this thread) would hold up
  const createModule = importCounted("pyodide/pyodide.asm.mjs").then((module) => module.default);
  createModule.catch(() => {}); // awaited by the runtime's start, which reports it
  if (BUILD.snapshot) plan([`snapshot/${BUILD.snapshot}`]);
  else if (!local) plan(BOOT_FILES);
  setStage("runtime");
  // with no snapshot to restore, the engine's files come in beside the runtime
  const engineFiles = () => Promise.all([Promise.all(BUILD.wheels.map(fetchWheel)), fetchText("app.py")]);
  const early = BUILD.snapshot || local ? null : engineFiles();
  if (early) early.catch(() => {}); // awaited below; a runtime that fails first leaves it unheard
  const indexURL = new URL("pyodide/", SITE).href;
  const runtime = await timed("runtime", () => startRuntime(indexURL, local, createModule));
  stamp("runtime");
  const pyodide = runtime.pyodide;
  timings.restored = Boolean(runtime.restored);
  timings.snapshot = runtime.restored || (runtime.snapshotAfter ? "after-ready" : "none");
  if (runtime.restored) {
    // the start-up's bytes are all in: the background wheels below are not part of the bar
    timings.bootFiles = loading.fetched.slice();
    timings.bootBytes = loading.done;
    loading.active = false;
  } else {
    setStage("packages");
    // unpacked, not loadPackage(): that one records the packages in Pyodide's JS state, which a
    // memory snapshot cannot hold ("Unexpected hiwire entry"); the wheels are pure Python
    const [wheels, appSource] = await timed("packages", () => early || engineFiles());
    setStage("engine");
    installEngine(pyodide, wheels, appSource);
  }
  if (loading.active) {
    timings.bootFiles = loading.fetched.slice();
    timings.bootBytes = loading.done;
    loading.active = false;
  }
  timings.bootTotal = loading.total;
  timings.moduleFetches = moduleFetches();
  timings.canPause = await canPause(pyodide);
  // the heap came back with every engine module imported and its data read (the snapshot's
  // imports: snapshot_imports.py), the file system did not: the wheels' files are put back once
  // this worker is idle, for anything that still reads them, never ahead of "ready" or a file
  return { pyodide, app: null, pool: null, snapshotAfter: runtime.snapshotAfter, filesMissing: Boolean(runtime.restored) };
}

// The engine's import, right after "ready" (a restored heap has it already, a normal boot spends a
// few hundred ms on it, which a file dropped at once waits for rather than the page's "ready")
function importEngine(engine) {
  const start = performance.now();
  const app = engine.pyodide.pyimport(APP_MODULE);
  timings.import = Math.round(performance.now() - start);
  stamp("engine imported");
  app.use_site_cmaps(new URL("cmaps/", SITE).href, BUILD.cmaps || []);
  app.use_site_wordlists(new URL("wordlists/", SITE).href);
  app.set_pause_supported(timings.canPause);
  engine.app = app;
  // helpers start from the memory snapshot this worker started from (or, on a first start, the
  // one taken once it is ready), in about a second; without one each would boot for seconds,
  // longer than most documents take
  if (!IS_HELPER && timings.snapshot !== "none" && timings.snapshot !== "after-ready") startPool(engine);
  else timings.poolSize = 1;
  post({ type: "timings", timings });
  return engine;
}

function startPool(engine) {
  timings.poolSize = poolSize();
  engine.pool = new Pool(WORKER_URL, timings.poolSize, poolCalls(engine.pyodide, engine.app), wasmModule);
}

// After a restore: the wheels' files, unpacked while no file is converting (the unpacking holds
// this worker's thread; the fetches do not)
let restoringFiles = false;
function restoreFilesWhenIdle(engine) {
  if (!engine.filesMissing || restoringFiles || busy || queue.length) return;
  restoringFiles = true;
  const start = performance.now();
  Promise.all(BUILD.wheels.map(fetchWheel)).then(async (wheels) => {
    while (busy || queue.length) await new Promise((resolve) => setTimeout(resolve, IDLE_RETRY_MS));
    unpackWheels(engine.pyodide, wheels);
    engine.filesMissing = false;
    timings.packages = Math.round(performance.now() - start);
    stamp("wheels unpacked");
  }).catch((error) => { timings.packagesError = String(error); });
}

// After a first start: the snapshotter takes the memory snapshot for the next visits once this
// worker is ready and has no file to convert (it boots a Pyodide of its own, seconds of CPU that
// would otherwise slow a conversion); then the pool can start helpers from it.
let snapshotter = null;
function snapshotWhenIdle(engine) {
  if (!engine.snapshotAfter || snapshotter || busy || queue.length) return;
  snapshotter = new Worker(WORKER_URL, { type: "module", name: SNAPSHOTTER_NAME });
  const done = (message) => {
    snapshotter.terminate();
    engine.snapshotAfter = false;
    post(message);
    if (message.stored) {
      timings.snapshot = "taken";
      if (!engine.pool) startPool(engine);
      post({ type: "timings", timings });
    }
  };
  snapshotter.onmessage = ({ data }) => { if (data.type === "snapshot") done(data); };
  snapshotter.onerror = (event) => {
    event.preventDefault();
    done({ type: "snapshot", stored: false, error: event.message || "the snapshotter failed" });
  };
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
// (run_sync called through callPromising, as app.py's calls are: no Python source to compile, so
// the interpreter's parser and compiler are not run, nor their wasm functions compiled, before "ready")
async function canPause(pyodide) {
  let ffi = null;
  let runSync = null;
  try {
    ffi = pyodide.pyimport("pyodide.ffi");
    runSync = ffi.run_sync;
    await runSync.callPromising(self.glyphlineYield());
    return true;
  } catch {
    return false;
  } finally {
    if (runSync) runSync.destroy();
    if (ffi) ffi.destroy();
  }
}

// started: the runtime and the engine's files are in ("ready"); then engineReady: imported
const started = IS_SNAPSHOTTER ? new Promise(() => {}) : boot().then(
  (engine) => {
    stamp("ready");
    post({ type: "ready", timings, canPause: timings.canPause });
    return engine;
  },
  (error) => { post({ type: "fatal", message: String(error && error.message || error) }); throw error; },
);
const booting = started.then((engine) => {
  try {
    return importEngine(engine);
  } catch (error) {
    post({ type: "fatal", message: String(error && error.message || error) });
    throw error;
  }
});
booting.then((engine) => setTimeout(() => whenIdle(engine)), () => {}); // after a file posted with the start
if (IS_SNAPSHOTTER) takeLocalSnapshot();

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
  booting.then(whenIdle, () => {});
}

function whenIdle(engine) {
  restoreFilesWhenIdle(engine);
  snapshotWhenIdle(engine);
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
// what came before this module ran (start.mjs kept it), in order
if (START) for (const event of START.messages.splice(0)) self.onmessage(event);
