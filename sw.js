// Glyphline service worker: the site offline after the first visit, every file downloaded once;
// a new version waits until the page's "Reload" (see install).
// tools/build_site.py fills in the lists and VERSION (a hash of all contents):
//   SHELL   the page, its scripts and styles: an update caches them at install; a first install
//           takes the page at once (which has them already) and caches them with the rest once the
//           converter is ready, so the converter's big files go through this worker from their
//           first fetch without waiting for a precache
//   LATER   the converter's runtime, snapshot and wheels: cached as the worker fetches them (one
//           download, which the page counts byte by byte for its progress bar)
//   CMAPS   CJK font data: cached when a font needs one, and all of them in the background once
//           the page says the converter is ready ("cache-all"), so every file works offline
//   OCR     tesseract.js, its core and language data: cached when a user first asks for OCR
//   RENDERER pdf.js (static/pdfrender.mjs): cached when a page is first rendered
const VERSION = "@VERSION@";
const SHELL = /*@SHELL@*/[];
const LATER = /*@LATER@*/[];
const CMAPS = /*@CMAPS@*/[];
const OCR = /*@OCR@*/[];
const RENDERER = /*@RENDERER@*/[];
const CACHE_ALL_PARALLEL = 4;
const SNAPSHOT_CACHE = "glyphline-snapshot"; // worker/worker.mjs: the snapshot taken on this machine

const known = new Set([...SHELL, ...LATER, ...CMAPS, ...OCR, ...RENDERER].map((path) => new URL(path, self.location.href).href));
const storing = new Map(); // url → settles when its fetch-and-store is over, so no file is fetched twice

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    // the first install takes the page at once, with nothing to wait for: the page has the
    // SHELL already, so it is cached with the rest once the converter is ready ("cache-all"),
    // and the converter's start (its big files through this worker) waits for no precaching
    if (!self.registration.active) {
      await self.skipWaiting();
      return;
    }
    // an update caches the SHELL, then waits until the page's "Reload" (it posts "skip-waiting"),
    // so new code never replaces the old under a running conversion.
    // cache: "no-cache" revalidates: never a stale file, and what the page loaded is not sent again
    const cache = await caches.open(VERSION);
    await cache.addAll(SHELL.map((url) => new Request(url, { cache: "no-cache" })));
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      // the worker's memory snapshot (keyed by the build's id) is the worker's to replace
      if (key !== VERSION && key !== SNAPSHOT_CACHE) await caches.delete(key);
    }
    await self.clients.claim();
  })());
});

function assetURL(request) {
  const url = new URL(request.url);
  url.search = "";
  url.hash = "";
  return url.href;
}

// fetches a site file and stores it; the caller gets the response at once, while it streams.
// The file is in `storing` from the moment its fetch starts until its copy is in the cache.
function fetchAndStore(url) {
  let settle;
  const stored = new Promise((resolve) => { settle = resolve; });
  const done = () => { storing.delete(url); settle(); };
  storing.set(url, stored);
  return fetch(url, { cache: "no-cache" }).then((response) => { // revalidated: never a stale version
    if (!response.ok) {
      done();
      return response;
    }
    const copy = response.clone(); // now, before the caller starts reading the body
    caches.open(VERSION)
      .then((cache) => cache.put(url, copy))
      .catch(() => {}) // quota or an aborted body: fetched again next time
      .finally(done);
    return response;
  }, (error) => {
    done();
    throw error;
  });
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith((async () => {
    const cache = await caches.open(VERSION);
    const hit = await cache.match(request, { ignoreSearch: true });
    if (hit) return hit;
    const url = assetURL(request);
    try {
      if (!known.has(url)) return await fetch(request);
      if (storing.has(url)) { // the same file is on its way in: wait for it, do not fetch it again
        await storing.get(url);
        const stored = await cache.match(url);
        if (stored) return stored;
      }
      const response = fetchAndStore(url);
      event.waitUntil(storing.get(url)); // the worker lives until the copy is stored
      return await response;
    } catch (error) {
      // offline and not cached: a navigation still gets the app shell
      if (request.mode === "navigate") {
        const shell = await cache.match("./index.html");
        if (shell) return shell;
      }
      throw error;
    }
  })());
});

// Everything not cached yet (files a start-up did not need, every CMap), a few at a time; the
// clients hear {type: "offline", cached, total, missing} when done.
async function cacheAll() {
  const cache = await caches.open(VERSION);
  const queue = [...SHELL, ...LATER, ...CMAPS].map((path) => new URL(path, self.location.href).href);
  const total = queue.length;
  let missing = 0;
  async function next() {
    while (queue.length) {
      const url = queue.shift();
      if (storing.has(url)) await storing.get(url);
      if (await cache.match(url)) continue;
      try {
        const pending = fetchAndStore(url);
        const stored = storing.get(url);
        const response = await pending;
        if (response.body) response.body.cancel(); // nobody reads it here: the cache has its copy
        await stored;
        if (!response.ok || !(await cache.match(url))) missing += 1;
      } catch {
        missing += 1; // offline: tried again on the next visit
      }
    }
  }
  await Promise.all(Array.from({ length: CACHE_ALL_PARALLEL }, next));
  const message = { type: "offline", cached: total - missing, total, missing };
  for (const client of await self.clients.matchAll({ includeUncontrolled: true })) client.postMessage(message);
}

let cachingAll = null;
self.addEventListener("message", (event) => {
  if (event.data && event.data.type === "skip-waiting") {
    event.waitUntil(self.skipWaiting());
    return;
  }
  if (!event.data || event.data.type !== "cache-all") return;
  if (!cachingAll) cachingAll = cacheAll().finally(() => { cachingAll = null; });
  event.waitUntil(cachingAll);
});
