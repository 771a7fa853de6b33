// Glyphline service worker: precaches the site so later visits start offline.
// tools/build_site.py fills in ASSETS (every file of dist/ but cmaps/) and VERSION (a hash of all contents).
// CMap files are fetched only when a PDF's font needs one, and cached then (ON_DEMAND).
const VERSION = "@VERSION@";
const ASSETS = /*@ASSETS@*/[];
const ON_DEMAND = "/cmaps/";

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(VERSION);
    // cache: "reload" skips the HTTP cache, so a new version never mixes in stale files
    await cache.addAll(ASSETS.map((url) => new Request(url, { cache: "reload" })));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key !== VERSION) await caches.delete(key);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith((async () => {
    const cache = await caches.open(VERSION);
    const hit = await cache.match(request, { ignoreSearch: true });
    if (hit) return hit;
    try {
      const response = await fetch(request);
      if (response.ok && new URL(request.url).pathname.includes(ON_DEMAND)) {
        await cache.put(request, response.clone());
      }
      return response;
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
