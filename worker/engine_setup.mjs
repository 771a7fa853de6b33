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
