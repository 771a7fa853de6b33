// The service worker's registration, started the moment this small script arrives rather than
// once the page's modules have all loaded and run: on a first visit the converter's worker waits
// for the service worker to take the page (static/page.mjs registers the same script again,
// which joins this registration, and follows it).
if ("serviceWorker" in navigator) navigator.serviceWorker.register("./sw.js").catch(() => {}); // page.mjs reports failures
