// The service worker's registration, started the moment this small script arrives rather than
// once the page's modules have all loaded and run: on a first visit the converter's worker waits
// for the service worker to take the page (static/page.mjs registers the same script again,
// which joins this registration, and follows it).
if ("serviceWorker" in navigator) navigator.serviceWorker.register("./sw.js").catch(() => {}); // page.mjs reports failures

// A later visit (the service worker controls the page already, so the worker's files come
// through it as they would later): the converter's worker starts here too, while the page's
// modules load, instead of after they ran. static/glyphline.js takes it over (glyphlineEarlyWorker),
// with what it said meanwhile, which is kept in order until then.
// (not when the page has started its worker already: glyphlineEarlyWorker is null then)
// Pyodide's wasm is compiled here, on the page, from its Cache Storage copy, and the module posted
// to the worker (worker/start.mjs: WASM_POSTED_NAMES, WASM_MESSAGE): the browser keeps the compiled code
// of a wasm module compiled in a page (its code cache) and reuses it on the next visit, not of
// one compiled in a dedicated worker. The worker takes its own compile if none comes in time.
if ("serviceWorker" in navigator && navigator.serviceWorker.controller && typeof Worker === "function"
    && self.glyphlineEarlyWorker === undefined) {
  try {
    const url = new URL("../worker/start.mjs", document.currentScript.src).href;
    const wasmUrl = new URL("../pyodide/pyodide.asm.wasm", document.currentScript.src).href;
    const compiling = self.caches && WebAssembly.compileStreaming
      ? caches.match(wasmUrl, { ignoreSearch: true })
        .then((hit) => hit && hit.ok ? WebAssembly.compileStreaming(hit) : null)
      : null;
    // (named so that it waits for the module: worker/start.mjs's WASM_POSTED_NAMES)
    const worker = new Worker(url, { type: "module", name: compiling ? "glyphline-wasm-posted" : "glyphline" });
    if (compiling) {
      const send = (module) => worker.postMessage({ type: "glyphline-wasm", module });
      compiling.then((module) => {
        if (module) performance.mark("glyphline: wasm compiled on the page"); // (bench/browser.py's stages)
        try { send(module); } catch { send(null); } // cannot be posted here: the worker compiles its own
      }, () => send(null));
    }
    const early = { url, worker, events: [], createdAt: performance.now() };
    worker.onmessage = (event) => early.events.push(event);
    worker.onerror = (event) => {
      event.preventDefault(); // reported when glyphline.js takes the worker over
      early.events.push(event);
    };
    self.glyphlineEarlyWorker = early;
  } catch {
    // no module workers here: glyphline.js starts its own (and says why it cannot)
  }
}
