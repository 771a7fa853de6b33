// The worker's first script (static/register-sw.js, static/glyphline.js and worker.mjs start their
// workers with it). It imports nothing, so it runs the moment it has arrived, and starts at once
// what needs none of the worker's modules, while those arrive (through the service worker, which
// a static import would only ask for once worker.mjs has arrived and been parsed):
//   - worker.mjs and every module it imports, all asked for together (one round trip, not two),
//     and Pyodide's module (pyodide.asm.mjs, which worker.mjs imports once it runs);
//   - Pyodide's wasm, when the service worker has cached it: compiled from its Cache Storage copy
//     (worker.mjs hands the module to Pyodide, which would compile it only once the snapshot is read);
//   - the memory snapshot an earlier visit stored in Cache Storage: looked up, and when the cache
//     holds one snapshot (it keeps only the latest build's), its bytes read from now on;
//     worker.mjs takes it (glyphlineStart.snapshot) if its URL names this build, else drops it.
// Messages that arrive before worker.mjs has run are kept, in order, for its handler.
const SNAPSHOT_CACHE = "glyphline-snapshot"; // worker.mjs's, where its snapshotter stores the snapshot
const SNAPSHOTTER_NAME = "glyphline-snapshotter"; // worker.mjs's: that worker takes a snapshot (Pyodide's own boot)
const IMPORTS = ["./build.mjs", "./engine_setup.mjs", "./pool.mjs", "../pyodide/pyodide.mjs", "../vendor/aes-js.mjs",
  "../pyodide/pyodide.asm.mjs"];
const WASM_URL = new URL("../pyodide/pyodide.asm.wasm", import.meta.url).href;

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
  wasm: cachedWasm().catch(() => null), // first: its compile is work for this thread while the snapshot is read
  snapshot: storedSnapshot().catch(() => undefined),
  messages: [],
};
self.onmessage = (event) => self.glyphlineStart.messages.push(event);
for (const path of IMPORTS) import(path).catch(() => {}); // worker.mjs's own import reports a failure
import("./worker.mjs").catch((error) => {
  self.postMessage({ type: "fatal", message: `the worker's modules did not load: ${String(error && error.message || error)}` });
});
