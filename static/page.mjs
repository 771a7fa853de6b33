// The page: registers the service worker (offline after the first visit), starts the worker
// once the service worker controls the page (so every asset is downloaded exactly once, through
// it), asks it to cache the rest (CMaps) when the converter is ready and the page is idle, and
// exposes window.glyphline for scripting. The UI itself is <glyphline-converter>.
import { deferStart, extractText, preload, status, GlyphlineError } from "./glyphline.js";
import "./converter.js";
import { chooseLanguage, translator } from "./i18n.js";

const language = chooseLanguage(navigator.languages || [navigator.language]);
const t = translator(language);
document.documentElement.lang = language;
document.title = `Glyphline: ${t("title")}`;
for (const node of document.querySelectorAll("[data-text]")) node.textContent = t(node.dataset.text);

window.glyphline = { extractText, preload, status, GlyphlineError };

// A new version of the site installs in the background and waits: the page says so, and its
// "Reload" button lets the waiting service worker take over, then reloads (never mid-conversion
// unasked). <html data-update="ready"> while it is announced (the tests wait for it).
function announceUpdates(registration) {
  const banner = document.getElementById("update");
  const button = document.getElementById("update-reload");
  if (!banner || !button) return;
  let accepted = false;
  const announce = (waiting) => {
    banner.hidden = false;
    document.documentElement.dataset.update = "ready";
    button.onclick = () => {
      accepted = true;
      button.disabled = true;
      waiting.postMessage({ type: "skip-waiting" });
    };
  };
  navigator.serviceWorker.addEventListener("controllerchange", () => { if (accepted) location.reload(); });
  if (registration.waiting && navigator.serviceWorker.controller) announce(registration.waiting);
  registration.addEventListener("updatefound", () => {
    const installing = registration.installing;
    if (!installing) return;
    installing.addEventListener("statechange", () => {
      // "installed" with a controller is an update (the first install has none)
      if (installing.state === "installed" && navigator.serviceWorker.controller) announce(installing);
    });
  });
  // a tab left open for days still hears of new versions when it comes back into view
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") registration.update().catch(() => {});
  });
}

async function serviceWorkerControl() {
  if (!("serviceWorker" in navigator)) return; // plain http on a LAN address: no offline, still works
  const registering = navigator.serviceWorker.register("./sw.js");
  // a returning visit is controlled already: the converter starts now, beside the update check
  if (navigator.serviceWorker.controller) {
    registering.then(announceUpdates, (error) => console.warn("Glyphline: no update check:", error));
    return;
  }
  const registration = await registering;
  announceUpdates(registration);
  if (navigator.serviceWorker.controller) return;
  await new Promise((resolve) => {
    navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true });
    // the first install takes the page as it activates, moments after it registered (any state
    // from installing to activating here): wait for that. One already activated that does not
    // control this page (a hard reload) never will: start without it, as after a failed install
    const coming = registration.active || registration.installing || registration.waiting;
    if (!coming || coming.state === "activated") {
      resolve();
      return;
    }
    coming.addEventListener("statechange", () => {
      if (coming.state === "activated" || coming.state === "redundant") resolve();
    });
  });
}

// <html data-offline="complete"> once every file of the site is in the cache (the tests wait
// for it), "partial" when some could not be fetched (offline, or the server lost one)
function cacheEverythingWhenIdle() {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.addEventListener("message", ({ data }) => {
    if (data && data.type === "offline") document.documentElement.dataset.offline = data.missing ? "partial" : "complete";
  });
  const ask = async () => {
    const registration = await navigator.serviceWorker.ready;
    const target = navigator.serviceWorker.controller || registration.active;
    if (target) target.postMessage({ type: "cache-all" });
  };
  const idle = () => (window.requestIdleCallback ? requestIdleCallback(() => ask(), { timeout: 5000 }) : setTimeout(ask, 1000));
  const onStatus = () => {
    if (status.state !== "ready") return;
    status.removeEventListener("change", onStatus);
    idle();
  };
  status.addEventListener("change", onStatus);
  onStatus();
}

// "Open with Glyphline" (the manifest's file_handlers): the files the system hands over are queued
function acceptLaunchedFiles() {
  if (!("launchQueue" in window)) return;
  window.launchQueue.setConsumer(async ({ files }) => {
    if (!files || !files.length) return;
    const converter = document.querySelector("glyphline-converter");
    if (converter) converter.addFiles(await Promise.all(files.map((handle) => handle.getFile())));
  });
}

acceptLaunchedFiles();
const controlled = serviceWorkerControl().catch((error) => console.warn("Glyphline: offline mode unavailable:", error));
deferStart(controlled); // a file dropped before then waits ("Starting…") instead of starting a second download
cacheEverythingWhenIdle();
controlled.finally(() => preload().catch(() => {}));
