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
if ("serviceWorker" in navigator && navigator.serviceWorker.controller && typeof Worker === "function"
    && self.glyphlineEarlyWorker === undefined) {
  try {
    const url = new URL("../worker/start.mjs", document.currentScript.src).href;
    const worker = new Worker(url, { type: "module", name: "glyphline" });
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
