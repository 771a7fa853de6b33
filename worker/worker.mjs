// The Glyphline worker: boots Pyodide once, installs pypdf and the engine from same-origin
// wheels, then converts one file at a time through app.py (the Python side of the protocol).
//
//   page → worker  {type: "convert", id, bytes (ArrayBuffer, transferred), options}
//   page → worker  {type: "cancel", id}     seen between pages when canPause, else the page restarts the worker
//   worker → page  {type: "loading", stage, done, total}        start-up, stage by stage
//   worker → page  {type: "ready", timings, canPause} | {type: "fatal", message}
//   worker → page  {type: "progress", id, page, pages}          after every page
//   worker → page  {type: "result", id, text, pages, pageCount, ...} | {type: "error", id, kind, message}
//                  | {type: "cancelled", id}
import { loadPyodide } from "../pyodide/pyodide.mjs";
import aesjs from "../vendor/aes-js.mjs";
import { BUILD } from "./build.mjs";

// set before loadPyodide: Python reaches it as js.aesjs (the AES shim), and a memory
// snapshot can only refer to JS objects reachable from globalThis
self.aesjs = aesjs;
// a macrotask turn without setTimeout's clamping, so a queued "cancel" message gets delivered
self.glyphlineYield = () => new Promise((resolve) => {
  const channel = new MessageChannel();
  channel.port1.onmessage = () => resolve();
  channel.port2.postMessage(null);
});

const SITE = new URL("../", import.meta.url);
const APP_MODULE = "glyphline_app";
const timings = {};
const cancelled = new Set();
const queue = [];
let busy = false;

function post(message, transfer) {
  self.postMessage(message, transfer || []);
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
  const response = await fetch(new URL(`snapshot/${BUILD.snapshot}`, SITE));
  if (!response.ok) throw new Error(`snapshot: HTTP ${response.status}`);
  const raw = await new Response(response.body.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
  return new Uint8Array(raw);
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

// Restores the memory snapshot made at build time (engine already imported); any failure
// (another Pyodide build, an old browser, a missing file) falls back to a normal boot.
async function startRuntime(indexURL) {
  if (BUILD.snapshot) {
    try {
      const [snapshot, { default: createModule }] = await Promise.all([
        fetchSnapshot(), import("../pyodide/pyodide.asm.mjs"),
      ]);
      const header = new Uint32Array(snapshot.buffer, snapshot.byteOffset, 4); // [magic, header bytes, ...]
      const createPyodideModule = growingModuleFactory(createModule, snapshot.byteLength - header[1]);
      const pyodide = await loadPyodide({ indexURL, packageBaseUrl: indexURL, _loadSnapshot: snapshot, createPyodideModule });
      return { pyodide, restored: true };
    } catch (error) {
      timings.snapshotError = String(error && error.message || error);
    }
  }
  return { pyodide: await loadPyodide({ indexURL, packageBaseUrl: indexURL }), restored: false };
}

async function fetchWheel(name) {
  const response = await fetch(new URL(`wheels/${name}`, SITE));
  if (!response.ok) throw new Error(`wheels/${name}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

async function boot() {
  const total = BUILD.runtimeBytes + BUILD.wheelBytes + (BUILD.snapshotBytes || 0);
  post({ type: "loading", stage: "runtime", done: 0, total });
  const indexURL = new URL("pyodide/", SITE).href;
  const { pyodide, restored } = await timed("runtime", () => startRuntime(indexURL));
  timings.restored = restored;
  post({ type: "loading", stage: "packages", done: total - BUILD.wheelBytes, total });
  if (restored) {
    // the heap came back with every engine module imported (the build imports them all), the
    // file system did not: the wheels' files are put back in the background, for anything that
    // still reads them, without holding up "ready" or the first file
    const start = performance.now();
    Promise.all(BUILD.wheels.map(fetchWheel)).then((wheels) => {
      for (const wheel of wheels) pyodide.unpackArchive(wheel, "wheel");
      timings.packages = Math.round(performance.now() - start);
    }).catch((error) => { timings.packagesError = String(error); });
  } else {
    const failures = [];
    await timed("packages", () => pyodide.loadPackage(
      BUILD.wheels.map((name) => new URL(`wheels/${name}`, SITE).href),
      { messageCallback: () => {}, errorCallback: (message) => failures.push(message) },
    ));
    // loadPackage resolves even when a fetch failed; it only reports through errorCallback
    if (failures.length) throw new Error(failures.join("; "));
    post({ type: "loading", stage: "engine", done: total, total });
    const appSource = await (await fetch(new URL("app.py", SITE))).text();
    const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
    pyodide.FS.writeFile(`${sitePackages}/${APP_MODULE}.py`, appSource);
  }
  const app = await timed("import", () => pyodide.pyimport(APP_MODULE));
  app.use_site_cmaps(new URL("cmaps/", SITE).href);
  app.use_site_wordlists(new URL("wordlists/", SITE).href);
  timings.canPause = await canPause(pyodide);
  app.set_pause_supported(timings.canPause);
  return { pyodide, app };
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
  const reply = (message) => post(toPlain(message));
  try {
    // callPromising lets app.py pause between pages (run_sync) so "cancel" can arrive
    const message = await app.convert.callPromising(
      job.id, new Uint8Array(job.bytes), options, reply, () => cancelled.has(job.id),
    );
    return toPlain(message);
  } finally {
    options.destroy();
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

self.onmessage = ({ data: message }) => {
  if (message.type === "cancel") {
    cancelled.add(message.id);
  } else if (message.type === "convert") {
    queue.push(message);
    pump();
  }
};
