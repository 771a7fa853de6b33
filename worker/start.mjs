// The worker's first script (static/register-sw.js, static/glyphline.js and worker.mjs start their
// workers with it). It imports nothing, so it runs the moment it has arrived, and starts at once
// what needs none of the worker's modules, while those arrive (through the service worker, which
// a static import would only ask for once worker.mjs has arrived and been parsed):
//   - worker.mjs and every module it imports, all asked for together (one round trip, not two),
//     and Pyodide's module (pyodide.asm.mjs, which worker.mjs imports once it runs);
//   - Pyodide's wasm, when the service worker has cached it: compiled from its Cache Storage copy
//     (worker.mjs hands the module to Pyodide, which would compile it only once the snapshot is read);
//     or, for a worker named in WASM_POSTED_NAMES, compiled by whoever started it (the page, which
//     V8 lets reuse its code cache, or the coordinator for its helpers) and posted here as a
//     {type: WASM_MESSAGE, module} message: this worker then compiles it only when that message
//     brings none, or when Pyodide needs it before it came (the first of the two modules is taken);
//   - the memory snapshot an earlier visit stored in Cache Storage: looked up, and when the cache
//     holds one snapshot (it keeps only the latest build's), its bytes read from now on;
//     worker.mjs takes it (glyphlineStart.snapshot) if its URL names this build, else drops it.
// Messages that arrive before worker.mjs has run are kept, in order, for its handler.
const SNAPSHOT_CACHE = "glyphline-snapshot"; // worker.mjs's, where its snapshotter stores the snapshot
const SNAPSHOTTER_NAME = "glyphline-snapshotter"; // worker.mjs's: that worker takes a snapshot (Pyodide's own boot)
const IMPORTS = ["./build.mjs", "./engine_setup.mjs", "./pool.mjs", "../pyodide/pyodide.mjs", "../vendor/aes-js.mjs",
  "../pyodide/pyodide.asm.mjs"];
const WASM_URL = new URL("../pyodide/pyodide.asm.wasm", import.meta.url).href;

// The workers whose starter compiles Pyodide's wasm and posts the module here, by their names (a
// search parameter would not do: the service worker answers from its cache, under the plain URL
// that then is this script's): register-sw.js's on a later visit (the page, which V8 lets reuse
// the compiled code from its code cache), and the pool's helpers (pool.mjs: the coordinator's)
const WASM_POSTED_NAMES = ["glyphline-wasm-posted", "glyphline-helper"];
const WASM_MESSAGE = "glyphline-wasm"; // {type, module: a WebAssembly.Module, or null: none compiled}
let receivePosted = null;
const posted = WASM_POSTED_NAMES.includes(self.name) ? new Promise((resolve) => { receivePosted = resolve; }) : null;
let wasmNeeded = null; // called by worker.mjs when Pyodide asks for the wasm
const needed = new Promise((resolve) => { wasmNeeded = resolve; });

// {response, compiled} (the cached response, whose body worker.mjs reads to count it, and the
// promise of the module compiled from a copy), or null: not cached, or no streaming compile here
async function cachedWasm() {
  if (!self.caches || !WebAssembly.compileStreaming || self.name === SNAPSHOTTER_NAME) return null;
  const hit = await caches.match(WASM_URL, { ignoreSearch: true });
  if (!hit || !hit.ok) return null;
  const compiled = WebAssembly.compileStreaming(hit.clone());
  compiled.catch(() => {}); // worker.mjs then has Pyodide fetch and compile it
  return { response: hit, compiled };
}

// {module}: the module posted here (worker.mjs counts its bytes as arrived, none is read), else
// what cachedWasm finds, once the message said none was compiled or Pyodide needs the wasm first
// (a module posted after that is still taken if it comes before this worker's own compile ends)
async function postedWasm() {
  const first = await Promise.race([posted, needed.then(() => undefined)]);
  if (first) {
    self.glyphlineStart.wasmFrom = "posted";
    return { module: first };
  }
  const own = await cachedWasm();
  if (!own || first === null) return own;
  // the first of the two modules (wasmFrom says which); the posted one may still come first: the
  // page began its compile before this worker even started
  const compiled = new Promise((resolve, reject) => {
    const take = (from, module) => {
      if (self.glyphlineStart.wasmFrom) return;
      self.glyphlineStart.wasmFrom = from;
      resolve(module);
    };
    posted.then((module) => { if (module) take("posted", module); });
    own.compiled.then((module) => take("own", module), reject); // (then worker.mjs has Pyodide fetch and compile it)
  });
  compiled.catch(() => {});
  return { response: own.response, compiled };
}

// {url, buffer: the promise of its bytes (an ArrayBuffer)} for the one snapshot stored, null when none is,
// undefined when this cannot tell (no Cache Storage, several snapshots): worker.mjs looks itself
async function storedSnapshot() {
  if (!self.caches || self.name === SNAPSHOTTER_NAME) return undefined;
  const cache = await caches.open(SNAPSHOT_CACHE);
  // (a stored Response has no URL of its own: the keys say which, in the same order)
  const [keys, found] = await Promise.all([cache.keys(), cache.matchAll()]);
  if (found.length !== 1 || keys.length !== 1) return found.length ? undefined : null;
  const buffer = found[0].arrayBuffer();
  buffer.catch(() => {}); // a failed read fails the restore, which then boots normally
  return { url: keys[0].url, buffer };
}

self.glyphlineStart = {
  ranAt: performance.now(),
  // first: its compile is work for this thread while the snapshot is read
  wasm: (posted ? postedWasm() : cachedWasm()).catch(() => null),
  wasmNeeded,
  wasmFrom: null, // "posted" or "own": where the module Pyodide was given came from (a posted module was expected)
  snapshot: storedSnapshot().catch(() => undefined),
  messages: [],
};
const isWasmMessage = (event) => Boolean(event.data && event.data.type === WASM_MESSAGE);
self.onmessage = (event) => { if (!isWasmMessage(event)) self.glyphlineStart.messages.push(event); };
// (a listener of its own: worker.mjs's onmessage, which ignores this type, replaces the one above)
if (receivePosted) {
  self.addEventListener("message", (event) => {
    if (isWasmMessage(event)) receivePosted(event.data.module instanceof WebAssembly.Module ? event.data.module : null);
  });
}
for (const path of IMPORTS) import(path).catch(() => {}); // worker.mjs's own import reports a failure
import("./worker.mjs").catch((error) => {
  self.postMessage({ type: "fatal", message: `the worker's modules did not load: ${String(error && error.message || error)}` });
});
