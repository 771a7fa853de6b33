// How the engine goes into a Pyodide: the one boot sequence, shared by the app's worker
// (worker.mjs, whose snapshotter takes the visitor's snapshot) and the two snapshot builders (tools/pyodide_build.mjs in Node,
// tools/browser_snapshot.py in Chromium), so a snapshot holds the heap the worker would build.

export const APP_MODULE = "glyphline_app"; // app.py's module name inside Pyodide

// Python holds js.aesjs (the AES shim), and a memory snapshot can only refer to JS objects
// reachable from globalThis by name: set before Pyodide starts.
export function exposeAes(aesjs) {
  globalThis.aesjs = aesjs;
}

// Pyodide from indexURL, which serves its packages too (no CDN); `extra`: loadPyodide's other options
export function startPyodide(loadPyodide, indexURL, extra = {}) {
  return loadPyodide({ indexURL, packageBaseUrl: indexURL, ...extra });
}

// wheels: their bytes (Uint8Array), unpacked into site-packages
export function unpackWheels(pyodide, wheels) {
  for (const wheel of wheels) pyodide.unpackArchive(wheel, "wheel");
}

// app.py (the Python side of the worker protocol) as the module APP_MODULE
export function installApp(pyodide, appSource) {
  const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
  pyodide.FS.writeFile(`${sitePackages}/${APP_MODULE}.py`, appSource);
}

// The snapshot builders' sequence: a snapshot-making Pyodide with the wheels and app.py
// installed and the engine imported (preimport: tools/snapshot_imports.py)
export async function bootForSnapshot(loadPyodide, indexURL, wheels, appSource, preimport, extra = {}) {
  const pyodide = await startPyodide(loadPyodide, indexURL, { ...extra, _makeSnapshot: true });
  unpackWheels(pyodide, wheels);
  installApp(pyodide, appSource);
  pyodide.runPython(preimport);
  return pyodide;
}

// The memory snapshot as the worker stores it in Cache Storage: Pyodide's snapshot with its long
// runs of zero pages left out (a third to a half of a snapshot taken after the engine's import:
// heap the allocator reserved and never wrote), so that a warm start reads ~20 MB, not ~35.
// Format (little-endian u32s): PACKED_MAGIC, the snapshot's length, the number of kept segments,
// each segment's [offset, length], then the segments' bytes one after the other.
const PACKED_MAGIC = 0x31504c47; // "GLP1"; Pyodide's own snapshots start with another magic number
const ZERO_PAGE = 4096; // zeros are looked for a page at a time (the allocator hands memory out in pages)
const MIN_ZERO_RUN = 16 * ZERO_PAGE; // shorter runs of zeros are kept: a segment costs 8 bytes of header

function zeroPage(words, page) {
  const end = Math.min(words.length, (page + 1) * (ZERO_PAGE / 4));
  for (let i = page * (ZERO_PAGE / 4); i < end; i++) if (words[i] !== 0) return false;
  return true;
}

// bytes (Uint8Array, offset and length multiples of 4): the packed copy (a new Uint8Array)
export function packSnapshot(bytes) {
  if (bytes.byteOffset % 4 || bytes.byteLength % 4) return bytes; // (never so from Pyodide: stored as it is)
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
  const pages = Math.ceil(bytes.byteLength / ZERO_PAGE);
  const segments = []; // [offset, end) of kept bytes
  let keptFrom = 0;
  for (let page = 0; page < pages;) {
    if (!zeroPage(words, page)) { page += 1; continue; }
    let end = page + 1;
    while (end < pages && zeroPage(words, end)) end += 1;
    const from = page * ZERO_PAGE;
    const to = Math.min(bytes.byteLength, end * ZERO_PAGE);
    if (to - from >= MIN_ZERO_RUN) {
      if (from > keptFrom) segments.push([keptFrom, from]);
      keptFrom = to;
    }
    page = end;
  }
  if (keptFrom < bytes.byteLength) segments.push([keptFrom, bytes.byteLength]);
  const headerBytes = 4 * (3 + 2 * segments.length);
  const kept = segments.reduce((sum, [from, to]) => sum + to - from, 0);
  const packed = new Uint8Array(headerBytes + kept);
  const header = new DataView(packed.buffer);
  header.setUint32(0, PACKED_MAGIC, true);
  header.setUint32(4, bytes.byteLength, true);
  header.setUint32(8, segments.length, true);
  let at = headerBytes;
  segments.forEach(([from, to], index) => {
    header.setUint32(12 + 8 * index, from, true);
    header.setUint32(16 + 8 * index, to - from, true);
    packed.set(bytes.subarray(from, to), at);
    at += to - from;
  });
  return packed;
}

// the snapshot packSnapshot packed (a new Uint8Array, zeros put back), or `bytes` itself when it
// is not packed (Pyodide's own format: a snapshot shipped by the build)
export function unpackSnapshot(bytes) {
  if (bytes.byteLength < 12) return bytes;
  const header = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (header.getUint32(0, true) !== PACKED_MAGIC) return bytes;
  const snapshot = new Uint8Array(header.getUint32(4, true));
  const count = header.getUint32(8, true);
  let at = 4 * (3 + 2 * count);
  for (let index = 0; index < count; index++) {
    const offset = header.getUint32(12 + 8 * index, true);
    const length = header.getUint32(16 + 8 * index, true);
    snapshot.set(bytes.subarray(at, at + length), offset);
    at += length;
  }
  if (at !== bytes.byteLength) throw new Error("damaged snapshot: its segments and its length disagree");
  return snapshot;
}
